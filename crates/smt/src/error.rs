//! The one error type of this crate, [`SmtError`].
//!
//! Invariant (soundness): every way a solver can fail — missing binary,
//! spawn failure, crash, early exit, garbage on stdout, an `(error ...)`
//! answer, a solver killed earlier by the watchdog — is an `SmtError`, never
//! a `CheckResult::Unsat`. Callers map any `SmtError` to an UNKNOWN verdict.
//! A query that runs out of time is *not* an error: `check` returns
//! `CheckResult::Unknown("timeout after N ms")`.

use std::io;
use std::path::PathBuf;
use std::time::Duration;

/// Why a solver could not answer a request.
#[derive(Debug, thiserror::Error)]
pub enum SmtError {
    /// No solver binary was found; `message` says how to install one.
    #[error("{message}")]
    NotFound {
        /// The solver that was looked for, e.g. `"z3"`.
        solver: &'static str,
        /// Where it was looked for and how to install it.
        message: String,
    },
    /// The binary exists but could not be started.
    #[error("cannot start solver `{}`: {source}", program.display())]
    Spawn {
        /// The program that was executed.
        program: PathBuf,
        /// The operating system's error.
        #[source]
        source: io::Error,
    },
    /// The solver answered `(error "...")`.
    #[error("solver error: {message}")]
    Solver {
        /// The solver's message, unquoted.
        message: String,
    },
    /// The solver answered `unsupported` (an option or command it lacks).
    #[error("solver does not support `{command}`")]
    Unsupported {
        /// The command (or the last command) that was sent.
        command: String,
    },
    /// The solver's stdout closed: it crashed or exited.
    #[error("solver exited unexpectedly ({status}){}", stderr_suffix(stderr))]
    Exited {
        /// The exit status as text (`exit status: 1`, `signal: 11 (SIGSEGV)`),
        /// or `still running` when only stdout was closed.
        status: String,
        /// The tail of what the solver wrote on stderr.
        stderr: String,
    },
    /// The solver printed something that is not a valid answer here.
    #[error("unexpected solver output (expected {expected}): {got}")]
    UnexpectedResponse {
        /// What the request expects, e.g. `"sat, unsat or unknown"`.
        expected: &'static str,
        /// What the solver printed (possibly truncated).
        got: String,
    },
    /// A request other than `check-sat` got no answer in time; the solver was
    /// killed.
    #[error("solver did not answer `{command}` within {} ms and was killed", after.as_millis())]
    Unresponsive {
        /// The command that got no answer.
        command: String,
        /// How long the solver was given.
        after: Duration,
    },
    /// The solver failed or was killed by an earlier request; start a new one.
    #[error("solver is no longer usable: {reason}")]
    Dead {
        /// Why the solver was given up.
        reason: String,
    },
    /// The caller misused the API (e.g. `pop` without `push`, a bad name).
    #[error("invalid solver request: {0}")]
    Usage(String),
}

fn stderr_suffix(stderr: &str) -> String {
    let trimmed = stderr.trim();
    if trimmed.is_empty() {
        String::new()
    } else {
        format!("; stderr: {trimmed}")
    }
}
