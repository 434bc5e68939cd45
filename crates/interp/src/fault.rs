//! Why a thread stopped abnormally, and how a driver can misuse the API.
//!
//! A [`Fault`] is undefined or unmodelled behaviour of the *thread itself*
//! (division by zero, an out-of-bounds index, reading an unassigned
//! variable, running out of fuel) or malformed IR; it always carries the
//! [`Span`] of the statement that caused it, so a driver can report
//! `file:line:col`. Faults end the thread: after one, [`crate::Thread::step`]
//! keeps returning it.
//!
//! Assertion failures and false assumptions are *not* faults: they are
//! outcomes of a well-defined execution ([`crate::Step`]).
//!
//! [`ResumeError`] and [`SetupError`] are mistakes of the driver (resuming
//! with the wrong kind or type of value, inconsistent launch parameters);
//! they leave the thread unchanged.

use thiserror::Error;
use warpsafe_ir::{ArrayId, LoopId, ScalarTy, Span, VarId};

/// A fault and the statement it happened at.
#[derive(Clone, Debug, PartialEq, Error)]
#[error("{kind}")]
pub struct Fault {
    pub kind: FaultKind,
    pub span: Span,
}

impl Fault {
    pub fn new(kind: FaultKind, span: Span) -> Fault {
        Fault { kind, span }
    }

    /// Whether the fault reveals malformed IR (a front-end or driver bug)
    /// rather than a bug of the kernel.
    pub fn is_malformed_ir(&self) -> bool {
        self.kind.is_malformed_ir()
    }
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum FaultKind {
    #[error("variable {0:?} is read before it is assigned")]
    UninitialisedVariable(VarId),
    #[error("kernel parameter {0:?} has no value in the launch")]
    UnboundParam(VarId),
    #[error("slot {index} of local array {array:?} is read before it is written")]
    UninitialisedMemory { array: ArrayId, index: u64 },
    #[error("integer division or remainder by zero")]
    DivisionByZero,
    /// Only under [`crate::Overflow::Fault`]; the default wraps.
    #[error("signed integer overflow in {ty}")]
    SignedOverflow { ty: ScalarTy },
    #[error("shift by {amount} of a {bits}-bit value")]
    UndefinedShift { amount: i128, bits: u32 },
    /// Only under [`crate::FloatToInt::Fault`]; the default saturates.
    #[error("{value} does not fit in {ty}")]
    FloatToIntOutOfRange { value: f64, ty: ScalarTy },
    #[error("negative index {index} into array {array:?}")]
    NegativeIndex { array: ArrayId, index: i128 },
    #[error("index {index} is out of bounds of array {array:?} ({len} slots)")]
    OutOfBounds {
        array: ArrayId,
        index: u64,
        len: u64,
    },
    #[error("local array {array:?} would need {len} slots, more than the interpreter holds")]
    LocalArrayTooLarge { array: ArrayId, len: u64 },
    #[error("unknown function `{0}`")]
    UnknownFunction(String),
    #[error("`{name}` takes {expected} arguments, not {got}")]
    BadArguments {
        name: String,
        expected: usize,
        got: usize,
    },
    /// An operation applied to a type it is not defined on (malformed IR).
    #[error("ill-typed IR: {0}")]
    IllTyped(String),
    #[error("variable {0:?} does not exist in the kernel")]
    UnknownVar(VarId),
    #[error("array {0:?} does not exist in the kernel")]
    UnknownArray(ArrayId),
    #[error("`break`/`continue` names {0:?}, which does not enclose it")]
    BadJump(LoopId),
    #[error("the thread ran more than {limit} steps")]
    StepLimit { limit: u64 },
    /// The driver called `step` while the thread waits for a `resume_*`.
    #[error("the thread is waiting for a value ({0}); call the matching resume first")]
    MissingResume(&'static str),
}

impl FaultKind {
    /// Whether the fault reveals malformed IR rather than a kernel bug.
    pub fn is_malformed_ir(&self) -> bool {
        matches!(
            self,
            FaultKind::UnknownFunction(_)
                | FaultKind::BadArguments { .. }
                | FaultKind::IllTyped(_)
                | FaultKind::UnknownVar(_)
                | FaultKind::UnknownArray(_)
                | FaultKind::BadJump(_)
        )
    }
}

/// A `resume_*` call that does not answer what the thread waits for.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ResumeError {
    #[error("the thread is not waiting for a value")]
    NotWaiting,
    #[error("the thread waits for {waiting}, not for {got}")]
    WrongResume {
        waiting: &'static str,
        got: &'static str,
    },
    #[error("the thread waits for a {expected} value, not a {got}")]
    TypeMismatch { expected: ScalarTy, got: ScalarTy },
}

/// Why [`crate::Thread::new`] cannot start a thread: an inconsistent launch, or
/// the set-up time limit.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SetupError {
    #[error("parameter value for {0:?}, which is not a scalar parameter of the kernel")]
    NotAParam(VarId),
    #[error("parameter {var:?} has type {expected}, but its value is a {got}")]
    ParamType {
        var: VarId,
        expected: ScalarTy,
        got: ScalarTy,
    },
    #[error("{what} index {index:?} is outside the launch's {what} dimensions {dim:?}")]
    OutsideLaunch {
        what: &'static str,
        index: [u32; 3],
        dim: [u32; 3],
    },
    #[error("the time limit ran out while analysing the kernel's loops, before the first state")]
    TimedOut,
}
