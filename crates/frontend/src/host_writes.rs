//! What the launching function writes, and where (for launch relations,
//! issue 9): a read of a host variable at one point sees the value it had
//! at another when no write can run between the two. Writes are
//! assignments, increments, `&x` passed to a call or kept (not in the
//! argument array of a launch through an API, `launch_args.rs`), references
//! bound to `x`, `std::cin >> x`, and bare arguments of calls that may take
//! them by non-const reference; with any `goto` every write may run at any
//! time, and a lambda (captures by reference are not tracked) makes the
//! whole function unknown.
//!
//! **Invariant:** [`HostFn::unchanged`] answers `true` only when no write
//! can run between its two points (none can write a `const` scalar); every
//! doubt is `false`.

use crate::consteval::ConstEnv;
use crate::items::Items;
use crate::syntax::{named_children, Syntax};
use crate::types::{named_scalar, sized_scalar};
use std::collections::HashMap;
use tree_sitter::Node;
use warpsafe_ir::ScalarTy;

/// The scalar type a `type` or `type_descriptor` node names.
pub(crate) fn scalar_of_type(syn: &Syntax, items: &Items, n: Node) -> Option<ScalarTy> {
    let n = match n.kind() {
        "type_descriptor" => {
            if n.child_by_field_name("declarator").is_some() {
                return None;
            }
            n.child_by_field_name("type")?
        }
        _ => n,
    };
    let text = syn.text(n).trim();
    match n.kind() {
        "primitive_type" => named_scalar(text),
        "sized_type_specifier" => sized_scalar(&text.split_whitespace().collect::<Vec<_>>()),
        "type_identifier" => items.scalar_type(text),
        _ => None,
    }
}

/// The initialisers host variables still hold, for the launch's own
/// dimensions (`launch.rs`): the same write analysis as the relations.
pub(crate) struct HostValues<'t>(Option<HostFn<'t>>);

impl<'t> HostValues<'t> {
    pub(crate) fn analyse(syn: &'t Syntax, items: &Items, def: Node<'t>) -> Self {
        HostValues(HostFn::analyse(syn, items, def))
    }

    /// The initialiser of the only declaration of `name` (for a `dim3`,
    /// possibly its constructor's parameter list, see
    /// [`crate::launch::dim3_ctor_args`]) when no write can run between
    /// the declaration and `at`. `None` in a function with a lambda.
    pub(crate) fn init_at(&self, name: &str, at: usize) -> Option<Node<'t>> {
        let host = self.0.as_ref()?;
        let var = host.var_at(name, at)?;
        host.unchanged(name, var.decl, at).then_some(var.init)?
    }
}

/// A local or parameter of the launching function.
#[derive(Clone, Copy)]
pub(crate) struct HostVar<'t> {
    /// `None` for anything but a plain scalar declarator.
    pub(crate) scalar: Option<ScalarTy>,
    /// A `const` scalar: nothing writes it.
    pub(crate) constant: bool,
    /// `dim3` declared by value.
    pub(crate) dim3: bool,
    /// `dim3` declared by value, by `const` reference or as a reference
    /// parameter: its components are `unsigned int` values that only
    /// writes to the name change.
    pub(crate) dim3_value: bool,
    pub(crate) init: Option<Node<'t>>,
    /// The declared type, when the declarator is a bare name (no
    /// pointer, reference or array): a struct declared by value.
    pub(crate) by_value_type: Option<Node<'t>>,
    /// Where the declaration starts.
    pub(crate) decl: usize,
    /// The byte range of the block (or statement, or function for a
    /// parameter) the declaration is visible in.
    pub(crate) scope: (usize, usize),
}

/// Where each name of the launching function may be written: byte
/// offsets of assignments, increments, `&x` passed to a call, calls that
/// may write a bare argument; `usize::MAX` for writes at any time (a
/// reference or pointer kept to it, or any write in a function with
/// `goto`).
type Writes = HashMap<String, Vec<usize>>;

/// Marks a write of `name` at `pos`.
fn write(writes: &mut Writes, name: &str, pos: usize) {
    writes.entry(name.to_string()).or_default().push(pos);
}

/// The launching function's declarations, writes and loops.
///
/// A read of a variable at `r` sees the value it had at `from` (its
/// declaration, or another read) when no write can run between the two.
/// Without `goto`, the declaration of a variable read at `r` is in a block
/// that encloses `r`, and so is a `dim3` read at the launch: control
/// enters that block at its start, so a write before `from` in the source
/// never runs between `from` and `r`; a write between them may; a write
/// after `r` may only through the back edge of a loop that encloses it
/// and `r` but starts after `from`.
pub(crate) struct HostFn<'t> {
    vars: HashMap<String, Vec<HostVar<'t>>>,
    writes: Writes,
    /// The assignments (`x = e`, `x >>= e`) whose left side is a bare
    /// name, by name.
    assigns: HashMap<String, Vec<Node<'t>>>,
    /// Byte ranges of the function's loops.
    loops: Vec<(usize, usize)>,
}

impl<'t> HostFn<'t> {
    /// The only declaration of `name`.
    pub(crate) fn var(&self, name: &str) -> Option<HostVar<'t>> {
        match self.vars.get(name)?.as_slice() {
            [v] => Some(*v),
            _ => None,
        }
    }

    /// The declaration of `name` visible at `at`: of those before `at`
    /// whose scope encloses it, the last (inner blocks shadow outer ones;
    /// `dim3 grid(1)` declared again in two sibling blocks is two
    /// variables). Writes are still counted by name, over every variable
    /// of the name, which only makes [`HostFn::unchanged`] answer `false`
    /// more often.
    pub(crate) fn var_at(&self, name: &str, at: usize) -> Option<HostVar<'t>> {
        self.vars
            .get(name)?
            .iter()
            .filter(|v| v.decl < at && v.scope.0 <= at && at < v.scope.1)
            .max_by_key(|v| v.decl)
            .copied()
    }

    /// Whether `name` holds the same value at `from` and at `to` (`from`
    /// before `to`, `from` in a block that encloses `to`).
    pub(crate) fn unchanged(&self, name: &str, from: usize, to: usize) -> bool {
        let Some(writes) = self.writes.get(name) else {
            return true;
        };
        // What looks like a write of a `const` scalar (passed bare to a
        // function whose parameters are not known) is none.
        if self
            .vars
            .get(name)
            .is_some_and(|vs| !vs.is_empty() && vs.iter().all(|v| v.constant))
        {
            return true;
        }
        !writes.iter().any(|w| {
            *w == usize::MAX
                || (from < *w && *w < to)
                || (*w >= to
                    && self
                        .loops
                        .iter()
                        .any(|(s, e)| from < *s && *s <= to && *w < *e))
        })
    }

    /// The type of a scalar local or parameter, or of `d.x` (`.y`, `.z`)
    /// of a `dim3` one.
    pub(crate) fn scalar(&self, name: &str) -> Option<ScalarTy> {
        match name.split_once('.') {
            None => self.var(name)?.scalar,
            Some((base, field)) => (matches!(field, "x" | "y" | "z") && self.var(base)?.dim3_value)
                .then_some(ScalarTy::U32),
        }
    }

    /// Whether `name` (or, for `d.x`, the variable `d`) holds the same
    /// value at `from` and at `to` (see [`HostFn::unchanged`]).
    pub(crate) fn unchanged_access(&self, name: &str, from: usize, to: usize) -> bool {
        let base = name.split_once('.').map_or(name, |(b, _)| b);
        self.unchanged(base, from, to)
    }

    /// The assignments to `name`, when they are all its writes: no
    /// increment, no address taken or reference bound, no call that may
    /// write it, no `goto`. `None` otherwise.
    pub(crate) fn only_assignments(&self, name: &str) -> Option<&[Node<'t>]> {
        let assigns = self.assigns.get(name).map_or(&[][..], |a| a.as_slice());
        let writes = self.writes.get(name).map_or(&[][..], |w| w.as_slice());
        // Each assignment to a bare name is one write at its start.
        (writes.len() == assigns.len()
            && writes
                .iter()
                .all(|w| *w != usize::MAX && assigns.iter().any(|a| a.start_byte() == *w)))
        .then_some(assigns)
    }

    pub(crate) fn declares(&self, name: &str) -> bool {
        self.vars.contains_key(name)
    }

    /// Where `name` may be written (`usize::MAX`: at any time).
    pub(crate) fn writes_of(&self, name: &str) -> &[usize] {
        self.writes.get(name).map_or(&[][..], |w| w.as_slice())
    }

    /// Whether a loop of the function encloses `pos`.
    pub(crate) fn in_loop(&self, pos: usize) -> bool {
        self.loops.iter().any(|(s, e)| *s <= pos && pos < *e)
    }

    /// `None` when the function has a lambda (captures by reference are
    /// not tracked).
    pub(crate) fn analyse(syn: &'t Syntax, items: &Items, def: Node<'t>) -> Option<HostFn<'t>> {
        let mut vars: HashMap<String, Vec<HostVar<'t>>> = HashMap::new();
        let mut writes = Writes::new();
        let mut assigns: HashMap<String, Vec<Node<'t>>> = HashMap::new();
        let mut goto = false;
        let mut loops = Vec::new();
        // The brace lists of launch-argument arrays (`launch_args.rs`):
        // the launch reads through their `&x`, and writes none.
        let arg_lists: Vec<usize> = crate::launch_args::arg_arrays(syn, def)
            .iter()
            .map(|a| a.list.id())
            .collect();
        let in_arg_list = |n: Node| {
            let mut n = n;
            while let Some(p) = n.parent() {
                match p.kind() {
                    "cast_expression" | "parenthesized_expression" => n = p,
                    "initializer_list" => return arg_lists.contains(&p.id()),
                    _ => return false,
                }
            }
            false
        };
        let mut stack = vec![def];
        while let Some(n) = stack.pop() {
            let pos = n.start_byte();
            match n.kind() {
                "lambda_expression" => return None,
                "goto_statement" => goto = true,
                "for_statement" | "while_statement" | "do_statement" | "for_range_loop" => {
                    loops.push((pos, n.end_byte()));
                }
                "declaration" | "parameter_declaration" | "optional_parameter_declaration" => {
                    let ty = n.child_by_field_name("type");
                    let scalar = ty.and_then(|t| scalar_of_type(syn, items, t));
                    let dim3 = ty.is_some_and(|t| syn.text(t) == "dim3");
                    for d in n.children_by_field_name("declarator", &mut n.walk()) {
                        let (target, init) = match d.kind() {
                            "init_declarator" => match d.child_by_field_name("declarator") {
                                Some(t) => (t, d.child_by_field_name("value")),
                                None => continue,
                            },
                            _ => match crate::launch::vexing_dim3(d).filter(|_| dim3) {
                                Some((name, args)) => (name, Some(args)),
                                // A parameter's value is the caller's
                                // argument, whatever its default.
                                None => (d, None),
                            },
                        };
                        let plain = target.kind() == "identifier";
                        if target.kind() == "reference_declarator" {
                            // `int &r = x;` aliases `x`.
                            if let Some(base) = init.and_then(|i| base_name(syn, i)) {
                                write(&mut writes, base, usize::MAX);
                            }
                        }
                        if let Some(i) = init
                            .filter(|i| matches!(i.kind(), "argument_list" | "initializer_list"))
                            .filter(|i| !arg_lists.contains(&i.id()))
                        {
                            if !dim3 && scalar.is_none() {
                                // Constructors of other classes may take
                                // references, and keep them.
                                mark_bare_args(syn, i, &mut writes, usize::MAX);
                            }
                        }
                        let Some(name) = declarator_name(syn, target) else {
                            continue;
                        };
                        // A reference parameter aliases the caller's
                        // value, which this function changes only through
                        // the name (`dim3 &dimsA`); a reference local may
                        // alias a local written under its own name.
                        let const_ref = target.kind() == "reference_declarator"
                            && (crate::decl::quals(syn, n).const_ || n.kind() != "declaration");
                        // `const int nx = 2048;` (or a `const` by-value
                        // parameter): C++ forbids writing it, also through a
                        // callee that takes it bare.
                        let constant = plain
                            && scalar.is_some()
                            && crate::decl::quals(syn, n).const_
                            && (init.is_some() || n.kind() != "declaration");
                        vars.entry(name.to_string()).or_default().push(HostVar {
                            scalar: scalar.filter(|_| plain),
                            constant,
                            dim3: dim3 && plain,
                            dim3_value: dim3 && (plain || const_ref),
                            init,
                            by_value_type: ty.filter(|_| plain),
                            decl: pos,
                            scope: n
                                .parent()
                                .filter(|_| n.kind() == "declaration")
                                .map_or((def.start_byte(), def.end_byte()), |p| {
                                    (p.start_byte(), p.end_byte())
                                }),
                        });
                    }
                }
                "assignment_expression" => {
                    let left = n.child_by_field_name("left");
                    if let Some(b) = left.and_then(|l| base_name(syn, l)) {
                        write(&mut writes, b, pos);
                    }
                    if let Some(l) = left.filter(|l| l.kind() == "identifier") {
                        assigns.entry(syn.text(l).to_string()).or_default().push(n);
                    }
                }
                "update_expression" => {
                    if let Some(b) = n
                        .child_by_field_name("argument")
                        .and_then(|a| base_name(syn, a))
                    {
                        write(&mut writes, b, pos);
                    }
                }
                "pointer_expression" if syn.text(n).starts_with('&') && !in_arg_list(n) => {
                    if let Some(b) = n
                        .child_by_field_name("argument")
                        .and_then(|a| base_name(syn, a))
                    {
                        // `f(&x)` writes during the call; a pointer kept
                        // anywhere else may write at any time.
                        let in_call = n.parent().is_some_and(|p| {
                            p.kind() == "argument_list"
                                && p.parent().is_some_and(|c| c.kind() == "call_expression")
                        });
                        write(&mut writes, b, if in_call { pos } else { usize::MAX });
                    }
                }
                "binary_expression"
                    if n.child_by_field_name("operator").map(|o| syn.text(o)) == Some(">>") =>
                {
                    // `std::cin >> n` (and chains of it) writes `n`.
                    let left = n.child_by_field_name("left");
                    if left.is_some_and(|l| !is_arithmetic_operand(syn, l)) {
                        if let Some(b) = n
                            .child_by_field_name("right")
                            .filter(|r| r.kind() == "identifier")
                        {
                            write(&mut writes, syn.text(b), pos);
                        }
                    }
                }
                "call_expression" => {
                    let is_launch = named_children(n)
                        .iter()
                        .any(|c| c.kind() == "kernel_call_syntax");
                    if !is_launch {
                        mark_call_args(syn, items, n, &mut writes);
                    }
                }
                _ => {}
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        if goto {
            for w in writes.values_mut() {
                w.iter_mut().for_each(|p| *p = usize::MAX);
            }
        }
        Some(HostFn {
            vars,
            writes,
            assigns,
            loops,
        })
    }
}

/// Whether `n` is plainly a number (a literal, or an identifier or
/// arithmetic over them), not a stream.
fn is_arithmetic_operand(syn: &Syntax, n: Node) -> bool {
    match n.kind() {
        "number_literal" => true,
        "parenthesized_expression" => named_children(n)
            .first()
            .is_some_and(|c| is_arithmetic_operand(syn, *c)),
        "identifier" => {
            let t = syn.text(n);
            !(t.contains("cin") || t.contains("stream") || t.ends_with("in"))
        }
        "binary_expression" => n.child_by_field_name("operator").map(|o| syn.text(o)) != Some(">>"),
        _ => false,
    }
}

/// The variable an lvalue names: `x`, `x.f`, `x[i]`, `*x`, `(x)`.
fn base_name<'t>(syn: &'t Syntax, n: Node) -> Option<&'t str> {
    match n.kind() {
        "identifier" => Some(syn.text(n)),
        "field_expression" | "subscript_expression" | "pointer_expression" => {
            base_name(syn, n.child_by_field_name("argument")?)
        }
        "parenthesized_expression" | "cast_expression" => {
            let inner = n
                .child_by_field_name("value")
                .or_else(|| named_children(n).into_iter().last())?;
            base_name(syn, inner)
        }
        _ => None,
    }
}

fn declarator_name<'t>(syn: &'t Syntax, mut d: Node) -> Option<&'t str> {
    loop {
        match d.kind() {
            "identifier" => return Some(syn.text(d)),
            "pointer_declarator"
            | "reference_declarator"
            | "array_declarator"
            | "init_declarator" => {
                d = d
                    .child_by_field_name("declarator")
                    .or_else(|| named_children(d).into_iter().last())?;
            }
            _ => return None,
        }
    }
}

/// Every bare identifier argument of `args` may be written by the callee
/// (at `pos`).
fn mark_bare_args(syn: &Syntax, args: Node, writes: &mut Writes, pos: usize) {
    for a in named_children(args) {
        if let Some(b) = base_name(syn, a) {
            write(writes, b, pos);
        }
    }
}

/// C library functions that take every argument by value.
const BY_VALUE: &[&str] = &[
    "printf",
    "fprintf",
    "sprintf",
    "snprintf",
    "puts",
    "malloc",
    "calloc",
    "free",
    "exit",
    "memset",
    "memcpy",
    "cudaMalloc",
    "cudaMemcpy",
    "cudaMemset",
    "cudaMallocHost",
    "cudaMallocManaged",
    "cudaMemcpyAsync",
    "cudaMemsetAsync",
    "cudaMemcpy2D",
    "cudaMemcpy2DAsync",
    "cudaMemset2D",
    "cudaMemset2DAsync",
    "cudaMallocPitch",
    "cudaMemcpy2DToArray",
    "cudaMemcpy2DFromArray",
    "cudaFree",
    // Kernel launches through the API: the dimensions by value, the kernel's
    // arguments behind `void **` (their addresses are taken with `&`, a
    // write unless in a launch-argument array, `launch_args.rs`).
    "cudaLaunchKernel",
    "cudaLaunchCooperativeKernel",
    "cuLaunchKernel",
    "cuLaunchCooperativeKernel",
    // `std::min`/`std::max` take `const T&`, the math functions values.
    "min",
    "max",
    "abs",
    "fabs",
    "ceil",
    "floor",
    "round",
    "sqrt",
    "log",
    "log2",
    "exp",
    "pow",
    "fmin",
    "fmax",
];

/// The bare identifier arguments of a call the callee may write through a
/// non-const reference parameter.
fn mark_call_args(syn: &Syntax, items: &Items, call: Node, writes: &mut Writes) {
    let Some(args) = call.child_by_field_name("arguments") else {
        return;
    };
    let callee = crate::syntax::callee_name(syn, call).map(str::to_string);
    for (i, a) in named_children(args).into_iter().enumerate() {
        let Some(name) = bare_identifier_name(syn, a) else {
            continue;
        };
        // Every definition and declaration of the callee takes the
        // argument by value (`void CopyByte2Float(..., ROI Size);` in a
        // header): a prototype with several declarators is not read.
        let by_value = callee.as_deref().is_some_and(|c| {
            BY_VALUE.contains(&c) || {
                let defs: Vec<_> = items
                    .fns
                    .iter()
                    .filter(|f| f.name == c)
                    .map(|f| f.def)
                    .collect();
                let protos: Vec<_> = items
                    .prototypes
                    .iter()
                    .filter(|(p, _)| p == c)
                    .map(|(_, d)| *d)
                    .collect();
                let single = |d: &Node| {
                    d.children_by_field_name("declarator", &mut d.walk())
                        .count()
                        == 1
                };
                (!defs.is_empty() || !protos.is_empty())
                    && protos.iter().all(single)
                    && defs
                        .iter()
                        .chain(&protos)
                        .all(|d| takes_by_value(syn, *d, i))
            }
        });
        if !by_value {
            write(writes, name, call.start_byte());
        }
    }
}

fn bare_identifier_name<'t>(syn: &'t Syntax, n: Node) -> Option<&'t str> {
    match n.kind() {
        "identifier" => Some(syn.text(n)),
        "parenthesized_expression" => bare_identifier_name(syn, *named_children(n).first()?),
        _ => None,
    }
}

/// Whether the function defined (or declared) by `def` takes its `i`-th
/// parameter by value or by const reference.
fn takes_by_value(syn: &Syntax, def: Node, i: usize) -> bool {
    let mut d = def.child_by_field_name("declarator");
    while let Some(n) = d {
        if n.kind() == "function_declarator" {
            let Some(list) = n.child_by_field_name("parameters") else {
                return false;
            };
            let params = named_children(list);
            let Some(p) = params.get(i) else {
                // Variadic arguments are passed by value.
                return params.iter().any(|p| p.kind() == "variadic_parameter");
            };
            let Some(decl) = p.child_by_field_name("declarator") else {
                return true;
            };
            let is_const = crate::decl::quals(syn, *p).const_;
            return decl.kind() != "reference_declarator" || is_const;
        }
        d = n.child_by_field_name("declarator");
    }
    false
}
