//! The table of source files and the byte-span type that points into it.

use serde::Serialize;

/// Index of a file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct FileId(pub u32);

/// A byte range `lo..hi` in the original text of one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Span {
    pub file: FileId,
    pub lo: u32,
    pub hi: u32,
}

impl Span {
    pub fn new(file: FileId, lo: u32, hi: u32) -> Span {
        Span {
            file,
            lo,
            hi: hi.max(lo),
        }
    }

    /// The smallest span covering both, when they are in the same file;
    /// otherwise `self`.
    pub fn to(self, other: Span) -> Span {
        if self.file != other.file {
            return self;
        }
        Span::new(self.file, self.lo.min(other.lo), self.hi.max(other.hi))
    }
}

/// A human position: 1-based line and column (columns count characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Location {
    pub line: u32,
    pub col: u32,
}

/// One file as warpsafe read it.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The path as the user named it (or `<builtin>/NAME` for built-in headers).
    pub name: String,
    pub text: String,
    /// True for the tool's own built-in system headers.
    pub builtin: bool,
    line_starts: Vec<u32>,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>, builtin: bool) -> SourceFile {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i as u32 + 1),
        );
        SourceFile {
            name: name.into(),
            text,
            builtin,
            line_starts,
        }
    }

    /// Line and column of a byte offset (clamped to the text).
    pub fn location(&self, offset: u32) -> Location {
        let offset = offset.min(self.text.len() as u32);
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line] as usize;
        let mut end = offset as usize;
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let col = self.text[start..end].chars().count() as u32 + 1;
        Location {
            line: line as u32 + 1,
            col,
        }
    }

    /// Byte offset of the start of a 1-based line (clamped).
    pub fn line_start(&self, line: u32) -> u32 {
        let i = (line.max(1) as usize - 1).min(self.line_starts.len() - 1);
        self.line_starts[i]
    }

    /// The text of a 1-based line, without its newline.
    pub fn line_text(&self, line: u32) -> &str {
        let lo = self.line_start(line) as usize;
        let rest = &self.text[lo..];
        rest.split('\n').next().unwrap_or("").trim_end_matches('\r')
    }

    pub fn line_count(&self) -> u32 {
        self.line_starts.len() as u32
    }
}

/// All files of one run, addressed by [`FileId`].
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    pub fn add(&mut self, file: SourceFile) -> FileId {
        self.files.push(file);
        FileId(self.files.len() as u32 - 1)
    }

    /// Panics only on a `FileId` from another map, which is a programming error.
    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn get(&self, id: FileId) -> Option<&SourceFile> {
        self.files.get(id.0 as usize)
    }

    pub fn find(&self, name: &str) -> Option<FileId> {
        self.files
            .iter()
            .position(|f| f.name == name)
            .map(|i| FileId(i as u32))
    }

    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f))
    }

    /// `name:line:col` of the start of a span.
    pub fn describe(&self, span: Span) -> String {
        match self.get(span.file) {
            Some(f) => {
                let loc = f.location(span.lo);
                format!("{}:{}:{}", f.name, loc.line, loc.col)
            }
            None => "<unknown>".to_string(),
        }
    }

    pub fn location(&self, span: Span) -> Option<Location> {
        self.get(span.file).map(|f| f.location(span.lo))
    }

    /// The source text a span covers (empty if out of range).
    pub fn snippet(&self, span: Span) -> &str {
        self.get(span.file)
            .and_then(|f| f.text.get(span.lo as usize..span.hi as usize))
            .unwrap_or("")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_are_one_based_and_count_chars() {
        let f = SourceFile::new("a.cu", "ab\n\u{e9}x\n", false);
        assert_eq!(f.location(0), Location { line: 1, col: 1 });
        assert_eq!(f.location(3), Location { line: 2, col: 1 });
        // 'x' follows a two-byte character: column 2, not 3.
        assert_eq!(f.location(5), Location { line: 2, col: 2 });
        assert_eq!(f.line_text(2), "\u{e9}x");
        assert_eq!(f.location(999), Location { line: 3, col: 1 });
    }
}
