//! Conditional directives (`#if`, `#ifdef`, `#ifndef`, `#elif`, `#elifdef`,
//! `#elifndef`, `#else`, `#endif`) and the preparation of `#if` lines for the
//! expression evaluator (`defined`, `__has_include`, macro expansion).
//!
//! Invariants:
//! - A block is active only if its parent is active and no earlier branch of
//!   the same `#if` was taken; expressions of branches that cannot become
//!   active are not evaluated (so they cause no diagnostics).
//! - A stray `#else`/`#elif`/`#endif` is reported and otherwise ignored.
//! - An `#if` expression that fails to evaluate is reported and taken as 0.

use crate::expr::evaluate;
use crate::state::Pp;
use crate::token::{Kind, Tok};
use warpsafe_source::Span;

/// One open conditional of a file.
#[derive(Clone, Debug)]
pub(crate) struct Cond {
    /// The opening directive (for "unterminated" errors).
    pub span: Span,
    pub directive: &'static str,
    pub parent_active: bool,
    /// Lines of the current branch are kept.
    pub active: bool,
    /// Some branch was (or can no longer be) taken.
    pub taken: bool,
    pub seen_else: bool,
}

/// Names treated as defined by `defined` and `#ifdef` although not macros.
fn is_operator_name(name: &str) -> bool {
    matches!(
        name,
        "__has_include"
            | "__has_include_next"
            | "__has_attribute"
            | "__has_cpp_attribute"
            | "__has_builtin"
    )
}

fn number(at: &Tok, value: bool) -> Tok {
    Tok::synthetic(
        Kind::Number,
        if value { "1" } else { "0" },
        at.origin,
        at.space,
    )
}

impl Pp<'_> {
    pub(crate) fn is_defined(&self, name: &str) -> bool {
        self.macros.contains_key(name) || is_operator_name(name)
    }

    pub(crate) fn conditional(&mut self, name: &str, args: &[Tok], span: Span) {
        let parent_active = !self.skipping();
        match name {
            "if" | "ifdef" | "ifndef" => {
                let active = parent_active
                    && match name {
                        "if" => self.eval_if(args, span),
                        _ => self.ifdef(name, args, span) == (name == "ifdef"),
                    };
                let directive = match name {
                    "if" => "#if",
                    "ifdef" => "#ifdef",
                    _ => "#ifndef",
                };
                if let Some(f) = self.frames.last_mut() {
                    f.conds.push(Cond {
                        span,
                        directive,
                        parent_active,
                        active,
                        taken: active || !parent_active,
                        seen_else: false,
                    });
                }
            }
            "elif" | "elifdef" | "elifndef" => {
                let Some(c) = self.frames.last().and_then(|f| f.conds.last()).cloned() else {
                    self.error("preproc", format!("#{name} without #if"), Some(span));
                    return;
                };
                let active = if c.seen_else {
                    self.error("preproc", format!("#{name} after #else"), Some(span));
                    false
                } else if !c.parent_active || c.taken {
                    false
                } else {
                    match name {
                        "elif" => self.eval_if(args, span),
                        _ => self.ifdef(name, args, span) == (name == "elifdef"),
                    }
                };
                if let Some(c) = self.frames.last_mut().and_then(|f| f.conds.last_mut()) {
                    c.active = active;
                    c.taken |= active;
                }
            }
            "else" => {
                let Some(c) = self.frames.last_mut().and_then(|f| f.conds.last_mut()) else {
                    self.error("preproc", "#else without #if", Some(span));
                    return;
                };
                let repeated = c.seen_else;
                c.active = c.parent_active && !c.taken && !repeated;
                c.taken = true;
                c.seen_else = true;
                let parent_active = c.parent_active;
                if repeated {
                    self.error("preproc", "#else after #else", Some(span));
                }
                if parent_active {
                    self.extra_tokens("else", args);
                }
            }
            _ => {
                let popped = self.frames.last_mut().and_then(|f| f.conds.pop());
                match popped {
                    None => self.error("preproc", "#endif without #if", Some(span)),
                    Some(c) if c.parent_active => self.extra_tokens("endif", args),
                    Some(_) => {}
                }
            }
        }
    }

    pub(crate) fn extra_tokens(&mut self, directive: &str, args: &[Tok]) {
        if let Some(t) = args.first() {
            let msg = format!("extra tokens at end of #{directive} directive");
            self.warning("preproc", msg, Some(t.span()));
        }
    }

    /// Whether the macro named by an `#ifdef`-style line is defined.
    fn ifdef(&mut self, directive: &str, args: &[Tok], span: Span) -> bool {
        let Some(name) = args.first() else {
            self.error(
                "preproc",
                format!("no macro name given in #{directive} directive"),
                Some(span),
            );
            return false;
        };
        if name.kind != Kind::Ident {
            self.error(
                "preproc",
                "macro names must be identifiers",
                Some(name.span()),
            );
            return false;
        }
        self.extra_tokens(directive, args.get(1..).unwrap_or(&[]));
        self.is_defined(&name.text)
    }

    /// Evaluate an `#if`/`#elif` line.
    fn eval_if(&mut self, args: &[Tok], span: Span) -> bool {
        if args.is_empty() {
            self.error("preproc", "#if with no expression", Some(span));
            return false;
        }
        let Some(pre) = self.resolve_has_include(args) else {
            return false;
        };
        self.in_if = true;
        self.defined_state = 0;
        let expanded = self.expand_isolated(pre, false);
        self.in_if = false;
        self.defined_state = 0;
        let Some(post) = self.resolve_defined(expanded) else {
            return false;
        };
        match evaluate(&post) {
            Ok(v) => v.is_true(),
            Err(e) => {
                let at = e.at.and_then(|i| post.get(i)).map_or(span, Tok::span);
                self.error("preproc", e.message, Some(at));
                false
            }
        }
    }

    /// Replace `defined X` / `defined(X)` by `1` or `0`.
    fn resolve_defined(&mut self, toks: Vec<Tok>) -> Option<Vec<Tok>> {
        let mut out = Vec::with_capacity(toks.len());
        let mut i = 0;
        while let Some(t) = toks.get(i) {
            if !t.is_ident("defined") {
                out.push(t.clone());
                i += 1;
                continue;
            }
            let (name, adv) = match (toks.get(i + 1), toks.get(i + 2), toks.get(i + 3)) {
                (Some(n), _, _) if n.kind == Kind::Ident => (n, 2),
                (Some(p), Some(n), Some(c))
                    if p.is_punct("(") && n.kind == Kind::Ident && c.is_punct(")") =>
                {
                    (n, 4)
                }
                _ => {
                    self.error(
                        "preproc",
                        "operator \"defined\" requires an identifier",
                        Some(t.span()),
                    );
                    return None;
                }
            };
            out.push(number(t, self.is_defined(&name.text)));
            i += adv;
        }
        Some(out)
    }

    /// Replace `__has_include(...)` by `1`/`0` and other `__has_*(...)`
    /// feature tests by `0`, before macro expansion.
    fn resolve_has_include(&mut self, toks: &[Tok]) -> Option<Vec<Tok>> {
        let mut out = Vec::with_capacity(toks.len());
        let mut i = 0;
        while let Some(t) = toks.get(i) {
            let is_call = t.kind == Kind::Ident
                && t.text.starts_with("__has_")
                && toks.get(i + 1).is_some_and(|p| p.is_punct("("));
            let after_defined = i.checked_sub(1).and_then(|k| toks.get(k)).is_some_and(|p| {
                p.is_ident("defined") || (p.is_punct("(") && k_is_defined(toks, i))
            });
            if !is_call || after_defined {
                out.push(t.clone());
                i += 1;
                continue;
            }
            if !matches!(&*t.text, "__has_include" | "__has_include_next") {
                // Skip to the matching `)`.
                let mut depth = 0usize;
                let mut j = i + 1;
                while let Some(u) = toks.get(j) {
                    if u.is_punct("(") {
                        depth += 1;
                    } else if u.is_punct(")") {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            break;
                        }
                    }
                    j += 1;
                }
                out.push(number(t, false));
                i = j + 1;
                continue;
            }
            let bad = || format!("operator \"{}\" requires a header-name", t.text);
            let Some((name, angled, close)) = self.header_operand(toks, i + 2) else {
                self.error("preproc", bad(), Some(t.span()));
                return None;
            };
            if !toks.get(close).is_some_and(|c| c.is_punct(")")) {
                self.error("preproc", bad(), Some(t.span()));
                return None;
            }
            let found = self.locate(&name, angled).is_some();
            out.push(number(t, found));
            i = close + 1;
        }
        Some(out)
    }
}

/// Whether `toks[i - 2]` is `defined` (so `toks[i]` follows `defined (`).
fn k_is_defined(toks: &[Tok], i: usize) -> bool {
    i.checked_sub(2)
        .and_then(|k| toks.get(k))
        .is_some_and(|d| d.is_ident("defined"))
}
