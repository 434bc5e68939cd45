//! Launch relations: what a kernel's launches in host code say about its
//! dimensions and its scalar parameters together. `dim3 grid(width / 8,
//! height / 8); k<<<grid, dim3(8, 8)>>>(out, width, height);` gives
//! `gridDim.x == (u32)width / 8u && gridDim.y == (u32)height / 8u`, so an
//! image kernel that writes `out[y * width + x]` without a bounds check is
//! not reported for grids wider than the image, which its host code never
//! launches. Only `check` assumes them (`explore` runs the launch it is
//! given); reports state them.
//!
//! Invariant: a relation is built only from host values that cannot change
//! between the computation of the dimensions and the launch: constants,
//! and by-value locals and parameters of the launching function that are
//! declared once and never assigned, incremented, address-taken (but for
//! the kernel-argument array of an API launch, `launch_args.rs`), bound to
//! a reference, read with `>>` or passed bare to a function that may take
//! them by non-const reference. Such a value reaches the relation through
//! the kernel parameter it is passed as (when the conversion loses no
//! bits), else through its initialiser; a conjunct that needs anything
//! else is dropped, which only assumes less. Host helpers whose body is
//! one `return` (`iDivUp`) are inlined. Several launches give the
//! disjunction of their relations; a launch with none gives none. A
//! parameter passed a local that only ever holds a power of two or zero
//! (`power_of_two.rs`, an induction over all of its writes) gets that
//! fact, though its value is not known; a struct local built with a
//! brace list gives its fields' values (`brace_init.rs`).

use crate::consteval::{arith, eval_typed, ConstEnv};
use crate::host_writes::{scalar_of_type, HostFn};
use crate::items::Items;
use crate::launch::{dim3_component, HostConsts, Launch};
use crate::launch_path::{path_conditions, PathCond};
use crate::syntax::{named_children, strip_parens, Syntax};
use crate::types::{common_type, promote};
use std::cell::RefCell;
use std::collections::HashMap;
use tree_sitter::Node;
use warpsafe_ir::{BinOp, Builtin, Dim, Expr, Kernel, ParamKind, ScalarTy, UnOp};
use warpsafe_source::Span;

/// How deep translation goes through initialisers and inlined helpers.
const MAX_DEPTH: u32 = 12;

/// One launch's facts, each keyed by what it constrains.
#[derive(Clone, Debug, PartialEq)]
struct Fact {
    key: Key,
    cond: Expr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    Grid(usize),
    Block(usize),
    Param(usize),
    /// A signed host value converted to unsigned in a launch dimension is
    /// not negative (a negative image width is no input).
    NotNegative,
    /// A condition under which control reaches the launch.
    Path,
}

/// What the launches of a kernel establish.
#[derive(Debug, Default)]
pub struct Relations {
    /// Grid and block components every launch gives the same constant.
    pub grid_parts: [Option<u64>; 3],
    pub block_parts: [Option<u64>; 3],
    /// The rest: a condition over `gridDim`, `blockDim` and parameters.
    pub cond: Option<Expr>,
    /// The host parameters whose values from the file's calls the
    /// relation or the parts were computed with, each stated with its
    /// first call.
    pub callers: Vec<(String, Span)>,
    /// The host variables `cond` reads (`host_unknowns.rs`), to append to
    /// the kernel's variables: their ids follow the kernel's.
    pub hosts: Vec<warpsafe_ir::Var>,
}

/// The relations `launches` (all of the kernel's launches in the file and,
/// through the driver API, in the program's other files, each with the
/// file it is in) establish for `kernel`.
pub fn relations<'t>(
    kernel: &Kernel,
    launches: &[(Companion<'_, 't>, &Launch<'t>)],
    companions: &[Companion<'_, 't>],
) -> Relations {
    let mut out = Relations::default();
    let unknowns = HostUnknowns::after(kernel.vars.len());
    let per_launch: Vec<Vec<Fact>> = launches
        .iter()
        .map(|((syn, items), l)| {
            let (facts, notes) = launch_facts(syn, items, kernel, l, companions, &unknowns);
            for n in notes {
                if !out.callers.contains(&n) {
                    out.callers.push(n);
                }
            }
            unknowns.prune(facts)
        })
        .collect();
    if per_launch.is_empty() {
        return out;
    }
    // Constant components all launches agree on become parts.
    let constant = |facts: &[Fact], key: Key| {
        facts
            .iter()
            .find(|f| f.key == key)
            .and_then(|f| match &f.cond {
                Expr::Binary(BinOp::Eq, _, _, rhs) => rhs.as_const_int(),
                _ => None,
            })
    };
    let mut agreed = Vec::new();
    for d in 0..3 {
        for (key, parts) in [
            (Key::Grid(d), &mut out.grid_parts),
            (Key::Block(d), &mut out.block_parts),
        ] {
            let first = constant(&per_launch[0], key);
            if let Some(v) = first.filter(|_| per_launch.iter().all(|f| constant(f, key) == first))
            {
                if let Ok(v) = u64::try_from(v) {
                    parts[d] = Some(v);
                    agreed.push(key);
                }
            }
        }
    }
    let conjunctions: Vec<Vec<Expr>> = per_launch
        .into_iter()
        .map(|facts| {
            facts
                .into_iter()
                .filter(|f| !agreed.contains(&f.key))
                .map(|f| f.cond)
                .collect()
        })
        .collect();
    if conjunctions.iter().any(|c| c.is_empty()) {
        return out;
    }
    let and = |c: Vec<Expr>| {
        c.into_iter()
            .reduce(|a, b| Expr::binary(BinOp::And, ScalarTy::Bool, a, b))
            .expect("invariant: conjunctions are not empty")
    };
    let first = conjunctions[0].clone();
    let cond = if conjunctions.iter().all(|c| *c == first) {
        and(first)
    } else {
        conjunctions
            .into_iter()
            .map(and)
            .reduce(|a, b| Expr::binary(BinOp::Or, ScalarTy::Bool, a, b))
            .expect("invariant: at least one launch")
    };
    let (cond, hosts) = unknowns.finish(cond, launches[0].1.span);
    out.cond = Some(cond);
    out.hosts = hosts;
    out
}

/// The facts one launch gives: each launch dimension and each scalar
/// parameter expressed over the kernel's parameters, where it can be.
/// Also the notes of the fixed parameters (`callers.rs`) they read.
fn launch_facts<'t>(
    syn: &'t Syntax,
    items: &Items<'t>,
    kernel: &Kernel,
    launch: &Launch<'t>,
    companions: &[Companion<'_, 't>],
    unknowns: &HostUnknowns,
) -> (Vec<Fact>, Vec<(String, Span)>) {
    let Some(host) = HostFn::analyse(syn, items, launch.host) else {
        return (Vec::new(), Vec::new());
    };
    // The kernel's arguments, where the launch says what they are.
    let args = launch.args.clone().unwrap_or_default();
    let consts = HostConsts::visible_at(syn, items, launch.host, launch.call.start_byte());
    let mut cx = Cx::at(syn, items, &consts, &host, launch.call.start_byte());
    cx.unknowns = function_name(syn, launch.host).map(|function| Unknowns {
        reg: unknowns,
        function,
        def: launch.host,
    });
    let agreement = callers::agreed_params(syn, items, launch.host, 0, companions);
    cx.add_fixed(&host, &agreement.fixed);
    cx.add_powers(&host, &agreement.powers);
    let mut paths = path_conditions(syn, launch.call, launch.host);
    // Where the driver API's function handle was chosen: its conditions
    // held there, over values that do not change before the launch.
    for p in &launch.selection {
        if !paths.contains(p) {
            paths.push(*p);
        }
    }
    // `if (block_size == 16)` around the launch: the host variable is 16
    // there, also where it is not passed to the kernel (`dim3
    // threads(block_size, block_size)`).
    for p in &paths {
        if let Some((name, value, read)) = cx.known_value(*p) {
            cx.known.insert(name.to_string(), (value, read));
        }
    }
    // Host values passed unchanged as a scalar parameter stand for it.
    let params: Vec<Option<(warpsafe_ir::VarId, ScalarTy)>> = kernel
        .params
        .iter()
        .map(|p| match &p.kind {
            ParamKind::Scalar(v) if kernel.var(*v).ty.is_integer() => Some((*v, kernel.var(*v).ty)),
            _ => None,
        })
        .collect();
    let same_arity = args.len() == params.len();
    // The host variable passed unchanged as each parameter.
    let mut passed_as: Vec<Option<&str>> = vec![None; params.len()];
    if same_arity {
        for (i, (arg, param)) in args.iter().zip(&params).enumerate() {
            let Some((v, pty)) = *param else { continue };
            let Some((name, narrowest)) = bare_identifier(syn, items, *arg) else {
                continue;
            };
            let Some(hty) = host.scalar(name) else {
                continue;
            };
            if !hty.is_integer()
                || hty.bits() > narrowest.min(pty.bits())
                || cx.passed.contains_key(name)
            {
                continue;
            }
            cx.passed
                .insert(name.to_string(), (convert(Expr::Var(v), pty, hty), hty));
            passed_as[i] = Some(name);
        }
    }
    let mut facts = Vec::new();
    // A passed variable that still holds its initialiser at the launch
    // (`unsigned width = 512;`) gives the parameter that value.
    for (i, param) in params.iter().enumerate() {
        let (Some((v, pty)), Some(name)) = (*param, passed_as[i]) else {
            continue;
        };
        let Some(var) = host.var(name) else {
            // A `dim3` component (`grid.x`, `dim3_arg.rs`).
            if let Some((e, ty)) = cx.passed_component(name, args[i]) {
                // A signed value converted by the `dim3`, as in a launch
                // dimension, is not negative.
                not_negative(&mut facts, kernel, unknowns, &e);
                facts.push(Fact {
                    key: Key::Param(i),
                    cond: Expr::binary(BinOp::Eq, pty, Expr::Var(v), convert(e, ty, pty)),
                });
            }
            continue;
        };
        let hty = var.scalar.expect("invariant: passed variables are scalars");
        let value = match var.init {
            Some(init) if host.unchanged(name, var.decl, cx.at) => cx.tr(init, 0),
            Some(_) => None,
            // A parameter the callers fix (`callers.rs`).
            None => cx.fixed_at(name, cx.at).map(|v| (Expr::int(v, hty), hty)),
        };
        let Some((e, ty)) = value else {
            continue;
        };
        facts.push(Fact {
            key: Key::Param(i),
            cond: Expr::binary(
                BinOp::Eq,
                pty,
                Expr::Var(v),
                convert(convert(e, ty, hty), hty, pty),
            ),
        });
    }
    if same_arity {
        for (i, (arg, param)) in args.iter().zip(&params).enumerate() {
            let Some((v, pty)) = *param else { continue };
            if passed_as[i].is_some() {
                continue;
            }
            if let Some((e, ty)) = cx.tr(*arg, 0) {
                if matches!(e, Expr::Var(w) if w == v) {
                    continue;
                }
                facts.push(Fact {
                    key: Key::Param(i),
                    cond: Expr::binary(BinOp::Eq, pty, Expr::Var(v), convert(e, ty, pty)),
                });
            }
        }
    }
    // The launch's own grid or block component passed as a parameter
    // (`k<<<g, b>>>(b.x)`, `dim3_arg.rs`).
    if same_arity {
        for (arg, param) in args.iter().zip(&params) {
            let Some((v, pty)) = *param else { continue };
            if let Some(f) = dim3_arg::config_component_fact(syn, launch, *arg, v, pty) {
                facts.push(f);
            }
        }
    }
    // A struct passed by value that a brace list built gives each field
    // of the flattened parameter (`brace_init.rs`).
    if same_arity {
        for (arg, param) in args.iter().zip(&kernel.params) {
            let ParamKind::Aggregate(vars) = &param.kind else {
                continue;
            };
            let Some((name, _)) = bare_identifier(syn, items, *arg) else {
                continue;
            };
            let Some(b) = cx.brace_init(name, cx.at) else {
                continue;
            };
            let c_type = param.c_type.replace("const", "").replace("struct", "");
            if c_type.trim() != b.type_name || vars.len() != b.fields.len() {
                continue;
            }
            for (i, v) in vars.iter().enumerate() {
                let var = kernel.var(*v);
                // The flattened parameter's fields are the struct's, in
                // order.
                if var.name != format!("{}.{}", param.name, b.fields[i].0) || !var.ty.is_integer() {
                    continue;
                }
                if let Some(e) = cx.brace_field(&b, i, 0) {
                    facts.push(Fact {
                        key: Key::Path,
                        cond: Expr::binary(
                            BinOp::Eq,
                            var.ty,
                            Expr::Var(*v),
                            convert(e, b.fields[i].1, var.ty),
                        ),
                    });
                }
            }
        }
    }
    // A parameter whose value is not known but surely a power of two or
    // zero (a merge step's `stride`, `power_of_two.rs`).
    if same_arity {
        for (i, (arg, param)) in args.iter().zip(&params).enumerate() {
            let Some((v, pty)) = *param else { continue };
            if pty.bits() < 32 || facts.iter().any(|f| f.key == Key::Param(i)) {
                continue;
            }
            // The callers' facts this one reads, stated only when used.
            let stated = cx.used_powers.borrow().len();
            let aty = cx.power_of_two_or_zero(*arg, 0);
            if !aty.is_some_and(|aty| power_of_two::converts(aty, pty)) {
                cx.used_powers.borrow_mut().truncate(stated);
                continue;
            }
            let p = Expr::Var(v);
            let below = Expr::binary(BinOp::Sub, pty, p.clone(), Expr::int(1, pty));
            let cond = Expr::binary(
                BinOp::Eq,
                pty,
                Expr::binary(BinOp::BitAnd, pty, p.clone(), below),
                Expr::int(0, pty),
            );
            let cond = if pty.is_signed() {
                let not_negative = Expr::binary(BinOp::Ge, pty, p, Expr::int(0, pty));
                Expr::binary(BinOp::And, ScalarTy::Bool, not_negative, cond)
            } else {
                cond
            };
            facts.push(Fact {
                key: Key::Path,
                cond,
            });
        }
    }
    let variable = |cond: &Expr| {
        let mut variable = false;
        cond.walk(&mut |e| variable |= matches!(e, Expr::Var(_) | Expr::Builtin(_)));
        variable
    };
    for p in paths {
        let mut fact = cx.path_fact(p);
        if !fact.as_ref().is_some_and(variable) {
            // The condition that fixed a variable reads as a constant
            // (`16 == 16` once `if (bs == 16)` fixed `bs`); what it says
            // about the variable's own value (`rem == 1` with `rem =
            // g(n)`: `g(n) == 1`) is read without the fixed values.
            let known = std::mem::take(&mut cx.known);
            fact = cx.path_fact(p);
            cx.known = known;
        }
        if let Some(cond) = fact {
            // A condition over constants says nothing; a false one is
            // dropped too, rather than make every launch impossible.
            if variable(&cond) && !facts.iter().any(|f: &Fact| f.cond == cond) {
                facts.push(Fact {
                    key: Key::Path,
                    cond,
                });
            }
        }
    }
    // Parameters the launch fixes to a constant are folded into the
    // dimensions (`gridDim.x == width / 32` with `width == 1024` is 32).
    let known: HashMap<warpsafe_ir::VarId, i128> = facts
        .iter()
        .filter_map(|f| match &f.cond {
            Expr::Binary(BinOp::Eq, _, lhs, rhs) => match (&**lhs, rhs.as_const_int()) {
                (Expr::Var(v), Some(c)) => Some((*v, c)),
                _ => None,
            },
            _ => None,
        })
        .collect();
    for which in 0..2 {
        let parts = match &launch.components {
            Some(c) => Some(c[which].map(Some)),
            None => launch
                .config
                .get(which)
                .and_then(|node| cx.components(*node, 0)),
        };
        let Some(parts) = parts else {
            continue;
        };
        let builtin_of = |d: usize| {
            Expr::Builtin(if which == 0 {
                Builtin::GridDim(DIMS[d])
            } else {
                Builtin::BlockDim(DIMS[d])
            })
        };
        // `dim3 threads(bs, bs)` with `bs` unknown: a square block. Two
        // components that are the same side-effect-free expression of one
        // constructor are equal, whatever their value.
        for d in 0..3 {
            for e in d + 1..3 {
                if let (Some(a), Some(b)) = (parts[d], parts[e]) {
                    if syn.text(a) == syn.text(b) && cx.tr(a, 0).is_none() && pure(a) {
                        facts.push(Fact {
                            key: Key::Path,
                            cond: Expr::binary(
                                BinOp::Eq,
                                ScalarTy::U32,
                                builtin_of(d),
                                builtin_of(e),
                            ),
                        });
                    }
                }
            }
        }
        for (d, part) in parts.iter().enumerate() {
            let value = match part {
                Some(n) => cx.tr(*n, 0),
                None => Some((Expr::int(1, ScalarTy::U32), ScalarTy::U32)),
            };
            let Some((e, ty)) = value else { continue };
            let (key, builtin) = if which == 0 {
                (Key::Grid(d), Builtin::GridDim(DIMS[d]))
            } else {
                (Key::Block(d), Builtin::BlockDim(DIMS[d]))
            };
            let value = convert(e, ty, ScalarTy::U32);
            let value = match fold(&substitute(value.clone(), &known)) {
                Some(v) => Expr::int(v, ScalarTy::U32),
                None => value,
            };
            not_negative(&mut facts, kernel, unknowns, &value);
            facts.push(Fact {
                key,
                cond: Expr::binary(BinOp::Eq, ScalarTy::U32, Expr::Builtin(builtin), value),
            });
        }
    }
    // One note for all the fixed values read: they are parameters of the
    // launching function, fixed by the same calls.
    let mut used: Vec<(&str, i128)> = Vec::new();
    let read = cx.used.borrow();
    for name in read.iter() {
        if !used.iter().any(|(n, _)| n == name) {
            used.push((name, agreement.fixed[name].value));
        }
    }
    let mut notes = match used.first() {
        Some((name, _)) => vec![agreement.fixed[*name].note(&used)],
        None => Vec::new(),
    };
    drop(read);
    // The parameters the power-of-two facts took from the callers.
    let mut stated: Vec<&str> = Vec::new();
    let used_powers = cx.used_powers.take();
    for name in &used_powers {
        if !stated.contains(&name.as_str()) {
            stated.push(name);
            notes.push(agreement.powers[name].power_note(name));
        }
    }
    // What the pitches read say (`pitch.rs`).
    for (name, fact, call) in cx.pitches.take() {
        facts.push(Fact {
            key: Key::Path,
            cond: fact,
        });
        notes.push((
            format!(
                "`{name}` is a pitch from cudaMallocPitch: at least the row's width in bytes and less than 2^31 bytes (from a call that succeeded)"
            ),
            syn.span(call),
        ));
    }
    (facts, notes)
}

const DIMS: [Dim; 3] = [Dim::X, Dim::Y, Dim::Z];

/// That each signed value `value` converts to an unsigned type (a
/// launch dimension's, a `dim3`'s) is not negative: a negative size is no
/// input.
fn not_negative(facts: &mut Vec<Fact>, kernel: &Kernel, unknowns: &HostUnknowns, value: &Expr) {
    for operand in signed_to_unsigned(kernel, unknowns, value) {
        let t = type_of(kernel, unknowns, &operand);
        let fact = Expr::binary(BinOp::Ge, t, operand, Expr::int(0, t));
        if !facts.iter().any(|f: &Fact| f.cond == fact) {
            facts.push(Fact {
                key: Key::NotNegative,
                cond: fact,
            });
        }
    }
}

/// The signed operands that `e` converts to an unsigned type.
fn signed_to_unsigned(kernel: &Kernel, unknowns: &HostUnknowns, e: &Expr) -> Vec<Expr> {
    let mut out = Vec::new();
    e.walk(&mut |x| {
        if let Expr::Cast(to, inner) = x {
            let from = type_of(kernel, unknowns, inner);
            if !to.is_signed()
                && to.is_integer()
                && from.is_signed()
                && inner.as_const_int().is_none()
            {
                out.push((**inner).clone());
            }
        }
    });
    out
}

/// The C type of a relation's expression.
fn type_of(kernel: &Kernel, unknowns: &HostUnknowns, e: &Expr) -> ScalarTy {
    match e {
        Expr::Const(_, ty) | Expr::Unary(_, ty, _) | Expr::Cast(ty, _) | Expr::Call(_, ty, _) => {
            *ty
        }
        Expr::Var(v) => unknowns.ty(*v).unwrap_or_else(|| kernel.var(*v).ty),
        Expr::Builtin(_) => ScalarTy::U32,
        Expr::Binary(op, ty, _, _) => {
            if op.is_boolean() {
                ScalarTy::Bool
            } else {
                *ty
            }
        }
        Expr::Select(_, a, _) => type_of(kernel, unknowns, a),
    }
}

/// `x`, `(x)` or `(T)x`: the identifier and the narrowest width it passes
/// through on the way.
fn bare_identifier<'t>(syn: &'t Syntax, items: &Items, n: Node) -> Option<(&'t str, u32)> {
    match n.kind() {
        "identifier" => Some((syn.text(n), 128)),
        // `dims.x`: a component of a `dim3` (see `HostFn::scalar`).
        "field_expression" => dim3_component(syn, n).map(|_| (syn.text(n), 128)),
        "parenthesized_expression" => bare_identifier(syn, items, *named_children(n).first()?),
        "cast_expression" => {
            let ty = scalar_of_type(syn, items, n.child_by_field_name("type")?)?;
            let (name, w) = bare_identifier(syn, items, n.child_by_field_name("value")?)?;
            ty.is_integer().then_some((name, w.min(ty.bits())))
        }
        _ => None,
    }
}

/// `e` with the variables of `known` replaced by their values.
fn substitute(e: Expr, known: &HashMap<warpsafe_ir::VarId, i128>) -> Expr {
    e.map_vars(&|v| {
        known
            .get(&v)
            .map(|c| Expr::Const(warpsafe_ir::Const::Int(*c), ScalarTy::I64))
    })
}

/// The value of an expression without variables, computed as C does
/// (`None` on a signed overflow or a division by zero).
fn fold(e: &Expr) -> Option<i128> {
    match e {
        Expr::Const(warpsafe_ir::Const::Int(v), _) => Some(*v),
        Expr::Cast(to, inner) if to.is_integer() => Some(to.wrap(fold(inner)?)),
        Expr::Unary(UnOp::Neg, ty, inner) => Some(arith(-fold(inner)?, *ty)?.0),
        Expr::Unary(UnOp::BitNot, ty, inner) => Some(ty.wrap(!fold(inner)?)),
        Expr::Binary(op, ty, a, b) if ty.is_integer() => {
            let (x, y) = (fold(a)?, fold(b)?);
            let v = match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x.checked_mul(y)?,
                BinOp::Div if y != 0 => x / y,
                BinOp::Rem if y != 0 => x % y,
                BinOp::Shl if (0..i128::from(ty.bits())).contains(&y) => x << y,
                BinOp::Shr if (0..i128::from(ty.bits())).contains(&y) => x >> y,
                BinOp::BitAnd => x & y,
                BinOp::BitOr => x | y,
                BinOp::BitXor => x ^ y,
                _ => return None,
            };
            if op.is_boolean() {
                return None;
            }
            Some(arith(v, *ty)?.0)
        }
        _ => None,
    }
}

/// `e` of type `from` converted to `to` as C converts.
fn convert(e: Expr, from: ScalarTy, to: ScalarTy) -> Expr {
    if from == to {
        return e;
    }
    if from == ScalarTy::Bool {
        return Expr::Select(
            Box::new(e),
            Box::new(Expr::int(1, to)),
            Box::new(Expr::int(0, to)),
        );
    }
    if to == ScalarTy::Bool {
        return Expr::binary(BinOp::Ne, from, e, Expr::int(0, from));
    }
    match e {
        Expr::Const(warpsafe_ir::Const::Int(v), _) => Expr::int(to.wrap(v), to),
        e => Expr::Cast(to, Box::new(e)),
    }
}

mod brace_init;
mod callers;
mod dim3_arg;
pub(crate) use callers::{exported, Companion};
mod host_unknowns;
use host_unknowns::HostUnknowns;
mod odd_part;
mod out_param;
mod pitch;
mod power_of_two;
mod struct_field;

/// Translation of host expressions into kernel expressions.
struct Cx<'a, 't> {
    syn: &'t Syntax,
    items: &'a Items<'t>,
    consts: &'a HostConsts<'a, 't>,
    host: &'a HostFn<'t>,
    /// Host variables passed as a kernel parameter: the parameter,
    /// converted back to the host variable's type.
    passed: HashMap<String, (Expr, ScalarTy)>,
    /// Parameters of an inlined helper.
    locals: HashMap<String, (Expr, ScalarTy)>,
    /// Host variables a condition on the way to the launch fixes (`if (bs
    /// == 16)`): the value, and where the condition reads it.
    known: HashMap<String, (i128, usize)>,
    /// Parameters of the launching function every call in the file passes
    /// one constant (`callers.rs`): the value and where the parameter is
    /// declared.
    fixed: HashMap<String, (i128, usize)>,
    /// The names of `fixed` a translation read, in order.
    used: RefCell<Vec<String>>,
    /// Parameters of the launching function every call in the file passes
    /// a power of two or zero (`callers.rs`), with where each is declared.
    powers: HashMap<String, usize>,
    /// The names of `powers` the power-of-two induction read, in order.
    used_powers: RefCell<Vec<String>>,
    /// The locals [`Cx::power_of_two_or_zero`]'s induction is proving, by
    /// name and declaration.
    inducting: RefCell<Vec<(String, usize)>>,
    /// Where the launch starts.
    at: usize,
    /// Translating an inlined helper's body: only its parameters and
    /// file-scope constants are in scope.
    helper: bool,
    /// Where host values that cannot be translated get a variable
    /// (`host_unknowns.rs`), with the launching function's name; `None`
    /// where a value must be known (a caller's constant argument).
    unknowns: Option<Unknowns<'a, 't>>,
    /// The pitch variables read (`pitch.rs`): each with its facts and the
    /// first call that allocates it.
    pitches: RefCell<Vec<(String, Expr, Node<'t>)>>,
}

/// Where host values get variables: the registry, and the launching
/// function's name and definition.
struct Unknowns<'a, 't> {
    reg: &'a HostUnknowns,
    function: &'t str,
    def: Node<'t>,
}

impl ConstEnv for Cx<'_, '_> {
    fn constant(&self, name: &str) -> Option<i128> {
        if self.locals.contains_key(name) {
            None
        } else if !self.helper && self.host.declares(name) {
            // A local shadows the file scope; only `const` locals have a
            // value.
            self.consts.locals.get(name).copied()
        } else {
            self.items.constant(name)
        }
    }

    fn constant_type(&self, name: &str) -> Option<ScalarTy> {
        self.items.constant_type(name)
    }

    fn scalar_type(&self, name: &str) -> Option<ScalarTy> {
        self.items.scalar_type(name)
    }
}

impl<'a, 't> Cx<'a, 't> {
    /// Translation at `at` in the host function `host`, with nothing
    /// passed, known or fixed yet.
    fn at(
        syn: &'t Syntax,
        items: &'a Items<'t>,
        consts: &'a HostConsts<'a, 't>,
        host: &'a HostFn<'t>,
        at: usize,
    ) -> Self {
        Cx {
            syn,
            items,
            consts,
            host,
            passed: HashMap::new(),
            locals: HashMap::new(),
            known: HashMap::new(),
            fixed: HashMap::new(),
            used: RefCell::new(Vec::new()),
            powers: HashMap::new(),
            used_powers: RefCell::new(Vec::new()),
            inducting: RefCell::new(Vec::new()),
            at,
            helper: false,
            unknowns: None,
            pitches: RefCell::new(Vec::new()),
        }
    }

    /// Takes the values the callers fix for `host`'s parameters.
    fn add_fixed(&mut self, host: &HostFn<'t>, fixed: &HashMap<String, callers::Fixed>) {
        for (name, f) in fixed {
            if let Some(var) = host.var(name) {
                self.fixed.insert(name.clone(), (f.value, var.decl));
            }
        }
    }

    /// Takes the parameters of `host` its callers pass powers of two.
    fn add_powers(&mut self, host: &HostFn<'t>, powers: &HashMap<String, callers::Agreed<()>>) {
        for name in powers.keys() {
            if let Some(var) = host.var(name) {
                self.powers.insert(name.clone(), var.decl);
            }
        }
    }

    /// The value the callers fix for parameter `name`, when it still
    /// holds it at `read`; the read is recorded in `used`.
    fn fixed_at(&self, name: &str, read: usize) -> Option<i128> {
        let (value, decl) = *self.fixed.get(name)?;
        self.host.unchanged(name, decl, read).then(|| {
            self.used.borrow_mut().push(name.to_string());
            value
        })
    }

    /// The initialiser (if any) of the `dim3` local that `n` reads, when
    /// it holds its initial value there.
    fn dim3_at(&self, n: Node<'t>) -> Option<Option<Node<'t>>> {
        if n.kind() != "identifier" || self.helper {
            return None;
        }
        let v = self.host.var(self.syn.text(n))?;
        (v.dim3
            && self
                .host
                .unchanged(self.syn.text(n), v.decl, n.start_byte()))
        .then_some(v.init)
    }

    /// The three components of a launch dimension (`None`: 1 by default).
    fn components(&self, n: Node<'t>, depth: u32) -> Option<[Option<Node<'t>>; 3]> {
        if depth > MAX_DEPTH {
            return None;
        }
        let from_args = |args: Vec<Node<'t>>| {
            (args.len() <= 3).then(|| {
                let mut out = [None; 3];
                for (i, a) in args.into_iter().enumerate() {
                    out[i] = Some(a);
                }
                out
            })
        };
        match n.kind() {
            "parenthesized_expression" => self.components(*named_children(n).first()?, depth + 1),
            "call_expression"
                if n.child_by_field_name("function").map(|f| self.syn.text(f)) == Some("dim3") =>
            {
                from_args(named_children(n.child_by_field_name("arguments")?))
            }
            "identifier" if self.dim3_at(n).is_some() => match self.dim3_at(n)? {
                None => Some([None; 3]),
                Some(init) => match crate::launch::dim3_ctor_args(init) {
                    Some(args) => from_args(args),
                    None => self.components(init, depth + 1),
                },
            },
            // Anything else is one number for `x` (and 1 for `y`, `z`)
            // only when it surely is a number: a `dim3` whose value is not
            // followed, or a call returning one, says nothing.
            _ if self.scalar(n) => Some([Some(n), None, None]),
            _ => None,
        }
    }

    /// Whether `n` surely has an arithmetic type (it is not a `dim3`): a
    /// literal, arithmetic, a constant, a translatable expression, a
    /// scalar host variable, or a `dim3`'s component.
    fn scalar(&self, n: Node<'t>) -> bool {
        match n.kind() {
            "number_literal" | "binary_expression" | "sizeof_expression" | "unary_expression" => {
                true
            }
            "parenthesized_expression" => {
                named_children(n).first().is_some_and(|c| self.scalar(*c))
            }
            "identifier" => {
                self.tr(n, 0).is_some()
                    || self
                        .host
                        .var(self.syn.text(n))
                        .is_some_and(|v| v.scalar.is_some())
            }
            "field_expression" => n
                .child_by_field_name("field")
                .is_some_and(|f| matches!(self.syn.text(f), "x" | "y" | "z")),
            _ => self.tr(n, 0).is_some(),
        }
    }

    /// `n` as a kernel expression and its C type.
    fn tr(&self, n: Node<'t>, depth: u32) -> Option<(Expr, ScalarTy)> {
        if depth > MAX_DEPTH {
            return None;
        }
        if let Some((v, ty)) = eval_typed(self.syn, n, self) {
            return ty.is_integer().then(|| (Expr::int(v, ty), ty));
        }
        let syn = self.syn;
        let child = |f: &str| n.child_by_field_name(f);
        match n.kind() {
            "parenthesized_expression" => self.tr(*named_children(n).first()?, depth + 1),
            // A `type_identifier` is an argument of a vexing `dim3` parse.
            "identifier" | "type_identifier" => {
                let name = syn.text(n);
                if let Some(e) = self.locals.get(name) {
                    return Some(e.clone());
                }
                if self.helper {
                    return None;
                }
                let var = self.host.var(name)?;
                let vty = var.scalar.filter(|t| t.is_integer())?;
                let read = n.start_byte();
                if let Some(e) = self.passed.get(name) {
                    // The value read here is the one passed at the launch.
                    let (from, to) = (read.min(self.at), read.max(self.at));
                    return self.host.unchanged(name, from, to).then(|| e.clone());
                }
                if let Some((value, at)) = self.known.get(name) {
                    if self.host.unchanged(name, read.min(*at), read.max(*at)) {
                        return Some((Expr::int(*value, vty), vty));
                    }
                }
                if let Some(value) = self.fixed_at(name, read) {
                    return Some((Expr::int(vty.wrap(value), vty), vty));
                }
                // The name read is this local, not a file-scope variable,
                // and it still holds the value it was declared with.
                if self.host.var_at(name, read).map(|v| v.decl) != Some(var.decl) {
                    return None;
                }
                if !self.host.unchanged(name, var.decl, read) {
                    return match var.init {
                        None => self
                            .pitch(name, var.decl, vty, read, depth)
                            .or_else(|| self.out_param(name, vty, read, depth)),
                        Some(_) => None,
                    };
                }
                if let Some((e, ty)) = var.init.and_then(|i| self.tr(i, depth + 1)) {
                    return Some((convert(e, ty, vty), vty));
                }
                // A value not known, but one value at every read.
                let u = self.unknowns.as_ref()?;
                let var = u.reg.var(format!("{}::{name}", u.function), var.decl, vty);
                Some((var, vty))
            }
            "field_expression" => {
                let base = child("argument")?;
                let field = syn.text(child("field")?);
                if base.kind() != "identifier" || self.helper {
                    return None;
                }
                // A field of a struct local built with a brace list
                // (`brace_init.rs`).
                if let Some(b) = self.brace_init(syn.text(base), n.start_byte()) {
                    let i = b.fields.iter().position(|(f, _)| f == field)?;
                    let e = self.brace_field(&b, i, depth)?;
                    return Some((e, b.fields[i].1));
                }
                let name = syn.text(n);
                // A field of a struct held by value (`struct_field.rs`).
                if !self.passed.contains_key(name) {
                    if let Some(e) = self.struct_field(syn.text(base), field, n.start_byte()) {
                        return Some(e);
                    }
                }
                let d = ["x", "y", "z"].iter().position(|f| *f == field)?;
                if let Some(e) = self.passed.get(name) {
                    // The component passed as a parameter (`dimsB.x` as
                    // `wB`), read where it holds the same value.
                    let read = n.start_byte();
                    let (from, to) = (read.min(self.at), read.max(self.at));
                    return self
                        .host
                        .unchanged_access(name, from, to)
                        .then(|| e.clone());
                }
                self.dim3_at(base)?;
                let parts = self.components(base, depth + 1)?;
                match parts[d] {
                    None => Some((Expr::int(1, ScalarTy::U32), ScalarTy::U32)),
                    Some(p) => {
                        let (e, ty) = self.tr(p, depth + 1)?;
                        Some((convert(e, ty, ScalarTy::U32), ScalarTy::U32))
                    }
                }
            }
            "cast_expression" => {
                let to = scalar_of_type(syn, self.items, child("type")?)?;
                let (e, ty) = self.tr(child("value")?, depth + 1)?;
                (to.is_integer() || to == ScalarTy::Bool).then(|| (convert(e, ty, to), to))
            }
            "unary_expression" => {
                let op = syn.text(child("operator")?);
                let (e, ty) = self.tr(child("argument")?, depth + 1)?;
                match op {
                    "+" => Some((e, ty)),
                    "-" | "~" => {
                        let p = promote(ty);
                        let op = if op == "-" { UnOp::Neg } else { UnOp::BitNot };
                        Some((Expr::Unary(op, p, Box::new(convert(e, ty, p))), p))
                    }
                    "!" => Some((Expr::negate(convert(e, ty, ScalarTy::Bool)), ScalarTy::Bool)),
                    _ => None,
                }
            }
            "binary_expression" => self.binary(n, depth),
            "conditional_expression" => {
                let (c, cty) = self.tr(child("condition")?, depth + 1)?;
                let (a, aty) = self.tr(child("consequence")?, depth + 1)?;
                let (b, bty) = self.tr(child("alternative")?, depth + 1)?;
                let ty = common_type(aty, bty);
                Some((
                    Expr::Select(
                        Box::new(convert(c, cty, ScalarTy::Bool)),
                        Box::new(convert(a, aty, ty)),
                        Box::new(convert(b, bty, ty)),
                    ),
                    ty,
                ))
            }
            "call_expression" => self.inline(n, depth),
            _ => None,
        }
    }

    fn binary(&self, n: Node<'t>, depth: u32) -> Option<(Expr, ScalarTy)> {
        let op = BinOp::from_symbol(self.syn.text(n.child_by_field_name("operator")?))?;
        let (a, aty) = self.tr(n.child_by_field_name("left")?, depth + 1)?;
        let (b, bty) = self.tr(n.child_by_field_name("right")?, depth + 1)?;
        if matches!(op, BinOp::And | BinOp::Or) {
            let (a, b) = (
                convert(a, aty, ScalarTy::Bool),
                convert(b, bty, ScalarTy::Bool),
            );
            return Some((Expr::binary(op, ScalarTy::Bool, a, b), ScalarTy::Bool));
        }
        let int = |t: ScalarTy| {
            if t == ScalarTy::Bool {
                ScalarTy::I32
            } else {
                t
            }
        };
        let (a, aty) = (convert(a, aty, int(aty)), int(aty));
        let (b, bty) = (convert(b, bty, int(bty)), int(bty));
        let ty = match op {
            BinOp::Shl | BinOp::Shr => promote(aty),
            _ => common_type(aty, bty),
        };
        let e = Expr::binary(op, ty, convert(a, aty, ty), convert(b, bty, ty));
        // `factorRadix2(log2L, n) == 1` as a power-of-two test, which the
        // solvers decide without a division.
        let e = odd_part::power_of_two_test(&e).unwrap_or(e);
        Some((
            e,
            if op.is_comparison() {
                ScalarTy::Bool
            } else {
                ty
            },
        ))
    }

    /// The host variable a path condition fixes (`x == K`, or `!(x !=
    /// K)`, or `case K:` of `switch (x)`), its value and where it is read.
    fn known_value(&self, p: PathCond<'t>) -> Option<(&'t str, i128, usize)> {
        let (x, k) = match p {
            PathCond::Holds { cond, negated } => {
                let cond = strip_parens(cond);
                if cond.kind() != "binary_expression" {
                    return None;
                }
                let op = self.syn.text(cond.child_by_field_name("operator")?);
                if (op, negated) != ("==", false) && (op, negated) != ("!=", true) {
                    return None;
                }
                let (l, r) = (
                    cond.child_by_field_name("left")?,
                    cond.child_by_field_name("right")?,
                );
                if strip_parens(l).kind() == "identifier" {
                    (strip_parens(l), r)
                } else {
                    (strip_parens(r), l)
                }
            }
            PathCond::Case { value, label } => (strip_parens(value), label),
        };
        if x.kind() != "identifier" {
            return None;
        }
        let name = self.syn.text(x);
        let ty = self.host.var(name)?.scalar.filter(|t| t.is_integer())?;
        let k = crate::consteval::eval(self.syn, k, self)?;
        (ty.wrap(k) == k).then_some((name, k, x.start_byte()))
    }

    /// A path condition as a kernel condition, where it translates.
    fn path_fact(&self, p: PathCond<'t>) -> Option<Expr> {
        match p {
            PathCond::Holds { cond, negated } => {
                let (e, ty) = self.tr(cond, 0)?;
                let e = convert(e, ty, ScalarTy::Bool);
                Some(if negated { Expr::negate(e) } else { e })
            }
            PathCond::Case { value, label } => {
                let (a, aty) = self.tr(value, 0)?;
                let (b, bty) = self.tr(label, 0)?;
                let ty = common_type(promote(aty), promote(bty));
                Some(Expr::binary(
                    BinOp::Eq,
                    ty,
                    convert(a, aty, ty),
                    convert(b, bty, ty),
                ))
            }
        }
    }

    /// A call of a host helper whose body is one `return e;`, with its
    /// by-value scalar parameters bound to the arguments.
    fn inline(&self, call: Node<'t>, depth: u32) -> Option<(Expr, ScalarTy)> {
        let syn = self.syn;
        let f = call.child_by_field_name("function")?;
        if f.kind() != "identifier" {
            return None;
        }
        let name = syn.text(f);
        if let Some(m) = self.min_max(call, name, depth) {
            return Some(m);
        }
        let mut defs = self
            .items
            .fns
            .iter()
            .filter(|g| g.name == name && g.owner.is_none() && g.template.is_empty());
        let def = defs.next()?;
        if defs.next().is_some() || def.is_kernel() {
            return None;
        }
        let ret = scalar_of_type(syn, self.items, def.def.child_by_field_name("type")?)?;
        if let Some(op) = odd_part::recognise(syn, self.items, def.def) {
            let args = named_children(call.child_by_field_name("arguments")?);
            let (e, ty) = self.tr(*args.get(op.param)?, depth + 1)?;
            let odd = odd_part::closed_form(convert(e, ty, op.ty), op.ty, op.zero);
            return ret.is_integer().then(|| (convert(odd, op.ty, ret), ret));
        }
        let statements = named_children(def.def.child_by_field_name("body")?);
        let [stmt] = statements.as_slice() else {
            return None;
        };
        if stmt.kind() != "return_statement" {
            return None;
        }
        let value = *named_children(*stmt).first()?;
        let params = parameters(def.def)?;
        let args = named_children(call.child_by_field_name("arguments")?);
        if params.len() != args.len() {
            return None;
        }
        let mut locals = HashMap::new();
        for (p, a) in params.iter().zip(&args) {
            if p.kind() != "parameter_declaration" {
                return None;
            }
            let pty = scalar_of_type(syn, self.items, p.child_by_field_name("type")?)?;
            let pname = p.child_by_field_name("declarator")?;
            if pname.kind() != "identifier" {
                return None;
            }
            let (e, ty) = self.tr(*a, depth + 1)?;
            locals.insert(syn.text(pname).to_string(), (convert(e, ty, pty), pty));
        }
        let (e, ty) = self.with_locals(locals).tr(value, depth + 1)?;
        ret.is_integer().then(|| (convert(e, ty, ret), ret))
    }

    /// Translation of a helper's body, where only `locals` (its
    /// parameters) and file-scope constants are in scope.
    fn with_locals(&self, locals: HashMap<String, (Expr, ScalarTy)>) -> Cx<'a, 't> {
        Cx {
            syn: self.syn,
            items: self.items,
            consts: self.consts,
            host: self.host,
            passed: HashMap::new(),
            known: HashMap::new(),
            fixed: HashMap::new(),
            used: RefCell::new(Vec::new()),
            powers: HashMap::new(),
            used_powers: RefCell::new(Vec::new()),
            inducting: RefCell::new(Vec::new()),
            locals,
            at: self.at,
            helper: true,
            unknowns: None,
            pitches: RefCell::new(Vec::new()),
        }
    }

    /// `min(a, b)` or `max(a, b)` of two integers of one type: CUDA's host
    /// overloads for that type are an exact match, and `std::min` agrees
    /// (the smaller or larger value). Not when the file defines a function
    /// of that name that could be the better match: a template, or one
    /// whose first parameter is a scalar (overloads for vector types like
    /// helper_math.h's `min(int2, int2)` take no integer).
    fn min_max(&self, call: Node<'t>, name: &str, depth: u32) -> Option<(Expr, ScalarTy)> {
        let op = match name {
            "min" => BinOp::Lt,
            "max" => BinOp::Gt,
            _ => return None,
        };
        let may_match = |g: &crate::items::FnItem| {
            !g.template.is_empty()
                || parameters(g.def)
                    .and_then(|ps| ps.first().copied())
                    .and_then(|p| p.child_by_field_name("type"))
                    .is_none_or(|t| {
                        let text = self.syn.text(t);
                        scalar_of_type(self.syn, self.items, t).is_some()
                            || !(crate::types::vector_type(text).is_some()
                                || self.items.types.structs.contains_key(text))
                    })
        };
        if self
            .items
            .fns
            .iter()
            .filter(|g| g.name == name)
            .any(may_match)
        {
            return None;
        }
        let [a, b] = named_children(call.child_by_field_name("arguments")?)[..] else {
            return None;
        };
        let (a, aty) = self.tr(a, depth + 1)?;
        let (b, bty) = self.tr(b, depth + 1)?;
        if aty != bty || !aty.is_integer() {
            return None;
        }
        let pick = Expr::binary(op, aty, a.clone(), b.clone());
        Some((Expr::Select(Box::new(pick), Box::new(a), Box::new(b)), aty))
    }
}

/// A function definition's `function_declarator` (through pointer and
/// reference declarators of its return type).
fn function_declarator(def: Node) -> Option<Node> {
    let mut d = def.child_by_field_name("declarator")?;
    while d.kind() != "function_declarator" {
        d = d.child_by_field_name("declarator")?;
    }
    Some(d)
}

/// The name a function definition declares (`scan` of `size_t
/// scan(...)`, `S::run` of a member defined outside its class).
fn function_name<'t>(syn: &'t Syntax, def: Node<'t>) -> Option<&'t str> {
    Some(syn.text(function_declarator(def)?.child_by_field_name("declarator")?))
}

/// A function definition's parameter declarations.
fn parameters(def: Node) -> Option<Vec<Node>> {
    Some(named_children(
        function_declarator(def)?.child_by_field_name("parameters")?,
    ))
}

/// The node of kind `kind` that starts at byte `at` of `def` (the
/// outermost such node above the token there).
fn node_starting_at<'t>(def: Node<'t>, at: usize, kind: &str) -> Option<Node<'t>> {
    let mut n = def.descendant_for_byte_range(at, at + 1)?;
    while n.kind() != kind || n.start_byte() != at {
        n = n.parent()?;
    }
    Some(n)
}

/// Whether the statement `stmt` surely ran, once, before control reaches
/// `read` after it: it is a statement of its own in a block that encloses
/// `read` (not the body of a `switch`, whose statements before the first
/// label never run). Its being before `read` and in no loop is the
/// caller's to check.
fn runs_on_the_way(stmt: Node, read: usize) -> bool {
    stmt.parent().is_some_and(|b| {
        b.kind() == "compound_statement"
            && b.parent().is_none_or(|p| p.kind() != "switch_statement")
            && b.start_byte() <= read
            && read < b.end_byte()
    })
}

/// Whether evaluating `n` has no side effect (names, literals, arithmetic,
/// member and element reads): two evaluations of it in one expression give
/// one value.
fn pure(n: Node) -> bool {
    match n.kind() {
        "identifier" | "type_identifier" | "number_literal" | "field_identifier" => true,
        "parenthesized_expression"
        | "binary_expression"
        | "field_expression"
        | "subscript_expression"
        | "subscript_argument_list" => named_children(n).into_iter().all(pure),
        "unary_expression" | "cast_expression" | "type_descriptor" | "primitive_type" => {
            named_children(n).into_iter().all(pure)
        }
        _ => false,
    }
}
