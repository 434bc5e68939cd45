//! Checks the IR invariants inference relies on (every `VarId`/`ArrayId`
//! in range), so that the walk can index without failing.

use crate::infer::InferError;
use warpsafe_ir::{BarrierKind, Expr, Kernel, StmtKind};

pub(crate) fn validate(kernel: &Kernel) -> Result<(), InferError> {
    let nvars = kernel.vars.len();
    let narrays = kernel.arrays.len();
    let mut bad: Option<String> = None;
    let check_expr = |e: &Expr, bad: &mut Option<String>| {
        for v in e.vars() {
            if v.0 as usize >= nvars {
                *bad = Some(format!("variable id {} out of range", v.0));
            }
        }
    };
    kernel.walk(&mut |s| {
        let mut exprs: Vec<&Expr> = Vec::new();
        let mut dsts = Vec::new();
        if let Some(m) = s.mem() {
            exprs.push(&m.index);
            if m.array.0 as usize >= narrays {
                bad = Some(format!("array id {} out of range", m.array.0));
            }
        }
        match &s.kind {
            StmtKind::Assign { dst, value } => {
                dsts.push(*dst);
                exprs.push(value);
            }
            StmtKind::Havoc { dst, .. } | StmtKind::Load { dst, .. } => dsts.push(*dst),
            StmtKind::Store { value, .. } => exprs.push(value),
            StmtKind::Rmw { dst, operand, .. } => {
                dsts.extend(*dst);
                exprs.push(operand);
            }
            StmtKind::Cas {
                dst,
                expected,
                desired,
                ..
            } => {
                dsts.extend(*dst);
                exprs.push(expected);
                exprs.push(desired);
            }
            StmtKind::Barrier { kind, reduce } => {
                if let BarrierKind::Warp { mask } = kind {
                    exprs.push(mask);
                }
                if let Some((_, e, dst)) = reduce {
                    exprs.push(e);
                    dsts.push(*dst);
                }
            }
            StmtKind::Assert { cond, .. } | StmtKind::Assume { cond, .. } => exprs.push(cond),
            StmtKind::Print { args, .. } => exprs.extend(args),
            StmtKind::If { cond, .. } | StmtKind::Loop { cond, .. } => exprs.push(cond),
            StmtKind::Fence { .. }
            | StmtKind::Break(_)
            | StmtKind::Continue(_)
            | StmtKind::Return => {}
        }
        for d in dsts {
            if d.0 as usize >= nvars {
                bad = Some(format!("variable id {} out of range", d.0));
            }
        }
        for e in exprs {
            check_expr(e, &mut bad);
        }
    });
    match bad {
        Some(what) => Err(InferError::MalformedIr {
            kernel: kernel.name.clone(),
            what,
        }),
        None => Ok(()),
    }
}
