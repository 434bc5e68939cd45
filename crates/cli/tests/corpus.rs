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
    assert_eq!(
        kernels, 16,
        "four primitives, three variants each; the exchange lock, the \
         64-thread inter-warp lock and their broken twins"
    );
    assert!(
        stdout.contains(&format!("{kernels} passed, 0 failed")),
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(0), "{stdout}");
}

/// `check`'s known false alarms among the soundness kernels: `//pass`
/// kernels it reports as *possibly* racy or divergent (incomplete, never
/// unsound). Each must still carry no *provable* finding.
const CHECK_FALSE_ALARMS: &[&str] = &["diff_loop_bounds_differ_same_trips.cu"];

/// The soundness kernels (`tests/kernels/soundness`, issue 14): one kernel
/// per front-end or engine defect found (by hand, by differential testing
/// against g++, and by the differential test of `tests/differential.rs`,
/// `diff_*.cu`), most with a racy twin. Each meets its expectation under
/// every engine (`run`: the schedule explorer within its delay bound),
/// except `check`'s known false alarms above.
#[test]
fn soundness_corpus_meets_every_expectation_under_both_engines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let kernels = walk_count(&root.join("tests/kernels/soundness"));
    assert!(kernels >= 10, "the soundness folder holds its kernels");
    for engine in ["check", "explore", "run"] {
        let out = Command::new(get_cargo_bin("warpsafe"))
            .current_dir(&root)
            .args([
                "corpus",
                "--engine",
                engine,
                "--verbose",
                "tests/kernels/soundness",
            ])
            .output()
            .expect("invariant: the binary runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let failed: Vec<&str> = stdout.lines().filter(|l| l.starts_with("FAIL")).collect();
        let allowed = |line: &&str| {
            engine == "check"
                && line.split_whitespace().nth(1) == Some("pass")
                && CHECK_FALSE_ALARMS.iter().any(|k| line.contains(k))
        };
        let unexpected: Vec<&&str> = failed.iter().filter(|l| !allowed(l)).collect();
        assert!(unexpected.is_empty(), "{engine}: {stdout}");
        assert!(
            stdout.contains(&format!(
                "{} passed, {} failed",
                kernels - failed.len(),
                failed.len()
            )),
            "{engine}: {stdout}"
        );
    }
    // The false alarms are only *possible* findings.
    for name in CHECK_FALSE_ALARMS {
        assert_nothing_provable(&root.join("tests/kernels/soundness").join(name));
    }
}

/// Fails when `check` (with the kernel's header flags) reports a
/// *provable* race or divergence in the kernel at `path`.
fn assert_nothing_provable(path: &Path) {
    let text = std::fs::read_to_string(path).expect("readable kernel");
    let header = warpsafe_corpus::parse_header(&text);
    let out = Command::new(get_cargo_bin("warpsafe"))
        .arg("check")
        .arg(path)
        .args(&header.flags)
        .args(["--format", "json"])
        .output()
        .expect("invariant: the binary runs");
    let json: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("--format json prints JSON");
    for k in json["kernels"].as_array().expect("a kernels array") {
        for field in ["races", "divergences"] {
            let provable = k[field]
                .as_array()
                .is_some_and(|a| a.iter().any(|x| x["certainty"] == "provable"));
            assert!(
                !provable,
                "{}: check proves an error that is not there: {k}",
                path.display()
            );
        }
    }
}

/// `check`'s known differences on the construct and Table 1 kernels: the
/// `//pass` kernels it does not prove, each with its cause. All are
/// *possible* races from synchronisation `check` does not model.
const CHECK_CONSTRUCT_DIFFERENCES: &[(&str, &str)] = &[
    (
        "constructs/fences_volatile_flag.cu",
        "fences and volatile flags are not modelled",
    ),
    (
        "constructs/libcudacxx_block_atomic_message_passing.cu",
        "acquire/release atomics are not modelled",
    ),
    (
        "table1/read_index_drf.cu",
        "array contents are abstracted (seed 002, Table 1 test 5: a protocol cannot see it)",
    ),
];

/// Every `//pass` and `//xfail` kernel of `tests/kernels/constructs` and
/// `tests/kernels/table1` meets its expectation under `check`, except the
/// written list of known differences above, each of which must still
/// differ (a fixed one leaves the list) and carry no *provable* finding.
#[test]
fn construct_and_table1_kernels_under_check_differ_only_as_listed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut failed = Vec::new();
    for dir in ["constructs", "table1"] {
        let out = Command::new(get_cargo_bin("warpsafe"))
            .current_dir(&root)
            .args(["corpus", "--engine", "check", "--verbose"])
            .arg(format!("tests/kernels/{dir}"))
            .output()
            .expect("invariant: the binary runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        for line in stdout.lines().filter(|l| l.starts_with("FAIL")) {
            let path = line
                .split_whitespace()
                .find(|w| w.ends_with(".cu"))
                .expect("a FAIL line names its file");
            let rel = path
                .strip_prefix("tests/kernels/")
                .expect("paths under the folder");
            failed.push(rel.to_string());
        }
    }
    failed.sort();
    let mut expected: Vec<String> = CHECK_CONSTRUCT_DIFFERENCES
        .iter()
        .map(|(k, _)| k.to_string())
        .collect();
    expected.sort();
    assert_eq!(failed, expected, "update CHECK_CONSTRUCT_DIFFERENCES");
    for (name, _) in CHECK_CONSTRUCT_DIFFERENCES {
        assert_nothing_provable(&root.join("tests/kernels").join(name));
    }
}

/// A subcommand's own flags keep their meaning wherever they stand, even
/// where GPUVerify has an option of the same name that warpsafe drops
/// (`--verbose` here): the failing kernel's diagnostic is printed.
#[test]
fn own_flags_win_over_gpuverify_options_of_the_same_name() {
    let dir = std::env::temp_dir().join(format!("warpsafe-corpus-flags-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(
        dir.join("broken.cu"),
        "//pass\n//--blockDim=32 --gridDim=1\n__global__ void k( {\n",
    )
    .expect("write");
    let out = Command::new(get_cargo_bin("warpsafe"))
        .args(["corpus"])
        .arg(&dir)
        .arg("--verbose")
        .output()
        .expect("invariant: the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.contains("syntax error"), "{stdout}");
    assert!(
        !stderr.contains("ignoring the GPUVerify option"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--volatile`: the volatile kernels (`tests/kernels/volatile`) meet their
/// expectations under `explore` (their headers pick the reading), and on
/// each file under each reading the two engines agree on whether the
/// volatile flag races: both when read as plain accesses, neither when
/// read as relaxed system-scope atomics. Every report states the reading.
#[test]
fn volatile_readings_agree_between_engines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = root.join("tests/kernels/volatile");
    let out = Command::new(get_cargo_bin("warpsafe"))
        .current_dir(&root)
        .args(["corpus", "--engine", "explore", "--verbose"])
        .arg(&dir)
        .output()
        .expect("invariant: the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let kernels = walk_count(&dir);
    assert_eq!(kernels, 3);
    assert!(stdout.contains("3 passed, 0 failed"), "{stdout}");
    let json = |cmd: &str, file: &str, reading: &str| -> serde_json::Value {
        let out = Command::new(get_cargo_bin("warpsafe"))
            .current_dir(&dir)
            .args([cmd, file, "--volatile", reading, "--format", "json"])
            .args(["--block-dim", "2", "--grid-dim", "1"])
            .output()
            .expect("invariant: the binary runs");
        let v: serde_json::Value =
            serde_json::from_slice(&out.stdout).expect("--format json prints JSON");
        v["kernels"][0].clone()
    };
    for file in ["flag_fenced.cu", "flag_unfenced.cu"] {
        for reading in ["plain", "atomic"] {
            let c = json("check", file, reading);
            let e = json("explore", file, reading);
            let check_flag = c["races"]
                .as_array()
                .is_some_and(|r| r.iter().any(|x| x["array"] == "flag"));
            let explore_flag = e["errors"]
                .as_array()
                .is_some_and(|r| r.iter().any(|x| x["location"] == "flag[0]"));
            assert_eq!(
                check_flag,
                reading == "plain",
                "check {file} {reading}: {c}"
            );
            // explore stops at its first error: under the plain reading
            // that is the flag, under the atomic one never.
            assert_eq!(
                explore_flag,
                reading == "plain",
                "explore {file} {reading}: {e}"
            );
            let stated = match reading {
                "plain" => "read as plain accesses",
                _ => "read as relaxed system-scope atomics",
            };
            for r in [&c, &e] {
                assert!(r["notes"].to_string().contains(stated), "{r}");
            }
        }
    }
}

/// The rows of `corpus --engine ENGINE --format json DIR`: file name and
/// what the engine got.
fn corpus_rows(engine: &str, dir: &str) -> Vec<(String, String, bool)> {
    let out = Command::new(get_cargo_bin("warpsafe"))
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .args(["corpus", "--engine", engine, "--format", "json", dir])
        .output()
        .expect("invariant: the binary runs");
    rows_of(&String::from_utf8_lossy(&out.stdout))
}

/// The rows of a corpus run's JSON output: file name and what the engine
/// got.
fn rows_of(text: &str) -> Vec<(String, String, bool)> {
    // The JSON array, then the summary line.
    let end = text.rfind(']').expect("a JSON array of rows");
    let rows: serde_json::Value = serde_json::from_str(&text[..=end]).expect("JSON rows");
    rows.as_array()
        .expect("an array")
        .iter()
        .map(|r| {
            let path = r["path"].as_str().expect("a path");
            let name = path.rsplit('/').next().unwrap_or(path).to_string();
            (
                name,
                r["got"].as_str().expect("got").to_string(),
                r["ok"].as_bool().expect("ok"),
            )
        })
        .collect()
}

/// Seed 003's scenarios (`tests/kernels/sched`): each bug (the N-body tree
/// insertion of Fig. 3/4, a CAS-built atomic minimum, a best-tour update
/// that tests before locking) is found by the schedule explorer with at
/// most 2 delays, each fixed version is clean, and DPOR agrees.
#[test]
fn schedule_kernels_meet_their_expectations_under_run_and_explore() {
    for engine in ["run", "explore"] {
        let rows = corpus_rows(engine, "tests/kernels/sched");
        assert!(rows.len() >= 7, "the sched folder holds its kernels");
        let failed: Vec<_> = rows.iter().filter(|r| !r.2).collect();
        assert!(failed.is_empty(), "{engine}: {failed:?}");
    }
}

/// Kernels where the schedule explorer finds less than DPOR, and why:
/// their errors need executions that no interleaving (SC) shows, or every
/// interleaving violates their `__assume`.
const NOT_SC_REACHABLE: &[(&str, &str)] = &[
    (
        "mp_block_scope_two_blocks.cu",
        "the failed assertion needs a stale read",
    ),
    ("mp_relaxed.cu", "the failed assertion needs a stale read"),
    (
        "sb_relaxed.cu",
        "store buffering: both loads read the initial value",
    ),
    ("psc_ar.cu", "the assumed outcome is not SC"),
    ("psc_base_notin_ar.cu", "the assumed outcome is not SC"),
    ("wwr_2wr.cu", "the assumed outcome is not SC"),
];

/// Kernels an explorer is not run on in the conformance test, and why
/// (the reference enumerator runs with a budget of
/// [`REFERENCE_MAX_STATES`] partial executions, the same on every machine).
const TOO_LARGE: &[(&str, &str, &str)] = &[
    (
        "reference",
        "store_load_400.cu",
        "one thread's 400 stores and loads: the enumerator keeps every partial graph it explored (GBs)",
    ),
    (
        "reference",
        "interwarp_lock.cu",
        "64 threads: the enumerator's limit on all threads is --max-active-threads (16)",
    ),
    (
        "reference",
        "interwarp_lock1.cu",
        "64 threads: the enumerator's limit on all threads is --max-active-threads (16)",
    ),
    (
        "reference",
        "inc_inc_rr_w_rr.cu",
        "89,940 partial executions, beyond the budget",
    ),
];

/// The reference enumerator's budget in the conformance test.
const REFERENCE_MAX_STATES: &str = "20000";

/// Every registered explorer (`warpsafe_explore::explorers()`) against
/// DPOR on every litmus, lock, volatile, schedule and GenMC litmus kernel
/// (but those [`TOO_LARGE`] lists for it): every kind of error an explorer
/// reports, DPOR reports too (the schedule explorer's races are races of
/// SC executions, so of scoped RC11's); an exhaustive explorer reports
/// exactly DPOR's kinds, and a bounded one does too unless the kernel is
/// listed in [`NOT_SC_REACHABLE`], where it may also give up (every
/// interleaving violates an `__assume`). No other result may be unknown.
#[test]
fn every_registered_explorer_agrees_with_dpor() {
    let kinds = |s: &str| -> Vec<String> {
        if s == "no error" || s.starts_with("unknown") {
            Vec::new()
        } else {
            s.split(',').map(str::to_string).collect()
        }
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for dir in [
        "tests/kernels/litmus",
        "tests/kernels/locks",
        "tests/kernels/volatile",
        "tests/kernels/sched",
        "tests/kernels/genmc-litmus",
    ] {
        let dpor: std::collections::HashMap<String, String> = corpus_rows("explore", dir)
            .into_iter()
            .map(|(file, got, _)| (file, got))
            .collect();
        for explorer in warpsafe_explore::explorers() {
            let name = explorer.name();
            if name == "dpor" {
                continue;
            }
            // The kernels this explorer runs on, copied to a folder of
            // their own (they include only system headers).
            let skip: Vec<&str> = TOO_LARGE
                .iter()
                .filter(|(e, _, _)| *e == name)
                .map(|(_, f, _)| *f)
                .collect();
            let copy = std::env::temp_dir().join(format!(
                "warpsafe-conformance-{}-{name}-{}",
                std::process::id(),
                dir.replace('/', "-")
            ));
            std::fs::create_dir_all(&copy).expect("a temporary folder");
            let mut copied = 0;
            for entry in std::fs::read_dir(root.join(dir)).expect("the kernel folder") {
                let path = entry.expect("an entry").path();
                let file = path.file_name().and_then(|f| f.to_str()).unwrap_or("");
                if file.ends_with(".cu") && !skip.contains(&file) {
                    std::fs::copy(&path, copy.join(file)).expect("copies a kernel");
                    copied += 1;
                }
            }
            let out = Command::new(get_cargo_bin("warpsafe"))
                .args(["corpus", "--engine", "explore", "--explorer", name])
                .args(["--max-states", REFERENCE_MAX_STATES, "--format", "json"])
                .arg(&copy)
                .output()
                .expect("invariant: the binary runs");
            let rows = rows_of(&String::from_utf8_lossy(&out.stdout));
            let _ = std::fs::remove_dir_all(&copy);
            assert_eq!(rows.len(), copied, "{name} on {dir}");
            let bounded = explorer.coverage() == warpsafe_explore::Coverage::Bounded;
            for (file, r, _) in &rows {
                let d = &dpor[file];
                let not_sc = bounded && NOT_SC_REACHABLE.iter().any(|(n, _)| n == file);
                if r.starts_with("unknown") {
                    assert!(not_sc, "{name} gave up on {dir}/{file}: {r}");
                    continue;
                }
                let (dk, rk) = (kinds(d), kinds(r));
                assert!(
                    rk.iter().all(|k| dk.contains(k)),
                    "{dir}/{file}: {name} found {r}, DPOR {d}"
                );
                if !not_sc {
                    assert_eq!(d, r, "{dir}/{file}: DPOR {d}, {name} {r}");
                }
            }
        }
    }
}
