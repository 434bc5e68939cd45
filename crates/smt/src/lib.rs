//! The SMT layer of warpsafe: SMT-LIB2 sessions with a solver subprocess.
//!
//! Engines build terms ([`term`], [`Sexp`]), then run them through a
//! [`Solver`] — z3 (`z3 -in -smt2`) by default, cvc5
//! (`cvc5 --lang smt2 --incremental`) as an alternative — found through
//! `WARPSAFE_Z3` / `WARPSAFE_CVC5` or `PATH`.
//!
//! ```no_run
//! use warpsafe_smt::{term, CheckResult, Solver, SolverConfig, Sort};
//! # fn main() -> Result<(), warpsafe_smt::SmtError> {
//! let mut s = Solver::start(SolverConfig::z3().with_logic("QF_LIA"))?;
//! let x = s.declare_const("x", &Sort::Int)?;
//! s.assert(&term::lt(x.clone(), term::int(-3)))?;
//! if s.check()? == CheckResult::Sat {
//!     println!("x = {}", s.get_values(&[x])?[0]);
//! }
//! # Ok(()) }
//! ```
//!
//! Invariants every caller may rely on (soundness first):
//! - `CheckResult::Unsat` means the solver printed `unsat` for that query.
//!   Timeouts are `CheckResult::Unknown("timeout after N ms")`; every other
//!   failure (missing binary, crash, garbage, `(error ...)`) is an
//!   [`SmtError`], which callers report as UNKNOWN. Nothing here panics on
//!   solver behaviour.
//! - A query never runs much longer than its timeout: the solver's own limit
//!   is set, and a watchdog kills the process `grace` later.
//! - At most [`ProcessLimit::max`] solver processes run at once per limit
//!   (the global one allows one per CPU).
//! - With a [`Transcript`], every command sent is recorded for `--dump smt`.
//!
//! Modules: `sexp` (syntax), `term` (sorts and term builders), `value`
//! (model values), `config` (solver choice), `locate` (finding binaries),
//! `limits` (process cap), `process` (subprocess and pipes), `transcript`
//! (query dumps), `solver` (the session), `error`.

mod config;
mod error;
mod limits;
mod locate;
mod process;
mod sexp;
mod solver;
pub mod term;
mod transcript;
mod value;

pub use config::{SolverConfig, SolverKind};
pub use error::SmtError;
pub use limits::{Permit, ProcessLimit};
pub use locate::locate;
pub use sexp::{is_simple_symbol, parse_prefix, ParseError, Sexp, MAX_DEPTH};
pub use solver::{CheckResult, Solver, MAX_RESTARTS};
pub use term::{Sort, Term};
pub use transcript::Transcript;
pub use value::Value;
