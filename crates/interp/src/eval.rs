//! Concrete evaluation of pure IR expressions.
//!
//! [`eval`] computes an [`Expr`] over an [`Env`] (variables and thread
//! builtins) with C/CUDA semantics. It serves every engine that needs the
//! values a thread computes between memory events (seed 000 §3: the `Val` of
//! read, write and RMW events; seed 003 §4: the values that decide which
//! atomics conflict).
//!
//! Semantics (see also [`crate::value`] for conversions):
//! - The operands of `Binary`/`Unary` are converted to the operator's type
//!   when they differ (the front end inserts these casts; this is leniency).
//! - Integer `+ - * << -x` wrap modulo 2^width. Signed overflow is undefined
//!   in C, but nvcc compiles it to wrapping instructions; with
//!   [`Overflow::Fault`] it is [`FaultKind::SignedOverflow`] instead.
//!   `INT_MIN / -1` wraps to `INT_MIN` (`% -1` gives 0) unless faulting.
//! - `/` and `%` truncate toward zero; an integer divisor of zero is
//!   [`FaultKind::DivisionByZero`]. Float division by zero is IEEE.
//! - A shift amount that is negative or not below the width is
//!   [`FaultKind::UndefinedShift`]; `>>` of a signed value is arithmetic.
//! - `&&`, `||` and `?:` only evaluate the operand they need, so
//!   `d != 0 ? n / d : 0` never faults.
//! - Comparisons of floats are IEEE (NaN compares false, `!=` true).
//!
//! Invariant: evaluation recurses on the Rust stack at most
//! `SHALLOW_DEPTH` (6) levels deep: shallow expressions without calls,
//! most of what a thread runs, are computed by a small recursion (whose
//! result stays small: faults are boxed), and any deeper one walks the
//! expression with an explicit work list, so arbitrarily deep expressions
//! cannot overflow the stack. An [`Evaluator`] keeps its work lists
//! between calls so repeated evaluation does not allocate.

use crate::fault::FaultKind;
use crate::math;
use crate::value::{int_range, Value};
use warpsafe_ir::{BinOp, Builtin, Expr, ScalarTy, UnOp, VarId};

/// What to do with a float → integer conversion that does not fit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FloatToInt {
    /// Clamp to the target range, NaN → 0 (PTX `cvt.rzi` on hardware).
    #[default]
    Saturate,
    /// [`FaultKind::FloatToIntOutOfRange`] (undefined behaviour in C).
    Fault,
}

/// What to do with signed integer overflow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Overflow {
    /// Two's-complement wrap-around, which is what CUDA compiles to.
    #[default]
    Wrap,
    /// [`FaultKind::SignedOverflow`] (undefined behaviour in C).
    Fault,
}

/// How strictly undefined behaviour of expressions is reported.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct EvalOptions {
    pub float_to_int: FloatToInt,
    pub signed_overflow: Overflow,
}

/// What an expression can read: variables and the thread's builtins.
pub trait Env {
    /// The value of a variable, or why it has none.
    fn var(&self, id: VarId) -> Result<Value, FaultKind>;
    /// `threadIdx.x` and friends (`u32`), `warpSize` (`i32`).
    fn builtin(&self, b: Builtin) -> Value;
    fn options(&self) -> EvalOptions {
        EvalOptions::default()
    }
}

/// Evaluates `expr` (allocating fresh work lists; see [`Evaluator`]).
pub fn eval<E: Env + ?Sized>(expr: &Expr, env: &E) -> Result<Value, FaultKind> {
    Evaluator::default().eval(expr, env)
}

/// One pending action of the explicit evaluation stack.
#[derive(Clone, Debug)]
enum Work<'e> {
    Eval(&'e Expr),
    Unary(UnOp, ScalarTy),
    Binary(BinOp, ScalarTy),
    /// `lhs` of `&&`/`||` is on the value stack; evaluate `rhs` if needed.
    Logic(BinOp, &'e Expr),
    /// Convert the top value to `bool` by C truthiness.
    Truth,
    /// The condition is on the value stack.
    Select(&'e Expr, &'e Expr),
    Cast(ScalarTy),
    Call(&'e str, ScalarTy, usize),
}

/// An expression evaluator that reuses its work lists between calls.
///
/// Cloning one is cheap when it is idle (its lists are empty between calls).
#[derive(Clone, Debug, Default)]
pub struct Evaluator<'e> {
    work: Vec<Work<'e>>,
    vals: Vec<Value>,
}

impl<'e> Evaluator<'e> {
    /// Evaluates `expr` over `env`.
    pub fn eval<E: Env + ?Sized>(&mut self, expr: &'e Expr, env: &E) -> Result<Value, FaultKind> {
        match shallow(expr, env, env.options(), SHALLOW_DEPTH) {
            Ok(v) => return Ok(v),
            Err(NoValue::Fault(f)) => return Err(*f),
            Err(NoValue::Deep) => {}
        }
        self.work.clear();
        self.vals.clear();
        let result = self.run(expr, env);
        self.work.clear();
        self.vals.clear();
        result
    }

    fn pop(&mut self) -> Value {
        self.vals
            .pop()
            .expect("invariant: every operator finds its operands on the value stack")
    }

    fn run<E: Env + ?Sized>(&mut self, expr: &'e Expr, env: &E) -> Result<Value, FaultKind> {
        let opts = env.options();
        self.work.push(Work::Eval(expr));
        while let Some(w) = self.work.pop() {
            match w {
                Work::Eval(e) => {
                    match e {
                        Expr::Const(..) | Expr::Var(_) | Expr::Builtin(_) => {
                            let v = leaf(e, env).expect(
                                "invariant: constants, variables and builtins are leaves",
                            )?;
                            self.vals.push(v);
                        }
                        Expr::Unary(op, ty, a) => {
                            self.work.push(Work::Unary(*op, *ty));
                            self.work.push(Work::Eval(a));
                        }
                        Expr::Binary(op @ (BinOp::And | BinOp::Or), _, a, b) => {
                            self.work.push(Work::Logic(*op, b));
                            self.work.push(Work::Eval(a));
                        }
                        Expr::Binary(op, ty, a, b) => {
                            self.work.push(Work::Binary(*op, *ty));
                            self.work.push(Work::Eval(b));
                            self.work.push(Work::Eval(a));
                        }
                        Expr::Select(c, a, b) => {
                            self.work.push(Work::Select(a, b));
                            self.work.push(Work::Eval(c));
                        }
                        Expr::Cast(ty, a) => {
                            self.work.push(Work::Cast(*ty));
                            self.work.push(Work::Eval(a));
                        }
                        Expr::Call(name, ty, args) => {
                            self.work.push(Work::Call(name, *ty, args.len()));
                            // Pushed in reverse so they are evaluated in order.
                            for a in args.iter().rev() {
                                self.work.push(Work::Eval(a));
                            }
                        }
                    }
                }
                Work::Unary(op, ty) => {
                    let a = self.pop();
                    self.vals.push(apply_unary(op, ty, a, opts)?);
                }
                Work::Binary(op, ty) => {
                    let b = self.pop();
                    let a = self.pop();
                    self.vals.push(apply_binary(op, ty, a, b, opts)?);
                }
                Work::Logic(op, rhs) => {
                    let lhs = self.pop().is_true();
                    // `false && _` and `true || _` are decided by the lhs.
                    if lhs == (op == BinOp::Or) {
                        self.vals.push(Value::Bool(lhs));
                    } else {
                        self.work.push(Work::Truth);
                        self.work.push(Work::Eval(rhs));
                    }
                }
                Work::Truth => {
                    let v = self.pop();
                    self.vals.push(Value::Bool(v.is_true()));
                }
                Work::Select(a, b) => {
                    let c = self.pop();
                    self.work.push(Work::Eval(if c.is_true() { a } else { b }));
                }
                Work::Cast(ty) => {
                    let a = self.pop();
                    self.vals.push(cast(a, ty, opts)?);
                }
                Work::Call(name, ty, argc) => {
                    let at = self
                        .vals
                        .len()
                        .checked_sub(argc)
                        .expect("invariant: a call finds its arguments on the value stack");
                    let v = math::call(name, ty, &self.vals[at..], opts)?;
                    self.vals.truncate(at);
                    self.vals.push(v);
                }
            }
        }
        let v = self.pop();
        debug_assert!(self.vals.is_empty(), "one value per expression");
        Ok(v)
    }
}

/// How deep [`shallow`] recurses before it leaves an expression to the
/// work list.
const SHALLOW_DEPTH: u32 = 6;

/// Why [`shallow`] gave no value: the expression is deeper than it goes
/// or calls a function (the work list evaluates it), or it faults (boxed:
/// the common result stays small, which is what makes recursion pay).
enum NoValue {
    Deep,
    Fault(Box<FaultKind>),
}

impl From<FaultKind> for NoValue {
    fn from(f: FaultKind) -> NoValue {
        NoValue::Fault(Box::new(f))
    }
}

/// The value of `e` computed by recursion when `e` is at most `depth`
/// levels deep and calls no function (most expressions a thread runs:
/// `k < n`, `acc + a * (float)k`). The recursion is bounded by `depth`
/// (see the invariant in the module docs); deeper expressions are the work
/// list's. Operands are evaluated left to right, as there, so the same
/// fault is reported.
fn shallow<E: Env + ?Sized>(
    e: &Expr,
    env: &E,
    opts: EvalOptions,
    depth: u32,
) -> Result<Value, NoValue> {
    Ok(match e {
        Expr::Const(c, ty) => Value::from_const(*c, *ty),
        Expr::Var(v) => env.var(*v)?,
        Expr::Builtin(b) => env.builtin(*b),
        _ if depth == 0 => return Err(NoValue::Deep),
        Expr::Binary(op @ (BinOp::And | BinOp::Or), _, a, b) => {
            let lhs = shallow(a, env, opts, depth - 1)?.is_true();
            // `false && _` and `true || _` are decided by the lhs.
            if lhs == (*op == BinOp::Or) {
                Value::Bool(lhs)
            } else {
                Value::Bool(shallow(b, env, opts, depth - 1)?.is_true())
            }
        }
        Expr::Binary(op, ty, a, b) => {
            let x = shallow(a, env, opts, depth - 1)?;
            let y = shallow(b, env, opts, depth - 1)?;
            apply_binary(*op, *ty, x, y, opts)?
        }
        Expr::Unary(op, ty, a) => apply_unary(*op, *ty, shallow(a, env, opts, depth - 1)?, opts)?,
        Expr::Cast(ty, a) => cast(shallow(a, env, opts, depth - 1)?, *ty, opts)?,
        Expr::Select(c, a, b) => {
            let c = shallow(c, env, opts, depth - 1)?;
            shallow(if c.is_true() { a } else { b }, env, opts, depth - 1)?
        }
        Expr::Call(..) => return Err(NoValue::Deep),
    })
}

/// The value of a constant, variable or builtin; `None` for other nodes.
fn leaf<E: Env + ?Sized>(e: &Expr, env: &E) -> Option<Result<Value, FaultKind>> {
    Some(match e {
        Expr::Const(c, ty) => Ok(Value::from_const(*c, *ty)),
        Expr::Var(v) => env.var(*v),
        Expr::Builtin(b) => Ok(env.builtin(*b)),
        _ => return None,
    })
}

/// C's explicit conversion `(ty)v`, under the float → integer policy.
pub fn cast(v: Value, ty: ScalarTy, opts: EvalOptions) -> Result<Value, FaultKind> {
    match opts.float_to_int {
        FloatToInt::Saturate => Ok(v.convert(ty)),
        FloatToInt::Fault => v.convert_checked(ty),
    }
}

/// `op a` at type `ty`.
pub fn apply_unary(
    op: UnOp,
    ty: ScalarTy,
    a: Value,
    opts: EvalOptions,
) -> Result<Value, FaultKind> {
    if op == UnOp::Not {
        return Ok(Value::Bool(!a.is_true()));
    }
    let a = cast(a, ty, opts)?;
    match (op, a) {
        (UnOp::Neg, Value::F16(x) | Value::Bf16(x)) => Ok(Value::from_f64(ty, -f64::from(x))),
        (UnOp::Neg, Value::F32(x)) => Ok(Value::F32(-x)),
        (UnOp::Neg, Value::F64(x)) => Ok(Value::F64(-x)),
        (_, Value::Bool(_)) => Err(ill_typed(format!("unary `{op:?}` on bool"))),
        (UnOp::BitNot, _) => match a.as_int() {
            Some(x) => Ok(Value::from_int(ty, !x)),
            None => Err(ill_typed(format!("`~` on {ty}"))),
        },
        _ => int_result(ty, -int(a), opts),
    }
}

/// `a op b` where both operands have type `ty` (converted if they do not;
/// the amount of a shift keeps its own type).
pub fn apply_binary(
    op: BinOp,
    ty: ScalarTy,
    a: Value,
    b: Value,
    opts: EvalOptions,
) -> Result<Value, FaultKind> {
    if matches!(op, BinOp::And | BinOp::Or) {
        let (x, y) = (a.is_true(), b.is_true());
        return Ok(Value::Bool(if op == BinOp::And { x && y } else { x || y }));
    }
    if let Some(r) = same_type_binary(op, ty, a, b, opts) {
        return r;
    }
    general_binary(op, ty, a, b, opts)
}

/// [`apply_binary`] for every type and operator, through `i128` for
/// integers.
fn general_binary(
    op: BinOp,
    ty: ScalarTy,
    a: Value,
    b: Value,
    opts: EvalOptions,
) -> Result<Value, FaultKind> {
    let a = cast(a, ty, opts)?;
    let b = if matches!(op, BinOp::Shl | BinOp::Shr) {
        b
    } else {
        cast(b, ty, opts)?
    };
    if ty.is_float() {
        return float_binary(op, ty, a, b);
    }
    let (x, y) = match (a.as_int(), b.as_int()) {
        (Some(x), Some(y)) => (x, y),
        _ => {
            return Err(ill_typed(format!(
                "`{}` with a float operand at {ty}",
                op.symbol()
            )))
        }
    };
    if op.is_comparison() {
        return Ok(Value::Bool(holds(op, x.cmp(&y))));
    }
    if ty == ScalarTy::Bool {
        let (p, q) = (x != 0, y != 0);
        return match op {
            BinOp::BitAnd => Ok(Value::Bool(p & q)),
            BinOp::BitOr => Ok(Value::Bool(p | q)),
            BinOp::BitXor => Ok(Value::Bool(p ^ q)),
            _ => Err(ill_typed(format!("`{}` on bool", op.symbol()))),
        };
    }
    match op {
        // Operands are at most 64 bits wide, so the exact results of
        // + and - fit in i128; * wraps modulo 2^128, which keeps the low
        // 64 bits exact, and is exact for signed operands.
        BinOp::Add => int_result(ty, x + y, opts),
        BinOp::Sub => int_result(ty, x - y, opts),
        BinOp::Mul => int_result(ty, x.wrapping_mul(y), opts),
        BinOp::Div | BinOp::Rem if y == 0 => Err(FaultKind::DivisionByZero),
        // i128 division truncates toward zero, as C does; MIN / -1 is
        // exact here and wraps (or faults) in `int_result`.
        BinOp::Div => int_result(ty, x / y, opts),
        BinOp::Rem => {
            if ty.is_signed() && opts.signed_overflow == Overflow::Fault {
                int_result(ty, x / y, opts)?;
            }
            Ok(Value::from_int(ty, x % y))
        }
        BinOp::Shl | BinOp::Shr => {
            let bits = ty.bits();
            if y < 0 || y >= i128::from(bits) {
                return Err(FaultKind::UndefinedShift { amount: y, bits });
            }
            // `x` holds the operand's value (sign-extended when signed), so
            // >> is arithmetic for signed and logical for unsigned types.
            let r = if op == BinOp::Shl { x << y } else { x >> y };
            Ok(Value::from_int(ty, r))
        }
        BinOp::BitAnd => Ok(Value::from_int(ty, x & y)),
        BinOp::BitOr => Ok(Value::from_int(ty, x | y)),
        BinOp::BitXor => Ok(Value::from_int(ty, x ^ y)),
        // Logical operators and comparisons returned above.
        _ => Err(ill_typed(format!("`{}` at {ty}", op.symbol()))),
    }
}

/// `a op b` when both operands already have type `ty` and it is `int`,
/// `unsigned`, their 64-bit forms or `float`, for the operators that need
/// no check but overflow (`+ - *`, comparisons, bitwise): the same result
/// as the general path below, without its conversions through `i128`.
/// `None` for everything else.
fn same_type_binary(
    op: BinOp,
    ty: ScalarTy,
    a: Value,
    b: Value,
    opts: EvalOptions,
) -> Option<Result<Value, FaultKind>> {
    macro_rules! int {
        ($x:expr, $y:expr, $v:path, $signed:expr) => {{
            let (x, y) = ($x, $y);
            let checked = $signed && opts.signed_overflow == Overflow::Fault;
            let arith = |r: Option<_>, wrapped| match (checked, r) {
                (false, _) => Some(Ok($v(wrapped))),
                (true, Some(r)) => Some(Ok($v(r))),
                (true, None) => Some(Err(FaultKind::SignedOverflow { ty })),
            };
            match op {
                BinOp::Add => arith(x.checked_add(y), x.wrapping_add(y)),
                BinOp::Sub => arith(x.checked_sub(y), x.wrapping_sub(y)),
                BinOp::Mul => arith(x.checked_mul(y), x.wrapping_mul(y)),
                BinOp::BitAnd => Some(Ok($v(x & y))),
                BinOp::BitOr => Some(Ok($v(x | y))),
                BinOp::BitXor => Some(Ok($v(x ^ y))),
                _ if op.is_comparison() => Some(Ok(Value::Bool(holds(op, x.cmp(&y))))),
                _ => None,
            }
        }};
    }
    match (a, b) {
        (Value::I32(x), Value::I32(y)) if ty == ScalarTy::I32 => int!(x, y, Value::I32, true),
        (Value::U32(x), Value::U32(y)) if ty == ScalarTy::U32 => int!(x, y, Value::U32, false),
        (Value::I64(x), Value::I64(y)) if ty == ScalarTy::I64 => int!(x, y, Value::I64, true),
        (Value::U64(x), Value::U64(y)) if ty == ScalarTy::U64 => int!(x, y, Value::U64, false),
        (Value::F32(x), Value::F32(y)) if ty == ScalarTy::F32 => match op {
            BinOp::Add => Some(Ok(Value::F32(x + y))),
            BinOp::Sub => Some(Ok(Value::F32(x - y))),
            BinOp::Mul => Some(Ok(Value::F32(x * y))),
            BinOp::Div => Some(Ok(Value::F32(x / y))),
            // Unordered (a NaN operand): only `!=` holds.
            _ if op.is_comparison() => Some(Ok(Value::Bool(match x.partial_cmp(&y) {
                Some(ord) => holds(op, ord),
                None => op == BinOp::Ne,
            }))),
            _ => None,
        },
        _ => None,
    }
}

fn float_binary(op: BinOp, ty: ScalarTy, a: Value, b: Value) -> Result<Value, FaultKind> {
    let (Some(x), Some(y)) = (a.as_f64(), b.as_f64()) else {
        return Err(ill_typed(format!(
            "`{}` with a non-float operand at {ty}",
            op.symbol()
        )));
    };
    if op.is_comparison() {
        // Unordered (a NaN operand): only `!=` holds.
        return Ok(Value::Bool(match x.partial_cmp(&y) {
            Some(ord) => holds(op, ord),
            None => op == BinOp::Ne,
        }));
    }
    // f32 arithmetic is done in f32 (one rounding). f16 operands are exact
    // in f64, and rounding the f64 result of + - * / to f16 is correctly
    // rounded (53 >= 2 * 11 + 2 bits, so double rounding is innocuous).
    let wide = |r: f64| Ok(Value::from_f64(ty, r));
    match (op, a, b) {
        (BinOp::Add, Value::F32(p), Value::F32(q)) => Ok(Value::F32(p + q)),
        (BinOp::Sub, Value::F32(p), Value::F32(q)) => Ok(Value::F32(p - q)),
        (BinOp::Mul, Value::F32(p), Value::F32(q)) => Ok(Value::F32(p * q)),
        (BinOp::Div, Value::F32(p), Value::F32(q)) => Ok(Value::F32(p / q)),
        (BinOp::Add, ..) => wide(x + y),
        (BinOp::Sub, ..) => wide(x - y),
        (BinOp::Mul, ..) => wide(x * y),
        (BinOp::Div, ..) => wide(x / y),
        // fmod is exact in any precision.
        (BinOp::Rem, ..) => wide(x % y),
        _ => Err(ill_typed(format!("`{}` on {ty}", op.symbol()))),
    }
}

/// Whether comparison `op` holds for operands in order `ord`.
fn holds(op: BinOp, ord: std::cmp::Ordering) -> bool {
    use std::cmp::Ordering::*;
    match op {
        BinOp::Eq => ord == Equal,
        BinOp::Ne => ord != Equal,
        BinOp::Lt => ord == Less,
        BinOp::Le => ord != Greater,
        BinOp::Gt => ord == Greater,
        _ => ord != Less,
    }
}

/// The exact integer result `r` of an operation at `ty`: wrapped, or a
/// fault when `ty` is signed, `r` does not fit and overflow faults.
fn int_result(ty: ScalarTy, r: i128, opts: EvalOptions) -> Result<Value, FaultKind> {
    if ty.is_signed() && opts.signed_overflow == Overflow::Fault {
        let (lo, hi) = int_range(ty);
        if r < lo || r > hi {
            return Err(FaultKind::SignedOverflow { ty });
        }
    }
    Ok(Value::from_int(ty, r))
}

fn int(v: Value) -> i128 {
    v.as_int().unwrap_or(0)
}

fn ill_typed(msg: String) -> FaultKind {
    FaultKind::IllTyped(msg)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct NoEnv;
    impl Env for NoEnv {
        fn var(&self, id: VarId) -> Result<Value, FaultKind> {
            Err(FaultKind::UninitialisedVariable(id))
        }
        fn builtin(&self, _: Builtin) -> Value {
            Value::U32(0)
        }
    }

    /// The recursive path for shallow expressions gives what the work list
    /// gives: values, short circuits, and the first fault in evaluation
    /// order.
    #[test]
    fn the_shallow_path_agrees_with_the_work_list() {
        let i = |v| Expr::int(v, ScalarTy::I32);
        let div0 = Expr::binary(BinOp::Div, ScalarTy::I32, i(1), i(0));
        let shift = Expr::binary(BinOp::Shl, ScalarTy::I32, i(1), i(40));
        let unset = Expr::Var(VarId(3));
        let cases = [
            Expr::binary(BinOp::Add, ScalarTy::I32, i(2), i(3)),
            Expr::binary(BinOp::And, ScalarTy::Bool, i(0), div0.clone()),
            Expr::binary(BinOp::Or, ScalarTy::Bool, i(1), div0.clone()),
            Expr::binary(BinOp::And, ScalarTy::Bool, i(1), div0.clone()),
            Expr::binary(BinOp::Add, ScalarTy::I32, shift.clone(), div0.clone()),
            Expr::binary(BinOp::Add, ScalarTy::I32, unset.clone(), shift),
            Expr::Select(Box::new(i(0)), Box::new(div0), Box::new(i(7))),
            Expr::Cast(ScalarTy::U8, Box::new(i(300))),
            Expr::Unary(UnOp::Neg, ScalarTy::I32, Box::new(unset)),
        ];
        for e in cases {
            let deep = (0..10).fold(e.clone(), |acc, _| {
                Expr::binary(BinOp::Add, ScalarTy::I32, acc, i(0))
            });
            for e in [e, deep] {
                let work_list = Evaluator::default().run(&e, &NoEnv);
                assert_eq!(eval(&e, &NoEnv), work_list, "{e:?}");
            }
        }
    }

    proptest::proptest! {
        /// The same-type fast path gives what the general path gives, in
        /// both overflow modes.
        #[test]
        fn the_same_type_fast_path_agrees_with_the_general_one(
            x in proptest::num::i64::ANY,
            y in proptest::num::i64::ANY,
            fx in proptest::num::f32::ANY,
            fy in proptest::num::f32::ANY,
            op in 0usize..13,
            fault in proptest::bool::ANY,
        ) {
            let ops = [
                BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div, BinOp::BitAnd, BinOp::BitOr,
                BinOp::BitXor, BinOp::Eq, BinOp::Ne, BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge,
            ];
            let op = ops[op];
            let opts = EvalOptions {
                signed_overflow: if fault { Overflow::Fault } else { Overflow::Wrap },
                ..EvalOptions::default()
            };
            let pairs = [
                (ScalarTy::I32, Value::I32(x as i32), Value::I32(y as i32)),
                (ScalarTy::U32, Value::U32(x as u32), Value::U32(y as u32)),
                (ScalarTy::I64, Value::I64(x), Value::I64(y)),
                (ScalarTy::U64, Value::U64(x as u64), Value::U64(y as u64)),
                (ScalarTy::F32, Value::F32(fx), Value::F32(fy)),
                // Small values, where overflow is rare and equality common.
                (ScalarTy::I32, Value::I32((x % 5) as i32), Value::I32((y % 5) as i32)),
            ];
            for (ty, a, b) in pairs {
                if let Some(fast) = same_type_binary(op, ty, a, b, opts) {
                    let general = general_binary(op, ty, a, b, opts);
                    // NaN results compare by their bits.
                    let same = match (&fast, &general) {
                        (Ok(Value::F32(p)), Ok(Value::F32(q))) => p.to_bits() == q.to_bits()
                            || (p.is_nan() && q.is_nan()),
                        _ => fast == general,
                    };
                    proptest::prop_assert!(same, "{op:?} {a:?} {b:?}: {fast:?} vs {general:?}");
                }
            }
        }
    }

    #[test]
    fn deep_expressions_do_not_recurse() {
        let mut e = Expr::int(0, ScalarTy::I32);
        for _ in 0..200_000 {
            e = Expr::binary(BinOp::Add, ScalarTy::I32, e, Expr::int(1, ScalarTy::I32));
        }
        assert_eq!(eval(&e, &NoEnv), Ok(Value::I32(200_000)));
        // Dismantle iteratively: the derived drop would recurse.
        let mut stack = vec![e];
        while let Some(e) = stack.pop() {
            if let Expr::Binary(_, _, a, b) = e {
                stack.push(*a);
                stack.push(*b);
            }
        }
    }
}
