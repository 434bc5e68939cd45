//! The model checker of warpsafe (seed 000, GPUMC): execution graphs under
//! scoped RC11 (SRC11), their consistency, data and heterogeneous races,
//! and a brute-force reference enumerator of all consistent executions of a
//! concrete launch.
//!
//! - [`graph`]: execution graphs (events, `po`, `rf`, `co`).
//! - [`scope`]: CUDA scopes and scope inclusion (`incl`).
//! - [`consistency`]: the SRC11 relations and axioms (Coherence, Atomicity,
//!   SC, No-Thin-Air), as bit matrices.
//! - [`races`]: data races and heterogeneous races of a consistent graph.
//! - [`reference`]: the reference enumerator, which drives
//!   [`warpsafe_interp::Thread`]s, choosing every `rf` and `co` possibility
//!   and keeping the consistent graphs. It is exact and slow: the optimised
//!   DPOR explorer is checked against it.
//! - [`dpor`]: the DPOR explorer (seed 000 §4, GenMC's TruSt): every
//!   consistent execution once, by forward steps and backward revisits.
//! - [`observe`]: the streaming interface (an [`Observer`] sees each
//!   execution once and may stop the exploration).
//! - [`findings`]: the errors of one execution (races, failed assertions,
//!   barrier divergence, faults) and the key that identifies each across
//!   executions.
//! - [`token`] and [`replay`]: replay tokens (a compact text form of an
//!   execution's `rf` and `co`) and the driver that re-runs the threads
//!   from one and rebuilds exactly that execution.
//! - [`witness`] and [`dot`]: an execution as text (events per thread with
//!   `rf`, `co`, orders, scopes and source excerpts) and as Graphviz DOT.
//! - `grid` (private): what both explorers share about the launched
//!   threads: starting them, their locations and barrier groups, initial
//!   values, and the errors of a complete execution.
//!
//! Invariants: the crate does no I/O; every graph [`reference::explore`]
//! or [`dpor::explore`] returns is consistent and distinct from every other
//! it returns, and both return the same graphs (`tests/dpor.rs`).

pub mod consistency;
pub mod dot;
pub mod dpor;
pub mod findings;
pub mod graph;
mod grid;
pub mod observe;
pub mod races;
pub mod reference;
pub mod rel;
pub mod replay;
pub mod scope;
pub mod token;
pub mod witness;

pub use consistency::{check, is_consistent, Axiom, Model, Relations, Violation};
pub use findings::{findings, BarrierArrival, ErrorKind, Finding, FindingKey};
pub use graph::{
    BarrierGroup, BarrierInstance, Event, EventId, Graph, Kind, Loc, Order, RfSource, ThreadId,
};
pub use grid::{initial_value, location, reinterpret};
pub use observe::{Ending, Flow, Forkable, Join, Observer, Stats};
pub use races::{races, Race, RaceAccess, RaceKind};
pub use reference::{
    explore, AssertionFailure, Config, CutThread, Execution, Exploration, McError, ThreadFault,
    DEFAULT_LOOP_BOUND,
};
pub use replay::{replay, ReplayError};
pub use token::{fingerprint, ReplayToken, TokenError};
