//! Snapshot tests of whole CLI runs: for every annotated kernel under
//! `tests/kernels`, `warpsafe ir FILE FLAGS` (flags from the kernel's
//! header) with its stdout, stderr and exit status; for every litmus
//! kernel, `warpsafe explore FILE FLAGS` (verdict, first error, witness),
//! and for a few, `--all --outcomes`, `--format json` and `--replay`;
//! for every schedule-explorer kernel (`tests/kernels/sched`), `warpsafe
//! run FILE FLAGS`.
//! Times, peak memory and replay tokens (which change with the IR's
//! layout) are filtered out of explore snapshots.
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

/// `warpsafe explore` on `rel` with the flags of its header and `extra`.
fn explore_command(rel: &Path, extra: &[&str]) -> Command {
    let mut cmd = ir_command(rel);
    let mut args: Vec<String> = cmd
        .get_args()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    args[0] = "explore".into();
    args.extend(extra.iter().map(|s| s.to_string()));
    let mut explore = Command::new(cmd.get_program());
    explore.current_dir(workspace_root()).args(args);
    cmd = explore;
    cmd
}

/// What varies between runs of the same exploration.
fn explore_filters() -> Vec<(&'static str, &'static str)> {
    vec![
        (r"\d+\.\d{3} s\b", "[TIME] s"),
        (r"peak memory \d+\.\d MiB", "peak memory [MEM] MiB"),
        (r"ws1-[A-Za-z0-9_-]+", "ws1-[TOKEN]"),
        (r#""seconds": [0-9.e-]+"#, r#""seconds": "[TIME]""#),
        (r#""peak_memory_kib": \d+"#, r#""peak_memory_kib": "[MEM]""#),
    ]
}

#[test]
fn explore_of_every_litmus_kernel() {
    let root = workspace_root();
    insta::glob!("../../../tests/kernels/litmus", "*.cu", |path| {
        let rel = path
            .strip_prefix(&root)
            .expect("invariant: globbed files are under the root");
        insta::with_settings!({ filters => explore_filters() }, {
            assert_cmd_snapshot!(explore_command(rel, &[]));
        });
    });
}

#[test]
fn explore_all_with_outcomes() {
    for name in [
        "mp_block_scope_two_blocks",
        "sb_relaxed",
        "barrier_divergence",
    ] {
        let rel = PathBuf::from(format!("tests/kernels/litmus/{name}.cu"));
        insta::with_settings!({ filters => explore_filters(), snapshot_suffix => name }, {
            assert_cmd_snapshot!(explore_command(&rel, &["--all", "--outcomes"]));
        });
    }
}

#[test]
fn explore_as_json() {
    let rel = Path::new("tests/kernels/litmus/mp_relaxed.cu");
    insta::with_settings!({ filters => explore_filters() }, {
        assert_cmd_snapshot!(explore_command(rel, &["--format", "json"]));
    });
}

#[test]
fn explore_replay_of_a_witness() {
    let rel = Path::new("tests/kernels/litmus/mp_block_scope_two_blocks.cu");
    let out = explore_command(rel, &["--all", "--format", "json"])
        .output()
        .expect("invariant: the binary runs");
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("invariant: --format json prints JSON");
    // The witness of the data race and the failed assertion.
    let token = v["kernels"][0]["witnesses"][1]["replay"]
        .as_str()
        .expect("invariant: the second witness has a token")
        .to_string();
    insta::with_settings!({ filters => explore_filters() }, {
        assert_cmd_snapshot!(explore_command(rel, &["--replay", &token]));
    });
}

/// `warpsafe run` on `rel` with the flags of its header and `extra`.
fn run_command(rel: &Path, extra: &[&str]) -> Command {
    let mut cmd = explore_command(rel, extra);
    let mut args: Vec<String> = cmd
        .get_args()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    args[0] = "run".into();
    let mut run = Command::new(cmd.get_program());
    run.current_dir(workspace_root()).args(args);
    cmd = run;
    cmd
}

/// What varies between runs of the same schedules: times, memory, and the
/// fingerprint in replay tokens (the delay list stays visible).
fn run_filters() -> Vec<(&'static str, &'static str)> {
    vec![
        (r"\d+\.\d{2} s\b", "[TIME] s"),
        (r"peak memory \d+\.\d MiB", "peak memory [MEM] MiB"),
        (r"sched1\.[0-9a-f]{16}\.", "sched1.[FP]."),
        (r#""seconds": [0-9.e-]+"#, r#""seconds": "[TIME]""#),
        (r#""peak_memory_kib": \d+"#, r#""peak_memory_kib": "[MEM]""#),
    ]
}

/// `warpsafe run` (seed 003) on its scenarios: each bug with the schedule
/// that shows it, each fixed version clean within the bound.
#[test]
fn run_of_every_schedule_kernel() {
    let root = workspace_root();
    insta::glob!("../../../tests/kernels/sched", "*.cu", |path| {
        let rel = path
            .strip_prefix(&root)
            .expect("invariant: globbed files are under the root");
        insta::with_settings!({ filters => run_filters() }, {
            assert_cmd_snapshot!(run_command(rel, &[]));
        });
    });
}

/// `warpsafe run --format json`, and `--compare-final --outcomes` on a
/// kernel whose blocks race to set one location with atomics.
#[test]
fn run_as_json_and_final_states() {
    insta::with_settings!({ filters => run_filters() }, {
        assert_cmd_snapshot!(
            "run_json",
            run_command(Path::new("tests/kernels/sched/tsp_best.cu"), &["--format", "json"])
        );
        assert_cmd_snapshot!(
            "run_compare_final",
            run_command(
                Path::new("tests/kernels/sched/last_writer.cu"),
                &["--compare-final", "--outcomes"]
            )
        );
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

/// Seed 000 Table 1: a correct lock (spin-assume keeps its await loop
/// finite), its weakened variant (a data race in the critical section),
/// and the same correct lock without spin-assume (cut at the loop bound,
/// so only "no error within loop bound").
#[test]
fn explore_of_lock_kernels() {
    insta::with_settings!({filters => explore_filters()}, {
        assert_cmd_snapshot!("explore_caslock", explore_command(Path::new("tests/kernels/locks/caslock.cu"), &[]));
        assert_cmd_snapshot!("explore_caslock1", explore_command(Path::new("tests/kernels/locks/caslock1.cu"), &[]));
        assert_cmd_snapshot!(
            "explore_caslock_no_spin_assume",
            explore_command(
                Path::new("tests/kernels/locks/caslock.cu"),
                &["--no-spin-assume", "--loop-bound", "3"]
            )
        );
    });
}

/// `explore --repair` (seed 000 §5.3): every kernel of tests/kernels/repair
/// with its diff, rounds, and what is left unrepaired.
#[test]
fn repair_of_every_repair_kernel() {
    let root = workspace_root();
    insta::glob!("../../../tests/kernels/repair", "*.cu", |path| {
        let rel = path
            .strip_prefix(&root)
            .expect("invariant: globbed files are under the root")
            .display()
            .to_string();
        assert_cmd_snapshot!(explore_command(Path::new(&rel), &["--repair"]));
    });
}

/// `warpsafe explore` with inputs (`--array`, `--param`, `--input`) on
/// the kernels of `tests/kernels/explore-inputs`: an out-of-bounds write
/// missed without a length and found with one, initial contents that make
/// an assertion fail or change the final memory, a division by an input
/// zero, a JSON input file (its dimensions used, then overridden by a
/// flag), and the JSON report of a fault.
#[test]
fn explore_with_inputs() {
    let dir = "tests/kernels/explore-inputs";
    let json = format!("{dir}/scatter.json");
    let cases: [(&str, &str, Vec<&str>); 9] = [
        ("oob_write_unchecked", "oob_write", vec![]),
        ("oob_write_found", "oob_write", vec!["--array", "a=4"]),
        (
            "scale_assert_on_input",
            "scale",
            vec![
                "--param",
                "factor=3",
                "--array",
                "in=[4,-1]",
                "--array",
                "out=2",
            ],
        ),
        (
            "scale_outcomes",
            "scale",
            vec![
                "--param",
                "factor=3",
                "--array",
                "in=[4,5]",
                "--array",
                "out=2",
                "--outcomes",
            ],
        ),
        (
            "quotient_division_by_zero",
            "quotient",
            vec![
                "--param", "total=12", "--array", "d=[3,0]", "--array", "q=2",
            ],
        ),
        ("scatter_zeroed_indices", "scatter", vec![]),
        ("scatter_json_input", "scatter", vec!["--input", &json]),
        (
            "scatter_json_input_index_past_the_end",
            "scatter",
            vec!["--input", &json, "--array", "idx=[0,1,2,4]"],
        ),
        (
            "oob_write_as_json",
            "oob_write",
            vec!["--array", "a=4", "--format", "json"],
        ),
    ];
    for (name, kernel, extra) in cases {
        let rel = PathBuf::from(format!("{dir}/{kernel}.cu"));
        let mut cmd = if name.starts_with("scatter_json") {
            // Dimensions from the JSON file, not the header.
            let mut c = Command::new(get_cargo_bin("warpsafe"));
            c.current_dir(workspace_root())
                .arg("explore")
                .arg(&rel)
                .args(&extra);
            c
        } else {
            explore_command(&rel, &extra)
        };
        insta::with_settings!({ filters => explore_filters(), snapshot_suffix => name }, {
            assert_cmd_snapshot!(cmd);
        });
    }
}

/// Bad inputs to `warpsafe explore`: each a clear error with exit status
/// 2 (or, for a grid too large to explore, UNKNOWN), never a panic.
#[test]
fn explore_bad_inputs() {
    let dir = "tests/kernels/explore-inputs";
    let cases: [(&str, &str, Vec<&str>); 12] = [
        ("unknown_array", "scale", vec!["--array", "nope=4"]),
        ("unknown_param", "scale", vec!["--param", "zz=1"]),
        ("array_given_as_param", "scale", vec!["--param", "in=3"]),
        (
            "float_for_an_int_array",
            "scale",
            vec!["--array", "in=[1.5,2]"],
        ),
        (
            "param_out_of_range",
            "scale",
            vec!["--param", "factor=99999999999"],
        ),
        ("huge_array", "scale", vec!["--array", "out=99999999999"]),
        ("malformed_array_flag", "scale", vec!["--array", "in=[1,2"]),
        (
            "json_length_mismatch",
            "scatter",
            vec![
                "--input",
                "tests/kernels/explore-inputs/scatter_bad_length.json",
            ],
        ),
        (
            "json_unknown_field",
            "scatter",
            vec![
                "--input",
                "tests/kernels/explore-inputs/scatter_unknown_field.json",
            ],
        ),
        (
            "missing_json_file",
            "scatter",
            vec!["--input", "tests/kernels/explore-inputs/no_such_file.json"],
        ),
        (
            "grid_too_large",
            "oob_write",
            vec!["--grid-dim", "65536,65536,65536", "--block-dim", "1024"],
        ),
        (
            "dimension_too_large",
            "oob_write",
            vec!["--grid-dim", "4294967296", "--block-dim", "1"],
        ),
    ];
    for (name, kernel, extra) in cases {
        let rel = format!("{dir}/{kernel}.cu");
        let mut cmd = Command::new(get_cargo_bin("warpsafe"));
        cmd.current_dir(workspace_root())
            .arg("explore")
            .arg(&rel)
            .args(&extra);
        if !name.contains("too_large") {
            cmd.args(["--grid-dim", "1", "--block-dim", "2"]);
        }
        insta::with_settings!({ filters => explore_filters(), snapshot_suffix => name }, {
            assert_cmd_snapshot!(cmd);
        });
    }
}

/// `warpsafe check` of the strided-loop kernels (seed 002 §5, loop
/// normalisation): the race-free ones proved, the racy ones with witnesses
/// that the loops really reach.
#[test]
fn check_of_strided_loops() {
    let root = workspace_root();
    insta::glob!(
        "../../../tests/kernels/constructs",
        "loops_strided*.cu",
        |path| {
            let rel = path
                .strip_prefix(&root)
                .expect("invariant: globbed files are under the root");
            assert_cmd_snapshot!(command_with_header_flags("check", rel));
        }
    );
}

/// `warpsafe check` of a kernel proved race-free by file-scope `__axiom`s.
#[test]
fn check_of_file_scope_axioms() {
    assert_cmd_snapshot!(command_with_header_flags(
        "check",
        Path::new("tests/kernels/constructs/annotations_axiom.cu")
    ));
}

/// `warpsafe check` of grid barriers under conditions: uniform across the
/// grid (race-free, and racy without the second barrier), and differing
/// between blocks (barrier divergence with two threads of different
/// blocks).
#[test]
fn check_of_conditional_grid_barriers() {
    let root = workspace_root();
    insta::glob!(
        "../../../tests/kernels/constructs",
        "coop_groups_grid_sync_*.cu",
        |path| {
            let rel = path
                .strip_prefix(&root)
                .expect("invariant: globbed files are under the root");
            assert_cmd_snapshot!(command_with_header_flags("check", rel));
        }
    );
}

/// `warpsafe check` under C++'s rules and its launch assumptions: global
/// indices computed as `int` over any launch are proved race-free (at most
/// 2^31 threads along x, signed arithmetic without overflow), and each
/// assumption, dropped by its flag, brings back the race that needs it;
/// `__launch_bounds__` bounds a symbolic block.
#[test]
fn check_under_c_semantics() {
    let cases: [(&str, &str, &[&str]); 5] = [
        ("global_id", "index_global_id.cu", &[]),
        ("launch_bounds", "launch_bounds.cu", &[]),
        (
            "global_id_huge_grids",
            "index_global_id.cu",
            &["--huge-grids", "--kernel", "saxpy"],
        ),
        ("signed_overflow", "index_signed_overflow.cu", &[]),
        (
            "signed_overflow_wraps",
            "index_signed_overflow.cu",
            &["--signed-wrap"],
        ),
    ];
    for (name, file, extra) in cases {
        let rel = Path::new("tests/kernels/constructs").join(file);
        let mut cmd = command_with_header_flags("check", &rel);
        cmd.args(extra);
        insta::with_settings!({ snapshot_suffix => name }, {
            assert_cmd_snapshot!(cmd);
        });
    }
}

/// Out-of-range flag values and unreadable sources: each refused with a
/// message and exit 2 (these once panicked or read for ever).
#[test]
fn refusals() {
    let example = "tests/kernels/constructs/integer_intrinsics.cu";
    let cases: [(&str, Vec<&str>); 6] = [
        (
            "check_timeout_u64_max",
            vec!["check", example, "--timeout=18446744073709551615"],
        ),
        (
            "check_timeout_past_solver_limit",
            vec!["check", example, "--timeout=4294968"],
        ),
        (
            "explore_timeout_1e300",
            vec!["explore", example, "--timeout=1e300"],
        ),
        (
            "explore_timeout_1e19",
            vec!["explore", example, "--timeout=1e19"],
        ),
        (
            "explore_timeout_nan",
            vec!["explore", example, "--timeout=NaN"],
        ),
        ("check_dev_zero", vec!["check", "/dev/zero"]),
    ];
    for (name, args) in cases {
        let mut cmd = Command::new(get_cargo_bin("warpsafe"));
        cmd.current_dir(workspace_root()).args(&args);
        insta::with_settings!({ snapshot_suffix => name }, {
            assert_cmd_snapshot!(cmd);
        });
    }
}
