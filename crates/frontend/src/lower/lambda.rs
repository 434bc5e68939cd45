//! Lambdas bound to a local name (`auto f = [&](unsigned i) -> T { ... };`)
//! and called through it: each call inlines the body where it is, with the
//! enclosing function's names in scope, as its captures by reference see
//! them.
//!
//! Invariants: only captures by reference (`[&]`, `[&x, &y]`) and empty
//! captures are modelled, since they read the variables at the call, as
//! the inlined body does; a capture by value (a copy taken where the lambda
//! is created), of `this`, or with an initialiser is refused by name. A
//! lambda that returns a value states its type (`-> T`); one without that
//! returns nothing.

use super::value::Value;
use super::{Binding, Lowerer, R};
use crate::syntax::named_children;
use crate::types::CType;
use tree_sitter::Node;

impl<'t> Lowerer<'_, 't> {
    /// The binding of a lambda expression `n`, after checking its captures.
    pub(super) fn lambda(&mut self, n: Node<'t>) -> R<Binding> {
        if let Some(captures) = n.child_by_field_name("captures") {
            let text = self.text(captures);
            let inner = text.trim().trim_start_matches('[').trim_end_matches(']');
            for capture in inner.split(',').map(str::trim).filter(|c| !c.is_empty()) {
                let by_ref = capture == "&"
                    || capture.strip_prefix('&').is_some_and(|name| {
                        let name = name.trim();
                        !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')
                    });
                if !by_ref {
                    return Err(self.unsupported(
                        captures,
                        format!("a lambda capturing `{capture}` (only captures by reference, `[&]` or `[&x]`, are modelled)"),
                    ));
                }
            }
        }
        if n.child_by_field_name("template_parameters").is_some() {
            return Err(self.unsupported(n, "generic lambdas (with template parameters)"));
        }
        self.lambdas.push(n);
        Ok(Binding::Lambda(self.lambdas.len() - 1))
    }

    /// A call of the lambda `lambdas[i]` at `n`: its body inlined with its
    /// parameters bound to the arguments, in a scope inside the caller's.
    pub(super) fn call_lambda(&mut self, i: usize, args: &[Node<'t>], n: Node<'t>) -> R<Value> {
        let lambda = self.lambdas[i];
        let body = lambda
            .child_by_field_name("body")
            .ok_or_else(|| self.unsupported(n, "a lambda without a body"))?;
        let declarator = lambda.child_by_field_name("declarator");
        let params: Vec<Node<'t>> = declarator
            .and_then(|d| d.child_by_field_name("parameters"))
            .map(named_children)
            .unwrap_or_default()
            .into_iter()
            .filter(|p| p.kind().ends_with("parameter_declaration"))
            .collect();
        if params.len() != args.len() {
            return Err(self.unsupported(
                n,
                format!(
                    "a lambda of {} parameter(s) called with {} argument(s)",
                    params.len(),
                    args.len()
                ),
            ));
        }
        let returns = declarator
            .and_then(|d| {
                named_children(d)
                    .into_iter()
                    .find(|c| c.kind() == "trailing_return_type")
            })
            .and_then(|t| named_children(t).into_iter().next());
        // Without `-> T`, the type of its first `return`'s value.
        let ret_ty = match returns {
            Some(t) => Some(self.type_cx().type_descriptor(t)?),
            None if returns_value(body) => None,
            None => Some(CType::Void),
        };
        if self.call_stack.len() > 64 {
            return Err(self.unsupported(n, "calls nested more than 64 deep"));
        }
        let (values, refs, _) = self.call_args(&params, args, n)?;
        // The body sees the caller's names (captured by reference) and its
        // own parameters; `break`/`continue` never leave it.
        self.scopes.push(std::collections::HashMap::new());
        let saved_loops = std::mem::take(&mut self.loops);
        let result = self
            .bind_params(&params, values, refs)
            .and_then(|()| self.returning_body("lambda", body, ret_ty.as_ref(), false, n));
        self.loops = saved_loops;
        self.scopes.pop();
        result
    }
}

/// Whether a `return` with a value is in `body` (outside nested lambdas).
fn returns_value(body: Node) -> bool {
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "return_statement" if n.named_child_count() > 0 => return true,
            "lambda_expression" => {}
            _ => stack.extend(named_children(n)),
        }
    }
    false
}
