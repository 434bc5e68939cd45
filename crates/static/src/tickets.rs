//! Atomic tickets: the values `atomicAdd(&count, 1)` returns to different
//! threads are different, so `j = atomicAdd(&count, 1); out[j] = v;` (stream
//! compaction, work queues, GPUVerify's `atomics/add_one`) writes each slot
//! once. Without this, the returned value is an unknown (seed 004's "data
//! dependent" value) and every such write is a *possible* race.
//!
//! A *ticket counter* is an integer array every write of which (store,
//! read-modify-write or compare-and-swap) is an `atomicAdd` of a positive
//! constant at one constant slot, none of them inside a loop; a
//! `__shared__` counter may also be written otherwise (reset: `if (tid ==
//! 0) count = 0;`) before a top-level block barrier that comes before every
//! ticket site, which orders every reset of the block before every ticket
//! (threads that leave before the barrier take no ticket). Then, in one
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
//! by a different thread (the two sides of a race query), of one block for
//! a `__shared__` counter (each block has its own; `T` counts the block's
//! threads), never for a local one; the premise is
//! part of the fact, so launches too large for it keep every value. The
//! initial value of the counter is not needed. Loads of the counter are
//! allowed (they do not write it).

use std::collections::HashMap;

use warpsafe_ir::{
    ArrayId, BarrierKind, Const, Expr, Kernel, MemSpace, RmwOp, ScalarTy, Stmt, StmtKind,
};
use warpsafe_smt::{term, Term};

use crate::encode::Shared;

/// The ticket counters of a kernel, by array.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tickets {
    counters: HashMap<ArrayId, TicketCounter>,
}

/// One ticket counter.
#[derive(Clone, Copy, Debug)]
struct TicketCounter {
    /// The sum of the constants its sites add.
    total: u128,
    /// The counter's type.
    ty: ScalarTy,
    /// A `__shared__` counter: each block has its own, so only two threads
    /// of one block get different results (and only the block's threads
    /// update it).
    per_block: bool,
}

/// One write of an array, found by [`scan`].
struct Write {
    array: ArrayId,
    /// The top-level statement of the kernel body that holds it.
    top: usize,
    /// `Some((slot, type, constant))` for a ticket site: an `atomicAdd` of
    /// a positive constant at a constant slot, outside loops.
    ticket: Option<(i128, ScalarTy, u128)>,
}

impl Tickets {
    /// Finds the ticket counters of `kernel`.
    pub(crate) fn of(kernel: &Kernel) -> Tickets {
        // Beyond 2^32 in all, the premise's product could pass its width.
        const MAX_TOTAL: u128 = 1 << 32;
        let mut writes = Vec::new();
        for (top, stmt) in kernel.body.iter().enumerate() {
            scan(std::slice::from_ref(stmt), top, false, &mut writes);
        }
        let barriers: Vec<usize> = kernel
            .body
            .iter()
            .enumerate()
            .filter(|(_, s)| {
                matches!(
                    s.kind,
                    StmtKind::Barrier {
                        kind: BarrierKind::Block,
                        ..
                    }
                )
            })
            .map(|(i, _)| i)
            .collect();
        let mut by_array: HashMap<ArrayId, Vec<&Write>> = HashMap::new();
        for w in &writes {
            by_array.entry(w.array).or_default().push(w);
        }
        let counters = by_array
            .into_iter()
            .filter_map(|(array, writes)| {
                let per_block = match kernel.array(array).space {
                    MemSpace::Global => false,
                    MemSpace::Shared => true,
                    // Per-thread (local) counters are one per thread.
                    MemSpace::Constant | MemSpace::Local => return None,
                };
                let (tickets, resets): (Vec<&Write>, Vec<&Write>) =
                    writes.into_iter().partition(|w| w.ticket.is_some());
                let (slot, ty, _) = tickets.first()?.ticket?;
                let mut total = 0u128;
                for w in &tickets {
                    let (s, t, k) = w.ticket?;
                    if s != slot || t != ty {
                        return None;
                    }
                    total = total.saturating_add(k);
                }
                if !ty.is_integer() || total >= MAX_TOTAL {
                    return None;
                }
                // Other writes only before a block barrier that every
                // ticket follows, and only for a block's own counter.
                if let Some(last_reset) = resets.iter().map(|w| w.top).max() {
                    let first_ticket = tickets.iter().map(|w| w.top).min()?;
                    let separated = barriers.iter().any(|&b| last_reset < b && b < first_ticket);
                    if !per_block || !separated {
                        return None;
                    }
                }
                Some((
                    array,
                    TicketCounter {
                        total,
                        ty,
                        per_block,
                    },
                ))
            })
            .collect();
        Tickets { counters }
    }

    /// Whether the kernel has any ticket counter.
    pub(crate) fn is_empty(&self) -> bool {
        self.counters.is_empty()
    }
}

/// Records every write of `block` (inside the top-level statement `top`)
/// into `writes`; `in_loop`: `block` is inside a loop.
fn scan(block: &[Stmt], top: usize, in_loop: bool, writes: &mut Vec<Write>) {
    for stmt in block {
        match &stmt.kind {
            StmtKind::Rmw {
                op, mem, operand, ..
            } => {
                let ticket = match (op, operand, &mem.index) {
                    (
                        RmwOp::Add,
                        Expr::Const(Const::Int(k), _),
                        Expr::Const(Const::Int(slot), _),
                    ) if !in_loop && *k > 0 => Some((*slot, mem.ty, *k as u128)),
                    _ => None,
                };
                writes.push(Write {
                    array: mem.array,
                    top,
                    ticket,
                });
            }
            StmtKind::Store { mem, .. } | StmtKind::Cas { mem, .. } => writes.push(Write {
                array: mem.array,
                top,
                ticket: None,
            }),
            _ => {}
        }
        let nested = in_loop || matches!(stmt.kind, StmtKind::Loop { .. });
        for child in stmt.children() {
            scan(child, top, nested, writes);
        }
    }
}

/// The facts that two threads' atomic results differ: `first` and `second`
/// are the atomic results (array, type, term) one side of a race query
/// read, each of its own thread; `same_block`: the two threads are of one
/// block (else `__shared__` counters give nothing: each block has its own).
pub(crate) fn distinct(
    tickets: &Tickets,
    shared: &Shared,
    same_block: bool,
    first: &[(ArrayId, ScalarTy, Term)],
    second: &[(ArrayId, ScalarTy, Term)],
) -> Vec<Term> {
    // Six 32-bit dimensions times a total below 2^32: below 2^224.
    const WIDE: u32 = 256;
    let mut facts = Vec::new();
    for (a, ty1, r1) in first {
        let Some(counter) = tickets.counters.get(a) else {
            continue;
        };
        if counter.per_block && !same_block {
            continue;
        }
        let bits = counter.ty.bits().min(ty1.bits());
        let wide = |t: &Term| term::zero_extend(WIDE - 32, t.clone());
        // The threads that update it: the block's, or the launch's.
        let grid: &[Term] = if counter.per_block {
            &[]
        } else {
            &shared.grid_dim
        };
        let threads = shared
            .block_dim
            .iter()
            .chain(grid)
            .map(wide)
            .reduce(term::bvmul)
            .expect("invariant: three block dimensions");
        let premise = term::bvult(
            term::bvmul(term::bv(counter.total, WIDE), threads),
            term::bv(1u128 << bits, WIDE),
        );
        for (_, _, r2) in second.iter().filter(|(b, ty2, _)| b == a && ty2 == ty1) {
            facts.push(term::implies(
                premise.clone(),
                term::not(term::eq(r1.clone(), r2.clone())),
            ));
        }
    }
    facts
}
