//! Property tests: integer expression trees agree with an independent i128
//! reference evaluation, and arbitrary (even ill-typed) trees never panic.

use proptest::prelude::*;
use warpsafe_interp::{eval, math::FUNCTIONS, Env, FaultKind, Value};
use warpsafe_ir::{BinOp, Builtin, Const, Expr, ScalarTy, UnOp, VarId};

const TYS: [ScalarTy; 3] = [ScalarTy::I32, ScalarTy::U32, ScalarTy::U8];

/// Variables 0..6: two of each tested type.
#[derive(Debug)]
struct Vars(Vec<Value>);

impl Env for Vars {
    fn var(&self, id: VarId) -> Result<Value, FaultKind> {
        self.0
            .get(id.0 as usize)
            .copied()
            .ok_or(FaultKind::UninitialisedVariable(id))
    }
    fn builtin(&self, _: Builtin) -> Value {
        Value::U32(7)
    }
}

fn var_ty(id: u32) -> ScalarTy {
    TYS[(id / 2) as usize]
}

fn vars() -> impl Strategy<Value = Vars> {
    (
        any::<i32>(),
        any::<i32>(),
        any::<u32>(),
        any::<u32>(),
        any::<u8>(),
        any::<u8>(),
    )
        .prop_map(|(a, b, c, d, e, f)| {
            Vars(vec![
                Value::I32(a),
                Value::I32(b),
                Value::U32(c),
                Value::U32(d),
                Value::U8(e),
                Value::U8(f),
            ])
        })
}

/// `x` wrapped into `ty`'s range, by arithmetic (not by `as`).
fn wrap(ty: ScalarTy, x: i128) -> i128 {
    let bits = ty.bits();
    let m = x.rem_euclid(1i128 << bits);
    if ty.is_signed() && m >= 1i128 << (bits - 1) {
        m - (1i128 << bits)
    } else {
        m
    }
}

/// The reference: the value of `e` (in its type's range), or `None` where
/// C leaves it undefined (division by zero, bad shift amounts).
fn reference(e: &Expr, env: &Vars) -> Option<i128> {
    Some(match e {
        Expr::Const(Const::Int(v), ty) => wrap(*ty, *v),
        Expr::Var(id) => env.0[id.0 as usize].as_int()?,
        Expr::Cast(ty, a) => wrap(*ty, reference(a, env)?),
        Expr::Unary(op, ty, a) => {
            let x = reference(a, env)?;
            match op {
                UnOp::Neg => wrap(*ty, -x),
                UnOp::BitNot => wrap(*ty, !x),
                UnOp::Not => return None,
            }
        }
        Expr::Binary(op, ty, a, b) => {
            let (x, y) = (reference(a, env)?, reference(b, env)?);
            let bits = i128::from(ty.bits());
            match op {
                BinOp::Add => wrap(*ty, x.wrapping_add(y)),
                BinOp::Sub => wrap(*ty, x.wrapping_sub(y)),
                BinOp::Mul => wrap(*ty, x.wrapping_mul(y)),
                BinOp::BitAnd => wrap(*ty, x & y),
                BinOp::BitOr => wrap(*ty, x | y),
                BinOp::BitXor => wrap(*ty, x ^ y),
                BinOp::Div if y == 0 => return None,
                BinOp::Rem if y == 0 => return None,
                BinOp::Div => wrap(*ty, x / y),
                BinOp::Rem => wrap(*ty, x % y),
                BinOp::Shl | BinOp::Shr if y < 0 || y >= bits => return None,
                BinOp::Shl => wrap(*ty, x << y),
                BinOp::Shr => wrap(*ty, x >> y),
                _ => return None,
            }
        }
        _ => return None,
    })
}

/// Typed integer trees over i32/u32/u8; operands of another type are cast
/// to the operator's type, as the front end does.
fn tree(ops: Vec<BinOp>, unary: bool) -> impl Strategy<Value = (Expr, ScalarTy)> {
    let leaf = prop_oneof![
        (0..3usize, any::<i64>()).prop_map(|(t, v)| {
            let ty = TYS[t];
            (Expr::int(wrap(ty, v.into()), ty), ty)
        }),
        (0..6u32).prop_map(|id| (Expr::Var(VarId(id)), var_ty(id))),
    ];
    leaf.prop_recursive(6, 64, 2, move |inner| {
        let to = |(e, t): (Expr, ScalarTy), ty: ScalarTy| {
            if t == ty {
                e
            } else {
                Expr::Cast(ty, Box::new(e))
            }
        };
        let ops = ops.clone();
        let bin = (
            inner.clone(),
            inner.clone(),
            proptest::sample::select(ops),
            0..3usize,
        )
            .prop_map(move |(a, b, op, t)| {
                let ty = TYS[t];
                (Expr::binary(op, ty, to(a, ty), to(b, ty)), ty)
            });
        let un = (inner.clone(), any::<bool>(), 0..3usize).prop_map(move |(a, neg, t)| {
            let ty = TYS[t];
            let op = if neg { UnOp::Neg } else { UnOp::BitNot };
            (Expr::Unary(op, ty, Box::new(to(a, ty))), ty)
        });
        let cast = (inner, 0..3usize).prop_map(move |(a, t)| {
            let ty = TYS[t];
            (Expr::Cast(ty, Box::new(a.0)), ty)
        });
        if unary {
            prop_oneof![3 => bin, 1 => un, 1 => cast].boxed()
        } else {
            prop_oneof![4 => bin, 1 => cast].boxed()
        }
    })
}

fn ring_ops() -> Vec<BinOp> {
    vec![
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::BitAnd,
        BinOp::BitOr,
        BinOp::BitXor,
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Add/Sub/Mul/And/Or/Xor (with casts) never fault and agree with the
    /// reference computed in i128 and wrapped.
    #[test]
    fn ring_ops_agree_with_i128_reference((e, ty) in tree(ring_ops(), false), env in vars()) {
        let got = eval(&e, &env);
        let want = reference(&e, &env).expect("ring operations are total");
        let got = got.expect("ring operations never fault");
        prop_assert_eq!(got.ty(), ty);
        prop_assert_eq!(got.as_int(), Some(want));
    }

    /// With division, remainder, shifts, negation and complement too: the
    /// interpreter faults exactly where C is undefined, and agrees elsewhere.
    #[test]
    fn all_integer_ops_agree_or_fault(
        (e, ty) in tree({
            let mut ops = ring_ops();
            ops.extend([BinOp::Div, BinOp::Rem, BinOp::Shl, BinOp::Shr]);
            ops
        }, true),
        env in vars(),
    ) {
        match (eval(&e, &env), reference(&e, &env)) {
            (Ok(v), Some(want)) => {
                prop_assert_eq!(v.ty(), ty);
                prop_assert_eq!(v.as_int(), Some(want));
            }
            (Err(FaultKind::DivisionByZero | FaultKind::UndefinedShift { .. }), None) => {}
            (got, want) => prop_assert!(false, "got {:?}, reference {:?}", got, want),
        }
    }

    /// Arbitrary trees of any types, operators and known function names,
    /// typed consistently or not, evaluate to a value or a fault: no panic.
    #[test]
    fn arbitrary_trees_never_panic(e in any_tree(), env in vars()) {
        let _ = eval(&e, &env);
    }
}

const ALL_TYS: [ScalarTy; 12] = [
    ScalarTy::Bool,
    ScalarTy::I8,
    ScalarTy::U8,
    ScalarTy::I16,
    ScalarTy::U16,
    ScalarTy::I32,
    ScalarTy::U32,
    ScalarTy::I64,
    ScalarTy::U64,
    ScalarTy::F16,
    ScalarTy::F32,
    ScalarTy::F64,
];

fn any_ty() -> impl Strategy<Value = ScalarTy> {
    proptest::sample::select(ALL_TYS.to_vec())
}

fn any_tree() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        (any_ty(), any::<i128>()).prop_map(|(ty, v)| Expr::Const(Const::Int(v), ty)),
        (any_ty(), any::<f64>()).prop_map(|(ty, v)| Expr::Const(Const::Float(v), ty)),
        (any_ty(), any::<bool>()).prop_map(|(ty, v)| Expr::Const(Const::Bool(v), ty)),
        (0..8u32).prop_map(|id| Expr::Var(VarId(id))),
        Just(Expr::Builtin(Builtin::WarpSize)),
    ];
    leaf.prop_recursive(5, 48, 3, |inner| {
        prop_oneof![
            (
                proptest::sample::select(BinOp::ALL.to_vec()),
                any_ty(),
                inner.clone(),
                inner.clone()
            )
                .prop_map(|(op, ty, a, b)| Expr::binary(op, ty, a, b)),
            (
                proptest::sample::select(vec![UnOp::Neg, UnOp::Not, UnOp::BitNot]),
                any_ty(),
                inner.clone()
            )
                .prop_map(|(op, ty, a)| Expr::Unary(op, ty, Box::new(a))),
            (any_ty(), inner.clone()).prop_map(|(ty, a)| Expr::Cast(ty, Box::new(a))),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(|(c, a, b)| Expr::Select(
                Box::new(c),
                Box::new(a),
                Box::new(b)
            )),
            (
                proptest::sample::select(FUNCTIONS.to_vec()),
                any_ty(),
                proptest::collection::vec(inner, 0..4)
            )
                .prop_map(|(name, ty, args)| Expr::Call(name.to_string(), ty, args)),
        ]
    })
}
