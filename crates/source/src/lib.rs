//! Source files, byte spans and diagnostics: the vocabulary every stage of
//! warpsafe uses to point at the user's code.
//!
//! Invariants:
//! - A [`Span`] is a byte range into the *original* text of one [`SourceFile`]
//!   (never into preprocessed text); `lo <= hi <= text.len()`.
//! - [`FileId`]s are indices into the [`SourceMap`] that issued them.
//! - This crate does no I/O: files are registered with their text already read.

mod diagnostic;
mod map;

pub use diagnostic::{Diagnostic, Label, Severity};
pub use map::{FileId, Location, SourceFile, SourceMap, Span};
