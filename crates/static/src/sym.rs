//! Symbolic integer and boolean expressions: the index and condition language
//! of access protocols (seed 002, §3: `n ::= x | i | n ⋆ n`, `b ::= true |
//! false | n ◇ n | b ∘ b`, extended as Faial does in §5).
//!
//! A [`Sym`] is a pure value of one thread, expressed over launch builtins
//! (thread/block ids and dims), scalar kernel parameters, loop variables of
//! enclosing protocol loops, constants, and [`Unknown`] leaves.
//!
//! Invariants:
//! - Arithmetic is the IR's machine arithmetic: a `Binary` carries the type of
//!   its operands and wraps like C. Constant folding respects this.
//! - No float-typed value is ever represented exactly: floats become
//!   [`Unknown`] leaves with [`UnknownReason::Float`] (comparisons of floats
//!   are `Bool`-typed unknowns).
//! - An [`Unknown`] marks a value the inference does not know. Its
//!   [`UnknownReason`] says why, which separates *data dependence* (loads,
//!   atomics) from imprecision of the analysis (loops, opaque calls). Two
//!   leaves with the same `id` denote the same value within one evaluation of
//!   the enclosing loop body; later stages may soundly treat every leaf as
//!   independent.
//! - The smart constructors ([`Sym::binary`], [`Sym::select`], ...) only make
//!   rewrites that are exact for machine arithmetic.

use crate::intrinsic::Intrinsic;
use warpsafe_ir::{ArrayId, BinOp, Builtin, Dim, LoopId, ScalarTy, Span, UnOp, VarId};

/// Why a value is unknown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnknownReason {
    /// The value was read from memory (data dependence).
    Load { array: ArrayId },
    /// The old value returned by an atomic read-modify-write or CAS.
    Atomic { array: ArrayId },
    /// An IR `Havoc` (e.g. `clock()`), with its reason.
    Havoc(String),
    /// The result of an opaque (uninterpreted) function call.
    Call(String),
    /// A floating-point value: protocols do not model floats.
    Float,
    /// A variable modified in a loop, read at the start of an iteration.
    ModifiedInLoop { var: VarId },
    /// A variable modified in a loop, read after the loop.
    AfterLoop { var: VarId },
    /// The variable of a counting loop where the loop is not an exact
    /// count because its counter may wrap around its type (defined
    /// behaviour: unsigned, or converted back from a wider type).
    CounterMayWrap { var: VarId },
    /// The result of `__syncthreads_count/_and/_or`.
    BarrierReduce,
    /// A value whose expression grew past [`MAX_TRACKED_NODES`] (a long
    /// chain of updates of `var` in straight-line code).
    TooLarge { var: VarId },
    /// A variable read before any assignment on some path.
    Uninitialised { var: VarId },
    /// Whether a loop was left by a jump out of it (`return`, or
    /// `break`/`continue` of an outer loop).
    LoopExit,
}

impl UnknownReason {
    /// Whether the value depends on memory contents (seed 004's "data
    /// dependent" accesses), as opposed to being unknown only because the
    /// analysis is imprecise.
    pub fn is_data_dependent(&self) -> bool {
        matches!(
            self,
            UnknownReason::Load { .. }
                | UnknownReason::Atomic { .. }
                | UnknownReason::BarrierReduce
        )
    }
}

/// A value the inference does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unknown {
    pub id: u32,
    pub ty: ScalarTy,
    pub reason: UnknownReason,
    /// The statement that produced it.
    pub span: Span,
    /// The threads of one block that evaluate this leaf in the same
    /// dynamic instance (the same iterations of the enclosing loops) get
    /// the same value: a quiet load of shared memory (`quiet`: no thread
    /// writes the array in its barrier interval) at an index that does
    /// not depend on the thread, or a loop variable that every thread
    /// starts and updates alike. Only questions about two threads of one
    /// block at one barrier (uniformity) may use it.
    pub block_uniform: bool,
}

/// A symbolic expression. Build compound values with the smart constructors,
/// which fold constants.
#[derive(Clone, Debug, PartialEq)]
pub enum Sym {
    /// An integer constant, already wrapped to its type.
    Int(i128, ScalarTy),
    Bool(bool),
    /// `threadIdx`, `blockIdx`, `blockDim`, `gridDim` (`u32`).
    Builtin(Builtin),
    /// A scalar kernel parameter (uniform, any value).
    Param {
        var: VarId,
        ty: ScalarTy,
    },
    /// The variable of an enclosing protocol `For` loop.
    LoopVar {
        var: VarId,
        loop_id: LoopId,
        ty: ScalarTy,
    },
    Unknown(Box<Unknown>),
    Unary(UnOp, ScalarTy, Box<Sym>),
    /// `ty` is the operands' type (the result is `Bool` for comparisons).
    Binary(BinOp, ScalarTy, Box<Sym>, Box<Sym>),
    Select(Box<Sym>, Box<Sym>, Box<Sym>),
    Min(ScalarTy, Box<Sym>, Box<Sym>),
    Max(ScalarTy, Box<Sym>, Box<Sym>),
    Cast(ScalarTy, Box<Sym>),
    /// An integer intrinsic (`__popc`, `__umulhi`, ...) with its arguments
    /// converted to its parameter types: exact, like arithmetic.
    Intrinsic(Intrinsic, Vec<Sym>),
}

/// The most nodes a value assigned to a variable may have before it is
/// replaced by an unknown ([`UnknownReason::TooLarge`]): it keeps the cost
/// of each statement bounded, so straight-line code is analysed in linear
/// time (a chain `x = x * 3 + 1` repeated 40,000 times would otherwise be
/// copied at every step).
pub const MAX_TRACKED_NODES: usize = 1024;

/// Wraps `v` to the range of `ty` (two's complement).
pub fn wrap(v: i128, ty: ScalarTy) -> i128 {
    ty.wrap(v)
}

/// The range of values of an integer type.
pub fn type_range(ty: ScalarTy) -> (i128, i128) {
    if ty == ScalarTy::Bool {
        return (0, 1);
    }
    let bits = ty.bits();
    if ty.is_signed() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

impl Sym {
    pub fn int(v: i128, ty: ScalarTy) -> Sym {
        if ty == ScalarTy::Bool {
            return Sym::Bool(v != 0);
        }
        Sym::Int(wrap(v, ty), ty)
    }

    pub fn unknown(id: u32, ty: ScalarTy, reason: UnknownReason, span: Span) -> Sym {
        Sym::Unknown(Box::new(Unknown {
            id,
            ty,
            reason,
            span,
            block_uniform: false,
        }))
    }

    /// This value with each unknown leaf whose id `uniform` holds marked
    /// [`Unknown::block_uniform`].
    pub fn mark_block_uniform(&self, uniform: &dyn Fn(u32) -> bool) -> Sym {
        self.map(&mut |s| match s {
            Sym::Unknown(u) if !u.block_uniform && uniform(u.id) => {
                let mut u = u.clone();
                u.block_uniform = true;
                Some(Sym::Unknown(u))
            }
            _ => None,
        })
    }

    /// Whether the value is the same for threads of one block at one
    /// dynamic point, judged by its form: no thread index, and every
    /// unknown leaf [`Unknown::block_uniform`] or among `uniform`.
    pub fn same_in_block(&self, uniform: &dyn Fn(u32) -> bool) -> bool {
        let mut same = true;
        self.walk(&mut |s| match s {
            Sym::Builtin(warpsafe_ir::Builtin::ThreadIdx(_)) => same = false,
            Sym::Unknown(u) if !u.block_uniform && !uniform(u.id) => same = false,
            _ => {}
        });
        same
    }

    /// The type of the value.
    pub fn ty(&self) -> ScalarTy {
        match self {
            Sym::Int(_, ty) | Sym::Param { ty, .. } | Sym::LoopVar { ty, .. } => *ty,
            Sym::Bool(_) => ScalarTy::Bool,
            Sym::Builtin(Builtin::WarpSize) => ScalarTy::I32,
            Sym::Builtin(_) => ScalarTy::U32,
            Sym::Unknown(u) => u.ty,
            Sym::Unary(UnOp::Not, _, _) => ScalarTy::Bool,
            Sym::Unary(_, ty, _) => *ty,
            Sym::Binary(op, ty, _, _) => {
                if op.is_boolean() {
                    ScalarTy::Bool
                } else {
                    *ty
                }
            }
            Sym::Select(_, a, _) => a.ty(),
            Sym::Min(ty, _, _) | Sym::Max(ty, _, _) | Sym::Cast(ty, _) => *ty,
            Sym::Intrinsic(i, _) => i.result(),
        }
    }

    pub fn as_int(&self) -> Option<i128> {
        match self {
            Sym::Int(v, _) => Some(*v),
            Sym::Bool(b) => Some(i128::from(*b)),
            _ => None,
        }
    }

    pub fn is_true(&self) -> bool {
        matches!(self, Sym::Bool(true))
    }

    pub fn is_false(&self) -> bool {
        matches!(self, Sym::Bool(false))
    }

    /// A sound interval for the value, when one is known cheaply (constants,
    /// CUDA's limits on launch builtins, lossless casts).
    pub fn range(&self) -> Option<(i128, i128)> {
        match self {
            Sym::Int(v, _) => Some((*v, *v)),
            Sym::Bool(b) => Some((i128::from(*b), i128::from(*b))),
            Sym::Builtin(b) => Some(builtin_range(*b)),
            Sym::Cast(ty, e) => {
                let (lo, hi) = e.range()?;
                let (tlo, thi) = type_range(*ty);
                (lo >= tlo && hi <= thi).then_some((lo, hi))
            }
            Sym::Param { ty, .. } | Sym::LoopVar { ty, .. } => {
                (!ty.is_float()).then(|| type_range(*ty))
            }
            Sym::Binary(op, ty, a, b) if ty.is_integer() && !op.is_boolean() => {
                let (alo, ahi) = a.range()?;
                let (blo, bhi) = b.range()?;
                let (lo, hi) = match op {
                    BinOp::Add => (alo + blo, ahi + bhi),
                    BinOp::Sub => (alo - bhi, ahi - blo),
                    BinOp::Mul if alo >= 0 && blo >= 0 => {
                        (alo.checked_mul(blo)?, ahi.checked_mul(bhi)?)
                    }
                    BinOp::Div if alo >= 0 && blo > 0 => (alo / bhi, ahi / blo),
                    BinOp::Shr if alo >= 0 && blo >= 0 && bhi < i128::from(ty.bits()) => {
                        (alo >> bhi, ahi >> blo)
                    }
                    _ => return None,
                };
                let (tlo, thi) = type_range(*ty);
                (lo >= tlo && hi <= thi).then_some((lo, hi))
            }
            _ => None,
        }
    }

    /// Whether `(ty)inner` never changes the value of `inner`.
    pub fn is_lossless_cast(ty: ScalarTy, inner: &Sym) -> bool {
        let from = inner.ty();
        if from.is_float() || ty.is_float() {
            return from == ty;
        }
        let (tlo, thi) = type_range(ty);
        match inner.range() {
            Some((lo, hi)) => lo >= tlo && hi <= thi,
            None => {
                let (flo, fhi) = type_range(from);
                flo >= tlo && fhi <= thi
            }
        }
    }

    /// Whether the value is certainly positive, assuming launch dimensions
    /// and their products do not overflow (CUDA's limits make `blockDim *
    /// gridDim` overflow only for grids of more than 2^32 threads).
    pub fn is_positive(&self) -> bool {
        match self {
            Sym::Int(v, _) => *v > 0,
            Sym::Builtin(Builtin::BlockDim(_) | Builtin::GridDim(_) | Builtin::WarpSize) => true,
            Sym::Binary(BinOp::Add | BinOp::Mul, _, a, b) => a.is_positive() && b.is_positive(),
            Sym::Cast(ty, e) => ty.is_integer() && e.is_positive(),
            _ => false,
        }
    }

    pub fn negate(e: Sym) -> Sym {
        match e {
            Sym::Bool(b) => Sym::Bool(!b),
            Sym::Unary(UnOp::Not, _, inner) => *inner,
            Sym::Binary(op, ty, a, b) if !ty.is_float() && op.is_comparison() => {
                let flipped = match op {
                    BinOp::Eq => BinOp::Ne,
                    BinOp::Ne => BinOp::Eq,
                    BinOp::Lt => BinOp::Ge,
                    BinOp::Le => BinOp::Gt,
                    BinOp::Gt => BinOp::Le,
                    _ => BinOp::Lt,
                };
                Sym::Binary(flipped, ty, a, b)
            }
            e => Sym::Unary(UnOp::Not, ScalarTy::Bool, Box::new(e)),
        }
    }

    pub fn and(a: Sym, b: Sym) -> Sym {
        Sym::binary(BinOp::And, ScalarTy::Bool, a, b)
    }

    pub fn or(a: Sym, b: Sym) -> Sym {
        Sym::binary(BinOp::Or, ScalarTy::Bool, a, b)
    }

    pub fn unary(op: UnOp, ty: ScalarTy, e: Sym) -> Sym {
        if op == UnOp::Not {
            return Sym::negate(e);
        }
        if let Sym::Int(v, _) = e {
            let r = match op {
                UnOp::Neg => v.checked_neg(),
                _ => Some(!v),
            };
            if let Some(r) = r {
                return Sym::int(r, ty);
            }
        }
        Sym::Unary(op, ty, Box::new(e))
    }

    /// `a op b` with operands of type `ty`, folding constants and neutral
    /// elements.
    pub fn binary(op: BinOp, ty: ScalarTy, a: Sym, b: Sym) -> Sym {
        if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
            if let Some(r) = fold(op, ty, x, y) {
                return if op.is_boolean() {
                    Sym::Bool(r != 0)
                } else {
                    Sym::int(r, ty)
                };
            }
        }
        if op.is_comparison() && ty.is_integer() {
            if let (Some(x), Some(y)) = (a.range(), b.range()) {
                if let Some(r) = decide(op, x, y) {
                    return Sym::Bool(r);
                }
            }
        }
        match op {
            BinOp::And => {
                if a.is_false() || b.is_false() {
                    return Sym::Bool(false);
                }
                if a.is_true() {
                    return b;
                }
                if b.is_true() || a == b {
                    return a;
                }
            }
            BinOp::Or => {
                if a.is_true() || b.is_true() {
                    return Sym::Bool(true);
                }
                if a.is_false() {
                    return b;
                }
                if b.is_false() || a == b {
                    return a;
                }
            }
            BinOp::Add | BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr
                if b.as_int() == Some(0) =>
            {
                return a;
            }
            BinOp::Add | BinOp::BitOr | BinOp::BitXor if a.as_int() == Some(0) => return b,
            BinOp::Sub if b.as_int() == Some(0) => return a,
            BinOp::Mul | BinOp::Div if b.as_int() == Some(1) => return a,
            BinOp::Mul if a.as_int() == Some(1) => return b,
            BinOp::Mul if a.as_int() == Some(0) || b.as_int() == Some(0) => {
                return Sym::int(0, ty);
            }
            _ => {}
        }
        Sym::Binary(op, ty, Box::new(a), Box::new(b))
    }

    /// `c ? a : b`, recognising `min`/`max` and boolean selects.
    pub fn select(c: Sym, a: Sym, b: Sym) -> Sym {
        if c.is_true() || a == b {
            return a;
        }
        if c.is_false() {
            return b;
        }
        if a.ty() == ScalarTy::Bool {
            if a.is_true() {
                return Sym::or(c, b);
            }
            if b.is_false() {
                return Sym::and(c, a);
            }
            if a.is_false() {
                return Sym::and(Sym::negate(c), b);
            }
            if b.is_true() {
                return Sym::or(Sym::negate(c), a);
            }
        }
        if let Sym::Binary(op, ty, x, y) = &c {
            let (x, y) = (&**x, &**y);
            let ty = *ty;
            if ty.is_integer() && a.ty() == ty {
                let less = matches!(op, BinOp::Lt | BinOp::Le);
                let greater = matches!(op, BinOp::Gt | BinOp::Ge);
                if (less && &a == x && &b == y) || (greater && &a == y && &b == x) {
                    return Sym::Min(ty, Box::new(a), Box::new(b));
                }
                if (greater && &a == x && &b == y) || (less && &a == y && &b == x) {
                    return Sym::Max(ty, Box::new(a), Box::new(b));
                }
            }
        }
        Sym::Select(Box::new(c), Box::new(a), Box::new(b))
    }

    /// `(ty)e`, folding constants, identity casts and round trips through a
    /// type at least as wide.
    pub fn cast(ty: ScalarTy, e: Sym) -> Sym {
        if e.ty() == ty {
            return e;
        }
        if let Some(v) = e.as_int() {
            if !ty.is_float() {
                return Sym::int(v, ty);
            }
        }
        if let Sym::Cast(mid, inner) = &e {
            if inner.ty() == ty && !ty.is_float() && !mid.is_float() && mid.bits() >= ty.bits() {
                return (**inner).clone();
            }
        }
        Sym::Cast(ty, Box::new(e))
    }

    /// Rewrites the expression bottom-up: `f` may replace any node (children
    /// are rewritten first).
    pub fn map(&self, f: &mut dyn FnMut(&Sym) -> Option<Sym>) -> Sym {
        let rebuilt = match self {
            Sym::Int(..)
            | Sym::Bool(_)
            | Sym::Builtin(_)
            | Sym::Param { .. }
            | Sym::LoopVar { .. }
            | Sym::Unknown(_) => self.clone(),
            Sym::Unary(op, ty, e) => Sym::unary(*op, *ty, e.map(f)),
            Sym::Binary(op, ty, a, b) => Sym::binary(*op, *ty, a.map(f), b.map(f)),
            Sym::Select(c, a, b) => Sym::select(c.map(f), a.map(f), b.map(f)),
            Sym::Min(ty, a, b) => Sym::Min(*ty, Box::new(a.map(f)), Box::new(b.map(f))),
            Sym::Max(ty, a, b) => Sym::Max(*ty, Box::new(a.map(f)), Box::new(b.map(f))),
            Sym::Cast(ty, e) => Sym::cast(*ty, e.map(f)),
            Sym::Intrinsic(i, args) => Sym::Intrinsic(*i, args.iter().map(|a| a.map(f)).collect()),
        };
        f(&rebuilt).unwrap_or(rebuilt)
    }

    /// Calls `f` on each direct subexpression, in order.
    fn for_each_child<'a>(&'a self, mut f: impl FnMut(&'a Sym)) {
        match self {
            Sym::Int(..)
            | Sym::Bool(_)
            | Sym::Builtin(_)
            | Sym::Param { .. }
            | Sym::LoopVar { .. }
            | Sym::Unknown(_) => {}
            Sym::Unary(_, _, e) | Sym::Cast(_, e) => f(e),
            Sym::Binary(_, _, a, b) | Sym::Min(_, a, b) | Sym::Max(_, a, b) => {
                f(a);
                f(b);
            }
            Sym::Select(c, a, b) => {
                f(c);
                f(a);
                f(b);
            }
            Sym::Intrinsic(_, args) => args.iter().for_each(f),
        }
    }

    /// Whether the expression has more than `limit` nodes (counted without
    /// recursion, stopping at the limit).
    pub fn larger_than(&self, limit: usize) -> bool {
        let mut count = 0;
        let mut work = vec![self];
        while let Some(s) = work.pop() {
            count += 1;
            if count > limit {
                return true;
            }
            s.for_each_child(|c| work.push(c));
        }
        false
    }

    /// Calls `f` on this expression and every subexpression, parents first.
    pub fn walk(&self, f: &mut dyn FnMut(&Sym)) {
        f(self);
        self.for_each_child(|c| c.walk(f));
    }

    /// The unknown leaves of the expression.
    pub fn unknowns(&self) -> Vec<&Unknown> {
        let mut out = Vec::new();
        collect_unknowns(self, &mut out);
        out
    }

    /// Whether the value is exactly known in terms of thread ids, launch
    /// dimensions, parameters and loop variables.
    pub fn is_exact(&self) -> bool {
        self.unknowns().is_empty()
    }
}

fn collect_unknowns<'a>(s: &'a Sym, out: &mut Vec<&'a Unknown>) {
    match s {
        Sym::Unknown(u) => out.push(u),
        Sym::Int(..) | Sym::Bool(_) | Sym::Builtin(_) | Sym::Param { .. } | Sym::LoopVar { .. } => {
        }
        Sym::Unary(_, _, e) | Sym::Cast(_, e) => collect_unknowns(e, out),
        Sym::Binary(_, _, a, b) | Sym::Min(_, a, b) | Sym::Max(_, a, b) => {
            collect_unknowns(a, out);
            collect_unknowns(b, out);
        }
        Sym::Select(c, a, b) => {
            collect_unknowns(c, out);
            collect_unknowns(a, out);
            collect_unknowns(b, out);
        }
        Sym::Intrinsic(_, args) => args.iter().for_each(|a| collect_unknowns(a, out)),
    }
}

/// Decides `x op y` for all values in the intervals `x` and `y`, when the
/// answer is the same for all of them.
fn decide(op: BinOp, (alo, ahi): (i128, i128), (blo, bhi): (i128, i128)) -> Option<bool> {
    let lt_always = ahi < blo;
    let ge_always = alo >= bhi;
    let le_always = ahi <= blo;
    let gt_always = alo > bhi;
    match op {
        BinOp::Lt if lt_always => Some(true),
        BinOp::Lt if ge_always => Some(false),
        BinOp::Le if le_always => Some(true),
        BinOp::Le if gt_always => Some(false),
        BinOp::Gt if gt_always => Some(true),
        BinOp::Gt if le_always => Some(false),
        BinOp::Ge if ge_always => Some(true),
        BinOp::Ge if lt_always => Some(false),
        BinOp::Eq | BinOp::Ne if lt_always || gt_always => Some(op == BinOp::Ne),
        _ => None,
    }
}

/// CUDA's limits on launch builtins.
fn builtin_range(b: Builtin) -> (i128, i128) {
    match b {
        Builtin::ThreadIdx(_) => (0, 1023),
        Builtin::BlockDim(_) => (1, 1024),
        Builtin::BlockIdx(Dim::X) => (0, (1 << 31) - 2),
        Builtin::GridDim(Dim::X) => (1, (1 << 31) - 1),
        Builtin::BlockIdx(_) => (0, 65534),
        Builtin::GridDim(_) => (1, 65535),
        Builtin::WarpSize => (32, 32),
    }
}

/// Folds `x op y` in type `ty`; `None` when the result is undefined
/// (division by zero, over-wide shifts) or not an integer operation.
fn fold(op: BinOp, ty: ScalarTy, x: i128, y: i128) -> Option<i128> {
    if ty.is_float() {
        return None;
    }
    let bits = i128::from(ty.bits());
    let r = match op {
        BinOp::Add => x + y,
        BinOp::Sub => x - y,
        BinOp::Mul => x.checked_mul(y)?,
        BinOp::Div if y != 0 => x / y,
        BinOp::Rem if y != 0 => x % y,
        BinOp::Div | BinOp::Rem => return None,
        BinOp::Shl if (0..bits).contains(&y) => x.checked_shl(u32::try_from(y).ok()?)?,
        BinOp::Shr if (0..bits).contains(&y) => x >> y,
        BinOp::Shl | BinOp::Shr => return None,
        BinOp::BitAnd => x & y,
        BinOp::BitOr => x | y,
        BinOp::BitXor => x ^ y,
        BinOp::And => i128::from(x != 0 && y != 0),
        BinOp::Or => i128::from(x != 0 || y != 0),
        BinOp::Eq => i128::from(x == y),
        BinOp::Ne => i128::from(x != y),
        BinOp::Lt => i128::from(x < y),
        BinOp::Le => i128::from(x <= y),
        BinOp::Gt => i128::from(x > y),
        BinOp::Ge => i128::from(x >= y),
    };
    Some(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tid() -> Sym {
        Sym::Builtin(Builtin::ThreadIdx(Dim::X))
    }

    #[test]
    fn folds_with_wrapping() {
        let s = Sym::binary(
            BinOp::Add,
            ScalarTy::U8,
            Sym::int(250, ScalarTy::U8),
            Sym::int(10, ScalarTy::U8),
        );
        assert_eq!(s, Sym::Int(4, ScalarTy::U8));
        assert_eq!(wrap(200, ScalarTy::I8), -56);
        assert_eq!(
            Sym::binary(
                BinOp::Div,
                ScalarTy::I32,
                Sym::int(1, ScalarTy::I32),
                Sym::int(0, ScalarTy::I32)
            )
            .as_int(),
            None
        );
    }

    #[test]
    fn select_recognises_min_and_booleans() {
        let n = Sym::Param {
            var: VarId(0),
            ty: ScalarTy::U32,
        };
        let c = Sym::binary(BinOp::Lt, ScalarTy::U32, tid(), n.clone());
        assert!(matches!(
            Sym::select(c.clone(), tid(), n.clone()),
            Sym::Min(..)
        ));
        assert!(matches!(Sym::select(c.clone(), n, tid()), Sym::Max(..)));
        assert_eq!(
            Sym::select(c.clone(), Sym::Bool(false), Sym::Bool(true)),
            Sym::negate(c)
        );
    }

    #[test]
    fn cast_round_trip_and_ranges() {
        let back = Sym::cast(ScalarTy::U32, Sym::cast(ScalarTy::I32, tid()));
        assert_eq!(back, tid());
        assert!(Sym::is_lossless_cast(ScalarTy::I32, &tid()));
        let p = Sym::Param {
            var: VarId(0),
            ty: ScalarTy::U32,
        };
        assert!(!Sym::is_lossless_cast(ScalarTy::I32, &p));
    }
}
