//! Builds the preprocessed text token by token and records the [`LineMap`].
//!
//! Invariants:
//! - Within one file, output newlines follow the original physical lines: a
//!   token on a later line than the previous one is preceded by as many
//!   newlines, so directive lines and skipped blocks become empty lines.
//! - Between two verbatim tokens of the same file separated only by
//!   whitespace, the original whitespace is copied, and their segments merge
//!   into one byte-precise segment.
//! - Synthesized separators never let two tokens lex as one (`needs_space`).
//! - Every emitted token is covered by exactly one segment.

use crate::line_map::{LineMap, Segment};
use crate::token::{needs_space, Kind, Tok};
use std::rc::Rc;
use warpsafe_source::FileId;

struct Prev {
    kind: Kind,
    text: Rc<str>,
    file: FileId,
    src_hi: u32,
    exact: bool,
}

pub(crate) struct Writer {
    pub text: String,
    pub map: LineMap,
    /// Files being written, innermost last, with the current line in each.
    stack: Vec<(FileId, u32)>,
    at_bol: bool,
    prev: Option<Prev>,
}

fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

fn count_nl(s: &str) -> u32 {
    s.bytes().filter(|&c| c == b'\n').count() as u32
}

/// The blanks between the start of the line holding `lo` and `lo`, when only
/// blanks precede `lo` on that line.
fn indentation(src: &str, lo: u32) -> &str {
    let b = src.as_bytes();
    let lo = (lo as usize).min(b.len());
    let mut i = lo;
    while i > 0 && matches!(b.get(i - 1), Some(b' ' | b'\t')) {
        i -= 1;
    }
    if i == 0 || b.get(i - 1) == Some(&b'\n') {
        src.get(i..lo).unwrap_or("")
    } else {
        ""
    }
}

impl Writer {
    pub fn new(main: FileId) -> Writer {
        Writer {
            text: String::new(),
            map: LineMap::new(main),
            stack: vec![(main, 1)],
            at_bol: true,
            prev: None,
        }
    }

    fn switch_file(&mut self, file: FileId) {
        match self.stack.last() {
            Some(&(top, _)) if top == file => return,
            None => {
                self.stack.push((file, 1));
                return;
            }
            Some(_) => {}
        }
        if !self.at_bol {
            self.text.push('\n');
            self.at_bol = true;
        }
        self.prev = None;
        if let Some(pos) = self.stack.iter().rposition(|&(f, _)| f == file) {
            // Back in an including file: the included text took the place of
            // the line after the last one written here.
            self.stack.truncate(pos + 1);
            if let Some(top) = self.stack.last_mut() {
                top.1 += 1;
            }
        } else {
            self.stack.push((file, 1));
        }
    }

    /// Append `t`; `src` is the text of the file `t.origin` points into.
    pub fn emit(&mut self, t: &Tok, src: Option<&str>) {
        if t.text.is_empty() {
            return;
        }
        let o = t.origin;
        self.switch_file(o.file);
        let cur_line = self.stack.last().map_or(1, |s| s.1);
        let exact = o.verbatim && o.hi >= o.lo && t.text.len() == (o.hi - o.lo) as usize;
        let mut contiguous = false;
        if let (true, Some(p), Some(src)) = (exact, &self.prev, src) {
            if p.exact && p.file == o.file && p.src_hi <= o.lo && o.line >= cur_line {
                if let Some(gap) = src.get(p.src_hi as usize..o.lo as usize) {
                    if gap.bytes().all(is_ws) && count_nl(gap) == o.line - cur_line {
                        self.text.push_str(gap);
                        contiguous = true;
                    }
                }
            }
        }
        if !contiguous {
            if o.line > cur_line {
                self.text
                    .extend(std::iter::repeat_n('\n', (o.line - cur_line) as usize));
                self.at_bol = true;
            }
            if self.at_bol {
                if let Some(src) = src {
                    self.text.push_str(indentation(src, o.lo));
                }
            } else if t.space
                || self
                    .prev
                    .as_ref()
                    .is_some_and(|p| needs_space(p.kind, &p.text, t.kind, &t.text))
            {
                self.text.push(' ');
            }
        }
        let out_lo = self.text.len() as u32;
        self.text.push_str(&t.text);
        let out_hi = self.text.len() as u32;
        self.record(out_lo, out_hi, t, exact, contiguous);
        if let Some(top) = self.stack.last_mut() {
            top.1 = o.line.max(cur_line).saturating_add(count_nl(&t.text));
        }
        self.at_bol = false;
        self.prev = Some(Prev {
            kind: t.kind,
            text: Rc::clone(&t.text),
            file: o.file,
            src_hi: o.hi,
            exact,
        });
    }

    fn record(&mut self, out_lo: u32, out_hi: u32, t: &Tok, exact: bool, contiguous: bool) {
        let o = t.origin;
        if exact {
            if contiguous {
                if let Some(last) = self.map.last_mut() {
                    last.out_hi = out_hi;
                    last.src_hi = o.hi;
                    return;
                }
            }
            self.map.push(Segment {
                out_lo,
                out_hi,
                file: o.file,
                src_lo: o.lo,
                src_hi: o.hi,
                verbatim: true,
            });
            return;
        }
        let src_hi = o.hi.max(o.lo);
        if let Some(last) = self.map.last_mut() {
            if !last.verbatim && last.file == o.file && last.src_lo == o.lo && last.src_hi == src_hi
            {
                last.out_hi = out_hi;
                return;
            }
        }
        self.map.push(Segment {
            out_lo,
            out_hi,
            file: o.file,
            src_lo: o.lo,
            src_hi,
            verbatim: false,
        });
    }
}
