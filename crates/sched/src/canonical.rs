//! One schedule of a launch: seed 003 §4's canonical schedule, with the
//! delays of a delay list.
//!
//! The canonical schedule runs block by block; within a block, thread by
//! thread (in linear order) up to the next barrier; when every thread of
//! the block waits at one `__syncthreads()` (the same statement in the same
//! loop iterations), the barrier is released and the block goes on to its
//! next barrier interval, until it ends. Warp and tile barriers release
//! their threads when the last one arrives; a grid barrier waits for every
//! block.
//!
//! A delay ([`DelayPoint`], taken in the list's order) stops its thread
//! before that atomic access: the block's other threads run first (seed
//! 003's NXTTIDCSDEL), and the delayed thread goes on once one of them
//! changed memory; when none is left that does, the next block runs
//! (NXTBIDCS; a new one if the grid has more), and the delayed thread goes
//! on when the schedule comes back to its block after a change. (Seed 003
//! resumes the thread after its block's other threads even when they
//! changed nothing; with hundreds of idle threads per block that would
//! make most delays no-ops.) A thread spinning in an await loop that
//! changed nothing yields the same way (`warpsafe_interp::spin`); when no
//! thread can change memory any more, delayed threads go on and spinning
//! ones hang. Blocks are created when the schedule first reaches them
//! and freed when they end, so memory stays proportional to the blocks
//! running at once.
//!
//! Invariant: a run is deterministic given the kernel, the launch and the
//! delay list (replay tokens rely on it).

use crate::barrier::{divergence, release_block, release_group};
use crate::delay::{Conflicts, DelayPoint};
use crate::finding::{Cut, Finding, Warning};
use crate::memory::Memory;
use crate::perform::{is_atomic, Cx, Performed, Report, Slot, SlotState};
use crate::SchedError;
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;
use std::time::Instant;
use warpsafe_interp::{Barrier, FaultKind, Launch, Step, Thread, ThreadConfig, ThreadCtx, Value};
use warpsafe_ir::Kernel;
use warpsafe_mc::{Loc, ThreadId};

/// Limits of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunConfig {
    /// Interpreter steps per thread before the run is cut.
    pub max_steps: u64,
    /// The largest launch (threads in all).
    pub max_threads: u64,
    /// Distinct errors (and warnings) kept per run.
    pub max_findings: usize,
    /// When a run stops with [`Cut::TimedOut`] (and the threads' set-up
    /// gives up).
    pub deadline: Option<Instant>,
}

impl Default for RunConfig {
    fn default() -> RunConfig {
        RunConfig {
            max_steps: 100_000_000,
            max_threads: 1 << 24,
            max_findings: 100,
            deadline: None,
        }
    }
}

/// What one schedule did.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// The delay list it ran with.
    pub delays: Vec<DelayPoint>,
    /// How many of them it reached and took.
    pub delays_taken: usize,
    pub findings: Vec<Finding>,
    pub warnings: Vec<Warning>,
    /// Why it stopped before every thread ended, if it did.
    pub cut: Option<Cut>,
    /// Every global location written, with its final value.
    pub final_memory: BTreeMap<Loc, Value>,
    /// Delay points for longer lists: conflicts among the atomic accesses
    /// after the last delay (empty unless every delay was taken).
    pub conflicts: Vec<DelayPoint>,
    /// Shared-memory events performed.
    pub events: u64,
    /// Interpreter steps of all threads.
    pub steps: u64,
}

/// A kernel and a launch ready to run schedules.
pub struct Launched<'k> {
    kernel: &'k Kernel,
    launch: Arc<Launch>,
    /// Thread (0, 0) at its start: the others are its siblings, sharing
    /// its kernel analyses.
    template: Thread<'k>,
    config: RunConfig,
}

impl<'k> Launched<'k> {
    pub fn new(kernel: &'k Kernel, launch: &Launch, config: RunConfig) -> Result<Self, SchedError> {
        let threads = launch.threads();
        if threads > config.max_threads || threads > u64::from(u32::MAX) {
            return Err(SchedError::TooManyThreads {
                threads,
                limit: config.max_threads,
            });
        }
        let launch = Arc::new(launch.clone());
        let thread_config = ThreadConfig {
            max_steps: config.max_steps,
            loop_bound: None,
            spin_assume: true,
            spin_yield: true,
            // A delay between two reads of one iteration would let memory
            // change before the yield, unseen by the first read.
            quiet_reads: false,
            idle_updates_read: warpsafe_mc::scope::atomics_include_every_thread(
                kernel,
                launch.blocks(),
                launch.threads_per_block(),
            ),
            setup_deadline: config.deadline,
            ..ThreadConfig::default()
        };
        let ctx = ThreadCtx::new(launch.clone(), [0; 3], [0; 3]);
        let template =
            Thread::new(kernel, ctx, thread_config).map_err(|error| SchedError::Setup {
                thread: ThreadId {
                    block: 0,
                    thread: 0,
                },
                error,
            })?;
        Ok(Launched {
            kernel,
            launch,
            template,
            config,
        })
    }

    pub fn kernel(&self) -> &'k Kernel {
        self.kernel
    }

    pub fn launch(&self) -> &Launch {
        &self.launch
    }

    /// Runs the schedule of `delays`.
    pub fn run(&self, delays: &[DelayPoint]) -> Result<Run, SchedError> {
        Scheduler::new(self, delays).run()
    }
}

/// A block that started.
pub(crate) struct BlockRun<'k> {
    pub slots: Vec<Slot<'k>>,
    /// Threads to run, in order.
    pub queue: VecDeque<usize>,
    /// Block barriers completed.
    pub epoch: u32,
    /// Every thread that has not ended waits at a grid barrier.
    pub at_grid: bool,
}

struct Scheduler<'a, 'k> {
    l: &'a Launched<'k>,
    delays: &'a [DelayPoint],
    taken: usize,
    active: VecDeque<BlockRun<'k>>,
    next_block: u64,
    grid_epoch: u32,
    mem: Memory<'k>,
    report: Report,
    conflicts: Conflicts,
    cut: Option<Cut>,
    events: u64,
    steps: u64,
    /// Threads of the grid that ended (for grid barriers).
    ended: u64,
    /// Blocks passed over in a row because their threads only spin.
    stalls: usize,
}

/// How a thread's turn ended.
enum Turn {
    /// At a barrier, ended, or cut: the block goes on with its next thread.
    Stopped,
    /// Delayed before an atomic access.
    Delayed,
    /// Spinning without effect.
    Yielded,
}

impl<'a, 'k> Scheduler<'a, 'k> {
    fn new(l: &'a Launched<'k>, delays: &'a [DelayPoint]) -> Self {
        Scheduler {
            l,
            delays,
            taken: 0,
            active: VecDeque::new(),
            next_block: 0,
            grid_epoch: 0,
            mem: Memory::new(l.kernel),
            report: Report::new(l.config.max_findings),
            conflicts: Conflicts::default(),
            cut: None,
            events: 0,
            steps: 0,
            ended: 0,
            stalls: 0,
        }
    }

    fn run(mut self) -> Result<Run, SchedError> {
        while self.cut.is_none() {
            if self.l.config.deadline.is_some_and(|d| Instant::now() >= d) {
                self.cut = Some(Cut::TimedOut);
                break;
            }
            if !self.advance()? {
                break;
            }
        }
        for b in &self.active {
            for s in &b.slots {
                self.steps += s.thread.steps();
            }
        }
        let conflicts = if self.taken == self.delays.len() {
            std::mem::take(&mut self.conflicts).into_points()
        } else {
            Vec::new()
        };
        Ok(Run {
            delays: self.delays.to_vec(),
            delays_taken: self.taken,
            findings: self.report.findings,
            warnings: self.report.warnings,
            cut: self.cut,
            final_memory: self.mem.final_global(),
            conflicts,
            events: self.events,
            steps: self.steps,
        })
    }

    /// One scheduling decision; `false` when the run is over.
    fn advance(&mut self) -> Result<bool, SchedError> {
        let blocks = self.l.launch.blocks();
        let Some(front) = self.active.front_mut() else {
            if self.next_block < blocks {
                self.start_block()?;
                return Ok(true);
            }
            return Ok(false);
        };
        if front.at_grid {
            if self.active.iter().all(|b| b.at_grid) {
                if self.next_block < blocks {
                    self.start_block()?;
                } else {
                    self.release_grid();
                }
            } else {
                self.active.rotate_left(1);
            }
            return Ok(true);
        }
        let changes = self.mem.changes;
        let stalled = !front.queue.is_empty()
            && front
                .queue
                .iter()
                .all(|&i| front.slots[i].yielded_at == Some(changes));
        if stalled {
            self.stalls += 1;
            if self.stalls > self.active.len() + 1 {
                // No block can change memory. Delayed threads go on (a
                // delay is no reason to hang); spinning ones hang.
                if self.resume_delayed() {
                    self.stalls = 0;
                    return Ok(true);
                }
                self.hang();
                return Ok(false);
            }
            self.switch_block()?;
            return Ok(true);
        }
        match front.queue.pop_front() {
            Some(i) => {
                let turn = self.turn(i)?;
                let changes = self.mem.changes;
                let front = self.front();
                match turn {
                    Turn::Stopped => {}
                    Turn::Yielded | Turn::Delayed => {
                        // Runs again once another thread changed memory.
                        let slot = &mut front.slots[i];
                        slot.yielded_at = Some(changes);
                        slot.delayed = matches!(turn, Turn::Delayed);
                        front.queue.push_back(i);
                    }
                }
                Ok(true)
            }
            None => {
                self.barrier_or_end();
                Ok(true)
            }
        }
    }

    /// Lets every delayed thread run again; whether there was one.
    fn resume_delayed(&mut self) -> bool {
        let mut any = false;
        for b in &mut self.active {
            for s in &mut b.slots {
                if s.delayed {
                    s.delayed = false;
                    s.yielded_at = None;
                    any = true;
                }
            }
        }
        any
    }

    fn front(&mut self) -> &mut BlockRun<'k> {
        self.active
            .front_mut()
            .expect("the scheduler only runs threads of the front block")
    }

    /// Starts the next block in the grid's order, at the front: it runs
    /// next.
    fn start_block(&mut self) -> Result<(), SchedError> {
        let launch = &self.l.launch;
        let b = self.next_block;
        self.next_block += 1;
        let tpb = launch.threads_per_block();
        let mut slots = Vec::with_capacity(tpb as usize);
        for t in 0..tpb {
            let id = ThreadId {
                block: b as u32,
                thread: t as u32,
            };
            let ctx = ThreadCtx::at_linear(launch.clone(), b, t);
            let thread = self
                .l
                .template
                .sibling(ctx)
                .map_err(|error| SchedError::Setup { thread: id, error })?;
            slots.push(Slot {
                thread,
                id,
                linear: (b * tpb + t) as u32,
                state: SlotState::Running,
                atomics: 0,
                clock: Default::default(),
                fence_release: None,
                pending_acquire: Vec::new(),
                yielded_at: None,
                delayed: false,
            });
        }
        self.active.push_front(BlockRun {
            queue: (0..slots.len()).collect(),
            slots,
            epoch: 0,
            at_grid: false,
        });
        Ok(())
    }

    /// The front block cannot go on now: another block runs (a new one
    /// when the grid has more).
    fn switch_block(&mut self) -> Result<(), SchedError> {
        if self.next_block < self.l.launch.blocks() {
            let front = self.active.pop_front().expect("switching from a block");
            self.start_block()?;
            self.active.insert(1, front);
        } else {
            self.active.rotate_left(1);
        }
        Ok(())
    }

    /// Runs thread `i` of the front block until it stops, is delayed or
    /// yields.
    fn turn(&mut self, i: usize) -> Result<Turn, SchedError> {
        let Scheduler {
            l,
            delays,
            taken,
            active,
            grid_epoch,
            mem,
            report,
            conflicts,
            cut,
            events,
            ended,
            stalls,
            ..
        } = self;
        let block = active.front_mut().expect("a turn runs in the front block");
        let block_epoch = block.epoch;
        let slot = &mut block.slots[i];
        slot.delayed = false;
        // Running clears an earlier yield: a thread that yielded, ran on
        // once memory changed and then waits at a warp or tile barrier
        // must not look stalled when released (a delayed thread whose
        // atomics changed nothing was reported as a hang).
        slot.yielded_at = None;
        loop {
            let ev = match std::mem::replace(&mut slot.state, SlotState::Running) {
                SlotState::Pending(ev) => ev,
                SlotState::Running => match slot.thread.step() {
                    Ok(Step::Event(ev)) => {
                        let delay = DelayPoint {
                            thread: slot.linear,
                            op: slot.atomics,
                        };
                        if is_atomic(&ev.kind) && delays.get(*taken) == Some(&delay) {
                            *taken += 1;
                            slot.state = SlotState::Pending(ev);
                            return Ok(Turn::Delayed);
                        }
                        ev
                    }
                    Ok(Step::Yield { .. }) => return Ok(Turn::Yielded),
                    Ok(Step::Done) => {
                        slot.state = SlotState::Ended { failed: false };
                        *ended += 1;
                        *stalls = 0;
                        return Ok(Turn::Stopped);
                    }
                    Ok(Step::AssertionFailed { message, span }) => {
                        report.add(Finding::Assertion {
                            thread: slot.id,
                            message,
                            span,
                        });
                        slot.state = SlotState::Ended { failed: true };
                        *ended += 1;
                        return Ok(Turn::Stopped);
                    }
                    Ok(Step::Infeasible { span }) => {
                        *cut = Some(Cut::Infeasible {
                            thread: slot.id,
                            span,
                        });
                        return Ok(Turn::Stopped);
                    }
                    Ok(Step::Blocked { reason, span }) => {
                        return Err(SchedError::Internal(format!(
                            "thread {} blocked ({reason:?}) at {span:?} with yields on",
                            slot.id
                        )))
                    }
                    Err(fault) => {
                        if let FaultKind::StepLimit { limit } = fault.kind {
                            *cut = Some(Cut::StepLimit {
                                thread: slot.id,
                                limit,
                                span: fault.span,
                            });
                        } else if fault.is_malformed_ir() {
                            return Err(SchedError::MalformedIr {
                                thread: slot.id,
                                fault,
                            });
                        } else {
                            report.add(Finding::Fault {
                                thread: slot.id,
                                fault,
                            });
                            slot.state = SlotState::Ended { failed: true };
                            *ended += 1;
                        }
                        return Ok(Turn::Stopped);
                    }
                },
                other => {
                    slot.state = other;
                    return Err(SchedError::Internal(format!(
                        "thread {} scheduled while not running",
                        slot.id
                    )));
                }
            };
            *events += 1;
            *stalls = 0;
            let record = *taken == delays.len();
            let mut cx = Cx {
                kernel: l.kernel,
                launch: &l.launch,
                mem,
                report,
                conflicts: record.then_some(&mut *conflicts),
                block_epoch,
                grid_epoch: *grid_epoch,
            };
            match slot.perform(ev, &mut cx)? {
                Performed::Continue => {}
                Performed::Ended => {
                    *ended += 1;
                    return Ok(Turn::Stopped);
                }
                Performed::Arrived(arrival) => {
                    let barrier = arrival.barrier;
                    slot.state = SlotState::AtBarrier(arrival);
                    if matches!(barrier, Barrier::Warp { .. } | Barrier::Tile { .. }) {
                        release_group(block, i);
                    }
                    return Ok(Turn::Stopped);
                }
            }
        }
    }

    /// The front block has no thread to run: release its barrier, wait
    /// for the grid, or end it.
    fn barrier_or_end(&mut self) {
        let block = self.front();
        let waiting: Vec<usize> = (0..block.slots.len())
            .filter(|&i| !matches!(block.slots[i].state, SlotState::Ended { .. }))
            .collect();
        if waiting.is_empty() {
            let b = self.active.pop_front().expect("the front block ended");
            for s in &b.slots {
                self.steps += s.thread.steps();
            }
            return;
        }
        let arrival = |i: usize| match &block.slots[i].state {
            SlotState::AtBarrier(a) => Some(a),
            _ => None,
        };
        let first = arrival(waiting[0]).cloned();
        let all_at = |kind: fn(&Barrier) -> bool| {
            waiting
                .iter()
                .all(|&i| arrival(i).is_some_and(|a| kind(&a.barrier)))
        };
        if waiting.len() == block.slots.len() && all_at(|b| *b == Barrier::Block) {
            let first = first.expect("every waiting thread is at a barrier");
            let other = waiting.iter().find_map(|&i| {
                let a = arrival(i)?;
                (a.site != first.site || a.iterations != first.iterations).then_some((i, a.span))
            });
            match other {
                None => release_block(block),
                Some((i, span)) => {
                    let id = block.slots[i].id;
                    self.diverge(first.span, Some(span), vec![id]);
                }
            }
            return;
        }
        if all_at(|b| *b == Barrier::Grid) {
            block.at_grid = true;
            return;
        }
        // Threads wait at a barrier that others never reach.
        let failed = block
            .slots
            .iter()
            .any(|s| matches!(s.state, SlotState::Ended { failed: true }));
        let (span, other, missing) = divergence(block, &waiting);
        if failed {
            // The block's error explains it: no divergence of its own.
            self.end_front();
        } else {
            self.diverge(span, other, missing);
        }
    }

    /// Reports barrier divergence in the front block and ends it.
    fn diverge(
        &mut self,
        span: warpsafe_ir::Span,
        other: Option<warpsafe_ir::Span>,
        missing: Vec<ThreadId>,
    ) {
        let block = self.front();
        let waiting = block
            .slots
            .iter()
            .filter(|s| matches!(&s.state, SlotState::AtBarrier(a) if a.span == span))
            .map(|s| s.id)
            .collect();
        self.report.add(Finding::Divergence {
            span,
            waiting,
            missing,
            other,
        });
        self.end_front();
    }

    /// Ends every thread of the front block.
    fn end_front(&mut self) {
        let b = self.active.pop_front().expect("ending the front block");
        for s in &b.slots {
            self.steps += s.thread.steps();
            if !matches!(s.state, SlotState::Ended { .. }) {
                self.ended += 1;
            }
        }
    }

    /// Every block waits at a grid barrier.
    fn release_grid(&mut self) {
        if self.ended > 0 {
            // Threads that ended never arrive.
            let block = self.front();
            let span = block
                .slots
                .iter()
                .find_map(|s| match &s.state {
                    SlotState::AtBarrier(a) => Some(a.span),
                    _ => None,
                })
                .expect("a block at the grid barrier has a waiting thread");
            let failed = self
                .active
                .iter()
                .flat_map(|b| &b.slots)
                .any(|s| matches!(s.state, SlotState::Ended { failed: true }));
            if !failed {
                self.report.add(Finding::Divergence {
                    span,
                    waiting: Vec::new(),
                    missing: Vec::new(),
                    other: None,
                });
            }
            while !self.active.is_empty() {
                self.end_front();
            }
            return;
        }
        self.grid_epoch += 1;
        for b in &mut self.active {
            b.at_grid = false;
            for (i, s) in b.slots.iter_mut().enumerate() {
                if matches!(s.state, SlotState::AtBarrier(_)) {
                    s.state = SlotState::Running;
                    b.queue.push_back(i);
                }
            }
        }
    }

    /// Every thread that can run only spins: they hang.
    fn hang(&mut self) {
        let mut threads = Vec::new();
        for b in &self.active {
            for &i in &b.queue {
                threads.push((b.slots[i].id, b.slots[i].thread.span()));
            }
        }
        if let Some(&(_, span)) = threads.first() {
            self.report.add(Finding::Hang { span, threads });
        }
        while !self.active.is_empty() {
            self.end_front();
        }
    }
}
