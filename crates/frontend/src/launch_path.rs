//! The conditions under which control reaches a launch in its host
//! function (part of the launch relation, issue 9): what `if (n <= 1024)
//! k<<<...>>>(n)`, `if (n < 2) return;` before the launch, `assert(n % 256
//! == 0);` or `switch (threads) { case 512: ... }` say about the launch.
//!
//! Found syntactically, from the launch up to the function body:
//! - an enclosing `if`: its condition in the `then` branch, negated in the
//!   `else` branch;
//! - an enclosing `case K:` of a `switch (x)` whose previous case cannot
//!   fall through into it: `x == K`;
//! - in an enclosing block, before the statement holding the launch: an
//!   `if (c)` without `else` whose branch always leaves the block (`return`,
//!   `break`, `continue`, `throw`, `exit(...)`, `abort()`) gives `!c`; an
//!   `assert(c);` gives `c` (an assumption: the program's own statement of
//!   what holds there, even where `NDEBUG` removes the check).
//!
//! **Invariant:** each condition is returned with where it is read; the
//! caller translates it only when the variables it reads hold the same
//! values at the launch (no write in between), so a condition is true at
//! the launch whenever control reaches the launch.

use crate::syntax::{named_children, Syntax};
use tree_sitter::Node;

/// A condition that holds when control reaches the launch (equal: the same
/// condition of the same statement).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum PathCond<'t> {
    /// The expression holds (`negated`: its negation holds).
    Holds { cond: Node<'t>, negated: bool },
    /// `value == label`: the case of a `switch`.
    Case { value: Node<'t>, label: Node<'t> },
}

/// The conditions under which control reaches `launch` in `host` (a
/// function definition).
pub(crate) fn path_conditions<'t>(
    syn: &Syntax,
    launch: Node<'t>,
    host: Node<'t>,
) -> Vec<PathCond<'t>> {
    let mut out = Vec::new();
    if has_goto(host) {
        // A jump may reach the launch past any of them.
        return out;
    }
    let mut cur = launch;
    while let Some(parent) = cur.parent() {
        if parent.id() == host.id() {
            break;
        }
        match parent.kind() {
            "if_statement" => {
                let is_then = parent
                    .child_by_field_name("consequence")
                    .is_some_and(|c| c.id() == cur.id());
                if let (true, Some(cond)) = (is_then, condition(parent)) {
                    out.push(PathCond::Holds {
                        cond,
                        negated: false,
                    });
                }
            }
            "else_clause" => {
                if let Some(cond) = parent
                    .parent()
                    .filter(|p| p.kind() == "if_statement")
                    .and_then(condition)
                {
                    out.push(PathCond::Holds {
                        cond,
                        negated: true,
                    });
                }
            }
            "case_statement" => {
                if let Some(c) = case_condition(syn, parent) {
                    out.push(c);
                }
                // Earlier statements of the same case run first.
                preceding(syn, parent, cur, &mut out);
            }
            "compound_statement" => preceding(syn, parent, cur, &mut out),
            _ => {}
        }
        cur = parent;
    }
    out
}

/// The expression an `if`'s condition tests (`None` for a declaration).
pub(crate) fn condition(if_: Node) -> Option<Node> {
    clause_value(if_.child_by_field_name("condition")?)
}

/// The expression a condition clause (`(c)` of `if`, `while`, `switch`)
/// tests (`None` for a declaration).
pub(crate) fn clause_value(clause: Node) -> Option<Node> {
    if clause.kind() != "condition_clause" {
        return Some(clause);
    }
    let value = clause.child_by_field_name("value")?;
    (named_children(clause).len() == 1 && value.kind() != "declaration").then_some(value)
}

/// `x == K` for a `case K:` of `switch (x)` that no earlier case falls
/// into.
fn case_condition<'t>(syn: &Syntax, case: Node<'t>) -> Option<PathCond<'t>> {
    let label = case.child_by_field_name("value")?;
    let body = case.parent().filter(|b| b.kind() == "compound_statement")?;
    let switch = body.parent().filter(|s| s.kind() == "switch_statement")?;
    let value = condition(switch)?;
    if let Some(prev) = case.prev_named_sibling() {
        if prev.kind() == "case_statement" && !ends_in_jump(syn, prev) {
            return None;
        }
    }
    Some(PathCond::Case { value, label })
}

/// The statements of `block` before `child`: `if (c) leave;` gives `!c`,
/// `assert(c);` gives `c`.
fn preceding<'t>(syn: &Syntax, block: Node<'t>, child: Node<'t>, out: &mut Vec<PathCond<'t>>) {
    for s in named_children(block) {
        if s.start_byte() >= child.start_byte() {
            break;
        }
        match s.kind() {
            "if_statement" if s.child_by_field_name("alternative").is_none() => {
                let leaves = s
                    .child_by_field_name("consequence")
                    .is_some_and(|c| ends_in_jump(syn, c));
                if let (true, Some(cond)) = (leaves, condition(s)) {
                    out.push(PathCond::Holds {
                        cond,
                        negated: true,
                    });
                }
            }
            "expression_statement" => {
                if let Some(cond) = asserted(syn, s) {
                    out.push(PathCond::Holds {
                        cond,
                        negated: false,
                    });
                }
            }
            _ => {}
        }
    }
}

/// The condition of `assert(c);`.
fn asserted<'t>(syn: &Syntax, stmt: Node<'t>) -> Option<Node<'t>> {
    let call = *named_children(stmt).first()?;
    if call.kind() != "call_expression" {
        return None;
    }
    let f = call.child_by_field_name("function")?;
    if syn.text(f) != "assert" {
        return None;
    }
    match named_children(call.child_by_field_name("arguments")?).as_slice() {
        [c] => Some(*c),
        _ => None,
    }
}

/// Whether a statement (or the last statement of a block, or of a case)
/// always leaves: `return`, `break`, `continue`, `throw`, `goto`,
/// `exit(...)`, `abort()`.
fn ends_in_jump(syn: &Syntax, s: Node) -> bool {
    match s.kind() {
        "return_statement" | "break_statement" | "continue_statement" | "throw_statement"
        | "goto_statement" => true,
        "compound_statement" => named_children(s)
            .last()
            .is_some_and(|last| ends_in_jump(syn, *last)),
        "case_statement" => {
            let label = s.child_by_field_name("value").map(|v| v.id());
            named_children(s)
                .into_iter()
                .rev()
                .find(|c| Some(c.id()) != label)
                .is_some_and(|last| ends_in_jump(syn, last))
        }
        "expression_statement" => named_children(s).first().is_some_and(|call| {
            call.kind() == "call_expression"
                && call.child_by_field_name("function").is_some_and(|f| {
                    matches!(
                        syn.text(f),
                        "exit" | "abort" | "std::exit" | "std::abort" | "_exit"
                    )
                })
        }),
        _ => false,
    }
}

/// Whether a `goto` statement lies under `n`.
pub(crate) fn has_goto(n: Node) -> bool {
    n.kind() == "goto_statement" || named_children(n).into_iter().any(has_goto)
}
