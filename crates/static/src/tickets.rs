//! Atomic tickets: the values `atomicAdd(&count, 1)` returns to different
//! threads are different, so `j = atomicAdd(&count, 1); out[j] = v;` (stream
//! compaction, work queues, GPUVerify's `atomics/add_one`) writes each slot
//! once. Without this, the returned value is an unknown (seed 004's "data
//! dependent" value) and every such write is a *possible* race.
//!
//! A *ticket counter* is an integer array every write of which (store,
//! read-modify-write or compare-and-swap) is an `atomicAdd` of a positive
//! constant at one constant slot, none of them inside a loop. Then, in one
//! launch of `T` threads whose sites add `K` in all (the sum of the
//! constants), the counter takes its values in a window of fewer than
//! `K * T + 1` consecutive numbers (modulo `2^b`), and each `atomicAdd`
//! returns a different one of them, in modification order: every update
//! adds a positive amount, and each site runs at most once per thread. When
//! `K * T < 2^b`, where `b` is the narrower of the counter's width and the
//! width the result is kept in, the results differ modulo `2^b` too (even
//! when the counter wraps around, and after truncation to `b` bits). Every
//! atomic result of such a counter is one of these updates, so two threads'
//! results differ.
//!
//! **Invariant (soundness):** [`distinct`] states `K * T < 2^b -> r1 != r2`
//! only for two results of the one slot of a ticket counter, each produced
//! by a different thread (the two sides of a race query); the premise is
//! part of the fact, so launches too large for it keep every value. The
//! initial value of the counter is not needed. Loads of the counter are
//! allowed (they do not write it).

use std::collections::HashMap;

use warpsafe_ir::{ArrayId, Block, Const, Expr, Kernel, RmwOp, ScalarTy, StmtKind};
use warpsafe_smt::{term, Term};

use crate::encode::Shared;

/// The ticket counters of a kernel, by array.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tickets {
    /// The sum of the constants every site adds, and the counter's type.
    counters: HashMap<ArrayId, (u128, ScalarTy)>,
}

/// What the writes of one array allow so far.
enum Counter {
    /// Only ticket sites: the slot they all update, its type and the sum
    /// they add.
    Ticket {
        slot: i128,
        ty: ScalarTy,
        total: u128,
    },
    Not,
}

impl Tickets {
    /// Finds the ticket counters of `kernel`.
    pub(crate) fn of(kernel: &Kernel) -> Tickets {
        // Beyond 2^32 in all, the premise's product could pass its width.
        const MAX_TOTAL: u128 = 1 << 32;
        let mut seen: HashMap<ArrayId, Counter> = HashMap::new();
        scan(&kernel.body, false, &mut seen);
        let counters = seen
            .into_iter()
            .filter_map(|(array, c)| match c {
                Counter::Ticket { total, ty, .. } if ty.is_integer() && total < MAX_TOTAL => {
                    Some((array, (total, ty)))
                }
                _ => None,
            })
            .collect();
        Tickets { counters }
    }

    /// Whether the kernel has any ticket counter.
    pub(crate) fn is_empty(&self) -> bool {
        self.counters.is_empty()
    }
}

/// Records every write of `block` into `seen`; `in_loop`: `block` is inside
/// a loop.
fn scan(block: &Block, in_loop: bool, seen: &mut HashMap<ArrayId, Counter>) {
    for stmt in block {
        match &stmt.kind {
            StmtKind::Rmw {
                op: RmwOp::Add,
                mem,
                operand: Expr::Const(Const::Int(k), _),
                ..
            } if !in_loop && *k > 0 => {
                let slot = match &mem.index {
                    Expr::Const(Const::Int(s), _) => Some(*s),
                    _ => None,
                };
                let entry = seen.entry(mem.array).or_insert(Counter::Ticket {
                    slot: slot.unwrap_or_default(),
                    ty: mem.ty,
                    total: 0,
                });
                *entry = match (std::mem::replace(entry, Counter::Not), slot) {
                    (Counter::Ticket { slot: s, ty, total }, Some(here))
                        if s == here && ty == mem.ty =>
                    {
                        Counter::Ticket {
                            slot: s,
                            ty,
                            total: total.saturating_add(*k as u128),
                        }
                    }
                    _ => Counter::Not,
                };
            }
            StmtKind::Store { mem, .. } | StmtKind::Rmw { mem, .. } | StmtKind::Cas { mem, .. } => {
                seen.insert(mem.array, Counter::Not);
            }
            _ => {}
        }
        let nested = in_loop || matches!(stmt.kind, StmtKind::Loop { .. });
        for child in stmt.children() {
            scan(child, nested, seen);
        }
    }
}

/// The facts that two threads' atomic results differ: `first` and `second`
/// are the atomic results (array, type, term) one side of a race query
/// read, each of its own thread.
pub(crate) fn distinct(
    tickets: &Tickets,
    shared: &Shared,
    first: &[(ArrayId, ScalarTy, Term)],
    second: &[(ArrayId, ScalarTy, Term)],
) -> Vec<Term> {
    // Six 32-bit dimensions times a total below 2^32: below 2^224.
    const WIDE: u32 = 256;
    let mut facts = Vec::new();
    for (a, ty1, r1) in first {
        let Some((total, counter_ty)) = tickets.counters.get(a) else {
            continue;
        };
        for (b, ty2, r2) in second {
            if a != b || ty1 != ty2 {
                continue;
            }
            let bits = counter_ty.bits().min(ty1.bits());
            let wide = |t: &Term| term::zero_extend(WIDE - 32, t.clone());
            let threads = shared
                .block_dim
                .iter()
                .chain(&shared.grid_dim)
                .map(wide)
                .reduce(term::bvmul)
                .expect("invariant: six dimensions");
            let premise = term::bvult(
                term::bvmul(term::bv(*total, WIDE), threads),
                term::bv(1u128 << bits, WIDE),
            );
            facts.push(term::implies(
                premise,
                term::not(term::eq(r1.clone(), r2.clone())),
            ));
        }
    }
    facts
}
