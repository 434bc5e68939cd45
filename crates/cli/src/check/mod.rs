//! `warpsafe check FILE`: the v0 data-race check of every kernel.
//!
//! Exit status: 1 when a race, a divergent barrier or a failing assertion
//! is found; otherwise 2 when a kernel or an assertion is UNKNOWN, the
//! input has errors or no kernel was checked; 0 when every kernel is DRF
//! (no data race or barrier divergence) and every assertion holds.

use crate::exit;
use crate::input::{load, InputArgs};
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;
use warpsafe_ir::Kernel;
use warpsafe_source::SourceMap;
use warpsafe_static::{
    check_protocol, infer, print_protocol, AssertCheck, AssertOutcome, Certainty, Divergence, Race,
    RaceConfig, RaceScope, ThreadId, Verdict, Witness,
};

#[derive(Args)]
pub struct CheckArgs {
    /// The CUDA file (.cu or .cuh).
    pub file: PathBuf,
    #[command(flatten)]
    pub input: InputArgs,
    /// Seconds allowed to each solver query (0: no limit).
    #[arg(long, value_name = "SECS", default_value_t = 10)]
    pub timeout: u64,
    /// Also print an intermediate stage.
    #[arg(long, value_enum)]
    pub dump: Option<Dump>,
    /// The value of a scalar kernel parameter (repeatable); the others stay
    /// symbolic.
    #[arg(long = "param", value_name = "NAME=VALUE", value_parser = param)]
    pub params: Vec<(String, i128)>,
}

pub fn param(s: &str) -> Result<(String, i128), String> {
    let (name, value) = s.split_once('=').ok_or("expected NAME=VALUE")?;
    let v = value.trim();
    let (neg, digits) = match v.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, v),
    };
    let parsed = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(h) => i128::from_str_radix(h, 16),
        None => digits.parse::<i128>(),
    }
    .map_err(|_| format!("`{value}` is not an integer"))?;
    Ok((name.trim().to_string(), if neg { -parsed } else { parsed }))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Dump {
    /// Each kernel's memory access protocol.
    Protocol,
    /// Every SMT query sent to the solver.
    Smt,
}

pub fn run(args: CheckArgs) -> Result<u8> {
    let loaded = load(&args.file, &args.input.to_flags())?;
    let out = &loaded.output;
    for (name, _) in &args.params {
        let known = out.module.kernels.iter().any(|k| {
            k.vars
                .iter()
                .any(|v| v.kind == warpsafe_ir::VarKind::Param && v.name == *name)
        });
        if !known {
            anyhow::bail!("--param {name}: no kernel has a scalar parameter named `{name}`");
        }
    }
    let timeout = (args.timeout > 0).then(|| Duration::from_secs(args.timeout));
    let config = RaceConfig::default()
        .with_timeout(timeout)
        .with_transcript(args.dump == Some(Dump::Smt))
        .with_params(args.params.clone());
    let (mut racy, mut unknown) = (false, false);
    for k in &out.module.kernels {
        let report = match infer(k) {
            Ok(kp) => {
                if args.dump == Some(Dump::Protocol) {
                    print!("{}", print_protocol(&kp, k));
                }
                check_protocol(k, &kp, &config)
            }
            Err(e) => {
                println!("kernel {}: UNKNOWN: no protocol: {e}", k.name);
                unknown = true;
                continue;
            }
        };
        let src = &loaded.sources;
        match &report.verdict {
            Verdict::Drf => println!(
                "kernel {}: DRF (no data race and no barrier divergence)",
                k.name
            ),
            Verdict::Racy(races) => {
                racy = true;
                println!("kernel {}: RACY ({} race(s))", k.name, races.len());
                for r in races {
                    print_race(r, k, src);
                }
            }
            Verdict::Divergent(ds) => {
                racy = true;
                println!(
                    "kernel {}: DIVERGENT ({} divergent barrier(s))",
                    k.name,
                    ds.len()
                );
                for d in ds {
                    print_divergence(d, src);
                }
                println!("  note: data races are not checked in a kernel with barrier divergence");
            }
            Verdict::Unknown { reason, span } => {
                unknown = true;
                match span {
                    Some(s) => println!(
                        "kernel {}: UNKNOWN: {reason} ({})",
                        k.name,
                        src.describe(*s)
                    ),
                    None => println!("kernel {}: UNKNOWN: {reason}", k.name),
                }
            }
        }
        let (failed, unproved) = print_asserts(&report.asserts, src);
        racy |= failed;
        unknown |= unproved;
        for n in &report.notes {
            println!("  note: {n}");
        }
        if let Some(t) = &report.transcript {
            println!("; SMT queries of {}\n{t}", k.name);
        }
    }
    if !out.diagnostics.is_empty() {
        eprint!(
            "{}",
            warpsafe_report::render_diagnostics(&loaded.sources, &out.diagnostics)
        );
    }
    Ok(if racy {
        exit::FOUND
    } else if unknown || out.has_errors() || out.module.kernels.is_empty() {
        exit::UNUSABLE
    } else {
        exit::OK
    })
}

/// Prints the assertions' outcomes: a count of those that hold, and each
/// one that fails (with its witness) or is unknown. Returns whether one
/// fails and whether one is unknown.
fn print_asserts(asserts: &[AssertCheck], src: &SourceMap) -> (bool, bool) {
    if asserts.is_empty() {
        return (false, false);
    }
    let holds = asserts
        .iter()
        .filter(|a| a.outcome == AssertOutcome::Holds)
        .count();
    println!(
        "  assertions: {holds} of {} proved to hold for every thread",
        asserts.len()
    );
    let (mut failed, mut unknown) = (false, false);
    for a in asserts {
        let at = src.describe(a.span);
        match &a.outcome {
            AssertOutcome::Holds => {}
            AssertOutcome::Fails { certainty, witness } => {
                failed = true;
                let certainty = match certainty {
                    Certainty::Provable => "provable".to_string(),
                    Certainty::Possible { reasons } => format!("possible: {}", reasons.join("; ")),
                };
                println!("  assertion `{}` at {at} fails [{certainty}]", a.message);
                if let Some(w) = witness {
                    let triple = |t: [u64; 3]| format!("({},{},{})", t[0], t[1], t[2]);
                    let mut parts = vec![format!(
                        "blockIdx={} threadIdx={}",
                        triple(w.thread.block_idx),
                        triple(w.thread.thread_idx)
                    )];
                    if let Some(b) = w.block_dim {
                        parts.push(format!("blockDim={}", triple(b)));
                    }
                    if let Some(g) = w.grid_dim {
                        parts.push(format!("gridDim={}", triple(g)));
                    }
                    for (name, v) in &w.params {
                        parts.push(format!("{name}={v}"));
                    }
                    for l in &w.loop_vars {
                        parts.push(format!("{}={}", l.name, l.value));
                    }
                    println!("    witness: {}", parts.join(", "));
                }
            }
            AssertOutcome::Unknown { reason } => {
                unknown = true;
                println!("  assertion `{}` at {at}: UNKNOWN: {reason}", a.message);
            }
        }
    }
    (failed, unknown)
}

fn print_divergence(d: &Divergence, src: &SourceMap) {
    let certainty = match &d.certainty {
        Certainty::Provable => "provable".to_string(),
        Certainty::Possible { reasons } => format!("possible: {}", reasons.join("; ")),
    };
    println!(
        "  barrier at {}: {} [{certainty}]",
        src.describe(d.span),
        d.reason
    );
    if let Some([a, b]) = &d.threads {
        let t = |t: &ThreadId| {
            format!(
                "blockIdx=({},{},{}) threadIdx=({},{},{})",
                t.block_idx[0],
                t.block_idx[1],
                t.block_idx[2],
                t.thread_idx[0],
                t.thread_idx[1],
                t.thread_idx[2]
            )
        };
        println!("    witness: thread 1: {}, thread 2: {}", t(a), t(b));
    }
}

fn print_race(r: &Race, k: &Kernel, src: &SourceMap) {
    let scope = match r.scope {
        RaceScope::SameBlock => "threads of one block",
        RaceScope::CrossBlock => "threads of different blocks",
    };
    let certainty = match &r.certainty {
        Certainty::Provable => "provable".to_string(),
        Certainty::Possible { reasons } => format!("possible: {}", reasons.join("; ")),
    };
    println!(
        "  race on `{}` ({}) between {scope} [{certainty}]",
        r.array_name,
        r.space.name()
    );
    for (n, a) in [(1, &r.first), (2, &r.second)] {
        let mode = match a.mode {
            warpsafe_static::AccessMode::Read => "read",
            warpsafe_static::AccessMode::Write => "write",
        };
        let atomic = if a.atomic { "atomic " } else { "" };
        println!("    thread {n}: {atomic}{mode} at {}", src.describe(a.span));
    }
    match &r.witness {
        Some(w) => println!("    witness: {}", witness(w, k)),
        None => println!("    (no witness: the model could not be read)"),
    }
}

fn witness(w: &Witness, _k: &Kernel) -> String {
    let triple = |t: [u64; 3]| format!("({},{},{})", t[0], t[1], t[2]);
    let mut parts = Vec::new();
    for (n, t) in w.threads.iter().enumerate() {
        parts.push(format!(
            "thread {}: blockIdx={} threadIdx={}",
            n + 1,
            triple(t.block_idx),
            triple(t.thread_idx)
        ));
    }
    if let Some(b) = w.block_dim {
        parts.push(format!("blockDim={}", triple(b)));
    }
    if let Some(g) = w.grid_dim {
        parts.push(format!("gridDim={}", triple(g)));
    }
    for (name, v) in &w.params {
        parts.push(format!("{name}={v}"));
    }
    for l in &w.loop_vars {
        if l.thread == 0 {
            // A synchronized loop's variable: the same for both threads.
            parts.push(format!("both threads: {}={}", l.name, l.value));
        } else {
            parts.push(format!("thread {}: {}={}", l.thread, l.name, l.value));
        }
    }
    parts.push(format!("index={}", w.index));
    parts.join(", ")
}
