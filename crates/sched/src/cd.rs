//! Conflict-directed delay bounding (seed 003 §2, §4, Fig. 5): which
//! schedules to run after the canonical one.
//!
//! Every schedule that took all its delays contributes delay points (the
//! earlier access of each conflict among atomics after its last delay,
//! [`crate::delay`]); each extends the schedule's delay list into a new
//! list, unless the list already has `delays` (the bound `K`) points. Lists
//! run shortest first (seed 003's implementation note), each distinct list
//! once, until none is left or a limit stops the search.
//!
//! A bounded search is no proof: [`Search::exhausted`] says only that every
//! list up to the bound ran.

use crate::canonical::{Launched, Run};
use crate::delay::DelayPoint;
use crate::SchedError;
use rustc_hash::FxHashSet;
use std::collections::VecDeque;
use std::time::Instant;

/// The search's bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// The most delays in one schedule (`K`).
    pub delays: usize,
    /// The most schedules run.
    pub max_schedules: usize,
    /// When the search stops (runs in progress are cut at it too, see
    /// [`crate::RunConfig::deadline`]).
    pub deadline: Option<Instant>,
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            delays: 2,
            max_schedules: 10_000,
            deadline: None,
        }
    }
}

/// Whether to go on after a schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
}

/// Why a search ended before it ran every delay list up to the bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Schedules(usize),
    TimedOut,
    /// The caller's observer stopped it (for example at the first error).
    Observer,
}

/// How a search went.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Search {
    /// Schedules run.
    pub schedules: usize,
    /// Delay lists found but not run because of `limit`.
    pub pending: usize,
    /// Delay lists found when `max_schedules` could not run them any more
    /// (not kept; some may repeat others).
    pub dropped: usize,
    /// Every delay list up to the bound ran.
    pub exhausted: bool,
    pub limit: Option<Limit>,
    /// Delay lists with more points than the bound, not run.
    pub beyond_bound: usize,
}

/// Runs the canonical schedule and the delay lists its conflicts suggest,
/// handing each run to `observe`.
pub fn search(
    launched: &Launched<'_>,
    config: &SearchConfig,
    observe: &mut dyn FnMut(&Run) -> Flow,
) -> Result<Search, SchedError> {
    let mut work: VecDeque<Vec<DelayPoint>> = VecDeque::from([Vec::new()]);
    let mut seen: FxHashSet<Vec<DelayPoint>> = FxHashSet::default();
    seen.insert(Vec::new());
    let mut s = Search::default();
    while let Some(delays) = work.pop_front() {
        if s.schedules >= config.max_schedules {
            s.limit = Some(Limit::Schedules(config.max_schedules));
            work.push_front(delays);
            break;
        }
        if config.deadline.is_some_and(|d| Instant::now() >= d) {
            s.limit = Some(Limit::TimedOut);
            work.push_front(delays);
            break;
        }
        let run = launched.run(&delays)?;
        s.schedules += 1;
        for p in &run.conflicts {
            if delays.contains(p) {
                continue;
            }
            if delays.len() >= config.delays {
                s.beyond_bound += 1;
                continue;
            }
            if s.schedules + work.len() >= config.max_schedules {
                // It could never run: counted, not kept (a large grid's
                // conflicts would fill memory with lists).
                s.dropped += 1;
                continue;
            }
            let mut longer = delays.clone();
            longer.push(*p);
            if seen.insert(longer.clone()) {
                work.push_back(longer);
            }
        }
        if observe(&run) == Flow::Stop {
            s.limit = Some(Limit::Observer);
            break;
        }
        if matches!(run.cut, Some(crate::Cut::TimedOut)) {
            s.limit = Some(Limit::TimedOut);
            break;
        }
    }
    s.pending = work.len();
    if s.dropped > 0 && s.limit.is_none() {
        s.limit = Some(Limit::Schedules(config.max_schedules));
    }
    s.exhausted = s.limit.is_none();
    Ok(s)
}
