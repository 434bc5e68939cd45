//! Finding, in the source text, what a fix edits: the shape of a plain
//! access (an lvalue, or `lvalue = value`), the scope written at a scoped
//! intrinsic or `cuda::thread_scope_*`, or the declaration of the atomic
//! variable an access goes through.
//!
//! The scanner is lexical: brackets are matched, string and character
//! literals are not expected inside accesses (an access containing a quote
//! is refused). Invariant: every offset returned lies on a character
//! boundary of the text, within the fix's span or before it.

use crate::render::{Edit, EditKind};
use crate::{add_zero, has_exch, Action, Fix};
use warpsafe_ir::Scope;

/// The edit that performs `fix`, or why there is none.
pub fn edit_for(text: &str, fix: Fix) -> Result<Edit, String> {
    let (lo, hi) = (fix.lo as usize, fix.hi as usize);
    let Some(src) = text.get(lo..hi) else {
        return Err("the access is not in this file's text".into());
    };
    if src.contains('"') || src.contains('\'') {
        return Err("the access contains a literal string or character".into());
    }
    match fix.action {
        Action::AtomicLoad { ty, scope } => {
            let zero = add_zero(ty).ok_or(format!("CUDA has no atomicAdd for {ty:?}"))?;
            if !is_lvalue(src) {
                return Err(format!("`{src}` is not a plain lvalue (a macro?)"));
            }
            Ok(Edit {
                lo,
                hi,
                kind: EditKind::Load { zero, scope },
                fix,
            })
        }
        Action::AtomicStore { ty, scope } => {
            if !has_exch(ty) {
                return Err(format!("CUDA has no atomicExch for {ty:?}"));
            }
            let eq =
                assignment(src).map_err(|e| format!("`{src}` is not `lvalue = value`: {e}"))?;
            if !is_lvalue(&src[..eq]) || src[eq + 1..].trim().is_empty() {
                return Err(format!("`{src}` is not `lvalue = value` (a macro?)"));
            }
            Ok(Edit {
                lo,
                hi,
                kind: EditKind::Store { scope, eq: lo + eq },
                fix,
            })
        }
        Action::Widen { scope } => widen(text, lo, src, scope, fix),
    }
}

/// The scope named by a scoped intrinsic's suffix or `thread_scope_*`.
fn scope_of_name(name: &str) -> Option<Scope> {
    Some(match name {
        "thread" => Scope::Thread,
        "block" => Scope::Block,
        "cluster" => Scope::Cluster,
        "device" => Scope::Device,
        "system" => Scope::System,
        _ => return None,
    })
}

fn widen(text: &str, lo: usize, src: &str, scope: Scope, fix: Fix) -> Result<Edit, String> {
    let words = identifiers(src);
    // A scoped intrinsic: atomicAdd_block(...), atomicCAS_system(...).
    for &(at, w) in &words {
        if !w.starts_with("atomic") || !src[at + w.len()..].trim_start().starts_with('(') {
            continue;
        }
        let (base, current) = match w.rsplit_once('_') {
            Some((b, s @ ("block" | "system"))) => (b, scope_of_name(s).unwrap_or(Scope::Device)),
            _ => (w, Scope::Device),
        };
        return Ok(scope_edit(
            lo + at,
            w.len(),
            EditKind::Intrinsic {
                base: base.to_string(),
                scope: scope.max(current),
            },
            fix,
        ));
    }
    // cuda::thread_scope_X inside the access.
    for &(at, w) in &words {
        if let Some(current) = w.strip_prefix("thread_scope_").and_then(scope_of_name) {
            return Ok(scope_edit(
                lo + at,
                w.len(),
                EditKind::ScopeEnum(scope.max(current)),
                fix,
            ));
        }
    }
    // `name.op(...)`, `name->op(...)`, `name op= v` on an atomic variable:
    // the scope of its declaration.
    let Some(&(0, name)) = words.first().filter(|(at, _)| src[..*at].trim().is_empty()) else {
        return Err(format!(
            "`{src}` names no scope to widen (not an intrinsic or an atomic variable)"
        ));
    };
    let name_at = src.find(name).unwrap_or(0);
    declaration_scope(text, lo + name_at, name)
        .map(|(at, len, current)| scope_edit(at, len, EditKind::ScopeEnum(scope.max(current)), fix))
        .ok_or_else(|| format!("no declaration of `{name}` with a cuda::thread_scope before it"))
}

fn scope_edit(at: usize, len: usize, kind: EditKind, fix: Fix) -> Edit {
    Edit {
        lo: at,
        hi: at + len,
        kind,
        fix,
    }
}

/// The last `thread_scope_X` before `before` whose statement (up to the
/// next `;`) declares `name` after the template arguments: its offset,
/// length and scope.
fn declaration_scope(text: &str, before: usize, name: &str) -> Option<(usize, usize, Scope)> {
    let head = text.get(..before)?;
    let mut best = None;
    for (at, w) in identifiers(head) {
        let Some(scope) = w.strip_prefix("thread_scope_").and_then(scope_of_name) else {
            continue;
        };
        let rest = &head[at + w.len()..];
        let stmt = &rest[..rest.find(';').unwrap_or(rest.len())];
        let Some(close) = stmt.find('>') else {
            continue;
        };
        if identifiers(&stmt[close..]).iter().any(|(_, d)| *d == name) {
            best = Some((at, w.len(), scope));
        }
    }
    best
}

/// Identifiers of `s` with their byte offsets.
fn identifiers(s: &str) -> Vec<(usize, &str)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_alphabetic() || b[i] == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            if start == 0 || !(b[start - 1].is_ascii_digit()) {
                out.push((start, &s[start..i]));
            }
        } else {
            i += 1;
        }
    }
    out
}

/// Offsets of `s`'s bytes at bracket depth 0, or `None` when unbalanced.
fn top_level(s: &str) -> Option<Vec<usize>> {
    let mut depth = 0i32;
    let mut out = Vec::new();
    for (i, c) in s.bytes().enumerate() {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth < 0 {
                    return None;
                }
            }
            _ if depth == 0 => out.push(i),
            _ => {}
        }
    }
    (depth == 0).then_some(out)
}

/// The offset of the `=` of a simple assignment at the top level of `s`.
fn assignment(s: &str) -> Result<usize, String> {
    let b = s.as_bytes();
    let top = top_level(s).ok_or("unbalanced brackets")?;
    for &i in &top {
        if b[i] != b'=' {
            continue;
        }
        let next = b.get(i + 1).copied();
        let prev = i.checked_sub(1).map(|p| b[p]);
        if next == Some(b'=') || matches!(prev, Some(b'=' | b'!' | b'<' | b'>')) {
            // ==, !=, <=, >= (and the second `=` of `==`).
            if next == Some(b'=') || prev == Some(b'=') {
                continue;
            }
            if matches!(prev, Some(b'<' | b'>')) && i >= 2 && b[i - 2] == prev.unwrap_or(0) {
                return Err("a compound assignment (<<=, >>=)".into());
            }
            continue;
        }
        if matches!(
            prev,
            Some(b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' | b'^')
        ) {
            return Err("a compound assignment (+=, ...): not a plain store".into());
        }
        return Ok(i);
    }
    Err("no assignment in the access's text".into())
}

/// Whether `s` reads like an lvalue: a name with subscripts, members and
/// dereferences, and no call, assignment, comma or operator at the top.
fn is_lvalue(s: &str) -> bool {
    let t = s.trim();
    let Some(first) = t.chars().next() else {
        return false;
    };
    if !(first.is_ascii_alphabetic() || first == '_' || first == '*' || first == '(') {
        return false;
    }
    let Some(top) = top_level(t) else {
        return false;
    };
    let b = t.as_bytes();
    for &i in &top {
        let c = b[i];
        let ok = c.is_ascii_alphanumeric()
            || matches!(c, b'_' | b'.' | b' ' | b'*')
            || (c == b'-' && b.get(i + 1) == Some(&b'>'))
            || (c == b'>' && i > 0 && b[i - 1] == b'-');
        if !ok {
            return false;
        }
        // A call (or a macro invocation): `name(`.
        if c.is_ascii_alphanumeric() || c == b'_' {
            if let Some(b'(') = b.get(i + 1) {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lvalues_and_assignments() {
        assert!(is_lvalue("x[i + 1]"));
        assert!(is_lvalue("*p"));
        assert!(is_lvalue("s.a[2]"));
        assert!(is_lvalue("p->f"));
        assert!(!is_lvalue("LOAD(x)"));
        assert!(!is_lvalue("a + b"));
        assert_eq!(assignment("x[i] = y == 2"), Ok(5));
        assert!(assignment("x[i] += 1").is_err());
        assert!(assignment("x[i] <<= 1").is_err());
        assert!(assignment("x[i] == 1").is_err());
    }
}
