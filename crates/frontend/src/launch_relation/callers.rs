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
//!
//! The same agreement over the calls gives the parameters that every call
//! passes a power of two or zero (`power_of_two.rs`, judged in each
//! caller): `generateSampleRanks(..., stride, N)` called only from
//! mergeSort's `for (uint stride = 1024; stride < N; stride <<= 1)`.

use super::Cx;
use crate::host_writes::{scalar_of_type, HostFn};
use crate::items::Items;
use crate::launch::HostConsts;
use crate::syntax::{named_children, Syntax};
use std::collections::HashMap;
use tree_sitter::Node;
use warpsafe_ir::ScalarTy;
use warpsafe_source::Span;

/// How many callers up a fixed parameter is followed.
const MAX_CALLERS: u32 = 3;

/// What every call of a function in the file passes one of its
/// parameters (a constant, or that it is a power of two or zero), and the
/// first of those calls.
#[derive(Clone, Debug)]
pub(super) struct Agreed<T> {
    pub(super) value: T,
    /// The function whose parameter it is.
    function: String,
    call: Span,
    calls: usize,
}

/// A parameter's value at every call.
pub(super) type Fixed = Agreed<i128>;

impl<T> Agreed<T> {
    /// The same agreement with another value.
    fn with<U>(&self, value: U) -> Agreed<U> {
        Agreed {
            value,
            function: self.function.clone(),
            call: self.call,
            calls: self.calls,
        }
    }

    fn whence(&self) -> String {
        if self.calls > 1 {
            format!("the {} calls", self.calls)
        } else {
            "the call".to_string()
        }
    }
}

impl Fixed {
    /// How a report states the values of the parameters `names` (all of
    /// one function, fixed by the same calls): the text and the first
    /// call.
    pub(super) fn note(&self, names: &[(&str, i128)]) -> (String, Span) {
        let values: Vec<String> = names.iter().map(|(n, v)| format!("{n} == {v}")).collect();
        (
            format!(
                "{} in {} from {}",
                values.join(" && "),
                self.function,
                self.whence()
            ),
            self.call,
        )
    }
}

impl Agreed<()> {
    /// How a report states that parameter `name` is a power of two or
    /// zero at every call.
    pub(super) fn power_note(&self, name: &str) -> (String, Span) {
        (
            format!(
                "`{name}` is a power of two or zero in {} from {}",
                self.function,
                self.whence()
            ),
            self.call,
        )
    }
}

/// Another source file of the program (`companion.rs`): its syntax and
/// items.
pub(crate) type Companion<'c, 't> = (&'c Syntax, &'c Items<'t>);

/// What the file's calls of a host function agree on for its by-value
/// integer parameters, by name.
#[derive(Debug, Default)]
pub(super) struct Agreement {
    /// Parameters to which every call passes one constant.
    pub(super) fixed: HashMap<String, Fixed>,
    /// Parameters to which every call passes a power of two or zero
    /// (`power_of_two.rs`, judged in each caller): a merge step's `stride`
    /// passed from the caller's `stride <<= 1` loop.
    pub(super) powers: HashMap<String, Agreed<()>>,
}

/// A call of the function: the file (and items) it is in, the call and
/// the function definition it is in.
type Site<'t> = (Companion<'t, 't>, Node<'t>, Node<'t>);

/// What the calls in the file of host function `def` agree on, each
/// caller analysed once for both kinds of agreement. A function the file
/// never calls and does not declare `static` is looked for in the
/// `companions` that declare it without defining it (an `extern "C"`
/// wrapper that the program's `main.cpp` calls).
pub(super) fn agreed_params<'t>(
    syn: &'t Syntax,
    items: &'t Items<'t>,
    def: Node<'t>,
    depth: u32,
    companions: &[Companion<'t, 't>],
) -> Agreement {
    let mut out = Agreement::default();
    if depth >= MAX_CALLERS {
        return out;
    }
    let Some((name, params, only)) = sole_free_function(syn, items, def) else {
        return out;
    };
    let Some(calls) = calls_of(syn, name, params.len()) else {
        return out;
    };
    let mut sites: Vec<Site<'t>> = calls
        .iter()
        .map(|(call, caller)| ((syn, items), *call, *caller))
        .collect();
    if sites.is_empty() {
        if !external(only) {
            return out;
        }
        for &(csyn, citems) in companions {
            // A companion that defines the name has its own function.
            if citems.fns.iter().any(|f| f.name == name) {
                return out;
            }
            let Some(ccalls) = calls_of(csyn, name, params.len()) else {
                return out;
            };
            if !ccalls.is_empty() && !citems.prototypes.iter().any(|(p, _)| p == name) {
                return out;
            }
            sites.extend(ccalls.into_iter().map(|(c, d)| ((csyn, citems), c, d)));
        }
    }
    // The plain integer parameters, by position.
    let plain: Vec<(usize, &str, ScalarTy)> = params
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            let pname = plain_integer_param(syn, items, *p)?;
            let pty = scalar_of_type(syn, items, p.child_by_field_name("type")?)?;
            Some((i, pname, pty))
        })
        .collect();
    if sites.is_empty() || plain.is_empty() {
        return out;
    }
    // Each caller's analysis, built once: `owner[k]` is the first site in
    // the same caller (nodes of two trees are never the same caller).
    let owner: Vec<usize> = sites
        .iter()
        .enumerate()
        .map(|(k, ((csyn, _), _, caller_def))| {
            sites
                .iter()
                .position(|((s, _), _, d)| std::ptr::eq(*s, *csyn) && d == caller_def)
                .unwrap_or(k)
        })
        .collect();
    let callers: Vec<Option<Caller<'t, 't>>> = sites
        .iter()
        .enumerate()
        .map(|(k, ((csyn, citems), _, caller_def))| {
            (owner[k] == k).then(|| {
                // A caller in a companion is followed in its own file.
                let more = if std::ptr::eq(*csyn, syn) {
                    companions
                } else {
                    &[][..]
                };
                Caller::analyse(csyn, citems, *caller_def, depth, more)
            })?
        })
        .collect();
    let ((fsyn, _), first_call, _) = sites[0];
    let agreed = Agreed {
        value: (),
        function: name.to_string(),
        call: fsyn.span(first_call),
        calls: sites.len(),
    };
    for (i, pname, pty) in plain {
        let fixed = agree(&sites, &callers, &owner, |c, s, it, call| {
            c.constant_arg(s, it, call, i, pty)
        });
        if let Some(v) = fixed {
            out.fixed.insert(pname.to_string(), agreed.with(v));
        }
        let power = agree(&sites, &callers, &owner, |c, s, it, call| {
            c.power_of_two_arg(s, it, call, i, pty)
        });
        if power.is_some() {
            out.powers.insert(pname.to_string(), agreed.clone());
        }
    }
    out
}

/// The answer `judge` gives every site, from its caller's analysis, when
/// all give one.
fn agree<'t, T: PartialEq>(
    sites: &[Site<'t>],
    callers: &[Option<Caller<'t, 't>>],
    owner: &[usize],
    judge: impl Fn(&Caller<'t, 't>, &'t Syntax, &Items<'t>, Node<'t>) -> Option<T>,
) -> Option<T> {
    let mut value = None;
    for (k, ((csyn, citems), call, _)) in sites.iter().enumerate() {
        let v = callers[owner[k]]
            .as_ref()
            .and_then(|c| judge(c, csyn, citems, *call))?;
        if value.as_ref().is_some_and(|w| *w != v) {
            return None;
        }
        value = Some(v);
    }
    value
}

/// Whether the launching function `def` is one that only another file
/// calls: a free function the file never calls and does not declare
/// `static` (its companions are then worth reading).
pub(crate) fn exported<'t>(syn: &'t Syntax, items: &Items<'t>, def: Node<'t>) -> bool {
    sole_free_function(syn, items, def).is_some_and(|(name, params, only)| {
        external(only)
            && name != "main"
            && calls_of(syn, name, params.len()).is_some_and(|c| c.is_empty())
    })
}

/// The name, parameter declarations and item of `def` when it is the
/// file's only function of its name, free and not a template.
fn sole_free_function<'a, 't>(
    syn: &'t Syntax,
    items: &'a Items<'t>,
    def: Node<'t>,
) -> Option<(&'t str, Vec<Node<'t>>, &'a crate::items::FnItem<'t>)> {
    let (name, params) = signature(syn, def)?;
    let mut defs = items.fns.iter().filter(|f| f.name == name);
    let only = defs.next()?;
    (defs.next().is_none() && only.def == def && only.owner.is_none() && only.template.is_empty())
        .then_some((name, params, only))
}

/// Whether another file can call `f` by its plain name: not `static`, in
/// no namespace (a named one needs qualification, an anonymous one gives
/// internal linkage).
fn external(f: &crate::items::FnItem) -> bool {
    let mut n = f.def.parent();
    while let Some(p) = n {
        if p.kind() == "namespace_definition" {
            return false;
        }
        n = p.parent();
    }
    !f.quals.static_ && f.ns.is_empty()
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
    items: &'a Items<'t>,
    def: Node<'t>,
    /// What the caller's own callers agree on.
    agreement: Agreement,
}

impl<'a, 't> Caller<'a, 't> {
    fn analyse(
        syn: &'t Syntax,
        items: &'a Items<'t>,
        def: Node<'t>,
        depth: u32,
        companions: &[Companion<'a, 't>],
    ) -> Option<Self> {
        Some(Caller {
            host: HostFn::analyse(syn, items, def)?,
            items,
            def,
            agreement: agreed_params(syn, items, def, depth + 1, companions),
        })
    }

    /// What `read` says of argument `i` of `call`, translated in this
    /// caller at the call (with its fixed and power-of-two parameters).
    fn at_arg<R>(
        &self,
        syn: &'t Syntax,
        items: &Items<'t>,
        call: Node<'t>,
        i: usize,
        read: impl FnOnce(&Cx<'_, 't>, Node<'t>) -> Option<R>,
    ) -> Option<R> {
        let arg = *named_children(call.child_by_field_name("arguments")?).get(i)?;
        let consts = HostConsts::visible_at(syn, self.items, self.def, call.start_byte());
        let mut cx = Cx::at(syn, items, &consts, &self.host, call.start_byte());
        cx.add_fixed(&self.host, &self.agreement.fixed);
        cx.add_powers(&self.host, &self.agreement.powers);
        read(&cx, arg)
    }

    /// `()` when `call` passes parameter `i` (of type `pty`) a value that
    /// is a power of two or zero, also once converted to `pty`.
    fn power_of_two_arg(
        &self,
        syn: &'t Syntax,
        items: &Items<'t>,
        call: Node<'t>,
        i: usize,
        pty: ScalarTy,
    ) -> Option<()> {
        self.at_arg(syn, items, call, i, |cx, arg| {
            let aty = cx.power_of_two_or_zero(arg, 0)?;
            super::power_of_two::converts(aty, pty).then_some(())
        })
    }

    /// The constant that `call` passes as parameter `i` (of type `pty`),
    /// converted to the parameter's type.
    fn constant_arg(
        &self,
        syn: &'t Syntax,
        items: &Items<'t>,
        call: Node<'t>,
        i: usize,
        pty: ScalarTy,
    ) -> Option<i128> {
        self.at_arg(syn, items, call, i, |cx, arg| {
            let (e, ty) = cx.tr(arg, 0)?;
            super::fold(&super::convert(e, ty, pty)).map(|v| pty.wrap(v))
        })
    }
}
