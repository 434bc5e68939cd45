//! Loop-carried state in closed form: ping-pong buffers (`cur = 1 - cur`,
//! `buf ^= 1`), swapped scalars (`t = a; a = b; b = t`) and flags set
//! once (`first = 0`), the double-buffering idioms of seed 002's
//! benchmarks that protocol inference otherwise loses (`loops.rs` makes
//! every variable a loop assigns an unknown at the start of an iteration).
//!
//! The loop body is evaluated once with each assigned variable `v` an
//! unknown `u_v`; its store at the end of the iteration gives the update
//! `F`: `v' = E_v(u)`. When `E_v` mentions nothing that changes from one
//! iteration to the next other than the `u_w` of variables closed the same
//! way (no load, no unknown made inside the loop, not the loop's own
//! variable), the values `X0` at entry, `X1 = F(X0)` and `X2 = F(X1)` are
//! computed symbolically, and over `v`'s whole dependency closure:
//! - `X1 = X0`: `v` is invariant, `X0` in every iteration;
//! - `X2 = X0`: `v` alternates, `X0` in even iterations and `X1` in odd;
//! - `X2 = X1`: `v` settles, `X0` in the first iteration and `X1` after.
//!
//! The iteration's number comes from the loop variable of a counting loop
//! ([`iteration_index`]), so both threads of a synchronized loop, being in
//! the same iteration, see the same value; otherwise (unknown trip counts,
//! non-power-of-two geometric steps) it is an unknown boolean, which still
//! bounds the value to `{X0, X1}`.
//!
//! Invariant: a closed form is exact: it equals the variable's value at the
//! start of every iteration the loop runs (structural equality of folded
//! [`Sym`]s only ever proves, never guesses, that `F^2 = id` or `F^2 = F`).

use std::collections::{HashMap, HashSet};

use crate::env::Env;
use crate::intrinsic::Intrinsic;
use crate::protocol::Step;
use crate::sym::Sym;
use warpsafe_ir::{BinOp, LoopId, ScalarTy, VarId};

/// How a variable's value evolves over the iterations.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Cycle {
    /// The same value in every iteration.
    Invariant(Sym),
    /// `first` in the first iteration, `then` in every later one.
    Settles { first: Sym, then: Sym },
    /// `even` in iterations 0, 2, 4, ..., `odd` in 1, 3, 5, ....
    Alternates { even: Sym, odd: Sym },
}

impl Cycle {
    /// The value at the start of an iteration, given whether it is the
    /// first and whether it is even.
    pub(crate) fn at(&self, first: &Sym, even: &Sym) -> Sym {
        match self {
            Cycle::Invariant(v) => v.clone(),
            Cycle::Settles { first: a, then } => {
                Sym::select(first.clone(), a.clone(), then.clone())
            }
            Cycle::Alternates { even: a, odd } => Sym::select(even.clone(), a.clone(), odd.clone()),
        }
    }

    /// The value after the loop, which ran a number of iterations that
    /// `which` (an unknown boolean) stands for.
    pub(crate) fn after(&self, which: &Sym) -> Sym {
        match self {
            Cycle::Invariant(v) => v.clone(),
            Cycle::Settles { first: a, then: b } | Cycle::Alternates { even: a, odd: b } => {
                Sym::select(which.clone(), a.clone(), b.clone())
            }
        }
    }
}

/// What one evaluated iteration of a loop tells about its variables.
pub(crate) struct Carried<'a> {
    /// The unknown standing for each assigned variable at the start of an
    /// iteration.
    pub(crate) starts: &'a HashMap<VarId, u32>,
    /// The store before the loop.
    pub(crate) entry: &'a Env,
    /// The store at the end of the evaluated iteration.
    pub(crate) end: &'a Env,
    /// Unknowns with ids from this one on were made inside the loop.
    pub(crate) first_inside: u32,
    pub(crate) loop_id: LoopId,
}

impl Carried<'_> {
    /// The closed form of every variable that has one.
    pub(crate) fn cycles(&self) -> HashMap<VarId, Cycle> {
        let by_id: HashMap<u32, VarId> = self.starts.iter().map(|(v, id)| (*id, *v)).collect();
        // Each variable's update and the variables it reads; `None` when
        // it reads something that changes between iterations.
        let mut deps: HashMap<VarId, Vec<VarId>> = HashMap::new();
        for &v in self.starts.keys() {
            let (Some(e), Some(_)) = (self.end.get(v), self.entry.get(v)) else {
                continue;
            };
            let mut reads = Vec::new();
            let mut stable = true;
            e.walk(&mut |s| match s {
                Sym::Unknown(u) => match by_id.get(&u.id) {
                    Some(w) => reads.push(*w),
                    None if u.id < self.first_inside => {}
                    None => stable = false,
                },
                Sym::LoopVar { loop_id, .. } if *loop_id == self.loop_id => stable = false,
                _ => {}
            });
            if stable {
                deps.insert(v, reads);
            }
        }
        // Only variables whose whole closure is stable.
        loop {
            let dropped: Vec<VarId> = deps
                .iter()
                .filter(|(_, reads)| reads.iter().any(|w| !deps.contains_key(w)))
                .map(|(v, _)| *v)
                .collect();
            if dropped.is_empty() {
                break;
            }
            for v in dropped {
                deps.remove(&v);
            }
        }
        let x0: HashMap<VarId, Sym> = deps
            .keys()
            .map(|v| {
                (
                    *v,
                    self.entry
                        .get(*v)
                        .cloned()
                        .expect("invariant: checked above"),
                )
            })
            .collect();
        let x1 = self.step(&deps, &x0, &by_id);
        let x2 = self.step(&deps, &x1, &by_id);
        let mut out = HashMap::new();
        for &v in deps.keys() {
            let closure = closure(v, &deps);
            let all = |f: &dyn Fn(VarId) -> bool| closure.iter().all(|w| f(*w));
            let cycle = if all(&|w| x1[&w] == x0[&w]) {
                Cycle::Invariant(x0[&v].clone())
            } else if all(&|w| x2[&w] == x0[&w]) {
                Cycle::Alternates {
                    even: x0[&v].clone(),
                    odd: x1[&v].clone(),
                }
            } else if all(&|w| x2[&w] == x1[&w]) {
                Cycle::Settles {
                    first: x0[&v].clone(),
                    then: x1[&v].clone(),
                }
            } else {
                continue;
            };
            out.insert(v, cycle);
        }
        out
    }

    /// `F(x)`: every update with the start unknowns replaced by `x`.
    fn step(
        &self,
        deps: &HashMap<VarId, Vec<VarId>>,
        x: &HashMap<VarId, Sym>,
        by_id: &HashMap<u32, VarId>,
    ) -> HashMap<VarId, Sym> {
        deps.keys()
            .map(|&v| {
                let e = self.end.get(v).expect("invariant: checked in cycles");
                let next = e.map(&mut |s| match s {
                    Sym::Unknown(u) => by_id.get(&u.id).and_then(|w| x.get(w)).cloned(),
                    _ => None,
                });
                (v, next)
            })
            .collect()
    }
}

/// `v` and every variable its update reads, transitively.
fn closure(v: VarId, deps: &HashMap<VarId, Vec<VarId>>) -> Vec<VarId> {
    let mut seen: HashSet<VarId> = HashSet::from([v]);
    let mut work = vec![v];
    while let Some(w) = work.pop() {
        for r in deps.get(&w).into_iter().flatten() {
            if seen.insert(*r) {
                work.push(*r);
            }
        }
    }
    seen.into_iter().collect()
}

/// The number of the iteration in which a counting loop's variable is
/// `var` (0 for the first), as a `u64` computed without signed arithmetic
/// (so no overflow fact is ever derived from it): `(v - lo) / a` for `+=`,
/// `(start - v) / a` for `-=`, and through the count of leading zeros for
/// `*=`/`<<=`/`/=`/`>>=` by a constant power of two (a halving loop only
/// when its variable stays at least 1, where that count is exact). `None`
/// for other steps.
pub(crate) fn iteration_index(var: &Sym, lo: &Sym, start: &Sym, step: &Step) -> Option<Sym> {
    let u64_ = ScalarTy::U64;
    let wide = |s: &Sym| Sym::cast(u64_, s.clone());
    let sub = |a: Sym, b: Sym| Sym::binary(BinOp::Sub, u64_, a, b);
    let div = |a: Sym, b: Sym| Sym::binary(BinOp::Div, u64_, a, b);
    // log2 of a constant power-of-two multiplier, or a constant shift.
    let shift = |step: &Step| -> Option<i128> {
        let k = step.amount().as_int()?;
        match step {
            Step::Mul(_) | Step::Div(_) => {
                (k > 1 && (k & (k - 1)) == 0).then(|| i128::from(k.trailing_zeros()))
            }
            _ => (k > 0).then_some(k),
        }
    };
    let clz = |s: &Sym| {
        let (i, ty) = if s.ty().bits() > 32 {
            (Intrinsic::Clzll, ScalarTy::U64)
        } else {
            (Intrinsic::Clz, ScalarTy::U32)
        };
        wide(&Sym::Intrinsic(i, vec![Sym::cast(ty, s.clone())]))
    };
    Some(match step {
        Step::Add(a) => div(sub(wide(var), wide(lo)), wide(a)),
        Step::Sub(a) => div(sub(wide(start), wide(var)), wide(a)),
        Step::Mul(_) | Step::Shl(_) => {
            let p = shift(step)?;
            div(sub(clz(lo), clz(var)), Sym::int(p, u64_))
        }
        Step::Div(_) | Step::Shr(_) => {
            let p = shift(step)?;
            if lo.as_int()? < 1 {
                return None;
            }
            div(sub(clz(var), clz(start)), Sym::int(p, u64_))
        }
    })
}

/// `index == 0` and `index` even, as booleans.
pub(crate) fn first_and_even(index: &Sym) -> (Sym, Sym) {
    let u64_ = ScalarTy::U64;
    let zero = Sym::int(0, u64_);
    let first = Sym::binary(BinOp::Eq, u64_, index.clone(), zero.clone());
    let low = Sym::binary(BinOp::BitAnd, u64_, index.clone(), Sym::int(1, u64_));
    (first, Sym::binary(BinOp::Eq, u64_, low, zero))
}
