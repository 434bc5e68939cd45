//! The file layer: the stack of files being read (the main file and its
//! includes), each with its lexer, conditional stack and include-guard
//! detector. It hands the expander the tokens of active lines and runs
//! directives as it meets them.
//!
//! Invariants:
//! - A `#` that starts a logical line is always a directive and never reaches
//!   the expander; tokens in inactive conditional blocks are dropped.
//! - The end of an included file yields one `Eof` marker token (it stops
//!   macro-argument collection); the end of the main file yields `None`.
//! - Conditionals never span files: those left open at the end of a file are
//!   reported there and discarded.

use crate::cond::Cond;
use crate::lexer::Lexer;
use crate::state::Pp;
use crate::token::{Kind, Origin, Tok};
use std::rc::Rc;
use warpsafe_source::{FileId, Span};

/// Include-guard detection (`#ifndef X` ... `#endif` around the whole file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Guard {
    /// Nothing but whitespace and comments so far.
    Start,
    /// Inside the candidate guard `#ifndef NAME`.
    Open(Rc<str>),
    /// After its `#endif`; valid if nothing else follows.
    Closed(Rc<str>),
    Invalid,
}

pub(crate) struct Frame {
    pub file: FileId,
    pub lexer: Lexer,
    pub conds: Vec<Cond>,
    pub guard: Guard,
}

impl Pp<'_> {
    pub(crate) fn push_frame(&mut self, file: FileId, text: Rc<str>) {
        self.set_text(file, Rc::clone(&text));
        self.frames.push(Frame {
            file,
            lexer: Lexer::new(text, file),
            conds: Vec::new(),
            guard: Guard::Start,
        });
    }

    /// Whether the current line of the current file is in an inactive block.
    pub(crate) fn skipping(&self) -> bool {
        self.frames
            .last()
            .and_then(|f| f.conds.last())
            .is_some_and(|c| !c.active)
    }

    pub(crate) fn file_peek(&mut self) -> Option<&Tok> {
        if self.lookahead.is_none() {
            self.lookahead = self.file_next();
        }
        self.lookahead.as_ref()
    }

    /// The next token of an active line, running directives on the way.
    pub(crate) fn file_next(&mut self) -> Option<Tok> {
        if let Some(t) = self.lookahead.take() {
            return Some(t);
        }
        loop {
            let frame = self.frames.last_mut()?;
            let file = frame.file;
            let next = frame.lexer.next_token();
            if !frame.lexer.bad_comments.is_empty() {
                let bad = std::mem::take(&mut frame.lexer.bad_comments);
                for lo in bad {
                    self.error(
                        "preproc",
                        "unterminated comment",
                        Some(Span::new(file, lo, lo.saturating_add(2))),
                    );
                }
            }
            let Some(t) = next else {
                let end = self.text_of(file).map_or(0, |t| t.len() as u32);
                self.end_frame();
                if self.frames.is_empty() {
                    return None;
                }
                let origin = Origin {
                    file,
                    lo: end,
                    hi: end,
                    line: 1,
                    verbatim: true,
                };
                return Some(Tok::synthetic(Kind::Eof, "", origin, false));
            };
            if t.bol && t.is_punct("#") {
                self.directive(t);
                continue;
            }
            let frame = self.frames.last_mut()?;
            if frame.conds.last().is_some_and(|c| !c.active) {
                continue;
            }
            if matches!(frame.guard, Guard::Start | Guard::Closed(_)) {
                frame.guard = Guard::Invalid;
            }
            if t.unterminated {
                let q = if t.kind == Kind::Char { '\'' } else { '"' };
                self.warning(
                    "preproc",
                    format!("missing terminating {q} character"),
                    Some(t.span()),
                );
            }
            return Some(t);
        }
    }

    fn end_frame(&mut self) {
        let Some(frame) = self.frames.pop() else {
            return;
        };
        for c in &frame.conds {
            self.error(
                "preproc",
                format!("unterminated {}", c.directive),
                Some(c.span),
            );
        }
        if let Guard::Closed(name) = frame.guard {
            self.guards.insert(frame.file, name);
        }
    }
}
