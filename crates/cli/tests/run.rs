//! `warpsafe run` (the schedule explorer, seed 003) as a user runs it: exit
//! statuses, replay tokens, final-state comparison, large grids, and what
//! it says when it cannot finish.

use insta_cmd::get_cargo_bin;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn run(args: &[&str]) -> Output {
    Command::new(get_cargo_bin("warpsafe"))
        .current_dir(root())
        .arg("run")
        .args(args)
        .output()
        .expect("invariant: the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).expect("--format json prints JSON")
}

/// A kernel written to a temporary file.
fn kernel_file(name: &str, src: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warpsafe-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, src).expect("writes the kernel");
    path
}

#[test]
fn errors_exit_1_and_a_clean_bounded_search_exits_2_unless_accepted() {
    let bug = run(&[
        "tests/kernels/sched/tsp_best.cu",
        "--gridDim=2",
        "--blockDim=1",
        "--volatile=atomic",
    ]);
    assert_eq!(bug.status.code(), Some(1), "{}", stdout(&bug));
    let fixed = [
        "tests/kernels/sched/tsp_best_fixed.cu",
        "--gridDim=2",
        "--blockDim=1",
        "--volatile=atomic",
    ];
    let clean = run(&fixed);
    assert!(
        stdout(&clean).contains("NO ERROR FOUND in"),
        "{}",
        stdout(&clean)
    );
    assert!(stdout(&clean).contains("not a proof"));
    assert_eq!(clean.status.code(), Some(2));
    let accepted = run(&[&fixed[..], &["--bounded-ok"]].concat());
    assert_eq!(accepted.status.code(), Some(0));
}

#[test]
fn a_replay_token_reproduces_the_failing_schedule() {
    let args = [
        "tests/kernels/sched/nbody_insert.cu",
        "--gridDim=2",
        "--blockDim=1",
        "--volatile=atomic",
    ];
    let first = json(&run(&[&args[..], &["--format", "json"]].concat()));
    let error = &first["kernels"][0]["errors"][0];
    assert_eq!(error["kind"], "assert");
    let token = error["replay"].as_str().expect("a token");
    assert!(!error["delays"].as_array().expect("delays").is_empty());
    let again = run(&[&args[..], &["--replay", token, "--format", "json"]].concat());
    assert_eq!(again.status.code(), Some(1));
    let v = json(&again);
    assert_eq!(v["replay"], true);
    assert_eq!(v["kernels"][0]["summary"]["schedules"], 1);
    assert_eq!(v["kernels"][0]["errors"][0]["message"], error["message"]);
    // Another launch: the token does not belong to it.
    let other = run(&[
        "tests/kernels/sched/nbody_insert.cu",
        "--gridDim=3",
        "--blockDim=1",
        "--volatile=atomic",
        "--replay",
        token,
    ]);
    assert_eq!(other.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&other.stderr).contains("belongs to no kernel"));
}

#[test]
fn compare_final_reports_two_schedules_that_end_differently() {
    let o = run(&[
        "tests/kernels/sched/last_writer.cu",
        "--gridDim=2",
        "--blockDim=1",
        "--compare-final",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v = json(&o);
    let d = &v["kernels"][0]["final_difference"];
    assert_eq!(d["locations"][0]["location"], "winner[0]");
    assert_ne!(d["locations"][0]["first"], d["locations"][0]["second"]);
    assert_ne!(d["first"], d["second"]);
    // Without the flag there is no error.
    let plain = run(&[
        "tests/kernels/sched/last_writer.cu",
        "--gridDim=2",
        "--blockDim=1",
        "--bounded-ok",
    ]);
    assert_eq!(plain.status.code(), Some(0), "{}", stdout(&plain));
}

/// A 64x256 grid with a 100-iteration loop per thread runs in one
/// canonical schedule (where DPOR keeps a vector clock per event).
#[test]
fn a_large_grid_runs_in_its_canonical_schedule() {
    let path = kernel_file(
        "large.cu",
        r#"
__global__ void smooth(float *a, float *b) {
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < 100; k++) acc += a[i] * k;
    s[threadIdx.x] = acc;
    __syncthreads();
    b[i] = s[(threadIdx.x + 1) % 256];
}"#,
    );
    let file = path.display().to_string();
    let o = run(&[
        &file,
        "--gridDim=64",
        "--blockDim=256",
        "--format",
        "json",
        "--bounded-ok",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let v = json(&o);
    assert_eq!(v["kernels"][0]["verdict"], "no-error-found");
    assert_eq!(v["kernels"][0]["summary"]["schedules"], 1);
    // The same kernel without its barrier races between neighbours.
    let racy = kernel_file(
        "large_racy.cu",
        &std::fs::read_to_string(&path)
            .expect("reads")
            .replace("__syncthreads();", ""),
    );
    let o = run(&[
        &racy.display().to_string(),
        "--gridDim=64",
        "--blockDim=256",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("data race on s["), "{}", stdout(&o));
}

#[test]
fn a_loop_that_never_ends_and_a_hang_are_unknown_or_errors_with_their_loop() {
    let spin = kernel_file(
        "spin.cu",
        "__global__ void wait(int *flag) {\n  while (atomicAdd(flag, 0) == 0) {}\n}\n",
    );
    let o = run(&[&spin.display().to_string(), "--gridDim=2", "--blockDim=1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("hang: threads spin"), "{}", stdout(&o));
    let endless = kernel_file(
        "endless.cu",
        "__global__ void count(int *a) {\n  int i = 0;\n  while (a[0] == 0) { i++; }\n  a[1] = i;\n}\n",
    );
    let o = run(&[
        &endless.display().to_string(),
        "--gridDim=1",
        "--blockDim=1",
        "--max-steps",
        "1000",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let out = stdout(&o);
    assert!(out.contains("UNKNOWN (a thread ran 1000 steps"), "{out}");
    assert!(out.contains("endless.cu:3"), "{out}");
}

#[test]
fn zero_schedules_is_a_bad_flag() {
    let o = run(&[
        "tests/kernels/sched/tsp_best.cu",
        "--gridDim=2",
        "--blockDim=1",
        "--max-schedules",
        "0",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--max-schedules"));
}

#[test]
fn a_launch_without_dimensions_is_unknown_with_what_to_pass() {
    let o = run(&["tests/kernels/constructs/index_global_id.cu"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stdout(&o).contains("pass --grid-dim and --block-dim"),
        "{}",
        stdout(&o)
    );
}

/// `check --confirm` runs each race's witness launch through the schedule
/// explorer: a provable race is confirmed with a command that replays it,
/// and that command shows the race.
#[test]
fn check_confirm_runs_each_witness_and_the_printed_command_replays_it() {
    let check = |extra: &[&str]| {
        Command::new(get_cargo_bin("warpsafe"))
            .current_dir(root())
            .args([
                "check",
                "tests/kernels/table1/first_iter_racy.cu",
                "--blockDim=64",
                "--gridDim=1",
            ])
            .args(extra)
            .output()
            .expect("invariant: the binary runs")
    };
    let o = check(&["--confirm"]);
    let out = stdout(&o);
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with("confirmed:"))
        .unwrap_or_else(|| panic!("no confirmed race: {out}"));
    let command = line
        .split("replay with: warpsafe ")
        .nth(1)
        .expect("a replay command");
    let args: Vec<&str> = command.split_whitespace().collect();
    assert_eq!(args[0], "run");
    let replayed = Command::new(get_cargo_bin("warpsafe"))
        .current_dir(root())
        .args(&args)
        .output()
        .expect("invariant: the binary runs");
    assert_eq!(replayed.status.code(), Some(1), "{}", stdout(&replayed));
    assert!(
        stdout(&replayed).contains("data race on s["),
        "{}",
        stdout(&replayed)
    );
    // JSON carries the status; without the flag there is none.
    let v = json(&check(&["--confirm", "--format", "json"]));
    let statuses: Vec<&str> = v["kernels"][0]["races"]
        .as_array()
        .expect("races")
        .iter()
        .map(|r| r["confirmation"]["status"].as_str().expect("a status"))
        .collect();
    assert!(statuses.contains(&"confirmed"), "{statuses:?}");
    let plain = json(&check(&["--format", "json"]));
    assert!(plain["kernels"][0]["races"][0]
        .get("confirmation")
        .is_none());
}

/// `explore --explorer cd` is the schedule explorer, reported as `run`
/// reports it: the same errors, the same bounded verdict and exit status,
/// never SAFE.
#[test]
fn explore_with_the_cd_explorer_reports_as_run_does() {
    let explore = |args: &[&str]| {
        Command::new(get_cargo_bin("warpsafe"))
            .current_dir(root())
            .args(["explore", "--explorer", "cd"])
            .args(args)
            .output()
            .expect("invariant: the binary runs")
    };
    for (file, status) in [
        ("tests/kernels/sched/tsp_best.cu", 1),
        ("tests/kernels/sched/tsp_best_fixed.cu", 2),
    ] {
        let args = [file, "--gridDim=2", "--blockDim=1", "--volatile=atomic"];
        let (e, r) = (explore(&args), run(&args));
        assert_eq!(e.status.code(), Some(status), "{}", stdout(&e));
        assert_eq!(e.status.code(), r.status.code());
        // All but the summary line (its time and memory vary).
        let report = |o: &Output| -> Vec<String> {
            stdout(o)
                .lines()
                .filter(|l| !l.trim_start().starts_with("summary:"))
                .map(str::to_string)
                .collect()
        };
        assert_eq!(report(&e), report(&r));
        assert!(!stdout(&e).contains("SAFE"), "{}", stdout(&e));
    }
    // What only the model checkers build is refused, not ignored.
    for flags in [&["--repair"][..], &["--graph", "never.dot"][..]] {
        let o = explore(&[&["tests/kernels/sched/tsp_best.cu"][..], flags].concat());
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("--explorer dpor"), "{err}");
    }
}
