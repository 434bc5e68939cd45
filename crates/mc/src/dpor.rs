//! The DPOR explorer (seed 000 §4, GPUMC; an extension of GenMC's TruSt,
//! Kokologiannakis et al., POPL 2022): every consistent execution of one
//! concrete launch, each produced once, without enumerating interleavings.
//!
//! # Algorithm
//!
//! One partial graph is extended one event at a time. The next event is the
//! pending event of the *lowest* thread that can run (a function of the
//! graph alone, since threads are deterministic given what they read).
//! Every state also records the *insertion order* `<` of its events (a
//! stamp per event) and, per read, whether it is still *revisitable*.
//!
//! - A **read** branches over every write to its location (and the initial
//!   value); an **RMW/CAS** likewise, an update being placed in `co` right
//!   after its source (the only placement (Atomicity) allows; an update is
//!   one event, see [`crate::graph`]).
//! - A **write** branches over every `co` position (forward), and over the
//!   **backward revisits**: every revisitable read `r` of its location that
//!   is not in the `porf`-prefix of the write `a` (the prefix is closed
//!   under `po`, `rf` and barrier instances; an update's source is in it)
//!   may read from `a`. *Deleted* are the events added after `r` that are
//!   not in `porf(a)`; the graph is restricted to the others, `r` is
//!   re-executed reading from `a` (keeping its place in `<`, as in TruSt),
//!   and `a` is placed at every `co` position of the restricted graph. The
//!   reads of `porf(a)`, and `a` itself when it is an update, become
//!   non-revisitable (otherwise two revisit orders would build one graph).
//!   When `r` is (or becomes) an update, its new write revisits in turn,
//!   as the write part of a two-event RMW would once re-added (TruSt and
//!   GenMC split an RMW into a read and a write; here it is one event).
//! - **Optimality**: a revisit happens only when `r` and every deleted
//!   event `e` is *maximally added* (TruSt's `IsMaximallyAdded`): with `E'`
//!   the events up to `e` in `<` plus `porf(a)`, a read (or update) `e` is
//!   revisitable and reads from a write of `E'` (or the initial value) that
//!   is `co`-maximal among the writes of `E'` other than `a` and `e`, and a
//!   write `e` is `co`-maximal among them. The graph revisited from is then
//!   the unique maximal extension of the result, so every graph has one
//!   predecessor and is produced once.
//! - Every successor is checked **incrementally** ([`coherence`]): it is a
//!   consistent graph plus one `po`-last, `hb`-maximal event (and a `co`
//!   placement), so only what that event can break is checked: (Coherence)
//!   as "`co`-after everything `hb`-before it", (Atomicity) as "splits no
//!   update from its source", (No-Thin-Air) holds by construction, and (SC)
//!   is recomputed ([`sc`]) only when the graph has `seq_cst` events, over
//!   the threads with atomics, fences or barriers. A read tries only the
//!   sources at or above its coherence floor, one floor per read; a
//!   successor that breaks (Coherence) is not even built, and neither are
//!   the revisits it would make (they keep the witness). Revisits are
//!   tried from a write whatever its forward placements gave, and from an
//!   update whose placement breaks only (Atomicity) (a restriction can
//!   repair that); those revisits are checked with
//!   [`crate::consistency::check`] in full. Barriers block a thread until
//!   every participant arrived, as in [`crate::reference`]; a restriction
//!   that removes an arrival puts the other participants back at the
//!   barrier.
//! - Threads that interact are counted as the exploration goes
//!   ([`active`]): a launch may be large (`max_threads`) as long as few of
//!   its threads interact (`max_active_threads`).
//! - Every event carries vector clocks ([`views`]): its `hb`-predecessors
//!   and its `porf`-prefix per thread, computed once when it is added. They
//!   give `hb` for the checks and for races, and the revisits' prefixes.
//! - States share everything that does not change ([`state`]): events are
//!   immutable `Arc` nodes; thread interpreters, per-thread event lists and
//!   `co` lists are copied on change. A thread's state is restored from the
//!   snapshot its event keeps, so restricting a graph never re-runs
//!   threads from their start.
//! - A complete state is handed to the observer as a public
//!   [`crate::Execution`]; its races come from the views, and only at
//!   locations where two kinds of access seen in the exploration may race
//!   (plain, or atomics whose scopes do not include each other). One with
//!   nothing to report (no race, failed assertion, fault, divergent or
//!   mismatched barrier, or hang: what [`crate::findings`] would find in
//!   it, judged on the state) is only counted, as complete or cut, when
//!   the observer does not need it whole ([`run`]; debug builds build it
//!   anyway and check that it has no finding).
//!
//! Evidence: `tests/dpor.rs` checks, against [`crate::reference`], the
//! same set of graphs (hence counts and outcomes) and no graph twice, on
//! every litmus kernel and on random programs of two to four threads
//! (atomics of both scopes, exchanges, CAS, `atomicAdd`, plain accesses,
//! fences, barriers), and LB-n has `2^n - 1` executions. In debug builds
//! (the tests), every successor's incremental verdict, whether kept or
//! dropped, every event's `hb` view and every execution's races are
//! checked against [`crate::consistency`] and [`crate::races`].
//!
//! Cost: memory is the work stack, a few states per event of the longest
//! execution, each sharing its events; time per state is polynomial (the
//! checks and revisit conditions scan the graph). `benches/lb.rs` measures
//! LB-n and SB-n.
//!
//! - A thread **stopped in a loop** (the loop bound, or spin-assume's
//!   wasted await iteration, `warpsafe_interp::spin`) or at a failed
//!   `__assume` after it read memory stays in the state with no next event
//!   (GenMC's blocked threads): later writes may still revisit its reads,
//!   which is how the read that ends the wait is explored. At the end, an
//!   execution with a failed `__assume` is dropped (`pruned_infeasible`);
//!   one with a thread stopped in a loop is reported as cut
//!   ([`crate::Execution::cut`]).
//!
//! The work list is an explicit stack (no recursion; [`run`]). Executions,
//! races, assertion failures, faults and blocked threads are reported as
//! [`crate::reference::explore`] reports them; `states` counts the
//! consistent partial graphs pushed.
//!
//! - **Several cores** ([`explore_forked`], [`parallel`]): workers explore
//!   segments of the work stack, giving away the bottom half of theirs
//!   while another waits, and hand their executions to their own part of
//!   a [`Forkable`] observer; the parts are joined in the one-core order,
//!   so the observer ends as on one core. States are `Send` (`Arc`, not
//!   `Rc`), which costs about 5-10% on one core.
//!
//! # Limitations
//!
//! - `co` is explicit (executions are graphs with `co`, as the reference
//!   enumerator counts them), not the reads-from partitioning of §4.4.
//! - The maximality conditions are TruSt's for RC11, applied to SRC11
//!   unchanged; no scope-specific revisit condition was needed on the tests
//!   (the paper's remark about `co` orders that only scopes make consistent
//!   is covered by trying every `co` placement of the revisiting write).
//! - An RMW whose operation faults (an ill-typed atomic) is assumed to
//!   fault whatever value it reads (true of [`warpsafe_interp::apply_rmw`]
//!   today: its faults depend on the type only); a revisit that would make a
//!   read fault is dropped.
//! - Unknown values (`Havoc`) are not supported (an error).
//! - (SC) is recomputed over the whole graph (bit matrices over its
//!   events) for every successor of a graph with `seq_cst` events, so such
//!   programs explore several times slower per execution than relaxed or
//!   acquire/release ones.
//! - Every execution with something to report, and every one when the
//!   observer asks ([`Observer::needs_clean`]: `--outcomes`, tests), is
//!   handed over as a full [`crate::Execution`] (its graph, final memory
//!   and races as maps and vectors); building and dropping one costs
//!   about as much as exploring it on LB-n. The others are only counted.

mod active;
mod coherence;
mod parallel;
mod run;
mod sc;
mod state;
mod views;

use crate::consistency::{self, Relations};
use crate::graph::{BarrierInstance, Event, EventId, Kind, Loc, RfSource};
use crate::grid::{complete_read, reinterpret, status_after, BarrierSite, Grid, Pending, Status};
use crate::observe::{Forkable, Observer, Stats};
use crate::races::{self, Race};
use crate::reference::{Config, Exploration, McError};
use state::{Lane, Node, Slot, State};
use std::collections::HashMap;
use std::sync::Arc;
use warpsafe_interp::{EventKind, Fault, FaultKind, Launch, Thread, Value};
use warpsafe_ir::{Kernel, ScalarTy};

/// A read-like event ready to be added, or the fault it raises.
enum ReadPlan {
    /// The event and the value it returns to its thread.
    Event(Event, Value),
    Fault(FaultKind),
}

/// What an added read (or update) is and what its graph breaks.
struct Verdict {
    /// (Coherence) holds for the new event. When it fails, so does every
    /// graph a revisit by that event builds (the witness is in its `porf`
    /// prefix and keeps its `co` order), so nothing is explored from it.
    coherent: bool,
    /// (Atomicity) holds for the new event's `co` placement.
    atomic: bool,
}

#[derive(Clone)]
struct Explorer<'k> {
    grid: Grid<'k>,
    config: Config,
    out: Stats,
    /// Interned locations, with their initial values (an array's slots
    /// have types, so the initial value does not depend on the access).
    locs: Vec<(Loc, Value)>,
    loc_ids: HashMap<Loc, usize>,
    /// The indices of `locs` in the order of their locations.
    sorted_locs: Vec<usize>,
    /// Per interned location, one access of every kind seen there in the
    /// whole exploration (thread, write or not, atomic or not, scope).
    access_kinds: Vec<Vec<Event>>,
    /// Per interned location, whether two of those kinds may race: when
    /// none may, no execution has a race there and none is looked for.
    racy: Vec<bool>,
    /// The threads that interact (`--max-active-threads`).
    active: active::Active,
}

/// Explores every consistent execution of `kernel` under `launch` once, by
/// DPOR (see the module docs), and keeps them all.
pub fn explore(kernel: &Kernel, launch: &Launch, config: &Config) -> Result<Exploration, McError> {
    Exploration::collect(|observer| explore_with(kernel, launch, config, observer))
}

/// Explores every consistent execution of `kernel` under `launch` once, by
/// DPOR, handing each to `observer` until it says stop (on one core).
pub fn explore_with(
    kernel: &Kernel,
    launch: &Launch,
    config: &Config,
    observer: &mut dyn Observer,
) -> Result<Stats, McError> {
    let Some((mut ex, state)) = start(kernel, launch, config)? else {
        return Ok(NO_START);
    };
    let mut sink = run::Direct::new(observer, config.max_executions, config.max_states);
    ex.out.states = 1;
    ex.run(vec![state], &mut sink)?;
    Ok(ex.out)
}

/// As [`explore_with`], on `config.jobs` cores when there are more than
/// one ([`parallel`]): every worker hands its executions to its own part
/// of `observer`, and the parts are joined in the one-core order, so
/// `observer` ends as [`explore_with`] leaves it.
pub fn explore_forked<O: Forkable>(
    kernel: &Kernel,
    launch: &Launch,
    config: &Config,
    observer: &mut O,
) -> Result<Stats, McError> {
    if config.jobs <= 1 {
        return explore_with(kernel, launch, config, observer);
    }
    let Some((ex, state)) = start(kernel, launch, config)? else {
        return Ok(NO_START);
    };
    parallel::run(ex, state, observer)
}

/// The counters of an exploration whose start failed an `__assume`.
const NO_START: Stats = Stats {
    executions: 0,
    cut: 0,
    bounded: 0,
    states: 0,
    pruned_inconsistent: 0,
    pruned_infeasible: 1,
    stopped: false,
};

/// The explorer and the initial state (every thread run to its first
/// event), or `None` when an `__assume` fails before any thread reads
/// memory (no execution at all).
fn start<'k>(
    kernel: &'k Kernel,
    launch: &Launch,
    config: &Config,
) -> Result<Option<(Explorer<'k>, State<'k>)>, McError> {
    let (grid, threads) = Grid::start(kernel, launch, config)?;
    let n = grid.ids.len();
    let mut ex = Explorer {
        grid,
        config: *config,
        out: Stats::default(),
        locs: Vec::new(),
        loc_ids: HashMap::new(),
        sorted_locs: Vec::new(),
        access_kinds: Vec::new(),
        racy: Vec::new(),
        active: active::Active::new(n),
    };
    let mut state = State {
        lanes: threads
            .into_iter()
            .map(|thread| {
                Arc::new(Lane {
                    thread: Arc::new(thread),
                    status: Status::Done,
                    fault_loc: None,
                })
            })
            .collect(),
        events: vec![Arc::default(); n],
        co: Vec::new(),
        next_stamp: 0,
        sc_events: 0,
    };
    for t in 0..n {
        if !ex.advance(&mut state, t)? {
            return Ok(None);
        }
    }
    Ok(Some((ex, state)))
}

impl<'k> Explorer<'k> {
    /// Keeps `s` when its graph is consistent: `ok` says whether
    /// (Coherence) and (Atomicity) hold (see [`coherence`]); (SC) is
    /// checked here when the graph has `seq_cst` events. `new`: the one
    /// event a forward step added to a kept (so consistent) state, through
    /// which any new `psc` cycle must pass ([`sc::consistent`]); `None`
    /// for a revisit's state, checked whole.
    fn keep(&mut self, s: State<'k>, ok: bool, new: Option<EventId>, out: &mut Vec<State<'k>>) {
        let ok = ok && (s.sc_events == 0 || sc::consistent(&s, new));
        self.verify(&s, ok);
        if ok {
            out.push(s);
        } else {
            self.out.pruned_inconsistent += 1;
        }
    }

    /// Debug builds: the incremental verdict `ok` on `s` is the reference
    /// checker's, and the events' `hb` views are its `hb` (for states of at
    /// most [`VERIFY_MAX_EVENTS`] events: the reference checker is cubic).
    fn verify(&self, s: &State<'k>, ok: bool) {
        if cfg!(debug_assertions) && verifiable(s) {
            debug_assert!(well_formed(s), "{}", dump(s));
            let g = s.to_graph(&self.grid.ids, &self.locs, &self.sorted_locs);
            let full = consistency::check(&g, self.config.model);
            assert_eq!(ok, full.is_ok(), "{full:?}\n{}", dump(s));
            if ok {
                let rel = Relations::new(&g, self.config.model);
                for x in s.nodes() {
                    for y in s.nodes() {
                        assert_eq!(
                            y.hb_after(x.event.id),
                            rel.hb(x.event.id, y.event.id),
                            "hb {:?} {:?}\n{}",
                            x.event.id,
                            y.event.id,
                            dump(s)
                        );
                    }
                }
            }
        }
    }

    /// Counts a successor dropped before it was built (its graph breaks
    /// (Coherence)); debug builds build it and check that it does.
    fn drop_incoherent(
        &mut self,
        build: impl FnOnce(&mut Self) -> Result<Option<State<'k>>, McError>,
    ) -> Result<(), McError> {
        self.out.pruned_inconsistent += 1;
        self.skip_incoherent(build)
    }

    /// A successor never considered: a read from, or a write placed
    /// before, a write that is `co`-before one `hb`-before the new event
    /// (below [`coherence::co_floor`]). Not counted as pruned (it is not
    /// tried); debug builds build it and check that it breaks (Coherence).
    fn skip_incoherent(
        &mut self,
        build: impl FnOnce(&mut Self) -> Result<Option<State<'k>>, McError>,
    ) -> Result<(), McError> {
        if cfg!(debug_assertions) {
            if let Some(s) = build(self)? {
                self.verify(&s, false);
            }
        }
        Ok(())
    }
}

/// Debug builds check states of at most this many events against the
/// reference consistency checker (random tests and litmus kernels stay far
/// below; a straight-line kernel of 800 events would take hours).
const VERIFY_MAX_EVENTS: usize = 96;

fn verifiable(s: &State<'_>) -> bool {
    s.events.iter().map(|t| t.len()).sum::<usize>() <= VERIFY_MAX_EVENTS
}

impl<'k> Explorer<'k> {
    /// The interned index of `loc` (first seen as `ty`).
    fn intern(&mut self, loc: Loc, ty: ScalarTy) -> usize {
        if let Some(i) = self.loc_ids.get(&loc) {
            return *i;
        }
        let i = self.locs.len();
        self.locs.push((loc, self.grid.init_value(loc, ty)));
        self.loc_ids.insert(loc, i);
        let at = self.sorted_locs.partition_point(|j| self.locs[*j].0 < loc);
        self.sorted_locs.insert(at, i);
        self.access_kinds.push(Vec::new());
        self.racy.push(false);
        i
    }

    /// Records the kind of access `e` at interned location `loc`.
    fn note_access(&mut self, e: &Event, loc: usize) {
        let kinds = &mut self.access_kinds[loc];
        let same = |k: &Event| {
            k.id.thread == e.id.thread
                && k.is_write() == e.is_write()
                && k.is_atomic() == e.is_atomic()
                && k.scope == e.scope
        };
        if kinds.iter().any(same) {
            return;
        }
        if kinds.iter().any(|k| races::may_race(k, e)) {
            self.racy[loc] = true;
        }
        kinds.push(e.clone());
    }

    /// The races of a complete state (see [`Explorer::racy`]).
    fn races_of(&self, s: &State<'k>) -> Vec<Race> {
        if !self.racy.iter().any(|r| *r) {
            return Vec::new();
        }
        let mut accesses: Vec<(usize, &Event)> = s
            .nodes()
            .filter_map(|n| n.loc.filter(|l| self.racy[*l]).map(|l| (l, &n.event)))
            .collect();
        accesses.sort_by_key(|(l, e)| (*l, e.id));
        let hb = |a: EventId, b: EventId| s.node(b).hb_after(a);
        let mut out = Vec::new();
        let mut group = Vec::new();
        for chunk in accesses.chunk_by(|a, b| a.0 == b.0) {
            group.clear();
            group.extend(chunk.iter().map(|(_, e)| *e));
            races::races_at(&group, &hb, &mut out);
        }
        out.sort_by_key(|r| (r.first.event, r.second.event));
        out
    }

    /// Runs thread `t` to its next event; `false` when an `__assume` fails.
    fn advance(&mut self, state: &mut State<'k>, t: usize) -> Result<bool, McError> {
        let lane = Arc::make_mut(&mut state.lanes[t]);
        let status = status_after(Arc::make_mut(&mut lane.thread).step(), self.grid.ids[t])?;
        // After a failed `__assume`: when nothing the thread read can
        // change, no execution continues this one. Otherwise a later write
        // may revisit one of its reads, so the state stays until its end.
        if matches!(status, Status::Infeasible)
            && !state.events[t].iter().any(|s| s.node.event.is_read())
        {
            self.out.pruned_infeasible += 1;
            return Ok(false);
        }
        lane.status = status;
        Ok(true)
    }

    /// Thread `t`'s pending load, RMW or CAS as a plain read of its
    /// location ([`Grid::pending`]), that location and the type it reads
    /// at.
    fn read_target(&self, s: &State<'k>, t: usize) -> Result<(Event, Loc, ScalarTy), McError> {
        let lane = &s.lanes[t];
        let Status::Ready(ev) = &lane.status else {
            return Err(McError::Internal("no pending read".into()));
        };
        match self.grid.pending(t, s.next_id(t), &lane.thread, ev)? {
            Pending::Read { event, loc, ty } => Ok((event, loc, ty)),
            _ => Err(McError::Internal("the pending event is no read".into())),
        }
    }

    /// Appends `e` (thread `t`'s pending event) with its views; `stamp`
    /// is its place in the insertion order (a fresh one when `None`).
    #[allow(clippy::too_many_arguments)]
    fn push_node(
        &mut self,
        s: &mut State<'k>,
        e: Event,
        loc: Option<usize>,
        rf: Option<RfSource>,
        views: (Box<[u32]>, Box<[u32]>),
        stamp: Option<u64>,
        revisitable: bool,
    ) {
        let t = e.id.thread;
        let Status::Ready(ev) = &s.lanes[t].status else {
            unreachable!("only ready threads perform events");
        };
        let ev = ev.clone();
        if let Some(l) = loc {
            self.note_access(&e, l);
        }
        self.active.note(&e, loc);
        let stamp = stamp.unwrap_or_else(|| s.stamp());
        if e.kind != Kind::Barrier && e.order.is_sc() {
            s.sc_events += 1;
        }
        let node = Node {
            event: e,
            loc,
            rf,
            stamp,
            pre: s.lanes[t].thread.clone(),
            ev,
            hb: views.0,
            porf: views.1,
        };
        s.thread_mut(t).push(Slot {
            node: Arc::new(node),
            revisitable,
        });
    }

    /// The value `src` provides at `loc`.
    fn value(&self, s: &State<'k>, loc: usize, src: RfSource) -> Result<Value, McError> {
        match src {
            RfSource::Init => Ok(self.locs[loc].1),
            RfSource::Write(w) => s.node(w).event.written_value.ok_or_else(|| {
                McError::Internal(format!("no value for {src:?} at {}", self.locs[loc].0))
            }),
        }
    }

    /// Thread `t`'s pending load, RMW or CAS (`read`, from
    /// [`Explorer::read_target`]) as an event reading from `src` at `loc`
    /// (typed `ty`).
    fn plan_read(
        &self,
        s: &State<'k>,
        t: usize,
        read: &Event,
        loc: usize,
        ty: ScalarTy,
        src: RfSource,
    ) -> Result<ReadPlan, McError> {
        let Status::Ready(ev) = &s.lanes[t].status else {
            return Err(McError::Internal("no pending read".into()));
        };
        let old = reinterpret(self.value(s, loc, src)?, ty);
        let mut e = read.clone();
        e.read_value = Some(old);
        if let Err(kind) = complete_read(&mut e, &ev.kind, old)? {
            return Ok(ReadPlan::Fault(kind));
        }
        Ok(ReadPlan::Event(e, old))
    }

    /// The least `co` position thread `t`'s pending read of `loc` may read
    /// from ([`coherence::co_floor`] over its `hb` view without its `rf`
    /// source). The source's own `sw` contribution cannot raise it past
    /// the source: every write `hb`-before a write `w`, and the source of
    /// every read `hb`-before `w`, is `co`-before `w` in a consistent
    /// state, so reading from `w` is coherent exactly when `w` is at or
    /// above this floor. One floor serves every candidate source, and the
    /// sources below it are never tried (issue 12: a thread storing and
    /// loading one location N times tried N² incoherent reads).
    fn read_floor(&self, s: &State<'k>, read: &Event, loc: usize) -> usize {
        let e = read;
        let (hb, _) = views::views(s, e, None, self.config.model);
        coherence::co_floor(s, &hb, e.id, loc)
    }

    /// Whether read (or update) `e` of `loc` with `hb` view `hb` may read
    /// from `src` in `s` (see [`coherence`]).
    fn judge_read(
        &self,
        s: &State<'k>,
        e: &Event,
        loc: usize,
        src: RfSource,
        hb: &[u32],
    ) -> Verdict {
        let Some(pos) = s.co_pos(loc, src) else {
            return Verdict {
                coherent: false,
                atomic: false,
            };
        };
        Verdict {
            coherent: pos >= coherence::co_floor(s, hb, e.id, loc),
            atomic: e.kind != Kind::Update || !coherence::splits_update(s, loc, pos),
        }
    }

    /// Adds `e` (thread `t`'s pending read-like event, planned by
    /// [`Explorer::plan_read`]) reading from `src`, puts an update right
    /// after `src` in `co`, and runs the thread on; `false` when an
    /// `__assume` fails.
    #[allow(clippy::too_many_arguments)]
    fn commit_read(
        &mut self,
        s: &mut State<'k>,
        e: Event,
        old: Value,
        loc: usize,
        src: RfSource,
        views: (Box<[u32]>, Box<[u32]>),
        stamp: Option<u64>,
    ) -> Result<bool, McError> {
        let t = e.id.thread;
        let id = e.id;
        let update = e.kind == Kind::Update;
        let pos = s.co_pos(loc, src).unwrap_or(0);
        self.push_node(s, e, Some(loc), Some(src), views, stamp, true);
        if update {
            s.co_mut(loc).insert(pos, id);
        }
        let lane = Arc::make_mut(&mut s.lanes[t]);
        let Status::Ready(ev) = &lane.status else {
            return Err(McError::Internal("no pending read".into()));
        };
        let thread = Arc::make_mut(&mut lane.thread);
        match ev.kind {
            EventKind::Load { .. } => thread.resume_load(old)?,
            EventKind::Rmw { .. } => thread.resume_rmw(old)?,
            EventKind::Cas { .. } => thread.resume_cas(old)?,
            _ => return Err(McError::Internal("the pending event is no read".into())),
        }
        self.advance(s, t)
    }

    /// Every way thread `t` can perform its next event (consistent ones),
    /// into `out`.
    fn successors(
        &mut self,
        state: State<'k>,
        t: usize,
        out: &mut Vec<State<'k>>,
    ) -> Result<(), McError> {
        let Status::Ready(ev) = state.lanes[t].status.clone() else {
            return Ok(());
        };
        let span = ev.span;
        let model = self.config.model;
        let pending = self
            .grid
            .pending(t, state.next_id(t), &state.lanes[t].thread, &ev)?;
        match pending {
            Pending::Read {
                event: read,
                loc: l,
                ty,
            } => {
                let loc = self.intern(l, ty);
                let n = state.co(loc).len();
                let floor = self.read_floor(&state, &read, loc);
                let mut faulted = false;
                // The coherent ways first; the last one takes `state`.
                let mut ways = Vec::new();
                for pos in 0..=n {
                    let src = match pos {
                        0 => RfSource::Init,
                        _ => RfSource::Write(state.co(loc)[pos - 1]),
                    };
                    if pos < floor {
                        self.skip_incoherent(|ex| {
                            let ReadPlan::Event(e, old) =
                                ex.plan_read(&state, t, &read, loc, ty, src)?
                            else {
                                return Ok(None);
                            };
                            let views = views::views(&state, &e, Some(src), model);
                            let mut s = state.clone();
                            Ok(ex
                                .commit_read(&mut s, e, old, loc, src, views, None)?
                                .then_some(s))
                        })?;
                        continue;
                    }
                    let (e, old) = match self.plan_read(&state, t, &read, loc, ty, src)? {
                        ReadPlan::Fault(kind) => {
                            // The thread faults at the atomic, which is not
                            // performed (whatever it reads: see the docs).
                            if !faulted {
                                faulted = true;
                                let mut s = state.clone();
                                let lane = Arc::make_mut(&mut s.lanes[t]);
                                lane.status = Status::Faulted(Fault::new(kind, span));
                                lane.fault_loc = Some(loc);
                                out.push(s);
                            }
                            continue;
                        }
                        ReadPlan::Event(e, old) => (e, old),
                    };
                    let views = views::views(&state, &e, Some(src), model);
                    let verdict = self.judge_read(&state, &e, loc, src, &views.0);
                    debug_assert!(
                        verdict.coherent,
                        "a source at or above the floor is coherent"
                    );
                    if verdict.coherent {
                        ways.push((e, old, src, views, verdict.atomic));
                    } else {
                        self.drop_incoherent(|ex| {
                            let mut s = state.clone();
                            Ok(ex
                                .commit_read(&mut s, e, old, loc, src, views, None)?
                                .then_some(s))
                        })?;
                    }
                }
                let mut state = Some(state);
                let last = ways.len();
                for (i, (e, old, src, views, atomic)) in ways.into_iter().enumerate() {
                    let mut s = match i + 1 == last {
                        true => state.take().expect("the last way takes the state"),
                        false => state
                            .clone()
                            .expect("the state is taken by the last way only"),
                    };
                    let id = e.id;
                    let update = e.kind == Kind::Update;
                    if !self.commit_read(&mut s, e, old, loc, src, views, None)? {
                        continue;
                    }
                    if update {
                        self.revisits(&s, id, atomic, out)?;
                    }
                    self.keep(s, atomic, Some(id), out);
                }
            }
            Pending::Write {
                event: e,
                loc: l,
                ty,
            } => {
                let loc = self.intern(l, ty);
                let mut sa = state;
                let id = e.id;
                let views = views::views(&sa, &e, None, model);
                self.push_node(&mut sa, e, Some(loc), None, views, None, true);
                if !self.advance(&mut sa, t)? {
                    return Ok(());
                }
                self.revisits(&sa, id, true, out)?;
                let floor = coherence::co_floor(&sa, &sa.node(id).hb, id, loc);
                let n = sa.co(loc).len();
                for pos in 0..floor.min(n + 1) {
                    self.skip_incoherent(|_| {
                        let mut s = sa.clone();
                        s.co_mut(loc).insert(pos, id);
                        Ok(Some(s))
                    })?;
                }
                // The last place takes `sa`.
                for pos in floor..n {
                    let atomic = !coherence::splits_update(&sa, loc, pos);
                    let mut s = sa.clone();
                    s.co_mut(loc).insert(pos, id);
                    self.keep(s, atomic, Some(id), out);
                }
                if floor <= n {
                    let atomic = !coherence::splits_update(&sa, loc, n);
                    let mut s = sa;
                    s.co_mut(loc).insert(n, id);
                    self.keep(s, atomic, Some(id), out);
                }
            }
            Pending::Fence(e) => {
                let mut s = state;
                let id = e.id;
                let views = views::views(&s, &e, None, model);
                self.push_node(&mut s, e, None, None, views, None, true);
                if self.advance(&mut s, t)? {
                    self.keep(s, true, Some(id), out);
                }
            }
            Pending::Barrier {
                event: mut e,
                group,
                reduce,
                site,
            } => {
                let mut s = state;
                let generation = s.events[t]
                    .iter()
                    .filter(|x| x.node.event.barrier.is_some_and(|b| b.group == group))
                    .count() as u32;
                let instance = BarrierInstance { group, generation };
                e.barrier = Some(instance);
                let id = e.id;
                let views = views::views(&s, &e, None, model);
                self.push_node(&mut s, e, None, None, views, None, true);
                Arc::make_mut(&mut s.lanes[t]).status = Status::AtBarrier {
                    instance,
                    reduce,
                    span,
                    site,
                };
                if self.release(&mut s, instance)? {
                    self.keep(s, true, Some(id), out);
                }
            }
        }
        Ok(())
    }

    /// The backward revisits of write (or update) `a`, the last event added
    /// to `sa` (a plain write is not yet in `co`; an update is). `base_ok`:
    /// `sa` without `a`'s `co` placement satisfies (Coherence) and
    /// (Atomicity), so the revisits are checked incrementally; otherwise
    /// they are checked in full.
    fn revisits(
        &mut self,
        sa: &State<'k>,
        a: EventId,
        base_ok: bool,
        out: &mut Vec<State<'k>>,
    ) -> Result<(), McError> {
        // Re-executed updates revisit in turn: a work list, not recursion.
        let mut work = Vec::new();
        self.revisits_of(sa, a, base_ok, out, &mut work)?;
        while let Some((s, r, ok)) = work.pop() {
            self.revisits_of(&s, r, ok, out, &mut work)?;
        }
        Ok(())
    }

    /// The backward revisits of `a` in `sa`; states whose revisited read
    /// became an update go to `work` too (for that update's revisits).
    fn revisits_of(
        &mut self,
        sa: &State<'k>,
        a: EventId,
        base_ok: bool,
        out: &mut Vec<State<'k>>,
        work: &mut Vec<(State<'k>, EventId, bool)>,
    ) -> Result<(), McError> {
        let an = sa.node(a);
        let Some(loc) = an.loc else {
            return Ok(());
        };
        let plain = an.event.kind == Kind::Write;
        // The porf-prefix of a, without a.
        let mut prefix = an.porf.to_vec();
        prefix[a.thread] = a.index as u32;
        let in_prefix = |e: EventId| (e.index as u32) < prefix[e.thread];
        let candidates: Vec<EventId> = sa
            .events
            .iter()
            .flat_map(|evs| evs.iter())
            .filter(|x| {
                let e = &x.node.event;
                x.revisitable
                    && x.node.loc == Some(loc)
                    && e.is_read()
                    && e.id != a
                    && !in_prefix(e.id)
            })
            .map(|x| x.node.event.id)
            .collect();
        for r in candidates {
            let rstamp = sa.node(r).stamp;
            // Kept: added before r, or in porf(a); a itself stays.
            let kept =
                |e: EventId| e == a || (e != r && (sa.node(e).stamp < rstamp || in_prefix(e)));
            let maximal = sa
                .events
                .iter()
                .flat_map(|evs| evs.iter())
                .map(|x| x.node.event.id)
                .filter(|e| *e == r || !kept(*e))
                .all(|e| self.added_maximally(sa, e, a, &prefix));
            if !maximal {
                continue;
            }
            // Every thread keeps a po-prefix (r's thread stops before r),
            // closed under porf (po, rf and barrier instances): the
            // maximality conditions and revisitability ensure it.
            let keep: Vec<usize> = sa
                .events
                .iter()
                .enumerate()
                .map(|(t, evs)| {
                    if t == r.thread {
                        r.index
                    } else {
                        evs.iter().take_while(|x| kept(x.node.event.id)).count()
                    }
                })
                .collect();
            let closed = sa.events.iter().enumerate().all(|(t, evs)| {
                evs[keep[t]..].iter().all(|x| !kept(x.node.event.id))
                    && evs[..keep[t]].iter().all(|x| {
                        x.node
                            .porf
                            .iter()
                            .zip(&keep)
                            .all(|(p, k)| *p as usize <= *k)
                    })
            });
            if !closed {
                return Err(McError::Internal(
                    "a backward revisit would keep an event whose po-predecessor, source or barrier goes"
                        .into(),
                ));
            }
            let mut s = sa.clone();
            self.restrict(&mut s, &keep);
            for (t, p) in prefix.iter().enumerate() {
                let p = *p as usize;
                if s.events[t][..p].iter().any(|x| x.revisitable) {
                    for x in &mut s.thread_mut(t)[..p] {
                        x.revisitable = false;
                    }
                }
            }
            // An update's own read is in the prefix of its write.
            s.slot_mut(a).revisitable = false;
            if plain {
                let floor = coherence::co_floor(&s, &s.node(a).hb, a, loc);
                let n = s.co(loc).len();
                for pos in 0..=n {
                    let build = |_: &mut Self| {
                        let mut s2 = s.clone();
                        s2.co_mut(loc).insert(pos, a);
                        Ok(Some(s2))
                    };
                    if pos < floor {
                        // Every graph built from it keeps a and the
                        // witness (porf(a) ⊆ porf(r)).
                        self.drop_incoherent(build)?;
                        continue;
                    }
                    let atomic = !coherence::splits_update(&s, loc, pos);
                    let s2 = build(self)?.expect("placing a write always builds a state");
                    self.revisit_read(s2, r, a, rstamp, atomic, base_ok, out, work)?;
                }
            } else {
                self.revisit_read(s, r, a, rstamp, true, base_ok, out, work)?;
            }
        }
        Ok(())
    }

    /// Re-performs read `r` (its thread restricted to just before it)
    /// reading from `a`; `r` keeps its place `stamp` in the insertion order.
    /// `atomic`: `a`'s placement keeps (Atomicity); `base_ok`: see
    /// [`Explorer::revisits`].
    #[allow(clippy::too_many_arguments)]
    fn revisit_read(
        &mut self,
        mut s: State<'k>,
        r: EventId,
        a: EventId,
        stamp: u64,
        atomic: bool,
        base_ok: bool,
        out: &mut Vec<State<'k>>,
        work: &mut Vec<(State<'k>, EventId, bool)>,
    ) -> Result<(), McError> {
        debug_assert_eq!(s.next_id(r.thread), r);
        let (read, l, ty) = self.read_target(&s, r.thread)?;
        let loc = self.intern(l, ty);
        let src = RfSource::Write(a);
        let (e, old) = match self.plan_read(&s, r.thread, &read, loc, ty, src)? {
            ReadPlan::Fault(_) => return Ok(()),
            ReadPlan::Event(e, old) => (e, old),
        };
        let views = views::views(&s, &e, Some(src), self.config.model);
        let verdict = self.judge_read(&s, &e, loc, src, &views.0);
        if !verdict.coherent {
            // Its own revisits keep r and the witness (in porf(r)).
            return self.drop_incoherent(|ex| {
                Ok(ex
                    .commit_read(&mut s, e, old, loc, src, views, Some(stamp))?
                    .then_some(s))
            });
        }
        if !self.commit_read(&mut s, e, old, loc, src, views, Some(stamp))? {
            return Ok(());
        }
        let ok = if base_ok {
            atomic && verdict.atomic
        } else {
            let g = s.to_graph(&self.grid.ids, &self.locs, &self.sorted_locs);
            consistency::check(&g, self.config.model).is_ok()
        };
        // A re-executed update writes anew: like the write part of a
        // two-event RMW it may revisit reads in turn.
        if s.node(r).event.kind == Kind::Update {
            work.push((s.clone(), r, ok));
        }
        self.keep(s, ok, None, out);
        Ok(())
    }

    /// TruSt's `IsMaximallyAdded` for event `e` of a revisit by `a`: with
    /// `E'` the events added up to `e` and `porf(a)`, `e` is a revisitable
    /// read whose source is in `E'` and `co`-maximal there, or a write
    /// `co`-maximal in `E'` (`a` itself is not counted).
    fn added_maximally(&self, sa: &State<'k>, e: EventId, a: EventId, prefix: &[u32]) -> bool {
        let slot = &sa.events[e.thread][e.index];
        let m = &slot.node;
        let ev = &m.event;
        if ev.is_read() && !slot.revisitable {
            return false;
        }
        let in_e = |x: EventId| (x.index as u32) < prefix[x.thread] || sa.node(x).stamp <= m.stamp;
        let Some(loc) = m.loc else {
            return true;
        };
        let hat = match ev.kind {
            Kind::Read | Kind::Update => match m.rf {
                Some(src) => src,
                None => return false,
            },
            Kind::Write => RfSource::Write(e),
            Kind::Fence | Kind::Barrier => return true,
        };
        if let RfSource::Write(w) = hat {
            if !in_e(w) {
                return false;
            }
        }
        let co = sa.co(loc);
        let after: &[EventId] = match hat {
            RfSource::Init => co,
            RfSource::Write(w) => match co.iter().position(|x| *x == w) {
                Some(i) => &co[i + 1..],
                None => &[],
            },
        };
        !after.iter().any(|w| *w != a && *w != e && in_e(*w))
    }

    /// Restricts `s` to the first `keep[t]` events of every thread and
    /// puts every thread back where it was (deterministically: a thread's
    /// state is a function of what its kept events read).
    fn restrict(&self, s: &mut State<'k>, keep: &[usize]) {
        let old_len: Vec<usize> = s.events.iter().map(|evs| evs.len()).collect();
        // The paused thread at the first deleted event of every thread.
        let first_deleted: Vec<Option<(Arc<Thread<'k>>, warpsafe_interp::Event)>> = keep
            .iter()
            .enumerate()
            .map(|(t, k)| {
                s.events[t]
                    .get(*k)
                    .map(|x| (x.node.pre.clone(), x.node.ev.clone()))
            })
            .collect();
        let kept = |id: &EventId| id.index < keep[id.thread];
        for (t, k) in keep.iter().enumerate() {
            if s.events[t].len() > *k {
                s.thread_mut(t).truncate(*k);
            }
        }
        for ws in &mut s.co {
            if !ws.iter().all(kept) {
                Arc::make_mut(ws).retain(kept);
            }
        }
        // Barrier instances whose participants all arrived.
        let complete = |s: &State<'k>, inst: BarrierInstance| {
            (0..s.events.len())
                .filter(|u| self.grid.participates(*u, inst.group))
                .all(|u| {
                    s.events[u]
                        .iter()
                        .any(|x| x.node.event.barrier == Some(inst))
                })
        };
        for (t, first) in first_deleted.into_iter().enumerate() {
            let k = keep[t];
            let last_barrier = k
                .checked_sub(1)
                .and_then(|i| s.events[t][i].node.event.barrier.map(|b| (i, b)));
            match (last_barrier, first) {
                (Some((i, inst)), _) if !complete(s, inst) => {
                    let node = s.events[t][i].node.clone();
                    let reduce = match &node.ev.kind {
                        EventKind::Barrier { reduce, .. } => *reduce,
                        _ => None,
                    };
                    let lane = Arc::make_mut(&mut s.lanes[t]);
                    lane.thread = node.pre.clone();
                    lane.status = Status::AtBarrier {
                        instance: inst,
                        reduce,
                        span: node.ev.span,
                        site: BarrierSite::of(&node.ev),
                    };
                    lane.fault_loc = None;
                }
                (_, Some((pre, ev))) if k < old_len[t] => {
                    let lane = Arc::make_mut(&mut s.lanes[t]);
                    lane.thread = pre;
                    lane.status = Status::Ready(ev);
                    lane.fault_loc = None;
                }
                _ => {}
            }
        }
        s.sc_events = s
            .nodes()
            .filter(|x| x.event.kind != Kind::Barrier && x.event.order.is_sc())
            .count() as u32;
    }

    /// Releases the threads at `instance` when all participants arrived;
    /// `false` when an `__assume` fails.
    fn release(&mut self, s: &mut State<'k>, instance: BarrierInstance) -> Result<bool, McError> {
        let Some(plan) = self.grid.release_plan(instance, |u| &s.lanes[u].status) else {
            return Ok(true);
        };
        for (u, reduced) in plan {
            if let Some(v) = reduced {
                Arc::make_mut(&mut Arc::make_mut(&mut s.lanes[u]).thread).resume_barrier(v)?;
            }
            if !self.advance(s, u)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

fn dump(s: &State<'_>) -> String {
    let mut o = String::new();
    for (t, evs) in s.events.iter().enumerate() {
        for (i, x) in evs.iter().enumerate() {
            let m = &x.node;
            let e = &m.event;
            o += &format!(
                "{t}.{i} {:?} {:?} {:?} r={:?} w={:?} stamp={} rev={} rf={:?} hb={:?}\n",
                e.kind,
                e.order,
                m.loc,
                e.read_value,
                e.written_value,
                m.stamp,
                x.revisitable,
                m.rf,
                m.hb
            );
        }
    }
    o += &format!("co {:?}\n", s.co);
    o
}

/// Every `rf` source exists; `co` holds existing writes; ids are positions.
fn well_formed(s: &State<'_>) -> bool {
    let exists = |w: &EventId| w.index < s.events[w.thread].len();
    s.nodes().all(|m| match m.rf {
        Some(RfSource::Write(w)) => exists(&w),
        _ => true,
    }) && s.co.iter().flat_map(|ws| ws.iter()).all(exists)
        && s.events.iter().enumerate().all(|(t, evs)| {
            evs.iter().enumerate().all(|(i, x)| {
                x.node.event.id
                    == EventId {
                        thread: t,
                        index: i,
                    }
            })
        })
}
