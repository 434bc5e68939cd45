//! Arithmetic, casts, shifts, floats and math calls, run through kernels.

mod common;

use common::*;
use warpsafe_interp::{
    eval, Env, EvalOptions, FaultKind, FloatToInt, Overflow, ThreadConfig, Value,
};
use warpsafe_ir::{BinOp, Builtin, Expr, ScalarTy, UnOp, VarId};

/// Evaluates `e` as the value of a variable in a one-statement kernel.
fn value_of(ty: ScalarTy, e: Expr) -> Result<Value, FaultKind> {
    value_with(ty, e, ThreadConfig::default())
}

fn value_with(ty: ScalarTy, e: Expr, config: ThreadConfig) -> Result<Value, FaultKind> {
    let mut kb = Kb::new();
    let x = kb.var("x", ty);
    let k = kb.finish(vec![at(7, assign(x, e))]);
    let mut th = thread_with(&k, launch(1), 0, config);
    let mut m = Mem::default();
    match m.run(&mut th) {
        Outcome::Done => Ok(th.var(x).expect("assigned")),
        Outcome::Fault(f) => {
            assert_eq!(f.span, sp(7), "faults carry the statement's span");
            Err(f.kind)
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn u8_wraps_around() {
    assert_eq!(
        value_of(U8, add(U8, c(250, U8), c(10, U8))),
        Ok(Value::U8(4))
    );
    assert_eq!(
        value_of(U8, bin(BinOp::Sub, U8, c(3, U8), c(5, U8))),
        Ok(Value::U8(254))
    );
    assert_eq!(
        value_of(U8, bin(BinOp::Mul, U8, c(16, U8), c(17, U8))),
        Ok(Value::U8(16))
    );
    assert_eq!(
        value_of(U8, un(UnOp::BitNot, U8, c(0x0f, U8))),
        Ok(Value::U8(0xf0))
    );
    assert_eq!(
        value_of(U8, un(UnOp::Neg, U8, c(1, U8))),
        Ok(Value::U8(255))
    );
}

#[test]
fn i32_overflow_wraps_by_default_and_faults_when_asked() {
    let max_plus_one = || add(I32, i32c(i32::MAX), i32c(1));
    assert_eq!(value_of(I32, max_plus_one()), Ok(Value::I32(i32::MIN)));
    assert_eq!(
        value_of(I32, bin(BinOp::Mul, I32, i32c(65536), i32c(65536))),
        Ok(Value::I32(0))
    );
    assert_eq!(
        value_of(I32, un(UnOp::Neg, I32, i32c(i32::MIN))),
        Ok(Value::I32(i32::MIN))
    );
    assert_eq!(
        value_of(I32, bin(BinOp::Div, I32, i32c(i32::MIN), i32c(-1))),
        Ok(Value::I32(i32::MIN))
    );
    assert_eq!(
        value_of(I32, bin(BinOp::Rem, I32, i32c(i32::MIN), i32c(-1))),
        Ok(Value::I32(0))
    );
    let strict = ThreadConfig {
        eval: EvalOptions {
            signed_overflow: Overflow::Fault,
            ..EvalOptions::default()
        },
        ..ThreadConfig::default()
    };
    assert_eq!(
        value_with(I32, max_plus_one(), strict),
        Err(FaultKind::SignedOverflow { ty: I32 })
    );
    // Unsigned wrap-around is defined and never faults.
    assert_eq!(
        value_with(U32, add(U32, u32c(u32::MAX), u32c(1)), strict),
        Ok(Value::U32(0))
    );
}

#[test]
fn u64_and_i64_arithmetic() {
    assert_eq!(
        value_of(
            U64,
            bin(
                BinOp::Mul,
                U64,
                c(u64::MAX.into(), U64),
                c(u64::MAX.into(), U64)
            )
        ),
        Ok(Value::U64(1))
    );
    assert_eq!(
        value_of(U64, add(U64, c(u64::MAX.into(), U64), c(2, U64))),
        Ok(Value::U64(1))
    );
    assert_eq!(
        value_of(
            U64,
            bin(BinOp::Div, U64, c(u64::MAX.into(), U64), c(2, U64))
        ),
        Ok(Value::U64(u64::MAX / 2))
    );
    assert_eq!(
        value_of(I64, bin(BinOp::Mul, I64, i64c(i64::MAX), i64c(2))),
        Ok(Value::I64(-2))
    );
    assert_eq!(
        value_of(Bool, lt(U64, c(u64::MAX.into(), U64), c(0, U64))),
        Ok(Value::Bool(false))
    );
}

#[test]
fn division_truncates_and_by_zero_faults() {
    assert_eq!(
        value_of(I32, bin(BinOp::Div, I32, i32c(-7), i32c(2))),
        Ok(Value::I32(-3))
    );
    assert_eq!(
        value_of(I32, bin(BinOp::Rem, I32, i32c(-7), i32c(2))),
        Ok(Value::I32(-1))
    );
    assert_eq!(
        value_of(U32, bin(BinOp::Div, U32, u32c(7), u32c(0))),
        Err(FaultKind::DivisionByZero)
    );
    assert_eq!(
        value_of(I32, bin(BinOp::Rem, I32, i32c(7), i32c(0))),
        Err(FaultKind::DivisionByZero)
    );
    // Float division by zero is IEEE.
    assert_eq!(
        value_of(F32, bin(BinOp::Div, F32, f32c(1.0), f32c(0.0))),
        Ok(Value::F32(f32::INFINITY))
    );
    // A guarded division only evaluates the branch it takes.
    let d = || i32c(0);
    let guarded = select(
        bin(BinOp::Ne, I32, d(), i32c(0)),
        bin(BinOp::Div, I32, i32c(10), d()),
        i32c(-1),
    );
    assert_eq!(value_of(I32, guarded), Ok(Value::I32(-1)));
    let short = bin(
        BinOp::And,
        Bool,
        bin(BinOp::Ne, I32, d(), i32c(0)),
        lt(I32, bin(BinOp::Div, I32, i32c(10), d()), i32c(3)),
    );
    assert_eq!(value_of(Bool, short), Ok(Value::Bool(false)));
}

#[test]
fn shifts() {
    assert_eq!(
        value_of(U32, bin(BinOp::Shl, U32, u32c(1), u32c(31))),
        Ok(Value::U32(1 << 31))
    );
    assert_eq!(
        value_of(I32, bin(BinOp::Shl, I32, i32c(1), i32c(31))),
        Ok(Value::I32(i32::MIN))
    );
    assert_eq!(
        value_of(I32, bin(BinOp::Shr, I32, i32c(-16), i32c(2))),
        Ok(Value::I32(-4))
    );
    assert_eq!(
        value_of(U32, bin(BinOp::Shr, U32, u32c(0x8000_0000), u32c(31))),
        Ok(Value::U32(1))
    );
    assert_eq!(
        value_of(U8, bin(BinOp::Shl, U8, c(0x81, U8), c(1, U8))),
        Ok(Value::U8(2))
    );
    assert_eq!(
        value_of(U32, bin(BinOp::Shl, U32, u32c(1), u32c(32))),
        Err(FaultKind::UndefinedShift {
            amount: 32,
            bits: 32
        })
    );
    assert_eq!(
        value_of(I32, bin(BinOp::Shr, I32, i32c(1), i32c(-1))),
        Err(FaultKind::UndefinedShift {
            amount: -1,
            bits: 32
        })
    );
    assert_eq!(
        value_of(U64, bin(BinOp::Shl, U64, c(1, U64), c(63, U64))),
        Ok(Value::U64(1 << 63))
    );
}

#[test]
fn casts_follow_c() {
    assert_eq!(value_of(U8, cast(U8, i32c(300))), Ok(Value::U8(44)));
    assert_eq!(value_of(I8, cast(I8, i32c(200))), Ok(Value::I8(-56)));
    assert_eq!(value_of(U32, cast(U32, i32c(-1))), Ok(Value::U32(u32::MAX)));
    assert_eq!(value_of(I64, cast(I64, i32c(-1))), Ok(Value::I64(-1)));
    assert_eq!(
        value_of(I64, cast(I64, u32c(u32::MAX))),
        Ok(Value::I64(4_294_967_295))
    );
    assert_eq!(
        value_of(U64, cast(U64, cast(I8, c(-2, I8)))),
        Ok(Value::U64(u64::MAX - 1))
    );
    assert_eq!(value_of(I32, cast(I32, f32c(-3.99))), Ok(Value::I32(-3)));
    assert_eq!(value_of(F32, cast(F32, i32c(7))), Ok(Value::F32(7.0)));
    assert_eq!(
        value_of(F64, cast(F64, f32c(0.1))),
        Ok(Value::F64(f64::from(0.1f32)))
    );
    assert_eq!(value_of(F32, cast(F32, f64c(0.1))), Ok(Value::F32(0.1)));
    assert_eq!(value_of(Bool, cast(Bool, i32c(-5))), Ok(Value::Bool(true)));
    assert_eq!(
        value_of(I32, cast(I32, Expr::bool(true))),
        Ok(Value::I32(1))
    );
    // Out of range float → int: saturates by default, faults on request.
    assert_eq!(
        value_of(I32, cast(I32, f32c(3e9))),
        Ok(Value::I32(i32::MAX))
    );
    assert_eq!(value_of(U8, cast(U8, f32c(-1.0))), Ok(Value::U8(0)));
    let strict = ThreadConfig {
        eval: EvalOptions {
            float_to_int: FloatToInt::Fault,
            ..EvalOptions::default()
        },
        ..ThreadConfig::default()
    };
    assert!(matches!(
        value_with(I32, cast(I32, f32c(3e9)), strict),
        Err(FaultKind::FloatToIntOutOfRange { ty: I32, .. })
    ));
    // f16 is binary16: 2049 is not representable and rounds to even.
    assert_eq!(value_of(F16, cast(F16, i32c(2049))), Ok(Value::F16(2048.0)));
    assert_eq!(
        value_of(F16, add(F16, cast(F16, f32c(1.0)), cast(F16, f32c(0.0001)))),
        Ok(Value::F16(1.0))
    );
}

#[test]
fn float_arithmetic_and_comparisons() {
    assert_eq!(
        value_of(F32, add(F32, f32c(0.1), f32c(0.2))),
        Ok(Value::F32(0.1f32 + 0.2f32))
    );
    assert_eq!(
        value_of(F64, add(F64, f64c(0.1), f64c(0.2))),
        Ok(Value::F64(0.1 + 0.2))
    );
    assert_eq!(
        value_of(F32, bin(BinOp::Rem, F32, f32c(7.5), f32c(2.0))),
        Ok(Value::F32(1.5))
    );
    assert_eq!(
        value_of(F32, un(UnOp::Neg, F32, f32c(0.0))),
        Ok(Value::F32(-0.0))
    );
    let nan = || bin(BinOp::Div, F32, f32c(0.0), f32c(0.0));
    assert_eq!(
        value_of(Bool, bin(BinOp::Eq, F32, nan(), nan())),
        Ok(Value::Bool(false))
    );
    assert_eq!(
        value_of(Bool, bin(BinOp::Ne, F32, nan(), nan())),
        Ok(Value::Bool(true))
    );
    assert_eq!(
        value_of(Bool, lt(F32, nan(), f32c(1.0))),
        Ok(Value::Bool(false))
    );
    assert_eq!(
        value_of(Bool, bin(BinOp::Ge, F32, nan(), f32c(1.0))),
        Ok(Value::Bool(false))
    );
    assert_eq!(
        value_of(Bool, un(UnOp::Not, Bool, lt(F32, nan(), f32c(1.0)))),
        Ok(Value::Bool(true))
    );
}

#[test]
fn math_calls() {
    let v = value_of(
        F32,
        add(
            F32,
            call("sqrtf", F32, vec![call("fabsf", F32, vec![f32c(-16.0)])]),
            call("floorf", F32, vec![f32c(2.5)]),
        ),
    );
    assert_eq!(v, Ok(Value::F32(6.0)));
    assert_eq!(
        value_of(F32, call("__fdividef", F32, vec![f32c(1.0), f32c(8.0)])),
        Ok(Value::F32(0.125))
    );
    assert_eq!(
        value_of(I32, call("__popc", I32, vec![u32c(0xff)])),
        Ok(Value::I32(8))
    );
    assert_eq!(
        value_of(F32, call("fmaxf", F32, vec![f32c(1.0), f32c(-1.0)])),
        Ok(Value::F32(1.0))
    );
    let e = value_of(F32, call("expf", F32, vec![f32c(1.0)])).expect("expf");
    assert_eq!(e, Value::F32(std::f32::consts::E));
    assert_eq!(
        value_of(F32, call("cuda_magic", F32, vec![])),
        Err(FaultKind::UnknownFunction("cuda_magic".into()))
    );
}

#[test]
fn builtins_and_params() {
    let mut kb = Kb::new();
    let n = kb.param("n", I32);
    let x = kb.var("x", U32);
    let w = kb.var("w", I32);
    let y = kb.var("y", I32);
    let k = kb.finish(vec![
        assign(
            x,
            add(
                U32,
                Expr::Builtin(Builtin::ThreadIdx(warpsafe_ir::Dim::X)),
                bin(
                    BinOp::Mul,
                    U32,
                    Expr::Builtin(Builtin::BlockIdx(warpsafe_ir::Dim::X)),
                    Expr::Builtin(Builtin::BlockDim(warpsafe_ir::Dim::X)),
                ),
            ),
        ),
        assign(w, Expr::Builtin(Builtin::WarpSize)),
        assign(y, add(I32, v(n), i32c(1))),
    ]);
    let launch = std::sync::Arc::new(
        warpsafe_interp::Launch::new([4, 1, 1], [64, 1, 1]).with_param(n, Value::I32(41)),
    );
    let ctx = warpsafe_interp::ThreadCtx::new(launch.clone(), [2, 0, 0], [5, 0, 0]);
    assert_eq!(ctx.linear_tid(), 5);
    assert_eq!(ctx.lane(), 5);
    let mut th = warpsafe_interp::Thread::new(&k, ctx, ThreadConfig::default()).expect("ok");
    assert_eq!(Mem::default().run(&mut th), Outcome::Done);
    assert_eq!(th.var(x), Some(Value::U32(133)));
    assert_eq!(th.var(w), Some(Value::I32(32)));
    assert_eq!(th.var(y), Some(Value::I32(42)));
    // Setup errors: a value of the wrong type, and a thread outside the block.
    let bad = std::sync::Arc::new(
        warpsafe_interp::Launch::new([1, 1, 1], [1, 1, 1]).with_param(n, Value::U32(1)),
    );
    let ctx = warpsafe_interp::ThreadCtx::new(bad, [0, 0, 0], [0, 0, 0]);
    assert!(warpsafe_interp::Thread::new(&k, ctx, ThreadConfig::default()).is_err());
    let ctx = warpsafe_interp::ThreadCtx::new(launch, [0, 0, 0], [64, 0, 0]);
    assert!(warpsafe_interp::Thread::new(&k, ctx, ThreadConfig::default()).is_err());
}

#[test]
fn unassigned_variables_and_unbound_params_fault() {
    let mut kb = Kb::new();
    let n = kb.param("n", I32);
    let a = kb.var("a", I32);
    let x = kb.var("x", I32);
    let k = kb.finish(vec![at(3, assign(x, add(I32, v(a), i32c(1))))]);
    let (out, _, _) = run(&k, launch(1), 0);
    assert_eq!(
        out,
        Outcome::Fault(warpsafe_interp::Fault::new(
            FaultKind::UninitialisedVariable(a),
            sp(3)
        ))
    );
    let mut kb = Kb::new();
    let n2 = kb.param("n", I32);
    assert_eq!(n, n2);
    let x = kb.var("x", I32);
    let k = kb.finish(vec![assign(x, v(n2))]);
    let (out, _, _) = run(&k, launch(1), 0);
    assert!(matches!(out, Outcome::Fault(f) if f.kind == FaultKind::UnboundParam(n2)));
}

/// `eval` works on any environment, not only threads.
#[test]
fn eval_over_a_custom_env() {
    struct Env1;
    impl Env for Env1 {
        fn var(&self, id: VarId) -> Result<Value, FaultKind> {
            Ok(Value::I32(id.0 as i32 * 10))
        }
        fn builtin(&self, _: Builtin) -> Value {
            Value::U32(3)
        }
    }
    let e = add(I32, v(VarId(4)), cast(I32, tid()));
    assert_eq!(eval(&e, &Env1), Ok(Value::I32(43)));
}
