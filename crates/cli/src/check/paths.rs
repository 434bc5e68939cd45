//! The files a `check` run covers: each FILE argument as given (a missing
//! one is reported when it cannot be read, like any other), each folder
//! walked for `.cu` and `.cuh` files (sorted by path, hidden folders
//! skipped). Invariant: the list is sorted within each folder, free of
//! duplicates, and in the order the arguments name them, so that runs and
//! `--shard` splits are deterministic.

use anyhow::{bail, Result};
use std::path::{Path, PathBuf};

/// The extensions a folder walk picks up.
const CUDA_EXTENSIONS: &[&str] = &["cu", "cuh"];

/// The files named by `args`, folders expanded.
pub fn expand(args: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for arg in args {
        if arg.is_dir() {
            let mut found: Vec<PathBuf> = walkdir::WalkDir::new(arg)
                .into_iter()
                .filter_entry(|e| e.depth() == 0 || !is_hidden(e.path()))
                .filter_map(|e| e.ok())
                .filter(|e| e.file_type().is_file() && has_cuda_extension(e.path()))
                .map(|e| e.into_path())
                .collect();
            found.sort();
            files.extend(found);
        } else {
            if is_opencl(arg) {
                bail!(
                    "`{}`: OpenCL is not supported: warpsafe checks CUDA (`.cu`, `.cuh`)",
                    arg.display()
                );
            }
            files.push(arg.clone());
        }
    }
    let mut seen = std::collections::HashSet::new();
    files.retain(|f| seen.insert(f.clone()));
    Ok(files)
}

fn has_cuda_extension(p: &Path) -> bool {
    p.extension()
        .and_then(|x| x.to_str())
        .is_some_and(|x| CUDA_EXTENSIONS.contains(&x))
}

fn is_opencl(p: &Path) -> bool {
    p.extension().is_some_and(|x| x == "cl")
}

fn is_hidden(p: &Path) -> bool {
    p.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with('.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_are_walked_sorted_and_files_kept_in_argument_order() {
        let dir = std::env::temp_dir().join(format!("warpsafe-paths-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::create_dir_all(dir.join(".git")).unwrap();
        for f in [
            "b.cu",
            "a.cuh",
            "sub/c.cu",
            "notes.txt",
            ".git/d.cu",
            "k.cl",
        ] {
            std::fs::write(dir.join(f), "").unwrap();
        }
        let got = expand(&[dir.join("sub/c.cu"), dir.clone()]).unwrap();
        let names: Vec<_> = got
            .iter()
            .map(|p| p.strip_prefix(&dir).unwrap().display().to_string())
            .collect();
        assert_eq!(names, ["sub/c.cu", "a.cuh", "b.cu"]);
        let err = expand(&[dir.join("k.cl")]).unwrap_err().to_string();
        assert!(err.contains("OpenCL is not supported"), "{err}");
        // A missing file is the front end's to report ("cannot read").
        assert_eq!(
            expand(&[dir.join("missing.cu")]).unwrap(),
            [dir.join("missing.cu")]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
