//! What the front end's integration tests share: compiling one in-memory
//! file with no other files to include.

use warpsafe_frontend::{compile, Options, SourceLoader};
use warpsafe_ir::Kernel;
use warpsafe_source::{SourceFile, SourceMap};

/// A loader that finds no file (every `#include "..."` is missing).
pub struct NoFiles;

impl SourceLoader for NoFiles {
    fn load(&self, _: &std::path::Path) -> Option<String> {
        None
    }
}

/// The kernels of `text` (as file `a.cu`) and the messages of its
/// diagnostics.
pub fn lower(text: &str) -> (Vec<Kernel>, Vec<String>) {
    let mut sources = SourceMap::new();
    let main = sources.add(SourceFile::new("a.cu", text.to_string(), false));
    let out = compile(main, &mut sources, &Options::default(), &NoFiles);
    let messages = out.diagnostics.iter().map(|d| d.message.clone()).collect();
    (out.module.kernels, messages)
}

/// The launch relation of the first kernel of `text`, printed; `None`
/// when its launches give none.
#[allow(dead_code)] // Not every test file reads relations.
pub fn first_relation(text: &str) -> Option<String> {
    let (kernels, messages) = lower(text);
    let k = kernels
        .first()
        .unwrap_or_else(|| panic!("no kernel: {messages:?}"));
    k.launch
        .relation
        .as_ref()
        .map(|r| warpsafe_ir::print_expr(k, r))
}
