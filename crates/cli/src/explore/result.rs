//! What one kernel's exploration (or replay) gave: its verdict, the
//! distinct errors with their witness executions and replay tokens, the
//! outcomes and the summary counters. Both output formats (`text`,
//! `json`) and `--graph` read this and nothing else.
//!
//! Verdict rules (soundness first): SAFE only when the exploration ran to
//! completion, at least one execution ran to its end, and no execution has
//! an error; ERRORS FOUND as soon as one
//! execution has one (whether or not the exploration completed); UNKNOWN,
//! with the reason, in every other case (a limit reached, an unsupported
//! construct, a launch that is not concrete).

use super::peak_memory;
use std::time::Instant;
use warpsafe_explore::collect::{Collector, Mode, Reported, Stop, Witness};
use warpsafe_explore::{decide, Coverage, Evidence, ExploreError, Summary as ExploreSummary};
use warpsafe_interp::Launch;
use warpsafe_ir::Kernel;
use warpsafe_mc::dot::witness;
use warpsafe_mc::witness::Names;
use warpsafe_mc::{fingerprint, Finding, ReplayToken};
use warpsafe_source::SourceMap;

pub use warpsafe_explore::Verdict;

/// Why an exploration with no complete execution proves nothing.
fn no_complete_execution(cut_by_assumptions: usize) -> String {
    if cut_by_assumptions > 0 {
        "no execution ran to its end: every one was cut by a failed `__requires`/`__assume` \
         (the preconditions contradict each other or the inputs), so nothing was checked"
            .into()
    } else {
        "no execution ran to its end (every one was cut by spin-assume or the loop bound), \
         so nothing was checked"
            .into()
    }
}

/// The counters of the final summary.
#[derive(Clone, Copy, Debug, Default)]
pub struct Summary {
    /// Executions that ran to their end.
    pub executions: usize,
    /// Executions stopped in a wasted await-loop iteration (spin-assume).
    pub spin_blocked: usize,
    /// Executions cut at the loop bound.
    pub bounded: usize,
    /// Executions where a thread stays blocked at a barrier.
    pub blocked: usize,
    /// Executions cut because an `__assume` failed.
    pub cut: usize,
    pub states: usize,
    pub inconsistent: usize,
    pub seconds: f64,
    pub peak_kib: Option<u64>,
}

/// A witness execution with its replay token.
pub struct Shown {
    pub witness: Witness,
    pub token: String,
}

pub struct KernelResult<'k> {
    pub kernel: &'k Kernel,
    pub verdict: Verdict,
    /// Why the exploration did not complete, when it did not.
    pub incomplete: Option<String>,
    pub errors: Vec<Reported>,
    pub witnesses: Vec<Shown>,
    /// `--outcomes`: each final state and its executions.
    pub outcomes: Option<Vec<(String, usize)>>,
    /// `None` when the kernel was not explored at all.
    pub summary: Option<Summary>,
    /// Whether errors were collected past the first (`--all`).
    pub all: bool,
    /// A `--replay` result.
    pub replay: bool,
    /// Arrays the kernel accesses whose length is unknown: accesses to
    /// them were not bounds-checked.
    pub unchecked: Vec<String>,
    /// Notes on how the kernel was explored (printed under its verdict).
    pub notes: Vec<String>,
}

impl<'k> KernelResult<'k> {
    /// A kernel that could not be explored at all.
    pub fn unknown(kernel: &'k Kernel, reason: String) -> KernelResult<'k> {
        KernelResult {
            kernel,
            verdict: Verdict::Unknown(reason),
            incomplete: None,
            errors: Vec::new(),
            witnesses: Vec::new(),
            outcomes: None,
            summary: None,
            all: false,
            replay: false,
            unchecked: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Runs `explore` with `collector` and gathers what it found.
    pub fn explored(
        kernel: &'k Kernel,
        launch: &Launch,
        coverage: Coverage,
        mut collector: Collector<'_>,
        start: Instant,
        explore: impl FnOnce(&mut Collector<'_>) -> Result<ExploreSummary, ExploreError>,
    ) -> KernelResult<'k> {
        let res = explore(&mut collector);
        let seconds = start.elapsed().as_secs_f64();
        let (stats, error) = match res {
            Ok(ExploreSummary::Executions(s)) => (s, None),
            // The schedule explorer's results are `warpsafe run`'s.
            Ok(ExploreSummary::Schedules(_)) => (collector.last_stats, None),
            Err(e) => (collector.last_stats, Some(e)),
        };
        let incomplete = match (&error, &collector.stop) {
            (Some(e), _) => Some(e.to_string()),
            (None, Some(stop)) => Some(stop_reason(stop)),
            (None, None) => collector.bounded_reason(),
        };
        let verdict = decide(
            coverage,
            Evidence {
                errors: !collector.errors.is_empty(),
                incomplete: incomplete.clone(),
                complete_runs: collector.complete(),
                // Nothing ran to its end: no execution was checked at all.
                none_complete: no_complete_execution(stats.pruned_infeasible),
                replay: false,
            },
        );
        let fp = fingerprint(kernel, launch);
        let all = collector.mode == Mode::AllErrors;
        KernelResult {
            kernel,
            verdict,
            incomplete,
            outcomes: collector.outcomes.as_ref().map(|o| o.rendered()),
            summary: Some(Summary {
                executions: collector.complete(),
                spin_blocked: collector.spin_blocked,
                bounded: collector.bounded,
                blocked: collector.blocked,
                cut: stats.pruned_infeasible,
                states: stats.states,
                inconsistent: stats.pruned_inconsistent,
                seconds,
                peak_kib: peak_memory::peak_kib(),
            }),
            witnesses: collector
                .witnesses
                .into_iter()
                .map(|w| Shown {
                    token: ReplayToken::of(&w.execution.graph, fp).encode(),
                    witness: w,
                })
                .collect(),
            errors: collector.errors,
            all,
            replay: false,
            unchecked: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// The errors whose witness is `witnesses[i]`.
    pub fn errors_of(&self, i: usize) -> impl Iterator<Item = &Reported> {
        self.errors.iter().filter(move |e| e.witness == i)
    }

    /// Every witness as a DOT cluster (see [`warpsafe_mc::dot`]); `kernel`
    /// numbers the kernel in the run, to keep node names distinct.
    pub fn dot_clusters(&self, kernel: usize, sources: &SourceMap) -> Vec<String> {
        let names = Names::new(self.kernel, sources);
        self.witnesses
            .iter()
            .enumerate()
            .map(|(i, w)| {
                let errors: Vec<&Finding> = self.errors_of(i).map(|e| &e.finding).collect();
                let title = format!(
                    "kernel {}, execution {} ({})",
                    self.kernel.name, w.witness.number, w.token
                );
                witness(
                    &names,
                    &w.witness.execution,
                    &errors,
                    &title,
                    &format!("k{kernel}w{i}_"),
                )
            })
            .collect()
    }
}

/// Why a stopped exploration is incomplete, in words.
pub fn stop_reason(stop: &Stop) -> String {
    match stop {
        Stop::FirstError => "stopped at the first error (--all explores every execution)".into(),
        Stop::MaxExecutions(n) => {
            format!(
                "stopped after {} (--max-executions); more exist",
                count(*n, "execution")
            )
        }
        Stop::Timeout(t) => format!(
            "stopped after the time limit of {} s (--timeout)",
            t.as_secs_f64()
        ),
        Stop::Memory(mib) => format!(
            "stopped at the memory limit of {mib} MiB (--max-memory): the executions are too long for the explorer (lower --loop-bound or --max-steps, or a smaller grid)"
        ),
    }
}

pub use warpsafe_explore::collect::count;
