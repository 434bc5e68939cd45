//! The thread interpreter: executes one GPU thread of an IR kernel
//! concretely, leaving shared memory and scheduling to a driver.
//!
//! The model checker (stateless DPOR under scoped RC11, seed 000 §3–4) and
//! the delay-bounded schedule explorer (seed 003 §2, §4) run many threads of
//! one launch and decide themselves what every read of shared memory returns
//! and when each thread runs. This crate gives them the per-thread part:
//!
//! - [`Thread`] holds a thread's private state (variables, local arrays, an
//!   explicit control stack) over a borrowed [`warpsafe_ir::Kernel`], and
//!   [`Thread::step`] runs it to its next [`Event`] (load, store, atomic,
//!   CAS, barrier, fence, havoc) or its end ([`Step`]). Values the thread
//!   needs back come through `resume_*`.
//! - [`Value`] is a concrete scalar with exact C/CUDA semantics; [`eval()`]
//!   evaluates pure expressions, [`math`] the math library calls.
//! - [`apply_rmw`], [`cas_succeeds`], [`reduce_barrier`] compute what
//!   atomics and reducing barriers write, for the driver's memory.
//! - [`Fault`]s (undefined behaviour, malformed IR, fuel exhausted) carry
//!   the span of their statement.
//! - Loops: [`ThreadConfig::loop_bound`] stops a thread whose loop body
//!   would start too often, and [`ThreadConfig::spin_assume`] one that
//!   wasted an iteration of an await loop ([`spin`]); both end in
//!   [`Step::Blocked`].
//!
//! Invariants: the interpreter never owns shared memory, never recurses on
//! the Rust stack over statements or expressions, never panics on any IR
//! (malformed IR is a [`Fault`]), and a [`Thread`] is cheap to clone.
//!
//! ```
//! use std::sync::Arc;
//! use warpsafe_interp::{Launch, Step, Thread, ThreadConfig, ThreadCtx};
//! # use warpsafe_ir::*;
//! # let span = Span::new(warpsafe_source::FileId(0), 0, 0);
//! # let kernel = Kernel { name: "k".into(), template_args: vec![], params: vec![],
//! #     vars: vec![], arrays: vec![], body: vec![], launch: LaunchConfig::default(), span,
//! #     volatile_read_as: None };
//! let launch = Arc::new(Launch::new([1, 1, 1], [32, 1, 1]));
//! let ctx = ThreadCtx::new(launch, [0, 0, 0], [5, 0, 0]);
//! let mut thread = Thread::new(&kernel, ctx, ThreadConfig::default()).expect("valid launch");
//! loop {
//!     match thread.step() {
//!         Ok(Step::Event(_event)) => { /* perform it, resume if it waits */ }
//!         Ok(Step::Done) => break,
//!         Ok(other) => panic!("{other:?}"),
//!         Err(fault) => panic!("{fault}"),
//!     }
//! }
//! ```

mod control;
mod ctx;
mod directed;
pub mod eval;
mod event;
mod fault;
mod liveness;
mod local;
pub mod math;
mod quiet;
mod rmw;
pub mod spin;
mod thread;
pub mod value;

pub use ctx::{Launch, ThreadCtx, WARP_SIZE};
pub use eval::{eval, Env, EvalOptions, Evaluator, FloatToInt, Overflow};
pub use event::{Awaiting, Barrier, BlockReason, Event, EventKind, Location, Step, StmtSite};
pub use fault::{Fault, FaultKind, ResumeError, SetupError};
pub use rmw::{apply_rmw, cas_result, cas_succeeds, reduce_barrier};
pub use thread::{Thread, ThreadConfig};
pub use value::Value;
