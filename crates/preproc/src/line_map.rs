//! Maps byte offsets of the preprocessed text back to spans of original files.
//!
//! Invariants:
//! - `segments` are sorted by `out_lo` and do not overlap
//!   (`out_lo < out_hi <= next.out_lo`).
//! - A verbatim segment maps byte for byte: `out_hi - out_lo == src_hi - src_lo`
//!   and output byte `out_lo + k` is source byte `src_lo + k` of `file`.
//! - An expansion (non-verbatim) segment maps all of its bytes to the whole
//!   `src_lo..src_hi`: the outermost macro invocation.
//! - Output bytes between segments are synthesized whitespace; a range that
//!   starts there maps to the next segment's start, one that ends there to the
//!   previous segment's end.
//! - Lookups are `O(log n)` and never panic, whatever offsets they get.

use warpsafe_source::{FileId, Span};

/// One run of output bytes with a single origin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    pub out_lo: u32,
    pub out_hi: u32,
    pub file: FileId,
    pub src_lo: u32,
    pub src_hi: u32,
    /// True when the bytes are copied from `file`; false for a macro expansion.
    pub verbatim: bool,
}

/// Maps byte offsets of the preprocessed text back to original spans.
#[derive(Clone, Debug)]
pub struct LineMap {
    main: FileId,
    segments: Vec<Segment>,
}

impl Default for LineMap {
    fn default() -> LineMap {
        LineMap::new(FileId(0))
    }
}

impl LineMap {
    pub(crate) fn new(main: FileId) -> LineMap {
        LineMap {
            main,
            segments: Vec::new(),
        }
    }

    pub(crate) fn push(&mut self, seg: Segment) {
        self.segments.push(seg);
    }

    pub(crate) fn last_mut(&mut self) -> Option<&mut Segment> {
        self.segments.last_mut()
    }

    /// The segments, sorted by output offset.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// The original span of the output byte range `lo..hi`.
    pub fn span(&self, lo: u32, hi: u32) -> Span {
        let (lo, hi) = if lo <= hi { (lo, hi) } else { (hi, lo) };
        let Some((file, start, seg)) = self.start(lo) else {
            return Span::new(self.main, 0, 0);
        };
        if hi == lo {
            return Span::new(file, start, start);
        }
        let Some((efile, end)) = self.end(hi) else {
            return Span::new(file, start, start);
        };
        if efile == file {
            Span::new(file, start.min(end), start.max(end))
        } else {
            Span::new(file, start, seg.src_hi.max(start))
        }
    }

    /// True when output byte `out` was produced by a macro expansion.
    pub fn is_expansion(&self, out: u32) -> bool {
        self.containing(out).is_some_and(|s| !s.verbatim)
    }

    /// The segment that contains output byte `out`, if any.
    pub fn containing(&self, out: u32) -> Option<&Segment> {
        let i = self.segments.partition_point(|s| s.out_lo <= out);
        let seg = self.segments.get(i.checked_sub(1)?)?;
        (out < seg.out_hi).then_some(seg)
    }

    /// Where a range starting at `out` begins, and the segment used.
    fn start(&self, out: u32) -> Option<(FileId, u32, Segment)> {
        let i = self.segments.partition_point(|s| s.out_lo <= out);
        let Some(prev) = i.checked_sub(1).and_then(|k| self.segments.get(k)) else {
            let first = self.segments.first()?;
            return Some((first.file, first.src_lo, *first));
        };
        if out < prev.out_hi {
            let pos = if prev.verbatim {
                prev.src_lo + (out - prev.out_lo)
            } else {
                prev.src_lo
            };
            return Some((prev.file, pos, *prev));
        }
        match self.segments.get(i) {
            Some(next) if next.file == prev.file => Some((next.file, next.src_lo, *next)),
            _ => Some((prev.file, prev.src_hi, *prev)),
        }
    }

    /// Where a range ending (exclusively) at `out > 0` ends.
    fn end(&self, out: u32) -> Option<(FileId, u32)> {
        let last = out.checked_sub(1)?;
        let i = self.segments.partition_point(|s| s.out_lo <= last);
        let Some(seg) = i.checked_sub(1).and_then(|k| self.segments.get(k)) else {
            let first = self.segments.first()?;
            return Some((first.file, first.src_lo));
        };
        if last < seg.out_hi && seg.verbatim {
            Some((seg.file, seg.src_lo + (out - seg.out_lo)))
        } else {
            Some((seg.file, seg.src_hi))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map() -> LineMap {
        let f = FileId(0);
        let mut m = LineMap::new(f);
        // "ab MAC cd": "ab" verbatim at src 10, "XYZ" from an invocation at 20..25.
        m.push(Segment {
            out_lo: 0,
            out_hi: 2,
            file: f,
            src_lo: 10,
            src_hi: 12,
            verbatim: true,
        });
        m.push(Segment {
            out_lo: 3,
            out_hi: 6,
            file: f,
            src_lo: 20,
            src_hi: 25,
            verbatim: false,
        });
        m.push(Segment {
            out_lo: 7,
            out_hi: 9,
            file: f,
            src_lo: 30,
            src_hi: 32,
            verbatim: true,
        });
        m
    }

    #[test]
    fn verbatim_and_expansion_lookups() {
        let m = map();
        assert_eq!(m.span(0, 2), Span::new(FileId(0), 10, 12));
        assert_eq!(m.span(1, 2), Span::new(FileId(0), 11, 12));
        assert_eq!(m.span(3, 6), Span::new(FileId(0), 20, 25));
        assert_eq!(m.span(4, 5), Span::new(FileId(0), 20, 25));
        assert_eq!(m.span(0, 9), Span::new(FileId(0), 10, 32));
        assert_eq!(m.span(2, 3), Span::new(FileId(0), 12, 20));
        assert!(m.is_expansion(4));
        assert!(!m.is_expansion(0));
        // Out-of-range offsets never panic.
        let _ = m.span(100, 1000);
        let _ = m.span(u32::MAX, 0);
        assert_eq!(LineMap::default().span(3, 4), Span::new(FileId(0), 0, 0));
    }
}
