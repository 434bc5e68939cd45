//! Which solver to run and how: [`SolverKind`] and [`SolverConfig`].
//!
//! Options that have an SMT-LIB2 spelling (model production, the per-query
//! timeout, the logic) are sent as commands, not command-line flags, so the
//! [`Transcript`] replays the same query with `z3 file.smt2` or
//! `cvc5 file.smt2`. Only the flags that put the solver in interactive
//! SMT-LIB2 mode are passed on the command line.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::limits::ProcessLimit;
use crate::sexp::Sexp;
use crate::term;
use crate::transcript::Transcript;

/// z3's resource limit for the incremental try of a check (see
/// [`SolverKind::quick_rlimit`]). Measured on the repository's construct
/// kernels: 10^5 leaves more queries to the tactic, which fails on some the
/// incremental solver answers (4 more UNKNOWN); 2 * 10^6 proves the most.
const Z3_QUICK_RLIMIT: u64 = 2_000_000;

/// z3's resource limit for the bit-blasted try of a check (see
/// [`SolverKind::bit_blast_check`]): about 1 s of steps, enough for a
/// phase of a thousand accesses at constant offsets (4.3 * 10^6 steps).
const Z3_BIT_BLAST_RLIMIT: u64 = 5_000_000;

/// A supported solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SolverKind {
    /// Z3, run as `z3 -in -smt2`.
    Z3,
    /// cvc5, run as `cvc5 --lang smt2 --incremental`.
    Cvc5,
}

impl SolverKind {
    /// The binary's usual name, also used in messages.
    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Z3 => "z3",
            SolverKind::Cvc5 => "cvc5",
        }
    }

    /// The environment variable that may name the binary.
    pub fn env_var(self) -> &'static str {
        match self {
            SolverKind::Z3 => "WARPSAFE_Z3",
            SolverKind::Cvc5 => "WARPSAFE_CVC5",
        }
    }

    /// Command-line flags for reading SMT-LIB2 commands from stdin and
    /// answering each as it arrives (push/pop and repeated `check-sat`).
    pub fn default_args(self) -> Vec<String> {
        let args: &[&str] = match self {
            SolverKind::Z3 => &["-in", "-smt2"],
            SolverKind::Cvc5 => &["--lang", "smt2", "--incremental"],
        };
        args.iter().map(|a| (*a).to_owned()).collect()
    }

    /// How to install the solver, for the "not found" error.
    pub fn install_hint(self) -> &'static str {
        match self {
            SolverKind::Z3 => {
                "install it with `pip install z3-solver` (this puts a `z3` binary on PATH) \
                 or, on Debian/Ubuntu, `apt-get install z3`"
            }
            SolverKind::Cvc5 => {
                "install it on Debian/Ubuntu with `apt-get install cvc5`, or download a \
                 static binary from https://github.com/cvc5/cvc5/releases \
                 (`pip install cvc5` installs only the Python API, no `cvc5` binary)"
            }
        }
    }

    /// z3's resource limit for the first, incremental try of a
    /// [`Solver::check`](crate::Solver::check), or `None` when checks run
    /// once.
    ///
    /// After a `push`, z3 answers with its incremental solver, which skips
    /// the preprocessing of its one-shot tactic for the logic (solving
    /// equalities, propagating values); on bit-vector queries with
    /// multiplications it can take minutes where the tactic takes
    /// milliseconds, and the other way round. So a check first runs
    /// incrementally within this resource limit (a count of z3's steps,
    /// not a time: the answer does not depend on the machine's load), and
    /// a query that exhausts it is asked again with
    /// [`SolverKind::fallback_check`].
    pub(crate) fn quick_rlimit(self) -> Option<u64> {
        match self {
            SolverKind::Z3 => Some(Z3_QUICK_RLIMIT),
            SolverKind::Cvc5 => None,
        }
    }

    /// The second try of a check whose first one ran out of
    /// [`SolverKind::quick_rlimit`]: z3's one-shot bit-vector tactic
    /// (`qfbv`: simplification, solving equalities, bit-blasting, SAT),
    /// which decides in milliseconds large case splits over constant
    /// offsets (a phase of hundreds of `a[tid + k * T]`) that the
    /// incremental solver and the SMT core both give up on.
    pub(crate) fn bit_blast_rlimit(self) -> u64 {
        Z3_BIT_BLAST_RLIMIT
    }

    pub(crate) fn bit_blast_check(self) -> Sexp {
        Sexp::list([Sexp::atom("check-sat-using"), Sexp::atom("qfbv")])
    }

    /// The last try of a check whose earlier tries ran out of
    /// [`SolverKind::quick_rlimit`]: z3's preprocessing tactics, then its
    /// SMT core, on the assertions in scope.
    pub(crate) fn fallback_check(self) -> Sexp {
        Sexp::list([
            Sexp::atom("check-sat-using"),
            Sexp::list(
                ["then", "propagate-values", "solve-eqs", "simplify", "smt"]
                    .into_iter()
                    .map(Sexp::atom),
            ),
        ])
    }

    /// The `set-option` that makes each `check-sat` give up after `ms`
    /// milliseconds (z3 `:timeout`, cvc5 `:tlimit-per`). Both solvers take
    /// an unsigned 32-bit count: a longer limit is clamped to the largest
    /// (about 49.7 days), which the solvers accept.
    pub(crate) fn timeout_option(self, ms: u128) -> Sexp {
        let ms = ms.min(u128::from(u32::MAX));
        let option = match self {
            SolverKind::Z3 => ":timeout",
            SolverKind::Cvc5 => ":tlimit-per",
        };
        term::app(
            "set-option",
            [Sexp::atom(option), Sexp::atom(ms.to_string())],
        )
    }
}

/// How to start a [`Solver`](crate::Solver).
#[derive(Clone, Debug)]
pub struct SolverConfig {
    /// Which solver.
    pub kind: SolverKind,
    /// The binary; `None` looks at the kind's environment variable, then
    /// PATH.
    pub program: Option<PathBuf>,
    /// Command-line arguments; `None` uses [`SolverKind::default_args`].
    pub args: Option<Vec<String>>,
    /// `(set-logic ...)` to send, e.g. `QF_BV`; `None` sends none.
    pub logic: Option<String>,
    /// Time allowed to each `check-sat` (and to each other request that
    /// waits for an answer); `None` waits for ever. Default: 10 s.
    pub timeout: Option<Duration>,
    /// Extra time the watchdog gives the solver beyond `timeout` before it
    /// kills it. Default: 1 s.
    pub grace: Duration,
    /// Send `(set-option :produce-models true)`. Default: true.
    pub produce_models: bool,
    /// Record every command sent (and every answer, as a comment) here.
    pub transcript: Option<Transcript>,
    /// The cap on concurrent solvers; `None` uses [`ProcessLimit::global`].
    pub limit: Option<Arc<ProcessLimit>>,
}

impl SolverConfig {
    /// Defaults for `kind`.
    pub fn new(kind: SolverKind) -> SolverConfig {
        SolverConfig {
            kind,
            program: None,
            args: None,
            logic: None,
            timeout: Some(Duration::from_secs(10)),
            grace: Duration::from_secs(1),
            produce_models: true,
            transcript: None,
            limit: None,
        }
    }

    /// Defaults for z3.
    pub fn z3() -> SolverConfig {
        SolverConfig::new(SolverKind::Z3)
    }

    /// Defaults for cvc5.
    pub fn cvc5() -> SolverConfig {
        SolverConfig::new(SolverKind::Cvc5)
    }

    /// Sets [`SolverConfig::logic`].
    pub fn with_logic(mut self, logic: &str) -> SolverConfig {
        self.logic = Some(logic.to_owned());
        self
    }

    /// Sets [`SolverConfig::timeout`].
    pub fn with_timeout(mut self, timeout: Option<Duration>) -> SolverConfig {
        self.timeout = timeout;
        self
    }

    /// Sets [`SolverConfig::grace`].
    pub fn with_grace(mut self, grace: Duration) -> SolverConfig {
        self.grace = grace;
        self
    }

    /// Sets [`SolverConfig::program`].
    pub fn with_program(mut self, program: impl Into<PathBuf>) -> SolverConfig {
        self.program = Some(program.into());
        self
    }

    /// Sets [`SolverConfig::args`].
    pub fn with_args(mut self, args: impl IntoIterator<Item = impl Into<String>>) -> SolverConfig {
        self.args = Some(args.into_iter().map(Into::into).collect());
        self
    }

    /// Sets [`SolverConfig::transcript`].
    pub fn with_transcript(mut self, transcript: Transcript) -> SolverConfig {
        self.transcript = Some(transcript);
        self
    }

    /// Sets [`SolverConfig::limit`].
    pub fn with_limit(mut self, limit: Arc<ProcessLimit>) -> SolverConfig {
        self.limit = Some(limit);
        self
    }
}

impl Default for SolverConfig {
    /// z3 with the defaults above.
    fn default() -> SolverConfig {
        SolverConfig::z3()
    }
}
