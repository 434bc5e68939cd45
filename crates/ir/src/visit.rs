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
