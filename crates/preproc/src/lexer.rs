//! Tokenizer for C/C++ source text (translation phases 1–3).
//!
//! Invariants:
//! - Works on the original text; token offsets are byte offsets into it and
//!   always fall on `char` boundaries (tokens start and end at ASCII bytes or
//!   after a complete run of non-ASCII bytes, which count as identifier bytes).
//! - Line splices (`\` + newline) are invisible: they join tokens and are
//!   removed from token spellings (except inside raw strings).
//! - Comments are whitespace. A newline inside a block comment does not start
//!   a new logical line (`bol` is unchanged), but line numbers count it.
//! - Never fails and never panics: anything unrecognised becomes a one-byte
//!   `Other` token; unterminated literals end at the end of the line.

use crate::token::{is_ident_continue, is_ident_start, Kind, Origin, Tok};
use std::rc::Rc;
use warpsafe_source::FileId;

pub(crate) struct Lexer {
    text: Rc<str>,
    pos: usize,
    line: u32,
    file: FileId,
    bol: bool,
    peeked: Option<Tok>,
    /// Byte offsets of `/*` that never got closed (drained by the caller).
    pub(crate) bad_comments: Vec<u32>,
}

/// Length of a line splice starting at `i` (0 when there is none).
fn splice_len(b: &[u8], i: usize) -> usize {
    if b.get(i) != Some(&b'\\') {
        return 0;
    }
    match b.get(i + 1) {
        Some(b'\n') => 2,
        Some(b'\r') if b.get(i + 2) == Some(&b'\n') => 3,
        _ => 0,
    }
}

fn count_nl(b: &[u8]) -> u32 {
    b.iter().filter(|&&c| c == b'\n').count() as u32
}

fn remove_splices(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        let n = splice_len(b, i);
        if n > 0 {
            out.push_str(s.get(start..i).unwrap_or(""));
            i += n;
            start = i;
        } else {
            i += 1;
        }
    }
    out.push_str(s.get(start..).unwrap_or(""));
    out
}

/// Length of the longest punctuator at the start of `b` (0 if none).
pub(crate) fn punct_len(b: &[u8]) -> usize {
    match b.first() {
        Some(&c0) => match_punct(c0, b.get(1).copied(), b.get(2).copied()),
        None => 0,
    }
}

fn match_punct(c0: u8, c1: Option<u8>, c2: Option<u8>) -> usize {
    if let (Some(c1), Some(c2)) = (c1, c2) {
        if matches!(&[c0, c1, c2], b"..." | b"<<=" | b">>=" | b"->*" | b"<=>") {
            return 3;
        }
    }
    if let Some(c1) = c1 {
        if matches!(
            &[c0, c1],
            b"##"
                | b"->"
                | b"++"
                | b"--"
                | b"<<"
                | b">>"
                | b"<="
                | b">="
                | b"=="
                | b"!="
                | b"&&"
                | b"||"
                | b"*="
                | b"/="
                | b"%="
                | b"+="
                | b"-="
                | b"&="
                | b"^="
                | b"|="
                | b"::"
                | b".*"
        ) {
            return 2;
        }
    }
    usize::from(b"{}[]();:?.,+-*/%^&|~!=<>#".contains(&c0))
}

/// Lex a whole string (used for `-D` values and predefined macros).
pub(crate) fn lex_str(text: &str, file: FileId) -> Vec<Tok> {
    let mut lx = Lexer::new(Rc::from(text), file);
    let mut out = Vec::new();
    while let Some(t) = lx.next_token() {
        out.push(t);
    }
    out
}

/// The kind of the single token `text` spells, if it is exactly one token.
pub(crate) fn lex_single(text: &str) -> Option<Kind> {
    let mut lx = Lexer::new(Rc::from(text), FileId(0));
    let t = lx.next_token()?;
    if t.space || t.unterminated || t.origin.lo != 0 || t.origin.hi as usize != text.len() {
        return None;
    }
    if lx.next_token().is_some() || !lx.bad_comments.is_empty() {
        return None;
    }
    Some(t.kind)
}

impl Lexer {
    pub(crate) fn new(text: Rc<str>, file: FileId) -> Lexer {
        let pos = if text.starts_with('\u{feff}') { 3 } else { 0 };
        Lexer {
            text,
            pos,
            line: 1,
            file,
            bol: true,
            peeked: None,
            bad_comments: Vec::new(),
        }
    }

    pub(crate) fn next_token(&mut self) -> Option<Tok> {
        if let Some(t) = self.peeked.take() {
            return Some(t);
        }
        self.lex()
    }

    /// The remaining tokens of the current logical line.
    pub(crate) fn rest_of_line(&mut self) -> Vec<Tok> {
        let mut out = Vec::new();
        while let Some(t) = self.next_token() {
            if t.bol {
                self.peeked = Some(t);
                break;
            }
            out.push(t);
        }
        out
    }

    /// The byte at raw index `i` after skipping line splices, with its index.
    fn at(&self, mut i: usize) -> Option<(u8, usize)> {
        let b = self.text.as_bytes();
        loop {
            let c = *b.get(i)?;
            let n = if c == b'\\' { splice_len(b, i) } else { 0 };
            if n == 0 {
                return Some((c, i));
            }
            i += n;
        }
    }

    fn lex(&mut self) -> Option<Tok> {
        let text = Rc::clone(&self.text);
        let b = text.as_bytes();
        let mut space = false;
        let c = loop {
            let c = *b.get(self.pos)?;
            match c {
                b'\n' => {
                    self.pos += 1;
                    self.line = self.line.saturating_add(1);
                    self.bol = true;
                    space = true;
                }
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                    self.pos += 1;
                    space = true;
                }
                b'\\' if splice_len(b, self.pos) > 0 => {
                    self.pos += splice_len(b, self.pos);
                    self.line = self.line.saturating_add(1);
                }
                b'/' => match self.at(self.pos + 1) {
                    Some((b'/', j)) => {
                        self.skip_line_comment(j + 1);
                        space = true;
                    }
                    Some((b'*', j)) => {
                        self.skip_block_comment(j + 1);
                        space = true;
                    }
                    _ => break c,
                },
                _ => break c,
            }
        };
        let lo = self.pos;
        let bol = std::mem::replace(&mut self.bol, false);
        let (kind, end, unterminated, raw) = self.scan(lo, c);
        let end = end.max(lo + 1).min(b.len());
        let slice = text.get(lo..end).unwrap_or("");
        let nl = count_nl(slice.as_bytes());
        let spelled: Rc<str> = if nl > 0 && !raw {
            Rc::from(remove_splices(slice))
        } else {
            Rc::from(slice)
        };
        let line = self.line;
        self.line = self.line.saturating_add(nl);
        self.pos = end;
        Some(Tok {
            kind,
            text: spelled,
            space,
            bol,
            noexpand: false,
            unterminated,
            origin: Origin {
                file: self.file,
                lo: lo as u32,
                hi: end as u32,
                line,
                verbatim: true,
            },
        })
    }

    fn skip_line_comment(&mut self, start: usize) {
        let b = self.text.as_bytes();
        let mut i = start;
        let end = loop {
            match b
                .get(i..)
                .and_then(|rest| rest.iter().position(|&c| c == b'\n'))
            {
                None => break b.len(),
                Some(off) => {
                    let nl = i + off;
                    let spliced = (nl >= 1 && b[nl - 1] == b'\\')
                        || (nl >= 2 && b[nl - 1] == b'\r' && b[nl - 2] == b'\\');
                    if spliced {
                        i = nl + 1;
                    } else {
                        break nl;
                    }
                }
            }
        };
        self.line = self
            .line
            .saturating_add(count_nl(b.get(self.pos..end).unwrap_or(&[])));
        self.pos = end;
    }

    fn skip_block_comment(&mut self, start: usize) {
        let b = self.text.as_bytes();
        let mut i = start;
        let end = loop {
            match b
                .get(i..)
                .and_then(|rest| rest.iter().position(|&c| c == b'*'))
            {
                None => {
                    self.bad_comments.push(self.pos as u32);
                    break b.len();
                }
                Some(off) => {
                    let star = i + off;
                    match self.at(star + 1) {
                        Some((b'/', m)) => break m + 1,
                        _ => i = star + 1,
                    }
                }
            }
        };
        self.line = self
            .line
            .saturating_add(count_nl(b.get(self.pos..end).unwrap_or(&[])));
        self.pos = end;
    }

    /// Scan one token starting at `lo` (whose first byte is `c`): its kind,
    /// end, whether it is unterminated, and whether it is a raw string.
    fn scan(&self, lo: usize, c: u8) -> (Kind, usize, bool, bool) {
        if is_ident_start(c) {
            let end = self.scan_ident(lo);
            if let Some((q, qi)) = self.at(end) {
                if q == b'"' || q == b'\'' {
                    let prefix = remove_splices(self.text.get(lo..end).unwrap_or(""));
                    let raw_prefix = matches!(prefix.as_str(), "R" | "LR" | "uR" | "UR" | "u8R");
                    if q == b'"' && raw_prefix {
                        if let Some((e, unterminated)) = self.scan_raw(qi) {
                            return (Kind::Str, e, unterminated, true);
                        }
                    }
                    if raw_prefix || matches!(prefix.as_str(), "L" | "u" | "U" | "u8") {
                        let (e, unterminated) = self.scan_quoted(qi, q);
                        let kind = if q == b'"' { Kind::Str } else { Kind::Char };
                        return (kind, e, unterminated, false);
                    }
                }
            }
            return (Kind::Ident, end, false, false);
        }
        if c.is_ascii_digit()
            || (c == b'.' && self.at(lo + 1).is_some_and(|(d, _)| d.is_ascii_digit()))
        {
            return (Kind::Number, self.scan_number(lo), false, false);
        }
        if c == b'"' || c == b'\'' {
            let (e, unterminated) = self.scan_quoted(lo, c);
            let kind = if c == b'"' { Kind::Str } else { Kind::Char };
            return (kind, e, unterminated, false);
        }
        let c1 = self.at(lo + 1);
        let c2 = c1.and_then(|(_, i)| self.at(i + 1));
        match match_punct(c, c1.map(|x| x.0), c2.map(|x| x.0)) {
            3 => (Kind::Punct, c2.map_or(lo + 1, |x| x.1 + 1), false, false),
            2 => (Kind::Punct, c1.map_or(lo + 1, |x| x.1 + 1), false, false),
            1 => (Kind::Punct, lo + 1, false, false),
            _ => (Kind::Other, lo + 1, false, false),
        }
    }

    fn scan_ident(&self, mut p: usize) -> usize {
        while let Some((c, i)) = self.at(p) {
            if !is_ident_continue(c) {
                break;
            }
            p = i + 1;
        }
        p
    }

    fn scan_number(&self, mut p: usize) -> usize {
        while let Some((c, i)) = self.at(p) {
            if matches!(c, b'e' | b'E' | b'p' | b'P') {
                if let Some((s, j)) = self.at(i + 1) {
                    if s == b'+' || s == b'-' {
                        p = j + 1;
                        continue;
                    }
                }
            }
            if is_ident_continue(c) || c == b'.' {
                p = i + 1;
            } else if c == b'\'' {
                match self.at(i + 1) {
                    Some((d, j)) if is_ident_continue(d) => p = j + 1,
                    _ => break,
                }
            } else {
                break;
            }
        }
        p
    }

    /// A `"` or `'` literal whose opening quote is at `qi`.
    fn scan_quoted(&self, qi: usize, quote: u8) -> (usize, bool) {
        let len = self.text.len();
        let mut p = qi + 1;
        loop {
            match self.at(p) {
                None => return (len, true),
                Some((b'\n', i)) => return (i, true),
                Some((b'\\', i)) => match self.at(i + 1) {
                    None => return (len, true),
                    Some((b'\n', j)) => return (j, true),
                    Some((_, j)) => p = j + 1,
                },
                Some((c, i)) if c == quote => return (self.ud_suffix(i + 1), false),
                Some((_, i)) => p = i + 1,
            }
        }
    }

    /// A raw string whose `"` is at `qi`; `None` when the delimiter is invalid.
    fn scan_raw(&self, qi: usize) -> Option<(usize, bool)> {
        let b = self.text.as_bytes();
        let mut k = qi + 1;
        loop {
            let c = *b.get(k)?;
            if c == b'(' {
                break;
            }
            if k - qi > 16 || matches!(c, b' ' | b')' | b'\\' | b'"') || !(0x20..0x7f).contains(&c)
            {
                return None;
            }
            k += 1;
        }
        let delim = self.text.get(qi + 1..k)?;
        let needle = format!("){delim}\"");
        match self.text.get(k + 1..).and_then(|rest| rest.find(&needle)) {
            Some(off) => Some((self.ud_suffix(k + 1 + off + needle.len()), false)),
            None => Some((self.text.len(), true)),
        }
    }

    /// Extend a literal ending at `end` by a user-defined-literal suffix
    /// (only `_suffix`, `s` and `sv`, so `"%d"PRId64` stays two tokens).
    fn ud_suffix(&self, end: usize) -> usize {
        match self.at(end) {
            Some((c, _)) if is_ident_start(c) => {
                let e = self.scan_ident(end);
                let suffix = self.text.get(end..e).unwrap_or("");
                if c == b'_' || suffix == "s" || suffix == "sv" {
                    e
                } else {
                    end
                }
            }
            _ => end,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lex(s: &str) -> Vec<(Kind, String)> {
        lex_str(s, FileId(0))
            .into_iter()
            .map(|t| (t.kind, t.text.to_string()))
            .collect()
    }

    fn texts(s: &str) -> Vec<String> {
        lex(s).into_iter().map(|(_, t)| t).collect()
    }

    #[test]
    fn identifiers_numbers_and_puncts() {
        assert_eq!(
            texts("int x1 = 1.0e-3f + 0x1Fu; a->b <<= c...d"),
            vec![
                "int", "x1", "=", "1.0e-3f", "+", "0x1Fu", ";", "a", "->", "b", "<<=", "c", "...",
                "d"
            ]
        );
        assert_eq!(
            texts("k<<<g, b>>>(p)"),
            vec!["k", "<<", "<", "g", ",", "b", ">>", ">", "(", "p", ")"]
        );
        assert_eq!(
            texts(".5 1'000'000 0x1p-3"),
            vec![".5", "1'000'000", "0x1p-3"]
        );
    }

    #[test]
    fn literals() {
        let toks = lex(r#""a\"b" 'c' L"w" u8"x" '\'' "unterminated"#);
        assert_eq!(toks[0], (Kind::Str, r#""a\"b""#.to_string()));
        assert_eq!(toks[1], (Kind::Char, "'c'".to_string()));
        assert_eq!(toks[2], (Kind::Str, "L\"w\"".to_string()));
        assert_eq!(toks[3], (Kind::Str, "u8\"x\"".to_string()));
        assert_eq!(toks[4], (Kind::Char, r"'\''".to_string()));
        let all = lex_str("\"abc\nx", FileId(0));
        assert!(all[0].unterminated);
        assert_eq!(&*all[1].text, "x");
        assert_eq!(texts("R\"xy(a)\"b)xy\" z"), vec!["R\"xy(a)\"b)xy\"", "z"]);
        assert_eq!(texts("\"%d\"PRId64"), vec!["\"%d\"", "PRId64"]);
        assert_eq!(texts("\"s\"_km"), vec!["\"s\"_km"]);
    }

    #[test]
    fn comments_and_splices() {
        assert_eq!(texts("a /* x\ny */ b // c \\\n d\ne"), vec!["a", "b", "e"]);
        assert_eq!(texts("ab\\\ncd"), vec!["abcd"]);
        let toks = lex_str("a\n  /* c\n */ #b\n", FileId(0));
        assert!(toks[1].bol, "a block comment keeps the line start");
        assert_eq!(toks[2].origin.line, 3);
        let spliced = lex_str("x \\\n y", FileId(0));
        assert!(!spliced[1].bol);
        assert_eq!(spliced[1].origin.line, 2);
    }

    #[test]
    fn rest_of_line_stops_at_newline() {
        let mut lx = Lexer::new(Rc::from("# define X 1 \\\n + 2\nint"), FileId(0));
        let hash = lx.next_token().expect("invariant: text has tokens");
        assert!(hash.bol && hash.is_punct("#"));
        let line: Vec<String> = lx
            .rest_of_line()
            .iter()
            .map(|t| t.text.to_string())
            .collect();
        assert_eq!(line, vec!["define", "X", "1", "+", "2"]);
        let next = lx.next_token().expect("invariant: `int` follows");
        assert!(next.bol && next.is_ident("int"));
    }

    #[test]
    fn single_token_check() {
        assert_eq!(lex_single("ab"), Some(Kind::Ident));
        assert_eq!(lex_single("+="), Some(Kind::Punct));
        assert_eq!(lex_single("+-"), None);
        assert_eq!(lex_single("//"), None);
        assert_eq!(punct_len(b"<<<"), 2);
    }
}
