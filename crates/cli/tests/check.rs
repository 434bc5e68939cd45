//! `warpsafe check`: exit statuses (0 for a race-free kernel, 1 for a racy
//! one, 2 for unusable input), `--format json` (the shape documented in
//! `crates/cli/src/check/json.rs`), `--solver z3|cvc5` with a missing or
//! broken solver, and snapshots of JSON reports and of `--dump aligned`.
//! Needs z3 on PATH (cvc5 is optional: without it, the cvc5 test checks
//! the missing-solver error instead).

mod common;

use insta_cmd::{assert_cmd_snapshot, get_cargo_bin};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn check(name: &str, text: &str) -> (Option<i32>, String) {
    check_with(name, text, &[])
}

fn check_with(name: &str, text: &str, extra: &[&str]) -> (Option<i32>, String) {
    let mut flags = vec!["--block-dim", "64", "--grid-dim", "4"];
    flags.extend_from_slice(extra);
    common::run_on("check", name, text, &flags)
}

#[test]
fn race_free_kernel_exits_0() {
    let (code, stdout) = check(
        "drf.cu",
        "__global__ void k(int *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 1; }\n",
    );
    assert!(stdout.contains("kernel k: DRF (no data race"), "{stdout}");
    assert_eq!(code, Some(0), "{stdout}");
}

#[test]
fn racy_kernel_exits_1() {
    let (code, stdout) = check(
        "racy.cu",
        "__global__ void k(int *a) { a[0] = threadIdx.x; }\n",
    );
    assert!(stdout.contains("kernel k: RACY"), "{stdout}");
    assert!(stdout.contains("racy.cu:1:"), "{stdout}");
    assert_eq!(code, Some(1), "{stdout}");
}

#[test]
fn parameter_values_narrow_the_check() {
    // Within one block, threads 0..n write a[tid % 8]: race-free for n = 8 only.
    let text = "__global__ void k(int *a, int n) { if (threadIdx.x < n && blockIdx.x == 0) a[threadIdx.x % 8] = 1; }\n";
    let (code, stdout) = check_with("param8.cu", text, &["--param", "n=8"]);
    assert!(stdout.contains("kernel k: DRF"), "{stdout}");
    assert_eq!(code, Some(0), "{stdout}");
    let (code, stdout) = check_with("param9.cu", text, &["--param", "n=9"]);
    assert!(
        stdout.contains("n=9"),
        "the witness shows the parameter: {stdout}"
    );
    assert_eq!(code, Some(1), "{stdout}");
    let (code, _) = check_with("param_unknown.cu", text, &["--param", "m=1"]);
    assert_eq!(code, Some(2), "an unknown parameter name is unusable input");
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("invariant: the workspace root exists")
}

/// `warpsafe check REL FLAGS-OF-ITS-HEADER EXTRA`, run in the workspace
/// root.
fn check_command(rel: &str, extra: &[&str]) -> Command {
    let root = workspace_root();
    let text = std::fs::read_to_string(root.join(rel))
        .expect("invariant: test kernels are readable UTF-8");
    let header = warpsafe_corpus::parse_header(&text);
    let mut cmd = Command::new(get_cargo_bin("warpsafe"));
    cmd.current_dir(&root)
        .arg("check")
        .arg(rel)
        .args(&header.flags)
        .args(extra);
    cmd
}

/// Runs `cmd`: exit status, stdout parsed as JSON, stderr.
fn json_of(cmd: &mut Command) -> (Option<i32>, Value, String) {
    let out = cmd.output().expect("invariant: the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let v: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("--format json prints one JSON object ({e}): {stdout}"));
    (
        out.status.code(),
        v,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn json_of_a_racy_kernel_has_both_accesses_and_the_witness() {
    let (code, v, _) = json_of(&mut check_command(
        "tests/kernels/table1/first_iter_racy.cu",
        &["--format", "json"],
    ));
    assert_eq!(code, Some(1), "{v:#}");
    assert_eq!(v["solver"], "z3");
    let k = &v["kernels"][0];
    assert_eq!(k["kernel"], "firstIter");
    assert_eq!(k["verdict"], "racy");
    let races = k["races"].as_array().expect("races is an array");
    assert_eq!(races.len(), 2, "{k:#}");
    let r = &races[0];
    assert_eq!(r["array"], "s");
    assert_eq!(r["space"], "shared");
    assert_eq!(r["scope"], "same-block");
    assert_eq!(r["certainty"], "provable");
    let a = &r["accesses"];
    assert_eq!(a[0]["kind"], "write");
    assert_eq!(a[0]["location"]["line"], 10);
    assert_eq!(a[0]["location"]["column"], 3);
    assert_eq!(a[0]["location"]["excerpt"], "s[tid + 1] = 1");
    assert_eq!(a[1]["location"]["line"], 12);
    let w = &r["witness"];
    let t1 = w["threads"][0]["thread_idx"][0]
        .as_u64()
        .expect("thread 1 x");
    let t2 = w["threads"][1]["thread_idx"][0]
        .as_u64()
        .expect("thread 2 x");
    // s[t1 + 1] and s[t2] in the loop's first iteration: the same slot.
    assert_eq!(t1 + 1, t2, "{w:#}");
    assert_eq!(w["index"].as_u64(), Some(t2), "{w:#}");
    assert!(w["block_dim"].is_null(), "concrete dims are not repeated");
    assert!(w["params"]["N"].as_i64().is_some_and(|n| n > 0), "{w:#}");
    let lv = &w["loop_vars"][0];
    assert!(
        lv["thread"].is_null(),
        "a synchronized loop's variable is shared"
    );
    assert_eq!(lv["name"], "x (first iteration)");
    assert_eq!(lv["value"], 0);
    // The second race is only possible, with the reason.
    assert_eq!(races[1]["certainty"], "possible");
    assert!(!races[1]["reasons"].as_array().expect("reasons").is_empty());
}

#[test]
fn json_of_a_divergent_kernel_lists_the_barrier_and_two_threads() {
    let (code, v, _) = json_of(&mut check_command(
        "tests/kernels/constructs/barrier_in_thread_branch.cu",
        &["--format", "json"],
    ));
    assert_eq!(code, Some(1), "{v:#}");
    let k = &v["kernels"][0];
    assert_eq!(k["verdict"], "divergent");
    let d = &k["divergences"][0];
    assert_eq!(d["location"]["line"], 13);
    assert_eq!(d["certainty"], "provable");
    let t = |n: usize| d["threads"][n]["thread_idx"][0].as_u64().expect("x");
    // One thread below 16 reaches the barrier, the other does not.
    assert!((t(0) < 16) != (t(1) < 16), "{d:#}");
}

#[test]
fn json_reports_assertions_and_unknown_verdicts() {
    let (code, v, _) = json_of(&mut check_command(
        "tests/kernels/constructs/assert_violated.cu",
        &["--format", "json"],
    ));
    assert_eq!(code, Some(1), "{v:#}");
    let a = &v["kernels"][0]["assertions"][0];
    assert_eq!(a["message"], "tid < 64");
    assert_eq!(a["outcome"], "fails");
    assert_eq!(a["certainty"], "provable");
    assert!(a["witness"]["thread"]["thread_idx"][0].as_u64() >= Some(64));

    let text = "#include <cooperative_groups.h>\n__global__ void k(int *a, int n) {\n  for (int i = 0; i < n; i++) {\n    a[threadIdx.x] = i; cooperative_groups::this_grid().sync(); }\n}\n";
    let dir = std::env::temp_dir().join(format!("warpsafe-check-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("unknown.cu");
    std::fs::write(&file, text).expect("write");
    let (code, v, _) = json_of(
        Command::new(get_cargo_bin("warpsafe"))
            .args(["check", "--format", "json"])
            .arg(&file),
    );
    let _ = std::fs::remove_file(&file);
    assert_eq!(code, Some(2), "{v:#}");
    let k = &v["kernels"][0];
    assert_eq!(k["verdict"], "unknown");
    assert!(
        k["reason"].as_str().is_some_and(|r| r.contains("barrier")),
        "{k:#}"
    );
    assert_eq!(k["location"]["line"], 4, "{k:#}");
}

#[test]
fn json_input_errors_are_a_json_object_with_exit_2() {
    let (code, v, stderr) = json_of(
        Command::new(get_cargo_bin("warpsafe"))
            .current_dir(workspace_root())
            .args(["check", "no/such/file.cu", "--format", "json"]),
    );
    assert_eq!(code, Some(2));
    assert_eq!(v["file"], "no/such/file.cu");
    assert!(v["error"]
        .as_str()
        .is_some_and(|e| e.contains("cannot read")));
    assert!(stderr.contains("cannot read"), "{stderr}");
    let (code, v, _) = json_of(&mut check_command(
        "examples/transpose.cu",
        &["--format", "json", "--param", "nosuch=1"],
    ));
    assert_eq!(code, Some(2));
    assert!(
        v["error"].as_str().is_some_and(|e| e.contains("nosuch")),
        "{v}"
    );
}

/// `--solver KIND` with `VAR` naming a binary that does not exist.
fn missing_solver(kind: &str, var: &str) -> (Option<i32>, Value, String) {
    json_of(
        check_command(
            "examples/transpose.cu",
            &["--format", "json", "--solver", kind],
        )
        .env(var, "/nonexistent/solver/binary"),
    )
}

#[test]
fn a_missing_solver_is_an_error_that_says_how_to_install_it() {
    let (code, v, stderr) = missing_solver("z3", "WARPSAFE_Z3");
    assert_eq!(code, Some(2), "{v}");
    let e = v["error"].as_str().expect("an error message");
    assert!(e.contains("pip install z3-solver"), "{e}");
    assert!(e.contains("apt-get install z3"), "{e}");
    assert!(e.contains("--solver cvc5"), "{e}");
    assert!(stderr.contains("pip install z3-solver"), "{stderr}");
    assert!(v.get("kernels").is_none(), "nothing was checked: {v}");

    let (code, v, _) = missing_solver("cvc5", "WARPSAFE_CVC5");
    assert_eq!(code, Some(2), "{v}");
    let e = v["error"].as_str().expect("an error message");
    assert!(e.contains("github.com/cvc5/cvc5/releases"), "{e}");
    assert!(e.contains("WARPSAFE_CVC5"), "{e}");
}

#[test]
fn a_broken_solver_makes_the_verdict_unknown_never_drf() {
    // `false` exits at once: every query fails.
    let (code, v, _) = json_of(
        check_command("examples/transpose.cu", &["--format", "json"])
            .env("WARPSAFE_Z3", "/bin/false"),
    );
    assert_eq!(code, Some(2), "{v:#}");
    let k = &v["kernels"][0];
    assert_eq!(k["verdict"], "unknown");
    assert!(
        k["reason"]
            .as_str()
            .is_some_and(|r| r.contains("solver failed")),
        "{k:#}"
    );
}

#[test]
fn cvc5_gives_the_verdicts_z3_gives() {
    let kernels = [
        ("examples/transpose.cu", "drf", 0),
        ("tests/kernels/table1/first_iter_racy.cu", "racy", 1),
        ("tests/kernels/table1/last_iter_drf.cu", "drf", 0),
        (
            "tests/kernels/constructs/barrier_in_thread_branch.cu",
            "divergent",
            1,
        ),
    ];
    if let Err(e) = warpsafe_smt::locate(warpsafe_smt::SolverKind::Cvc5, None) {
        eprintln!("cvc5 is not installed ({e}): checking the missing-solver error instead");
        let (code, v, _) = json_of(&mut check_command(
            kernels[0].0,
            &["--format", "json", "--solver", "cvc5"],
        ));
        assert_eq!(code, Some(2), "{v}");
        assert!(
            v["error"].as_str().is_some_and(|e| e.contains("cvc5")),
            "{v}"
        );
        return;
    }
    for (rel, verdict, status) in kernels {
        for solver in ["z3", "cvc5"] {
            let (code, v, _) = json_of(&mut check_command(
                rel,
                &["--format", "json", "--solver", solver],
            ));
            assert_eq!(v["solver"], solver);
            assert_eq!(
                v["kernels"][0]["verdict"], verdict,
                "{rel} with {solver}: {v:#}"
            );
            assert_eq!(code, Some(status), "{rel} with {solver}");
        }
    }
}

/// Whole JSON reports of a racy, a race-free and a divergent kernel.
#[test]
fn check_as_json() {
    for (name, rel) in [
        ("racy", "tests/kernels/table1/first_iter_racy.cu"),
        ("drf", "examples/transpose.cu"),
        (
            "divergent",
            "tests/kernels/constructs/barrier_divergence_every_barrier.cu",
        ),
    ] {
        insta::with_settings!({ snapshot_suffix => name }, {
            assert_cmd_snapshot!(check_command(rel, &["--format", "json"]));
        });
    }
}

/// `--dump aligned`: the phases after barrier aligning and splitting.
#[test]
fn check_dump_aligned() {
    for (name, rel) in [
        ("transpose", "examples/transpose.cu"),
        ("first_iter", "tests/kernels/table1/first_iter_racy.cu"),
        (
            "last_iter_first_iter",
            "tests/kernels/table1/last_iter_first_iter_racy.cu",
        ),
    ] {
        insta::with_settings!({ snapshot_suffix => name }, {
            assert_cmd_snapshot!(check_command(rel, &["--dump", "aligned"]));
        });
    }
}

/// `--dump aligned` prints the phases the check itself aligned (nothing
/// is aligned twice), with the same verdict as without it; a check that
/// stops before aligning (contradictory preconditions) says so instead of
/// printing phases it never queried.
#[test]
fn dump_aligned_shows_the_checks_own_aligning() {
    let text = "__global__ void k(int *a, int n) {\n  for (int i = 0; i < n; i++) {\n    a[threadIdx.x] = i;\n    __syncthreads();\n  }\n}\n";
    let (_, with) = common::run_on("check", "aligned_once.cu", text, &["--dump", "aligned"]);
    let (_, without) = common::run_on("check", "aligned_once.cu", text, &[]);
    assert!(with.contains("phase 1"), "{with}");
    let verdict = |s: &str| {
        s.lines()
            .find(|l| l.starts_with("kernel k: ") && !l.contains("after barrier aligning"))
            .map(str::to_string)
    };
    assert!(verdict(&without).is_some(), "{without}");
    assert_eq!(verdict(&with), verdict(&without), "{with}");
    let contradiction = "__global__ void k(int *a, int n) {\n  __requires(n > 4);\n  __requires(n < 2);\n  a[0] = threadIdx.x;\n}\n";
    let (_, stdout) = common::run_on(
        "check",
        "aligned_never.cu",
        contradiction,
        &["--dump", "aligned"],
    );
    assert!(
        stdout.contains("not aligned: the check stopped before aligning"),
        "{stdout}"
    );
    assert!(!stdout.contains("phase 1"), "{stdout}");
}

/// A loop that leaves at the top of its body by a monotone test of its
/// counter is that counting loop, exact where the counter cannot wrap
/// (`blockIdx.x` and the first value past the bound within the range
/// where the exit was evaluated); an exit that is not monotone in the
/// counter (`pos % 3`) leaves the loop of unknown length.
#[test]
fn loops_that_exit_at_the_top_are_counting_loops() {
    let text = |exit: &str| {
        format!(
            "__global__ void k(float *c) {{\n  for (unsigned pos = blockIdx.x;; pos += gridDim.x) {{\n    unsigned i = (pos * 8) / 64 * 8;\n    if ({exit}) break;\n    c[pos * 256 + threadIdx.x] = i;\n  }}\n}}\n"
        )
    };
    let flags = ["--block-dim", "256", "--dump", "protocol"];
    let (_, stdout) = common::run_on("check", "top_exit.cu", &text("i >= 64"), &flags);
    assert!(
        stdout.contains("for pos in blockIdx.x..64 step +gridDim.x"),
        "{stdout}"
    );
    assert!(
        stdout.contains("if blockIdx.x <= 536870911 && 63 + gridDim.x <= 536870911"),
        "{stdout}"
    );
    assert!(stdout.contains("kernel k: DRF"), "{stdout}");
    let (_, stdout) = common::run_on("check", "top_exit.cu", &text("pos % 3 == 2"), &flags);
    assert!(!stdout.contains("for pos in"), "{stdout}");
    assert!(stdout.contains("loop not recognised"), "{stdout}");
}

/// Assumptions no thread satisfies would make every query unsat: the kernel
/// is UNKNOWN, never DRF, and its assertions are not reported as holding.
#[test]
fn contradictory_assumptions_are_unknown_not_drf() {
    let racy = "__global__ void k(int *a, int n) {\n  __requires(n > 4);\n  __requires(n < 2);\n  a[0] = threadIdx.x;\n  assert(n == 3);\n}\n";
    let (code, stdout) = check("contradiction.cu", racy);
    assert!(
        stdout.contains("UNKNOWN") && stdout.contains("contradict each other"),
        "{stdout}"
    );
    assert!(
        !stdout.contains("DRF") && !stdout.contains("holds"),
        "{stdout}"
    );
    assert_eq!(code, Some(2), "{stdout}");
    // A --param value that no precondition allows, and a 1-D grid whose
    // blockIdx.y can never be 16 (GPUVerify's test_axiom pattern).
    let (code, stdout) = check_with(
        "param.cu",
        "__global__ void k(int *a, int n) {\n  __requires(n > 4);\n  a[0] = n;\n}\n",
        &["--param", "n=1"],
    );
    assert!(stdout.contains("contradict each other"), "{stdout}");
    assert_eq!(code, Some(2), "{stdout}");
    let (code, stdout) = check(
        "axiom.cu",
        "__axiom(blockIdx.y == 16);\n__global__ void k(int *a) { a[0] = 1; }\n",
    );
    assert!(stdout.contains("contradict each other"), "{stdout}");
    assert_eq!(code, Some(2), "{stdout}");
    // Consistent assumptions still prove.
    let (code, stdout) = check(
        "consistent.cu",
        "__global__ void k(int *a, int n) {\n  __requires(n > 4);\n  a[blockIdx.x * blockDim.x + threadIdx.x] = n;\n}\n",
    );
    assert!(stdout.contains("DRF"), "{stdout}");
    assert_eq!(code, Some(0), "{stdout}");
}

/// GPUVerify's `--warp-sync=N` is accepted (so corpus flag lines paste as
/// they are) and changes nothing: two threads of one warp still race.
#[test]
fn warp_sync_is_accepted_and_assumes_no_lock_step() {
    let (code, stdout) = check_with(
        "warp_sync.cu",
        "__global__ void k(int *a) { a[threadIdx.x % 32] = a[(threadIdx.x + 1) % 32]; }\n",
        &["--warp-sync=32"],
    );
    assert!(stdout.contains("RACY"), "{stdout}");
    assert_eq!(code, Some(1), "{stdout}");
}

/// An `__assume` after accesses constrains only what follows it: a race
/// before it is still reported (assuming it for the whole kernel would
/// prove this kernel race-free).
#[test]
fn an_assume_after_accesses_does_not_hide_earlier_races() {
    let (code, stdout) = check(
        "late_assume.cu",
        "__global__ void k(int *a) {\n  a[0] = threadIdx.x;\n  __assume(threadIdx.x == 0);\n}\n",
    );
    assert!(stdout.contains("RACY"), "{stdout}");
    // The race is *possible* (the assumption might rule it out): not a
    // certain bug, so exit 2 unless `--fail-on possible`.
    assert!(stdout.contains("[possible"), "{stdout}");
    assert_eq!(code, Some(2), "{stdout}");
    let (code, _) = check_with(
        "late_assume_fail_on.cu",
        "__global__ void k(int *a) {\n  a[0] = threadIdx.x;\n  __assume(threadIdx.x == 0);\n}\n",
        &["--fail-on", "possible"],
    );
    assert_eq!(code, Some(1));
    // Before any access it is a precondition like `__requires`.
    let (code, stdout) = check(
        "early_assume.cu",
        "__global__ void k(int *a) {\n  __assume(threadIdx.x == 0 && blockIdx.x == 0);\n  a[0] = threadIdx.x;\n}\n",
    );
    assert!(stdout.contains("DRF"), "{stdout}");
    assert_eq!(code, Some(0), "{stdout}");
}

/// `--timeout` takes 0..=4294967 seconds (the solvers' 32-bit millisecond
/// limit): beyond it is a usage error (exit 2), never a panic or a solver
/// that rejects its own option.
#[test]
fn timeout_out_of_range_is_a_usage_error() {
    let text = "__global__ void k(int *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 1; }\n";
    for t in ["18446744073709551615", "4294968", "-1", "1e300"] {
        let (code, _) = check_with("timeout_range.cu", text, &["--timeout", t]);
        assert_eq!(code, Some(2), "--timeout {t}");
    }
    let (code, stdout) = check_with("timeout_max.cu", text, &["--timeout", "4294967"]);
    assert!(stdout.contains("kernel k: DRF"), "{stdout}");
    assert_eq!(code, Some(0), "{stdout}");
}

/// Dimensions a kernel never reads are assumed to be 1, and the report
/// says so; `--all-dims` checks every shape CUDA allows, where two threads
/// that differ only in `threadIdx.y` write the same element.
#[test]
fn unread_dimensions_are_assumed_1_unless_all_dims() {
    let text = "__global__ void k(int *a) { if (blockIdx.x == 0) a[threadIdx.x] = 1; }\n";
    let (code, stdout) = common::run_on("check", "one_d.cu", text, &[]);
    assert!(stdout.contains("kernel k: DRF"), "{stdout}");
    assert!(
        stdout.contains("launch: blockDim=(any,1,1), gridDim=(any,1,1)")
            && stdout.contains("blockDim.y/z assumed 1"),
        "{stdout}"
    );
    assert_eq!(code, Some(0), "{stdout}");
    // The race needs `blockDim.y > 1`: for every launch it is not, so it
    // is only possible (exit 2), with a launch free of it named.
    let (code, stdout) = common::run_on("check", "all_dims.cu", text, &["--all-dims"]);
    assert!(stdout.contains("kernel k: RACY"), "{stdout}");
    assert!(
        stdout.contains("launch: blockDim=(any,any,any)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("[possible: only for some launches or arguments: with blockDim.x="),
        "{stdout}"
    );
    assert_eq!(code, Some(2), "{stdout}");
}

/// A launch whose block is constant and whose grid is not fixes the block
/// only (`k<<<(n + 255) / 256, 256>>>`).
#[test]
fn a_constant_block_is_taken_from_a_launch_with_a_runtime_grid() {
    // Blocks of more than 256 threads would make threads 0 and 256 meet.
    let text = "__global__ void k(int *a) { if (blockIdx.x == 0) a[threadIdx.x % 256] = 1; }\n\
                void host(int *d, int n) { k<<<(n + 255) / 256, 256>>>(d); }\n";
    let (code, stdout) = common::run_on("check", "runtime_grid.cu", text, &[]);
    assert!(stdout.contains("kernel k: DRF"), "{stdout}");
    assert!(
        stdout
            .contains("launch: blockDim=(256,1,1), gridDim=(any,1,1) (blockDim from the launch at"),
        "{stdout}"
    );
    assert_eq!(code, Some(0), "{stdout}");
}

/// Sources are read only from regular files of at most 16 MiB: a device
/// (`/dev/zero` would be read for ever), a directory or an oversized file
/// is refused with a message, as the main file (exit 2) and as an
/// `#include` (an error at the directive), never read whole; so is such an
/// `explore --input` file.
#[test]
fn non_regular_and_oversized_sources_are_refused() {
    let dir = std::env::temp_dir().join(format!("warpsafe-sources-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let big = dir.join("big.cu");
    let file = std::fs::File::create(&big).expect("big file");
    file.set_len((16 << 20) + 1).expect("sparse 16 MiB + 1");
    let includer = dir.join("includer.cu");
    std::fs::write(
        &includer,
        "#include \"/dev/zero\"\n__global__ void k(int *a) { a[threadIdx.x] = 1; }\n",
    )
    .expect("includer");
    let run = |path: &Path| {
        let out = Command::new(get_cargo_bin("warpsafe"))
            .arg("check")
            .arg(path)
            .output()
            .expect("runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    for (path, why) in [
        (Path::new("/dev/zero"), "not a regular file"),
        (big.as_path(), "over the limit of 16 MiB"),
    ] {
        let (code, stderr) = run(path);
        assert_eq!(code, Some(2), "{}: {stderr}", path.display());
        assert!(stderr.contains(why), "{}: {stderr}", path.display());
    }
    // A folder is searched: the oversized file in it is reported, and the
    // run is not clean.
    let (code, stderr) = run(&dir);
    assert!(matches!(code, Some(1 | 2)), "{stderr}");
    assert!(stderr.contains("over the limit of 16 MiB"), "{stderr}");
    let (_, stderr) = run(&includer);
    assert!(
        stderr.contains("cannot include `/dev/zero`: not a regular file"),
        "{stderr}"
    );
    // `explore --input` likewise (at most 64 MiB).
    let out = Command::new(get_cargo_bin("warpsafe"))
        .args([
            "explore",
            "--block-dim",
            "2",
            "--grid-dim",
            "1",
            "--input",
            "/dev/zero",
        ])
        .arg(&includer)
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot read the input file `/dev/zero`: not a regular file"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `check REL` in the workspace root: exit status and stdout.
fn check_file(rel: &str, extra: &[&str]) -> (Option<i32>, String) {
    let out = check_command(rel, extra)
        .output()
        .expect("invariant: the binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// A barrier divergence that needs certain arguments (threads past `n`
/// leave before the barrier) is *possible*, named with arguments under
/// which every block agrees, and exits 2; one that happens whatever the
/// host passes (a barrier under `threadIdx.x < 7`) stays provable, exit 1.
#[test]
fn a_divergence_that_needs_certain_arguments_is_possible() {
    let dir = "tests/kernels/constructs";
    let (code, stdout) = check_file(&format!("{dir}/barrier_divergence_by_argument.cu"), &[]);
    assert!(stdout.contains("kernel scale: DIVERGENT"), "{stdout}");
    assert!(
        stdout.contains("[possible: only for some launches or arguments: with n=")
            && stdout.contains("the threads of each block agree at the barrier"),
        "{stdout}"
    );
    assert!(!stdout.contains("[provable]"), "{stdout}");
    assert_eq!(code, Some(2), "{stdout}");
    let (code, stdout) = check_file(&format!("{dir}/barrier_divergence_every_barrier.cu"), &[]);
    assert!(
        stdout.contains("DIVERGENT") && stdout.contains("[provable]"),
        "{stdout}"
    );
    assert_eq!(code, Some(1), "{stdout}");
}

/// Grid-stride loops over a `size_t` count are proven: the 64-bit counter
/// is assumed not to wrap around 2^64, which the report states;
/// `--counter-wrap` checks the wrapping executions too, where the loop is
/// no longer exact and the race is only possible (exit 2).
#[test]
fn wide_loop_counters_are_assumed_not_to_wrap_and_the_report_says_so() {
    let file = "tests/kernels/constructs/loops_grid_stride_size_t.cu";
    let (code, stdout) = check_file(file, &[]);
    assert!(stdout.contains("kernel axpy: DRF"), "{stdout}");
    assert!(stdout.contains("kernel copy_words: DRF"), "{stdout}");
    assert!(
        stdout.contains("note: 64-bit loop counters are assumed not to wrap around 2^64"),
        "{stdout}"
    );
    assert_eq!(code, Some(0), "{stdout}");
    let (code, stdout) = check_file(file, &["--counter-wrap"]);
    assert!(stdout.contains("kernel axpy: RACY"), "{stdout}");
    assert!(!stdout.contains("assumed not to wrap"), "{stdout}");
    assert!(!stdout.contains("[provable]"), "{stdout}");
    assert_eq!(code, Some(2), "{stdout}");
}

/// What the host code's launches say about the dimensions and the
/// parameters together is assumed and stated: `halves<<<blocksFor(n, 256),
/// 256>>>(d, n)` (a helper inlined) keeps every `i` below `n`, so the two
/// halves of the array never meet (the relation also states `n ==
/// main::argc * 4096`, the host's `argc` a host variable). Flags that give
/// the grid drop the relation, as does a write of `n` between the grid's
/// computation and the launch (`grow(&n)`); the rounded-up twin races.
#[test]
fn launch_relations_from_host_code_are_assumed_and_stated() {
    let dir = "tests/kernels/constructs";
    let (code, stdout) = check_file(&format!("{dir}/launch_relation_helper.cu"), &[]);
    assert!(stdout.contains("kernel halves: DRF"), "{stdout}");
    assert!(
        stdout.contains(
            "assuming n == main::argc * 4096 && n / 256 >= 0 && gridDim.x == (u32)(n / 256) from the launch at"
        ),
        "{stdout}"
    );
    assert_eq!(code, Some(0), "{stdout}");
    let (code, stdout) = check_file(
        &format!("{dir}/launch_relation_helper.cu"),
        &["--grid-dim", "64"],
    );
    assert!(stdout.contains("kernel halves: RACY"), "{stdout}");
    assert!(!stdout.contains("assuming"), "{stdout}");
    // With the grid given by hand, `n` is no longer tied to it: the race
    // needs `0 < n` below the threads of a block, so it is only possible.
    assert!(
        stdout.contains("[possible: only for some launches"),
        "{stdout}"
    );
    assert_eq!(code, Some(2), "{stdout}");
    // The rounded-up grid races when `n` is not a multiple of 256: for
    // the launches where it is, nothing collides, so the race is only
    // possible, with such an `n` named.
    let racy = "launch_relation_helper_racy.cu";
    let (code, stdout) = check_file(&format!("{dir}/{racy}"), &[]);
    assert!(stdout.contains("kernel halves: RACY"), "{racy}: {stdout}");
    assert!(
        stdout.contains("[possible: only for some launches or arguments: with n="),
        "{racy}: {stdout}"
    );
    assert_eq!(code, Some(2), "{racy}: {stdout}");
    // Without the relation, `n` may be any value, and with `n` at least
    // the number of threads nothing collides: the race is only possible.
    let (code, stdout) = check_file(&format!("{dir}/launch_relation_changed.cu"), &[]);
    assert!(stdout.contains("kernel halves: RACY"), "{stdout}");
    assert!(!stdout.contains("assuming"), "{stdout}");
    assert!(
        stdout.contains("[possible: only for some launches or arguments: with n="),
        "{stdout}"
    );
    assert_eq!(code, Some(2), "{stdout}");
}

/// The image kernel without a bounds check is race-free for the launch its
/// host code makes (`width / 16` blocks of 16), assuming the width is not
/// negative, which the report states; rounding the grid up races for
/// widths that are not a multiple of 16.
#[test]
fn an_image_kernel_launched_with_exact_rows_is_race_free() {
    let dir = "tests/kernels/constructs";
    let (code, stdout) = check_file(&format!("{dir}/launch_relation_image.cu"), &[]);
    assert!(stdout.contains("kernel brighten: DRF"), "{stdout}");
    assert!(
        stdout.contains("assuming width >= 0 && gridDim.x == (u32)width / 16u"),
        "{stdout}"
    );
    assert_eq!(code, Some(0), "{stdout}");
    // Racy for widths that are not a multiple of 16 only: possible, with
    // a clean width named.
    let (code, stdout) = check_file(&format!("{dir}/launch_relation_image_racy.cu"), &[]);
    assert!(stdout.contains("kernel brighten: RACY"), "{stdout}");
    assert!(
        stdout.contains("[possible: only for some launches or arguments: with width="),
        "{stdout}"
    );
    assert_eq!(code, Some(2), "{stdout}");
}

/// A race that needs unsigned index arithmetic to wrap around 2^32 (rows of
/// a 4 Gi-pixel image meeting) is only *possible*, with the reason, and
/// the exit status says "not proven" (2), not "bug" (1).
#[test]
fn a_race_that_needs_unsigned_wrap_around_is_only_possible() {
    let text = "__global__ void k(float *out, int width, int height) {\n\
                \x20 unsigned x = blockIdx.x * blockDim.x + threadIdx.x;\n\
                \x20 unsigned y = blockIdx.y * blockDim.y + threadIdx.y;\n\
                \x20 if (x < width && y < height) out[y * width + x] = 1.0f;\n\
                }\n";
    let (code, stdout) = common::run_on("check", "unsigned_rows.cu", text, &[]);
    assert!(stdout.contains("kernel k: RACY"), "{stdout}");
    // Whether the solver refutes every wrap-free witness within its short
    // limit or only finds none, the race is possible because of the wrap.
    assert!(
        stdout.contains("[possible: only when unsigned arithmetic in the index")
            || stdout.contains("[possible: the solver found no witness in which unsigned"),
        "{stdout}"
    );
    assert!(!stdout.contains("[provable]"), "{stdout}");
    assert_eq!(code, Some(2), "{stdout}");
}

/// A launch through a function pointer (`kernel = &copyRows; ...
/// kernel<<<grid, threads>>>(...)`) is a launch of every kernel assigned
/// to the pointer: both kernels take its block, and parameters it fixes to
/// constants fold into the grid; an unread grid dimension that the launch
/// gives is not assumed 1 (which contradicted the launch).
#[test]
fn a_launch_through_a_function_pointer_launches_each_kernel_it_may_hold() {
    let (code, stdout) = check_file("tests/kernels/constructs/launch_function_pointer.cu", &[]);
    for kernel in ["copyRows", "clearTile"] {
        let report = stdout
            .split("kernel ")
            .find(|r| r.starts_with(kernel))
            .unwrap_or_else(|| panic!("no report for {kernel}: {stdout}"));
        assert!(report.contains(": DRF"), "{stdout}");
        assert!(
            report.contains("launch: blockDim=(32,8,1), gridDim=(32,32,1)"),
            "{stdout}"
        );
    }
    assert_eq!(code, Some(0), "{stdout}");
}

/// `dim3 threads(side, side);` (identifiers only) parses as a function
/// declaration. It is still the block: constant arguments give the launch
/// (16x16 here), runtime ones leave the block open, and never a 1-D block,
/// which would call the racy twin (rows of the block write one element)
/// race-free.
#[test]
fn a_dim3_declared_with_identifiers_only_is_the_launch_block() {
    let dir = "tests/kernels/constructs";
    let (code, stdout) = check_file(&format!("{dir}/launch_vexing_dim3.cu"), &[]);
    assert!(stdout.contains("kernel tile: DRF"), "{stdout}");
    assert!(stdout.contains("blockDim=(16,16,1)"), "{stdout}");
    assert_eq!(code, Some(0), "{stdout}");
    let (code, stdout) = check_file(&format!("{dir}/launch_vexing_dim3_racy.cu"), &[]);
    assert!(stdout.contains("kernel rows: RACY"), "{stdout}");
    assert!(stdout.contains("blockDim=(any,any,1)"), "{stdout}");
    assert!(stdout.contains("[provable]"), "{stdout}");
    assert_eq!(code, Some(1), "{stdout}");
}

/// The conditions under which the host reaches a launch (an early
/// `return`, an enclosing `if`, the `case` of a `switch`) are part of the
/// launch relation: with `2 <= n <= 1024` the doubling loop over `n` cannot
/// wrap, so it is a counting loop and the kernel is DRF; a `--block-dim`
/// flag drops the relation and the loop is one of unknown length, whose
/// counter every thread starts and doubles alike, so its barriers still
/// align. The conditions never hide a race: `k != 0` leaves
/// `out[threadIdx.x / k]` racy.
#[test]
fn conditions_on_the_way_to_a_launch_are_assumed() {
    let dir = "tests/kernels/constructs";
    let (code, stdout) = check_file(&format!("{dir}/launch_path_conditions.cu"), &[]);
    assert!(stdout.contains("kernel passes: DRF"), "{stdout}");
    assert!(
        stdout.contains("assuming n <= 1024u && n >= 2u && blockDim.x == 512u || n <= 1024u && n >= 2u && blockDim.x == 1024u"),
        "{stdout}"
    );
    assert_eq!(code, Some(0), "{stdout}");
    let (code, stdout) = check_file(
        &format!("{dir}/launch_path_conditions.cu"),
        &["--block-dim", "512"],
    );
    assert!(stdout.contains("kernel passes: DRF"), "{stdout}");
    assert!(!stdout.contains("assuming n <= 1024u"), "{stdout}");
    assert_eq!(code, Some(0), "{stdout}");
    let (code, stdout) = check_file(&format!("{dir}/launch_path_conditions_racy.cu"), &[]);
    assert!(stdout.contains("kernel bucket: RACY"), "{stdout}");
    assert!(stdout.contains("assuming k != 0u"), "{stdout}");
    assert!(stdout.contains("blockDim=(256,1,1)"), "{stdout}");
    // Threads share an element only when k > 1: for k == 1, which the
    // host may pass, nothing collides, so the race is only possible.
    assert!(
        stdout.contains("[possible: only for some launches or arguments: with k=1 "),
        "{stdout}"
    );
    assert_eq!(code, Some(2), "{stdout}");
}

/// A launch whose block size is a parameter of the host function around
/// it takes the constant the file's only call passes (through a caller's
/// own parameter, from `main`'s local), and the report says so: a 32x32
/// block over a 32x32 tile is DRF. The same mechanism never hides a race:
/// the twin's call passes 32 for a 16x16 tile, a provable race.
#[test]
fn a_block_size_fixed_by_the_callers_is_the_launch_block() {
    let dir = "tests/kernels/constructs";
    let (code, stdout) = check_file(&format!("{dir}/launch_caller_constant.cu"), &[]);
    assert!(stdout.contains("kernel tileCopy: DRF"), "{stdout}");
    assert!(stdout.contains("blockDim=(32,32,1)"), "{stdout}");
    assert!(
        stdout.contains("assuming width == 320 && block_size == 32 && height == 160 in launchCopy from the call at tests/kernels/constructs/launch_caller_constant.cu:29:3"),
        "{stdout}"
    );
    assert_eq!(code, Some(0), "{stdout}");
    let (code, stdout) = check_file(&format!("{dir}/launch_caller_constant_racy.cu"), &[]);
    assert!(stdout.contains("kernel tileCopy: RACY"), "{stdout}");
    assert!(stdout.contains("blockDim=(32,32,1)"), "{stdout}");
    assert!(stdout.contains("[provable]"), "{stdout}");
    assert_eq!(code, Some(1), "{stdout}");
}

/// `assert(oddPart(log2L, n) == 1)` through a helper that strips trailing
/// zero bits says that `n` is a power of two, which a scan's
/// `pos = 2 * t - (t & (size - 1))` needs: DRF, with the helper's closed form in the
/// relation. A helper that halves twice per iteration is not read, and
/// the race for sizes that are not powers of two stays (possible).
#[test]
fn a_power_of_two_checked_by_a_host_helper_is_assumed() {
    let dir = "tests/kernels/constructs";
    let (code, stdout) = check_file(&format!("{dir}/launch_power_of_two.cu"), &[]);
    assert!(stdout.contains("kernel scanPairs: DRF"), "{stdout}");
    assert!(
        stdout.contains(
            "assuming size != 0u && (size & size - 1u) == 0u && (size >= 2u && size <= 256u)"
        ),
        "{stdout}"
    );
    assert_eq!(code, Some(0), "{stdout}");
    let (code, stdout) = check_file(&format!("{dir}/launch_power_of_two_racy.cu"), &[]);
    assert!(stdout.contains("kernel scanPairs: RACY"), "{stdout}");
    assert!(
        stdout.contains("assuming size >= 2u && size <= 256u from"),
        "{stdout}"
    );
    assert_eq!(code, Some(2), "{stdout}");
}

/// A merge network's `size <<= 1` and `stride >>= 1` counters hold only
/// powers of two (or 0): the relation states it for the parameters they
/// are passed as, and the merge step is DRF. A stride that steps down by
/// one takes every value, and the race for a stride of 3 stays.
#[test]
fn counters_that_only_double_or_halve_are_powers_of_two() {
    let dir = "tests/kernels/constructs";
    let (code, stdout) = check_file(&format!("{dir}/launch_merge_steps.cu"), &[]);
    assert!(stdout.contains("kernel mergeStep: DRF"), "{stdout}");
    assert!(
        stdout.contains("assuming (size & size - 1u) == 0u && (stride & stride - 1u) == 0u from"),
        "{stdout}"
    );
    assert_eq!(code, Some(0), "{stdout}");
    let (code, stdout) = check_file(&format!("{dir}/launch_merge_steps_racy.cu"), &[]);
    assert!(stdout.contains("kernel mergeStep: RACY"), "{stdout}");
    assert!(
        stdout.contains("assuming (size & size - 1u) == 0u from"),
        "{stdout}"
    );
    assert_eq!(code, Some(2), "{stdout}");
}

/// A pitch divided in place into elements (`stride /= sizeof(float)`) and
/// the fields of a struct the launching function holds by value
/// (`size.width`, also passed to a function declared to take it by value)
/// are host values of the relation, so the grid's columns stay within the
/// pitch's row and the kernel is DRF; the twin that divides by the size of
/// a double races. Passed to a function declared to take a reference, the
/// struct may change there: the grid computed after that call does not
/// read its width (the pitch's width, read before, still does), and the
/// race stays.
#[test]
fn pitches_divided_in_place_and_by_value_struct_fields_are_host_values() {
    let file = "tests/kernels/constructs/launch_pitch_divided.cu";
    let (code, stdout) = check_file(file, &[]);
    assert!(stdout.contains("kernel clear: DRF"), "{stdout}");
    assert!(
        stdout.contains(
            "assuming stride == (i32)(run::stride / 4u) && run::size.width / 8 >= 0 && gridDim.x == (u32)(run::size.width / 8) && (run::stride >= (u64)run::size.width * 4u && run::stride <= 2147483647u) from"
        ),
        "{stdout}"
    );
    assert_eq!(code, Some(0), "{stdout}");
    let (code, stdout) = check_file("tests/kernels/constructs/launch_pitch_divided_racy.cu", &[]);
    assert!(stdout.contains("kernel clear: RACY"), "{stdout}");
    assert!(
        stdout.contains("stride == (i32)(run::stride / 8u)"),
        "{stdout}"
    );
    assert_eq!(code, Some(2), "{stdout}");
    let text = std::fs::read_to_string(workspace_root().join(file))
        .expect("invariant: the construct kernel exists")
        .replace("Extent size);", "Extent &size);");
    let (code, stdout) = common::run_on("check", "by_reference.cu", &text, &[]);
    assert!(stdout.contains("kernel clear: RACY"), "{stdout}");
    assert!(
        !stdout.contains("gridDim.x == (u32)(run::size.width"),
        "{stdout}"
    );
    assert_eq!(code, Some(2), "{stdout}");
}

/// A kernel launched from an `extern "C"` wrapper that only the
/// program's other file calls: that file's constants fix the wrapper's
/// parameters (stated with its calls), and the 256x256 map is DRF. When
/// one of its calls passes another width, nothing is fixed and the race
/// for widths that are no multiple of 8 stays.
#[test]
fn a_wrapper_called_from_the_programs_other_file_takes_its_constants() {
    let (code, stdout) = check_file("tests/programs/heightmap/heightmap_kernel.cu", &[]);
    assert!(stdout.contains("kernel updateHeightmap: DRF"), "{stdout}");
    assert!(
        stdout.contains(
            "assuming width == 256 && height == 256 in runUpdateHeightmap from the 2 calls at tests/programs/heightmap/main.cu:14:3"
        ),
        "{stdout}"
    );
    assert_eq!(code, Some(0), "{stdout}");
    let (code, stdout) = check_file("tests/programs/heightmap_racy/heightmap_kernel.cu", &[]);
    assert!(stdout.contains("kernel updateHeightmap: RACY"), "{stdout}");
    assert!(!stdout.contains("in runUpdateHeightmap from"), "{stdout}");
    assert_eq!(code, Some(2), "{stdout}");
}

/// A kernel defined in one file and launched only from the program's
/// other file, from host and device code: every launch has one block, so
/// the kernel that never reads `blockIdx` is DRF. When the device-side
/// launch has two blocks, its grid is not known and the race stays.
#[test]
fn a_kernel_launched_only_from_the_programs_other_file_takes_those_launches() {
    let (code, stdout) = check_file("tests/programs/split_launch/rows.cu", &[]);
    assert!(stdout.contains("kernel fill_row: DRF"), "{stdout}");
    assert!(
        stdout.contains(
            "gridDim=(1,1,1) (gridDim from the launch at tests/programs/split_launch/main.cu:11:3"
        ),
        "{stdout}"
    );
    assert_eq!(code, Some(0), "{stdout}");
    let (code, stdout) = check_file("tests/programs/split_launch_racy/rows.cu", &[]);
    assert!(stdout.contains("kernel fill_row: RACY"), "{stdout}");
    assert!(stdout.contains("gridDim=(any,1,1)"), "{stdout}");
    assert_eq!(code, Some(2), "{stdout}");
}

/// Kernels compiled at run time and launched by name through the driver
/// API from the program's other file: each takes the block of the launch
/// that looked it up (`if (bs == 16) cuModuleGetFunction(..., "transpose16")`)
/// and the grid's relation to the width, and both are DRF. When the host
/// mixes the names up, the 16x16 tile is launched with 32x32 blocks and
/// its race is provable.
#[test]
fn a_kernel_launched_by_name_through_the_driver_api_takes_that_launch() {
    let (code, stdout) = check_file("tests/programs/nvrtc_tiles/tiles_kernel.cu", &[]);
    assert!(stdout.contains("kernel transpose16: DRF"), "{stdout}");
    assert!(stdout.contains("kernel transpose32: DRF"), "{stdout}");
    assert!(
        stdout.contains("launch: blockDim=(16,16,1), gridDim=(any,any,1) (gridDim.z and blockDim from the launch at tests/programs/nvrtc_tiles/main.cpp:17:19"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "gridDim.x == (u32)(width / 32) && gridDim.y == (u32)(width / 32) from the launch at"
        ),
        "{stdout}"
    );
    assert_eq!(code, Some(0), "{stdout}");
    let (code, stdout) = check_file("tests/programs/nvrtc_tiles_racy/tiles_kernel.cu", &[]);
    assert!(stdout.contains("kernel transpose16: RACY"), "{stdout}");
    assert!(
        stdout.contains("race on `tile` (shared) between threads of one block [provable]"),
        "{stdout}"
    );
    assert_eq!(code, Some(1), "{stdout}");
}

/// A folder run over the program checks both of its files: the one read
/// for its calls is not taken to be included by the other.
#[test]
fn a_file_read_for_its_calls_is_still_checked_on_its_own() {
    let out = check_command("tests/programs/heightmap/main.cu", &[])
        .arg("tests/programs/heightmap/heightmap_kernel.cu")
        .output()
        .expect("invariant: the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("==> tests/programs/heightmap/heightmap_kernel.cu <=="),
        "{stdout}"
    );
    assert!(
        stdout.contains("==> tests/programs/heightmap/main.cu <=="),
        "{stdout}"
    );
    assert!(stdout.contains("kernel clearMap: DRF"), "{stdout}");
    assert!(stdout.contains("kernel updateHeightmap: DRF"), "{stdout}");
}

/// A directory with more than 16 other source files is a collection of
/// programs (a test suite), not one program: its files' calls are not
/// read, and the heightmap kernel keeps its possible race.
#[test]
fn a_directory_of_many_programs_is_not_read_as_one() {
    let dir = std::env::temp_dir().join(format!("warpsafe-companions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("invariant: the temporary directory is writable");
    for f in ["heightmap_kernel.cu", "main.cu"] {
        std::fs::copy(
            workspace_root().join(format!("tests/programs/heightmap/{f}")),
            dir.join(f),
        )
        .expect("invariant: the program's files exist");
    }
    for i in 0..16 {
        std::fs::write(dir.join(format!("other{i}.cu")), "void f() {}\n")
            .expect("invariant: the temporary directory is writable");
    }
    let kernel = dir.join("heightmap_kernel.cu");
    let (code, stdout) = check_file(&kernel.display().to_string(), &[]);
    std::fs::remove_dir_all(&dir).ok();
    assert!(stdout.contains("kernel updateHeightmap: RACY"), "{stdout}");
    assert_eq!(code, Some(2), "{stdout}");
}

/// A tiled loop `for (int a = first; a <= last; a += 256)` with barriers
/// (matrixMul's shape) is a counting loop: with a signed `a`, `last ==
/// INT_MAX` could only end by overflowing `a` (undefined), so the barriers
/// align and the kernel is DRF; without the second barrier it races.
#[test]
fn a_signed_inclusive_tiled_loop_with_barriers_aligns() {
    let dir = "tests/kernels/constructs";
    let (code, stdout) = check_file(&format!("{dir}/loops_signed_le.cu"), &[]);
    assert!(stdout.contains("kernel tiles: DRF"), "{stdout}");
    assert_eq!(code, Some(0), "{stdout}");
    let (code, stdout) = check_file(&format!("{dir}/loops_signed_le_racy.cu"), &[]);
    assert!(stdout.contains("kernel tiles: RACY"), "{stdout}");
    assert!(stdout.contains("race on `s` (shared)"), "{stdout}");
    assert_eq!(code, Some(1), "{stdout}");
}

/// A host value that is written before the launch gives no dimension or
/// relation: `cudaOccupancyMaxPotentialBlockSize(&blocks, &threads, k)`
/// sets `int blocks = 0, threads = 0;` (read as a zero-size launch before),
/// and a parameter's default value is not its value (`run(d, n, 64)`).
/// The kernel races whenever the grid has two blocks.
#[test]
fn host_values_written_before_the_launch_or_defaulted_are_not_assumed() {
    let kernel = "__global__ void k(int *a, int n) {\n\
                  \x20 if (threadIdx.x == 0) a[n] = blockIdx.x;\n\
                  }\n";
    let occupancy = format!(
        "{kernel}void run(int *d, int n) {{\n\
         \x20 int blocks = 0, threads = 0;\n\
         \x20 cudaOccupancyMaxPotentialBlockSize(&blocks, &threads, k);\n\
         \x20 k<<<blocks, threads>>>(d, n);\n\
         }}\n"
    );
    let (code, stdout) = common::run_on("check", "occupancy.cu", &occupancy, &[]);
    assert!(stdout.contains("kernel k: RACY"), "{stdout}");
    assert!(
        stdout.contains("blockDim=(any,1,1), gridDim=(any,1,1)"),
        "{stdout}"
    );
    assert_eq!(code, Some(1), "{stdout}");
    let defaulted = format!(
        "{kernel}void run(int *d, int n, int blocks = 1) {{\n\
         \x20 k<<<blocks, 256>>>(d, n);\n\
         }}\n"
    );
    let (code, stdout) = common::run_on("check", "defaulted.cu", &defaulted, &[]);
    assert!(stdout.contains("kernel k: RACY"), "{stdout}");
    assert!(stdout.contains("gridDim=(any,1,1)"), "{stdout}");
    assert!(!stdout.contains("assuming"), "{stdout}");
    assert_eq!(code, Some(1), "{stdout}");
}

/// `--kernel` takes an instantiation as reports name it (`scale<2>`), and
/// says which exist when it names none.
#[test]
fn kernel_flag_takes_an_instantiation() {
    let rel = "tests/kernels/constructs/template_instantiations.cu";
    let (code, stdout) = check_file(rel, &["--kernel", "scale<2>"]);
    assert!(stdout.contains("kernel scale<2>:"), "{stdout}");
    assert!(!stdout.contains("kernel scale<1>"), "{stdout}");
    assert_eq!(code, Some(0), "{stdout}");
    let out = check_command(rel, &["--kernel", "scale<3>"])
        .output()
        .expect("invariant: the binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("no instantiation scale<3> of kernel `scale`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("instantiations: scale<1>, scale<2>, scale<4>"),
        "{stderr}"
    );
    assert_eq!(out.status.code(), Some(2), "{stderr}");
}

/// `dim3 threads(side, side)` with `side` unknown is a square block
/// (`blockDim.x == blockDim.y`, stated): at most 32x32 threads, so a 32x32
/// tile indexed by `threadIdx` stays in bounds and the transpose is DRF; a
/// 64x16 block (given by flag) races.
#[test]
fn a_block_built_from_one_unknown_side_is_square() {
    let rel = "tests/kernels/constructs/launch_square_block.cu";
    let (code, stdout) = check_file(rel, &[]);
    assert!(stdout.contains("kernel transposeTile: DRF"), "{stdout}");
    assert!(
        stdout.contains("assuming blockDim.x == blockDim.y"),
        "{stdout}"
    );
    assert_eq!(code, Some(0), "{stdout}");
    let (code, stdout) = check_file(rel, &["--block-dim", "64,16"]);
    assert!(stdout.contains("kernel transposeTile: RACY"), "{stdout}");
    assert_eq!(code, Some(1), "{stdout}");
}

/// `__syncwarp()` orders the lanes of one warp: a warp reduction with it
/// between steps is DRF; without it the lanes race; between two warps it
/// orders nothing; reached by half a warp it is divergence (named as one
/// between threads of a warp). (`explore` agrees on each, but takes
/// minutes on 64 threads in a debug build; the differential test compares
/// the engines on random kernels with warp and tile barriers.)
#[test]
fn warp_barriers_order_the_lanes_of_one_warp() {
    let dir = "tests/kernels/constructs";
    for (file, verdict, code) in [
        ("syncwarp_reduction.cu", "kernel reduceWarp: DRF", 0),
        ("syncwarp_reduction_racy.cu", "kernel reduceWarp: RACY", 1),
        ("syncwarp_across_warps_racy.cu", "kernel swapWarps: RACY", 1),
        ("syncwarp_divergent.cu", "kernel halfWarp: DIVERGENT", 1),
        ("syncwarp_masks.cu", "kernel warpFold: DRF", 0),
        ("coop_groups_block_tile.cu", "kernel tileSums: DRF", 0),
    ] {
        let (got, stdout) = check_file(&format!("{dir}/{file}"), &[]);
        assert!(stdout.contains(verdict), "{file}: {stdout}");
        assert!(!stdout.contains("[possible"), "{file}: {stdout}");
        assert_eq!(got, Some(code), "{file}: {stdout}");
    }
    let (_, stdout) = check_file(&format!("{dir}/syncwarp_divergent.cu"), &[]);
    assert!(
        stdout.contains("barrier under a condition that differs between threads of a warp"),
        "{stdout}"
    );
}

/// Idioms of real CUDA code lower and get their verdicts: the
/// `SharedMemory<T>` class template (its conversion to `T *`, specialised
/// for `double`), one kernel per explicit instantiation, launches from a
/// host function template or from a member of a class template
/// instantiated by the file, launches through `cudaLaunchCooperativeKernel`,
/// the `dim3` a launch sees when sibling blocks
/// declare one each (or an inner block shadows it), conversions written as calls (`Real(4.0)`,
/// `(clock_t)(x)`), `frexp` and `__sincosf` (results stored through
/// pointers), the grid group's `size()`, and warp exchanges
/// (shuffles, votes, a tile's `shfl_down`, `cg::reduce`) as unknown values
/// that order no memory: a race that needs a shuffled value is possible,
/// never provable, with the shuffle named. (Each file's line-2 flags give
/// the launch.)
#[test]
fn shared_memory_templates_host_templates_and_shuffles_lower() {
    let dir = "tests/kernels/constructs";
    for (file, verdicts, code) in [
        (
            "shared_memory_template.cu",
            &[
                "kernel blockSum<double>: DRF",
                "kernel blockSum<float>: DRF",
            ][..],
            0,
        ),
        (
            "shared_memory_template_racy.cu",
            &["kernel blockSum: RACY", "race on `dyn_words` (shared)"],
            1,
        ),
        (
            "launch_template_host.cu",
            &["kernel scale<float, 2>: DRF", "kernel scale<int, 2>: DRF"],
            0,
        ),
        (
            "warp_shuffle_reduction.cu",
            &["kernel blockReduce: DRF", "kernel tileReduce: DRF"],
            0,
        ),
        ("launch_template_class_member.cu", &["kernel count: DRF"], 0),
        (
            "launch_sibling_scopes.cu",
            &["kernel fillA: DRF", "kernel fillB: DRF", "gridDim=(1,1,1)"],
            0,
        ),
        (
            "launch_sibling_scopes_racy.cu",
            &["kernel fillB: RACY", "gridDim=(2,1,1)"],
            1,
        ),
        (
            "launch_cooperative_api.cu",
            &[
                "kernel partials: DRF",
                "gridDim.y/z and blockDim.y/z from the launch",
            ],
            0,
        ),
        (
            "launch_cooperative_api_racy.cu",
            &["kernel partials: RACY", "gridDim=(any,2,1)"],
            1,
        ),
        (
            "functional_casts_frexp.cu",
            &["kernel scaleByExponent: DRF"],
            0,
        ),
        ("builtins_sincos_grid_size.cu", &["kernel rotate: DRF"], 0),
        (
            "builtins_sincos_grid_size_racy.cu",
            &[
                "kernel rotate: RACY",
                "race on `sines`",
                "race on `cosines`",
            ],
            1,
        ),
        (
            "warp_shuffle_reduction_racy.cu",
            &["kernel blockReduce: RACY", "race on `partial` (shared)"],
            1,
        ),
    ] {
        let (got, stdout) = check_file(&format!("{dir}/{file}"), &[]);
        for v in verdicts {
            assert!(stdout.contains(v), "{file}: {stdout}");
        }
        assert_eq!(got, Some(code), "{file}: {stdout}");
    }
    let (got, stdout) = check_file(&format!("{dir}/warp_shuffle_index.cu"), &[]);
    assert!(stdout.contains("kernel scatter: RACY"), "{stdout}");
    assert!(
        stdout.contains(
            "[possible: depends on an unknown value (value from other lanes by `__shfl_xor_sync`"
        ),
        "{stdout}"
    );
    assert!(!stdout.contains("[provable]"), "{stdout}");
    assert_eq!(got, Some(2), "{stdout}");
}

/// A race is *provable* only when it happens for every value of the
/// parameters and open launch dimensions that the program allows (its
/// preconditions and launch relations): rows of `pitch` elements collide
/// only when `pitch <
/// width`, so that race is *possible* (exit 2) and the report names
/// values without one; a race on `a[n]` between blocks happens for every
/// `n` and grid of two blocks or more, so it stays provable (exit 1).
/// Launch relations from host code narrow the values asked about.
/// `rows`' question takes z3 seconds: with a long `--timeout` its answer
/// depends on z3's resource limit only, not on the machine's load.
#[test]
fn a_race_that_needs_some_arguments_is_only_possible() {
    let rows = "__global__ void rows(float *out, int width, int pitch) {\n\
                \x20 int x = threadIdx.x;\n\
                \x20 int y = blockIdx.x;\n\
                \x20 if (x < width) out[y * pitch + x] = 1.0f;\n\
                }\n";
    let (code, stdout) = common::run_on("check", "rows.cu", rows, &["--timeout", "60"]);
    assert!(stdout.contains("kernel rows: RACY"), "{stdout}");
    assert!(
        stdout.contains("[possible: only for some launches or arguments: with width="),
        "{stdout}"
    );
    assert!(!stdout.contains("[provable]"), "{stdout}");
    assert_eq!(code, Some(2), "{stdout}");

    let every = "__global__ void every(int *a, int n) {\n\
                 \x20 if (threadIdx.x == 0) a[n] = blockIdx.x;\n\
                 }\n";
    let (code, stdout) = common::run_on("check", "every.cu", every, &[]);
    assert!(stdout.contains("kernel every: RACY"), "{stdout}");
    assert!(stdout.contains("[provable]"), "{stdout}");
    assert_eq!(code, Some(1), "{stdout}");

    // A kernel that never reads blockIdx or gridDim is written for one
    // block: with no launch in the file, its race between blocks needs a
    // grid the program most likely never launches.
    let single = "__global__ void single(int *a) { a[threadIdx.x] = 1; }\n";
    let (code, stdout) = common::run_on("check", "single.cu", single, &[]);
    assert!(stdout.contains("kernel single: RACY"), "{stdout}");
    assert!(
        stdout.contains("[possible: only when the grid has more than one block"),
        "{stdout}"
    );
    assert_eq!(code, Some(2), "{stdout}");
    let (code, stdout) = common::run_on("check", "single4.cu", single, &["--grid-dim", "4"]);
    assert!(stdout.contains("[provable]"), "{stdout}");
    assert_eq!(code, Some(1), "{stdout}");

    // The host passes `pitch = 0` (a bug): every launch it can make
    // collides rows, so the race is provable again.
    let launched = format!(
        "{rows}void run(float *d, int w, int h) {{\n\
         \x20 rows<<<h, w>>>(d, w, 0);\n\
         }}\n"
    );
    let (code, stdout) = common::run_on("check", "rows_launched.cu", &launched, &[]);
    assert!(stdout.contains("kernel rows: RACY"), "{stdout}");
    assert!(stdout.contains("[provable]"), "{stdout}");
    assert_eq!(code, Some(1), "{stdout}");
}
