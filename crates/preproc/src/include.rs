//! `#include` (and `#include_next`, `#import`): header-name parsing, the
//! search order, built-in headers, registration in the `SourceMap`, and the
//! guards that make recursive includes terminate.
//!
//! Search order:
//! - `<name>`: the built-in header, else each of `Options::include_dirs`.
//! - `"name"`: the directory of the including file, then the include dirs,
//!   then the built-in header (a real file wins). From a built-in header, the
//!   built-ins come first.
//!
//! Invariants:
//! - Each file is registered in the `SourceMap` once (by normalized path, or
//!   `<builtin>/NAME`); re-including it, or including a file the caller had
//!   registered under that name already, reuses its `FileId`.
//! - Nesting is limited to `MAX_DEPTH` files and `MAX_INCLUDES` inclusions in
//!   total; `#pragma once` files and files whose include guard is defined are
//!   skipped without being read again.
//! - The loader is asked at most once per path.

use crate::headers;
use crate::state::Pp;
use crate::token::{Kind, Tok};
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;
use warpsafe_source::{FileId, SourceFile, Span};

const MAX_DEPTH: usize = 64;
const MAX_INCLUDES: usize = 20_000;

/// A header the search found.
pub(crate) enum Found {
    Known(FileId),
    Builtin(String, &'static str),
    File(PathBuf, String),
    /// A file that exists but is not read, and why
    /// ([`crate::SourceLoader::refuse`]).
    Refused(PathBuf, String),
}

/// `path` with `.` removed and `dir/..` folded, lexically.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if matches!(out.components().next_back(), Some(Component::Normal(_))) {
                    out.pop();
                } else {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

impl Pp<'_> {
    /// The header name at `toks[start]` (`"x"` or `<x>`), whether it is
    /// angled, and the index after it.
    pub(crate) fn header_operand(
        &self,
        toks: &[Tok],
        start: usize,
    ) -> Option<(String, bool, usize)> {
        let first = toks.get(start)?;
        if first.kind == Kind::Str && first.text.starts_with('"') {
            let inner = first.text.strip_prefix('"')?.strip_suffix('"')?;
            return Some((inner.to_string(), false, start + 1));
        }
        if !first.is_punct("<") {
            return None;
        }
        let close = (start + 1..toks.len())
            .find(|&j| toks.get(j).is_some_and(|t| t.text.starts_with('>')))?;
        let last = toks.get(close)?;
        let raw = if first.origin.verbatim
            && last.origin.verbatim
            && first.origin.file == last.origin.file
        {
            self.text_of(first.origin.file)
                .and_then(|t| t.get(first.origin.hi as usize..last.origin.lo as usize))
                .map(str::to_string)
        } else {
            None
        };
        let name = raw.unwrap_or_else(|| {
            let mut s = String::new();
            for (k, t) in toks.get(start + 1..close).unwrap_or(&[]).iter().enumerate() {
                if k > 0 && t.space {
                    s.push(' ');
                }
                s.push_str(&t.text);
            }
            s
        });
        Some((name, true, close + 1))
    }

    /// Run an `#include`-like directive whose operand tokens are `args`.
    pub(crate) fn include(&mut self, directive: &str, args: &[Tok], span: Span) {
        let mut operand = self.header_operand(args, 0);
        let mut rest_len = operand.as_ref().map(|o| args.len().saturating_sub(o.2));
        if operand.is_none() && !args.is_empty() {
            let expanded = self.expand_isolated(args.to_vec(), false);
            operand = self.header_operand(&expanded, 0);
            rest_len = operand.as_ref().map(|o| expanded.len().saturating_sub(o.2));
        }
        let Some((name, angled, _)) = operand else {
            let msg = format!("#{directive} expects \"FILENAME\" or <FILENAME>");
            self.error("include", msg, Some(span));
            return;
        };
        if rest_len.unwrap_or(0) > 0 {
            self.warning(
                "include",
                format!("extra tokens at end of #{directive} directive"),
                Some(span),
            );
        }
        if name.is_empty() {
            self.error(
                "include",
                format!("empty filename in #{directive}"),
                Some(span),
            );
            return;
        }
        let Some(found) = self.locate(&name, angled) else {
            let shown = if angled {
                format!("<{name}>")
            } else {
                format!("\"{name}\"")
            };
            // A quoted include that is not found next to the file or on
            // the include path is looked up among the system headers, as
            // compilers do: a CUDA toolkit header written with quotes
            // (`"thrust/sort.h"`, `"vector_types.h"`, `"cudaEGL.h"`) is
            // one warpsafe has no copy of.
            if angled || is_toolkit_header(&name) {
                // A system header warpsafe has no copy of (`<fstream>`,
                // `<cublas_v2.h>`): host code is what includes such headers.
                // Device code that needs its declarations fails where it
                // uses them; code under `#if` on its macros is the risk the
                // warning names.
                self.warning(
                    "include",
                    format!(
                        "cannot find include file {shown}: warpsafe has no copy of this system header and assumes only host code needs it (device code that uses its declarations is rejected where it does; `#if`s on its macros see them undefined)"
                    ),
                    Some(span),
                );
                return;
            }
            self.error(
                "include",
                format!("cannot find include file {shown}"),
                Some(span),
            );
            return;
        };
        if self.frames.len() >= MAX_DEPTH {
            self.error("include", "#include nested too deeply", Some(span));
            return;
        }
        if self.include_count >= MAX_INCLUDES {
            self.error_once(
                "includes",
                "include",
                "too many #include directives processed",
                Some(span),
            );
            return;
        }
        let Some(id) = self.register(found, span) else {
            return;
        };
        if self.once.contains(&id) {
            return;
        }
        if let Some(guard) = self.guards.get(&id) {
            if self.macros.contains_key(guard) {
                return;
            }
        }
        if directive == "import" {
            self.once.insert(id);
        }
        self.include_count += 1;
        self.enter(id);
    }

    /// Starts reading the registered file `id` (its text as loaded).
    fn enter(&mut self, id: FileId) {
        let Some(text) = self.text_of(id).cloned().or_else(|| {
            self.sources
                .get(id)
                .map(|f| Rc::<str>::from(f.text.as_str()))
        }) else {
            return;
        };
        self.push_frame(id, text);
    }

    /// Processes the built-in header `name` before the rest of the main
    /// file, as the compiler's implicit includes are.
    pub(crate) fn implicit_include(&mut self, name: &str) {
        let Some(text) = headers::lookup(name) else {
            return;
        };
        let span = Span::new(self.main, 0, 0);
        if let Some(id) = self.register(Found::Builtin(name.to_string(), text), span) {
            self.enter(id);
        }
    }

    /// Search for a header (see the module doc for the order).
    pub(crate) fn locate(&mut self, name: &str, angled: bool) -> Option<Found> {
        let cur = self.frames.last().map(|f| f.file);
        let cur_file = cur.and_then(|id| self.sources.get(id));
        let cur_builtin = cur_file.is_some_and(|f| f.builtin);
        let cur_dir = cur_file.map(|f| {
            Path::new(&f.name)
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default()
        });
        let builtin = headers::lookup(name);
        if let Some(text) = builtin {
            if angled || cur_builtin {
                return Some(Found::Builtin(name.to_string(), text));
            }
        }
        let mut candidates = Vec::new();
        let path = Path::new(name);
        if path.is_absolute() {
            candidates.push(path.to_path_buf());
        } else {
            if !angled && !cur_builtin {
                if let Some(dir) = cur_dir {
                    candidates.push(dir.join(path));
                }
            }
            candidates.extend(self.opts.include_dirs.iter().map(|d| d.join(path)));
        }
        for cand in candidates {
            let p = normalize(&cand);
            if let Some(&id) = self.loaded.get(&p) {
                return Some(Found::Known(id));
            }
            if self.missing.contains(&p) {
                continue;
            }
            // A file the caller registered already (under the same name).
            let name = p.to_string_lossy();
            let known = self
                .sources
                .find(&name)
                .filter(|&id| self.sources.get(id).is_some_and(|f| !f.builtin));
            if let Some(id) = known {
                self.loaded.insert(p, id);
                return Some(Found::Known(id));
            }
            if let Some(why) = self.loader.refuse(&p) {
                return Some(Found::Refused(p, why));
            }
            match self.loader.load(&p) {
                Some(text) => return Some(Found::File(p, text)),
                None => {
                    self.missing.insert(p);
                }
            }
        }
        builtin.map(|text| Found::Builtin(name.to_string(), text))
    }

    /// The `FileId` of a found header, registering it on first use.
    fn register(&mut self, found: Found, span: Span) -> Option<FileId> {
        match found {
            Found::Known(id) => Some(id),
            Found::Refused(path, why) => {
                let msg = format!("cannot include `{}`: {why}", path.display());
                self.error("include", msg, Some(span));
                None
            }
            Found::Builtin(name, text) => {
                let key = format!("<builtin>/{name}");
                if let Some(&id) = self.builtin_ids.get(&key) {
                    return Some(id);
                }
                let existing = self
                    .sources
                    .find(&key)
                    .filter(|&id| self.sources.get(id).is_some_and(|f| f.builtin));
                let id = existing
                    .unwrap_or_else(|| self.sources.add(SourceFile::new(key.clone(), text, true)));
                self.builtin_ids.insert(key, id);
                Some(id)
            }
            Found::File(path, text) => {
                if text.len() > u32::MAX as usize {
                    self.error("include", "file too large", Some(span));
                    return None;
                }
                let name = path.to_string_lossy().into_owned();
                let id = self.sources.add(SourceFile::new(name, text, false));
                self.loaded.insert(path, id);
                Some(id)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_paths() {
        assert_eq!(normalize(Path::new("a/./b/../c.h")), PathBuf::from("a/c.h"));
        assert_eq!(normalize(Path::new("../x.h")), PathBuf::from("../x.h"));
        assert_eq!(normalize(Path::new("x.h")), PathBuf::from("x.h"));
    }
}

/// Headers of the CUDA toolkit and its libraries, by path: a quoted
/// include of one that is not found is a missing system header, not a
/// missing file of the program.
fn is_toolkit_header(name: &str) -> bool {
    const DIRS: &[&str] = &[
        "thrust/",
        "cub/",
        "cuda/",
        "cooperative_groups/",
        "nv/",
        "crt/",
    ];
    const FILES: &[&str] = &[
        "vector_types.h",
        "vector_functions.h",
        "device_functions.h",
        "device_launch_parameters.h",
        "driver_types.h",
        "host_defines.h",
        "builtin_types.h",
        "channel_descriptor.h",
        "texture_types.h",
        "surface_types.h",
        "math_functions.h",
        "sm_20_atomic_functions.h",
        "cooperative_groups.h",
    ];
    // cuda*.h, cufft*.h, cublas*.h, curand*.h, cusparse*.h, cudla*.h,
    // nvrtc.h, nvml.h, nvscisync.h and the like.
    const PREFIXES: &[&str] = &[
        "cuda", "cufft", "cublas", "curand", "cusparse", "cusolver", "cudla", "nvrtc", "nvml",
        "nvsci", "nvmedia", "npp",
    ];
    DIRS.iter().any(|d| name.starts_with(d))
        || FILES.contains(&name)
        || (!name.contains('/')
            && name.ends_with(".h")
            && PREFIXES.iter().any(|p| name.starts_with(p)))
}

#[cfg(test)]
mod toolkit_tests {
    use super::is_toolkit_header;

    #[test]
    fn toolkit_headers_are_recognised_by_path() {
        for h in [
            "thrust/sort.h",
            "vector_types.h",
            "cudaEGL.h",
            "cudla.h",
            "cufft.h",
            "nvscisync.h",
        ] {
            assert!(is_toolkit_header(h), "{h}");
        }
        for h in [
            "FDTD3dGPU.h",
            "kernels/cuda_util.h",
            "particles_kernel.cuh",
            "mine.h",
        ] {
            assert!(!is_toolkit_header(h), "{h}");
        }
    }
}
