//! `warpsafe check` over many files: a folder with a project file
//! (`tests/project`), its summary table, `--shard` and `warpsafe merge`,
//! SARIF output validated against the SARIF 2.1.0 schema, `--color`,
//! `--max-races`, and the flag spellings that must keep their meaning.
//!
//! Refresh the snapshots with `INSTA_UPDATE=always cargo test -p
//! warpsafe-cli --test check_many`, then review the diff.

use insta_cmd::{assert_cmd_snapshot, get_cargo_bin};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("invariant: the workspace root exists")
}

/// `warpsafe ARGS` in the workspace root.
fn warpsafe(args: &[&str]) -> Command {
    let mut cmd = Command::new(get_cargo_bin("warpsafe"));
    cmd.current_dir(workspace_root()).args(args);
    cmd
}

/// `check tests/project` with its project file, and `extra`.
fn project(extra: &[&str]) -> Command {
    let mut args = vec![
        "check",
        "tests/project",
        "--config",
        "tests/project/warpsafe.toml",
    ];
    args.extend(extra);
    warpsafe(&args)
}

fn stdout_of(cmd: &mut Command) -> (Option<i32>, String, String) {
    let out = cmd.output().expect("invariant: the binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json_of(cmd: &mut Command) -> Value {
    let (_, stdout, stderr) = stdout_of(cmd);
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}{stderr}"))
}

/// Times in the summary table vary between runs.
const TIME_FILTER: (&str, &str) = (r"\d+\.\d\d s\b", "[TIME] s");

#[test]
fn a_folder_with_a_project_file() {
    insta::with_settings!({ filters => vec![TIME_FILTER] }, {
        assert_cmd_snapshot!(project(&[]));
    });
}

#[test]
fn several_files_and_a_grouped_race_summary() {
    insta::with_settings!({ filters => vec![TIME_FILTER] }, {
        assert_cmd_snapshot!(warpsafe(&[
            "check",
            "tests/kernels/constructs/shared_stencil_missing_sync.cu",
            "tests/kernels/constructs/shared_1d_reduction.cu",
            "--block-dim",
            "64",
            "--grid-dim",
            "1",
        ]));
    });
}

#[test]
fn max_races_stops_the_check_and_says_so() {
    let (code, stdout, _) = stdout_of(&mut warpsafe(&[
        "check",
        "tests/kernels/constructs/shared_stencil_missing_sync.cu",
        "--block-dim=64",
        "--grid-dim=1",
        "--max-races",
        "2",
    ]));
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("RACY (2 race(s))"), "{stdout}");
    assert!(
        stdout.contains("stopped after 2 race(s) (--max-races): others may exist"),
        "{stdout}"
    );
}

/// The outputs of `--shard 1/2` and `--shard 2/2` in `format`, written to
/// temporary files.
fn shard_outputs(format: &str) -> Vec<PathBuf> {
    (1..=2)
        .map(|i| {
            let shard = format!("{i}/2");
            let v = json_of(&mut project(&["--format", format, "--shard", &shard]));
            let path = std::env::temp_dir().join(format!(
                "warpsafe-shard-{}-{i}.{format}",
                std::process::id()
            ));
            std::fs::write(&path, v.to_string()).expect("write");
            path
        })
        .collect()
}

#[test]
fn shards_merge_into_the_whole_run() {
    let whole = json_of(&mut project(&["--format", "json"]));
    let shards = shard_outputs("json");
    let mut merge = warpsafe(&["merge"]);
    merge.args(&shards);
    let merged = json_of(&mut merge);
    assert_eq!(merged["summary"], whole["summary"], "{merged:#}");
    // fill.cuh's kernel is checked once, with fill.cu, which includes it.
    assert_eq!(whole["summary"]["kernels"], 4);
    assert_eq!(whole["summary"]["files"], 4);
    assert!(!whole.to_string().contains("fill.cuh\","), "{whole:#}");
    assert_eq!(whole["summary"]["drf"], 3);
    assert_eq!(whole["summary"]["racy"], 1);
    // The same kernels with the same verdicts (the merge orders kernels
    // of a file by name).
    let verdicts = |v: &Value| {
        let mut out: Vec<(String, String, String)> = v["files"]
            .as_array()
            .expect("files")
            .iter()
            .flat_map(|f| {
                f["kernels"].as_array().into_iter().flatten().map(move |k| {
                    (
                        f["file"].as_str().unwrap_or("").to_string(),
                        k["kernel"].as_str().unwrap_or("").to_string(),
                        k["verdict"].as_str().unwrap_or("").to_string(),
                    )
                })
            })
            .collect();
        out.sort();
        out
    };
    assert_eq!(verdicts(&merged), verdicts(&whole));
    // Each shard checked a part only.
    for s in &shards {
        let v: Value =
            serde_json::from_str(&std::fs::read_to_string(s).expect("read")).expect("json");
        let n = v["summary"]["kernels"].as_u64().expect("count");
        assert!((1..4).contains(&n), "{v:#}");
        let _ = std::fs::remove_file(s);
    }
}

/// The SARIF 2.1.0 schema, from the sources of the `serde-sarif` crate (a
/// dev-dependency: cargo has unpacked it under `$CARGO_HOME/registry/src`
/// to build this test), at the version `Cargo.lock` names.
fn sarif_schema() -> Value {
    let lock = std::fs::read_to_string(workspace_root().join("Cargo.lock")).expect("Cargo.lock");
    let version = lock
        .split("[[package]]")
        .find(|p| p.contains("name = \"serde-sarif\""))
        .and_then(|p| p.lines().find_map(|l| l.strip_prefix("version = \"")))
        .map(|v| v.trim_end_matches('"').to_string())
        .expect("invariant: serde-sarif is in Cargo.lock");
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .expect("CARGO_HOME or HOME");
    let registries = std::fs::read_dir(home.join("registry/src")).expect("the registry sources");
    let schema = registries
        .filter_map(|r| r.ok())
        .map(|r| {
            r.path()
                .join(format!("serde-sarif-{version}/src/schema.json"))
        })
        .find(|p| p.is_file())
        .expect("invariant: cargo unpacked serde-sarif to build this test");
    serde_json::from_str(&std::fs::read_to_string(&schema).expect("the schema file"))
        .expect("the schema is JSON")
}

fn drop_language_patterns(v: &mut Value) {
    match v {
        Value::Object(o) => {
            if let Some(Value::Object(lang)) = o.get_mut("language") {
                lang.remove("pattern");
            }
            o.values_mut().for_each(drop_language_patterns);
        }
        Value::Array(a) => a.iter_mut().for_each(drop_language_patterns),
        _ => {}
    }
}

/// What the schema finds wrong with `log`.
fn sarif_errors(log: &Value) -> Vec<String> {
    let mut schema = sarif_schema();
    // The published schema's pattern for `language` (of a run and of a
    // tool component) has a stray `]` that the validator's regex engine
    // rejects; warpsafe writes no `language`, so the pattern is dropped.
    drop_language_patterns(&mut schema);
    let validator = jsonschema::validator_for(&schema).expect("invariant: the schema compiles");
    validator
        .iter_errors(log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

fn assert_valid_sarif(log: &Value) {
    let errors = sarif_errors(log);
    assert!(errors.is_empty(), "{errors:#?}\n{log:#}");
    // And it reads as the typed model of the schema.
    let typed: Result<serde_sarif::sarif::Sarif, _> = serde_json::from_value(log.clone());
    assert!(typed.is_ok(), "{typed:?}");
}

#[test]
fn sarif_validates_against_the_schema() {
    let log = json_of(&mut project(&["--format", "sarif"]));
    assert_valid_sarif(&log);
    // The validation can fail: a level SARIF does not define.
    let mut wrong = log.clone();
    wrong["runs"][0]["results"][0]["level"] = "fatal".into();
    assert!(!sarif_errors(&wrong).is_empty());
    let results = log["runs"][0]["results"].as_array().expect("results");
    // The histogram's two possible races: warnings, each with the second
    // access as a related location.
    assert_eq!(results.len(), 2, "{log:#}");
    for r in results {
        assert_eq!(r["ruleId"], "data-race");
        assert_eq!(r["level"], "warning");
        assert_eq!(
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "tests/project/kernels/histogram.cu"
        );
        assert_eq!(r["relatedLocations"][0]["id"], 1);
        assert_eq!(r["properties"]["certainty"], "possible");
    }
    // A provable race is an error; a divergent barrier and an unverified
    // kernel have their rules; a file that cannot be read is a
    // notification.
    let log = json_of(&mut warpsafe(&[
        "check",
        "tests/kernels/constructs/shared_stencil_missing_sync.cu",
        "tests/kernels/constructs/barrier_divergence_every_barrier.cu",
        "tests/kernels/bad/include_dev_zero.cu",
        "--block-dim",
        "64",
        "--grid-dim",
        "1",
        "--format",
        "sarif",
    ]));
    assert_valid_sarif(&log);
    let rules: Vec<&str> = log["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["ruleId"].as_str().unwrap_or(""))
        .collect();
    assert!(
        rules.contains(&"data-race") && rules.contains(&"barrier-divergence"),
        "{rules:?}"
    );
    let notes = &log["runs"][0]["invocations"][0]["toolExecutionNotifications"];
    assert!(notes.to_string().contains("/dev/zero"), "{notes:#}");
}

#[test]
fn sarif_shards_merge() {
    let shards = shard_outputs("sarif");
    let mut merge = warpsafe(&["merge"]);
    merge.args(&shards);
    let merged = json_of(&mut merge);
    assert_valid_sarif(&merged);
    assert_eq!(
        merged["runs"][0]["results"].as_array().map(Vec::len),
        Some(2)
    );
    // JSON and SARIF do not mix.
    let json = std::env::temp_dir().join(format!("warpsafe-shard-{}.json", std::process::id()));
    std::fs::write(
        &json,
        json_of(&mut project(&["--format", "json"])).to_string(),
    )
    .expect("write");
    let mut mixed = warpsafe(&["merge"]);
    mixed.arg(&shards[0]).arg(&json);
    let (code, _, stderr) = stdout_of(&mut mixed);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("mix SARIF and JSON"), "{stderr}");
    for p in shards.iter().chain([&json]) {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let file = "tests/kernels/constructs/shared_1d_reduction_missing_sync.cu";
    let (_, plain, _) = stdout_of(&mut warpsafe(&[
        "check",
        file,
        "--block-dim=64",
        "--grid-dim=1",
    ]));
    assert!(!plain.contains('\u{1b}'), "{plain}");
    let (_, never, _) = stdout_of(&mut warpsafe(&[
        "check",
        file,
        "--block-dim=64",
        "--grid-dim=1",
        "--color",
        "never",
    ]));
    assert_eq!(never, plain);
    let (_, always, _) = stdout_of(&mut warpsafe(&[
        "check",
        file,
        "--block-dim=64",
        "--grid-dim=1",
        "--color=always",
    ]));
    assert!(
        always.contains("\u{1b}[") && always.contains("RACY"),
        "{always}"
    );
    let mut no_color = warpsafe(&[
        "check",
        file,
        "--block-dim=64",
        "--grid-dim=1",
        "--color",
        "auto",
    ]);
    no_color.env("CLICOLOR_FORCE", "1").env("NO_COLOR", "1");
    assert_eq!(stdout_of(&mut no_color).1, plain);
}

#[test]
fn flags_keep_their_meaning_in_both_spellings() {
    let file = "tests/kernels/constructs/shared_1d_reduction.cu";
    let run = |flags: &[&str]| {
        let mut args = vec!["check", file];
        args.extend(flags);
        let (code, stdout, stderr) = stdout_of(&mut warpsafe(&args));
        (code, stdout, stderr)
    };
    let (code, base, _) = run(&[
        "--block-dim",
        "64",
        "--timeout",
        "30",
        "--solver",
        "z3",
        "--format",
        "json",
    ]);
    assert_eq!(code, Some(0), "{base}");
    let (_, eq, stderr) = run(&[
        "--block-dim=64",
        "--timeout=30",
        "--solver=z3",
        "--format=json",
    ]);
    assert_eq!(eq, base);
    assert!(!stderr.contains("ignoring"), "{stderr}");
    // GPUVerify's spelling of a warpsafe flag is warpsafe's flag.
    let (_, gv, _) = run(&["--blockDim=64", "--timeout=30", "--format=json"]);
    assert_eq!(gv, base);
    // A GPUVerify no-op option is dropped, by name, and says so.
    let (code, _, stderr) = run(&["--blockDim=64", "--no-inline"]);
    assert_eq!(code, Some(0));
    assert!(
        stderr.contains("ignoring the GPUVerify option `--no-inline`"),
        "{stderr}"
    );
    // An unknown flag is an error.
    let (code, _, stderr) = run(&["--no-such-flag"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("--no-such-flag"), "{stderr}");
    // `--solver=cvc5` asks for cvc5 (not silently z3).
    let (_, _, stderr) = run(&["--solver=cvc5", "--blockDim=64"]);
    assert!(stderr.is_empty() || stderr.contains("cvc5"), "{stderr}");
    let (code, version, _) = stdout_of(&mut warpsafe(&["--version"]));
    assert_eq!(code, Some(0));
    assert!(version.starts_with("warpsafe "), "{version}");
}

#[test]
fn opencl_and_empty_folders_are_refused() {
    let dir = std::env::temp_dir().join(format!("warpsafe-empty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let cl = dir.join("k.cl");
    std::fs::write(&cl, "__kernel void k() {}").expect("write");
    let (code, _, stderr) = stdout_of(&mut warpsafe(&["check", cl.to_str().expect("utf-8")]));
    assert_eq!(code, Some(2));
    assert!(stderr.contains("OpenCL is not supported"), "{stderr}");
    let (code, _, stderr) = stdout_of(&mut warpsafe(&["check", dir.to_str().expect("utf-8")]));
    assert_eq!(code, Some(2));
    assert!(stderr.contains("no `.cu` or `.cuh` file under"), "{stderr}");
    let (code, _, stderr) = stdout_of(&mut warpsafe(&["corpus", dir.to_str().expect("utf-8")]));
    assert_eq!(code, Some(2));
    assert!(stderr.contains("no annotated kernel under"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_divergence_names_the_parameters_that_decide_it() {
    let v = json_of(&mut warpsafe(&[
        "check",
        "tests/kernels/constructs/barrier_divergence_parameter.cu",
        "--block-dim=64",
        "--format=json",
    ]));
    let d = &v["kernels"][0]["divergences"][0];
    let n = d["params"]["n"].as_i64().expect("n is named");
    let t: Vec<i64> = d["threads"]
        .as_array()
        .expect("two threads")
        .iter()
        .map(|t| t["thread_idx"][0].as_i64().expect("x"))
        .collect();
    // One thread below n, the other not.
    assert!((t[0] < n) != (t[1] < n), "{d:#}");
    assert!((1..64).contains(&n), "{d:#}");
}

#[test]
fn sarif_of_a_project() {
    assert_cmd_snapshot!(project(&["--format", "sarif"]));
}

#[test]
fn colour_off_and_flag_spellings() {
    let file = "tests/kernels/constructs/shared_1d_reduction_missing_sync.cu";
    assert_cmd_snapshot!(
        "colour_never",
        warpsafe(&[
            "check",
            file,
            "--blockDim=64",
            "--gridDim=1",
            "--color",
            "never"
        ])
    );
    // warpsafe's flags in `--flag=value` form, a GPUVerify spelling, a
    // GPUVerify no-op option dropped by name.
    assert_cmd_snapshot!(
        "flag_spellings",
        warpsafe(&[
            "check",
            file,
            "--block-dim=64",
            "--gridDim=1",
            "--timeout=30",
            "--solver=z3",
            "--max-races=1",
            "--fail-on=possible",
            "--no-inline",
            "--color=never",
        ])
    );
}

#[test]
fn kernels_named_on_the_command_line() {
    // Two names across a folder: only those kernels, and the others'
    // files are skipped.
    let (code, stdout, stderr) = stdout_of(&mut project(&[
        "--kernel",
        "scale",
        "--kernel",
        "transposeTile",
    ]));
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("2 kernels in 2 files: 2 DRF"), "{stdout}");
    assert!(!stdout.contains("histogram"), "{stdout}");
    let (code, _, stderr) = stdout_of(&mut project(&["--kernel", "nope"]));
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("no kernel named `nope` in the 6 file(s)"),
        "{stderr}"
    );
}
