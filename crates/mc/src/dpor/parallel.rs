//! DPOR on several cores (issue 12; TruSt's exploration tree has
//! independent subtrees: states share nothing but immutable events).
//!
//! The work is a list of *segments*, in the order a one-core exploration
//! reaches them. A segment is a work stack, explored depth first (top
//! first) by one worker, which hands its executions to its own part of
//! the caller's observer ([`Forkable`]).
//!
//! - **Explore.** `jobs` workers each take the *earliest* segment nobody
//!   explores, with a copy of the explorer it was made from.
//! - **Share.** While a worker waits for work, the others give away the
//!   bottom half of their stacks (the states they would explore last,
//!   nearest the root: big subtrees) as a new segment placed right after
//!   their own. The list's executions, read segment by segment, are
//!   therefore the one-core exploration's, in its order, whatever the
//!   timing.
//! - **Join.** The calling thread joins the finished parts into the
//!   caller's observer in list order. A part that a limit falls inside
//!   ([`Join::Again`]: `--max-executions`) is explored again there, one
//!   execution at a time, into the caller's observer. So the report, its
//!   witnesses and their numbers, and the counts are the one-core run's
//!   for any number of jobs; only timeouts and memory limits fall at a
//!   time, not at an execution.
//!
//! Invariants: a segment's executions depend only on its states, never
//! on the explorer copy that runs it (the copy's tables of locations and
//! accesses only name and filter what the states contain); the segment
//! being joined is always explored or being explored (a worker that
//! finishes a segment takes the earliest one left, and a segment is
//! placed only after the one its worker explores), so the join never
//! waits for a segment nobody will take.
//!
//! Differences from one core: each explorer copy counts the threads that
//! interact among the events *it* added (`--max-active-threads`) and the
//! union is not counted, so a run whose parts each stay within the limit
//! is explored where one core stops with UNKNOWN; `--max-states` counts
//! the states of all workers as they are pushed (so it may stop a run
//! that one core finishes within the limit, never the reverse); a timeout
//! or memory limit stops at a time, not at an execution. The counters
//! (states, pruned) are the joined parts', so a run stopped at an error or
//! at `--max-executions` reports the one-core run's.

use super::run::{Direct, Sink};
use super::state::Detach;
use super::{Explorer, State};
use crate::observe::{Flow, Forkable, Join, Observer, Stats};
use crate::reference::McError;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// How often the join asks the caller's observer whether to stop (a
/// timeout) while it waits for a part.
const TICK: Duration = Duration::from_millis(20);
/// States a worker counts on its own before adding them to the shared
/// count, when that count only shows progress (no `--max-states`).
const STATES_BATCH: usize = 1024;

/// A finished segment: its part, its explorer's counters, and the error
/// that ended it if one did.
type Done<P> = (P, Stats, Result<(), McError>);

/// A segment nobody explores yet.
struct Ready<'k, P> {
    id: usize,
    explorer: Explorer<'k>,
    stack: Vec<State<'k>>,
    tx: Sender<Done<P>>,
}

/// The segments, under one lock.
struct Plan<'k, P> {
    ready: Vec<Ready<'k, P>>,
    /// Per segment, the one after it in the list.
    next: Vec<Option<usize>>,
    /// Per segment, where its part arrives, until the join takes it.
    parts: Vec<Option<Receiver<Done<P>>>>,
    /// Per segment, its explorer and stack as made, until it is joined
    /// (to explore it again on [`Join::Again`]).
    made: Vec<Option<(Explorer<'k>, Vec<State<'k>>)>>,
    /// Workers exploring a segment.
    busy: usize,
    /// Set when the join stopped: nothing more is taken.
    closed: bool,
}

impl<'k, P> Plan<'k, P> {
    /// A new segment right after segment `after` (or the first one).
    fn add(&mut self, after: Option<usize>, explorer: Explorer<'k>, stack: Vec<State<'k>>) {
        let id = self.next.len();
        let (tx, rx) = channel();
        match after {
            Some(a) => {
                self.next.push(self.next[a]);
                self.next[a] = Some(id);
            }
            None => self.next.push(None),
        }
        self.parts.push(Some(rx));
        self.made.push(Some((explorer.clone(), stack.clone())));
        self.ready.push(Ready {
            id,
            explorer,
            stack,
            tx,
        });
    }

    /// Takes the earliest ready segment in list order, walking from `head`
    /// (every segment before it is joined).
    fn take_earliest(&mut self, head: usize) -> Option<Ready<'k, P>> {
        if self.ready.len() <= 1 {
            return self.ready.pop();
        }
        let mut at = Some(head);
        while let Some(s) = at {
            if let Some(i) = self.ready.iter().position(|r| r.id == s) {
                return Some(self.ready.swap_remove(i));
            }
            at = self.next[s];
        }
        // Every ready segment is on the list after `head`.
        self.ready.pop()
    }
}

/// What the workers and the join share.
struct Shared<'k, P, F> {
    plan: Mutex<Plan<'k, P>>,
    wake: Condvar,
    factory: F,
    /// Workers waiting for a segment.
    idle: AtomicUsize,
    /// Segments ready and not taken.
    ready: AtomicUsize,
    /// The segment being joined.
    head: AtomicUsize,
    cancel: AtomicBool,
    /// States pushed by all workers (and the start).
    states: AtomicUsize,
    max_states: usize,
    max_executions: usize,
    share_eagerly: bool,
}

impl<'k, P, F> Shared<'k, P, F> {
    fn plan(&self) -> MutexGuard<'_, Plan<'k, P>> {
        self.plan
            .lock()
            .expect("a worker panicked while holding the segment list")
    }
}

/// Explores from `initial` with `ex.config.jobs` workers, joining their
/// parts into `observer` in the one-core order (see the module docs).
pub(super) fn run<'k, O: Forkable>(
    ex: Explorer<'k>,
    initial: State<'k>,
    observer: &mut O,
) -> Result<Stats, McError> {
    let config = ex.config;
    let shared = Shared {
        plan: Mutex::new(Plan {
            ready: Vec::new(),
            next: Vec::new(),
            parts: Vec::new(),
            made: Vec::new(),
            busy: 0,
            closed: false,
        }),
        wake: Condvar::new(),
        factory: observer.factory(),
        idle: AtomicUsize::new(0),
        ready: AtomicUsize::new(1),
        head: AtomicUsize::new(0),
        cancel: AtomicBool::new(false),
        states: AtomicUsize::new(1),
        max_states: config.max_states,
        max_executions: config.max_executions,
        share_eagerly: config.share_eagerly,
    };
    shared.plan().add(None, ex, vec![initial]);
    std::thread::scope(|scope| {
        for _ in 0..config.jobs {
            scope.spawn(|| work::<O>(&shared));
        }
        let joined = join_all(&shared, observer);
        shared.cancel.store(true, Ordering::SeqCst);
        let mut plan = shared.plan();
        plan.closed = true;
        plan.ready.clear();
        plan.made.clear();
        drop(plan);
        shared.wake.notify_all();
        joined
    })
}

/// One worker: takes segments until every one is explored.
fn work<O: Forkable>(shared: &Shared<'_, O::Part, O::Factory>) {
    loop {
        let seg = {
            let mut plan = shared.plan();
            loop {
                if plan.closed || shared.cancel.load(Ordering::SeqCst) {
                    return;
                }
                if let Some(seg) = plan.take_earliest(shared.head.load(Ordering::SeqCst)) {
                    shared.ready.store(plan.ready.len(), Ordering::SeqCst);
                    plan.busy += 1;
                    break seg;
                }
                if plan.busy == 0 {
                    // Nothing ready and nobody exploring: all done.
                    shared.wake.notify_all();
                    return;
                }
                shared.idle.fetch_add(1, Ordering::SeqCst);
                plan = shared
                    .wake
                    .wait(plan)
                    .expect("a worker panicked while holding the segment list");
                shared.idle.fetch_sub(1, Ordering::SeqCst);
            }
        };
        let mut ex = seg.explorer;
        ex.out = Stats::default();
        // Copied here, by the worker that uses them (its own memory), so
        // that the workers share no reference count.
        let mut memo = Detach::default();
        let stack: Vec<_> = seg.stack.iter().map(|s| s.detached(&mut memo)).collect();
        drop(seg.stack);
        drop(memo);
        let mut sink = Part::<O> {
            id: seg.id,
            part: O::part(&shared.factory),
            shared,
        };
        let done = ex.run(stack, &mut sink);
        // The join may have stopped and dropped the receiver.
        let _ = seg.tx.send((sink.part, ex.out, done));
        let mut plan = shared.plan();
        plan.busy -= 1;
        drop(plan);
        shared.wake.notify_all();
    }
}

/// Joins the segments' parts into `observer` in list order. The counters
/// are the joined parts' (and the start's), so a stopped exploration
/// reports the work a one-core run did up to the same execution.
fn join_all<O: Forkable>(
    shared: &Shared<'_, O::Part, O::Factory>,
    observer: &mut O,
) -> Result<Stats, McError> {
    let mut out = Stats {
        states: 1,
        ..Stats::default()
    };
    let mut head = 0;
    loop {
        shared.head.store(head, Ordering::SeqCst);
        let rx = shared.plan().parts[head]
            .take()
            .expect("the join takes each part once");
        let (part, w, done) = loop {
            // Progress and time limits see every worker's states.
            let now = Stats {
                states: shared.states.load(Ordering::Relaxed),
                ..out
            };
            if observer.tick(&now) == Flow::Stop {
                out.stopped = true;
                return Ok(out);
            }
            match rx.recv_timeout(TICK) {
                Ok(done) => break done,
                Err(RecvTimeoutError::Timeout) => {}
                // Only a panicking worker drops its sender unsent; the
                // scope re-raises its panic.
                Err(RecvTimeoutError::Disconnected) => return Ok(out),
            }
        };
        let made = shared.plan().made[head].take();
        if let Err(e) = done {
            // The observer sees the work done up to the error, as on one
            // core.
            let mut at = out;
            add(&mut at, &w);
            observer.tick(&at);
            return Err(e);
        }
        // One core fails on the execution past the limit.
        if out.executions + out.cut + w.executions + w.cut > shared.max_executions {
            return Err(McError::TooManyExecutions {
                limit: shared.max_executions,
            });
        }
        match observer.join(part, &w) {
            Join::Continue => add(&mut out, &w),
            Join::Stop => {
                add(&mut out, &w);
                out.stopped = true;
                break;
            }
            Join::Again => {
                // The segment as made, which also covers the segments it
                // gave away: they come right after it, and the observer
                // stops within this stretch.
                let (mut ex, stack) = made.expect("a segment is joined once");
                ex.out = out;
                let mut direct = Direct::new(observer, shared.max_executions, usize::MAX);
                ex.run(stack, &mut direct)?;
                out = ex.out;
                if out.stopped {
                    break;
                }
            }
        }
        // The segment is joined, so nothing is placed after it any more.
        match shared.plan().next[head] {
            Some(n) => head = n,
            None => break,
        }
    }
    Ok(out)
}

/// Adds a joined part's counters.
fn add(out: &mut Stats, part: &Stats) {
    out.executions += part.executions;
    out.cut += part.cut;
    out.bounded += part.bounded;
    out.states += part.states;
    out.pruned_inconsistent += part.pruned_inconsistent;
    out.pruned_infeasible += part.pruned_infeasible;
}

/// A worker's sink: its part of the observer, and the list to share work
/// on.
struct Part<'s, 'k, O: Forkable> {
    id: usize,
    part: O::Part,
    shared: &'s Shared<'k, O::Part, O::Factory>,
}

impl<'k, O: Forkable> Sink<'k> for Part<'_, 'k, O> {
    fn tick(&mut self, stats: &Stats) -> Flow {
        if self.shared.cancel.load(Ordering::Relaxed) {
            return Flow::Stop;
        }
        self.part.tick(stats)
    }

    fn count_state(&mut self, stats: &mut Stats) -> Result<(), McError> {
        stats.states += 1;
        // The shared count is one cache line for every worker: without a
        // limit (it is then only for progress) it is brought up to date
        // every [`STATES_BATCH`] states.
        let batch = if self.shared.max_states == usize::MAX {
            STATES_BATCH
        } else {
            1
        };
        if stats.states.is_multiple_of(batch) {
            let all = self.shared.states.fetch_add(batch, Ordering::Relaxed);
            if all + batch > self.shared.max_states {
                return Err(McError::TooManyStates {
                    limit: self.shared.max_states,
                });
            }
        }
        Ok(())
    }

    fn handing(&mut self) -> (&mut dyn Observer, usize) {
        (&mut self.part, self.shared.max_executions)
    }

    fn wants_work(&self) -> bool {
        self.shared.share_eagerly
            || self.shared.idle.load(Ordering::Relaxed) > self.shared.ready.load(Ordering::Relaxed)
    }

    fn share(&mut self, explorer: &Explorer<'k>, states: Vec<State<'k>>) {
        let mut plan = self.shared.plan();
        if plan.closed {
            return;
        }
        plan.add(Some(self.id), explorer.clone(), states);
        self.shared.ready.store(plan.ready.len(), Ordering::SeqCst);
        drop(plan);
        self.shared.wake.notify_one();
    }
}
