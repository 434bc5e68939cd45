//! Fuzz target: the whole front end (preprocess, parse, lower) on arbitrary
//! input must return diagnostics, never panic or hang.
//!
//! Run: `cargo fuzz run frontend -- -max_total_time=600` (see README).
#![no_main]

use libfuzzer_sys::fuzz_target;
use warpsafe_frontend::{compile, Options, SourceLoader};
use warpsafe_source::{SourceFile, SourceMap};

/// `#include "x"` of any name yields a tiny file, so includes are exercised.
struct Loader;

impl SourceLoader for Loader {
    fn load(&self, path: &std::path::Path) -> Option<String> {
        let name = path.file_name()?.to_str()?;
        name.starts_with('h').then(|| "#define H 1\n__device__ int h(int x) { return x + H; }\n".to_string())
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let mut sources = SourceMap::new();
    let main = sources.add(SourceFile::new("fuzz.cu", text, false));
    let _ = compile(main, &mut sources, &Options::default(), &Loader);
});
