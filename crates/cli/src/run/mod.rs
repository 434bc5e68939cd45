//! `warpsafe run FILE`: runs each kernel at its launch size in seed 003's
//! canonical schedule, detecting data races, heterogeneous races, barrier
//! divergence, failing assertions, undefined behaviour and hangs as it
//! goes, then re-runs it with delays where atomics conflicted
//! (conflict-directed delay bounding, `--delays K`), under sequential
//! consistency.
//!
//! Modules: `result` (one kernel's search: errors with the schedule that
//! shows each, warnings, outcomes, verdict), `text` and `json` (the
//! outputs).
//!
//! Verdicts: ERRORS FOUND when some schedule has an error (or, with
//! `--compare-final`, two schedules end with different global memory); NO
//! ERROR FOUND when the schedules run have none: a bounded search, never a
//! proof, so it exits 2 unless `--bounded-ok`; UNKNOWN with the reason when
//! the kernel cannot run or no schedule ran to its end. Exit status 1 when
//! a kernel has errors, else 2 when one is UNKNOWN or clean without
//! `--bounded-ok`, else 0.

mod json;
mod result;
mod text;

use crate::exit;
use crate::explore::inputs::{self, Inputs};
use crate::input::{load, report_usable, InputArgs};
use anyhow::Result;
use clap::{Args, ValueEnum};
use result::{KernelRun, Verdict};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use warpsafe_explore::cd::DelayBounded;
use warpsafe_explore::{ExploreError, Explorer, Limits, Run as ExplorerRun, Summary};
use warpsafe_ir::Kernel;
use warpsafe_mc::Flow;
use warpsafe_sched::{token, Launched, Outcomes, RunConfig, SearchConfig};

#[derive(Args)]
pub struct RunArgs {
    /// The CUDA file (.cu or .cuh).
    pub file: PathBuf,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub values: inputs::LaunchValues,
    /// The most delays in one schedule (seed 003's delay bound K; 0 runs
    /// the canonical schedule only).
    #[arg(long, value_name = "K", default_value_t = 2)]
    pub delays: usize,
    /// Stop after this many schedules per kernel (at least 1: the
    /// canonical schedule).
    #[arg(long, value_name = "N", default_value_t = 10_000,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub max_schedules: usize,
    /// Keep running schedules after an error and report each distinct
    /// error once (by default the search stops at the first schedule with
    /// an error).
    #[arg(long)]
    pub all: bool,
    /// Report when two schedules end with different global memory (a
    /// determinism check; runs every schedule, as --all).
    #[arg(long)]
    pub compare_final: bool,
    /// Print each distinct final state of global memory and how many
    /// schedules reach it (runs every schedule, as --all).
    #[arg(long)]
    pub outcomes: bool,
    /// Exit 0 when no error is found within the bound (by default such a
    /// result exits 2: it is no proof).
    #[arg(long)]
    pub bounded_ok: bool,
    /// Run only the schedule of a replay token printed by an earlier run.
    #[arg(long, value_name = "TOKEN")]
    pub replay: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Stop a kernel's search after this many seconds (0: no limit; at
    /// most 1e9).
    #[arg(long, value_name = "SECONDS", default_value_t = 0.0,
          value_parser = crate::explore::seconds)]
    pub timeout: f64,
    /// Interpreter steps per thread before a run is cut (a loop that
    /// never ends).
    #[arg(long, default_value_t = RunConfig::default().max_steps)]
    pub max_steps: u64,
    /// The largest grid (threads in all) accepted.
    #[arg(long, default_value_t = RunConfig::default().max_threads)]
    pub max_threads: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// What the engine line says.
pub const ENGINE: &str = warpsafe_explore::cd::DESCRIPTION;

pub fn run(args: RunArgs) -> Result<u8> {
    let inputs = args.values.gather()?;
    let loaded = load(&args.file, &inputs::front_end_flags(&inputs, &args.input))?;
    if !report_usable(&loaded) {
        return Ok(exit::UNUSABLE);
    }
    let out = &loaded.output;
    inputs.validate(&out.module.kernels)?;
    let text = args.format == Format::Text;
    if text {
        println!("engine: {ENGINE}");
    }
    let mut results = Vec::new();
    for k in &out.module.kernels {
        let r = match &args.replay {
            Some(tok) => match replay_kernel(k, &inputs, &args, tok) {
                Some(r) => r,
                None => continue,
            },
            None => run_kernel(k, &inputs, &args),
        };
        if text {
            print!("{}", text::kernel(&r, &loaded.sources, &args));
        }
        results.push(r);
    }
    if args.replay.is_some() && results.is_empty() {
        anyhow::bail!(
            "the replay token belongs to no kernel of {} with these inputs (the source, dimensions, parameters or arrays changed)",
            args.file.display()
        );
    }
    if !text {
        println!("{}", json::run(&args, &results, &loaded.sources));
    }
    let found = results.iter().any(|r| r.verdict == Verdict::ErrorsFound);
    let unknown = results
        .iter()
        .any(|r| matches!(r.verdict, Verdict::Unknown(_)));
    let clean_bounded = results
        .iter()
        .any(|r| r.verdict == Verdict::NoErrorFound && !args.bounded_ok);
    Ok(if found {
        exit::FOUND
    } else if unknown || clean_bounded {
        exit::UNUSABLE
    } else {
        exit::OK
    })
}

/// The run limits from the flags.
fn run_config(args: &RunArgs, start: Instant) -> RunConfig {
    RunConfig {
        max_steps: args.max_steps,
        max_threads: args.max_threads,
        deadline: (args.timeout > 0.0).then(|| start + Duration::from_secs_f64(args.timeout)),
        ..RunConfig::default()
    }
}

/// Searches the schedules of one kernel.
fn run_kernel<'k>(k: &'k Kernel, inputs: &Inputs, args: &RunArgs) -> KernelRun<'k> {
    let start = Instant::now();
    let launch = match inputs.launch(k) {
        Ok(l) => l,
        Err(e) => return KernelRun::unknown(k, format!("{e:#}")),
    };
    let limits = Limits {
        max_runs: args.max_schedules,
        max_steps: args.max_steps,
        max_threads: usize::try_from(args.max_threads).unwrap_or(usize::MAX),
        delays: args.delays,
        deadline: run_config(args, start).deadline,
        ..Limits::schedules()
    };
    let mut r = KernelRun::new(k, &launch, args.delays);
    let keep_going = args.all || args.compare_final || args.outcomes;
    let mut outcomes = Outcomes::default();
    let mut handed = 0usize;
    let searched = DelayBounded.explore(k, &launch, &limits, &mut |run: ExplorerRun<'_>| {
        let ExplorerRun::Schedule(run) = run else {
            unreachable!("invariant: the schedule explorer hands over schedules")
        };
        handed += 1;
        r.add(run, token::encode(k, &launch, &run.delays));
        if args.compare_final || args.outcomes {
            if let Some(i) = outcomes.add(run) {
                if args.compare_final && i > 0 && r.final_difference.is_none() {
                    r.final_difference = Some((0, i, outcomes.differences(0, i)));
                }
            }
        }
        if !keep_going && !r.errors.is_empty() {
            Flow::Stop
        } else {
            Flow::Continue
        }
    });
    if args.compare_final || args.outcomes {
        r.outcomes = Some(outcomes);
    }
    match searched {
        Ok(Summary::Schedules(s)) => r.finish(s, args.compare_final, start),
        Ok(Summary::Executions(_)) => {
            unreachable!("invariant: the schedule explorer counts schedules")
        }
        // The launch could not start (too many threads, a thread's set-up).
        Err(ExploreError::Schedules(e)) if handed == 0 => {
            return KernelRun::unknown(k, e.to_string())
        }
        Err(e) => {
            r.failure = Some(e.to_string());
            r.finish(Default::default(), args.compare_final, start)
        }
    }
    r
}

/// Runs the one schedule of `tok` if it belongs to `k` (`None`: it does
/// not).
fn replay_kernel<'k>(
    k: &'k Kernel,
    inputs: &Inputs,
    args: &RunArgs,
    tok: &str,
) -> Option<KernelRun<'k>> {
    let start = Instant::now();
    let launch = inputs.launch(k).ok()?;
    let delays = token::decode(k, &launch, tok).ok()?;
    let mut r = KernelRun::new(k, &launch, args.delays);
    r.replay = true;
    match Launched::new(k, &launch, run_config(args, start)).and_then(|l| l.run(&delays)) {
        Ok(run) => {
            r.add(&run, tok.trim().to_string());
            r.finish(
                warpsafe_sched::Search {
                    schedules: 1,
                    ..Default::default()
                },
                false,
                start,
            );
        }
        Err(e) => {
            r.failure = Some(e.to_string());
            r.finish(Default::default(), false, start);
        }
    }
    Some(r)
}

/// The schedules `corpus --engine run` runs per kernel at most.
pub const CORPUS_MAX_SCHEDULES: usize = 200;

/// The kinds of error the schedules of `k` show (as `//xfail:` reasons
/// spell them), or why none could run: what `warpsafe corpus --engine
/// run` compares with a kernel's header. A clean bounded search counts as
/// no error.
pub fn error_kinds(
    k: &Kernel,
    params: &[(String, i128)],
    timeout: Option<Duration>,
) -> Result<Vec<&'static str>, String> {
    let launch = Inputs::from_params(params)
        .launch(k)
        .map_err(|e| format!("{e:#}"))?;
    let mut r = KernelRun::new(k, &launch, SearchConfig::default().delays);
    let limits = Limits {
        max_runs: CORPUS_MAX_SCHEDULES,
        deadline: timeout.map(|t| Instant::now() + t),
        ..Limits::schedules()
    };
    let summary = DelayBounded
        .explore(k, &launch, &limits, &mut |run: ExplorerRun<'_>| {
            if let ExplorerRun::Schedule(run) = run {
                r.add(run, String::new());
            }
            Flow::Continue
        })
        .map_err(|e| format!("{}: {e}", k.name))?;
    let Summary::Schedules(s) = summary else {
        return Err(format!(
            "{}: the schedule explorer counted no schedules",
            k.name
        ));
    };
    r.finish(s, false, Instant::now());
    if let Verdict::Unknown(reason) = &r.verdict {
        return Err(format!("{}: {reason}", k.name));
    }
    let mut kinds: Vec<&'static str> = Vec::new();
    for e in &r.errors {
        let name = e.finding.kind().name();
        if !kinds.contains(&name) {
            kinds.push(name);
        }
    }
    Ok(kinds)
}
