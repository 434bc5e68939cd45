//! Diagnostics as JSON objects with resolved file, line and column.

use serde::Serialize;
use warpsafe_source::{Diagnostic, Severity, SourceMap};

#[derive(Clone, Debug, Serialize)]
pub struct JsonDiagnostic {
    pub severity: Severity,
    pub code: &'static str,
    pub message: String,
    pub file: Option<String>,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub notes: Vec<String>,
}

pub fn diagnostic_json(sources: &SourceMap, d: &Diagnostic) -> JsonDiagnostic {
    let file = d
        .span
        .and_then(|s| sources.get(s.file))
        .map(|f| f.name.clone());
    let loc = d.span.and_then(|s| sources.location(s));
    JsonDiagnostic {
        severity: d.severity,
        code: d.code,
        message: d.message.clone(),
        file,
        line: loc.map(|l| l.line),
        column: loc.map(|l| l.col),
        notes: d.notes.clone(),
    }
}
