//! `warpsafe corpus DIR`: runs every annotated kernel under a folder and
//! compares what happened with what its header expects.
//!
//! Until a verification engine exists, the run checks the front end: a
//! kernel expected to verify or to fail verification must parse and lower;
//! a kernel expected to be rejected by a compiler (`CLANG_ERROR`,
//! `BUGLE_ERROR`, `front-end`) must get an error diagnostic.

use crate::exit;
use crate::input::load;
use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use warpsafe_corpus::{parse_flags, parse_header, substitute_kernel_dir, Expectation};
use warpsafe_explore::Explorer;

#[derive(Args)]
pub struct CorpusArgs {
    /// Folder searched recursively for `.cu` files with a `//pass` or `//xfail:` header.
    pub dir: PathBuf,
    /// What to run on each kernel.
    #[arg(long, value_enum, default_value_t = Engine::Frontend)]
    pub engine: Engine,
    /// The explorer `--engine explore` runs (`dpor`, `reference`, `cd`;
    /// `--engine run` is `--engine explore --explorer cd`).
    #[arg(long, value_name = "NAME", default_value = "dpor",
          value_parser = clap::builder::PossibleValuesParser::new(warpsafe_explore::names()))]
    pub explorer: String,
    /// Stop each kernel's exploration after this many seconds (`explore`
    /// and `run` engines; 0: no limit); the kernel's result is then
    /// unknown unless an error was found.
    #[arg(long, value_name = "SECONDS", default_value_t = 0.0,
          value_parser = crate::explore::seconds)]
    pub timeout: f64,
    /// Stop each kernel's exploration by a model checker after this many
    /// partial executions (`explore` engine; 0: no limit); the kernel's
    /// result is then unknown unless an error was found. Unlike
    /// `--timeout`, the same on every machine.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub max_states: usize,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Also print the first diagnostic of each failing kernel.
    #[arg(long, short)]
    pub verbose: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Engine {
    /// Parse and lower each kernel.
    Frontend,
    /// The static race check (`warpsafe check`): `//pass` kernels must be
    /// proven DRF, kernels expected to fail verification must be found racy.
    Check,
    /// Every execution on the kernel's concrete grid (`warpsafe explore`):
    /// `//pass` kernels must show no error, `//xfail:REASON` kernels the
    /// error REASON names (`data-race`, `heterogeneous-race`, `assert`,
    /// `barrier-divergence`), other verification failures any error.
    Explore,
    /// The schedule explorer on the kernel's concrete grid (`warpsafe
    /// run`, up to 2 delays, at most 200 schedules): expectations as for
    /// `explore`; no error within the bound counts as `//pass`.
    Run,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Serialize)]
struct Row {
    path: String,
    expected: String,
    got: String,
    ok: bool,
    millis: f64,
    /// The first error, as `file:line:col: message`.
    detail: Option<String>,
}

pub fn run(args: CorpusArgs) -> Result<u8> {
    if !args.dir.is_dir() {
        bail!("`{}` is not a folder", args.dir.display());
    }
    let explorer = warpsafe_explore::by_name(&args.explorer)
        .expect("invariant: clap accepts registered explorer names only");
    let timeout = (args.timeout > 0.0).then(|| Duration::from_secs_f64(args.timeout));
    let budget = crate::explore::Budget {
        timeout,
        max_states: (args.max_states > 0).then_some(args.max_states),
    };
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(&args.dir)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "cu"))
        .map(|e| e.into_path())
        .collect();
    files.sort();
    // Worker threads with a large stack (the engines recurse over
    // expressions), one per core.
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let rows: Vec<Row> = crate::ordered::run(
        files.len(),
        workers,
        |i| run_one(&files[i], args.engine, explorer, budget),
        |_, _| {},
    )
    .into_iter()
    .flatten()
    .collect();
    if rows.is_empty() {
        bail!(
            "no annotated kernel under `{}`: corpus runs `.cu` files whose first line is `//pass` or `//xfail:REASON` (use `warpsafe check {}` for other CUDA files)",
            args.dir.display(),
            args.dir.display()
        );
    }
    let passed = rows.iter().filter(|r| r.ok).count();
    let failed = rows.len() - passed;
    match args.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&rows)?),
        Format::Text => print_table(&rows, args.verbose),
    }
    println!("{passed} passed, {failed} failed");
    Ok(if failed == 0 { exit::OK } else { exit::FOUND })
}

fn run_one(
    path: &Path,
    engine: Engine,
    explorer: &dyn Explorer,
    budget: crate::explore::Budget,
) -> Option<Row> {
    let text = std::fs::read(path)
        .ok()
        .map(|b| String::from_utf8_lossy(&b).into_owned())?;
    let header = parse_header(&text);
    let expectation = header.expectation?;
    let dir = path
        .parent()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let args: Vec<String> = header
        .flags
        .iter()
        .map(|a| substitute_kernel_dir(a, &dir))
        .collect();
    let expected = match &expectation {
        Expectation::Pass => "pass".to_string(),
        Expectation::Xfail(r) => format!("xfail:{r}"),
    };
    let wants_error = expectation.is_front_end_error();
    let start = Instant::now();
    let mut verdict = None;
    let (got_error, detail) = match parse_flags(&args) {
        Err(e) => (true, Some(format!("bad flags: {e}"))),
        Ok(flags) => match load(path, &flags) {
            Err(e) => (true, Some(format!("{e:#}"))),
            Ok(loaded) => {
                let first = loaded
                    .output
                    .diagnostics
                    .iter()
                    .find(|d| d.is_error())
                    .map(|d| {
                        let at = d
                            .span
                            .map(|s| loaded.sources.describe(s))
                            .unwrap_or_else(|| path.display().to_string());
                        format!("{at}: {}", d.message)
                    });
                let error = first.is_some() || loaded.output.module.kernels.is_empty();
                if engine == Engine::Check && !error {
                    verdict = Some(check_verdict(&loaded.output.module, &flags));
                }
                if engine == Engine::Explore && !error {
                    verdict = Some(explore_verdict(&loaded.output.module, &flags, &|k, p| {
                        crate::explore::error_kinds(explorer, k, p, budget)
                    }));
                }
                if engine == Engine::Run && !error {
                    verdict = Some(explore_verdict(&loaded.output.module, &flags, &|k, p| {
                        crate::run::error_kinds(k, p, budget.timeout)
                    }));
                }
                (error, first)
            }
        },
    };
    let millis = start.elapsed().as_secs_f64() * 1000.0;
    let (got, ok, detail) = match verdict {
        Some((got, detail)) => {
            let ok = match (engine, &expectation) {
                (_, e) if e.is_front_end_error() => false,
                (Engine::Explore | Engine::Run, Expectation::Pass) => got == "no error",
                (Engine::Explore | Engine::Run, Expectation::Xfail(reason)) => {
                    let found: Vec<&str> = got.split(',').collect();
                    match reason.as_str() {
                        r @ ("data-race" | "heterogeneous-race" | "assert"
                        | "barrier-divergence") => found.contains(&r),
                        _ => got != "no error" && !got.starts_with("unknown"),
                    }
                }
                (_, Expectation::Pass) => got == "drf",
                (_, Expectation::Xfail(r)) if r == "barrier-divergence" => got == "divergent",
                (_, Expectation::Xfail(r)) if r == "data-race" || r == "heterogeneous-race" => {
                    got == "racy"
                }
                (_, Expectation::Xfail(r)) if r == "assert" => got == "assert",
                _ => got == "racy" || got == "divergent" || got == "assert",
            };
            (got, ok, detail)
        }
        None => {
            let got = if got_error {
                "front-end error"
            } else {
                "lowered"
            };
            let ok = match engine {
                Engine::Frontend => got_error == wants_error,
                // A kernel that lowers always has a verdict.
                Engine::Check | Engine::Explore | Engine::Run => got_error && wants_error,
            };
            (got.to_string(), ok, detail)
        }
    };
    Some(Row {
        path: path.display().to_string(),
        expected,
        got,
        ok,
        millis,
        detail,
    })
}

fn print_table(rows: &[Row], verbose: bool) {
    let width = rows.iter().map(|r| r.path.len()).max().unwrap_or(4).max(4);
    println!(
        "{:<6} {:<24} {:<16} {:>9}  {:<width$}",
        "status", "expected", "got", "time(ms)", "kernel"
    );
    for r in rows {
        let status = if r.ok { "ok" } else { "FAIL" };
        println!(
            "{:<6} {:<24} {:<16} {:>9.2}  {:<width$}",
            status, r.expected, r.got, r.millis, r.path
        );
        if verbose && !r.ok {
            if let Some(d) = &r.detail {
                println!("       {d}");
            }
        }
    }
}

/// The static race check over every kernel of a file: `drf`, `racy`, or
/// `unknown` (with the first reason); a failing assertion gives `assert`,
/// an assertion neither proved nor refuted makes a DRF result `unknown`.
fn check_verdict(
    module: &warpsafe_ir::Module,
    flags: &warpsafe_corpus::KernelFlags,
) -> (String, Option<String>) {
    use warpsafe_static::{check_kernel, AssertOutcome, RaceConfig, Verdict};
    let params = flags
        .params
        .iter()
        .filter_map(|(n, v)| v.trim().parse::<i128>().ok().map(|v| (n.clone(), v)))
        .collect();
    let config =
        RaceConfig::default()
            .with_params(params)
            .with_assumptions(warpsafe_static::Assumptions {
                only_intra_group: flags.only_intra_group,
                ..Default::default()
            });
    let mut unknown = None;
    for k in &module.kernels {
        let report = check_kernel(k, &config);
        match report.verdict {
            Verdict::Racy(_) => return ("racy".into(), None),
            Verdict::Divergent(_) => return ("divergent".into(), None),
            Verdict::Unknown { reason, .. } => {
                unknown.get_or_insert(format!("{}: {reason}", k.name));
            }
            Verdict::Drf => {}
        }
        for a in &report.asserts {
            match &a.outcome {
                AssertOutcome::Holds => {}
                AssertOutcome::Fails { .. } => return ("assert".into(), None),
                AssertOutcome::Unknown { reason } => {
                    unknown.get_or_insert(format!("{}: assertion: {reason}", k.name));
                }
            }
        }
    }
    match unknown {
        Some(reason) => ("unknown".into(), Some(reason)),
        None => ("drf".into(), None),
    }
}

/// The kinds of error one kernel shows on its concrete grid, or why it
/// could not run (`crate::explore::error_kinds`, `crate::run::error_kinds`).
type ErrorKinds<'a> =
    &'a dyn Fn(&warpsafe_ir::Kernel, &[(String, i128)]) -> Result<Vec<&'static str>, String>;

/// An explorer's verdict over every kernel of a file: `no error`, the
/// error kinds found (comma-separated), or `unknown` with the reason.
fn explore_verdict(
    module: &warpsafe_ir::Module,
    flags: &warpsafe_corpus::KernelFlags,
    error_kinds: ErrorKinds,
) -> (String, Option<String>) {
    let params: Vec<(String, i128)> = flags
        .params
        .iter()
        .filter_map(|(n, v)| v.trim().parse::<i128>().ok().map(|v| (n.clone(), v)))
        .collect();
    let mut found: Vec<&str> = Vec::new();
    for k in &module.kernels {
        match error_kinds(k, &params) {
            Ok(kinds) => {
                for f in kinds {
                    if !found.contains(&f) {
                        found.push(f);
                    }
                }
            }
            Err(reason) => return ("unknown".into(), Some(reason)),
        }
    }
    if found.is_empty() {
        ("no error".into(), None)
    } else {
        (found.join(","), None)
    }
}
