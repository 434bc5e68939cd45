//! `warpsafe check FILE...`: the static data-race check of every kernel
//! (seeds 001, 002, 004; the engine is `warpsafe-static`) of one file, of
//! several, or of every `.cu`/`.cuh` file under folders.
//!
//! Flow: `paths` lists the files; the front end reads them in parallel;
//! `config` (a project file) and the flags fix each kernel's launch and
//! parameters; `shard` picks this job's share; `crate::ordered` checks the
//! kernels on all cores and streams their `text` reports in a fixed
//! order, with a `progress` line on a terminal; then `json` or `sarif`
//! print the whole run, or `summary` a table of it (runs over several
//! files). `--dump protocol|aligned|smt` adds intermediate stages;
//! `--solver z3|cvc5` picks the SMT solver, which must be installed
//! (checked before any kernel, with how to install it).
//!
//! A run over one file prints what it always did (no file headers, no
//! table, the one-file JSON shape); a run over several files, a folder or
//! a shard prints a `==> FILE <==` header before each file's kernels, the
//! summary table, and the many-file JSON shape. There, files without any
//! kernel (headers, host code) are skipped, and so are files that another
//! file of the run includes (their kernels are checked with the includer).
//!
//! Exit status: 1 when a race, a divergent barrier or a failing assertion
//! is found; otherwise 2 when a kernel or an assertion is UNKNOWN, the
//! input has errors, the solver is missing or no kernel was checked; 0
//! when every kernel is DRF (no data race and no barrier divergence) and
//! every assertion holds.

mod config;
mod confirm;
mod json;
mod paths;
mod progress;
mod sarif;
mod shard;
mod summary;
mod text;

pub use json::merge as merge_json;
pub use sarif::merge as merge_sarif;

use crate::exit;
use crate::input::{load, set_dims, InputArgs, Loaded};
use anyhow::{anyhow, Result};
use clap::Args;
use config::Config;
use rayon::prelude::*;
use shard::Shard;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use warpsafe_ir::Kernel;
use warpsafe_smt::{SolverConfig, SolverKind};
use warpsafe_static::{
    bounds_threads_along_x, check_protocol, check_protocol_dumping_aligned, infer, print_protocol,
    AssertOutcome, Assumptions, Certainty, KernelReport, RaceConfig, Verdict,
};

/// The longest `--timeout`: z3 and cvc5 take their limit as an unsigned
/// 32-bit number of milliseconds.
const MAX_TIMEOUT_SECS: u64 = u32::MAX as u64 / 1000;

/// How the launch line states the bound on threads along x (see
/// `--huge-grids`).
const THREADS_ALONG_X_NOTE: &str =
    "fewer than 2^31 threads along x (gridDim.x*blockDim.x < 2^31, so an int global index and the grid stride are not negative; --huge-grids drops this)";

/// `--fail-on`: the certainty a finding needs to make the exit status 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    Provable,
    Possible,
}

#[derive(Args)]
pub struct CheckArgs {
    /// CUDA files (.cu, .cuh) and folders, searched for them.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
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
    /// Also check launches of 2^31 or more threads along x. By default,
    /// when the launch leaves gridDim.x or blockDim.x open,
    /// gridDim.x*blockDim.x < 2^31, so that an `int` global thread index
    /// and the grid stride are not negative and name each thread once.
    #[arg(long)]
    pub huge_grids: bool,
    /// Also check executions in which a 64-bit unsigned loop counter
    /// (`for (size_t i = tid; i < n; i += stride)`) wraps around 2^64. By
    /// default its bound is assumed never to lie within one step of 2^64:
    /// an element count that large exceeds any memory.
    #[arg(long)]
    pub counter_wrap: bool,
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
    /// Kernels checked at once (default: one per core).
    #[arg(long, short = 'j', value_name = "N",
          value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// Check only share I of N of the kernels (numbered from 1), for a CI
    /// matrix or a job array; `warpsafe merge` joins the shards' outputs.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// A project file with per-kernel launches and parameters (TOML, or
    /// JSON when it ends in .json). Default: ./warpsafe.toml, if present.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Stop a kernel's check after N races (0: report every race).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub max_races: usize,
    /// Colour in text output.
    #[arg(long, value_enum, default_value_t = crate::color::ColorChoice::Auto)]
    pub color: crate::color::ColorChoice,
    /// Run each race's witness launch through the schedule explorer
    /// (`warpsafe run`) and say whether a schedule shows it (confirmed,
    /// with a replay token) or not.
    #[arg(long)]
    pub confirm: bool,
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
    /// The phases after barrier aligning and splitting: the
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
    /// SARIF 2.1.0, for GitHub code scanning and IDEs.
    Sarif,
}

/// One kernel's report with the dumps asked for.
pub struct KernelResult<'a> {
    pub kernel: &'a Kernel,
    pub report: KernelReport,
    /// `--dump protocol`.
    pub protocol: Option<String>,
    /// `--dump aligned`.
    pub aligned: Option<String>,
    /// Wall-clock time of the check.
    pub seconds: f64,
    /// `--confirm`: what running each race's witness showed, in the order
    /// of the races (empty without the flag).
    pub confirmations: Vec<confirm::Confirmation>,
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

/// One file of the run after the front end.
pub struct Unit {
    pub path: PathBuf,
    /// The front end's output, or why the file could not be read.
    pub loaded: Result<Loaded, String>,
    /// Parameter values per kernel (the project file's, then `--param`).
    pub params: Vec<Vec<(String, i128)>>,
}

impl Unit {
    /// A file with no kernel at all and no other error: a header or host
    /// code, skipped in a run over many files.
    fn without_kernels(&self) -> bool {
        self.loaded.as_ref().is_ok_and(|l| {
            l.output.module.kernels.is_empty()
                && l.output
                    .diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .all(|d| d.code == "no-kernel")
        })
    }

    fn diagnostics_json(&self) -> Vec<warpsafe_report::JsonDiagnostic> {
        match &self.loaded {
            Ok(l) => l
                .output
                .diagnostics
                .iter()
                .map(|d| warpsafe_report::diagnostic_json(&l.sources, d))
                .collect(),
            Err(_) => Vec::new(),
        }
    }
}

/// The files (canonical paths) that `u` includes, directly or not.
fn included_files(u: &Unit) -> std::collections::HashSet<PathBuf> {
    let mut out = std::collections::HashSet::new();
    let Ok(l) = &u.loaded else { return out };
    let main = std::fs::canonicalize(&u.path).ok();
    for (id, f) in l.sources.files() {
        // The program's other files are read for their calls, not
        // included.
        if f.builtin || l.output.companion_files.contains(&id) {
            continue;
        }
        if let Ok(p) = std::fs::canonicalize(&f.name) {
            if Some(&p) != main.as_ref() {
                out.insert(p);
            }
        }
    }
    out
}

/// Whether `k` has a scalar parameter called `name`.
fn has_param(k: &Kernel, name: &str) -> bool {
    k.vars
        .iter()
        .any(|v| v.kind == warpsafe_ir::VarKind::Param && v.name == name)
}

/// The project file: `--config`, or `warpsafe.toml` in the current folder.
fn project_config(args: &CheckArgs) -> Result<Option<Config>> {
    match &args.config {
        Some(p) => Config::read(p).map(Some),
        None if Path::new(config::DEFAULT_NAME).is_file() => {
            Config::read(Path::new(config::DEFAULT_NAME)).map(Some)
        }
        None => Ok(None),
    }
}

/// Reads one file and fixes each kernel's launch and parameters.
fn load_unit(path: &Path, args: &CheckArgs, config: Option<&Config>) -> Unit {
    let mut flags = args.input.to_flags();
    if let Some(c) = config {
        flags
            .include_dirs
            .extend(c.include.iter().map(|p| p.display().to_string()));
        for d in &c.define {
            let (n, v) = crate::input::define(d);
            if !flags.defines.iter().any(|(m, _)| *m == n) {
                flags.defines.push((n, v));
            }
        }
    }
    let mut loaded = match load(path, &flags) {
        Ok(l) => l,
        Err(e) => {
            return Unit {
                path: path.to_path_buf(),
                loaded: Err(format!("{e:#}")),
                params: Vec::new(),
            }
        }
    };
    let mut params = Vec::new();
    for k in &mut loaded.output.module.kernels {
        let mut kernel_params = Vec::new();
        if let Some(c) = config {
            let s = c.for_kernel(path, &k.name);
            let from = format!("from {}", c.path.display());
            // A table overrides the source's launch; a top-level default
            // only fills in a block or grid the source leaves open.
            if args.input.block_dim.is_none() && (s.block_from_table || k.launch.block.is_none()) {
                if let Some(b) = s.block_dim {
                    set_dims(&mut k.launch, false, b, format!("blockDim {from}"));
                }
            }
            if args.input.grid_dim.is_none() && (s.grid_from_table || k.launch.grid.is_none()) {
                if let Some(g) = s.grid_dim {
                    set_dims(&mut k.launch, true, g, format!("gridDim {from}"));
                }
            }
            kernel_params.extend(s.params.into_iter().filter(|(n, _)| has_param(k, n)));
        }
        for (n, v) in &args.params {
            kernel_params.retain(|(m, _)| m != n);
            kernel_params.push((n.clone(), *v));
        }
        if args.all_dims {
            k.launch.forget_inferred();
        }
        if bounds_threads_along_x(&k.launch, args.huge_grids) {
            k.launch
                .notes
                .push((THREADS_ALONG_X_NOTE.to_string(), None));
        }
        params.push(kernel_params);
    }
    Unit {
        path: path.to_path_buf(),
        loaded: Ok(loaded),
        params,
    }
}

/// The solver settings every kernel shares.
fn race_config(args: &CheckArgs) -> RaceConfig {
    let timeout = (args.timeout > 0).then(|| Duration::from_secs(args.timeout));
    RaceConfig {
        solver: SolverConfig::new(args.solver.kind()).with_logic("QF_BV"),
        ..RaceConfig::default()
    }
    .with_timeout(timeout)
    .with_transcript(args.dump.contains(&Dump::Smt))
    .with_max_races((args.max_races > 0).then_some(args.max_races))
    .with_assumptions(Assumptions {
        signed_wrap: args.signed_wrap,
        huge_grids: args.huge_grids,
        only_intra_group: args.only_intra_group,
        counter_wrap: args.counter_wrap,
    })
}

pub fn run(args: CheckArgs) -> Result<u8> {
    let first = args.files[0].clone();
    let early = |e: anyhow::Error| input_error(&args, &first, e, &[]);
    let config = project_config(&args).map_err(early)?;
    let paths = paths::expand(&args.files).map_err(early)?;
    let many = paths.len() != 1 || args.files.iter().any(|f| f.is_dir()) || args.shard.is_some();
    if paths.is_empty() {
        return Err(early(anyhow!(
            "no `.cu` or `.cuh` file under {}",
            args.files
                .iter()
                .map(|f| format!("`{}`", f.display()))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let mut units: Vec<Unit> = paths
        .par_iter()
        .map(|p| load_unit(p, &args, config.as_ref()))
        .collect();
    if many {
        let read = units.len();
        units.retain(|u| !u.without_kernels());
        // A file that another file of the run includes is checked as part
        // of it (with its definitions and launches), not a second time;
        // files that include each other are both kept.
        let sets: Vec<_> = units.iter().map(included_files).collect();
        let canonical: Vec<_> = units
            .iter()
            .map(|u| std::fs::canonicalize(&u.path).ok())
            .collect();
        let mut keep = vec![true; units.len()];
        for (i, p) in canonical.iter().enumerate() {
            let Some(p) = p else { continue };
            keep[i] = !sets.iter().enumerate().any(|(j, set)| {
                j != i
                    && set.contains(p)
                    && canonical[j].as_ref().is_none_or(|q| !sets[i].contains(q))
            });
        }
        let mut k = keep.into_iter();
        units.retain(|_| k.next().unwrap_or(true));
        if units.is_empty() {
            let which = match args.input.kernel.as_slice() {
                [] => "no `__global__` kernel".to_string(),
                names => format!(
                    "no kernel named {}",
                    names
                        .iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
            };
            return Err(early(anyhow!("{which} in the {read} file(s) of the run")));
        }
    }
    let color = args.color.enabled_on_stdout();
    // Diagnostics first, file by file.
    for u in &units {
        match &u.loaded {
            Ok(l) if !l.output.diagnostics.is_empty() => eprint!(
                "{}",
                warpsafe_report::render_diagnostics(&l.sources, &l.output.diagnostics)
            ),
            Ok(_) => {}
            Err(e) if many => eprintln!("error: {e}"),
            Err(_) => {}
        }
    }
    if !many {
        let u = &units[0];
        let diagnostics = u.diagnostics_json();
        let l = match &u.loaded {
            Ok(l) => l,
            Err(e) => return Err(input_error(&args, &u.path, anyhow!("{e}"), &diagnostics)),
        };
        if l.output.module.kernels.is_empty() {
            let e = match l.output.diagnostics.iter().find(|d| d.is_error()) {
                Some(d) => anyhow!("no kernel could be checked: {}", d.message),
                None => anyhow!("no `__global__` kernel in `{}`", u.path.display()),
            };
            if args.format == Format::Text && l.output.has_errors() {
                // The diagnostics above say why.
                return Ok(exit::UNUSABLE);
            }
            return Err(input_error(&args, &u.path, e, &diagnostics));
        }
    }
    for (name, _) in &args.params {
        let known = units
            .iter()
            .filter_map(|u| u.loaded.as_ref().ok())
            .any(|l| l.output.module.kernels.iter().any(|k| has_param(k, name)));
        if !known {
            let e = anyhow!("--param {name}: no kernel has a scalar parameter named `{name}`");
            return Err(input_error(
                &args,
                &units[0].path,
                e,
                &units[0].diagnostics_json(),
            ));
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
        return Err(input_error(
            &args,
            &units[0].path,
            e,
            &units[0].diagnostics_json(),
        ));
    }
    // Every kernel of the run, in order (unit, its front-end output,
    // kernel); this shard's share.
    let jobs: Vec<(usize, &Loaded, usize)> = units
        .iter()
        .enumerate()
        .filter_map(|(u, unit)| unit.loaded.as_ref().ok().map(|l| (u, l)))
        .flat_map(|(u, l)| (0..l.output.module.kernels.len()).map(move |k| (u, l, k)))
        .enumerate()
        .filter(|(i, _)| args.shard.is_none_or(|s| s.takes(*i)))
        .map(|(_, job)| job)
        .collect();
    let base = race_config(&args);
    let workers = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let progress = progress::Progress::start(jobs.len());
    let mut shown_unit = None;
    let results = crate::ordered::run(
        jobs.len(),
        workers,
        |i| {
            let (u, l, k) = jobs[i];
            let unit = &units[u];
            let kernel = &l.output.module.kernels[k];
            let name = progress.started(&unit.path, &kernel.name);
            let config = base.clone().with_params(unit.params[k].clone());
            let r = check_one(kernel, &args, &config, &l.sources);
            progress.finished(&name);
            r
        },
        |i, r| {
            if args.format != Format::Text {
                return;
            }
            let (u, l, _) = jobs[i];
            let unit = &units[u];
            let mut out = String::new();
            if many && shown_unit != Some(u) {
                if shown_unit.is_some() {
                    out.push('\n');
                }
                out.push_str(&format!("==> {} <==\n", unit.path.display()));
                shown_unit = Some(u);
            }
            out.push_str(&text::kernel(r, &l.sources, args.max_races, color));
            progress.print(&out);
        },
    );
    progress.finish();
    let per_unit = group_by_unit(&units, &jobs, results);
    match args.format {
        Format::Json if many => println!("{}", json::many(kind, &units, &per_unit)),
        Format::Json => {
            let u = &units[0];
            let l = u.loaded.as_ref().expect("invariant: checked above");
            println!(
                "{}",
                json::run(
                    &u.path,
                    kind,
                    &per_unit[0],
                    &u.diagnostics_json(),
                    &l.sources
                )
            );
        }
        Format::Sarif => println!("{}", sarif::log(&units, &per_unit)),
        Format::Text if many => print!("{}", summary::table(&units, &per_unit)),
        Format::Text => {}
    }
    let all = || per_unit.iter().flatten();
    // Only certain findings fail the run by default: *possible* ones are
    // "not proven, no certain bug" (2), unless `--fail-on possible`.
    let found = match args.fail_on {
        FailOn::Provable => all().any(KernelResult::found_provable),
        FailOn::Possible => all().any(KernelResult::found),
    };
    let possible = all().any(KernelResult::found);
    let unknown = all().any(KernelResult::unknown);
    let errors = units
        .iter()
        .any(|u| u.loaded.as_ref().map_or(true, |l| l.output.has_errors()));
    Ok(if found {
        exit::FOUND
    } else if possible || unknown || errors || jobs.is_empty() {
        exit::UNUSABLE
    } else {
        exit::OK
    })
}

/// The results of each unit, in the units' order.
fn group_by_unit<'a>(
    units: &[Unit],
    jobs: &[(usize, &Loaded, usize)],
    results: Vec<KernelResult<'a>>,
) -> Vec<Vec<KernelResult<'a>>> {
    let mut per_unit: Vec<Vec<KernelResult<'a>>> = units.iter().map(|_| Vec::new()).collect();
    for ((u, _, _), r) in jobs.iter().zip(results) {
        per_unit[*u].push(r);
    }
    per_unit
}

/// Infers, dumps and checks one kernel.
fn check_one<'a>(
    k: &'a Kernel,
    args: &CheckArgs,
    config: &RaceConfig,
    src: &warpsafe_source::SourceMap,
) -> KernelResult<'a> {
    let start = Instant::now();
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
                seconds: start.elapsed().as_secs_f64(),
                confirmations: Vec::new(),
            }
        }
    };
    let protocol = args
        .dump
        .contains(&Dump::Protocol)
        .then(|| print_protocol(&kp, k));
    // `--dump aligned` prints the phases the check itself aligned.
    let (mut report, aligned) = if args.dump.contains(&Dump::Aligned) {
        let (report, text) = check_protocol_dumping_aligned(k, &kp, config, src);
        (report, Some(text))
    } else {
        (check_protocol(k, &kp, config), None)
    };
    if let Some(r) = k.volatile_read_as {
        report.notes.insert(0, r.note().to_string());
    }
    let confirmations = if args.confirm {
        confirm::races(k, report.verdict.races(), &config.params, &|span| {
            src.describe(span)
        })
    } else {
        Vec::new()
    };
    KernelResult {
        kernel: k,
        report,
        protocol,
        aligned,
        seconds: start.elapsed().as_secs_f64(),
        confirmations,
    }
}

/// An unusable input (exit 2); with `--format json` also reported as a
/// JSON object on stdout, with `--format sarif` as a run that failed.
fn input_error(
    args: &CheckArgs,
    file: &Path,
    e: anyhow::Error,
    diagnostics: &[warpsafe_report::JsonDiagnostic],
) -> anyhow::Error {
    match args.format {
        Format::Json => println!("{}", json::error(file, &format!("{e:#}"), diagnostics)),
        Format::Sarif => println!("{}", sarif::error(&format!("{e:#}"))),
        Format::Text => {}
    }
    e
}
