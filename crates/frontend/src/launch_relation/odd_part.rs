//! The closed form of host helpers that strip trailing zero bits (issue 9):
//! cuda-samples' scan and sorting networks check that a length is a power
//! of two with `assert(factorRadix2(log2L, L) == 1)`, where
//!
//! ```c
//! static uint factorRadix2(uint &log2L, uint L) {
//!     if (!L) { log2L = 0; return 0; }
//!     else { for (log2L = 0; (L & 1) == 0; L >>= 1, log2L++); return L; }
//! }
//! ```
//!
//! returns the odd part of `L`: `L / (L & -L)`, `L` divided by its lowest
//! set bit. The launch relation reads such a call as `L == 0 ? c : L / (L
//! & (0 - L))`, with `c` the value an `if (!L) return c;` guard returns
//! (without a guard the loop never ends for `L == 0`, so no launch after
//! the call sees that case, and 0 stands for it).
//!
//! **Invariant:** a helper is read this way only when its value is
//! surely that: `L` is a by-value unsigned parameter; the statements
//! before the loop neither mention `L` nor return or jump (other than the
//! guard); the loop tests `L`'s low bit for zero and halves `L` once per
//! iteration, and nothing else in it mentions `L` or leaves it; and the
//! function ends with `return L;`.

use crate::host_writes::scalar_of_type;
use crate::items::Items;
use crate::launch_path::condition;
use crate::syntax::strip_parens;
use crate::syntax::{named_children, Syntax};
use tree_sitter::Node;
use warpsafe_ir::{BinOp, Const, Expr, ScalarTy};

/// A recognised helper: which parameter is stripped, its type, and the
/// value for a zero argument.
pub(super) struct OddPart {
    pub(super) param: usize,
    pub(super) ty: ScalarTy,
    pub(super) zero: i128,
}

/// The helper's value for argument `l` of type `ty`: `l == 0 ? zero : l /
/// (l & (0 - l))`.
pub(super) fn closed_form(l: Expr, ty: ScalarTy, zero: i128) -> Expr {
    let bin = |o, a, b| Expr::binary(o, ty, a, b);
    let lowest = bin(
        BinOp::BitAnd,
        l.clone(),
        bin(BinOp::Sub, Expr::int(0, ty), l.clone()),
    );
    Expr::Select(
        Box::new(bin(BinOp::Eq, l.clone(), Expr::int(0, ty))),
        Box::new(Expr::int(ty.wrap(zero), ty)),
        Box::new(bin(BinOp::Div, l, lowest)),
    )
}

/// `closed_form(l) == 1` (or `!=`, either side) as `l != 0 && (l & (l -
/// 1)) == 0` (negated for `!=`): the odd part of `l` is 1 exactly when
/// `l` is a power of two, and 0 stands for zero unless the guard returns
/// 1. The same truth value for every `l`, without a division.
pub(super) fn power_of_two_test(e: &Expr) -> Option<Expr> {
    let Expr::Binary(op @ (BinOp::Eq | BinOp::Ne), _, a, b) = e else {
        return None;
    };
    let (form, one) = if b.as_const_int() == Some(1) {
        (a, b)
    } else {
        (b, a)
    };
    if one.as_const_int() != Some(1) {
        return None;
    }
    let Expr::Select(c, zero, _) = &**form else {
        return None;
    };
    let (Expr::Binary(BinOp::Eq, ty, l, z), Expr::Const(Const::Int(zv), _)) = (&**c, &**zero)
    else {
        return None;
    };
    if z.as_const_int() != Some(0) || *zv == 1 || **form != closed_form((**l).clone(), *ty, *zv) {
        return None;
    }
    let (ty, l) = (*ty, (**l).clone());
    let bin = |o, a, b| Expr::binary(o, ty, a, b);
    let test = Expr::binary(
        BinOp::And,
        ScalarTy::Bool,
        bin(BinOp::Ne, l.clone(), Expr::int(0, ty)),
        bin(
            BinOp::Eq,
            bin(
                BinOp::BitAnd,
                l.clone(),
                bin(BinOp::Sub, l, Expr::int(1, ty)),
            ),
            Expr::int(0, ty),
        ),
    );
    Some(if *op == BinOp::Eq {
        test
    } else {
        Expr::negate(test)
    })
}

/// `def` (a `function_definition`) as an odd-part helper, if it is one.
pub(super) fn recognise(syn: &Syntax, items: &Items, def: Node) -> Option<OddPart> {
    let params = super::parameters(def)?;
    let stmts = named_children(def.child_by_field_name("body")?);
    let (name, zero) = match stmts.as_slice() {
        // `if (!L) { ...; return c; } else { ...; loop; return L; }`
        [if_] if if_.kind() == "if_statement" => {
            let alt = if_.child_by_field_name("alternative")?;
            let body = *named_children(alt).last()?;
            let inner = statements(body);
            let (name, None) = stripped(syn, &inner)? else {
                return None;
            };
            (name, Some(zero_guard(syn, *if_, name)?))
        }
        _ => stripped(syn, &stmts)?,
    };
    let param = params.iter().position(|p| {
        p.kind() == "parameter_declaration"
            && p.child_by_field_name("declarator")
                .is_some_and(|d| d.kind() == "identifier" && syn.text(d) == name)
    })?;
    let ty = scalar_of_type(syn, items, params[param].child_by_field_name("type")?)?;
    (ty.is_integer() && !ty.is_signed()).then_some(OddPart {
        param,
        ty,
        zero: zero.unwrap_or(0),
    })
}

/// `...; loop; return L;` with an optional zero guard among the first
/// statements: `L`'s name and the guard's value.
fn stripped<'t>(syn: &'t Syntax, stmts: &[Node<'t>]) -> Option<(&'t str, Option<i128>)> {
    let [before @ .., lp, ret] = stmts else {
        return None;
    };
    let value = *named_children(*ret)
        .first()
        .filter(|_| ret.kind() == "return_statement")?;
    let value = strip_parens(value);
    if value.kind() != "identifier" {
        return None;
    }
    let name = syn.text(value);
    if !strips(syn, *lp, name) {
        return None;
    }
    let mut zero = None;
    for s in before {
        if zero.is_none() && s.kind() == "if_statement" {
            if let Some(c) = zero_guard(syn, *s, name) {
                if s.child_by_field_name("alternative").is_none() {
                    zero = Some(c);
                    continue;
                }
            }
        }
        if mentions(syn, *s, name) || leaves(*s) {
            return None;
        }
    }
    Some((name, zero))
}

/// `if (!L) { ...; return c; }` (also `L == 0`, `0 == L`): `c`.
fn zero_guard(syn: &Syntax, if_: Node, name: &str) -> Option<i128> {
    let cond = strip_parens(condition(if_)?);
    let is_name = |n: Node| is_named(syn, n, name);
    let zero_test = match (cond.kind(), operands(syn, cond)) {
        ("unary_expression", _) => {
            syn.text(cond.child_by_field_name("operator")?) == "!"
                && is_name(cond.child_by_field_name("argument")?)
        }
        (_, Some(("==", l, r))) => {
            (is_name(l) && is_zero(syn, r)) || (is_zero(syn, l) && is_name(r))
        }
        _ => false,
    };
    if !zero_test {
        return None;
    }
    let then = if_.child_by_field_name("consequence")?;
    let stmts = statements(then);
    let [before @ .., ret] = stmts.as_slice() else {
        return None;
    };
    if ret.kind() != "return_statement"
        || before.iter().any(|s| mentions(syn, *s, name) || leaves(*s))
    {
        return None;
    }
    let value = strip_parens(*named_children(*ret).first()?);
    (value.kind() == "number_literal")
        .then(|| crate::consteval::int_literal(syn.text(value)))
        .flatten()
}

/// A loop that runs while `L`'s low bit is zero and halves `L` once per
/// iteration, with nothing else in it mentioning `L` or leaving it.
fn strips(syn: &Syntax, lp: Node, name: &str) -> bool {
    let Some(cond) = lp.child_by_field_name("condition") else {
        return false;
    };
    let cond = match lp.kind() {
        "for_statement" => Some(cond),
        "while_statement" => crate::launch_path::clause_value(cond),
        _ => None,
    };
    if !cond.is_some_and(|c| low_bit_zero(syn, c, name)) {
        return false;
    }
    let Some(body) = lp.child_by_field_name("body") else {
        return false;
    };
    // The halvings: the `for`'s update parts and the body's statements.
    let mut parts: Vec<Node> = Vec::new();
    if lp.kind() == "for_statement" {
        if let Some(init) = lp.child_by_field_name("initializer") {
            if mentions(syn, init, name) {
                return false;
            }
        }
        let mut stack: Vec<Node> = lp
            .children_by_field_name("update", &mut lp.walk())
            .collect();
        while let Some(u) = stack.pop() {
            if u.kind() == "comma_expression" {
                stack.extend(named_children(u));
            } else {
                parts.push(u);
            }
        }
    }
    let body_stmts = statements(body);
    for s in &body_stmts {
        if s.kind() == "expression_statement" {
            parts.extend(named_children(*s));
        } else if mentions(syn, *s, name) || leaves(*s) {
            return false;
        }
    }
    let halvings = parts.iter().filter(|p| halves(syn, **p, name)).count();
    halvings == 1
        && parts
            .iter()
            .all(|p| halves(syn, *p, name) || !(mentions(syn, *p, name) || leaves(*p)))
}

/// `(L & 1) == 0`, `0 == (L & 1)`, `!(L & 1)`, `L % 2 == 0`.
fn low_bit_zero(syn: &Syntax, c: Node, name: &str) -> bool {
    let c = strip_parens(c);
    let low_bit = |n: Node| match operands(syn, n) {
        Some(("&", l, r)) => {
            (is_named(syn, l, name) && literal(syn, r) == Some(1))
                || (literal(syn, l) == Some(1) && is_named(syn, r, name))
        }
        Some(("%", l, r)) => is_named(syn, l, name) && literal(syn, r) == Some(2),
        _ => false,
    };
    if c.kind() == "unary_expression" {
        return c
            .child_by_field_name("operator")
            .is_some_and(|o| syn.text(o) == "!")
            && c.child_by_field_name("argument").is_some_and(low_bit);
    }
    match operands(syn, c) {
        Some(("==", l, r)) => (low_bit(l) && is_zero(syn, r)) || (is_zero(syn, l) && low_bit(r)),
        _ => false,
    }
}

/// `L >>= 1`, `L /= 2`, `L = L >> 1`, `L = L / 2`.
fn halves(syn: &Syntax, n: Node, name: &str) -> bool {
    if strip_parens(n).kind() != "assignment_expression" {
        return false;
    }
    let Some((op, _, r)) = operands(syn, n).filter(|(_, l, _)| is_named(syn, *l, name)) else {
        return false;
    };
    match op {
        ">>=" => literal(syn, r) == Some(1),
        "/=" => literal(syn, r) == Some(2),
        "=" => match operands(syn, r) {
            Some((">>", x, k)) => is_named(syn, x, name) && literal(syn, k) == Some(1),
            Some(("/", x, k)) => is_named(syn, x, name) && literal(syn, k) == Some(2),
            _ => false,
        },
        _ => false,
    }
}

/// A binary expression's operator, left and right operands.
fn operands<'t>(syn: &'t Syntax, n: Node<'t>) -> Option<(&'t str, Node<'t>, Node<'t>)> {
    let n = strip_parens(n);
    if !matches!(n.kind(), "binary_expression" | "assignment_expression") {
        return None;
    }
    Some((
        syn.text(n.child_by_field_name("operator")?),
        n.child_by_field_name("left")?,
        n.child_by_field_name("right")?,
    ))
}

/// Whether `n` is (a parenthesised) `name`.
fn is_named(syn: &Syntax, n: Node, name: &str) -> bool {
    let n = strip_parens(n);
    n.kind() == "identifier" && syn.text(n) == name
}

fn literal(syn: &Syntax, n: Node) -> Option<i128> {
    let n = strip_parens(n);
    (n.kind() == "number_literal")
        .then(|| crate::consteval::int_literal(syn.text(n)))
        .flatten()
}

fn is_zero(syn: &Syntax, n: Node) -> bool {
    literal(syn, n) == Some(0)
}

/// Whether `n` names `name` anywhere.
fn mentions(syn: &Syntax, n: Node, name: &str) -> bool {
    if n.kind() == "identifier" && syn.text(n) == name {
        return true;
    }
    named_children(n)
        .into_iter()
        .any(|c| mentions(syn, c, name))
}

/// Whether `n` may leave the statements it is in other than by falling
/// through: `return`, `break`, `goto`, `throw`.
fn leaves(n: Node) -> bool {
    matches!(
        n.kind(),
        "return_statement" | "break_statement" | "goto_statement" | "throw_statement"
    ) || named_children(n).into_iter().any(leaves)
}

/// The statements of a branch or loop body: a block's, or the one
/// statement.
fn statements(body: Node) -> Vec<Node> {
    if body.kind() == "compound_statement" {
        named_children(body)
    } else {
        vec![body]
    }
}
