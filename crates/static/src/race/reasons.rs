//! Why a race is only *possible*: the unknown values it depends on, and
//! the synchronisation the check does not model.

use super::*;

/// A short description of why a value is unknown.
pub(crate) fn describe_reason(kernel: &Kernel, r: &UnknownReason) -> String {
    let var = |v: &warpsafe_ir::VarId| kernel.var(*v).name.clone();
    match r {
        UnknownReason::Load { array } => {
            format!(
                "depends on a value loaded from `{}`",
                kernel.array(*array).name
            )
        }
        UnknownReason::Atomic { array } => format!(
            "depends on the value returned by an atomic on `{}`",
            kernel.array(*array).name
        ),
        UnknownReason::Havoc(w) => format!("depends on an unknown value ({w})"),
        UnknownReason::Call(f) => format!("depends on the result of `{f}`"),
        UnknownReason::Float => "depends on a floating-point value".into(),
        UnknownReason::ModifiedInLoop { var: v } => {
            format!("depends on `{}`, modified in a loop", var(v))
        }
        UnknownReason::AfterLoop { var: v } => format!("depends on `{}` after a loop", var(v)),
        UnknownReason::CounterMayWrap { var: v } => format!(
            "depends on `{}` where its loop is not an exact count: the counter may wrap around its type's range (past its maximum counting up, its minimum counting down)",
            var(v)
        ),
        UnknownReason::BarrierReduce => "depends on a barrier reduction".into(),
        UnknownReason::Uninitialised { var: v } => {
            format!("depends on `{}`, possibly uninitialised", var(v))
        }
        UnknownReason::LoopExit => "depends on whether a loop exited early".into(),
        UnknownReason::TooLarge { var: v } => format!(
            "depends on `{}`, whose expression grew past {} operations",
            var(v),
            crate::sym::MAX_TRACKED_NODES
        ),
    }
}

/// Ways the kernel may order accesses that v0 does not model. Races are
/// never *provable* in such a kernel (seed 004): the synchronisation might
/// rule them out.
pub(super) fn unmodelled_synchronisation(kernel: &Kernel, warp_modelled: bool) -> Vec<String> {
    use warpsafe_ir::{AccessKind, BarrierKind, MemOrder, StmtKind};
    let (mut warp, mut fence, mut ordered, mut volatile) = (false, false, false, false);
    kernel.walk(&mut |stmt| match &stmt.kind {
        StmtKind::Barrier {
            kind: BarrierKind::Warp { .. } | BarrierKind::Tile { .. },
            ..
        } => warp = true,
        StmtKind::Fence { .. } => fence = true,
        StmtKind::Load { access, .. } | StmtKind::Store { access, .. } => match access {
            AccessKind::Atomic { order, .. } if *order != MemOrder::Relaxed => ordered = true,
            AccessKind::Volatile => volatile = true,
            _ => {}
        },
        StmtKind::Rmw { order, .. } | StmtKind::Cas { order, .. }
            if *order != MemOrder::Relaxed =>
        {
            ordered = true
        }
        _ => {}
    });
    let mut reasons = Vec::new();
    if warp && !warp_modelled {
        reasons.push(
            "warp and tile barriers are not modelled: they may order these accesses".to_string(),
        );
    }
    if fence {
        reasons.push(
            "fences are not modelled: with atomics they may order these accesses".to_string(),
        );
    }
    if ordered {
        reasons.push(
            "acquire/release atomics may synchronise the threads, which v0 does not model"
                .to_string(),
        );
    }
    if volatile {
        reasons.push(
            "volatile accesses may be used to synchronise the threads (not modelled)".to_string(),
        );
    }
    reasons
}
