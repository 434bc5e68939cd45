//! What one kernel's schedules gave: the distinct errors, each with the
//! first schedule that shows it (and its replay token), the warnings, the
//! runs cut short, the final states, and the verdict. Both outputs read
//! this and nothing else.
//!
//! Verdict rules: ERRORS FOUND when a schedule has an error or, with
//! `--compare-final`, ends with other global memory than the canonical
//! schedule; otherwise UNKNOWN when the kernel could not run or no
//! schedule ran to its end; otherwise NO ERROR FOUND (a bounded search is
//! never SAFE).

use crate::explore::peak_memory;
use std::collections::{HashMap, HashSet};
use std::time::Instant;
use warpsafe_explore::{decide, Coverage, Evidence};
use warpsafe_interp::Launch;
use warpsafe_ir::{Kernel, Span};
use warpsafe_sched::outcomes::Difference;
use warpsafe_sched::{Cut, DelayPoint, Finding, FindingKey, Outcomes, Run, Search, Warning};

pub use warpsafe_explore::Verdict;

/// A distinct error and the first schedule that shows it.
pub struct Shown {
    pub finding: Finding,
    pub delays: Vec<DelayPoint>,
    pub token: String,
    /// Schedules that show it.
    pub schedules: usize,
}

pub struct KernelRun<'k> {
    pub kernel: &'k Kernel,
    pub launch: Launch,
    pub delay_bound: usize,
    pub verdict: Verdict,
    pub errors: Vec<Shown>,
    keys: HashMap<FindingKey, usize>,
    pub warnings: Vec<Warning>,
    warned: HashSet<Span>,
    /// The first run cut short of each kind, with its token, and how many
    /// runs were cut.
    pub cuts: Vec<(Cut, String)>,
    pub cut_runs: usize,
    pub complete_runs: usize,
    pub search: Search,
    pub outcomes: Option<Outcomes>,
    /// `--compare-final`: two outcomes (indices) that differ, and where.
    pub final_difference: Option<(usize, usize, Vec<Difference>)>,
    pub events: u64,
    pub steps: u64,
    pub seconds: f64,
    pub peak_kib: Option<u64>,
    pub replay: bool,
    /// How the kernel was run (arrays not bounds-checked, the volatile
    /// reading).
    pub notes: Vec<String>,
    /// Why the search failed (the kernel could not run).
    pub failure: Option<String>,
}

impl<'k> KernelRun<'k> {
    pub fn new(kernel: &'k Kernel, launch: &Launch, delay_bound: usize) -> KernelRun<'k> {
        let mut notes = Vec::new();
        if let Some(reading) = kernel.volatile_read_as {
            notes.push(reading.note().to_string());
        }
        if launch.grid_dim != [0; 3] {
            notes.extend(warpsafe_explore::inputs::unchecked_arrays(kernel, launch).1);
        }
        KernelRun {
            kernel,
            launch: launch.clone(),
            delay_bound,
            verdict: Verdict::NoErrorFound,
            errors: Vec::new(),
            keys: HashMap::new(),
            warnings: Vec::new(),
            warned: HashSet::new(),
            cuts: Vec::new(),
            cut_runs: 0,
            complete_runs: 0,
            search: Search::default(),
            outcomes: None,
            final_difference: None,
            events: 0,
            steps: 0,
            seconds: 0.0,
            peak_kib: None,
            replay: false,
            notes,
            failure: None,
        }
    }

    /// A kernel that could not run at all.
    pub fn unknown(kernel: &'k Kernel, reason: String) -> KernelRun<'k> {
        let mut r = KernelRun::new(kernel, &Launch::new([0; 3], [0; 3]), 0);
        r.verdict = Verdict::Unknown(reason);
        r
    }

    /// Whether the kernel ran (an unknown result from the start has no
    /// launch to show).
    pub fn ran(&self) -> bool {
        self.launch.grid_dim != [0; 3]
    }

    /// Threads per block (at least 1), to name a delay point's thread.
    pub fn threads_per_block(&self) -> u64 {
        self.launch.threads_per_block().max(1)
    }

    /// Adds one schedule's run, whose replay token is `token`.
    pub fn add(&mut self, run: &Run, token: String) {
        self.events += run.events;
        self.steps += run.steps;
        for f in &run.findings {
            match self.keys.get(&f.key()) {
                Some(&i) => self.errors[i].schedules += 1,
                None => {
                    self.keys.insert(f.key(), self.errors.len());
                    self.errors.push(Shown {
                        finding: f.clone(),
                        delays: run.delays.clone(),
                        token: token.clone(),
                        schedules: 1,
                    });
                }
            }
        }
        for w in &run.warnings {
            let span = match w {
                Warning::UninitialisedRead { span, .. } | Warning::UnknownValue { span, .. } => {
                    *span
                }
            };
            if self.warned.insert(span) {
                self.warnings.push(w.clone());
            }
        }
        match &run.cut {
            Some(cut) => {
                self.cut_runs += 1;
                let same_kind =
                    |c: &(Cut, String)| std::mem::discriminant(&c.0) == std::mem::discriminant(cut);
                if !self.cuts.iter().any(same_kind) {
                    self.cuts.push((cut.clone(), token));
                }
            }
            None => self.complete_runs += 1,
        }
    }

    /// Sets the verdict once the search `s` ended.
    pub fn finish(&mut self, s: Search, compare_final: bool, start: Instant) {
        self.search = s;
        self.seconds = start.elapsed().as_secs_f64();
        self.peak_kib = peak_memory::peak_kib();
        let differs = compare_final && self.final_difference.is_some();
        let none_complete = match self.cuts.first().map(|c| &c.0) {
                Some(Cut::StepLimit { limit, .. }) => format!(
                    "a thread ran {limit} steps without ending (a loop that never ends? --max-steps raises the limit)"
                ),
                Some(Cut::Infeasible { .. }) => {
                    "the launch violates a `__requires`/`__assume` of the kernel, so nothing was checked".into()
                }
                Some(Cut::TimedOut) | None => "the time limit passed before a schedule ended".into(),
        };
        self.verdict = decide(
            Coverage::Bounded,
            Evidence {
                errors: !self.errors.is_empty() || differs,
                incomplete: self.failure.clone(),
                complete_runs: self.complete_runs,
                none_complete,
                replay: self.replay,
            },
        );
    }
}
