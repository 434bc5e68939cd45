//! One interface over warpsafe's explorers of concrete launches (issue
//! 11): the DPOR model checker and the reference enumerator of seed 000
//! (every consistent execution under scoped RC11) and the schedule
//! explorer of seed 003 (conflict-directed delay bounding under sequential
//! consistency).
//!
//! - [`explorer`]: the [`Explorer`] trait (a name, a [`Coverage`], and an
//!   exploration handing each [`Run`] to an [`Observer`]) and the
//!   [`Limits`] every explorer takes.
//! - [`dpor`], [`reference`], [`cd`]: one file per strategy, each a thin
//!   adapter over its engine crate.
//! - [`registry`]: every explorer by name (what `--explorer NAME` picks).
//! - [`verdict`]: the rules that turn what an exploration showed into
//!   SAFE, ERRORS FOUND, NO ERROR FOUND or UNKNOWN.
//! - [`inputs`]: a launch from what the user gave (dimensions, parameter
//!   values, array lengths and contents, as flags or JSON), checked
//!   against the kernels.
//! - [`collect`]: the observer of an exploration of executions (distinct
//!   errors with their witnesses, limits, progress); [`outcomes`]: the
//!   distinct final states of global memory (`--outcomes`).
//!
//! Invariants: the crate does no I/O. Only an explorer with
//! [`Coverage::Exhaustive`] can lead to [`Verdict::Safe`]; a bounded one's
//! clean result is [`Verdict::NoErrorFound`]; no exploration in which no
//! run ended is clean.

pub mod cd;
pub mod collect;
pub mod dpor;
pub mod explorer;
pub mod inputs;
pub mod outcomes;
pub mod reference;
pub mod registry;
pub mod verdict;

pub use explorer::{Coverage, ExploreError, Explorer, Limits, Observer, Run, Summary};
pub use registry::{by_name, explorers, names};
pub use verdict::{decide, Evidence, Verdict};
