//! The [`Explorer`] trait: what every explorer of a concrete launch offers
//! (issue 11; shuttle's habit of one small trait over its strategies).
//!
//! An explorer runs a kernel on one launch and hands each run it finishes
//! to an [`Observer`]: an execution graph for the model checkers (seed
//! 000), a schedule for the schedule explorer (seed 003). Its
//! [`Coverage`] says what a clean result means: every consistent
//! execution (a proof for this launch, within the loop bound) or only the
//! runs tried (no proof).
//!
//! Invariant: an explorer calls [`Observer::run`] once per run it
//! finishes, and stops as soon as the observer answers [`Flow::Stop`].

use std::time::Instant;
use thiserror::Error;
use warpsafe_interp::Launch;
use warpsafe_ir::Kernel;
use warpsafe_mc::{findings, Config, ErrorKind, Execution, Flow, McError, Model, Stats};
use warpsafe_sched::SchedError;

/// What a clean exploration covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coverage {
    /// Every consistent execution of the launch (within the loop bound):
    /// no error in any of them is a proof for this launch.
    Exhaustive,
    /// Some schedules only (up to a delay bound): no error in them is no
    /// proof.
    Bounded,
}

/// The bounds every explorer takes (each reads the ones it has). The
/// defaults are the model checkers'; [`Limits::schedules`] gives the
/// schedule explorer's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// The most runs (executions or schedules) handed to the observer.
    pub max_runs: usize,
    /// The most partial executions a model checker explores.
    pub max_states: usize,
    /// Interpreter steps per thread before a run is cut.
    pub max_steps: u64,
    /// The largest grid (threads in all).
    pub max_threads: usize,
    /// The most threads that interact (model checkers).
    pub max_active_threads: usize,
    /// The most iterations of one loop per entry (model checkers).
    pub loop_bound: Option<u32>,
    /// Cut wasted iterations of await loops (model checkers).
    pub spin_assume: bool,
    /// The memory model (model checkers).
    pub model: Model,
    /// The most delays in one schedule (the schedule explorer's `K`).
    pub delays: usize,
    /// When the exploration stops, set-up included.
    pub deadline: Option<Instant>,
    /// Cores the DPOR explorer may use (the others use one).
    pub jobs: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        let mc = Config::default();
        let search = warpsafe_sched::SearchConfig::default();
        Limits {
            max_runs: mc.max_executions,
            max_states: mc.max_states,
            max_steps: mc.max_steps,
            max_threads: mc.max_threads,
            max_active_threads: mc.max_active_threads,
            loop_bound: mc.loop_bound,
            spin_assume: mc.spin_assume,
            model: mc.model,
            delays: search.delays,
            deadline: None,
            jobs: mc.jobs,
        }
    }
}

impl Limits {
    /// The schedule explorer's defaults: its step and thread limits are far
    /// higher than the model checkers' ([`Limits::default`]), since it runs
    /// launches at their real size.
    pub fn schedules() -> Limits {
        let run = warpsafe_sched::RunConfig::default();
        Limits {
            max_steps: run.max_steps,
            max_threads: usize::try_from(run.max_threads).unwrap_or(usize::MAX),
            ..Limits::default()
        }
    }

    /// The model checkers' configuration.
    pub fn model_checker(&self) -> Config {
        Config {
            max_executions: self.max_runs,
            max_states: self.max_states,
            max_steps: self.max_steps,
            max_threads: self.max_threads,
            max_active_threads: self.max_active_threads,
            model: self.model,
            loop_bound: self.loop_bound,
            spin_assume: self.spin_assume,
            setup_deadline: self.deadline,
            jobs: self.jobs,
            share_eagerly: false,
        }
    }
}

/// One run an explorer finished.
// A run is moved once to its observer and never stored in bulk: boxing the
// execution would allocate once more per execution for nothing.
#[allow(clippy::large_enum_variant)]
pub enum Run<'a> {
    /// A consistent execution graph (DPOR, the reference enumerator).
    Execution(Execution),
    /// A schedule under sequential consistency (the schedule explorer).
    Schedule(&'a warpsafe_sched::Run),
}

impl Run<'_> {
    /// The kinds of error the run shows, each once, in the order first
    /// shown.
    pub fn error_kinds(&self) -> Vec<ErrorKind> {
        let all: Vec<ErrorKind> = match self {
            Run::Execution(e) => findings(e).iter().map(|f| f.kind()).collect(),
            Run::Schedule(r) => r.findings.iter().map(|f| f.kind()).collect(),
        };
        let mut kinds = Vec::new();
        for k in all {
            if !kinds.contains(&k) {
                kinds.push(k);
            }
        }
        kinds
    }

    /// Whether every thread ran to its end (no loop bound, spin cut, step
    /// limit, time limit or failed assumption stopped it).
    pub fn is_complete(&self) -> bool {
        match self {
            Run::Execution(e) => e.is_complete(),
            Run::Schedule(r) => r.cut.is_none(),
        }
    }
}

/// Receives the runs of one exploration.
pub trait Observer {
    /// One finished run; [`Flow::Stop`] ends the exploration.
    fn run(&mut self, run: Run<'_>) -> Flow;

    /// Called between the model checkers' partial executions with their
    /// counters, so a long exploration can be stopped between runs.
    fn tick(&mut self, _stats: &Stats) -> Flow {
        Flow::Continue
    }
}

impl<F: FnMut(Run<'_>) -> Flow> Observer for F {
    fn run(&mut self, run: Run<'_>) -> Flow {
        self(run)
    }
}

/// What an exploration counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Summary {
    /// A model checker's counters.
    Executions(Stats),
    /// The schedule explorer's search.
    Schedules(warpsafe_sched::Search),
}

impl Summary {
    /// Runs handed to the observer.
    pub fn runs(&self) -> usize {
        match self {
            Summary::Executions(s) => s.executions + s.cut,
            Summary::Schedules(s) => s.schedules,
        }
    }

    /// Whether the exploration covered what its [`Coverage`] promises (a
    /// bounded one: every run up to its bound).
    pub fn finished(&self) -> bool {
        match self {
            Summary::Executions(s) => !s.stopped,
            Summary::Schedules(s) => s.exhausted,
        }
    }
}

/// Why an exploration could not run.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum ExploreError {
    #[error(transparent)]
    ModelChecker(#[from] McError),
    #[error(transparent)]
    Schedules(#[from] SchedError),
}

/// An explorer of concrete launches.
pub trait Explorer: Sync {
    /// The name `--explorer` takes.
    fn name(&self) -> &'static str;
    /// One line for the report header.
    fn describe(&self) -> &'static str;
    fn coverage(&self) -> Coverage;
    /// Explores `kernel` on `launch` within `limits`, handing each run to
    /// `observer`.
    fn explore(
        &self,
        kernel: &Kernel,
        launch: &Launch,
        limits: &Limits,
        observer: &mut dyn Observer,
    ) -> Result<Summary, ExploreError>;

    /// Explores as [`Explorer::explore`] into the collector of an
    /// exhaustive exploration. DPOR runs on [`Limits::jobs`] cores here,
    /// each worker with its own part of the collector, joined in order
    /// (`warpsafe_mc::Forkable`); the others run as `explore` does.
    fn explore_collecting(
        &self,
        kernel: &Kernel,
        launch: &Launch,
        limits: &Limits,
        collector: &mut crate::collect::Collector<'_>,
    ) -> Result<Summary, ExploreError> {
        self.explore(kernel, launch, limits, collector)
    }
}

/// A model checker's exploration function (`warpsafe_mc::dpor::explore_with`
/// and the reference enumerator's).
pub(crate) type ModelCheck =
    fn(&Kernel, &Launch, &Config, &mut dyn warpsafe_mc::Observer) -> Result<Stats, McError>;

/// Runs model checker `check` within `limits`, handing each execution to
/// `observer` as a [`Run`].
pub(crate) fn model_check(
    check: ModelCheck,
    kernel: &Kernel,
    launch: &Launch,
    limits: &Limits,
    observer: &mut dyn Observer,
) -> Result<Summary, ExploreError> {
    let stats = check(
        kernel,
        launch,
        &limits.model_checker(),
        &mut Executions(observer),
    )?;
    Ok(Summary::Executions(stats))
}

/// A model checker's observer that hands each execution on as a [`Run`].
struct Executions<'o>(&'o mut dyn Observer);

impl warpsafe_mc::Observer for Executions<'_> {
    fn execution(&mut self, exec: Execution) -> Flow {
        self.0.run(Run::Execution(exec))
    }

    fn tick(&mut self, stats: &Stats) -> Flow {
        self.0.tick(stats)
    }
}
