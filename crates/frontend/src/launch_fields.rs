//! Launch dimensions built field by field in host code:
//!
//! ```text
//! dim3 gridDim, blockDim;
//! blockDim.x = 128;
//! blockDim.y = 4;
//! gridDim.x = (M + (16 * blockDim.x / 32 - 1)) / (16 * blockDim.x / 32);
//! k<<<gridDim, blockDim>>>(...);
//! ```
//!
//! The `dim3` variables declared in the block that holds the launch are
//! followed through the statements before it, in order: a declaration sets
//! the components to its constructor's arguments (1 where none is given),
//! and `v.x = e;` (likewise `y`, `z`) sets one to the constant `e`, in
//! which the components known so far stand for `v.x` (as `unsigned int`s,
//! as in C).
//!
//! Invariant: only straight-line code of that block counts. Any other
//! statement that names a variable (a call taking it, `&v`, a write in a
//! branch or loop, `v = ...`) makes its dimensions unknown, as does a
//! component that is not a constant, or a `goto` in the function.

use crate::consteval::{eval_text, wrap, ConstEnv};
use crate::syntax::{named_children, Syntax};
use std::collections::{HashMap, HashSet};
use tree_sitter::Node;
use warpsafe_ir::ScalarTy;

/// The dimensions `name` holds at the launch that `arg` (a configuration
/// argument naming it) belongs to, if the statements before the launch fix
/// them.
pub(crate) fn assigned_dims(
    syn: &Syntax,
    env: &dyn ConstEnv,
    arg: Node,
    name: &str,
    host: Node,
) -> Option<[u64; 3]> {
    if crate::launch_path::has_goto(host) {
        return None;
    }
    // The statement holding the launch, and its block.
    let mut stmt = arg;
    while stmt.parent()?.kind() != "compound_statement" {
        stmt = stmt.parent()?;
    }
    let block = stmt.parent()?;
    let mut dims: HashMap<String, [Option<u64>; 3]> = HashMap::new();
    let mut lost: HashSet<String> = HashSet::new();
    for s in named_children(block) {
        if s.start_byte() >= stmt.start_byte() {
            break;
        }
        if let Some(declared) = dim3_declaration(syn, env, s) {
            for (v, d) in declared {
                lost.remove(&v);
                dims.insert(v, d);
            }
            continue;
        }
        if let Some((v, field, rhs)) = field_assignment(syn, s) {
            if dims.contains_key(v) {
                let value = component_value(syn, env, rhs, &dims);
                if let Some(d) = dims.get_mut(v) {
                    d[field] = value;
                }
                continue;
            }
        }
        for v in written(syn, s) {
            if dims.remove(v).is_some() {
                lost.insert(v.to_string());
            }
        }
    }
    if lost.contains(name) {
        return None;
    }
    let d = dims.get(name)?;
    Some([d[0]?, d[1]?, d[2]?])
}

/// `dim3 a, b(4, 2);`: each declared name with its components.
fn dim3_declaration(
    syn: &Syntax,
    env: &dyn ConstEnv,
    s: Node,
) -> Option<Vec<(String, [Option<u64>; 3])>> {
    if s.kind() != "declaration" || syn.text(s.child_by_field_name("type")?).trim() != "dim3" {
        return None;
    }
    let mut out = Vec::new();
    for d in s.children_by_field_name("declarator", &mut s.walk()) {
        let (name, args) = match d.kind() {
            "identifier" => (syn.text(d).to_string(), Vec::new()),
            "init_declarator" => {
                let name = d.child_by_field_name("declarator")?;
                let args = crate::launch::dim3_ctor_args(d.child_by_field_name("value")?)?;
                (syn.text(name).to_string(), args)
            }
            "function_declarator" => {
                let (name, params) = crate::launch::vexing_dim3(d)?;
                (
                    syn.text(name).to_string(),
                    crate::launch::dim3_ctor_args(params)?,
                )
            }
            _ => return None,
        };
        if args.len() > 3 {
            return None;
        }
        let mut dims = [Some(1u64); 3];
        for (i, a) in args.iter().enumerate() {
            dims[i] = crate::consteval::eval(syn, *a, env)
                .and_then(|v| u64::try_from(wrap(v, ScalarTy::U32)).ok());
        }
        out.push((name, dims));
    }
    Some(out)
}

/// `v.x = e;`: the variable, the component's index and `e`.
fn field_assignment<'t>(syn: &'t Syntax, s: Node<'t>) -> Option<(&'t str, usize, Node<'t>)> {
    if s.kind() != "expression_statement" {
        return None;
    }
    let a = *named_children(s).first()?;
    if a.kind() != "assignment_expression" || syn.text(a.child_by_field_name("operator")?) != "=" {
        return None;
    }
    let left = a.child_by_field_name("left")?;
    if left.kind() != "field_expression" || syn.text(left.child_by_field_name("operator")?) != "." {
        return None;
    }
    let v = left.child_by_field_name("argument")?;
    if v.kind() != "identifier" {
        return None;
    }
    let field = component(syn.text(left.child_by_field_name("field")?))?;
    Some((syn.text(v), field, a.child_by_field_name("right")?))
}

/// The index of a `dim3` component's name.
fn component(field: &str) -> Option<usize> {
    ["x", "y", "z"].iter().position(|c| *c == field)
}

/// The value of a component's right-hand side, with the known components
/// of the tracked variables written in as `unsigned int` constants.
fn component_value(
    syn: &Syntax,
    env: &dyn ConstEnv,
    rhs: Node,
    dims: &HashMap<String, [Option<u64>; 3]>,
) -> Option<u64> {
    let mut text = String::new();
    substitute(syn, rhs, dims, &mut text)?;
    let v = eval_text(&text, env)?;
    u64::try_from(wrap(v, ScalarTy::U32)).ok()
}

/// The text of `n` with `v.x` of tracked variables replaced by `(128u)`;
/// `None` when a tracked variable's component there is unknown.
fn substitute(
    syn: &Syntax,
    n: Node,
    dims: &HashMap<String, [Option<u64>; 3]>,
    out: &mut String,
) -> Option<()> {
    if n.kind() == "field_expression" {
        let v = n.child_by_field_name("argument")?;
        if let Some(d) = dims.get(syn.text(v)) {
            let i = component(syn.text(n.child_by_field_name("field")?))?;
            out.push_str(&format!("({}u)", d[i]?));
            return Some(());
        }
    }
    if n.child_count() == 0 {
        out.push_str(syn.text(n));
        out.push(' ');
        return Some(());
    }
    let mut c = n.walk();
    for child in n.children(&mut c) {
        substitute(syn, child, dims, out)?;
    }
    Some(())
}

/// The identifiers under `n` that it may write: assigned, incremented,
/// their address taken or passed bare to a call (by reference, perhaps).
/// Reading a component (`printf("%u", grid.x)`) or naming a variable in
/// another launch's configuration writes nothing.
fn written<'t>(syn: &'t Syntax, n: Node<'t>) -> Vec<&'t str> {
    let mut out = Vec::new();
    let mut stack = vec![n];
    while let Some(x) = stack.pop() {
        if x.kind() == "identifier" && may_write(syn, x) {
            out.push(syn.text(x));
        }
        let mut c = x.walk();
        stack.extend(x.named_children(&mut c));
    }
    out
}

fn may_write(syn: &Syntax, id: Node) -> bool {
    let Some(mut p) = id.parent() else {
        return true;
    };
    let mut target = id;
    // `v.x` is read or written as a whole.
    if p.kind() == "field_expression" && p.child_by_field_name("argument") == Some(id) {
        target = p;
        let Some(pp) = p.parent() else { return true };
        p = pp;
    }
    match p.kind() {
        "assignment_expression" => p.child_by_field_name("left") == Some(target),
        "update_expression" => true,
        "pointer_expression" => p.child_by_field_name("operator").map(|o| syn.text(o)) == Some("&"),
        // Passed bare: perhaps by reference.
        "argument_list" => target == id,
        _ => false,
    }
}
