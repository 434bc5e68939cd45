//! The DPOR explorer's depth-first loop over a work stack of states, and
//! where the complete executions it finds go (a [`Sink`]): straight to
//! the caller's [`Observer`] ([`Direct`], one core), or to the ordered
//! merge of a parallel exploration ([`super::parallel`]).
//!
//! Invariant: states are expanded in the order of the stack (last pushed
//! first), successors pushed so that the first one is expanded first, so
//! the executions of one stack come out in one order whatever the sink;
//! states a sink takes to share are the bottom of the stack, explored
//! after all the others, so the executions of the stack then those of the
//! shared states are that same order.

use super::{verifiable, Explorer, State};
use crate::consistency::Relations;
use crate::findings::{findings, mismatched_barriers, reads_latest};
use crate::graph::RfSource;
use crate::grid::Status;
use crate::observe::{Ending, Flow, Observer, Stats};
use crate::races::races;
use crate::reference::{Execution, McError};
use warpsafe_interp::BlockReason;

/// Where an exploration's complete executions go.
pub(super) trait Sink<'k> {
    /// Called before each state is expanded; [`Flow::Stop`] ends the run
    /// (incomplete).
    fn tick(&mut self, stats: &Stats) -> Flow;
    /// Counts one more state pushed on the work stack; fails past
    /// [`crate::Config::max_states`].
    fn count_state(&mut self, stats: &mut Stats) -> Result<(), McError>;
    /// The observer complete executions go to, and the most executions
    /// it may get ([`crate::Config::max_executions`]).
    fn handing(&mut self) -> (&mut dyn Observer, usize);
    /// Whether another worker waits for states to explore.
    fn wants_work(&self) -> bool {
        false
    }
    /// Gives `states` (a work stack, explored after everything left on
    /// the caller's stack) to another worker.
    fn share(&mut self, _explorer: &Explorer<'k>, _states: Vec<State<'k>>) {}
}

/// The sink of a one-core exploration: the caller's observer, with
/// `--max-executions` and `--max-states` checked here.
pub(super) struct Direct<'o> {
    observer: &'o mut dyn Observer,
    max_executions: usize,
    max_states: usize,
}

impl<'o> Direct<'o> {
    pub fn new(observer: &'o mut dyn Observer, max_executions: usize, max_states: usize) -> Self {
        Direct {
            observer,
            max_executions,
            max_states,
        }
    }
}

impl Sink<'_> for Direct<'_> {
    fn tick(&mut self, stats: &Stats) -> Flow {
        self.observer.tick(stats)
    }

    fn count_state(&mut self, stats: &mut Stats) -> Result<(), McError> {
        stats.states += 1;
        if stats.states > self.max_states {
            return Err(McError::TooManyStates {
                limit: self.max_states,
            });
        }
        Ok(())
    }

    fn handing(&mut self) -> (&mut dyn Observer, usize) {
        (&mut *self.observer, self.max_executions)
    }
}

impl<'k> Explorer<'k> {
    /// Explores every state of `stack` and its successors, depth first,
    /// handing each complete execution to `sink`.
    pub(super) fn run(
        &mut self,
        mut stack: Vec<State<'k>>,
        sink: &mut dyn Sink<'k>,
    ) -> Result<(), McError> {
        let mut succs = Vec::new();
        while let Some(state) = stack.pop() {
            if stack.len() >= 2 && sink.wants_work() {
                // The bottom half: the states this stack would reach last.
                let rest = stack.split_off(stack.len() / 2);
                let bottom = std::mem::replace(&mut stack, rest);
                sink.share(self, bottom);
            }
            if self.out.stopped || sink.tick(&self.out) == Flow::Stop {
                self.out.stopped = true;
                break;
            }
            let Some(t) = next_thread(&state) else {
                self.finish(state, sink)?;
                continue;
            };
            self.expand(state, t, &mut succs)?;
            for s in succs.drain(..).rev() {
                sink.count_state(&mut self.out)?;
                stack.push(s);
            }
        }
        Ok(())
    }

    /// The consistent successors of `state` by its thread `t`, into `out`
    /// (in the order they are to be explored); fails when more threads
    /// interact than [`crate::Config::max_active_threads`].
    pub(super) fn expand(
        &mut self,
        state: State<'k>,
        t: usize,
        out: &mut Vec<State<'k>>,
    ) -> Result<(), McError> {
        self.successors(state, t, out)?;
        if self.active.count() > self.config.max_active_threads {
            return Err(McError::TooManyActiveThreads {
                limit: self.config.max_active_threads,
            });
        }
        Ok(())
    }

    /// Hands a complete state to the sink's observer: dropped (counted as
    /// pruned) when a thread's `__assume` failed in it, counted without
    /// being built when it has nothing to report and the observer does
    /// not need such executions whole, else built.
    fn finish(&mut self, state: State<'k>, sink: &mut dyn Sink<'k>) -> Result<(), McError> {
        if state
            .lanes
            .iter()
            .any(|l| matches!(l.status, Status::Infeasible))
        {
            self.out.pruned_infeasible += 1;
            return Ok(());
        }
        let (observer, max) = sink.handing();
        self.out.check_room(max)?;
        let found = self.races_of(&state);
        let clean = (!observer.needs_clean() && found.is_empty())
            .then(|| self.clean(&state))
            .flatten();
        if let Some(ending) = clean {
            if cfg!(debug_assertions) {
                let exec = self.build(&state, found);
                let built = exec.ending();
                assert!(
                    built == ending && findings(&exec).is_empty(),
                    "an execution counted as clean ({ending:?}) is {built:?} with findings {:?}",
                    findings(&exec)
                );
            }
            self.out.hand_clean(ending, observer);
        } else {
            let exec = self.build(&state, found);
            self.out.hand(exec, observer);
        }
        Ok(())
    }

    /// How a finished state with no race ends when it has nothing else to
    /// report, as [`findings`] judges the execution: no thread failed an
    /// assertion or faulted; none waits at a barrier unless a thread was
    /// cut in a loop (then it would go on: no divergence); every block or
    /// grid barrier instance was reached from one statement; and when
    /// threads were cut outside the loop bound, a read of the wasted
    /// iteration of one of them is stale: it read from another write than
    /// the `co`-latest (else the cut threads hang, `findings::hangs`). `None` when there is something to
    /// report.
    fn clean(&self, state: &State<'k>) -> Option<Ending> {
        let (mut cut, mut loop_bound, mut waiting) = (false, false, false);
        for lane in &state.lanes {
            match &lane.status {
                Status::Done => {}
                Status::Cut { reason, .. } => {
                    cut = true;
                    loop_bound |= matches!(reason, BlockReason::LoopBound { .. });
                }
                Status::AtBarrier { .. } => waiting = true,
                _ => return None,
            }
        }
        if waiting && !cut {
            return None;
        }
        let mismatched =
            mismatched_barriers(state.events.iter().enumerate().flat_map(|(t, slots)| {
                let id = self.grid.ids[t];
                slots.iter().map(move |s| (id, &s.node.event))
            }));
        if !mismatched.is_empty() {
            return None;
        }
        if !cut {
            return Some(Ending::Complete);
        }
        let stale = |t: usize| {
            let Status::Cut {
                reason: BlockReason::SpinLoop { reads },
                ..
            } = state.lanes[t].status
            else {
                return false;
            };
            state.events[t]
                .iter()
                .rev()
                .filter(|s| s.node.event.is_read())
                .take(reads as usize)
                .any(|r| match (r.node.loc, r.node.rf) {
                    (Some(loc), Some(src)) => {
                        let latest = state
                            .co(loc)
                            .last()
                            .map_or(RfSource::Init, |w| RfSource::Write(*w));
                        !reads_latest(r.node.event.id, src, latest)
                    }
                    _ => false,
                })
        };
        let some_stale = (0..state.lanes.len()).any(stale);
        (loop_bound || some_stale).then_some(Ending::Cut { loop_bound })
    }

    /// The public execution of a complete state, with its races `found`.
    fn build(&self, state: &State<'k>, found: Vec<crate::races::Race>) -> Execution {
        let graph = state.to_graph(&self.grid.ids, &self.locs, &self.sorted_locs);
        if cfg!(debug_assertions) && verifiable(state) {
            assert_eq!(
                found,
                races(&Relations::new(&graph, self.config.model)),
                "races from views"
            );
        }
        self.grid
            .execution_with(graph, state.lanes.iter().map(|l| &l.status), found)
    }
}

/// The thread whose pending event a state adds next (the lowest that can
/// run), or `None` when the state is complete.
pub(super) fn next_thread(state: &State<'_>) -> Option<usize> {
    state
        .lanes
        .iter()
        .position(|l| matches!(l.status, Status::Ready(_)))
}
