//! The result types of the data-race check ([`crate::check_kernel`]): one
//! [`KernelReport`] per kernel with its [`Verdict`], each [`Race`] with both
//! accesses, how certain it is ([`Certainty`], seed 004) and a [`Witness`]
//! read from the solver's model.

use crate::protocol::AccessMode;
use warpsafe_ir::{ArrayId, MemSpace, Span};
use warpsafe_smt::Transcript;

/// The verdict about one kernel.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// No data race between any two threads, and every barrier is reached
    /// by all threads of a block or by none (assertions are reported
    /// separately, in [`KernelReport::asserts`]).
    Drf,
    /// At least one race; every racy pair of access sites once.
    Racy(Vec<Race>),
    /// Barrier divergence: for each barrier listed (in program order, at
    /// least one), two threads of one block disagree about reaching it
    /// (seed 001 §5.2). Races are not checked.
    Divergent(Vec<Divergence>),
    /// The check could not decide; `span` points at the construct that
    /// stopped it, when there is one.
    Unknown { reason: String, span: Option<Span> },
}

/// A divergent barrier and two threads of one block that disagree.
#[derive(Clone, Debug, PartialEq)]
pub struct Divergence {
    /// The barrier.
    pub span: Span,
    /// What differs: the barrier's condition, or its loop's bounds.
    pub reason: String,
    /// From the solver's model, when it could be read.
    pub threads: Option<[ThreadId; 2]>,
    /// The scalar parameters the barrier's condition or loop bounds read,
    /// with their values in the same model (`n` in `if (i < n)
    /// __syncthreads()`): what decides the divergence besides the threads.
    pub params: Vec<(String, i128)>,
    /// Provable when the condition is an exact function of thread ids,
    /// dimensions and parameters; possible when it involves unknown values.
    pub certainty: Certainty,
}

/// Two threads that disagree about a barrier, and the parameters that
/// decide it, from a solver model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DivergenceWitness {
    pub threads: [ThreadId; 2],
    pub params: Vec<(String, i128)>,
}

impl Verdict {
    pub fn is_drf(&self) -> bool {
        matches!(self, Verdict::Drf)
    }

    pub fn is_racy(&self) -> bool {
        matches!(self, Verdict::Racy(_))
    }

    pub fn races(&self) -> &[Race] {
        match self {
            Verdict::Racy(r) => r,
            _ => &[],
        }
    }
}

/// One side of a race.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaceAccess {
    pub span: Span,
    pub mode: AccessMode,
    pub atomic: bool,
}

/// Whether the two racing threads are in one block or in two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaceScope {
    SameBlock,
    CrossBlock,
}

/// How sure a race is (seed 004).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Certainty {
    /// The witness is exact: both indices and guards are known functions of
    /// thread ids, dimensions, parameters and unit-stride loop variables,
    /// and no approximation was involved. (It still assumes that both
    /// accesses are reached: earlier code terminates without faults.)
    Provable,
    /// The solver found a model, but some value in it stands for something
    /// the analysis does not know; `reasons` says what.
    Possible { reasons: Vec<String> },
}

impl Certainty {
    /// This certainty with one more reason to doubt it: *possible*, with
    /// `why` after any reasons it had.
    pub(crate) fn weakened(self, why: String) -> Certainty {
        match self {
            Certainty::Provable => Certainty::Possible { reasons: vec![why] },
            Certainty::Possible { mut reasons } => {
                reasons.push(why);
                Certainty::Possible { reasons }
            }
        }
    }
}

/// A value of a loop variable of one thread in the witness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopValue {
    /// 1 or 2: which thread of the witness; 0: a synchronized loop's
    /// variable, shared by both threads of one block (its `name` says which
    /// iteration: `x`, `x (previous iteration)`, ...).
    pub thread: u8,
    pub name: String,
    pub value: i128,
}

/// One thread of the witness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadId {
    pub block_idx: [u64; 3],
    pub thread_idx: [u64; 3],
}

/// Values from the solver's model that exhibit the race.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    pub threads: [ThreadId; 2],
    /// The launch dimensions, when they were symbolic.
    pub block_dim: Option<[u64; 3]>,
    pub grid_dim: Option<[u64; 3]>,
    /// Scalar kernel parameters, by name.
    pub params: Vec<(String, i128)>,
    pub loop_vars: Vec<LoopValue>,
    /// The slot both threads access.
    pub index: i128,
}

/// Two accesses of two threads to one slot, unordered, at least one a write,
/// not both atomic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Race {
    pub array: ArrayId,
    pub array_name: String,
    pub space: MemSpace,
    pub first: RaceAccess,
    pub second: RaceAccess,
    pub scope: RaceScope,
    pub certainty: Certainty,
    /// `None` only when the model could not be read (see the notes).
    pub witness: Option<Witness>,
}

/// What the check established about one assertion (`assert`, `__assert`).
#[derive(Clone, Debug, PartialEq)]
pub enum AssertOutcome {
    /// No thread reaches it with its condition false (a clean `unsat`).
    Holds,
    /// A thread may reach it with its condition false: *provable* when the
    /// witness is exact, *possible* when it rests on values the analysis
    /// does not know (memory contents, loop state).
    Fails {
        certainty: Certainty,
        witness: Option<AssertWitness>,
    },
    /// Neither proved nor refuted.
    Unknown { reason: String },
}

/// The thread and values under which an assertion fails.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssertWitness {
    pub thread: ThreadId,
    pub block_dim: Option<[u64; 3]>,
    pub grid_dim: Option<[u64; 3]>,
    pub params: Vec<(String, i128)>,
    /// Enclosing loop variables (`thread` is 1).
    pub loop_vars: Vec<LoopValue>,
}

/// One assertion and its outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct AssertCheck {
    pub span: Span,
    /// The assertion's text or message.
    pub message: String,
    pub outcome: AssertOutcome,
}

/// The result of checking one kernel.
#[derive(Clone, Debug)]
pub struct KernelReport {
    pub kernel: String,
    pub verdict: Verdict,
    /// Every assertion of the kernel, in program order (empty when the
    /// kernel could not be checked at all).
    pub asserts: Vec<AssertCheck>,
    /// What the verdict does not cover, and inconclusive queries.
    pub notes: Vec<String>,
    /// Every SMT query, when [`crate::RaceConfig::record_smt`] is set.
    pub transcript: Option<Transcript>,
}
