//! Directive dispatch: reads the rest of a `#` line and runs `#define`,
//! `#undef`, `#include`, conditionals, `#pragma`, `#error`, `#warning`,
//! `#line`; keeps the include-guard detector of the file up to date.
//!
//! Invariants:
//! - A directive consumes exactly its logical line; its output line stays
//!   empty (the writer only sees tokens of text lines).
//! - In an inactive block only conditional directives are looked at; all
//!   others (even unknown or malformed ones) are ignored silently.

use crate::files::Guard;
use crate::macros::parse_define;
use crate::state::Pp;
use crate::token::{Kind, Tok};
use std::rc::Rc;
use warpsafe_source::{Diagnostic, Span};

fn is_conditional(name: &str) -> bool {
    matches!(
        name,
        "if" | "ifdef" | "ifndef" | "elif" | "elifdef" | "elifndef" | "else" | "endif"
    )
}

/// `#ifndef X` or `#if !defined X` / `#if !defined(X)`: the guard name.
fn guard_name(name: &str, args: &[Tok]) -> Option<Rc<str>> {
    let ident = |t: &Tok| (t.kind == Kind::Ident).then(|| Rc::clone(&t.text));
    match (name, args) {
        ("ifndef", [x]) => ident(x),
        ("if", [bang, d, x]) if bang.is_punct("!") && d.is_ident("defined") => ident(x),
        ("if", [bang, d, l, x, r])
            if bang.is_punct("!")
                && d.is_ident("defined")
                && l.is_punct("(")
                && r.is_punct(")") =>
        {
            ident(x)
        }
        _ => None,
    }
}

impl Pp<'_> {
    /// Run the directive introduced by `hash` (a `#` at the start of a line).
    pub(crate) fn directive(&mut self, hash: Tok) {
        let Some(frame_index) = self.frames.len().checked_sub(1) else {
            return;
        };
        let line = self
            .frames
            .get_mut(frame_index)
            .map(|f| f.lexer.rest_of_line())
            .unwrap_or_default();
        let hi = line.last().map_or(hash.origin.hi, |t| t.origin.hi);
        let span = Span::new(hash.origin.file, hash.origin.lo, hi);
        let depth_before = self.frames.get(frame_index).map_or(0, |f| f.conds.len());
        let name: &str = match line.first() {
            Some(t) if t.kind == Kind::Ident => &t.text,
            _ => "",
        };
        let args = line.get(1..).unwrap_or(&[]);
        if is_conditional(name) {
            self.conditional(name, args, span);
        } else if !self.skipping() {
            self.run_directive(name, &line, span);
        }
        self.update_guard(frame_index, name, args, depth_before);
    }

    fn run_directive(&mut self, name: &str, line: &[Tok], span: Span) {
        let args = line.get(1..).unwrap_or(&[]);
        match name {
            "define" => self.define(args, span),
            "undef" => self.undef(args, span),
            "include" | "include_next" | "import" => self.include(name, args, span),
            "pragma" => self.pragma(args),
            "error" | "warning" => {
                let msg = self.directive_message(line);
                let text = format!("#{name} {msg}");
                if name == "error" {
                    self.error("preproc", text, Some(span));
                } else {
                    self.warning("preproc", text, Some(span));
                }
            }
            "line" | "ident" | "sccs" | "assert" | "unassert" => {}
            "" => match line.first() {
                // `#` alone is the null directive; `# 12 "file"` a line marker.
                None => {}
                Some(t) if t.kind == Kind::Number => {}
                Some(t) => {
                    let msg = format!("invalid preprocessing directive \"#{}\"", t.text);
                    self.warning("preproc", msg, Some(span));
                }
            },
            _ => {
                let msg = format!("unknown preprocessing directive \"#{name}\"");
                self.warning("preproc", msg, Some(span));
            }
        }
    }

    /// The raw text after the directive name (for `#error`/`#warning`).
    fn directive_message(&self, line: &[Tok]) -> String {
        let (Some(first), Some(last)) = (line.first(), line.last()) else {
            return String::new();
        };
        let o = first.origin;
        self.text_of(o.file)
            .and_then(|t| t.get(o.hi as usize..last.origin.hi as usize))
            .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
            .unwrap_or_default()
    }

    fn define(&mut self, args: &[Tok], span: Span) {
        let def = args.first().map(Tok::span);
        let m = match parse_define(args, def) {
            Ok(m) => m,
            Err((msg, at)) => {
                self.error("macro", msg, Some(at.unwrap_or(span)));
                return;
            }
        };
        if let Some(old) = self.macros.get(&m.name) {
            if old.is_dynamic() {
                let msg = format!("redefining builtin macro \"{}\"", m.name);
                self.warning("macro", msg, def);
            } else if !old.same_definition(&m) {
                let mut d = Diagnostic::warning("macro", format!("\"{}\" redefined", m.name));
                d.span = def;
                if let Some(prev) = old.def {
                    d = d.with_label(prev, "previous definition is here");
                }
                self.diag(d);
            }
        }
        self.macros.insert(Rc::clone(&m.name), Rc::new(m));
    }

    fn undef(&mut self, args: &[Tok], span: Span) {
        let Some(name) = args.first() else {
            self.error(
                "macro",
                "no macro name given in #undef directive",
                Some(span),
            );
            return;
        };
        if name.kind != Kind::Ident {
            self.error(
                "macro",
                "macro names must be identifiers",
                Some(name.span()),
            );
            return;
        }
        if &*name.text == "defined" {
            self.error(
                "macro",
                "\"defined\" cannot be used as a macro name",
                Some(name.span()),
            );
            return;
        }
        self.extra_tokens("undef", args.get(1..).unwrap_or(&[]));
        self.macros.remove(&*name.text);
    }

    fn pragma(&mut self, args: &[Tok]) {
        let Some(first) = args.first() else { return };
        if first.is_ident("once") {
            if let Some(f) = self.frames.last() {
                self.once.insert(f.file);
            }
            return;
        }
        let push = first.is_ident("push_macro");
        if !(push || first.is_ident("pop_macro")) {
            return;
        }
        let name = match args.get(1..4) {
            Some([l, s, r]) if l.is_punct("(") && s.kind == Kind::Str && r.is_punct(")") => s
                .text
                .strip_prefix('"')
                .and_then(|x| x.strip_suffix('"'))
                .map(Rc::<str>::from),
            _ => None,
        };
        let Some(name) = name else { return };
        if push {
            let current = self.macros.get(&name).cloned();
            self.pushed_macros.entry(name).or_default().push(current);
        } else if let Some(saved) = self.pushed_macros.get_mut(&name).and_then(Vec::pop) {
            match saved {
                Some(m) => {
                    self.macros.insert(name, m);
                }
                None => {
                    self.macros.remove(&name);
                }
            }
        }
    }

    fn update_guard(&mut self, frame_index: usize, name: &str, args: &[Tok], depth_before: usize) {
        let Some(frame) = self.frames.get_mut(frame_index) else {
            return;
        };
        let depth_after = frame.conds.len();
        frame.guard = match std::mem::replace(&mut frame.guard, Guard::Invalid) {
            Guard::Start => match guard_name(name, args) {
                Some(g) if depth_before == 0 && depth_after == 1 => Guard::Open(g),
                _ => Guard::Invalid,
            },
            Guard::Open(g) => {
                if name == "endif" && depth_before == 1 && depth_after == 0 {
                    Guard::Closed(g)
                } else if depth_before == 1
                    && matches!(name, "else" | "elif" | "elifdef" | "elifndef")
                {
                    Guard::Invalid
                } else {
                    Guard::Open(g)
                }
            }
            _ => Guard::Invalid,
        };
    }
}
