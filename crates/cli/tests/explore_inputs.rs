//! `warpsafe explore` inputs (`--array`, `--param`, `--input FILE.json`):
//! flags override the file, replay tokens are tied to the inputs they were
//! printed for, `__device__` arrays take contents, both explorers start
//! from the same memory, bad inputs are errors (also as JSON), and a SAFE
//! verdict says which arrays were not bounds-checked.

mod common;

use common::Out;

use serde_json::Value;
use std::path::{Path, PathBuf};

const SCALE: &str = r#"#include <assert.h>
__global__ void scale(const int *in, int *out, int factor)
{
  int v = in[threadIdx.x];
  assert(v >= 0);
  out[threadIdx.x] = v * factor;
}
"#;

const LOOKUP: &str = r#"__device__ int table[4] = {9, 9, 9, 9};
__global__ void lookup(int *out)
{
  out[threadIdx.x] = table[threadIdx.x + 1];
}
"#;

/// Writes `text` as `name` in a fresh folder of this test process.
fn file(name: &str, text: &str) -> PathBuf {
    common::temp_file("inputs", name, text)
}

fn explore(path: &Path, flags: &[&str]) -> Out {
    common::run("explore", path, flags)
}

const TWO: [&str; 4] = ["--grid-dim", "1", "--block-dim", "2"];

#[test]
fn flags_override_the_input_file() {
    let cu = file("scale1.cu", SCALE);
    let input = file(
        "scale1.json",
        r#"{"grid": 1, "block": [2], "params": {"factor": 3},
            "arrays": {"in": {"len": 2, "init": [4, 5]}, "out": {"len": 2}}}"#,
    );
    let input = input.to_str().expect("utf-8 temp path");
    let from_file = explore(&cu, &["--input", input, "--outcomes"]);
    assert!(
        from_file
            .stdout
            .contains("in[0]=4 in[1]=5 out[0]=12 out[1]=15"),
        "{}",
        from_file.stdout
    );
    let overridden = explore(
        &cu,
        &[
            "--input",
            input,
            "--param",
            "factor=10",
            "--array",
            "in=[1,2]",
            "--outcomes",
        ],
    );
    assert!(
        overridden.stdout.contains("out[0]=10 out[1]=20"),
        "{}",
        overridden.stdout
    );
    // A flag's dimensions win over the file's.
    let one = explore(&cu, &["--input", input, "--block-dim", "1", "--outcomes"]);
    assert!(one.stdout.contains("in[0]=4 out[0]=12\n"), "{}", one.stdout);
}

#[test]
fn replay_tokens_belong_to_their_inputs() {
    let cu = file("scale2.cu", SCALE);
    let mut flags = TWO.to_vec();
    flags.extend(["--param", "factor=3", "--array", "out=2"]);
    let mut failing = flags.clone();
    failing.extend(["--array", "in=[4,-1]", "--format", "json"]);
    let out = explore(&cu, &failing);
    let v: Value = serde_json::from_str(&out.stdout).expect("JSON report");
    let token = v["kernels"][0]["witnesses"][0]["replay"]
        .as_str()
        .expect("a witness with a token")
        .to_string();
    let mut same = flags.clone();
    same.extend(["--array", "in=[4,-1]", "--replay", &token]);
    let replayed = explore(&cu, &same);
    assert!(
        replayed.stdout.contains("assertion violated: v >= 0"),
        "{}",
        replayed.stdout
    );
    assert_eq!(replayed.code, Some(1));
    for other in [
        vec!["--array", "in=[4,-2]"],
        vec!["--array", "in=[4,-1]", "--array", "out=3"],
    ] {
        let mut f = flags.clone();
        f.extend(other);
        f.extend(["--replay", &token]);
        let rejected = explore(&cu, &f);
        assert_eq!(rejected.code, Some(2), "{}", rejected.stdout);
        assert!(
            rejected.stderr.contains("another kernel or launch"),
            "{}",
            rejected.stderr
        );
    }
}

#[test]
fn device_arrays_take_contents_of_their_declared_size() {
    let cu = file("lookup.cu", LOOKUP);
    let mut flags = TWO.to_vec();
    flags.extend([
        "--array",
        "table=[1,2,3,4]",
        "--array",
        "out=2",
        "--outcomes",
    ]);
    let out = explore(&cu, &flags);
    assert!(out.stdout.contains("out[0]=2 out[1]=3"), "{}", out.stdout);
    // The initialiser when no contents are given.
    let out = explore(&cu, &[&TWO[..], &["--outcomes"]].concat());
    assert!(out.stdout.contains("out[0]=9 out[1]=9"), "{}", out.stdout);
    let wrong = explore(&cu, &[&TWO[..], &["--array", "table=[1,2]"]].concat());
    assert_eq!(wrong.code, Some(2));
    assert!(
        wrong.stderr.contains("declared with 4 element(s), not 2"),
        "{}",
        wrong.stderr
    );
}

#[test]
fn both_explorers_start_from_the_given_contents() {
    let cu = file("scale3.cu", SCALE);
    let mut flags = TWO.to_vec();
    flags.extend([
        "--param",
        "factor=-2",
        "--array",
        "in=[7,8]",
        "--array",
        "out=2",
        "--outcomes",
    ]);
    let dpor = explore(&cu, &flags);
    flags.extend(["--explorer", "reference"]);
    let reference = explore(&cu, &flags);
    let outcomes = |s: &str| {
        s.lines()
            .skip_while(|l| !l.contains("outcomes"))
            .take(2)
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(
        dpor.stdout.contains("out[0]=-14 out[1]=-16"),
        "{}",
        dpor.stdout
    );
    assert_eq!(outcomes(&dpor.stdout), outcomes(&reference.stdout));
}

#[test]
fn bad_inputs_are_json_errors_in_json_mode() {
    let cu = file("scale4.cu", SCALE);
    let out = explore(
        &cu,
        &[&TWO[..], &["--array", "nope=3", "--format", "json"]].concat(),
    );
    assert_eq!(out.code, Some(2));
    let v: Value = serde_json::from_str(&out.stdout).expect("a JSON error object");
    assert!(
        v["error"]
            .as_str()
            .is_some_and(|e| e.contains("no kernel has an array `nope`")),
        "{v}"
    );
}

#[test]
fn a_bounds_checked_safe_verdict_names_no_unchecked_array() {
    let cu = file("scale5.cu", SCALE);
    let base = [&TWO[..], &["--param", "factor=1"]].concat();
    let unchecked = explore(&cu, &base);
    assert!(
        unchecked
            .stdout
            .contains("SAFE (no error in any of the 1 execution; out-of-bounds accesses to `in`, `out` not checked)"),
        "{}",
        unchecked.stdout
    );
    let checked = explore(
        &cu,
        &[&base[..], &["--array", "in=2", "--array", "out=2"]].concat(),
    );
    assert!(
        checked
            .stdout
            .contains("SAFE (no error in any of the 1 execution)\n"),
        "{}",
        checked.stdout
    );
    assert!(!checked.stdout.contains("note:"), "{}", checked.stdout);
}
