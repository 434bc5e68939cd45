//! `check --confirm`: each race the static check reports is run at the
//! launch of its witness (dimensions and parameter values, arrays without
//! lengths and zero-filled) through the schedule explorer (seed 003,
//! `warpsafe_sched`), and labelled *confirmed* when a schedule shows a race
//! between the same two statements on the same array, with a replay token
//! for `warpsafe run`. None of the seed tools closes this loop.
//!
//! A race that is not shown is not refuted: the run uses one input (zeros
//! where the witness says nothing about memory) and a bounded number of
//! schedules. Launches too large to run, or missing a dimension or a
//! parameter value, are reported as not run, with the reason.
//!
//! Invariant: a launch is run once however many races share it.

use crate::explore::inputs::Inputs;
use std::collections::HashMap;
use std::time::{Duration, Instant};
use warpsafe_ir::{Kernel, VarKind};
use warpsafe_sched::{search, token, Cut, Finding, Flow, Launched, RunConfig, SearchConfig};
use warpsafe_static::Race;

/// The most threads a witness launch may have to be run.
pub const MAX_THREADS: u64 = 1 << 20;
/// Schedules run per witness launch.
pub const MAX_SCHEDULES: usize = 20;
/// Seconds per witness launch.
pub const SECONDS: u64 = 10;

/// What running one race's witness showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Confirmation {
    /// A schedule shows a race between the same statements on the array.
    Confirmed {
        /// `block B thread T and block B' thread T'`.
        threads: String,
        /// The `warpsafe run` flags of the launch and the replay token.
        flags: String,
        token: String,
    },
    /// The run shows a race on the same array at one of the race's two
    /// statements, with another statement (the explorer reports at least
    /// one race per location, not every pair).
    Related {
        /// `line L` of the other statement, and the threads.
        with: String,
        flags: String,
        token: String,
    },
    /// The launch ran without this race (`cut`: why some schedule
    /// stopped before the kernel's end, if one did).
    NotShown {
        schedules: usize,
        flags: String,
        cut: Option<String>,
    },
    /// The launch could not run.
    NotRun(String),
}

/// The races of the schedules of one launch: (array, the two statements'
/// spans in order) and what shows each.
type Shown = HashMap<(u32, warpsafe_ir::Span, warpsafe_ir::Span), (String, String)>;

/// What a launch's schedules showed: how many ran, the races, and why the
/// first cut schedule stopped early.
struct Ran {
    schedules: usize,
    shown: Shown,
    /// Per (array, statement): a race there with another statement
    /// (described) and its token.
    partial: HashMap<(u32, warpsafe_ir::Span), (warpsafe_ir::Span, String, String)>,
    cut: Option<String>,
}

/// Runs the witness launch of each of `races` of `k` (`params`: the
/// run's own `--param` values, used where a witness gives none).
pub fn races(
    k: &Kernel,
    races: &[Race],
    params: &[(String, i128)],
    describe: &dyn Fn(warpsafe_ir::Span) -> String,
) -> Vec<Confirmation> {
    let mut runs: HashMap<String, Result<Ran, String>> = HashMap::new();
    races
        .iter()
        .map(|race| {
            let (flags, launch) = match witness_launch(k, race, params) {
                Ok(x) => x,
                Err(why) => return Confirmation::NotRun(why),
            };
            let result = runs.entry(flags.clone()).or_insert_with(|| run(k, &launch));
            match result {
                Err(why) => Confirmation::NotRun(why.clone()),
                Ok(ran) => {
                    let (a, b) = ordered(race.first.span, race.second.span);
                    match ran.shown.get(&(race.array.0, a, b)) {
                        Some((threads, token)) => Confirmation::Confirmed {
                            threads: threads.clone(),
                            flags,
                            token: token.clone(),
                        },
                        None => match [race.first.span, race.second.span]
                            .iter()
                            .find_map(|s| ran.partial.get(&(race.array.0, *s)))
                        {
                            Some((other, threads, token)) => Confirmation::Related {
                                with: format!("{} ({threads})", describe(*other)),
                                flags,
                                token: token.clone(),
                            },
                            None => Confirmation::NotShown {
                                schedules: ran.schedules,
                                flags,
                                cut: ran.cut.clone(),
                            },
                        },
                    }
                }
            }
        })
        .collect()
}

fn ordered(a: warpsafe_ir::Span, b: warpsafe_ir::Span) -> (warpsafe_ir::Span, warpsafe_ir::Span) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

/// The `warpsafe run` flags and the launch of a race's witness.
fn witness_launch(
    k: &Kernel,
    race: &Race,
    params: &[(String, i128)],
) -> Result<(String, warpsafe_interp::Launch), String> {
    let w = race
        .witness
        .as_ref()
        .ok_or("the race has no witness (the solver's model could not be read)")?;
    let grid = w
        .grid_dim
        .or(k.launch.grid)
        .ok_or("the witness gives no grid dimensions")?;
    let block = w
        .block_dim
        .or(k.launch.block)
        .ok_or("the witness gives no block dimensions")?;
    let threads = grid
        .iter()
        .chain(&block)
        .try_fold(1u64, |n, d| n.checked_mul(*d))
        .unwrap_or(u64::MAX);
    if threads > MAX_THREADS {
        return Err(format!(
            "the witness launch has {threads} threads, more than {MAX_THREADS} to run"
        ));
    }
    let mut values: Vec<(String, i128)> = Vec::new();
    for v in k.vars.iter().filter(|v| v.kind == VarKind::Param) {
        let value = w
            .params
            .iter()
            .chain(params)
            .find(|(n, _)| *n == v.name)
            .map(|(_, x)| *x)
            .ok_or_else(|| format!("the witness gives no value for the parameter `{}`", v.name))?;
        values.push((v.name.clone(), value));
    }
    let launch = Inputs::from_params(&values)
        .launch_with(k, grid, block)
        .map_err(|e| format!("{e:#}"))?;
    let dims = |d: [u64; 3]| {
        let n = if d[2] > 1 {
            3
        } else if d[1] > 1 {
            2
        } else {
            1
        };
        d[..n]
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut flags = format!("--grid-dim {} --block-dim {}", dims(grid), dims(block));
    for (n, v) in &values {
        flags.push_str(&format!(" --param {n}={v}"));
    }
    Ok((flags, launch))
}

/// Runs a launch's schedules and collects the races they show.
fn run(k: &Kernel, launch: &warpsafe_interp::Launch) -> Result<Ran, String> {
    let deadline = Instant::now() + Duration::from_secs(SECONDS);
    let config = RunConfig {
        deadline: Some(deadline),
        ..RunConfig::default()
    };
    let launched = Launched::new(k, launch, config).map_err(|e| e.to_string())?;
    let mut shown = Shown::new();
    let mut partial = HashMap::new();
    let mut cut = None;
    let search_config = SearchConfig {
        max_schedules: MAX_SCHEDULES,
        deadline: Some(deadline),
        ..SearchConfig::default()
    };
    let s = search(&launched, &search_config, &mut |r| {
        if cut.is_none() {
            cut = r.cut.as_ref().map(|c| match c {
                Cut::StepLimit { limit, .. } => {
                    format!("a thread ran {limit} steps without ending")
                }
                Cut::Infeasible { .. } => "the launch violates an `__assume`".to_string(),
                Cut::TimedOut => format!("the {SECONDS} s limit passed"),
            });
        }
        for f in &r.findings {
            if let Finding::Race {
                loc, first, second, ..
            } = f
            {
                let (a, b) = ordered(first.span, second.span);
                let threads = format!("{} and {}", first.thread, second.thread);
                let tok = token::encode(k, launch, &r.delays);
                for (here, there) in [(a, b), (b, a)] {
                    partial
                        .entry((loc.array.0, here))
                        .or_insert_with(|| (there, threads.clone(), tok.clone()));
                }
                shown
                    .entry((loc.array.0, a, b))
                    .or_insert_with(|| (threads, tok));
            }
        }
        Flow::Continue
    })
    .map_err(|e| e.to_string())?;
    Ok(Ran {
        schedules: s.schedules,
        shown,
        partial,
        cut,
    })
}
