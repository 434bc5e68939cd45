//! [`Sym`] to SMT-LIB2 bit-vector terms, for one thread.
//!
//! Every integer type is a bit-vector of its width, so C's wrap-around is
//! exact; `Bool` is SMT `Bool`. Signedness picks the operation: `<` is
//! `bvslt` or `bvult`, `/` is `bvsdiv` or `bvudiv` (both truncate towards
//! zero, as C does), `%` is `bvsrem`/`bvurem` (sign of the dividend, as C),
//! `>>` is `bvashr`/`bvlshr`. Where C is undefined, SMT-LIB's total
//! definitions apply: `x / 0` is all ones (unsigned) or `x < 0 ? 1 : -1`
//! (signed), `x % 0` is `x`, a shift by the width or more gives 0 (or the
//! sign fill for `bvashr`). A kernel that divides by zero has undefined
//! behaviour anyway; v0 picks SMT-LIB's value for it.
//!
//! Signed overflow: C++ leaves the overflow of signed arithmetic undefined,
//! so by default (as GPUVerify and Faial do) an execution in which a
//! program's `int` or `long` `+ - * / -x` overflows is not one the kernel
//! can have. [`Encoder::encode_program`] records that as
//! [`Encoder::facts`], each under the conditions in which the operation is
//! evaluated (the left operand of `&&`/`||`, the condition of `?:`), for
//! the callers to assert with the term. Only values the program computes
//! are encoded that way (guards, indices, assertions, preconditions), never
//! the bounds and steps the loop abstraction derives; `--signed-wrap`
//! ([`Shared::signed_wrap`]) turns it off. Unsigned arithmetic and
//! conversions (implementation-defined, not undefined) always wrap.
//!
//! Soundness: launch builtins and scalar parameters are shared constants
//! given by the caller; every [`Unknown`](crate::Unknown) leaf becomes a
//! fresh constant per encoder (one encoder per thread and access), and so
//! does every conversion from a float, so the encoding over-approximates
//! what the analysis does not know. Anything the encoder cannot express is
//! an [`EncodeError`], which the caller reports as UNKNOWN.

use std::collections::HashMap;

use crate::sym::{Sym, UnknownReason};
use warpsafe_ir::{ArrayId, BinOp, Builtin, Dim, LoopId, ScalarTy, UnOp, VarId};
use warpsafe_smt::{term, Sort, Term};

/// Why a symbolic value could not be encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError(pub String);

/// The SMT sort of a non-float scalar type.
pub(crate) fn sort_of(ty: ScalarTy) -> Result<Sort, EncodeError> {
    if ty.is_float() {
        return Err(EncodeError(format!("a {ty} value cannot be encoded")));
    }
    Ok(if ty == ScalarTy::Bool {
        Sort::Bool
    } else {
        Sort::BitVec(ty.bits())
    })
}

/// A literal of type `ty`.
pub(crate) fn lit(v: i128, ty: ScalarTy) -> Term {
    if ty == ScalarTy::Bool {
        term::bool(v != 0)
    } else {
        term::bv(v as u128, ty.bits())
    }
}

/// Converts `t` of type `from` to type `to` as a C cast does.
pub(crate) fn convert(t: Term, from: ScalarTy, to: ScalarTy) -> Result<Term, EncodeError> {
    if from.is_float() || to.is_float() {
        return Err(EncodeError("a float conversion cannot be encoded".into()));
    }
    if from == to {
        return Ok(t);
    }
    if from == ScalarTy::Bool {
        return Ok(term::ite(t, lit(1, to), lit(0, to)));
    }
    if to == ScalarTy::Bool {
        return Ok(term::not(term::eq(t, lit(0, from))));
    }
    Ok(resize(t, from, to.bits()))
}

/// Sign- or zero-extends (by `from`'s signedness) or truncates an integer
/// term to `bits`.
pub(crate) fn resize(t: Term, from: ScalarTy, bits: u32) -> Term {
    let have = from.bits();
    if bits > have {
        if from.is_signed() {
            term::sign_extend(bits - have, t)
        } else {
            term::zero_extend(bits - have, t)
        }
    } else if bits < have {
        term::extract(bits - 1, 0, t)
    } else {
        t
    }
}

/// The shared constants every thread sees.
#[derive(Clone, Debug)]
pub(crate) struct Shared {
    pub block_dim: [Term; 3],
    pub grid_dim: [Term; 3],
    pub params: HashMap<VarId, Term>,
    /// Signed arithmetic wraps like unsigned (`--signed-wrap`): no
    /// no-overflow facts are recorded.
    pub signed_wrap: bool,
}

/// One thread's ids.
#[derive(Clone, Debug)]
pub(crate) struct ThreadVars {
    pub thread_idx: [Term; 3],
    pub block_idx: [Term; 3],
    /// Per dimension, a constant the session defines as `blockIdx *
    /// blockDim + threadIdx` (32-bit unsigned): every way of writing that
    /// sum is encoded as this one term, so that the session's injectivity
    /// lemma about it applies (see `race::declare_globals`).
    pub global_idx: [Term; 3],
}

/// The dimension `d` when `a + b` is `blockIdx.d * blockDim.d +
/// threadIdx.d` in 32-bit unsigned arithmetic, in any operand order.
fn global_index(op: BinOp, ty: ScalarTy, a: &Sym, b: &Sym) -> Option<Dim> {
    if op != BinOp::Add || ty != ScalarTy::U32 {
        return None;
    }
    let product = |s: &Sym| match s {
        Sym::Binary(BinOp::Mul, ScalarTy::U32, x, y) => match (&**x, &**y) {
            (Sym::Builtin(Builtin::BlockIdx(d)), Sym::Builtin(Builtin::BlockDim(e)))
            | (Sym::Builtin(Builtin::BlockDim(e)), Sym::Builtin(Builtin::BlockIdx(d)))
                if d == e =>
            {
                Some(*d)
            }
            _ => None,
        },
        _ => None,
    };
    let thread = |s: &Sym| match s {
        Sym::Builtin(Builtin::ThreadIdx(d)) => Some(*d),
        _ => None,
    };
    match (product(a), thread(b), thread(a), product(b)) {
        (Some(d), Some(e), ..) | (_, _, Some(e), Some(d)) if d == e => Some(d),
        _ => None,
    }
}

fn dim(d: Dim) -> usize {
    match d {
        Dim::X => 0,
        Dim::Y => 1,
        Dim::Z => 2,
    }
}

/// Encodes the expressions of one thread at one access.
pub(crate) struct Encoder<'a> {
    shared: &'a Shared,
    thread: &'a ThreadVars,
    prefix: String,
    /// Constants of the enclosing `For` loops' variables.
    pub loop_vars: HashMap<LoopId, Term>,
    /// Fresh constants to declare before asserting anything encoded.
    pub decls: Vec<(String, Sort)>,
    /// What the fresh constants stand for (for the race's certainty).
    pub approximations: Vec<UnknownReason>,
    /// One constant per unknown leaf id: within one access of one thread,
    /// leaves with the same id denote the same value (see `sym`).
    unknowns: HashMap<u32, Term>,
    /// The values atomics returned that this encoding read: the array,
    /// the result's type and its constant (see `tickets`).
    pub atomic_results: Vec<(ArrayId, ScalarTy, Term)>,
    /// The constants of leaves that are the same for the threads of one
    /// block ([`crate::sym::Unknown::block_uniform`]), by leaf id: a query about two
    /// threads of one block equates the two encoders' constants.
    pub block_uniform: Vec<(u32, Term)>,
    /// What C guarantees about the values encoded with
    /// [`Encoder::encode_program`]: no signed overflow, each fact implied
    /// by the conditions under which its operation is evaluated. The
    /// caller asserts them wherever it asserts those terms.
    pub facts: Vec<Term>,
    /// That no unsigned addition, multiplication or left shift encoded
    /// with [`Encoder::encode_program`] wraps around, each under its
    /// conditions like `facts`. Not C's semantics (unsigned arithmetic
    /// wraps): a race that needs a wrap is real only for indices of 2^32
    /// or more, and callers use these to tell such races apart.
    pub wrap_facts: Vec<Term>,
    /// Whether facts are being recorded (inside `encode_program`).
    recording: bool,
    /// The conditions under which the sub-expression being encoded is
    /// evaluated (short-circuit operands, `?:` branches).
    guards: Vec<Term>,
}

impl<'a> Encoder<'a> {
    pub fn new(shared: &'a Shared, thread: &'a ThreadVars, prefix: &str) -> Encoder<'a> {
        Encoder {
            shared,
            thread,
            prefix: prefix.to_owned(),
            loop_vars: HashMap::new(),
            decls: Vec::new(),
            approximations: Vec::new(),
            unknowns: HashMap::new(),
            atomic_results: Vec::new(),
            block_uniform: Vec::new(),
            facts: Vec::new(),
            wrap_facts: Vec::new(),
            recording: false,
            guards: Vec::new(),
        }
    }

    /// `s`, a value the program computes (a guard, an index, an asserted
    /// or assumed condition), as a term of `ty`, recording in
    /// [`Encoder::facts`] that none of its signed operations overflows
    /// (unless [`Shared::signed_wrap`]).
    pub fn encode_program(&mut self, s: &Sym, ty: ScalarTy) -> Result<Term, EncodeError> {
        self.recording = !self.shared.signed_wrap;
        let t = self.encode_as(s, ty);
        self.recording = false;
        t
    }

    /// Records `fact` (under the current guards) when recording.
    fn fact(&mut self, fact: impl FnOnce() -> Term) {
        if let Some(f) = self.guarded(fact) {
            self.facts.push(f);
        }
    }

    /// `fact` under the current guards, when recording.
    fn guarded(&self, fact: impl FnOnce() -> Term) -> Option<Term> {
        if !self.recording {
            return None;
        }
        let fact = fact();
        Some(if self.guards.is_empty() {
            fact
        } else {
            term::implies(term::and(self.guards.iter().cloned()), fact)
        })
    }

    /// Encodes `s` as `ty`, evaluated only when `guard` holds.
    fn encode_under(&mut self, guard: Term, s: &Sym, ty: ScalarTy) -> Result<Term, EncodeError> {
        if !self.recording {
            return self.encode_as(s, ty);
        }
        self.guards.push(guard);
        let t = self.encode_as(s, ty);
        self.guards.pop();
        t
    }

    /// Declares (lazily, through `decls`) a fresh constant.
    pub fn fresh(&mut self, what: &str, sort: Sort) -> Term {
        let name = format!("{}_{}{}", self.prefix, what, self.decls.len());
        self.decls.push((name.clone(), sort));
        Term::atom(name)
    }

    /// `s` as a term of `ty` (casting as C does when `s` has another type).
    pub fn encode_as(&mut self, s: &Sym, ty: ScalarTy) -> Result<Term, EncodeError> {
        let t = self.encode(s)?;
        convert(t, s.ty(), ty)
    }

    pub fn encode(&mut self, s: &Sym) -> Result<Term, EncodeError> {
        Ok(match s {
            Sym::Int(v, ty) => lit(*v, *ty),
            Sym::Bool(b) => term::bool(*b),
            Sym::Builtin(b) => match b {
                Builtin::ThreadIdx(d) => self.thread.thread_idx[dim(*d)].clone(),
                Builtin::BlockIdx(d) => self.thread.block_idx[dim(*d)].clone(),
                Builtin::BlockDim(d) => self.shared.block_dim[dim(*d)].clone(),
                Builtin::GridDim(d) => self.shared.grid_dim[dim(*d)].clone(),
                Builtin::WarpSize => lit(32, ScalarTy::I32),
            },
            Sym::Param { var, ty } => {
                sort_of(*ty)?;
                self.shared
                    .params
                    .get(var)
                    .cloned()
                    .ok_or_else(|| EncodeError(format!("unknown parameter {var:?}")))?
            }
            Sym::LoopVar { loop_id, .. } => {
                self.loop_vars.get(loop_id).cloned().ok_or_else(|| {
                    EncodeError(format!("loop variable of {loop_id:?} out of scope"))
                })?
            }
            Sym::Unknown(u) => {
                if let Some(t) = self.unknowns.get(&u.id) {
                    return Ok(t.clone());
                }
                let sort = sort_of(u.ty)?;
                self.approximations.push(u.reason.clone());
                let t = self.fresh("u", sort);
                self.unknowns.insert(u.id, t.clone());
                if let UnknownReason::Atomic { array } = u.reason {
                    self.atomic_results.push((array, u.ty, t.clone()));
                }
                if u.block_uniform {
                    self.block_uniform.push((u.id, t.clone()));
                }
                t
            }
            Sym::Unary(op, ty, e) => match op {
                UnOp::Not => term::not(self.encode_as(e, ScalarTy::Bool)?),
                UnOp::Neg | UnOp::BitNot => {
                    let a = self.int_operand(e, *ty)?;
                    if *op == UnOp::Neg && overflow_is_undefined(*ty) {
                        let min = term::bv(1u128 << (ty.bits() - 1), ty.bits());
                        self.fact(|| term::not(term::eq(a.clone(), min)));
                    }
                    term::app(if *op == UnOp::Neg { "bvneg" } else { "bvnot" }, [a])
                }
            },
            Sym::Binary(op, ty, a, b) => match global_index(*op, *ty, a, b) {
                Some(d) => self.thread.global_idx[dim(d)].clone(),
                None => self.binary(*op, *ty, a, b)?,
            },
            Sym::Select(c, a, b) => {
                let ty = a.ty();
                let c = self.encode_as(c, ScalarTy::Bool)?;
                let a = self.encode_under(c.clone(), a, ty)?;
                let b = self.encode_under(term::not(c.clone()), b, ty)?;
                term::ite(c, a, b)
            }
            Sym::Min(ty, a, b) | Sym::Max(ty, a, b) => {
                let x = self.int_operand(a, *ty)?;
                let y = self.int_operand(b, *ty)?;
                let less = if ty.is_signed() {
                    term::bvslt(x.clone(), y.clone())
                } else {
                    term::bvult(x.clone(), y.clone())
                };
                if matches!(s, Sym::Min(..)) {
                    term::ite(less, x, y)
                } else {
                    term::ite(less, y, x)
                }
            }
            Sym::Intrinsic(i, args) => {
                let mut terms = Vec::with_capacity(args.len());
                for (a, ty) in args.iter().zip(i.args()) {
                    terms.push(self.encode_as(a, *ty)?);
                }
                crate::intrinsic::encode(*i, &terms)
            }
            Sym::Cast(ty, e) => {
                if e.ty().is_float() {
                    // A float converted to an integer: any value.
                    let sort = sort_of(*ty)?;
                    self.approximations.push(UnknownReason::Float);
                    self.fresh("f", sort)
                } else {
                    self.encode_as(e, *ty)?
                }
            }
        })
    }

    fn int_operand(&mut self, e: &Sym, ty: ScalarTy) -> Result<Term, EncodeError> {
        if !ty.is_integer() {
            return Err(EncodeError(format!("integer operation on {ty}")));
        }
        self.encode_as(e, ty)
    }

    fn binary(&mut self, op: BinOp, ty: ScalarTy, a: &Sym, b: &Sym) -> Result<Term, EncodeError> {
        if ty.is_float() {
            return Err(EncodeError("a float operation cannot be encoded".into()));
        }
        if ty == ScalarTy::Bool {
            let x = self.encode_as(a, ScalarTy::Bool)?;
            let y = match op {
                BinOp::And => self.encode_under(x.clone(), b, ScalarTy::Bool)?,
                BinOp::Or => self.encode_under(term::not(x.clone()), b, ScalarTy::Bool)?,
                _ => self.encode_as(b, ScalarTy::Bool)?,
            };
            return Ok(match op {
                BinOp::And | BinOp::BitAnd => term::and([x, y]),
                BinOp::Or | BinOp::BitOr => term::or([x, y]),
                BinOp::Eq => term::eq(x, y),
                BinOp::Ne | BinOp::BitXor => term::not(term::eq(x, y)),
                _ => {
                    // Arithmetic on bools: in C both are promoted to int.
                    let x = convert(x, ScalarTy::Bool, ScalarTy::I32)?;
                    let y = convert(y, ScalarTy::Bool, ScalarTy::I32)?;
                    return self.int_binary(op, ScalarTy::I32, x, y);
                }
            });
        }
        if matches!(op, BinOp::And | BinOp::Or) {
            let x = self.encode_as(a, ScalarTy::Bool)?;
            let guard = if op == BinOp::And {
                x.clone()
            } else {
                term::not(x.clone())
            };
            let y = self.encode_under(guard, b, ScalarTy::Bool)?;
            return Ok(if op == BinOp::And {
                term::and([x, y])
            } else {
                term::or([x, y])
            });
        }
        let x = self.int_operand(a, ty)?;
        let y = self.int_operand(b, ty)?;
        if overflow_is_undefined(ty) {
            if let Some(fact) = no_overflow(op, ty.bits(), &x, &y) {
                self.fact(|| fact);
            }
        } else if !ty.is_signed() && ty.bits() >= 32 {
            if let Some(f) =
                no_unsigned_wrap(op, ty.bits(), &x, &y).and_then(|fact| self.guarded(|| fact))
            {
                self.wrap_facts.push(f);
            }
        }
        self.int_binary(op, ty, x, y)
    }

    fn int_binary(
        &mut self,
        op: BinOp,
        ty: ScalarTy,
        x: Term,
        y: Term,
    ) -> Result<Term, EncodeError> {
        let s = ty.is_signed();
        Ok(match op {
            BinOp::Add => term::bvadd(x, y),
            BinOp::Sub => term::bvsub(x, y),
            BinOp::Mul => term::bvmul(x, y),
            BinOp::Div if s => term::bvsdiv(x, y),
            BinOp::Div => term::bvudiv(x, y),
            BinOp::Rem if s => term::bvsrem(x, y),
            BinOp::Rem => term::bvurem(x, y),
            BinOp::Shl => term::bvshl(x, y),
            BinOp::Shr if s => term::bvashr(x, y),
            BinOp::Shr => term::bvlshr(x, y),
            BinOp::BitAnd => term::bvand(x, y),
            BinOp::BitOr => term::bvor(x, y),
            BinOp::BitXor => term::bvxor(x, y),
            BinOp::Eq => term::eq(x, y),
            BinOp::Ne => term::not(term::eq(x, y)),
            BinOp::Lt if s => term::bvslt(x, y),
            BinOp::Lt => term::bvult(x, y),
            BinOp::Le if s => term::bvsle(x, y),
            BinOp::Le => term::bvule(x, y),
            BinOp::Gt if s => term::bvsgt(x, y),
            BinOp::Gt => term::bvugt(x, y),
            BinOp::Ge if s => term::bvsge(x, y),
            BinOp::Ge => term::bvuge(x, y),
            BinOp::And | BinOp::Or => {
                return Err(EncodeError("logical operator on integers".into()))
            }
        })
    }
}

/// Whether overflow of arithmetic at `ty` is undefined in C: the signed
/// types arithmetic happens in after the integer promotions (`int`,
/// `long`, `long long`). Narrower signed operations only appear in the IR
/// as conversions of wider results, which are implementation-defined.
fn overflow_is_undefined(ty: ScalarTy) -> bool {
    ty.is_signed() && ty.is_integer() && ty.bits() >= 32
}

/// Whether `s` has an operation whose overflow [`Encoder::encode_program`]
/// assumes away (the report then says so).
pub(crate) fn has_signed_arithmetic(s: &Sym) -> bool {
    let mut found = false;
    s.walk(&mut |e| {
        found |= match e {
            Sym::Binary(op, ty, ..) => {
                overflow_is_undefined(*ty)
                    && matches!(
                        op,
                        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem
                    )
            }
            Sym::Unary(UnOp::Neg, ty, _) => overflow_is_undefined(*ty),
            _ => false,
        }
    });
    found
}

/// That signed `x op y` on `bits`-bit operands does not overflow, for the
/// operations that can (`None` for the others). Written with plain
/// bit-vector operations (not SMT-LIB 2.7's `bvsaddo` and friends, which
/// older solvers lack).
fn no_overflow(op: BinOp, bits: u32, x: &Term, y: &Term) -> Option<Term> {
    let sign = |t: Term| term::extract(bits - 1, bits - 1, t);
    let (x, y) = (x.clone(), y.clone());
    Some(match op {
        // Overflow: both operands have one sign and the sum the other.
        BinOp::Add => {
            let r = term::bvadd(x.clone(), y.clone());
            term::not(term::and([
                term::eq(sign(x.clone()), sign(y)),
                term::not(term::eq(sign(r), sign(x))),
            ]))
        }
        // Overflow: the operands' signs differ and the result's is `y`'s.
        BinOp::Sub => {
            let r = term::bvsub(x.clone(), y.clone());
            term::not(term::and([
                term::not(term::eq(sign(x.clone()), sign(y))),
                term::not(term::eq(sign(r), sign(x))),
            ]))
        }
        // Factors widened from half the width or less: the product of two
        // signed ones, or of a signed and an unsigned one, is below 2^(bits
        // - 1) in magnitude; that of two unsigned ones below 2^bits, so it
        // overflows exactly when its sign bit is set. The same facts as
        // the general one's, without a double-width multiplier (which
        // solvers do not finish). Otherwise: the double-width product
        // equals the sign-extended product.
        BinOp::Mul => match (
            half_width_extension(&x, bits),
            half_width_extension(&y, bits),
        ) {
            (Some(sx), Some(sy)) if sx || sy => term::bool(true),
            (Some(false), Some(false)) => term::eq(sign(term::bvmul(x, y)), term::bv(0, 1)),
            _ => term::eq(
                term::bvmul(
                    term::sign_extend(bits, x.clone()),
                    term::sign_extend(bits, y.clone()),
                ),
                term::sign_extend(bits, term::bvmul(x, y)),
            ),
        },
        // MIN / -1 and MIN % -1 overflow.
        BinOp::Div | BinOp::Rem => term::not(term::and([
            term::eq(x, term::bv(1u128 << (bits - 1), bits)),
            term::eq(y, term::bv(u128::MAX >> (128 - bits), bits)),
        ])),
        _ => return None,
    })
}

/// Whether `t`, of `bits` bits, is `((_ zero_extend n) u)` (`Some(false)`)
/// or `((_ sign_extend n) u)` (`Some(true)`) with `u` at most half as wide.
fn half_width_extension(t: &Term, bits: u32) -> Option<bool> {
    let [head, _] = t.as_list()? else {
        return None;
    };
    let [under, op, n] = head.as_list()? else {
        return None;
    };
    let n: u32 = n.as_atom()?.parse().ok()?;
    if under.as_atom()? != "_" || 2 * n < bits {
        return None;
    }
    match op.as_atom()? {
        "zero_extend" => Some(false),
        "sign_extend" => Some(true),
        _ => None,
    }
}

/// That `x op y` at `ty` (addition or multiplication) equals the exact
/// mathematical result: no signed overflow, no unsigned wrap-around.
pub(crate) fn exact(op: BinOp, ty: ScalarTy, x: &Term, y: &Term) -> Term {
    let f = if ty.is_signed() {
        no_overflow(op, ty.bits(), x, y)
    } else {
        no_unsigned_wrap(op, ty.bits(), x, y)
    };
    f.expect("invariant: addition and multiplication can overflow")
}

/// That unsigned `x op y` on `bits`-bit operands stays in range, for
/// addition, multiplication and left shifts (`None` for the others); for
/// products wider than 32 bits, the stronger "both factors fit in half
/// the width".
fn no_unsigned_wrap(op: BinOp, bits: u32, x: &Term, y: &Term) -> Option<Term> {
    let (x, y) = (x.clone(), y.clone());
    let wide = |t: Term| term::zero_extend(bits, t);
    Some(match op {
        BinOp::Add => term::eq(
            term::bvadd(wide(x.clone()), wide(y.clone())),
            wide(term::bvadd(x, y)),
        ),
        // 64-bit products: both factors below 2^32, which implies no wrap
        // without a 128-bit multiplier (solvers do not finish those).
        BinOp::Mul if bits > 32 => {
            let half = term::bv(1u128 << (bits / 2), bits);
            term::and([term::bvult(x, half.clone()), term::bvult(y, half)])
        }
        BinOp::Mul => term::eq(
            term::bvmul(wide(x.clone()), wide(y.clone())),
            wide(term::bvmul(x, y)),
        ),
        BinOp::Shl => term::and([
            term::bvult(y.clone(), term::bv(u128::from(bits), bits)),
            term::eq(term::bvlshr(term::bvshl(x.clone(), y.clone()), y), x),
        ]),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Whether `op` overflows on `x`, `y` at `bits` (32 or 64), by Rust's
    /// checked arithmetic.
    fn overflows(op: BinOp, bits: u32, x: i64, y: i64) -> bool {
        if bits == 32 {
            let (x, y) = (x as i32, y as i32);
            match op {
                BinOp::Add => x.checked_add(y).is_none(),
                BinOp::Sub => x.checked_sub(y).is_none(),
                BinOp::Mul => x.checked_mul(y).is_none(),
                _ => x == i32::MIN && y == -1,
            }
        } else {
            match op {
                BinOp::Add => x.checked_add(y).is_none(),
                BinOp::Sub => x.checked_sub(y).is_none(),
                BinOp::Mul => x.checked_mul(y).is_none(),
                _ => x == i64::MIN && y == -1,
            }
        }
    }

    /// Operands near the edges of the type, where overflow happens.
    fn operand() -> impl Strategy<Value = i64> {
        prop_oneof![
            any::<i64>(),
            -70_000i64..70_000,
            Just(i64::MIN),
            Just(i64::MAX),
            Just(i64::from(i32::MIN)),
            Just(i64::from(i32::MAX)),
            Just(-1i64),
            (-(1i64 << 33)..(1i64 << 33)),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// The no-overflow fact holds exactly when the operation does not
        /// overflow (evaluated by z3 on the literals).
        #[test]
        fn no_overflow_facts_match_checked_arithmetic(
            op in prop_oneof![Just(BinOp::Add), Just(BinOp::Sub), Just(BinOp::Mul), Just(BinOp::Div)],
            wide in any::<bool>(),
            x in operand(),
            y in operand(),
        ) {
            let bits = if wide { 64 } else { 32 };
            if warpsafe_smt::locate(warpsafe_smt::SolverKind::Z3, None).is_err() {
                return Ok(());
            }
            let mut solver = warpsafe_smt::Solver::start(warpsafe_smt::SolverConfig::z3())
                .expect("z3 starts");
            let lit = |v: i64| term::bv(u128::from(v as u64) & (u128::MAX >> (128 - bits)), bits);
            let fact = no_overflow(op, bits, &lit(x), &lit(y)).expect("an arithmetic operation");
            solver.assert(&fact).expect("asserted");
            let holds = solver.check().expect("z3 answers") == warpsafe_smt::CheckResult::Sat;
            prop_assert_eq!(holds, !overflows(op, bits, x, y), "{:?} {} {} {}", op, bits, x, y);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// The shortcut facts for 64-bit products of widened 32-bit
        /// factors hold exactly when the product does not overflow.
        #[test]
        fn widened_product_facts_match_checked_arithmetic(
            x in operand(),
            y in operand(),
            x_signed in any::<bool>(),
            y_signed in any::<bool>(),
        ) {
            if warpsafe_smt::locate(warpsafe_smt::SolverKind::Z3, None).is_err() {
                return Ok(());
            }
            let widen = |v: i64, signed: bool| {
                let lit = term::bv(u128::from(v as u32), 32);
                if signed {
                    (term::sign_extend(32, lit), i64::from(v as i32))
                } else {
                    (term::zero_extend(32, lit), i64::from(v as u32))
                }
            };
            let ((tx, vx), (ty, vy)) = (widen(x, x_signed), widen(y, y_signed));
            let fact = no_overflow(BinOp::Mul, 64, &tx, &ty).expect("a product");
            prop_assert!(!fact.to_string().contains("sign_extend 64"), "{}", fact);
            let mut solver = warpsafe_smt::Solver::start(warpsafe_smt::SolverConfig::z3())
                .expect("z3 starts");
            solver.assert(&fact).expect("asserted");
            let holds = solver.check().expect("z3 answers") == warpsafe_smt::CheckResult::Sat;
            prop_assert_eq!(holds, vx.checked_mul(vy).is_some(), "{} {}", vx, vy);
        }
    }

    #[test]
    fn casts_preserve_values_or_wrap() {
        let x = Term::atom("x");
        assert_eq!(
            convert(x.clone(), ScalarTy::I32, ScalarTy::I64)
                .unwrap()
                .to_string(),
            "((_ sign_extend 32) x)"
        );
        assert_eq!(
            convert(x.clone(), ScalarTy::U32, ScalarTy::I64)
                .unwrap()
                .to_string(),
            "((_ zero_extend 32) x)"
        );
        assert_eq!(
            convert(x.clone(), ScalarTy::U64, ScalarTy::U8)
                .unwrap()
                .to_string(),
            "((_ extract 7 0) x)"
        );
        assert_eq!(lit(-1, ScalarTy::I8).to_string(), "(_ bv255 8)");
        assert!(convert(x, ScalarTy::F32, ScalarTy::I32).is_err());
    }
}
