//! Running `warpsafe` on a kernel written to a temporary file.

use insta_cmd::get_cargo_bin;
use std::process::Command;

/// `warpsafe COMMAND FILE FLAGS...` on `text` saved as `name`: the exit
/// status and stdout.
pub fn run_on(command: &str, name: &str, text: &str, flags: &[&str]) -> (Option<i32>, String) {
    let dir = std::env::temp_dir().join(format!("warpsafe-{command}-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(name);
    std::fs::write(&file, text).expect("write");
    let out = Command::new(get_cargo_bin("warpsafe"))
        .arg(command)
        .arg(&file)
        .args(flags)
        .output()
        .expect("invariant: the binary runs");
    let _ = std::fs::remove_file(&file);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}
