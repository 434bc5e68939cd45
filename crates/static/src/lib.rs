//! The static engine of warpsafe, stage one: **memory-access protocol
//! inference** after Faial (seed 002, §2.2, §3, §5).
//!
//! [`infer`] turns an [`warpsafe_ir::Kernel`] into a [`KernelProtocol`]: a
//! [`Proto`] tree over all arrays (accesses with symbolic indices, barriers,
//! conditionals, counting loops and unknown-bound loops) and its slice per
//! array. [`print_protocol`] renders it in the paper's notation
//! (`--dump protocol`).
//!
//! [`check_kernel`] is the data-race check over a protocol (`align` for
//! barrier aligning and splitting, seed 002 §4; `race` for the queries,
//! `batch` for one query per phase, `encode` for symbolic values to SMT,
//! `verdict` for its results, `stride` for the values a loop's step
//! reaches), with every assertion checked too (`asserts`).
//!
//! Modules, one job each: `sym` (symbolic expressions), `protocol` (the
//! protocol language), `env` (the symbolic store), `infer` (the walk),
//! `shape` (matching counting loops), `loops` (real loops), `quiet`
//! (shared reads a block sees alike), `validate` (IR checks), `print` (the
//! text form).
//!
//! Soundness first: a value the inference cannot determine is an
//! [`Unknown`] with its [`UnknownReason`], never a guess.

mod align;
mod asserts;
mod batch;
mod carried;
mod conjunct_exit;
mod encode;
mod env;
mod grid;
mod groups;
mod induction;
mod infer;
mod intrinsic;
mod loops;
mod print;
mod print_aligned;
mod protocol;
mod quiet;
mod race;
mod rows;
mod shape;
mod stride;
pub mod sym;
mod tickets;
mod top_exit;
mod universal;
mod validate;
mod verdict;

pub use align::{
    DIVERGENCE_REASON, EARLY_EXIT_REASON, GRID_DIVERGENCE_REASON, LOOP_DIVERGENCE_REASON,
    NESTED_GRID_REASON, NO_BARRIER_ITERATION_REASON, TOO_LARGE_REASON, UNIFORM_BARRIER_REASON,
    UNKNOWN_LOOP_DIVERGENCE_REASON, UNKNOWN_LOOP_REASON,
};
pub use encode::EncodeError;
pub use infer::{infer, InferError};
pub use print::{print_proto, print_protocol, print_sym};
pub use protocol::{
    Access, AccessMode, Approximation, ArrayProtocol, Condition, ConditionOrigin, ForLoop,
    KernelProtocol, LoopRange, Proto, Step, SyncKind,
};
pub use race::{
    bounds_threads_along_x, check_kernel, check_protocol, check_protocol_dumping_aligned,
    Assumptions, RaceConfig, ALIGNING_REASON, COUNTER_NO_WRAP_NOTE, ONLY_INTRA_GROUP_NOTE,
    SIGNED_OVERFLOW_NOTE,
};
pub use sym::{Sym, Unknown, UnknownReason};
pub use verdict::{
    AssertCheck, AssertOutcome, AssertWitness, Certainty, Divergence, KernelReport, LoopValue,
    Race, RaceAccess, RaceScope, ThreadId, Verdict, Witness,
};
