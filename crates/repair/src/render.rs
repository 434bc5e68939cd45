//! Applying edits to the text: edits nest (a fixed read inside a fixed
//! write's value, a widened intrinsic inside a fixed store) and are
//! rendered innermost first; edits on the same range merge (the wider
//! scope wins); edits that overlap without nesting are refused.
//!
//! Invariant: the output is the input with each applied edit's range
//! replaced; bytes outside every edit are copied unchanged.

use crate::{scope_name, Fix};
use warpsafe_ir::Scope;

/// One edit of the bytes `lo..hi`.
#[derive(Clone, Debug)]
pub struct Edit {
    pub lo: usize,
    pub hi: usize,
    pub kind: EditKind,
    /// The fix it performs.
    pub fix: Fix,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditKind {
    /// The lvalue becomes `atomicAdd(&lvalue, zero)`.
    Load { zero: &'static str, scope: Scope },
    /// `lhs = rhs` becomes `atomicExch(&lhs, rhs)`; `eq` is the offset of
    /// the `=`.
    Store { scope: Scope, eq: usize },
    /// A scoped intrinsic's name: `base` plus the suffix of `scope`.
    Intrinsic { base: String, scope: Scope },
    /// A `thread_scope_*` identifier.
    ScopeEnum(Scope),
}

impl EditKind {
    fn scope(&self) -> Scope {
        match self {
            EditKind::Load { scope, .. }
            | EditKind::Store { scope, .. }
            | EditKind::Intrinsic { scope, .. }
            | EditKind::ScopeEnum(scope) => *scope,
        }
    }

    fn set_scope(&mut self, s: Scope) {
        match self {
            EditKind::Load { scope, .. }
            | EditKind::Store { scope, .. }
            | EditKind::Intrinsic { scope, .. }
            | EditKind::ScopeEnum(scope) => *scope = s,
        }
    }
}

struct Node {
    edit: Edit,
    children: Vec<Node>,
}

/// `text` with `edits` applied, and the fixes refused for overlapping.
pub fn apply(text: &str, mut edits: Vec<Edit>) -> (String, Vec<Fix>) {
    edits.sort_by(|a, b| a.lo.cmp(&b.lo).then(b.hi.cmp(&a.hi)));
    // Merge edits of one range (two fixes reaching one declaration).
    let mut merged: Vec<Edit> = Vec::new();
    let mut refused = Vec::new();
    for e in edits {
        match merged.last_mut() {
            Some(m) if m.lo == e.lo && m.hi == e.hi => {
                let same_kind = std::mem::discriminant(&m.kind) == std::mem::discriminant(&e.kind);
                if same_kind {
                    let s = m.kind.scope().max(e.kind.scope());
                    m.kind.set_scope(s);
                } else {
                    refused.push(e.fix);
                }
            }
            _ => merged.push(e),
        }
    }
    // Nest: each edit goes under the innermost open edit containing it.
    let mut roots: Vec<Node> = Vec::new();
    let mut open: Vec<Node> = Vec::new();
    for e in merged {
        while let Some(top) = open.last() {
            if e.lo >= top.edit.hi {
                let done = open.pop().expect("invariant: just looked at it");
                attach(&mut open, &mut roots, done);
            } else {
                break;
            }
        }
        if let Some(top) = open.last() {
            if e.hi > top.edit.hi {
                refused.push(e.fix);
                continue;
            }
        }
        open.push(Node {
            edit: e,
            children: Vec::new(),
        });
    }
    while let Some(done) = open.pop() {
        attach(&mut open, &mut roots, done);
    }
    let mut out = String::with_capacity(text.len() + 64 * roots.len());
    let mut refused_nested = Vec::new();
    copy_with(text, 0, text.len(), &roots, &mut out, &mut refused_nested);
    refused.extend(refused_nested);
    (out, refused)
}

fn attach(open: &mut [Node], roots: &mut Vec<Node>, done: Node) {
    match open.last_mut() {
        Some(parent) => parent.children.push(done),
        None => roots.push(done),
    }
}

/// Appends `text[lo..hi]` with the edits `nodes` (inside it, sorted).
fn copy_with(
    text: &str,
    lo: usize,
    hi: usize,
    nodes: &[Node],
    out: &mut String,
    refused: &mut Vec<Fix>,
) {
    let mut at = lo;
    for n in nodes.iter().filter(|n| n.edit.lo >= lo && n.edit.hi <= hi) {
        out.push_str(&text[at..n.edit.lo]);
        render(text, n, out, refused);
        at = n.edit.hi;
    }
    out.push_str(&text[at..hi]);
}

fn render(text: &str, n: &Node, out: &mut String, refused: &mut Vec<Fix>) {
    let e = &n.edit;
    if let EditKind::Store { eq, .. } = e.kind {
        // A child across the `=` cannot be placed: refuse it.
        for c in &n.children {
            if c.edit.lo < eq && c.edit.hi > eq {
                refused.push(c.edit.fix);
            }
        }
    }
    let mut part = |lo: usize, hi: usize| {
        let mut s = String::new();
        copy_with(text, lo, hi, &n.children, &mut s, refused);
        s.trim().to_string()
    };
    match &e.kind {
        EditKind::Load { zero, scope } => {
            let lv = part(e.lo, e.hi);
            out.push_str(&format!(
                "atomicAdd{}({}, {zero})",
                suffix(*scope),
                address_of(&lv)
            ));
        }
        EditKind::Store { scope, eq } => {
            let lv = part(e.lo, *eq);
            let v = part(eq + 1, e.hi);
            out.push_str(&format!(
                "atomicExch{}({}, {v})",
                suffix(*scope),
                address_of(&lv)
            ));
        }
        EditKind::Intrinsic { base, scope } => {
            out.push_str(base);
            out.push_str(suffix(*scope));
        }
        EditKind::ScopeEnum(scope) => {
            out.push_str("thread_scope_");
            out.push_str(scope_name(*scope));
        }
    }
}

/// The suffix of an `atomic*` intrinsic of `scope`.
fn suffix(scope: Scope) -> &'static str {
    match scope {
        Scope::Thread | Scope::Block | Scope::Cluster => "_block",
        Scope::Device => "",
        Scope::System => "_system",
    }
}

/// `&lv`, parenthesised unless `lv` is a name with subscripts and members.
fn address_of(lv: &str) -> String {
    let simple = lv.bytes().all(|c| {
        c.is_ascii_alphanumeric()
            || matches!(c, b'_' | b'.' | b'[' | b']' | b' ' | b'+' | b'-' | b'*')
    }) && !lv.starts_with('*');
    if simple {
        format!("&{lv}")
    } else {
        format!("&({lv})")
    }
}
