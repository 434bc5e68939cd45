//! Shared helpers: an in-memory `SourceLoader` and shortcuts to run the
//! preprocessor on strings.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use warpsafe_preproc::{preprocess, Options, Output, SourceLoader};
use warpsafe_source::{Diagnostic, SourceFile, SourceMap};

/// A loader backed by a map from path to text.
#[derive(Default)]
pub struct MapLoader(pub HashMap<PathBuf, String>);

impl MapLoader {
    pub fn with(files: &[(&str, &str)]) -> MapLoader {
        MapLoader(
            files
                .iter()
                .map(|(p, t)| (PathBuf::from(p), t.to_string()))
                .collect(),
        )
    }
}

impl SourceLoader for MapLoader {
    fn load(&self, path: &Path) -> Option<String> {
        self.0.get(path).cloned()
    }
}

pub struct Run {
    pub out: Output,
    pub sources: SourceMap,
}

impl Run {
    pub fn text(&self) -> &str {
        &self.out.text
    }

    /// The output with all whitespace removed (for comparing expansions).
    pub fn squashed(&self) -> String {
        squash(&self.out.text)
    }

    pub fn errors(&self) -> Vec<&Diagnostic> {
        self.out
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .collect()
    }

    pub fn warnings(&self) -> Vec<&Diagnostic> {
        self.out
            .diagnostics
            .iter()
            .filter(|d| !d.is_error())
            .collect()
    }

    /// Output byte range of the `n`-th occurrence of `needle` in the output.
    pub fn find(&self, needle: &str, n: usize) -> (u32, u32) {
        let (lo, _) = self
            .out
            .text
            .match_indices(needle)
            .nth(n)
            .unwrap_or_else(|| panic!("{needle:?} #{n} not in output:\n{}", self.out.text));
        (lo as u32, (lo + needle.len()) as u32)
    }

    /// `file:line:col` and snippet of the original span of an output range.
    pub fn origin(&self, lo: u32, hi: u32) -> (String, String) {
        let span = self.out.map.span(lo, hi);
        (
            self.sources.describe(span),
            self.sources.snippet(span).to_string(),
        )
    }
}

pub fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

pub fn run_full(main_name: &str, main: &str, files: &[(&str, &str)], opts: &Options) -> Run {
    let mut sources = SourceMap::new();
    let id = sources.add(SourceFile::new(main_name, main, false));
    let loader = MapLoader::with(files);
    let out = preprocess(id, &mut sources, opts, &loader);
    Run { out, sources }
}

pub fn run(main: &str) -> Run {
    run_full("main.cu", main, &[], &Options::default())
}

pub fn run_files(main: &str, files: &[(&str, &str)]) -> Run {
    run_full("main.cu", main, files, &Options::default())
}
