//! S-expressions: the syntax of SMT-LIB2 commands, terms and solver answers.
//!
//! [`Sexp`] is either an atom (kept verbatim: a numeral, `#x0f`, a symbol,
//! a `|quoted symbol|`, a `"string"` with its quotes, a `:keyword`) or a list.
//! Printing (`Display`) and parsing are iterative, so deep terms do not
//! overflow the stack there; the derived `Clone`/`PartialEq`/`Drop` recurse,
//! so builders should prefer wide n-ary terms to very deep ones. The parser
//! rejects nesting deeper than [`MAX_DEPTH`].
//!
//! Invariant: parsing the printed form of a `Sexp` whose atoms are valid
//! SMT-LIB2 lexemes gives back the same `Sexp`.

use std::fmt;
use std::str::FromStr;

/// Lists nested deeper than this are rejected by the parser.
pub const MAX_DEPTH: usize = 10_000;

/// An SMT-LIB2 s-expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Sexp {
    /// A lexeme, verbatim (string literals keep their quotes).
    Atom(String),
    /// `( ... )`.
    List(Vec<Sexp>),
}

/// Text that is not a well-formed s-expression.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("malformed s-expression at byte {offset}: {message}")]
pub struct ParseError {
    /// Byte offset of the problem in the parsed text.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

impl Sexp {
    /// An atom, verbatim. The caller guarantees it is one SMT-LIB2 lexeme.
    pub fn atom(text: impl Into<String>) -> Sexp {
        Sexp::Atom(text.into())
    }

    /// A list of the given elements.
    pub fn list(items: impl IntoIterator<Item = Sexp>) -> Sexp {
        Sexp::List(items.into_iter().collect())
    }

    /// A symbol named `name`, written `|name|` when it is not a simple
    /// symbol. Returns `None` for names no SMT-LIB2 symbol can spell (empty,
    /// or containing `|` or `\`).
    pub fn symbol(name: &str) -> Option<Sexp> {
        if is_simple_symbol(name) {
            Some(Sexp::Atom(name.to_owned()))
        } else if name.is_empty() || name.contains(['|', '\\']) {
            None
        } else {
            Some(Sexp::Atom(format!("|{name}|")))
        }
    }

    /// A string literal (`"` inside is doubled, as SMT-LIB2 requires).
    pub fn string(text: &str) -> Sexp {
        Sexp::Atom(format!("\"{}\"", text.replace('"', "\"\"")))
    }

    /// The atom's text, if this is an atom.
    pub fn as_atom(&self) -> Option<&str> {
        match self {
            Sexp::Atom(a) => Some(a),
            Sexp::List(_) => None,
        }
    }

    /// The elements, if this is a list.
    pub fn as_list(&self) -> Option<&[Sexp]> {
        match self {
            Sexp::List(items) => Some(items),
            Sexp::Atom(_) => None,
        }
    }

    /// The content of a string literal atom (`"a ""b"""` gives `a "b"`).
    pub fn as_string_literal(&self) -> Option<String> {
        let inner = self.as_atom()?.strip_prefix('"')?.strip_suffix('"')?;
        Some(inner.replace("\"\"", "\""))
    }

    /// The name of a symbol atom, without `|...|` quotes.
    pub fn as_symbol(&self) -> Option<&str> {
        let a = self.as_atom()?;
        if let Some(inner) = a.strip_prefix('|').and_then(|s| s.strip_suffix('|')) {
            Some(inner)
        } else if is_simple_symbol(a) {
            Some(a)
        } else {
            None
        }
    }

    /// Parses all s-expressions in `text`.
    pub fn parse_all(text: &str) -> Result<Vec<Sexp>, ParseError> {
        let bytes = text.as_bytes();
        let mut out = Vec::new();
        let mut at = 0;
        while let Some((sexp, used)) = parse_prefix(&bytes[at..], true).map_err(|e| ParseError {
            offset: e.offset + at,
            message: e.message,
        })? {
            out.push(sexp);
            at += used;
        }
        Ok(out)
    }
}

impl FromStr for Sexp {
    type Err = ParseError;

    /// Parses exactly one s-expression.
    fn from_str(text: &str) -> Result<Sexp, ParseError> {
        let mut all = Sexp::parse_all(text)?;
        if all.len() != 1 {
            return Err(ParseError {
                offset: 0,
                message: format!("expected one s-expression, found {}", all.len()),
            });
        }
        Ok(all.pop().expect("invariant: length checked to be 1"))
    }
}

/// Whether `name` is an SMT-LIB2 simple symbol (needs no `|...|`).
pub fn is_simple_symbol(name: &str) -> bool {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) if is_symbol_char(c) && !c.is_ascii_digit() => chars.all(is_symbol_char),
        _ => false,
    }
}

fn is_symbol_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c)
}

impl fmt::Display for Sexp {
    /// Prints on one line: atoms verbatim, lists as `(a b c)`. Iterative.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Each frame: the remaining elements of a list being printed.
        let mut stack: Vec<std::slice::Iter<'_, Sexp>> = Vec::new();
        let mut next = Some(self);
        loop {
            if let Some(sexp) = next.take() {
                match sexp {
                    Sexp::Atom(a) => f.write_str(a)?,
                    Sexp::List(items) => {
                        f.write_str("(")?;
                        stack.push(items.iter());
                        // An opening paren is followed by no space.
                        match stack.last_mut().and_then(Iterator::next) {
                            Some(first) => next = Some(first),
                            None => {
                                stack.pop();
                                f.write_str(")")?;
                            }
                        }
                        continue;
                    }
                }
            }
            // Finished an element: continue with its next sibling, closing
            // every list that has run out.
            loop {
                let Some(frame) = stack.last_mut() else {
                    return Ok(());
                };
                if let Some(sibling) = frame.next() {
                    f.write_str(" ")?;
                    next = Some(sibling);
                    break;
                }
                stack.pop();
                f.write_str(")")?;
            }
        }
    }
}

/// Parses the first s-expression in `bytes`, skipping whitespace and `;`
/// comments before it. Returns the expression and the number of bytes
/// consumed, or `None` when `bytes` holds no complete expression yet (more
/// may arrive) or, with `at_eof`, holds nothing but whitespace/comments.
///
/// Without `at_eof`, an atom touching the end of `bytes` counts as
/// incomplete, since the next chunk could extend it.
pub fn parse_prefix(bytes: &[u8], at_eof: bool) -> Result<Option<(Sexp, usize)>, ParseError> {
    let err = |offset: usize, message: &str| ParseError {
        offset,
        message: message.to_owned(),
    };
    let text = |from: usize, to: usize| String::from_utf8_lossy(&bytes[from..to]).into_owned();
    let mut stack: Vec<Vec<Sexp>> = Vec::new();
    let mut i = 0;
    loop {
        let Some(&b) = bytes.get(i) else {
            return if stack.is_empty() || !at_eof {
                Ok(None)
            } else {
                Err(err(i, "unexpected end of input inside a list"))
            };
        };
        let done: Sexp = match b {
            b' ' | b'\t' | b'\n' | b'\r' => {
                i += 1;
                continue;
            }
            b';' => {
                match bytes[i..].iter().position(|&c| c == b'\n') {
                    Some(n) => i += n + 1,
                    None if at_eof => i = bytes.len(),
                    None => return Ok(None),
                }
                continue;
            }
            b'(' => {
                if stack.len() >= MAX_DEPTH {
                    return Err(err(i, "lists nested too deeply"));
                }
                stack.push(Vec::new());
                i += 1;
                continue;
            }
            b')' => {
                let Some(items) = stack.pop() else {
                    return Err(err(i, "unbalanced `)`"));
                };
                i += 1;
                Sexp::List(items)
            }
            b'"' => {
                let start = i;
                i += 1;
                loop {
                    match bytes.get(i) {
                        None if at_eof => return Err(err(start, "unterminated string literal")),
                        None => return Ok(None),
                        Some(b'"') if bytes.get(i + 1) == Some(&b'"') => i += 2,
                        // A closing quote at the very end might be the first
                        // half of an escaped `""`.
                        Some(b'"') if i + 1 == bytes.len() && !at_eof => return Ok(None),
                        Some(b'"') => {
                            i += 1;
                            break;
                        }
                        Some(_) => i += 1,
                    }
                }
                Sexp::Atom(text(start, i))
            }
            b'|' => {
                let start = i;
                match bytes[i + 1..].iter().position(|&c| c == b'|') {
                    Some(n) => i += n + 2,
                    None if at_eof => return Err(err(start, "unterminated quoted symbol")),
                    None => return Ok(None),
                }
                Sexp::Atom(text(start, i))
            }
            _ => {
                let start = i;
                while let Some(&c) = bytes.get(i) {
                    if matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'(' | b')' | b'"' | b';') {
                        break;
                    }
                    i += 1;
                }
                if i == bytes.len() && !at_eof {
                    return Ok(None);
                }
                Sexp::Atom(text(start, i))
            }
        };
        match stack.last_mut() {
            Some(items) => items.push(done),
            None => return Ok(Some((done, i))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> Sexp {
        text.parse().expect("test input parses")
    }

    #[test]
    fn prints_and_parses_round_trip() {
        let cases = [
            "sat",
            "()",
            "(a)",
            "((x (- 5)) (b #x0f) (p true))",
            "(error \"line 1: \"\"quoted\"\" (paren\")",
            "(declare-const |a b| (_ BitVec 32))",
            "(() (()) a)",
        ];
        for case in cases {
            assert_eq!(p(case).to_string(), case);
        }
    }

    #[test]
    fn parses_multiline_answers_with_comments() {
        let all = Sexp::parse_all("sat\n((x (- 5))\n ; note\n (b #x0f))\n").expect("parses");
        assert_eq!(all.len(), 2);
        assert_eq!(all[0], Sexp::atom("sat"));
        assert_eq!(all[1].to_string(), "((x (- 5)) (b #x0f))");
    }

    #[test]
    fn prefix_waits_for_more_input() {
        assert_eq!(parse_prefix(b"sa", false), Ok(None));
        assert_eq!(parse_prefix(b"((x 1)", false), Ok(None));
        assert_eq!(parse_prefix(b"(error \"a", false), Ok(None));
        assert_eq!(parse_prefix(b"(error \"a\"", false), Ok(None));
        assert_eq!(parse_prefix(b"  ", false), Ok(None));
        assert_eq!(
            parse_prefix(b"sat\n", false),
            Ok(Some((Sexp::atom("sat"), 3)))
        );
        assert_eq!(parse_prefix(b"sat", true), Ok(Some((Sexp::atom("sat"), 3))));
        assert_eq!(parse_prefix(b"  ; c", true), Ok(None));
    }

    #[test]
    fn rejects_malformed_text() {
        assert!(parse_prefix(b")", false).is_err());
        assert!(parse_prefix(b"(a", true).is_err());
        assert!(parse_prefix(b"\"abc", true).is_err());
        assert!("a b".parse::<Sexp>().is_err());
        let deep = "(".repeat(MAX_DEPTH + 1);
        assert!(parse_prefix(deep.as_bytes(), false).is_err());
    }

    #[test]
    fn string_literals_and_symbols() {
        assert_eq!(
            Sexp::string("say \"hi\"").as_string_literal().as_deref(),
            Some("say \"hi\"")
        );
        assert_eq!(Sexp::symbol("x_1"), Some(Sexp::atom("x_1")));
        assert_eq!(Sexp::symbol("a b"), Some(Sexp::atom("|a b|")));
        assert_eq!(Sexp::symbol("1x"), Some(Sexp::atom("|1x|")));
        assert_eq!(Sexp::symbol("a|b"), None);
        assert_eq!(Sexp::symbol(""), None);
        assert_eq!(Sexp::atom("|a b|").as_symbol(), Some("a b"));
    }

    #[test]
    fn deep_terms_print_without_recursion() {
        let mut t = Sexp::atom("x");
        for _ in 0..100_000 {
            t = Sexp::List(vec![Sexp::atom("-"), t]);
        }
        let printed = t.to_string();
        assert!(printed.starts_with("(- (- "));
        assert!(printed.trim_end_matches(')').ends_with("(- (- x"));
        assert_eq!(printed.len(), 100_000 * 4 + 1);
        // Dismantle iteratively: the derived Drop recurses.
        let mut cur = t;
        while let Sexp::List(mut items) = cur {
            cur = items.pop().unwrap_or(Sexp::atom(""));
        }
    }
}
