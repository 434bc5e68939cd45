//! `warpsafe explore FILE`: runs every execution of a kernel on a concrete
//! grid under the scoped RC11 memory model (seed 000) and reports data
//! races, heterogeneous races, assertion failures, barrier divergence and
//! faults, with the threads and source locations involved.
//!
//! The engine is the DPOR explorer (each consistent execution once);
//! `--reference` runs the brute-force reference enumerator instead, to
//! cross-check. The output names the engine.

use crate::exit;
use crate::input::{load, InputArgs};
use anyhow::{bail, Result};
use clap::Args;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Instant;
use warpsafe_interp::{Launch, Value};
use warpsafe_ir::{Kernel, VarKind};
use warpsafe_mc::races::RaceKind;
use warpsafe_mc::reference::{Config, Exploration, McError};
use warpsafe_source::SourceMap;

#[derive(Args)]
pub struct ExploreArgs {
    /// The CUDA file (.cu or .cuh).
    pub file: PathBuf,
    #[command(flatten)]
    pub input: InputArgs,
    /// The value of a scalar kernel parameter (every one needs a value).
    #[arg(long = "param", value_name = "NAME=VALUE", value_parser = crate::check::param)]
    pub params: Vec<(String, i128)>,
    /// Stop after this many consistent executions.
    #[arg(long, default_value_t = 10_000)]
    pub max_executions: usize,
    /// Interpreter steps per thread (bounds loops, including spin loops).
    #[arg(long, default_value_t = 10_000)]
    pub max_steps: u64,
    /// The largest grid (threads in all) the explorer accepts.
    #[arg(long, default_value_t = 16)]
    pub max_threads: usize,
    /// Use the brute-force reference enumerator instead of DPOR (for
    /// cross-checking; exponentially slower).
    #[arg(long)]
    pub reference: bool,
}

/// Which explorer runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Explorer {
    /// DPOR (seed 000 §4): each consistent execution once.
    Dpor,
    /// Every rf and co choice, filtered by the axioms.
    Reference,
}

impl Explorer {
    pub fn run(self, k: &Kernel, launch: &Launch, config: &Config) -> Result<Exploration, McError> {
        match self {
            Explorer::Dpor => warpsafe_mc::dpor::explore(k, launch, config),
            Explorer::Reference => warpsafe_mc::reference::explore(k, launch, config),
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Explorer::Dpor => "DPOR under scoped RC11 (each consistent execution once)",
            Explorer::Reference => {
                "reference enumerator (every rf and co choice; exact, exponential in the threads)"
            }
        }
    }
}

pub fn run(args: ExploreArgs) -> Result<u8> {
    let loaded = load(&args.file, &args.input.to_flags())?;
    let out = &loaded.output;
    if !out.diagnostics.is_empty() {
        eprint!(
            "{}",
            warpsafe_report::render_diagnostics(&loaded.sources, &out.diagnostics)
        );
    }
    if out.has_errors() || out.module.kernels.is_empty() {
        return Ok(exit::UNUSABLE);
    }
    let config = Config {
        max_executions: args.max_executions,
        max_steps: args.max_steps,
        max_threads: args.max_threads,
        ..Config::default()
    };
    let explorer = if args.reference {
        Explorer::Reference
    } else {
        Explorer::Dpor
    };
    println!("engine: {}", explorer.describe());
    let mut found = false;
    for k in &out.module.kernels {
        let launch = launch_of(k, &args.params)?;
        let start = Instant::now();
        match explorer.run(k, &launch, &config) {
            Err(e) => {
                println!("kernel {}: UNKNOWN: {e}", k.name);
                return Ok(exit::UNUSABLE);
            }
            Ok(x) => {
                let secs = start.elapsed().as_secs_f64();
                println!(
                    "kernel {}: {} execution(s), {} outcome(s), {} partial states, {} inconsistent pruned, {:.3} s",
                    k.name,
                    x.executions.len(),
                    x.outcomes().len(),
                    x.states,
                    x.pruned_inconsistent,
                    secs
                );
                found |= report(&x, k, &loaded.sources);
            }
        }
    }
    Ok(if found { exit::FOUND } else { exit::OK })
}

/// The concrete launch: dims from flags or the file, parameters from `--param`.
pub fn launch_of(k: &Kernel, params: &[(String, i128)]) -> Result<Launch> {
    let (Some(grid), Some(block)) = (k.launch.grid, k.launch.block) else {
        bail!(
            "kernel `{}`: explore needs concrete dimensions; pass --grid-dim and --block-dim",
            k.name
        );
    };
    let dim = |d: [u64; 3]| -> Result<[u32; 3]> {
        Ok([
            u32::try_from(d[0])?,
            u32::try_from(d[1])?,
            u32::try_from(d[2])?,
        ])
    };
    let mut launch = Launch::new(dim(grid)?, dim(block)?);
    for v in k.vars.iter().filter(|v| v.kind == VarKind::Param) {
        let Some((_, value)) = params.iter().find(|(n, _)| *n == v.name) else {
            bail!(
                "kernel `{}`: explore needs a value for the parameter `{}` (--param {}=VALUE)",
                k.name,
                v.name,
                v.name
            );
        };
        launch = launch.with_param(v.id, Value::from_int(v.ty, *value));
    }
    Ok(launch)
}

/// The kinds of error an exploration found, as `//xfail:` reasons spell
/// them (`data-race`, `heterogeneous-race`, `assert`, `barrier-divergence`,
/// `fault`).
pub fn findings(x: &Exploration) -> Vec<&'static str> {
    let mut out = Vec::new();
    let races = x.races();
    if races.iter().any(|r| r.kind == RaceKind::Data) {
        out.push("data-race");
    }
    if races.iter().any(|r| r.kind == RaceKind::Heterogeneous) {
        out.push("heterogeneous-race");
    }
    if x.assertion_failures().next().is_some() {
        out.push("assert");
    }
    if x.executions.iter().any(|e| !e.blocked.is_empty()) {
        out.push("barrier-divergence");
    }
    if x.executions.iter().any(|e| !e.faults.is_empty()) {
        out.push("fault");
    }
    out
}

/// Prints the errors found; returns whether there were any.
fn report(x: &Exploration, k: &Kernel, src: &SourceMap) -> bool {
    let mut found = false;
    let mut seen = BTreeSet::new();
    for r in x.races() {
        // One line per pair of source locations and kind.
        let key = (r.kind == RaceKind::Data, r.first.span, r.second.span);
        if !seen.insert(key) {
            continue;
        }
        found = true;
        let kind = match r.kind {
            RaceKind::Data => "data race",
            RaceKind::Heterogeneous => {
                "heterogeneous race (atomics whose scopes do not include each other)"
            }
        };
        let array = &k.array(r.loc.array).name;
        println!("  {kind} on `{array}[{}]`", r.loc.index);
        for a in [&r.first, &r.second] {
            let what = match (a.is_write, a.is_atomic) {
                (true, true) => "atomic write",
                (true, false) => "write",
                (false, true) => "atomic read",
                (false, false) => "read",
            };
            println!("    {} {what} at {}", a.thread, src.describe(a.span));
        }
    }
    let mut asserts = BTreeSet::new();
    for a in x.assertion_failures() {
        if asserts.insert((a.span, a.message.clone())) {
            found = true;
            println!(
                "  assertion failed: {} at {} (in {})",
                a.message,
                src.describe(a.span),
                a.thread
            );
        }
    }
    let mut blocked = BTreeSet::new();
    for e in &x.executions {
        for (t, span) in &e.blocked {
            if blocked.insert(*span) {
                found = true;
                println!("  barrier divergence: {t} waits at {} while other threads of its block do not arrive", src.describe(*span));
            }
        }
        for f in &e.faults {
            found = true;
            println!(
                "  {} in {}: {}",
                src.describe(f.fault.span),
                f.thread,
                f.fault.kind
            );
        }
    }
    if !found {
        println!("  no error in any execution");
    }
    found
}
