//! `warpsafe check FILE`: the static data-race check of every kernel
//! (seeds 001, 002, 004; the engine is `warpsafe-static`).
//!
//! Modules: `text` (the report for people) and `json` (`--format json`,
//! its shape documented there). `--dump protocol|aligned|smt` adds
//! intermediate stages; `--solver z3|cvc5` picks the SMT solver, which
//! must be installed (checked before any kernel, with how to install it).
//!
//! Exit status: 1 when a race, a divergent barrier or a failing assertion
//! is found; otherwise 2 when a kernel or an assertion is UNKNOWN, the
//! input has errors, the solver is missing or no kernel was checked; 0
//! when every kernel is DRF (no data race or barrier divergence) and every
//! assertion holds.

mod json;
mod text;

use crate::exit;
use crate::input::{load, InputArgs};
use anyhow::{anyhow, Result};
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;
use warpsafe_ir::Kernel;
use warpsafe_smt::{SolverConfig, SolverKind};
use warpsafe_static::{
    bounds_threads_along_x, check_protocol, infer, print_aligned, print_protocol, AssertOutcome,
    Assumptions, Certainty, KernelReport, RaceConfig, Verdict,
};

/// The longest `--timeout`: z3 and cvc5 take their limit as an unsigned
/// 32-bit number of milliseconds.
const MAX_TIMEOUT_SECS: u64 = u32::MAX as u64 / 1000;

/// How the launch line states the bound on threads along x (see
/// `--huge-grids`).
const THREADS_ALONG_X_NOTE: &str =
    "at most 2^31 threads along x (gridDim.x*blockDim.x <= 2^31, so an int global index is not negative; --huge-grids drops this)";

/// `--fail-on`: the certainty a finding needs to make the exit status 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    Provable,
    Possible,
}

#[derive(Args)]
pub struct CheckArgs {
    /// The CUDA file (.cu or .cuh).
    pub file: PathBuf,
    #[command(flatten)]
    pub input: InputArgs,
    /// Seconds allowed to each solver query (0: no limit; at most
    /// 4294967, the solvers' own limit of 2^32-1 ms).
    #[arg(long, value_name = "SECS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(0..=MAX_TIMEOUT_SECS))]
    pub timeout: u64,
    /// Which findings make the exit status 1: `provable` ones only (races,
    /// divergence and assertion failures with an exact witness; a run with
    /// only *possible* findings exits 2), or `possible` ones too.
    #[arg(long, value_enum, default_value_t = FailOn::Provable)]
    pub fail_on: FailOn,
    /// Check every block and grid shape CUDA allows, instead of assuming
    /// that dimensions the kernel never reads are 1 (Faial's flag).
    #[arg(long)]
    pub all_dims: bool,
    /// Also check executions in which signed `int`/`long` arithmetic
    /// overflows (wrapping, as GPUs do). By default they are assumed away:
    /// signed overflow is undefined behaviour in C++.
    #[arg(long)]
    pub signed_wrap: bool,
    /// Also check launches of more than 2^31 threads along x. By default,
    /// when the launch leaves gridDim.x or blockDim.x open,
    /// gridDim.x*blockDim.x <= 2^31, so that an `int` global thread index
    /// is not negative and names each thread once.
    #[arg(long)]
    pub huge_grids: bool,
    /// Check races between threads of one block only (GPUVerify's flag):
    /// for kernels launched as one block, or whose blocks touch disjoint
    /// data. The report says what was left out.
    #[arg(long)]
    pub only_intra_group: bool,
    /// Check races within blocks and between blocks: the default (Faial's
    /// flag, accepted for scripts that pass it).
    #[arg(long)]
    pub all_levels: bool,
    /// Also print an intermediate stage (repeatable).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub dump: Vec<Dump>,
    /// The value of a scalar kernel parameter (repeatable); the others stay
    /// symbolic.
    #[arg(long = "param", value_name = "NAME=VALUE", value_parser = param)]
    pub params: Vec<(String, i128)>,
    /// The SMT solver (found through WARPSAFE_Z3 / WARPSAFE_CVC5, then PATH).
    #[arg(long, value_enum, default_value_t = SolverChoice::Z3)]
    pub solver: SolverChoice,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
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
    /// The phases after barrier aligning and splitting (seed 002 §4): the
    /// accesses each race query is about.
    Aligned,
    /// Every SMT query sent to the solver.
    Smt,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SolverChoice {
    Z3,
    Cvc5,
}

impl SolverChoice {
    fn kind(self) -> SolverKind {
        match self {
            SolverChoice::Z3 => SolverKind::Z3,
            SolverChoice::Cvc5 => SolverKind::Cvc5,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// One kernel's report with the dumps asked for.
pub struct KernelResult<'a> {
    pub kernel: &'a Kernel,
    pub report: KernelReport,
    /// `--dump protocol`.
    pub protocol: Option<String>,
    /// `--dump aligned`.
    pub aligned: Option<String>,
}

impl KernelResult<'_> {
    /// A race, a divergent barrier or a failing assertion.
    fn found(&self) -> bool {
        matches!(
            self.report.verdict,
            Verdict::Racy(_) | Verdict::Divergent(_)
        ) || self
            .report
            .asserts
            .iter()
            .any(|a| matches!(a.outcome, AssertOutcome::Fails { .. }))
    }

    /// A finding that is certain: a *provable* race, divergent barrier or
    /// failing assertion.
    fn found_provable(&self) -> bool {
        let provable = |c: &Certainty| matches!(c, Certainty::Provable);
        let verdict = match &self.report.verdict {
            Verdict::Racy(races) => races.iter().any(|r| provable(&r.certainty)),
            Verdict::Divergent(ds) => ds.iter().any(|d| provable(&d.certainty)),
            _ => false,
        };
        verdict
            || self.report.asserts.iter().any(
                |a| matches!(&a.outcome, AssertOutcome::Fails { certainty, .. } if provable(certainty)),
            )
    }

    /// The verdict or an assertion is UNKNOWN.
    fn unknown(&self) -> bool {
        matches!(self.report.verdict, Verdict::Unknown { .. })
            || self
                .report
                .asserts
                .iter()
                .any(|a| matches!(a.outcome, AssertOutcome::Unknown { .. }))
    }
}

pub fn run(args: CheckArgs) -> Result<u8> {
    let mut loaded =
        load(&args.file, &args.input.to_flags()).map_err(|e| input_error(&args, e, &[]))?;
    for k in &mut loaded.output.module.kernels {
        if args.all_dims {
            k.launch.forget_inferred();
        }
        if bounds_threads_along_x(&k.launch, args.huge_grids) {
            k.launch
                .notes
                .push((THREADS_ALONG_X_NOTE.to_string(), None));
        }
    }
    let out = &loaded.output;
    let src = &loaded.sources;
    if !out.diagnostics.is_empty() {
        eprint!(
            "{}",
            warpsafe_report::render_diagnostics(src, &out.diagnostics)
        );
    }
    let diagnostics: Vec<_> = out
        .diagnostics
        .iter()
        .map(|d| warpsafe_report::diagnostic_json(src, d))
        .collect();
    if out.module.kernels.is_empty() {
        let e = match out.diagnostics.iter().find(|d| d.is_error()) {
            Some(d) => anyhow!("no kernel could be checked: {}", d.message),
            None => anyhow!("no `__global__` kernel in `{}`", args.file.display()),
        };
        if args.format == Format::Text && out.has_errors() {
            // The diagnostics above say why.
            return Ok(exit::UNUSABLE);
        }
        return Err(input_error(&args, e, &diagnostics));
    }
    for (name, _) in &args.params {
        let known = out.module.kernels.iter().any(|k| {
            k.vars
                .iter()
                .any(|v| v.kind == warpsafe_ir::VarKind::Param && v.name == *name)
        });
        if !known {
            let e = anyhow!("--param {name}: no kernel has a scalar parameter named `{name}`");
            return Err(input_error(&args, e, &diagnostics));
        }
    }
    let kind = args.solver.kind();
    if let Err(e) = warpsafe_smt::locate(kind, None) {
        let e = anyhow!(
            "{e}. (`--solver {other}` uses {other} instead.)",
            other = match kind {
                SolverKind::Z3 => "cvc5",
                SolverKind::Cvc5 => "z3",
            }
        );
        return Err(input_error(&args, e, &diagnostics));
    }
    let timeout = (args.timeout > 0).then(|| Duration::from_secs(args.timeout));
    let config = RaceConfig {
        solver: SolverConfig::new(kind).with_logic("QF_BV"),
        ..RaceConfig::default()
    }
    .with_timeout(timeout)
    .with_transcript(args.dump.contains(&Dump::Smt))
    .with_params(args.params.clone())
    .with_assumptions(Assumptions {
        signed_wrap: args.signed_wrap,
        huge_grids: args.huge_grids,
        only_intra_group: args.only_intra_group,
    });
    let mut results = Vec::new();
    for k in &out.module.kernels {
        let r = check_one(k, &args, &config, src);
        // Text reports appear as each kernel finishes.
        if args.format == Format::Text {
            print!("{}", text::kernel(&r, src));
        }
        results.push(r);
    }
    if args.format == Format::Json {
        println!(
            "{}",
            json::run(&args.file, kind, &results, &diagnostics, src)
        );
    }
    // Only certain findings fail the run by default: *possible* ones are
    // "not proven, no certain bug" (2), unless `--fail-on possible`.
    let found = match args.fail_on {
        FailOn::Provable => results.iter().any(KernelResult::found_provable),
        FailOn::Possible => results.iter().any(KernelResult::found),
    };
    let possible = results.iter().any(KernelResult::found);
    let unknown = results.iter().any(KernelResult::unknown);
    Ok(if found {
        exit::FOUND
    } else if possible || unknown || out.has_errors() {
        exit::UNUSABLE
    } else {
        exit::OK
    })
}

/// Infers, dumps and checks one kernel.
fn check_one<'a>(
    k: &'a Kernel,
    args: &CheckArgs,
    config: &RaceConfig,
    src: &warpsafe_source::SourceMap,
) -> KernelResult<'a> {
    let kp = match infer(k) {
        Ok(kp) => kp,
        Err(e) => {
            return KernelResult {
                kernel: k,
                report: KernelReport {
                    kernel: k.name.clone(),
                    verdict: Verdict::Unknown {
                        reason: format!("no protocol: {e}"),
                        span: None,
                    },
                    asserts: Vec::new(),
                    notes: Vec::new(),
                    transcript: None,
                },
                protocol: None,
                aligned: None,
            }
        }
    };
    let protocol = args
        .dump
        .contains(&Dump::Protocol)
        .then(|| print_protocol(&kp, k));
    let aligned = args
        .dump
        .contains(&Dump::Aligned)
        .then(|| print_aligned(k, &kp, config, src));
    KernelResult {
        kernel: k,
        report: check_protocol(k, &kp, config),
        protocol,
        aligned,
    }
}

/// An unusable input (exit 2); with `--format json` also reported as a
/// JSON object on stdout.
fn input_error(
    args: &CheckArgs,
    e: anyhow::Error,
    diagnostics: &[warpsafe_report::JsonDiagnostic],
) -> anyhow::Error {
    if args.format == Format::Json {
        println!(
            "{}",
            json::error(&args.file, &format!("{e:#}"), diagnostics)
        );
    }
    e
}
