//! Launch dimensions a host helper returns through reference parameters
//! (issue 9). cuda-samples' particles computes its launch with
//!
//! ```c
//! void computeGridSize(uint n, uint blockSize, uint &numBlocks, uint &numThreads) {
//!     numThreads = min(blockSize, n);
//!     numBlocks  = iDivUp(n, numThreads);
//! }
//! uint numThreads, numBlocks;
//! computeGridSize(numParticles, 256, numBlocks, numThreads);
//! calcHashD<<<numBlocks, numThreads>>>(..., numParticles);
//! ```
//!
//! and its kernel's `__umul24(blockIdx.x, blockDim.x) + threadIdx.x` is a
//! distinct index per thread only because the grid stays under 2^24
//! blocks. A local read there has the value the helper's assignment to its
//! parameter gives, with the call's arguments for the helper's by-value
//! parameters: `blockDim.x == min(256u, numParticles)`.
//!
//! **Invariant:** the value is taken only when the local's one write is
//! one call, passing it bare to a `T &` parameter (of its own type, no
//! other argument is the local), of a free non-template host function
//! defined once whose body is only assignments `p = e;`, one per reference
//! parameter at most, and each `e` reads only by-value parameters and
//! reference parameters assigned before it; the call is an expression
//! statement of its own, before the read, in no loop, in a block that
//! encloses the read (so it ran, once, on the way there). Its arguments
//! are translated where the call reads them.

use super::{node_starting_at, runs_on_the_way, Cx};
use crate::host_writes::scalar_of_type;
use crate::syntax::named_children;
use std::collections::HashMap;
use tree_sitter::Node;
use warpsafe_ir::{Expr, ScalarTy};

impl<'t> Cx<'_, 't> {
    /// The value the helper call that writes `name` (of type `ty`) leaves
    /// in it, read at `read`, when the module's invariant holds.
    pub(super) fn out_param(
        &self,
        name: &str,
        ty: ScalarTy,
        read: usize,
        depth: u32,
    ) -> Option<(Expr, ScalarTy)> {
        let syn = self.syn;
        let [at] = self.host.writes_of(name) else {
            return None;
        };
        let at = *at;
        if at == usize::MAX || at >= read || self.host.in_loop(at) {
            return None;
        }
        let call = self.call_statement_at(at)?;
        if !runs_on_the_way(call.parent()?, read) {
            return None;
        }
        let f = call.child_by_field_name("function")?;
        if f.kind() != "identifier" {
            return None;
        }
        let mut defs = self.items.fns.iter().filter(|g| g.name == syn.text(f));
        let def = defs.next()?;
        if defs.next().is_some()
            || def.is_kernel()
            || def.owner.is_some()
            || !def.template.is_empty()
        {
            return None;
        }
        let params = super::parameters(def.def)?;
        let args = named_children(call.child_by_field_name("arguments")?);
        if params.len() != args.len() {
            return None;
        }
        let bare = |a: &Node| a.kind() == "identifier" && syn.text(*a) == name;
        let mut positions = args.iter().enumerate().filter(|(_, a)| bare(a));
        let (out, _) = positions.next()?;
        if positions.next().is_some() {
            return None;
        }
        // The helper's parameters: by value, the call's arguments; by
        // reference, unset until the body assigns them.
        let mut locals = HashMap::new();
        let mut refs = HashMap::new();
        let mut out_name = None;
        for (i, (p, a)) in params.iter().zip(&args).enumerate() {
            if p.kind() != "parameter_declaration" {
                return None;
            }
            let pty = scalar_of_type(syn, self.items, p.child_by_field_name("type")?)?;
            let d = p.child_by_field_name("declarator")?;
            match d.kind() {
                "identifier" => {
                    let (e, aty) = self.tr(*a, depth + 1)?;
                    locals.insert(syn.text(d).to_string(), (super::convert(e, aty, pty), pty));
                }
                "reference_declarator" => {
                    let inner = *named_children(d).first()?;
                    if inner.kind() != "identifier" || crate::decl::quals(syn, *p).const_ {
                        return None;
                    }
                    if i == out {
                        if pty != ty {
                            return None;
                        }
                        out_name = Some(syn.text(inner));
                    }
                    refs.insert(syn.text(inner), pty);
                }
                _ => return None,
            }
        }
        let out_name = out_name?;
        let mut value = None;
        for stmt in named_children(def.def.child_by_field_name("body")?) {
            let (left, right) = assignment(syn, stmt)?;
            let lty = *refs.get(left)?;
            if locals.contains_key(left) {
                // Assigned twice.
                return None;
            }
            let (e, rty) = self.with_locals(locals.clone()).tr(right, depth + 1)?;
            let e = super::convert(e, rty, lty);
            if left == out_name {
                value = Some((e.clone(), lty));
            }
            locals.insert(left.to_string(), (e, lty));
        }
        value
    }

    /// The call whose write `host_writes.rs` counts at `at`, when it is
    /// the whole expression of a statement.
    fn call_statement_at(&self, at: usize) -> Option<Node<'t>> {
        let n = node_starting_at(self.unknowns.as_ref()?.def, at, "call_expression")?;
        n.parent()
            .is_some_and(|s| s.kind() == "expression_statement")
            .then_some(n)
    }
}

/// `left = right;` with a bare name on the left.
fn assignment<'t>(syn: &'t crate::syntax::Syntax, stmt: Node<'t>) -> Option<(&'t str, Node<'t>)> {
    if stmt.kind() != "expression_statement" {
        return None;
    }
    let e = *named_children(stmt).first()?;
    if e.kind() != "assignment_expression" || syn.text(e.child_by_field_name("operator")?) != "=" {
        return None;
    }
    let left = e.child_by_field_name("left")?;
    let right = e.child_by_field_name("right")?;
    (left.kind() == "identifier").then(|| (syn.text(left), right))
}
