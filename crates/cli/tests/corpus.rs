//! The repository's own annotated kernels, run as a corpus: every kernel
//! meets its header's expectation, and the summary line counts them.

use insta_cmd::get_cargo_bin;
use std::path::Path;
use std::process::Command;

#[test]
fn repository_corpus_meets_every_expectation() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new(get_cargo_bin("warpsafe"))
        .current_dir(&root)
        .args(["corpus", "tests/kernels", "--verbose"])
        .output()
        .expect("invariant: the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let kernels = walk_count(&root.join("tests/kernels"));
    assert!(
        stdout.contains(&format!("{kernels} passed, 0 failed")),
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(0), "{stdout}");
}

#[test]
fn corpus_reports_a_failure_with_exit_status_1() {
    let dir = std::env::temp_dir().join(format!("warpsafe-corpus-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    // Expected to pass, but does not parse.
    std::fs::write(
        dir.join("broken.cu"),
        "//pass\n//--blockDim=32 --gridDim=1\n__global__ void k( {\n",
    )
    .expect("write");
    // Expected to be rejected, and is.
    std::fs::write(
        dir.join("rejected.cu"),
        "//xfail:CLANG_ERROR\n//--blockDim=32 --gridDim=1\n__global__ void k() { foo(); }\n",
    )
    .expect("write");
    let out = Command::new(get_cargo_bin("warpsafe"))
        .args(["corpus"])
        .arg(&dir)
        .output()
        .expect("invariant: the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("1 passed, 1 failed"), "{stdout}");
    assert_eq!(out.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}

fn walk_count(dir: &Path) -> usize {
    let mut n = 0;
    for e in std::fs::read_dir(dir).expect("readable dir").flatten() {
        let p = e.path();
        if p.is_dir() {
            n += walk_count(&p);
        } else if p.extension().is_some_and(|x| x == "cu") {
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            if warpsafe_corpus::parse_header(&text).expectation.is_some() {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn litmus_corpus_meets_every_expectation_under_explore() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new(get_cargo_bin("warpsafe"))
        .current_dir(&root)
        .args([
            "corpus",
            "tests/kernels/litmus",
            "--engine",
            "explore",
            "--verbose",
        ])
        .output()
        .expect("invariant: the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let kernels = walk_count(&root.join("tests/kernels/litmus"));
    assert!(kernels >= 9, "the litmus folder holds its kernels");
    assert!(
        stdout.contains(&format!("{kernels} passed, 0 failed")),
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(0), "{stdout}");
}

/// Seed 000 Table 1's synchronisation primitives (caslock, ticketlock,
/// ttaslock, XF-Barrier and their weakened variants 1 and 2) on two-thread
/// grids: the correct ones show no error in any execution (spin-assume
/// keeps their await loops finite), the weakened ones race.
#[test]
fn lock_corpus_meets_every_expectation_under_explore() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new(get_cargo_bin("warpsafe"))
        .current_dir(&root)
        .args([
            "corpus",
            "tests/kernels/locks",
            "--engine",
            "explore",
            "--verbose",
        ])
        .output()
        .expect("invariant: the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let kernels = walk_count(&root.join("tests/kernels/locks"));
    assert_eq!(kernels, 12, "four primitives, three variants each");
    assert!(
        stdout.contains(&format!("{kernels} passed, 0 failed")),
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(0), "{stdout}");
}

/// The differential test's minimised disagreements (`diff_*.cu`, see
/// `tests/differential.rs`): `explore` gives each one's true answer, and
/// `check` is never wrong in the unsound direction (a kernel that fails
/// is not DRF; one that passes has no *provable* race or divergence;
/// possible ones and UNKNOWN are allowed, as in the differential test).
/// Kernels in `soundness/open/` are disagreements not fixed yet: they must
/// parse (the repository corpus) but are not held to their answer here.
#[test]
fn soundness_corpus_meets_every_expectation() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = root.join("tests/kernels/soundness");
    let mut kernels = 0;
    for e in std::fs::read_dir(&dir).expect("readable dir").flatten() {
        let path = e.path();
        if path.extension().is_none_or(|x| x != "cu") {
            continue;
        }
        kernels += 1;
        let text = std::fs::read_to_string(&path).expect("readable kernel");
        let header = warpsafe_corpus::parse_header(&text);
        let json = |command: &str, extra: &[&str]| -> serde_json::Value {
            let out = Command::new(get_cargo_bin("warpsafe"))
                .arg(command)
                .arg(&path)
                .args(&header.flags)
                .args(["--format", "json"])
                .args(extra)
                .output()
                .expect("invariant: the binary runs");
            serde_json::from_slice(&out.stdout).expect("--format json prints JSON")
        };
        let c = &json("check", &[])["kernels"][0];
        let x = &json("explore", &["--all"])["kernels"][0];
        let provable = |field: &str| {
            c[field]
                .as_array()
                .is_some_and(|a| a.iter().any(|x| x["certainty"] == "provable"))
        };
        let at = path.display();
        match header.expectation {
            Some(warpsafe_corpus::Expectation::Pass) => {
                assert_eq!(x["verdict"], "safe", "{at}: explore: {x}");
                assert!(
                    !provable("races") && !provable("divergences"),
                    "{at}: check proves an error in a kernel without one: {c}"
                );
            }
            Some(warpsafe_corpus::Expectation::Xfail(reason)) => {
                let found = x["errors"]
                    .as_array()
                    .is_some_and(|es| es.iter().any(|e| e["kind"] == reason.as_str()));
                assert!(found, "{at}: explore does not show {reason}: {x}");
                assert_ne!(c["verdict"], "drf", "{at}: check: {c}");
            }
            None => panic!("{at}: no //pass or //xfail header"),
        }
    }
    assert!(kernels >= 1, "the soundness folder holds its kernels");
}
