//! Preprocessing tokens, their origins, and spelling helpers shared by the
//! lexer, the expander and the output writer.
//!
//! Invariants:
//! - `Tok::origin` always names a byte range of an original file: a token read
//!   from a file carries its own bytes (`verbatim == true`); a token produced
//!   by a macro expansion carries the span of the outermost invocation
//!   (`verbatim == false`).
//! - `Tok::text` is the spelling with line splices removed; only `Eof` and
//!   `Placemarker` tokens have empty text, and neither reaches the output.

use crate::lexer::punct_len;
use std::rc::Rc;
use warpsafe_source::{FileId, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Ident,
    Number,
    /// A string literal (any prefix, raw or not, with its suffix).
    Str,
    /// A character literal.
    Char,
    Punct,
    /// A stray character that is no valid token start (`@`, a lone `\`, ...).
    Other,
    /// End of an included file (a marker that stops macro-argument collection).
    Eof,
    /// The empty operand of `##` during substitution.
    Placemarker,
}

/// Where a token maps in the original sources.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Origin {
    pub file: FileId,
    pub lo: u32,
    pub hi: u32,
    /// 1-based physical line of `lo`.
    pub line: u32,
    /// True for a token read straight from `file` (not from an expansion).
    pub verbatim: bool,
}

impl Origin {
    pub fn span(&self) -> Span {
        Span::new(self.file, self.lo, self.hi)
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Tok {
    pub kind: Kind,
    pub text: Rc<str>,
    /// Whitespace (or a comment) precedes the token.
    pub space: bool,
    /// First token of a logical line (only meaningful for lexed tokens).
    pub bol: bool,
    /// "Painted blue": this identifier must never be macro-expanded.
    pub noexpand: bool,
    /// A string or character literal without its closing quote.
    pub unterminated: bool,
    pub origin: Origin,
}

impl Tok {
    pub fn synthetic(kind: Kind, text: &str, origin: Origin, space: bool) -> Tok {
        Tok {
            kind,
            text: Rc::from(text),
            space,
            bol: false,
            noexpand: false,
            unterminated: false,
            origin,
        }
    }

    pub fn is_punct(&self, s: &str) -> bool {
        self.kind == Kind::Punct && &*self.text == s
    }

    pub fn is_ident(&self, s: &str) -> bool {
        self.kind == Kind::Ident && &*self.text == s
    }

    pub fn span(&self) -> Span {
        self.origin.span()
    }
}

pub(crate) fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c >= 0x80
}

pub(crate) fn is_ident_continue(c: u8) -> bool {
    is_ident_start(c) || c.is_ascii_digit()
}

/// `s` as a C string literal (quotes added, `"`, `\` and newlines escaped).
pub(crate) fn quote_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Whether printing `next` right after `prev` (no whitespace) would lex
/// differently from the two tokens, so that a space must separate them.
pub(crate) fn needs_space(pk: Kind, prev: &str, nk: Kind, next: &str) -> bool {
    let (Some(&a), Some(&b)) = (prev.as_bytes().last(), next.as_bytes().first()) else {
        return false;
    };
    if is_ident_continue(a) && is_ident_continue(b) {
        return true;
    }
    if a == b'/' && (b == b'/' || b == b'*') {
        return true;
    }
    match (pk, nk) {
        (Kind::Number, _) if b == b'.' || b == b'\'' => true,
        (Kind::Number, _) if matches!(a, b'e' | b'E' | b'p' | b'P') && matches!(b, b'+' | b'-') => {
            true
        }
        (_, Kind::Number) if a == b'.' => true,
        (Kind::Ident, Kind::Str | Kind::Char) => true,
        (Kind::Str | Kind::Char, Kind::Ident) => true,
        (Kind::Punct, Kind::Punct) => {
            let mut joined = Vec::with_capacity(prev.len() + next.len());
            joined.extend_from_slice(prev.as_bytes());
            joined.extend_from_slice(next.as_bytes());
            punct_len(&joined) != prev.len()
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spacing_rules() {
        assert!(needs_space(Kind::Ident, "a", Kind::Ident, "b"));
        assert!(needs_space(Kind::Punct, "+", Kind::Punct, "+"));
        assert!(needs_space(Kind::Punct, "-", Kind::Punct, ">"));
        assert!(!needs_space(Kind::Punct, "<<", Kind::Punct, "<"));
        assert!(!needs_space(Kind::Punct, ">>", Kind::Punct, ">"));
        assert!(!needs_space(Kind::Punct, "(", Kind::Ident, "x"));
        assert!(needs_space(Kind::Punct, "/", Kind::Punct, "/"));
        assert!(needs_space(Kind::Number, "1", Kind::Punct, "."));
        assert!(needs_space(Kind::Ident, "L", Kind::Str, "\"x\""));
        assert_eq!(quote_string("a\"b\\c"), "\"a\\\"b\\\\c\"");
    }
}
