//! The observer an exhaustive exploration of executions hands to its
//! explorer (`warpsafe explore`, and `corpus`): it counts the executions,
//! keeps each distinct error (seed 000 §2.1) once with the first execution
//! that shows it as its witness, counts final states for `--outcomes`,
//! enforces `--max-executions`, `--timeout` and `--max-memory`, and feeds
//! a progress callback. Reading the process's memory is the caller's (a
//! probe function), so the crate does no I/O.
//!
//! Invariants: an error is kept once per [`FindingKey`]; in
//! [`Mode::FirstError`] the exploration stops right after the first
//! execution with an error; a limit stops it *before* handling an
//! execution past `--max-executions` (so "stopped" always means more
//! executions exist) and records why in [`Collector::stop`].

use crate::explorer::{Observer, Run};
use crate::outcomes::Outcomes;
use std::collections::HashMap;
use std::time::{Duration, Instant};
use warpsafe_ir::Kernel;
use warpsafe_mc::{findings, Ending, Execution, Finding, FindingKey, Flow, Forkable, Join, Stats};

/// When the exploration stops on errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// At the first execution with an error.
    FirstError,
    /// Never: every execution, each distinct error once.
    AllErrors,
}

/// Why an exploration stopped before it was complete.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// An error was found (in [`Mode::FirstError`]).
    FirstError,
    /// `--max-executions` was reached and more executions exist.
    MaxExecutions(usize),
    /// `--timeout` ran out.
    Timeout(Duration),
    /// The process's resident memory passed `--max-memory` (MiB).
    Memory(u64),
}

/// The memory limit is checked at a state when this long has passed since
/// the last check (one state can push hundreds of successors, so a count
/// of states says little about memory; reading it costs ~10 µs).
const MEMORY_CHECK_EVERY: Duration = Duration::from_millis(20);

/// The resident memory of the process in KiB, where the platform says.
pub type MemoryProbe = fn() -> Option<u64>;

/// How far an exploration got, for a progress line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    pub executions: usize,
    pub errors: usize,
    pub states: usize,
}

/// `1 execution`, `2 executions`.
pub fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// One distinct error and where it was seen first.
pub struct Reported {
    pub finding: Finding,
    /// Index of its witness in [`Collector::witnesses`].
    pub witness: usize,
    /// How many executions showed it (each once, however many pairs of
    /// threads showed it there).
    pub occurrences: usize,
}

/// A witness execution and its number in the exploration (1-based).
pub struct Witness {
    pub execution: Execution,
    pub number: usize,
}

pub struct Collector<'a> {
    pub mode: Mode,
    max_executions: Option<usize>,
    deadline: Option<(Instant, Duration)>,
    /// `--max-memory` in MiB, and the probe of the resident memory in KiB.
    max_memory: Option<(u64, MemoryProbe)>,
    last_memory_check: Instant,
    pub outcomes: Option<Outcomes<'a>>,
    progress: Option<&'a mut (dyn FnMut(Progress) + Send)>,
    /// Executions handled.
    pub executions: usize,
    /// Executions with a thread left blocked at a barrier.
    pub blocked: usize,
    /// Executions with a thread stopped in a wasted await-loop iteration
    /// (spin-assume; they lose no error and are not complete).
    pub spin_blocked: usize,
    /// Executions with a thread cut at the loop bound.
    pub bounded: usize,
    loop_bound: Option<u32>,
    pub errors: Vec<Reported>,
    pub witnesses: Vec<Witness>,
    seen: HashMap<FindingKey, usize>,
    pub stop: Option<Stop>,
    /// The explorer's counters at its last tick.
    pub last_stats: Stats,
}

impl<'a> Collector<'a> {
    pub fn new(mode: Mode) -> Collector<'a> {
        Collector {
            mode,
            max_executions: None,
            deadline: None,
            max_memory: None,
            last_memory_check: Instant::now(),
            outcomes: None,
            progress: None,
            executions: 0,
            blocked: 0,
            spin_blocked: 0,
            bounded: 0,
            loop_bound: None,
            errors: Vec::new(),
            witnesses: Vec::new(),
            seen: HashMap::new(),
            stop: None,
            last_stats: Stats::default(),
        }
    }

    pub fn with_max_executions(mut self, max: Option<usize>) -> Self {
        self.max_executions = max;
        self
    }

    pub fn with_loop_bound(mut self, bound: Option<u32>) -> Self {
        self.loop_bound = bound;
        self
    }

    /// Executions that ran to their end (not stopped in a loop).
    pub fn complete(&self) -> usize {
        self.executions - self.spin_blocked - self.bounded
    }

    /// Why a clean exploration is not a proof: executions were cut at the
    /// loop bound.
    pub fn bounded_reason(&self) -> Option<String> {
        (self.bounded > 0).then(|| {
            format!(
                "no error within loop bound {}: {} cut at the bound (raise --loop-bound)",
                self.loop_bound.unwrap_or_default(),
                count(self.bounded, "execution"),
            )
        })
    }

    /// Stops the exploration when `probe` (the resident memory in KiB)
    /// reaches `mib` MiB.
    pub fn with_max_memory(mut self, mib: Option<u64>, probe: MemoryProbe) -> Self {
        self.max_memory = mib.map(|m| (m, probe));
        self
    }

    pub fn with_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.deadline = timeout.map(|t| (Instant::now() + t, t));
        self
    }

    pub fn with_outcomes(mut self, kernel: Option<&'a Kernel>) -> Self {
        self.outcomes = kernel.map(Outcomes::new);
        self
    }

    /// Calls `progress` as the exploration goes.
    pub fn with_progress(mut self, progress: &'a mut (dyn FnMut(Progress) + Send)) -> Self {
        self.progress = Some(progress);
        self
    }

    fn check_deadline(&mut self) -> Flow {
        if let Some((at, t)) = self.deadline {
            if Instant::now() >= at {
                self.stop.get_or_insert(Stop::Timeout(t));
                return Flow::Stop;
            }
        }
        Flow::Continue
    }
}

impl Observer for Collector<'_> {
    fn run(&mut self, run: Run<'_>) -> Flow {
        match run {
            Run::Execution(exec) => self.execution(exec),
            // Schedules are reported with their own schedule (`warpsafe
            // run`): a schedule here is a bug.
            Run::Schedule(_) => {
                debug_assert!(false, "explore's collector got a schedule");
                Flow::Stop
            }
        }
    }

    fn tick(&mut self, stats: &Stats) -> Flow {
        self.tick_stats(stats)
    }
}

impl Collector<'_> {
    /// Counts one more execution, or stops before it past
    /// `--max-executions` (`false`).
    fn admit(&mut self) -> bool {
        if self.max_executions.is_some_and(|m| self.executions >= m) {
            self.stop = Some(Stop::MaxExecutions(self.executions));
            return false;
        }
        self.executions += 1;
        true
    }

    /// An execution with nothing to report, not built (DPOR hands those
    /// whole only when outcomes are counted).
    fn clean(&mut self, ending: Ending) -> Flow {
        if !self.admit() {
            return Flow::Stop;
        }
        self.count_cut(ending);
        self.progressed()
    }

    /// Counts a cut execution as stopped at the loop bound or by
    /// spin-assume.
    fn count_cut(&mut self, ending: Ending) {
        match ending {
            Ending::Complete => {}
            Ending::Cut { loop_bound: true } => self.bounded += 1,
            Ending::Cut { loop_bound: false } => self.spin_blocked += 1,
        }
    }

    fn execution(&mut self, exec: Execution) -> Flow {
        if !self.admit() {
            return Flow::Stop;
        }
        if !exec.blocked.is_empty() {
            self.blocked += 1;
        }
        self.count_cut(exec.ending());
        // A cut execution has no final state: it would go on.
        if let Some(o) = &mut self.outcomes.as_mut().filter(|_| exec.is_complete()) {
            o.add(&exec);
        }
        let mut new = Vec::new();
        let found = findings(&exec);
        let any = !found.is_empty();
        // The same error twice in one execution (a race between several
        // pairs of threads at one pair of spans) is one occurrence.
        let mut counted: Vec<usize> = Vec::new();
        for f in found {
            match self.seen.get(&f.key()) {
                Some(i) if counted.contains(i) => {}
                Some(i) => {
                    self.errors[*i].occurrences += 1;
                    counted.push(*i);
                }
                None if new.iter().any(|n: &Finding| n.key() == f.key()) => {}
                None => new.push(f),
            }
        }
        if !new.is_empty() {
            let witness = self.witnesses.len();
            for f in new {
                self.seen.insert(f.key(), self.errors.len());
                self.errors.push(Reported {
                    finding: f,
                    witness,
                    occurrences: 1,
                });
            }
            self.witnesses.push(Witness {
                execution: exec,
                number: self.executions,
            });
        }
        self.report_progress();
        if any && self.mode == Mode::FirstError {
            self.stop = Some(Stop::FirstError);
            return Flow::Stop;
        }
        self.check_deadline()
    }

    /// After an execution: progress, and a stop at the deadline.
    fn progressed(&mut self) -> Flow {
        self.report_progress();
        self.check_deadline()
    }

    fn report_progress(&mut self) {
        let progress = Progress {
            executions: self.executions,
            errors: self.errors.len(),
            states: self.last_stats.states,
        };
        if let Some(p) = &mut self.progress {
            p(progress);
        }
    }

    fn tick_stats(&mut self, stats: &Stats) -> Flow {
        self.last_stats = *stats;
        self.report_progress();
        if let Some((limit, probe)) = self.max_memory {
            let now = Instant::now();
            if now - self.last_memory_check >= MEMORY_CHECK_EVERY {
                self.last_memory_check = now;
                if probe().is_some_and(|kib| kib / 1024 >= limit) {
                    self.stop.get_or_insert(Stop::Memory(limit));
                    return Flow::Stop;
                }
            }
        }
        self.check_deadline()
    }
}

/// What a worker's part of a collector starts with (DPOR on several
/// cores): the collector's mode, limit and loop bound, and an empty table
/// of outcomes when it keeps one. A part has no time or memory limit and
/// no progress line: the collector it is joined into has them.
pub struct PartSettings<'a> {
    mode: Mode,
    max_executions: Option<usize>,
    loop_bound: Option<u32>,
    outcomes: Option<Outcomes<'a>>,
}

impl<'a> Collector<'a> {
    /// Takes in the part of a later stretch of the exploration (see
    /// [`warpsafe_mc::Forkable`]): its counts add up, each error it found
    /// first is kept with its first witness unless this collector has it
    /// already (then only its occurrences add up), and witnesses are
    /// numbered after this collector's executions. A part that reached
    /// the execution limit, or that would take this collector past it, is
    /// handed over again execution by execution ([`Join::Again`]), so the
    /// limit falls where it falls on one core.
    fn join_part(&mut self, part: Collector<'a>) -> Join {
        if let Some(max) = self.max_executions {
            if matches!(part.stop, Some(Stop::MaxExecutions(_)))
                || self.executions + part.executions > max
            {
                return Join::Again;
            }
        }
        let offset = self.executions;
        self.executions += part.executions;
        self.blocked += part.blocked;
        self.spin_blocked += part.spin_blocked;
        self.bounded += part.bounded;
        if let (Some(o), Some(p)) = (&mut self.outcomes, part.outcomes) {
            o.merge(p);
        }
        let mut witnesses: Vec<Option<Witness>> = part.witnesses.into_iter().map(Some).collect();
        let mut placed: HashMap<usize, usize> = HashMap::new();
        for e in part.errors {
            let key = e.finding.key();
            if let Some(i) = self.seen.get(&key) {
                self.errors[*i].occurrences += e.occurrences;
                continue;
            }
            let witness = *placed.entry(e.witness).or_insert_with(|| {
                let mut w = witnesses[e.witness]
                    .take()
                    .expect("a part's witness is placed once");
                w.number += offset;
                self.witnesses.push(w);
                self.witnesses.len() - 1
            });
            self.seen.insert(key, self.errors.len());
            self.errors.push(Reported {
                finding: e.finding,
                witness,
                occurrences: e.occurrences,
            });
        }
        if part.stop == Some(Stop::FirstError) {
            self.stop = Some(Stop::FirstError);
            return Join::Stop;
        }
        Join::Continue
    }
}

impl warpsafe_mc::Observer for Collector<'_> {
    fn execution(&mut self, exec: Execution) -> Flow {
        Collector::execution(self, exec)
    }

    /// Clean executions matter only to the table of outcomes.
    fn needs_clean(&self) -> bool {
        self.outcomes.is_some()
    }

    fn clean(&mut self, ending: Ending) -> Flow {
        Collector::clean(self, ending)
    }

    fn tick(&mut self, stats: &Stats) -> Flow {
        self.tick_stats(stats)
    }
}

impl<'a> Forkable for Collector<'a> {
    type Part = Collector<'a>;
    type Factory = PartSettings<'a>;

    fn factory(&self) -> PartSettings<'a> {
        PartSettings {
            mode: self.mode,
            max_executions: self.max_executions,
            loop_bound: self.loop_bound,
            outcomes: self.outcomes.as_ref().map(Outcomes::fresh),
        }
    }

    fn part(settings: &PartSettings<'a>) -> Collector<'a> {
        let mut part = Collector::new(settings.mode)
            .with_max_executions(settings.max_executions)
            .with_loop_bound(settings.loop_bound);
        part.outcomes = settings.outcomes.as_ref().map(Outcomes::fresh);
        part
    }

    fn join(&mut self, part: Collector<'a>, _: &Stats) -> Join {
        self.join_part(part)
    }
}
