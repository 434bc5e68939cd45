//! Snapshot tests of whole CLI runs: for every annotated kernel under
//! `tests/kernels`, `warpsafe ir FILE FLAGS` (flags from the kernel's
//! header) with its stdout, stderr and exit status.
//!
//! Refresh after an intended change with `cargo insta test --accept`
//! (or `INSTA_UPDATE=always cargo test`), then review the diff.

use insta_cmd::{assert_cmd_snapshot, get_cargo_bin};
use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("invariant: the workspace root exists")
}

/// `warpsafe ir` on `path` (relative to the workspace root) with the flags
/// of its header.
fn ir_command(rel: &Path) -> Command {
    command_with_header_flags("ir", rel)
}

/// `warpsafe COMMAND path` with the flags of the kernel's header.
fn command_with_header_flags(command: &str, rel: &Path) -> Command {
    let root = workspace_root();
    let text = std::fs::read_to_string(root.join(rel))
        .expect("invariant: test kernels are readable UTF-8");
    let header = warpsafe_corpus::parse_header(&text);
    let mut cmd = Command::new(get_cargo_bin("warpsafe"));
    cmd.current_dir(&root)
        .arg(command)
        .arg(rel)
        .args(&header.flags);
    cmd
}

#[test]
fn ir_of_every_test_kernel() {
    let root = workspace_root();
    insta::glob!("../../../tests/kernels", "**/*.cu", |path| {
        let rel = path
            .strip_prefix(&root)
            .expect("invariant: globbed files are under the root");
        assert_cmd_snapshot!(ir_command(rel));
    });
}

#[test]
fn ir_of_the_bundled_example() {
    assert_cmd_snapshot!(ir_command(Path::new("examples/reduction.cu")));
}

#[test]
fn check_of_the_bundled_example() {
    let mut cmd = Command::new(get_cargo_bin("warpsafe"));
    cmd.current_dir(workspace_root())
        .args(["check", "examples/transpose.cu"]);
    assert_cmd_snapshot!(cmd);
}

/// `warpsafe check` of the kernel with several divergent barriers: every
/// one is listed with its witness.
#[test]
fn check_of_every_divergent_barrier() {
    assert_cmd_snapshot!(command_with_header_flags(
        "check",
        Path::new("tests/kernels/constructs/barrier_divergence_every_barrier.cu")
    ));
}
