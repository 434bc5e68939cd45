//! The program's other source files (issue 9): cuda-samples put a
//! kernel's launch in an `extern "C"` wrapper of `kernel.cu` that only
//! `main.cpp` calls, `cudaUpdateHeightmapKernel(d_h, d_ht, meshSize,
//! meshSize, false)` with `const unsigned int meshSize = 256;`. The
//! callers' constants (`launch_relation/callers.rs`) are then read from
//! those files: the command line names them (the other `.cu`, `.cpp`,
//! `.cc`, `.cxx` and `.c` files of the file's directory, when it holds a
//! few, as one program's does), and they are parsed here, only when a
//! launching function is one that the file itself never calls.
//!
//! **Invariant:** a companion contributes calls only for a function it
//! declares and does not define; one that cannot be read or parsed
//! contributes nothing (as a file not named does not). Its diagnostics
//! are dropped: it is host code, read for its calls alone.

use crate::syntax::Syntax;
use std::path::PathBuf;
use warpsafe_preproc::{Options as PreprocOptions, SourceLoader};
use warpsafe_source::{SourceFile, SourceMap};

/// Parses each of `paths` that can be read, preprocessed as the main file
/// is.
pub(crate) fn parse(
    paths: &[PathBuf],
    sources: &mut SourceMap,
    opts: &PreprocOptions,
    loader: &dyn SourceLoader,
) -> Vec<Syntax> {
    let mut out = Vec::new();
    for path in paths {
        if loader.refuse(path).is_some() {
            continue;
        }
        let Some(text) = loader.load(path) else {
            continue;
        };
        let id = sources.add(SourceFile::new(path.display().to_string(), text, false));
        let pre = warpsafe_preproc::preprocess_cuda(id, sources, opts, loader);
        if pre.text.len() > crate::MAX_PREPROCESSED_BYTES {
            continue;
        }
        if let Some(syn) = Syntax::parse(pre.text, pre.map) {
            if crate::syntax::too_deep(&syn, crate::MAX_NESTING).is_none() {
                out.push(syn);
            }
        }
    }
    out
}
