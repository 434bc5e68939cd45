//! Walking the statement tree.

use crate::{Block, Kernel, Stmt};

/// Calls `f` on every statement of `block`, parents before children, in
/// program order.
pub fn walk_block<'a>(block: &'a Block, f: &mut dyn FnMut(&'a Stmt)) {
    for stmt in block {
        f(stmt);
        for child in stmt.children() {
            walk_block(child, f);
        }
    }
}

impl Kernel {
    /// Calls `f` on every statement of the kernel, in program order.
    pub fn walk<'a>(&'a self, f: &mut dyn FnMut(&'a Stmt)) {
        walk_block(&self.body, f);
    }
}

impl Stmt {
    /// The variable this statement itself assigns, if any: an assignment's,
    /// an unknown value's or a load's destination, an atomic's old value,
    /// a reducing barrier's result.
    pub fn assigned_var(&self) -> Option<crate::VarId> {
        use crate::StmtKind as K;
        match &self.kind {
            K::Assign { dst, .. } | K::Havoc { dst, .. } | K::Load { dst, .. } => Some(*dst),
            K::Rmw { dst, .. } | K::Cas { dst, .. } => *dst,
            K::Barrier {
                reduce: Some((_, _, dst)),
                ..
            } => Some(*dst),
            _ => None,
        }
    }

    /// The expressions this statement evaluates itself (not those of the
    /// blocks it contains).
    pub fn exprs(&self) -> Vec<&crate::Expr> {
        use crate::{BarrierKind, StmtKind as K};
        match &self.kind {
            K::Assign { value, .. } => vec![value],
            K::Load { mem, .. } => vec![&mem.index],
            K::Store { mem, value, .. } => vec![&mem.index, value],
            K::Rmw { mem, operand, .. } => vec![&mem.index, operand],
            K::Cas {
                mem,
                expected,
                desired,
                ..
            } => vec![&mem.index, expected, desired],
            K::Barrier { kind, reduce } => {
                let mut out = Vec::new();
                if let BarrierKind::Warp { mask } = kind {
                    out.push(mask);
                }
                if let Some((_, pred, _)) = reduce {
                    out.push(pred);
                }
                out
            }
            K::Assert { cond, .. } | K::Assume { cond, .. } | K::If { cond, .. } => vec![cond],
            K::Loop { cond, .. } => vec![cond],
            K::Print { args, .. } => args.iter().collect(),
            K::Havoc { .. } | K::Fence { .. } | K::Break(_) | K::Continue(_) | K::Return => {
                Vec::new()
            }
        }
    }
}

impl Kernel {
    /// Whether any expression of the kernel reads a built-in for which
    /// `pred` holds (`threadIdx.y`, `gridDim.z`, ...).
    pub fn reads_builtin(&self, pred: &dyn Fn(crate::Builtin) -> bool) -> bool {
        let mut found = false;
        self.walk(&mut |s| {
            for e in s.exprs() {
                e.walk(&mut |x| {
                    if let crate::Expr::Builtin(b) = x {
                        found |= pred(*b);
                    }
                });
            }
        });
        found
    }
}
