//! The kernel arguments of a launch through an API (issue 9): `void *arr[]
//! = {(void *)&d_C, (void *)&width}; cuLaunchKernel(f, ..., arr, 0)` and
//! `cudaLaunchCooperativeKernel((void *)k, grid, block, arr, 0, 0)` pass
//! the kernel `d_C` and `width`, read when the launch runs, as
//! `k<<<grid, block>>>(d_C, width)` passes them.
//!
//! **Invariant:** an array counts only when it is declared once in the
//! launching function, as an array with a brace list whose every element
//! is `&x` (cast to `void *` or not), and every other use of its name is
//! the whole kernel-parameters argument of a launch API call (`arr`,
//! `&arr[0]`, `(void **)arr`). The launch reads the values through the
//! pointers and writes none, so those `&x` are no writes
//! (`host_writes.rs`); an array used any other way may be written through
//! and is not read.

use crate::syntax::{named_children, Syntax};
use tree_sitter::Node;

/// The launch API functions and the index of their kernel-parameters
/// argument (`void **`).
const PARAMS_ARG: &[(&str, usize)] = &[
    ("cuLaunchKernel", 9),
    ("cuLaunchCooperativeKernel", 9),
    ("cudaLaunchKernel", 3),
    ("cudaLaunchCooperativeKernel", 3),
];

/// The index of the kernel-parameters argument of `call` when it is a
/// launch through an API.
pub(crate) fn params_index(syn: &Syntax, call: Node) -> Option<usize> {
    let name = crate::syntax::callee_name(syn, call)?;
    PARAMS_ARG.iter().find(|(n, _)| *n == name).map(|(_, i)| *i)
}

/// An array of the launching function that holds a launch's kernel
/// arguments.
pub(crate) struct ArgArray<'t> {
    pub(crate) name: &'t str,
    /// Its brace list.
    pub(crate) list: Node<'t>,
    /// What each element points to (`x` of `(void *)&x`).
    pub(crate) targets: Vec<Node<'t>>,
}

/// The kernel-argument arrays of the function `def` (see the module
/// comment).
pub(crate) fn arg_arrays<'t>(syn: &'t Syntax, def: Node<'t>) -> Vec<ArgArray<'t>> {
    let mut candidates: Vec<ArgArray<'t>> = Vec::new();
    let mut declared: Vec<&str> = Vec::new();
    let mut uses: Vec<Node<'t>> = Vec::new();
    let mut stack = vec![def];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "init_declarator" => {
                if let Some(name) = array_name(syn, n) {
                    declared.push(name);
                    let list = n
                        .child_by_field_name("value")
                        .filter(|v| v.kind() == "initializer_list");
                    if let Some(list) = list {
                        let targets: Option<Vec<Node>> =
                            named_children(list).into_iter().map(address_of).collect();
                        if let Some(targets) = targets {
                            candidates.push(ArgArray {
                                name,
                                list,
                                targets,
                            });
                        }
                    }
                }
            }
            "identifier" => uses.push(n),
            _ => {}
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    candidates.retain(|a| {
        declared.iter().filter(|d| **d == a.name).count() == 1
            && uses
                .iter()
                .filter(|u| syn.text(**u) == a.name)
                .all(|u| is_declared_name(*u, a.list) || is_params_argument(syn, *u))
    });
    candidates
}

/// The kernel's arguments of the API launch `call` in `def`: the targets
/// of the array its parameters argument names, none for `NULL`. `None`
/// when the argument is anything else.
pub(crate) fn api_args<'t>(
    syn: &'t Syntax,
    def: Node<'t>,
    call: Node<'t>,
) -> Option<Vec<Node<'t>>> {
    let i = params_index(syn, call)?;
    let arg = *named_children(call.child_by_field_name("arguments")?).get(i)?;
    let arg = strip_casts(arg);
    if matches!(syn.text(arg), "NULL" | "0" | "nullptr") {
        return Some(Vec::new());
    }
    let name = array_of_argument(syn, arg)?;
    arg_arrays(syn, def)
        .into_iter()
        .find(|a| a.name == name)
        .map(|a| a.targets)
}

/// `x` of `&x`, `(void *)&x`, `(void *)(&x)`.
fn address_of(n: Node) -> Option<Node> {
    let n = strip_casts(n);
    (n.kind() == "pointer_expression" && n.child(0).is_some_and(|c| c.kind() == "&"))
        .then(|| n.child_by_field_name("argument"))?
}

/// `n` without the casts and parentheses around it.
fn strip_casts(mut n: Node) -> Node {
    loop {
        n = match n.kind() {
            "cast_expression" => match n.child_by_field_name("value") {
                Some(v) => v,
                None => return n,
            },
            "parenthesized_expression" => match named_children(n).first() {
                Some(v) => *v,
                None => return n,
            },
            _ => return n,
        };
    }
}

/// The array a parameters argument names: `arr`, `&arr[0]`, `&arr`.
fn array_of_argument<'t>(syn: &'t Syntax, arg: Node<'t>) -> Option<&'t str> {
    let arg = strip_casts(arg);
    match arg.kind() {
        "identifier" => Some(syn.text(arg)),
        "pointer_expression" if arg.child(0).is_some_and(|c| c.kind() == "&") => {
            let inner = strip_casts(arg.child_by_field_name("argument")?);
            match inner.kind() {
                "identifier" => Some(syn.text(inner)),
                "subscript_expression" => {
                    let base = inner.child_by_field_name("argument")?;
                    let index = inner.child_by_field_name("indices").or_else(|| {
                        named_children(inner)
                            .into_iter()
                            .find(|c| c.id() != base.id())
                    })?;
                    (base.kind() == "identifier"
                        && syn
                            .text(index)
                            .trim_matches(|c| c == '[' || c == ']')
                            .trim()
                            == "0")
                        .then(|| syn.text(base))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether the identifier `u` is a use of an array as the whole
/// parameters argument of a launch API call.
fn is_params_argument(syn: &Syntax, u: Node) -> bool {
    // Up to the argument: casts, parentheses, `&`, `[0]`.
    let mut arg = u;
    while let Some(p) = arg.parent() {
        if p.kind() == "argument_list" {
            break;
        }
        if !matches!(
            p.kind(),
            "cast_expression"
                | "parenthesized_expression"
                | "pointer_expression"
                | "subscript_expression"
                | "subscript_argument_list"
        ) {
            return false;
        }
        arg = p;
    }
    let (Some(list), Some(name)) = (arg.parent(), array_of_argument(syn, arg)) else {
        return false;
    };
    let Some(call) = list.parent().filter(|c| c.kind() == "call_expression") else {
        return false;
    };
    name == syn.text(u)
        && params_index(syn, call).is_some_and(|i| {
            named_children(list)
                .get(i)
                .is_some_and(|a| a.id() == arg.id())
        })
}

/// Whether `u` is the name in the declarator of the array whose brace
/// list is `list`.
fn is_declared_name(u: Node, list: Node) -> bool {
    let mut n = u;
    while let Some(p) = n.parent() {
        if p.kind() == "init_declarator" {
            return p
                .child_by_field_name("value")
                .is_some_and(|v| v.id() == list.id())
                && p.child_by_field_name("declarator").is_some_and(|d| {
                    d.start_byte() <= u.start_byte() && u.end_byte() <= d.end_byte()
                });
        }
        if !matches!(p.kind(), "array_declarator" | "pointer_declarator") {
            return false;
        }
        n = p;
    }
    false
}

/// The name of an `init_declarator` that declares an array of pointers
/// (`void *arr[] = ...`, `void *arr[5] = ...`).
fn array_name<'t>(syn: &'t Syntax, init: Node<'t>) -> Option<&'t str> {
    let mut d = init.child_by_field_name("declarator")?;
    let mut array = false;
    loop {
        match d.kind() {
            "array_declarator" => array = true,
            "pointer_declarator" => {}
            "identifier" => return array.then(|| syn.text(d)),
            _ => return None,
        }
        d = d.child_by_field_name("declarator")?;
    }
}
