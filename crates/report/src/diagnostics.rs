//! Source diagnostics with excerpts (`file:line:col`, the line, a caret),
//! rendered with codespan-reporting.

use codespan_reporting::diagnostic::{
    Diagnostic as CsDiagnostic, Label as CsLabel, Severity as CsSeverity,
};
use codespan_reporting::files::{Error as FilesError, Files};
use codespan_reporting::term::{self, termcolor::WriteColor, Config};
use std::ops::Range;
use warpsafe_source::{Diagnostic, FileId, Severity, SourceMap};

/// Adapts a [`SourceMap`] to codespan-reporting's file database.
struct Db<'a>(&'a SourceMap);

impl<'a> Files<'a> for Db<'a> {
    type FileId = FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<&'a str, FilesError> {
        self.0
            .get(id)
            .map(|f| f.name.as_str())
            .ok_or(FilesError::FileMissing)
    }

    fn source(&'a self, id: FileId) -> Result<&'a str, FilesError> {
        self.0
            .get(id)
            .map(|f| f.text.as_str())
            .ok_or(FilesError::FileMissing)
    }

    fn line_index(&'a self, id: FileId, byte_index: usize) -> Result<usize, FilesError> {
        let f = self.0.get(id).ok_or(FilesError::FileMissing)?;
        Ok(f.location(byte_index as u32).line as usize - 1)
    }

    fn line_range(&'a self, id: FileId, line_index: usize) -> Result<Range<usize>, FilesError> {
        let f = self.0.get(id).ok_or(FilesError::FileMissing)?;
        let count = f.line_count() as usize;
        if line_index >= count {
            return Err(FilesError::LineTooLarge {
                given: line_index,
                max: count.saturating_sub(1),
            });
        }
        let lo = f.line_start(line_index as u32 + 1) as usize;
        let hi = if line_index + 1 < count {
            f.line_start(line_index as u32 + 2) as usize
        } else {
            f.text.len()
        };
        Ok(lo..hi)
    }
}

fn convert(d: &Diagnostic, sources: &SourceMap) -> CsDiagnostic<FileId> {
    let severity = match d.severity {
        Severity::Error => CsSeverity::Error,
        Severity::Warning => CsSeverity::Warning,
        Severity::Note => CsSeverity::Note,
    };
    let mut labels = Vec::new();
    if let Some(span) = d.span.filter(|s| sources.get(s.file).is_some()) {
        labels.push(CsLabel::primary(span.file, clamp(sources, span)));
    }
    for l in &d.labels {
        if sources.get(l.span.file).is_some() {
            labels.push(
                CsLabel::secondary(l.span.file, clamp(sources, l.span))
                    .with_message(l.message.clone()),
            );
        }
    }
    CsDiagnostic::new(severity)
        .with_code(d.code)
        .with_message(d.message.clone())
        .with_labels(labels)
        .with_notes(d.notes.clone())
}

/// A span's byte range, clamped to its file and to character boundaries.
fn clamp(sources: &SourceMap, span: warpsafe_source::Span) -> Range<usize> {
    let text = &sources.file(span.file).text;
    let mut lo = (span.lo as usize).min(text.len());
    let mut hi = (span.hi as usize).min(text.len()).max(lo);
    while !text.is_char_boundary(lo) {
        lo -= 1;
    }
    while !text.is_char_boundary(hi) {
        hi += 1;
    }
    lo..hi
}

/// Renders diagnostics into a writer (colour when the writer supports it).
pub fn render_diagnostics_to(out: &mut dyn WriteColor, sources: &SourceMap, diags: &[Diagnostic]) {
    let config = Config::default();
    let db = Db(sources);
    for d in diags {
        // Rendering errors (a span outside its file) fall back to one line.
        if term::emit_to_write_style(out, &config, &db, &convert(d, sources)).is_err() {
            let _ = writeln!(out, "{}: {}", d.code, d.message);
        }
    }
}

/// Renders diagnostics as plain text.
pub fn render_diagnostics(sources: &SourceMap, diags: &[Diagnostic]) -> String {
    let mut buf = codespan_reporting::term::termcolor::NoColor::new(Vec::new());
    render_diagnostics_to(&mut buf, sources, diags);
    String::from_utf8_lossy(&buf.into_inner()).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpsafe_source::{SourceFile, Span};

    #[test]
    fn renders_location_excerpt_and_notes() {
        let mut map = SourceMap::new();
        let id = map.add(SourceFile::new("k.cu", "int x;\ngoto out;\n", false));
        let d = Diagnostic::error("unsupported", "unsupported: `goto`")
            .at(Span::new(id, 7, 16))
            .with_note("kernel `k` was not lowered");
        let text = render_diagnostics(&map, &[d]);
        assert!(
            text.contains("error[unsupported]: unsupported: `goto`"),
            "{text}"
        );
        assert!(text.contains("k.cu:2:1"), "{text}");
        assert!(text.contains("goto out;"), "{text}");
        assert!(text.contains("kernel `k` was not lowered"), "{text}");
    }

    #[test]
    fn spans_past_the_end_do_not_panic() {
        let mut map = SourceMap::new();
        let id = map.add(SourceFile::new("k.cu", "ab", false));
        let d = Diagnostic::error("x", "y").at(Span::new(id, 50, 90));
        assert!(render_diagnostics(&map, &[d]).contains("error[x]"));
    }
}
