//! The schedule explorer of warpsafe (seed 003, GKLEE's conflict-directed
//! delay bounding): a kernel run at its real launch size under sequential
//! consistency, with dynamic detection of data races, heterogeneous races,
//! barrier divergence, failed assertions, undefined behaviour and hangs,
//! then re-run with delays where atomics conflicted.
//!
//! - [`canonical`]: one schedule (seed 003 §4's canonical schedule with a
//!   delay list): blocks created as reached, threads run to their next
//!   barrier, spinning threads yield; `barrier` (private): releasing
//!   block, warp and tile barriers, and divergence.
//! - [`perform`] (private): a thread's events on the schedule's memory.
//! - [`memory`] (private), [`shadow`], `sync` and `clock` (private): SC
//!   memory; per location the accesses a later one may race with; what
//!   releases publish; happens-before as sparse vector clocks that count
//!   barriers, so a run costs time linear in its events.
//! - [`delay`]: delay points and the conflicts among atomics that suggest
//!   them; [`cd`]: the search over delay lists up to a bound.
//! - [`outcomes`]: final-state comparison across schedules.
//! - [`token`]: replay tokens (the delay list with a fingerprint).
//! - [`finding`]: errors, warnings, and why a run was cut.
//!
//! Invariants: the crate does no I/O; a run is deterministic given kernel,
//! launch and delay list; races are judged by the happens-before of the
//! schedule that ran, so every race reported is a race of an SC execution
//! (and hence of the scoped RC11 model the model checker explores), and
//! every error is reported with a schedule that shows it. A search is
//! bounded: no result of it is a proof of absence.

mod barrier;
pub mod canonical;
pub mod cd;
mod clock;
pub mod delay;
pub mod finding;
mod memory;
pub mod outcomes;
mod perform;
pub mod shadow;
mod sync;
pub mod token;

pub use canonical::{Launched, Run, RunConfig};
pub use cd::{search, Flow, Limit, Search, SearchConfig};
pub use delay::DelayPoint;
pub use finding::{Cut, Finding, FindingKey, Warning};
pub use outcomes::{Outcome, Outcomes};
pub use shadow::Access;

use thiserror::Error;
use warpsafe_interp::{Fault, SetupError};
use warpsafe_mc::ThreadId;

/// Why a launch cannot be run at all.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum SchedError {
    #[error("the launch has {threads} threads, more than the limit of {limit} (`--max-threads` raises it)")]
    TooManyThreads { threads: u64, limit: u64 },
    #[error("cannot start {thread}: {error}")]
    Setup { thread: ThreadId, error: SetupError },
    #[error("malformed IR in {thread}: {fault}")]
    MalformedIr { thread: ThreadId, fault: Fault },
    #[error("internal error: {0}")]
    Internal(String),
}
