//! Running `warpsafe` on a kernel written to a temporary file.

// Each test binary compiles this module; not every one uses every item.
#![allow(dead_code)]

use insta_cmd::get_cargo_bin;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What a run of `warpsafe` gave.
pub struct Out {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Writes `text` as `name` in this test process's folder for `tag`.
pub fn temp_file(tag: &str, name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warpsafe-{tag}-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path
}

/// `warpsafe COMMAND PATH FLAGS...`.
pub fn run(command: &str, path: &Path, flags: &[&str]) -> Out {
    let out = Command::new(get_cargo_bin("warpsafe"))
        .arg(command)
        .arg(path)
        .args(flags)
        .output()
        .expect("invariant: the binary runs");
    Out {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `warpsafe COMMAND FILE FLAGS...` on `text` saved as `name`: the exit
/// status and stdout.
pub fn run_on(command: &str, name: &str, text: &str, flags: &[&str]) -> (Option<i32>, String) {
    let file = temp_file(command, name, text);
    let out = run(command, &file, flags);
    let _ = std::fs::remove_file(&file);
    (out.code, out.stdout)
}
