//! Rendering of diagnostics (and, later, verdicts) for people and programs.
//!
//! Invariant: rendering is pure; it writes into a `String` or a caller's
//! writer and never touches files or the terminal itself.

mod diagnostics;
mod json;

pub use diagnostics::{render_diagnostics, render_diagnostics_to};
pub use json::{diagnostic_json, JsonDiagnostic};
