//! The differential soundness test (issue 14): random CUDA kernels, each
//! run through `warpsafe check`, `warpsafe explore --all` and `warpsafe
//! run --all` (the schedule explorer, rules in `compare_run`) on one small
//! concrete launch (1–2 blocks of 2–4 threads, every scalar parameter
//! given with `--param`, every pointer parameter a length with `--array`),
//! failing when the engines disagree in the unsound direction (rules in
//! `differential/compare.rs`): a race or divergence `explore` shows that
//! `check` misses, or a race or divergence `check` calls provable that a
//! complete exploration never shows.
//!
//! The generator (`differential/gen.rs`, printed as CUDA text by
//! `differential/print.rs`, so cases go through the real front end) uses
//! shared and global `int` arrays and arrays of a two-field struct,
//! indices built from thread and block ids, `blockDim.x`, small constants,
//! loop variables, parameters and values read from memory with `+ - * ^ &
//! << >> %` and `?:` (always reduced `% N` in unsigned arithmetic, so in
//! bounds), conditionals on thread ids and parameters (with `&&`, `||`),
//! constant- and parameter-bound `for` loops (by 1 from 0, by a constant, and
//! block-stride from `threadIdx.x`; a fifth of them with a further
//! conjunct in their test, `iK < B && (cond)`, which may read `iK` and the
//! thread), `__syncthreads()` in uniform and in
//! thread-dependent contexts (also inside a helper), early `return`,
//! `atomicAdd`, `+=`, and `__device__` helpers taking pointers. No
//! construct is excluded; every disagreement found was fixed and
//! minimised in `tests/kernels/soundness/diff_*.cu`.
//!
//! Explore's limits in CI are low (50 executions, 1 s): the debug build
//! verifies every incremental consistency verdict and is slow, and most
//! racy kernels have more executions than any limit; an incomplete
//! exploration still shows races, it only skips the "provable race never
//! shown" rule. The 300 CI cases take about 130 s of CPU (about a minute
//! on two free cores).
//!
//! `cargo test -p warpsafe-cli --test differential` runs a fixed seed's
//! cases (`CI_CASES`). Environment, for stress runs:
//! - `WARPSAFE_DIFF_CASES` (cases), `WARPSAFE_DIFF_SEED` (the first case's
//!   seed; case i uses seed + i, and a failure names its seed, so
//!   `WARPSAFE_DIFF_SEED=S WARPSAFE_DIFF_CASES=1` reproduces it);
//! - `WARPSAFE_DIFF_BIN`: the `warpsafe` binary (a release build explores
//!   much faster than the debug build, which verifies every incremental
//!   consistency verdict);
//! - `WARPSAFE_DIFF_MAX_EXECUTIONS`, `WARPSAFE_DIFF_EXPLORE_SECONDS`: the
//!   exploration's limits (an incomplete one only weakens the comparison);
//! - `WARPSAFE_DIFF_MAX_THREADS`: threads per launch (default 4, at most
//!   8);
//! - `WARPSAFE_DIFF_SAVE=DIR`: write each disagreeing kernel there;
//! - `WARPSAFE_DIFF_THREADS`: cases run at once (default: the cores).
//!
//! Every disagreement is reported with the kernel text, the launch, both
//! command lines and both engines' verdicts.

mod differential {
    pub mod ast;
    pub mod compare;
    pub mod engines;
    pub mod gen;
    pub mod print;
    pub mod rng;
}

use differential::ast::{Kernel, Launch};
use differential::compare::{compare, compare_run, Outcome};
use differential::engines::{self, Limits};
use differential::gen::{self, Features};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Cases per `cargo test` run.
const CI_CASES: u64 = 300;
/// The first case's seed in CI.
const CI_SEED: u64 = 0x14D1_FF00;
/// Threads per launch in CI (`WARPSAFE_DIFF_MAX_THREADS` for stress runs,
/// up to 8).
const CI_MAX_THREADS: u64 = 4;
/// The constructs CI's generator uses.
const CI_FEATURES: Features = Features::ALL;

fn env_u64(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v} is not a number")),
        Err(_) => default,
    }
}

/// One case's result, for the report.
struct Case {
    seed: u64,
    outcome: Outcome,
    text: String,
    /// Both verdicts in a few words, for the tally.
    verdicts: String,
}

#[test]
fn check_and_explore_agree_on_random_kernels() {
    let cases = env_u64("WARPSAFE_DIFF_CASES", CI_CASES);
    let first = env_u64("WARPSAFE_DIFF_SEED", CI_SEED);
    let limits = Limits {
        max_executions: env_u64("WARPSAFE_DIFF_MAX_EXECUTIONS", 50),
        explore_seconds: env_u64("WARPSAFE_DIFF_EXPLORE_SECONDS", 1),
    };
    let max_threads = env_u64("WARPSAFE_DIFF_MAX_THREADS", CI_MAX_THREADS) as u32;
    let threads = env_u64(
        "WARPSAFE_DIFF_THREADS",
        std::thread::available_parallelism().map_or(2, |n| n.get() as u64),
    );
    let bin: PathBuf = std::env::var_os("WARPSAFE_DIFF_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| insta_cmd::get_cargo_bin("warpsafe"));
    let save = std::env::var_os("WARPSAFE_DIFF_SAVE").map(PathBuf::from);
    let dir = std::env::temp_dir().join(format!("warpsafe-diff-test-{}", std::process::id()));
    let start = Instant::now();
    let next = AtomicU64::new(0);
    let done = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for w in 0..threads {
            let (next, done, bin, dir, save) = (&next, &done, &bin, &dir, &save);
            s.spawn(move || {
                let file = dir.join(format!("w{w}")).join("kernel.cu");
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= cases {
                        break;
                    }
                    let seed = first.wrapping_add(i);
                    let case = run_case(bin, &file, seed, limits, max_threads);
                    if let (Outcome::Disagree(_), Some(dir)) = (&case.outcome, save) {
                        let _ = std::fs::create_dir_all(dir);
                        let _ = std::fs::write(dir.join(format!("case_{seed}.txt")), &case.text);
                    }
                    let mut done = done
                        .lock()
                        .expect("invariant: no worker panics holding the lock");
                    done.push(case);
                    if done.len() % 100 == 0 {
                        eprintln!(
                            "differential: {} cases, {} disagree",
                            done.len(),
                            done.iter()
                                .filter(|c| matches!(c.outcome, Outcome::Disagree(_)))
                                .count()
                        );
                    }
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
    let mut done = done.into_inner().expect("invariant: the workers are done");
    done.sort_by_key(|c| c.seed);
    let (mut agree, mut skipped, mut failed) = (0, Vec::new(), Vec::new());
    for c in &done {
        match &c.outcome {
            Outcome::Agree => agree += 1,
            Outcome::Skipped(why) => skipped.push(why.clone()),
            Outcome::Disagree(_) => failed.push(c),
        }
    }
    for c in &failed {
        eprintln!("{}", c.text);
    }
    let mut reasons: Vec<String> = skipped
        .iter()
        .map(|w| w.chars().take(70).collect())
        .collect();
    reasons.sort();
    reasons.dedup();
    eprintln!(
        "differential: {} cases from seed {first} in {:.1} s: {agree} agree, {} skipped, {} disagree",
        done.len(),
        start.elapsed().as_secs_f64(),
        skipped.len(),
        failed.len()
    );
    for r in reasons.iter().take(20) {
        eprintln!("  skipped: {r}");
    }
    let mut tally = std::collections::BTreeMap::new();
    for c in &done {
        *tally.entry(c.verdicts.as_str()).or_insert(0) += 1;
    }
    for (v, n) in tally {
        eprintln!("  {n:5} {v}");
    }
    assert!(
        failed.is_empty(),
        "{} of {} cases disagree (seeds {:?}); each is printed above",
        failed.len(),
        done.len(),
        failed.iter().map(|c| c.seed).collect::<Vec<_>>()
    );
    assert!(
        skipped.len() * 2 <= done.len(),
        "more than half the cases compared nothing: the generator has drifted ({skipped:?})"
    );
}

/// Generates case `seed`, runs both engines and compares them.
fn run_case(bin: &Path, file: &Path, seed: u64, limits: Limits, max_threads: u32) -> Case {
    let (kernel, launch) = gen::case(seed, CI_FEATURES, max_threads);
    let source = differential::print::file(&kernel);
    std::fs::create_dir_all(file.parent().expect("invariant: the file is in a folder"))
        .expect("temp dir");
    std::fs::write(file, &source).expect("write the kernel");
    let (check_args, explore_args) = engines::command_lines(&kernel, launch, limits);
    let name = file
        .file_name()
        .expect("invariant: the file has a name")
        .to_string_lossy();
    let check = engines::check(bin, file, &check_args);
    let explore = engines::explore(bin, file, &name, &explore_args);
    let run_args = engines::run_command_line(&explore_args);
    let run = engines::explore(bin, file, &name, &run_args);
    let outcome = match (&check, &explore, &run) {
        (Ok(c), Ok(e), Ok(r)) => match (compare(c, e), compare_run(c, e, r)) {
            (Outcome::Disagree(mut a), Outcome::Disagree(b)) => {
                a.extend(b);
                Outcome::Disagree(a)
            }
            (_, Outcome::Disagree(b)) => Outcome::Disagree(b),
            (first, _) => first,
        },
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => {
            Outcome::Disagree(vec![format!("an engine failed: {e}")])
        }
    };
    let verdicts = format!(
        "check {} / explore {} / run {}",
        check.as_ref().map_or("error", |c| c.name()),
        explore.as_ref().map_or("error".to_string(), |e| format!(
            "{}{}",
            e.verdict,
            if e.complete { "" } else { " (incomplete)" }
        )),
        run.as_ref().map_or("error", |r| r.verdict.as_str())
    );
    let text = report(
        seed,
        &kernel,
        launch,
        &source,
        (&check_args, &explore_args, &run_args),
        &check,
        &explore,
        &run,
        &outcome,
    );
    Case {
        seed,
        outcome,
        text,
        verdicts,
    }
}

#[allow(clippy::too_many_arguments)]
fn report(
    seed: u64,
    kernel: &Kernel,
    launch: Launch,
    source: &str,
    (check_args, explore_args, run_args): (&[String], &[String], &[String]),
    check: &Result<engines::Check, String>,
    explore: &Result<engines::Explore, String>,
    run: &Result<engines::Explore, String>,
    outcome: &Outcome,
) -> String {
    let Outcome::Disagree(lines) = outcome else {
        return String::new();
    };
    format!(
        "=== disagreement, case seed {seed} (reproduce: WARPSAFE_DIFF_SEED={seed} WARPSAFE_DIFF_CASES=1)\n\
         launch: gridDim {} blockDim {}, params {:?}\n\
         {}\n\
         --- kernel.cu\n{source}\
         --- warpsafe {}\n    {check:?}\n\
         --- warpsafe {}\n    {explore:?}\n\
         --- warpsafe {}\n    {run:?}\n",
        launch.grid,
        launch.block,
        kernel.params,
        lines.join("\n"),
        check_args.join(" "),
        explore_args.join(" "),
        run_args.join(" "),
    )
}

/// The comparison fails each unsound direction and lets the allowed
/// disagreements pass (the random cases alone may never exercise a rule).
#[test]
fn comparison_flags_each_unsound_direction() {
    use differential::engines::{Check, Explore, Pair};
    use std::collections::BTreeSet;
    let pair = ((3, 5), (7, 5));
    let explore = |races: &[Pair], divergence: bool, complete: bool| Explore {
        verdict: if races.is_empty() && !divergence {
            "safe".into()
        } else {
            "errors-found".into()
        },
        complete,
        races: races.iter().copied().collect(),
        divergence,
        others: Vec::new(),
    };
    let racy = |provable: &[Pair], possible: &[Pair]| Check::Racy {
        provable: provable.iter().copied().collect(),
        possible: possible.iter().copied().collect::<BTreeSet<_>>(),
    };
    let disagree = |c: &Check, e: &Explore| matches!(compare(c, e), Outcome::Disagree(_));
    // Unsound: a race explore shows that check misses.
    assert!(disagree(&Check::Drf, &explore(&[pair], false, false)));
    assert!(disagree(
        &racy(&[], &[((1, 1), (2, 2))]),
        &explore(&[pair], false, false)
    ));
    // Unsound: a provable race a complete exploration never shows.
    assert!(disagree(&racy(&[pair], &[]), &explore(&[], false, true)));
    // Divergence either way.
    assert!(disagree(&Check::Drf, &explore(&[], true, true)));
    assert!(disagree(&racy(&[pair], &[]), &explore(&[pair], true, true)));
    assert!(disagree(
        &Check::Divergent { provable: true },
        &explore(&[], false, true)
    ));
    // Allowed: possible races, incomplete explorations, UNKNOWN, races in
    // a divergent kernel.
    assert!(!disagree(&racy(&[], &[pair]), &explore(&[], false, true)));
    assert!(!disagree(&racy(&[pair], &[]), &explore(&[], false, false)));
    assert!(!disagree(
        &Check::Unknown("x".into()),
        &explore(&[pair], false, true)
    ));
    assert!(!disagree(
        &Check::Divergent { provable: false },
        &explore(&[pair], false, true)
    ));
    assert!(!disagree(
        &Check::Divergent { provable: true },
        &explore(&[pair], true, true)
    ));
    assert!(!disagree(
        &racy(&[pair], &[]),
        &explore(&[pair], false, true)
    ));
    // The schedule explorer: its races must be reported by check and
    // shown by a complete exploration; check's provable races need not
    // show in it (it is never complete).
    let run_disagrees =
        |c: &Check, e: &Explore, r: &Explore| matches!(compare_run(c, e, r), Outcome::Disagree(_));
    let shown = explore(&[pair], false, false);
    assert!(run_disagrees(
        &Check::Drf,
        &explore(&[pair], false, false),
        &shown
    ));
    assert!(run_disagrees(
        &racy(&[pair], &[]),
        &explore(&[], false, true),
        &shown
    ));
    assert!(run_disagrees(
        &racy(&[], &[pair]),
        &explore(&[], true, true),
        &explore(&[], true, false)
    ));
    assert!(!run_disagrees(
        &racy(&[pair], &[]),
        &explore(&[pair], false, true),
        &shown
    ));
    assert!(!run_disagrees(
        &racy(&[pair], &[]),
        &explore(&[pair], false, true),
        &explore(&[], false, false)
    ));
    assert!(!run_disagrees(
        &racy(&[], &[pair]),
        &explore(&[], false, false),
        &shown
    ));
}

/// A seed names one kernel and launch: a reported seed reproduces its case.
#[test]
fn a_seed_reproduces_its_case() {
    for seed in [0, 1, CI_SEED, u64::MAX] {
        let (a, la) = gen::case(seed, CI_FEATURES, 8);
        let (b, lb) = gen::case(seed, CI_FEATURES, 8);
        assert_eq!(differential::print::file(&a), differential::print::file(&b));
        assert_eq!((la.grid, la.block), (lb.grid, lb.block));
    }
}
