//! How an explorer hands executions to its caller, one at a time, so that
//! exploring never needs memory for all of them (seed 000 §4: DPOR's
//! memory is polynomial in the program, not in the number of executions).
//!
//! An [`Observer`] sees each complete consistent execution once and says
//! whether to go on; [`Stats`] are the counters the explorer kept.
//! [`crate::Exploration`] is the observer that keeps everything (tests and
//! small litmus runs).
//!
//! Invariant: an explorer calls [`Observer::execution`] once per distinct
//! consistent execution, and stops as soon as it returns [`Flow::Stop`];
//! it calls [`Observer::tick`] before expanding each partial graph, so an
//! observer can stop a long run between executions (a time limit).

use crate::reference::{Execution, Exploration, McError};

/// Whether the explorer goes on after an execution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
}

/// Receives the executions of one exploration.
pub trait Observer {
    /// One complete consistent execution.
    fn execution(&mut self, exec: Execution) -> Flow;

    /// Called before each partial graph is expanded, with the counters so
    /// far; [`Flow::Stop`] ends the exploration (incomplete).
    fn tick(&mut self, _stats: &Stats) -> Flow {
        Flow::Continue
    }

    /// Whether executions with nothing to report are handed whole (the
    /// default). When `false`, DPOR checks on its own state that an
    /// execution has no race, failed assertion, fault, divergent or
    /// mismatched barrier, or hang (what [`crate::findings`] reports), and
    /// then calls [`Observer::clean`] instead of building it: building is
    /// about half of the time per execution of an exploration.
    fn needs_clean(&self) -> bool {
        true
    }

    /// An execution with nothing to report, not built (see
    /// [`Observer::needs_clean`]), and how it ended.
    fn clean(&mut self, _ending: Ending) -> Flow {
        Flow::Continue
    }
}

/// How an execution that was only counted ended ([`Observer::clean`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Every thread ran to its end ([`Execution::is_complete`]).
    Complete,
    /// A thread was stopped in a loop ([`Execution::cut`]): at the loop
    /// bound ([`Execution::hit_loop_bound`]) or in a wasted await-loop
    /// iteration (spin-assume).
    Cut { loop_bound: bool },
}

/// An observer whose work can be split between threads, for DPOR on
/// several cores ([`crate::dpor::explore_forked`]). Each worker hands the
/// executions of its part of the exploration to its own empty observer
/// (a *part*, made by [`Forkable::part`] from a [`Forkable::factory`]
/// that workers share), and the caller's observer takes in the finished
/// parts one by one, in the order a one-core exploration reaches their
/// executions ([`Forkable::join`]).
///
/// Invariant of an implementation: joining the parts of an exploration in
/// order leaves the observer as handing it every execution in that order
/// would (parts are never joined after a [`Join::Stop`]).
pub trait Forkable: Observer {
    type Part: Observer + Send;
    /// What workers make parts with.
    type Factory: Sync;
    fn factory(&self) -> Self::Factory;
    fn part(factory: &Self::Factory) -> Self::Part;
    /// Takes in a finished part, whose explorer counted `stats`.
    fn join(&mut self, part: Self::Part, stats: &Stats) -> Join;
}

/// What joining a part did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Join {
    Continue,
    /// The observer stops within this part (as [`Flow::Stop`]).
    Stop,
    /// The part cannot be taken in as a whole (a limit falls inside it):
    /// its executions must be handed to the observer one by one again.
    Again,
}

/// What an exploration counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Complete consistent executions handed to the observer.
    pub executions: usize,
    /// Executions handed to the observer in which a thread was cut in a
    /// loop (spin-assume or the loop bound; see [`crate::Execution::cut`]).
    pub cut: usize,
    /// Of those, the ones in which a thread reached the loop bound.
    pub bounded: usize,
    /// Partial graphs explored.
    pub states: usize,
    /// Successors dropped because their graph is inconsistent.
    pub pruned_inconsistent: usize,
    /// Successors dropped because a thread's `__assume` is false.
    pub pruned_infeasible: usize,
    /// The observer stopped the exploration before it was complete.
    pub stopped: bool,
}

impl Stats {
    /// Fails when `max` executions (complete or cut) were handed already.
    pub(crate) fn check_room(&self, max: usize) -> Result<(), McError> {
        if self.executions + self.cut >= max {
            return Err(McError::TooManyExecutions { limit: max });
        }
        Ok(())
    }

    /// Counts an execution that ended as `ending`.
    fn count(&mut self, ending: Ending) {
        match ending {
            Ending::Complete => self.executions += 1,
            Ending::Cut { loop_bound } => {
                self.cut += 1;
                self.bounded += usize::from(loop_bound);
            }
        }
    }

    /// Counts an execution with nothing to report, not built, and hands it
    /// to `observer` (see [`Observer::needs_clean`]).
    pub(crate) fn hand_clean(&mut self, ending: Ending, observer: &mut dyn Observer) {
        self.count(ending);
        if observer.clean(ending) == Flow::Stop {
            self.stopped = true;
        }
    }

    /// Counts `exec`, complete or cut, and hands it to `observer`.
    pub(crate) fn hand(&mut self, exec: Execution, observer: &mut dyn Observer) {
        self.count(exec.ending());
        if observer.execution(exec) == Flow::Stop {
            self.stopped = true;
        }
    }
}

impl Exploration {
    /// Every execution `explore` hands to its observer, with its counters.
    pub(crate) fn collect(
        explore: impl FnOnce(&mut dyn Observer) -> Result<Stats, McError>,
    ) -> Result<Exploration, McError> {
        let mut all = Exploration::default();
        let stats = explore(&mut all)?;
        all.states = stats.states;
        all.pruned_inconsistent = stats.pruned_inconsistent;
        all.pruned_infeasible = stats.pruned_infeasible;
        Ok(all)
    }
}

impl Observer for Exploration {
    fn execution(&mut self, exec: Execution) -> Flow {
        self.executions.push(exec);
        Flow::Continue
    }
}

/// Parts keep their executions; joining appends them in order.
impl Forkable for Exploration {
    type Part = Exploration;
    type Factory = ();

    fn factory(&self) {}

    fn part(_: &()) -> Exploration {
        Exploration::default()
    }

    fn join(&mut self, part: Exploration, _: &Stats) -> Join {
        self.executions.extend(part.executions);
        Join::Continue
    }
}

impl<F: FnMut(Execution) -> Flow> Observer for F {
    fn execution(&mut self, exec: Execution) -> Flow {
        self(exec)
    }
}
