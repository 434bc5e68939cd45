//! `warpsafe explore FILE`: runs every execution of each kernel on a
//! concrete grid under the scoped RC11 memory model (seed 000) and reports
//! data races, heterogeneous races, assertion violations, barrier
//! divergence and faults, each with a witness execution and a replay token.
//!
//! `--explorer NAME` picks the explorer from `warpsafe_explore`'s
//! registry: `dpor` (the default: each consistent execution once),
//! `reference` (the brute-force enumerator, to cross-check) or `cd` (seed
//! 003's conflict-directed delay bounding, reported as `warpsafe run`
//! reports it, with that command's defaults). Modules:
//!
//! - `progress`: the progress line on stderr;
//! - `peak_memory`: `getrusage`'s peak resident size for the summary;
//! - `result`: what one kernel's exploration (or replay) gave, and its
//!   verdict;
//! - `text`, `json`: the two output formats;
//! - `replay`: `--replay TOKEN`;
//! - `inputs`: the flags that give parameter values, array lengths and
//!   contents (`--param`, `--array`, `--input FILE.json`); checking them
//!   and the launch they make are `warpsafe_explore::inputs`'s, the
//!   observer that collects errors, limits and outcomes is
//!   `warpsafe_explore::collect`'s.
//!
//! Verdicts (`warpsafe_explore::verdict`'s rules): SAFE only when an
//! exhaustive exploration completed without an error, ERRORS FOUND when
//! some execution has one, UNKNOWN (with the reason) otherwise. Exit
//! status 1 when a kernel has errors, else 2 when one is UNKNOWN or the
//! input is unusable, else 0.

pub(crate) mod inputs;
mod json;
pub(crate) mod peak_memory;
mod progress;
mod replay;
pub(crate) mod result;
mod text;

use crate::exit;
use crate::input::{load, report_usable, InputArgs};
use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
pub use inputs::Inputs;
use result::{KernelResult, Verdict};
use std::path::PathBuf;
use std::time::Duration;
use warpsafe_explore::collect::{Collector, Mode};
use warpsafe_explore::{Coverage, Explorer, Limits};
use warpsafe_ir::Kernel;
use warpsafe_mc::reference::Config;
use warpsafe_source::SourceMap;

#[derive(Args)]
pub struct ExploreArgs {
    /// The CUDA file (.cu or .cuh).
    pub file: PathBuf,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub values: inputs::LaunchValues,
    /// Keep exploring after an error and report each distinct error once
    /// (by default the exploration stops at the first error).
    #[arg(long)]
    pub all: bool,
    /// Print each distinct final state of global memory and how many
    /// executions reach it (explores every execution, as --all).
    #[arg(long)]
    pub outcomes: bool,
    /// Write the witness executions as Graphviz DOT to this file (one
    /// digraph, a cluster per witness).
    #[arg(long, value_name = "FILE")]
    pub graph: Option<PathBuf>,
    /// Print every error of a witness execution and all its events (by
    /// default a witness lists 10 errors, and one of more than 64 events
    /// shows those around its errors).
    #[arg(long)]
    pub full: bool,
    /// Reproduce the execution of a replay token printed by an earlier run.
    #[arg(long, value_name = "TOKEN")]
    pub replay: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Stop after this many executions (per kernel); the verdict is then
    /// UNKNOWN unless an error was found.
    #[arg(long, default_value_t = 10_000)]
    pub max_executions: usize,
    /// Stop after this many partial executions (states) per kernel (0: no
    /// limit, the default: --max-executions and --timeout govern); the
    /// verdict is then UNKNOWN unless an error was found.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub max_states: usize,
    /// Stop a kernel's exploration after this many seconds (0: no limit;
    /// at most 1e9, about 31 years); the verdict is then UNKNOWN unless an
    /// error was found.
    #[arg(long, value_name = "SECONDS", default_value_t = 0.0, value_parser = seconds)]
    pub timeout: f64,
    /// Stop a kernel's exploration when warpsafe's resident memory reaches
    /// this many MiB (default: half of the machine's memory; 0: no
    /// limit); the verdict is then UNKNOWN unless an error was found.
    #[arg(long, value_name = "MIB")]
    pub max_memory: Option<u64>,
    /// Interpreter steps per thread (bounds loops, including spin loops;
    /// default 10,000, and `warpsafe run`'s 100,000,000 for `--explorer
    /// cd`).
    #[arg(long, value_name = "N")]
    pub max_steps: Option<u64>,
    /// The largest grid (threads in all) the explorer accepts (default
    /// 1,024, and `warpsafe run`'s 2^24 for `--explorer cd`). Threads
    /// that touch no shared location cost little, so a large grid where a
    /// few threads interact explores quickly; many interacting threads
    /// reach --max-executions, --timeout or --max-memory instead.
    #[arg(long, value_name = "N")]
    pub max_threads: Option<usize>,
    /// The most threads that may interact (perform atomics or fences, or
    /// access a location another thread writes); the exploration stops
    /// with UNKNOWN when more do. The reference enumerator takes it as its
    /// limit on all threads.
    #[arg(long, default_value_t = 16)]
    pub max_active_threads: usize,
    /// The explorer: `dpor` (each consistent execution once), `reference`
    /// (the brute-force enumerator, for cross-checking; exponentially
    /// slower) or `cd` (conflict-directed delay bounding under sequential
    /// consistency, at the launch's real size; bounded, so never SAFE: as
    /// `warpsafe run`, whose flags tune it).
    #[arg(long, value_name = "NAME", default_value = "dpor",
          value_parser = clap::builder::PossibleValuesParser::new(warpsafe_explore::names()))]
    pub explorer: String,
    /// The most iterations of one loop per entry; an execution going
    /// further is cut, and a clean result then holds only within the bound.
    #[arg(long, default_value_t = warpsafe_mc::DEFAULT_LOOP_BOUND, value_parser = clap::value_parser!(u32).range(1..))]
    pub loop_bound: u32,
    /// Explore every iteration of await loops instead of cutting wasted
    /// ones (spin-assume; for measuring, it never loses an error).
    #[arg(long)]
    pub no_spin_assume: bool,
    /// Repair races: widen scopes of heterogeneous races,
    /// make plain accesses of data races relaxed atomics, print the
    /// repaired source as a diff and explore it again.
    #[arg(long)]
    pub repair: bool,
    /// Most rounds of repair (each fixes the races of one execution).
    #[arg(long, default_value_t = 8, requires = "repair")]
    pub repair_rounds: u32,
    /// Threads the DPOR explorer works on (default: one per core). The
    /// report, its witnesses and their numbers are the same for any number
    /// (only the states and pruned counts of a stopped exploration may
    /// differ).
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: Option<u32>,
}

impl ExploreArgs {
    /// The explorer's bounds and options from the flags (`max_executions`
    /// is the caller's: the collector enforces the flag).
    pub fn limits(&self, max_executions: usize) -> Limits {
        Limits {
            max_runs: max_executions,
            max_states: if self.max_states == 0 {
                usize::MAX
            } else {
                self.max_states
            },
            max_steps: self.max_steps.unwrap_or(MC_MAX_STEPS),
            max_threads: self.max_threads.unwrap_or(MC_MAX_THREADS),
            max_active_threads: self.max_active_threads,
            loop_bound: Some(self.loop_bound),
            spin_assume: !self.no_spin_assume,
            jobs: self.jobs.map_or_else(
                || std::thread::available_parallelism().map_or(1, usize::from),
                |j| j as usize,
            ),
            ..Limits::default()
        }
    }

    /// The model checkers' configuration from the flags.
    pub fn config(&self, max_executions: usize) -> Config {
        self.limits(max_executions).model_checker()
    }

    /// The same request for `warpsafe run` (`--explorer cd`): its flags
    /// where explore has them, its defaults elsewhere.
    fn into_run_args(self) -> crate::run::RunArgs {
        let defaults = warpsafe_sched::RunConfig::default();
        crate::run::RunArgs {
            file: self.file,
            input: self.input,
            values: self.values,
            delays: Limits::default().delays,
            max_schedules: self.max_executions.max(1),
            all: self.all,
            compare_final: false,
            outcomes: self.outcomes,
            bounded_ok: false,
            replay: self.replay,
            format: match self.format {
                Format::Text => crate::run::Format::Text,
                Format::Json => crate::run::Format::Json,
            },
            timeout: self.timeout,
            max_steps: self.max_steps.unwrap_or(defaults.max_steps),
            max_threads: self.max_threads.map_or(defaults.max_threads, |n| n as u64),
        }
    }

    /// The explorer `--explorer` names.
    pub fn explorer(&self) -> &'static dyn Explorer {
        warpsafe_explore::by_name(&self.explorer)
            .expect("invariant: clap accepts registered explorer names only")
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// `--max-steps` of the model checkers by default.
const MC_MAX_STEPS: u64 = 10_000;
/// `--max-threads` of the model checkers by default.
const MC_MAX_THREADS: usize = 1024;

/// The most seconds `--timeout` takes: a deadline this far away is still a
/// point in time the clock can hold.
pub const MAX_TIMEOUT_SECS: f64 = 1e9;

/// `--timeout`: a number of seconds in `0..=MAX_TIMEOUT_SECS`.
pub(crate) fn seconds(text: &str) -> Result<f64, String> {
    let t: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if (0.0..=MAX_TIMEOUT_SECS).contains(&t) {
        Ok(t)
    } else {
        Err(format!("{text} is not in 0..={MAX_TIMEOUT_SECS:e} seconds"))
    }
}

pub fn run(args: ExploreArgs) -> Result<u8> {
    if args.explorer().coverage() == Coverage::Bounded {
        // What only the model checkers do has no meaning for schedules.
        if args.repair {
            bail!(
                "--repair needs an exhaustive explorer (--explorer dpor or reference), not `{}`",
                args.explorer
            );
        }
        if args.graph.is_some() {
            bail!("--graph draws execution graphs, which `{}` does not build (its witnesses are schedules); use --explorer dpor", args.explorer);
        }
        return crate::run::run(args.into_run_args());
    }
    let inputs = args.values.gather().map_err(|e| input_error(&args, e))?;
    if args.repair {
        return crate::repair::run(&args, &inputs);
    }
    let loaded = load(&args.file, &inputs::front_end_flags(&inputs, &args.input))?;
    if !report_usable(&loaded) {
        return Ok(exit::UNUSABLE);
    }
    let out = &loaded.output;
    inputs
        .validate(&out.module.kernels)
        .map_err(|e| input_error(&args, e.into()))?;
    let explorer = args.explorer();
    let results = match &args.replay {
        Some(token) => match replay::run(token, &out.module.kernels, &inputs, &args) {
            Ok(r) => vec![r],
            Err(e) => {
                if args.format == Format::Json {
                    println!("{}", json::error(&args.file, &e.to_string()));
                }
                bail!("{e}");
            }
        },
        None => {
            let text = args.format == Format::Text;
            if text {
                println!("engine: {}", explorer.describe());
            }
            let mut results = Vec::new();
            for k in &out.module.kernels {
                let r = explore_kernel(k, explorer, &inputs, &args);
                // Text reports appear as each kernel finishes.
                if text {
                    print!("{}", text::kernel(&r, &loaded.sources, args.full));
                }
                results.push(r);
            }
            results
        }
    };
    emit(&results, explorer, &args, &loaded.sources)?;
    let found = results.iter().any(|r| r.verdict == Verdict::ErrorsFound);
    let unknown = results
        .iter()
        .any(|r| matches!(r.verdict, Verdict::Unknown(_)));
    Ok(if found {
        exit::FOUND
    } else if unknown {
        exit::UNUSABLE
    } else {
        exit::OK
    })
}

/// An unusable input (exit 2); with `--format json` also reported as a
/// JSON object on stdout.
fn input_error(args: &ExploreArgs, e: anyhow::Error) -> anyhow::Error {
    if args.format == Format::Json {
        println!("{}", json::error(&args.file, &format!("{e:#}")));
    }
    e
}

/// Prints the results and writes `--graph`.
fn emit(
    results: &[KernelResult<'_>],
    explorer: &dyn Explorer,
    args: &ExploreArgs,
    sources: &SourceMap,
) -> Result<()> {
    match args.format {
        // Explorations printed theirs as they went.
        Format::Text if args.replay.is_none() => {}
        Format::Text => {
            for r in results {
                print!("{}", text::kernel(r, sources, args.full));
            }
        }
        Format::Json => println!(
            "{}",
            json::run(
                &args.file,
                explorer,
                args.replay.is_some(),
                results,
                sources
            )
        ),
    }
    if let Some(path) = &args.graph {
        let clusters: Vec<String> = results
            .iter()
            .enumerate()
            .flat_map(|(i, r)| r.dot_clusters(i, sources))
            .collect();
        if clusters.is_empty() {
            eprintln!("note: no witness execution to write to {}", path.display());
        } else {
            std::fs::write(path, warpsafe_mc::dot::document(&clusters))
                .with_context(|| format!("writing {}", path.display()))?;
        }
    }
    Ok(())
}

/// Explores one kernel with the limits of `args`.
fn explore_kernel<'k>(
    k: &'k Kernel,
    explorer: &dyn Explorer,
    inputs: &Inputs,
    args: &ExploreArgs,
) -> KernelResult<'k> {
    let launch = match inputs.launch(k) {
        Ok(l) => l,
        Err(e) => return KernelResult::unknown(k, format!("{e:#}")),
    };
    let mode = if args.all || args.outcomes {
        Mode::AllErrors
    } else {
        Mode::FirstError
    };
    // The collector enforces the limit (and knows when more exist).
    let mut limits = args.limits(usize::MAX);
    let timeout = (args.timeout > 0.0).then(|| Duration::from_secs_f64(args.timeout));
    let mut progress = progress::Progress::new(&k.name, args.format == Format::Text);
    let mut report_progress =
        |p: warpsafe_explore::collect::Progress| progress.update(p.executions, p.errors, p.states);
    let start = std::time::Instant::now();
    // The time limit covers the set-up before the first state too.
    limits.deadline = timeout.map(|t| start + t);
    let collector = Collector::new(mode)
        .with_max_executions(Some(args.max_executions))
        .with_max_memory(max_memory_mib(args.max_memory), peak_memory::current_kib)
        .with_loop_bound(limits.loop_bound)
        .with_timeout(timeout)
        .with_outcomes(args.outcomes.then_some(k))
        .with_progress(&mut report_progress);
    let mut r = KernelResult::explored(k, &launch, explorer.coverage(), collector, start, |c| {
        explorer.explore_collecting(k, &launch, &limits, c)
    });
    if let Some(reading) = k.volatile_read_as {
        r.notes.push(reading.note().to_string());
    }
    if r.summary.is_some_and(|s| s.executions > 0) {
        inputs::note_unchecked(&mut r, &launch);
    }
    progress.finish();
    r
}

/// `--max-memory`: the limit in MiB, half of the machine's memory by
/// default (none where the platform does not say), none for 0.
fn max_memory_mib(flag: Option<u64>) -> Option<u64> {
    match flag {
        Some(0) => None,
        Some(m) => Some(m),
        None => peak_memory::physical_mib().map(|m| (m / 2).max(1)),
    }
}

/// What one kernel's exploration may cost in `warpsafe corpus`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget {
    /// `--timeout`.
    pub timeout: Option<Duration>,
    /// `--max-states`: partial executions a model checker may explore (a
    /// bound that, unlike time, gives the same answer on every machine).
    pub max_states: Option<usize>,
}

/// The kinds of error `explorer` finds in `k` (as `//xfail:` reasons
/// spell them: every execution for an exhaustive explorer, the schedules
/// of `warpsafe corpus --engine run` for a bounded one), or why the
/// exploration could not decide: what `warpsafe corpus --engine explore`
/// compares with a kernel's header.
pub fn error_kinds(
    explorer: &dyn Explorer,
    k: &Kernel,
    params: &[(String, i128)],
    budget: Budget,
) -> Result<Vec<&'static str>, String> {
    let timeout = budget.timeout;
    if explorer.coverage() == Coverage::Bounded {
        return crate::run::error_kinds(k, params, timeout);
    }
    let launch = Inputs::from_params(params)
        .launch(k)
        .map_err(|e| format!("{e:#}"))?;
    let limits = Limits {
        max_runs: usize::MAX,
        max_states: budget.max_states.unwrap_or(usize::MAX),
        deadline: timeout.map(|t| std::time::Instant::now() + t),
        ..Limits::default()
    };
    let mut c = Collector::new(Mode::AllErrors)
        .with_max_executions(Some(Limits::default().max_runs))
        .with_loop_bound(limits.loop_bound)
        .with_timeout(timeout);
    let res = explorer.explore(k, &launch, &limits, &mut c);
    let mut kinds: Vec<&'static str> = Vec::new();
    for e in &c.errors {
        let name = e.finding.kind().name();
        if !kinds.contains(&name) {
            kinds.push(name);
        }
    }
    if kinds.is_empty() {
        if let Err(e) = res {
            return Err(format!("{}: {e}", k.name));
        }
        if let Some(stop) = &c.stop {
            return Err(format!("{}: {}", k.name, result::stop_reason(stop)));
        }
        if let Some(reason) = c.bounded_reason() {
            return Err(format!("{}: {reason}", k.name));
        }
    }
    Ok(kinds)
}
