//! The C preprocessor of the warpsafe front end (first stage of the pipeline).
//!
//! Invariants:
//! - `preprocess` never fails and never panics: it returns the text it could
//!   produce plus diagnostics.
//! - Every byte of the output maps back to a span of an original file
//!   through [`LineMap`]; macro expansions map to the invocation's span.
//! - No I/O: included files are read through the caller's [`SourceLoader`].
//!
//! Module map: `lexer` (tokens) → `files` (file stack, runs `directives`,
//! `cond`, `include`, `headers`) → `expand` (macro expansion, with `subst`
//! and `macros`; `#if` values from `expr`) → `writer` (text and `line_map`),
//! driven by the loop in `state`.

mod cond;
mod directives;
mod expand;
mod expr;
mod files;
mod headers;
mod include;
mod lexer;
mod line_map;
mod macros;
mod state;
mod subst;
mod token;
mod writer;

pub use line_map::{LineMap, Segment};

use std::path::{Path, PathBuf};
use warpsafe_source::{Diagnostic, FileId, SourceMap, Span};

/// Reads files for `#include "..."`. The CLI implements it with the file system.
pub trait SourceLoader {
    /// The text of the file at `path`, or `None` when it cannot be read.
    fn load(&self, path: &Path) -> Option<String>;

    /// Why the file at `path`, which exists, must not be read (a device
    /// or a pipe, a file over a size limit), asked before
    /// [`SourceLoader::load`]; the `#include` is then an error that says
    /// so. `None` (the default): read it.
    fn refuse(&self, path: &Path) -> Option<String> {
        let _ = path;
        None
    }
}

/// Preprocessor settings, like nvcc's `-I`, `-D` and `-U`.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub include_dirs: Vec<PathBuf>,
    /// `-D NAME` (value `None`, meaning `1`) or `-D NAME=VALUE`, in order.
    pub defines: Vec<(String, Option<String>)>,
    /// `-U NAME`, applied after all `defines`.
    pub undefines: Vec<String>,
}

/// A macro defined at the end of preprocessing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MacroDef {
    pub name: String,
    /// Parameter names of a function-like macro (`__VA_ARGS__` for `...`);
    /// `None` for an object-like macro.
    pub params: Option<Vec<String>>,
    pub variadic: bool,
    /// The replacement list, spelled with single spaces.
    pub body: String,
    /// The name in its `#define` (`None` for predefined and `-D` macros).
    pub span: Option<Span>,
    /// A builtin whose value depends on where it is used (`__LINE__`, ...).
    pub dynamic: bool,
}

/// What the preprocessor produced.
#[derive(Debug)]
pub struct Output {
    pub text: String,
    pub map: LineMap,
    pub diagnostics: Vec<Diagnostic>,
    /// The macros defined when preprocessing ended, sorted by name.
    pub macros: Vec<MacroDef>,
}

impl Output {
    /// The definition of macro `name` at the end of preprocessing.
    pub fn macro_def(&self, name: &str) -> Option<&MacroDef> {
        self.macros
            .binary_search_by(|m| m.name.as_str().cmp(name))
            .ok()
            .and_then(|i| self.macros.get(i))
    }

    /// Whether `name` was a defined macro at the end of preprocessing.
    pub fn is_macro(&self, name: &str) -> bool {
        self.macro_def(name).is_some()
    }

    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Preprocess `main` (already registered in `sources`), registering every
/// included file (and built-in header) in `sources`.
pub fn preprocess(
    main: FileId,
    sources: &mut SourceMap,
    opts: &Options,
    loader: &dyn SourceLoader,
) -> Output {
    state::Pp::new(main, sources, opts, loader).run()
}

/// [`preprocess`] as nvcc does for a `.cu` file: the built-in
/// `<cuda_runtime.h>` is included before the main file's first line.
pub fn preprocess_cuda(
    main: FileId,
    sources: &mut SourceMap,
    opts: &Options,
    loader: &dyn SourceLoader,
) -> Output {
    let mut pp = state::Pp::new(main, sources, opts, loader);
    pp.implicit = vec!["cuda_runtime.h"];
    pp.run()
}
