//! Host parameters the file's callers fix (issue 9): `int block_size =
//! 32; MatrixMultiply(argc, argv, block_size, dimsA, dimsB);` makes
//! `block_size` 32 in `MatrixMultiply`, so its `dim3 threads(block_size,
//! block_size)` launch has a constant block. A parameter is fixed when
//! every call of the function in the file passes it one constant, as the
//! caller's own launch-relation translation computes it (the caller's
//! constants, the initialisers of its unchanged locals, its own fixed
//! parameters, [`MAX_CALLERS`] callers deep).
//!
//! **Invariant:** only a free, non-template host function whose name the
//! file uses for nothing but its declarations and direct calls, each call
//! inside a function body and with one argument per parameter, has fixed
//! parameters; any other use of the name (its address, a shadowing local,
//! an overload) fixes none. As for the launches themselves, the calls in
//! the file are taken to be all the calls; each fixed value that a
//! relation uses is stated in the report with its call.

use super::Cx;
use crate::host_writes::{scalar_of_type, HostFn};
use crate::items::Items;
use crate::launch::{host_consts, HostConsts};
use crate::syntax::{named_children, Syntax};
use std::collections::HashMap;
use tree_sitter::Node;
use warpsafe_source::Span;

/// How many callers up a fixed parameter is followed.
const MAX_CALLERS: u32 = 3;

/// A parameter's value at every call, and the first of those calls.
#[derive(Clone, Debug)]
pub(super) struct Fixed {
    pub(super) value: i128,
    /// The function whose parameter it is.
    function: String,
    call: Span,
    calls: usize,
}

impl Fixed {
    /// How a report states the values of the parameters `names` (all of
    /// one function, fixed by the same calls): the text and the first
    /// call.
    pub(super) fn note(&self, names: &[(&str, i128)]) -> (String, Span) {
        let whence = if self.calls > 1 {
            format!("the {} calls", self.calls)
        } else {
            "the call".to_string()
        };
        let values: Vec<String> = names.iter().map(|(n, v)| format!("{n} == {v}")).collect();
        (
            format!("{} in {} from {whence}", values.join(" && "), self.function),
            self.call,
        )
    }
}

/// The by-value integer parameters of host function `def` to which every
/// call in the file passes one constant, by name.
pub(super) fn fixed_params<'t>(
    syn: &'t Syntax,
    items: &Items<'t>,
    def: Node<'t>,
    depth: u32,
) -> HashMap<String, Fixed> {
    let mut out = HashMap::new();
    if depth >= MAX_CALLERS {
        return out;
    }
    let Some((name, params)) = signature(syn, def) else {
        return out;
    };
    let mut defs = items.fns.iter().filter(|f| f.name == name);
    let only = defs.next();
    if defs.next().is_some()
        || !only.is_some_and(|f| f.def == def && f.owner.is_none() && f.template.is_empty())
    {
        return out;
    }
    let Some(calls) = calls_of(syn, name, params.len()) else {
        return out;
    };
    if calls.is_empty() {
        return out;
    }
    // Each caller's analysis, built once.
    let mut callers: Vec<(Node<'t>, Option<Caller<'_, 't>>)> = Vec::new();
    for (i, p) in params.iter().enumerate() {
        let Some(pname) = plain_integer_param(syn, items, *p) else {
            continue;
        };
        let mut value = None;
        for (call, caller_def) in &calls {
            let caller = match callers.iter().position(|(d, _)| d == caller_def) {
                Some(k) => &callers[k].1,
                None => {
                    let c = Caller::analyse(syn, items, *caller_def, depth);
                    callers.push((*caller_def, c));
                    &callers.last().expect("invariant: just pushed").1
                }
            };
            let v = caller
                .as_ref()
                .and_then(|c| c.constant_arg(syn, items, *call, i, *p));
            if v.is_none() || (value.is_some() && value != v) {
                value = None;
                break;
            }
            value = v;
        }
        if let Some(value) = value {
            out.insert(
                pname.to_string(),
                Fixed {
                    value,
                    function: name.to_string(),
                    call: syn.span(calls[0].0),
                    calls: calls.len(),
                },
            );
        }
    }
    out
}

/// A free function's plain name and its parameter declarations.
fn signature<'t>(syn: &'t Syntax, def: Node<'t>) -> Option<(&'t str, Vec<Node<'t>>)> {
    let d = super::function_declarator(def)?;
    let name = d.child_by_field_name("declarator")?;
    if name.kind() != "identifier" {
        return None;
    }
    let params = named_children(d.child_by_field_name("parameters")?);
    Some((syn.text(name), params))
}

/// `name`'s direct calls in the file with `arity` arguments each, with
/// the function definition each is in; `None` when the name is used
/// otherwise, or a call is elsewhere.
fn calls_of<'t>(syn: &'t Syntax, name: &str, arity: usize) -> Option<Vec<(Node<'t>, Node<'t>)>> {
    let mut out = Vec::new();
    let mut stack = vec![syn.tree.root_node()];
    while let Some(n) = stack.pop() {
        if n.kind() == "identifier" && syn.text(n) == name {
            let parent = n.parent()?;
            let field_of = |f: &str| parent.child_by_field_name(f) == Some(n);
            match parent.kind() {
                "function_declarator" if field_of("declarator") => {}
                "call_expression" if field_of("function") => {
                    let args = named_children(parent.child_by_field_name("arguments")?);
                    if args.len() != arity {
                        return None;
                    }
                    out.push((parent, enclosing_function(parent)?));
                }
                _ => return None,
            }
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    out.sort_by_key(|(call, _)| call.start_byte());
    Some(out)
}

/// The function definition a call is in (not through a lambda).
fn enclosing_function(mut n: Node) -> Option<Node> {
    loop {
        n = n.parent()?;
        match n.kind() {
            "function_definition" => return Some(n),
            "lambda_expression" => return None,
            _ => {}
        }
    }
}

/// A by-value integer parameter's name (`int n`, `const unsigned n`).
fn plain_integer_param<'t>(syn: &'t Syntax, items: &Items, p: Node<'t>) -> Option<&'t str> {
    if p.kind() != "parameter_declaration" {
        return None;
    }
    let ty = scalar_of_type(syn, items, p.child_by_field_name("type")?)?;
    let d = p.child_by_field_name("declarator")?;
    (ty.is_integer() && d.kind() == "identifier").then(|| syn.text(d))
}

/// What a calling function's translation needs.
struct Caller<'a, 't> {
    host: HostFn<'t>,
    consts: HostConsts<'a, 't>,
    fixed: HashMap<String, Fixed>,
}

impl<'a, 't> Caller<'a, 't> {
    fn analyse(syn: &'t Syntax, items: &'a Items<'t>, def: Node<'t>, depth: u32) -> Option<Self> {
        Some(Caller {
            host: HostFn::analyse(syn, items, def)?,
            consts: HostConsts {
                items,
                locals: def
                    .child_by_field_name("body")
                    .map(|b| host_consts(syn, items, b))
                    .unwrap_or_default(),
            },
            fixed: fixed_params(syn, items, def, depth + 1),
        })
    }

    /// The constant that `call` passes as parameter `i` (declared as
    /// `param`), converted to the parameter's type.
    fn constant_arg(
        &self,
        syn: &'t Syntax,
        items: &Items<'t>,
        call: Node<'t>,
        i: usize,
        param: Node<'t>,
    ) -> Option<i128> {
        let arg = *named_children(call.child_by_field_name("arguments")?).get(i)?;
        let pty = scalar_of_type(syn, items, param.child_by_field_name("type")?)?;
        let mut cx = Cx::at(syn, items, &self.consts, &self.host, call.start_byte());
        cx.add_fixed(&self.host, &self.fixed);
        let (e, ty) = cx.tr(arg, 0)?;
        super::fold(&super::convert(e, ty, pty)).map(|v| pty.wrap(v))
    }
}
