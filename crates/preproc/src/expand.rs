//! Macro expansion: the context stack, the "painted blue" rule, argument
//! collection and pre-expansion, builtin macros, and runaway limits.
//!
//! Invariants:
//! - A context that belongs to a macro keeps that macro's `disabled` count
//!   raised until the context is popped; an identifier naming a disabled
//!   macro is painted (`noexpand`) and never expands again, so
//!   self-referential macros terminate.
//! - In `arg_mode` the expander never reads from files: it stops when the
//!   contexts run out (arguments and `#if` lines are expanded in isolation).
//! - All tokens of one expansion carry the outermost invocation as origin.
//! - Work and nesting are bounded (`MAX_WORK`, `MAX_ARG_DEPTH`,
//!   `MAX_CONTEXTS`); past them expansion is switched off after one error.

use crate::macros::{Macro, MacroKind};
use crate::state::Pp;
use crate::subst::{needs_expansion, substitute};
use crate::token::{quote_string, Kind, Origin, Tok};
use std::rc::Rc;
use warpsafe_source::Span;

const MAX_WORK: usize = 4_000_000;
const MAX_ARG_DEPTH: u32 = 48;
const MAX_CONTEXTS: usize = 50_000;

/// A list of tokens being read (stored reversed), with the macro it expands.
pub(crate) struct Context {
    toks: Vec<Tok>,
    mac: Option<Rc<Macro>>,
}

impl Context {
    fn plain(mut toks: Vec<Tok>) -> Context {
        toks.reverse();
        Context { toks, mac: None }
    }
}

/// The origin shared by all tokens of an expansion.
fn invocation(name: &Tok, rparen: Option<&Tok>) -> Origin {
    let o = name.origin;
    let (mut lo, mut hi) = (o.lo, o.hi);
    if let Some(r) = rparen {
        if r.origin.file == o.file {
            lo = lo.min(r.origin.lo);
            hi = hi.max(r.origin.hi);
        }
    }
    Origin {
        file: o.file,
        lo,
        hi,
        line: o.line,
        verbatim: false,
    }
}

impl Pp<'_> {
    /// The next unexpanded token: from the contexts, else from the files.
    pub(crate) fn next_raw(&mut self) -> Option<Tok> {
        loop {
            match self.contexts.last_mut() {
                Some(ctx) => match ctx.toks.pop() {
                    Some(t) => return Some(t),
                    None => self.pop_context(),
                },
                None if self.arg_mode => return None,
                None => return self.file_next(),
            }
        }
    }

    fn pop_context(&mut self) {
        if let Some(m) = self.contexts.pop().and_then(|c| c.mac) {
            m.disabled.set(m.disabled.get().saturating_sub(1));
        }
    }

    /// Whether the next raw token is `(` (consumes nothing but exhausted
    /// contexts).
    fn peek_lparen(&mut self) -> bool {
        loop {
            match self.contexts.last() {
                Some(ctx) => match ctx.toks.last() {
                    Some(t) => return t.is_punct("("),
                    None => self.pop_context(),
                },
                None if self.arg_mode => return false,
                None => return self.file_peek().is_some_and(|t| t.is_punct("(")),
            }
        }
    }

    /// In `#if` lines: whether `t` is `defined` or its operand (which must
    /// not be expanded).
    fn defined_operand(&mut self, t: &Tok) -> bool {
        match self.defined_state {
            1 => {
                if t.is_punct("(") {
                    self.defined_state = 2;
                    return true;
                }
                self.defined_state = 0;
                t.kind == Kind::Ident
            }
            2 => {
                self.defined_state = 0;
                t.kind == Kind::Ident
            }
            _ => {
                if t.is_ident("defined") {
                    self.defined_state = 1;
                    return true;
                }
                false
            }
        }
    }

    /// The next fully macro-expanded token.
    pub(crate) fn next_expanded(&mut self) -> Option<Tok> {
        loop {
            let mut t = self.next_raw()?;
            if self.in_if && self.defined_operand(&t) {
                return Some(t);
            }
            if t.kind != Kind::Ident || t.noexpand || self.expansion_off {
                return Some(t);
            }
            let Some(m) = self.macros.get(&*t.text).cloned() else {
                return Some(t);
            };
            if m.disabled.get() > 0 {
                t.noexpand = true;
                return Some(t);
            }
            match m.kind {
                MacroKind::Object => {
                    let s = substitute(&m, &[], &[], MAX_WORK.saturating_sub(self.work));
                    self.work = self.work.saturating_add(s.bytes);
                    self.report_paste_errors(s.errors, &t);
                    self.push_expansion(m, s.tokens, invocation(&t, None), t.space);
                }
                MacroKind::Function { .. } => {
                    if !self.peek_lparen() {
                        return Some(t);
                    }
                    match self.invoke(&t, &m) {
                        Some((toks, inv)) => self.push_expansion(m, toks, inv, t.space),
                        None => {
                            t.noexpand = true;
                            return Some(t);
                        }
                    }
                }
                _ => return Some(self.builtin_token(&m.kind, &t)),
            }
        }
    }

    /// Past the work limit: no macro is expanded from here on, and one
    /// error (the first time) says so at `span`.
    fn stop_expanding(&mut self, span: Span) {
        self.expansion_off = true;
        self.error_once(
            "work",
            "macro",
            "macro expansion too large; further macros are not expanded",
            Some(span),
        );
    }

    fn report_paste_errors(&mut self, errors: Vec<String>, at: &Tok) {
        for e in errors {
            self.error("macro", e, Some(at.span()));
        }
    }

    fn push_expansion(&mut self, m: Rc<Macro>, mut toks: Vec<Tok>, inv: Origin, space: bool) {
        for t in &mut toks {
            t.origin = inv;
            t.bol = false;
        }
        if let Some(first) = toks.first_mut() {
            first.space = space;
        }
        self.work = self.work.saturating_add(toks.len() + 1);
        if self.work > MAX_WORK || self.contexts.len() >= MAX_CONTEXTS {
            self.stop_expanding(inv.span());
        }
        toks.reverse();
        m.disabled.set(m.disabled.get().saturating_add(1));
        self.contexts.push(Context { toks, mac: Some(m) });
    }

    /// Collect the arguments of `m` (its `(` is next) and substitute them.
    /// `None` when the invocation is erroneous (already reported).
    fn invoke(&mut self, name: &Tok, m: &Rc<Macro>) -> Option<(Vec<Tok>, Origin)> {
        let (mut args, rparen) = self.collect_args(name, m)?;
        let n = m.params().len();
        let given = args.len();
        let arity_ok = if n == 0 {
            let empty = given == 1 && args.first().is_some_and(Vec::is_empty);
            args.clear();
            empty
        } else if given == n {
            true
        } else if m.variadic() && given + 1 == n {
            args.push(Vec::new());
            true
        } else {
            false
        };
        if !arity_ok {
            let msg = if given < n {
                format!(
                    "macro \"{}\" requires {} arguments, but only {} given",
                    name.text, n, given
                )
            } else {
                format!(
                    "macro \"{}\" passed {} arguments, but takes just {}",
                    name.text, given, n
                )
            };
            self.error("macro", msg, Some(invocation(name, Some(&rparen)).span()));
            return None;
        }
        let need = needs_expansion(m);
        let mut expanded = Vec::with_capacity(args.len());
        for (i, a) in args.iter().enumerate() {
            if need.get(i).copied().unwrap_or(false) {
                expanded.push(self.expand_isolated(a.clone(), true));
            } else {
                expanded.push(Vec::new());
            }
        }
        let s = substitute(m, &args, &expanded, MAX_WORK.saturating_sub(self.work));
        self.work = self.work.saturating_add(s.bytes);
        if s.too_large {
            self.stop_expanding(name.span());
            return None;
        }
        self.report_paste_errors(s.errors, name);
        Some((s.tokens, invocation(name, Some(&rparen))))
    }

    /// Read `( args )`: the arguments split at top-level commas, and the `)`.
    fn collect_args(&mut self, name: &Tok, m: &Macro) -> Option<(Vec<Vec<Tok>>, Tok)> {
        let _lparen = self.next_raw();
        let n = m.params().len();
        let variadic = m.variadic();
        let mut args: Vec<Vec<Tok>> = vec![Vec::new()];
        let mut depth = 0usize;
        loop {
            let t = match self.next_raw() {
                Some(t) if t.kind != Kind::Eof => t,
                _ => {
                    let msg = format!(
                        "unterminated argument list invoking macro \"{}\"",
                        name.text
                    );
                    self.error("macro", msg, Some(name.span()));
                    return None;
                }
            };
            self.work = self.work.saturating_add(1);
            if self.work > MAX_WORK {
                self.stop_expanding(name.span());
            }
            if t.kind == Kind::Punct {
                match &*t.text {
                    "(" => depth += 1,
                    ")" if depth == 0 => return Some((args, t)),
                    ")" => depth -= 1,
                    "," if depth == 0 && !(variadic && args.len() == n) => {
                        args.push(Vec::new());
                        continue;
                    }
                    _ => {}
                }
            }
            if let Some(a) = args.last_mut() {
                a.push(t);
            }
        }
    }

    /// Fully expand `toks` on their own (a macro argument or an `#if` line).
    pub(crate) fn expand_isolated(&mut self, toks: Vec<Tok>, is_arg: bool) -> Vec<Tok> {
        if is_arg {
            if self.arg_depth >= MAX_ARG_DEPTH {
                self.expansion_off = true;
                let span = toks.first().map(Tok::span);
                self.error_once("depth", "macro", "macro arguments nested too deeply", span);
                return toks;
            }
            self.arg_depth += 1;
        }
        let saved = std::mem::take(&mut self.contexts);
        let saved_mode = std::mem::replace(&mut self.arg_mode, true);
        self.contexts.push(Context::plain(toks));
        let mut out = Vec::new();
        while let Some(t) = self.next_expanded() {
            out.push(t);
        }
        while !self.contexts.is_empty() {
            self.pop_context();
        }
        self.contexts = saved;
        self.arg_mode = saved_mode;
        if is_arg {
            self.arg_depth -= 1;
        }
        out
    }

    fn builtin_token(&mut self, kind: &MacroKind, t: &Tok) -> Tok {
        let origin = Origin {
            verbatim: false,
            ..t.origin
        };
        let (k, text) = match kind {
            MacroKind::Line => (Kind::Number, t.origin.line.to_string()),
            MacroKind::File => (Kind::Str, quote_string(&self.file_name(t.origin.file))),
            MacroKind::BaseFile => (Kind::Str, quote_string(&self.file_name(self.main))),
            MacroKind::Counter => {
                self.counter += 1;
                (Kind::Number, (self.counter - 1).to_string())
            }
            _ => (
                Kind::Number,
                self.frames.len().saturating_sub(1).to_string(),
            ),
        };
        Tok::synthetic(k, &text, origin, t.space)
    }
}
