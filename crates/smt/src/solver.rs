//! [`Solver`]: one incremental SMT-LIB2 session with a solver subprocess.
//!
//! Commands that print nothing on success (`declare-const`, `assert`,
//! `push`, `pop`) are buffered and written before the next request that
//! reads an answer (`check-sat`, `get-value`, `get-model`); an `(error ...)`
//! one of them provokes is read, in order, before that answer, and fails the
//! request. No `:print-success` round trips are needed.
//!
//! Soundness invariants:
//! - `Unsat` is returned only when the solver printed exactly `unsat` as the
//!   answer to `check-sat`, with no error before it in its output.
//! - A query that runs out of time is `CheckResult::Unknown("timeout after N
//!   ms")`: either the solver's own limit fired (it answers `unknown` and
//!   stays usable) or the watchdog killed it `grace` after the limit.
//! - A solver the watchdog killed is restarted (at most [`MAX_RESTARTS`]
//!   times per session) and given again every declaration and assertion of
//!   the scopes still open, so one query that hangs costs that query, not
//!   the session. Past the limit it stays dead.
//! - Any other failure is an `SmtError`, after which the solver is *dead*:
//!   its process is killed and every later request fails with
//!   `SmtError::Dead`. Start a new `Solver` to go on.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::config::{SolverConfig, SolverKind};
use crate::error::SmtError;
use crate::limits::{Permit, ProcessLimit};
use crate::locate::locate;
use crate::process::{Event, SolverProcess, WaitError};
use crate::sexp::Sexp;
use crate::term::{self, Sort, Term};
use crate::transcript::Transcript;
use crate::value::{decode_get_value, decode_model, truncate, Value};

/// How many times one session restarts a solver that the watchdog killed.
pub const MAX_RESTARTS: u32 = 4;

/// The answer to `check-sat`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CheckResult {
    /// Satisfiable; a model can be queried.
    Sat,
    /// Unsatisfiable.
    Unsat,
    /// The solver gave up; the reason is `timeout after N ms` for timeouts,
    /// otherwise the solver's `:reason-unknown` (e.g. `incomplete`).
    Unknown(String),
}

impl CheckResult {
    /// Whether this is `Sat`.
    pub fn is_sat(&self) -> bool {
        matches!(self, CheckResult::Sat)
    }

    /// Whether this is `Unsat`.
    pub fn is_unsat(&self) -> bool {
        matches!(self, CheckResult::Unsat)
    }

    /// Whether this is an `Unknown` caused by the time limit.
    pub fn is_timeout(&self) -> bool {
        matches!(self, CheckResult::Unknown(r) if r.starts_with("timeout after"))
    }
}

/// An incremental SMT-LIB2 session with one solver process.
///
/// Holds a slot of its [`ProcessLimit`] from before the process starts until
/// after it has been killed on drop.
#[derive(Debug)]
pub struct Solver {
    // Declared before `_permit`: fields drop in order, so the process is
    // killed and reaped before the slot is given back.
    process: SolverProcess,
    kind: SolverKind,
    timeout: Option<Duration>,
    grace: Duration,
    transcript: Option<Transcript>,
    /// Commands written since the last flush.
    buffered: String,
    /// The commands that built the solver's state, one frame per scope:
    /// the base and each open `push` (what a restart sends again).
    frames: Vec<Vec<String>>,
    /// The binary and its arguments (to restart it).
    program: PathBuf,
    args: Vec<String>,
    restarts: u32,
    depth: usize,
    dead: Option<String>,
    /// Whether the last check answered `unknown` because it ran out of
    /// its resource limit (not its time).
    out_of_resources: bool,
    _permit: Permit,
}

impl Solver {
    /// Finds the solver binary, waits for a free slot of the process limit,
    /// starts the process and sends the options and logic.
    pub fn start(config: SolverConfig) -> Result<Solver, SmtError> {
        let program = locate(config.kind, config.program.as_deref())?;
        let args = config
            .args
            .clone()
            .unwrap_or_else(|| config.kind.default_args());
        let limit = config.limit.clone().unwrap_or_else(ProcessLimit::global);
        let permit = limit.acquire();
        let process = SolverProcess::spawn(&program, &args)?;
        if let Some(t) = &config.transcript {
            t.comment(&format!(
                "warpsafe-smt session: {} {}",
                program.display(),
                args.join(" ")
            ));
            if let Some(timeout) = config.timeout {
                t.comment(&format!(
                    "each check-sat: {} ms, killed after {} ms more",
                    timeout.as_millis(),
                    config.grace.as_millis()
                ));
            }
        }
        let mut solver = Solver {
            process,
            kind: config.kind,
            timeout: config.timeout,
            grace: config.grace,
            transcript: config.transcript,
            buffered: String::new(),
            frames: vec![Vec::new()],
            program,
            args,
            restarts: 0,
            depth: 0,
            dead: None,
            out_of_resources: false,
            _permit: permit,
        };
        if config.produce_models {
            solver.command(&term::app(
                "set-option",
                [Sexp::atom(":produce-models"), term::bool(true)],
            ))?;
        }
        if let Some(timeout) = config.timeout {
            solver.command(&config.kind.timeout_option(timeout.as_millis().max(1)))?;
        }
        if let Some(logic) = &config.logic {
            let logic = Sexp::symbol(logic)
                .ok_or_else(|| SmtError::Usage(format!("invalid logic name `{logic}`")))?;
            solver.command(&term::app("set-logic", [logic]))?;
        }
        Ok(solver)
    }

    /// Which solver this is.
    pub fn kind(&self) -> SolverKind {
        self.kind
    }

    /// The binary that runs.
    pub fn program(&self) -> &Path {
        self.process.program()
    }

    /// The transcript this session records into, if any.
    pub fn transcript(&self) -> Option<&Transcript> {
        self.transcript.as_ref()
    }

    /// Sends a command that prints nothing on success (`set-option`,
    /// `define-sort`, `define-fun`, ...). Do not use it for commands that
    /// answer, nor to turn on `:print-success`.
    pub fn command(&mut self, command: &Sexp) -> Result<(), SmtError> {
        self.send(command, true)
    }

    /// Writes `command`; `state` when it builds the solver's state (a
    /// declaration, an assertion, an option), which a restart sends again.
    fn send(&mut self, command: &Sexp, state: bool) -> Result<(), SmtError> {
        self.alive()?;
        let text = command.to_string();
        if let Some(t) = &self.transcript {
            t.command(&text);
        }
        self.buffered.push_str(&text);
        self.buffered.push('\n');
        if state {
            self.frames
                .last_mut()
                .expect("invariant: the base frame is never popped")
                .push(text);
        }
        Ok(())
    }

    /// `(declare-const name sort)`; returns the constant as a term. Names
    /// are quoted as `|name|` when needed; a name that clashes with an
    /// SMT-LIB2 reserved word or theory symbol (`true`, `assert`, `+`) is
    /// rejected by the solver at the next answer (`SmtError::Solver`), so
    /// engines should prefix their names.
    pub fn declare_const(&mut self, name: &str, sort: &Sort) -> Result<Term, SmtError> {
        let symbol = symbol(name)?;
        self.command(&term::app(
            "declare-const",
            [symbol.clone(), sort.to_sexp()],
        ))?;
        Ok(symbol)
    }

    /// `(declare-fun name (args...) result)`; returns the function symbol,
    /// to apply with [`term::app`].
    pub fn declare_fun(
        &mut self,
        name: &str,
        args: &[Sort],
        result: &Sort,
    ) -> Result<Term, SmtError> {
        let symbol = symbol(name)?;
        let params = Sexp::list(args.iter().map(Sort::to_sexp));
        self.command(&term::app(
            "declare-fun",
            [symbol.clone(), params, result.to_sexp()],
        ))?;
        Ok(symbol)
    }

    /// `(assert term)`.
    pub fn assert(&mut self, term: &Term) -> Result<(), SmtError> {
        self.command(&term::app("assert", [term.clone()]))
    }

    /// `(push 1)`.
    pub fn push(&mut self) -> Result<(), SmtError> {
        self.send(&term::app("push", [Sexp::atom("1")]), false)?;
        self.frames.push(Vec::new());
        self.depth += 1;
        Ok(())
    }

    /// `(pop 1)`; fails without a matching [`Solver::push`].
    pub fn pop(&mut self) -> Result<(), SmtError> {
        if self.depth == 0 {
            return Err(SmtError::Usage("pop without a matching push".to_owned()));
        }
        self.send(&term::app("pop", [Sexp::atom("1")]), false)?;
        self.frames.pop();
        self.depth -= 1;
        Ok(())
    }

    /// The number of open [`Solver::push`] scopes.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// `(check-sat)`. With z3, first incrementally within a resource
    /// limit and, when that runs out, again with z3's preprocessing tactics
    /// and SMT core (see [`SolverKind::quick_rlimit`]); each try has the
    /// time limit.
    pub fn check(&mut self) -> Result<CheckResult, SmtError> {
        self.check_in_stages(false, true)
    }

    /// [`Solver::check`] with, between its two tries, z3's bit-vector
    /// tactic within its own resource limit
    /// ([`SolverKind::bit_blast_check`]). For large case splits (a query
    /// over a whole phase) that both other tries give up on; on most other
    /// queries that run out of the first limit it only adds time.
    pub fn check_bit_blasting(&mut self) -> Result<CheckResult, SmtError> {
        self.check_in_stages(true, true)
    }

    /// [`Solver::check`] with, when `bit_blast`, the bit-vector try of
    /// [`Solver::check_bit_blasting`], but never the last try, which has
    /// no resource limit: with z3 every try is bounded by z3's step count,
    /// so `unknown` means the same on a loaded machine as on an idle one
    /// (unless the time limit comes first). For refinements that are
    /// allowed to give up. With cvc5, one plain check within the time
    /// limit.
    pub fn check_bounded(&mut self, bit_blast: bool) -> Result<CheckResult, SmtError> {
        self.check_in_stages(bit_blast, false)
    }

    /// The incremental try, the bit-blasted one when `bit_blast`, and the
    /// last, unbounded one when `last`; with cvc5, one plain check.
    fn check_in_stages(&mut self, bit_blast: bool, last: bool) -> Result<CheckResult, SmtError> {
        let plain = Sexp::list([Sexp::atom("check-sat")]);
        let Some(limit) = self.kind.quick_rlimit() else {
            return self.check_command(plain);
        };
        let mut tries = vec![(plain, Some(limit), None)];
        if bit_blast {
            tries.push((
                self.kind.bit_blast_check(),
                Some(self.kind.bit_blast_rlimit()),
                Some(BIT_BLAST_NOTE),
            ));
        }
        if last {
            tries.push((
                self.kind.fallback_check(),
                None,
                Some("the last try ran out of its resource limit: asking again with preprocessing"),
            ));
        }
        self.run_tries(tries)
    }

    /// Runs `(command, resource limit, transcript note)` tries in order
    /// until one answers within its resource limit, the time runs out or
    /// the tries do; the last try's answer.
    fn run_tries(
        &mut self,
        tries: Vec<(Sexp, Option<u64>, Option<&'static str>)>,
    ) -> Result<CheckResult, SmtError> {
        let mut answer = CheckResult::Unknown(String::new());
        for (command, rlimit, note) in tries {
            if let Some(note) = note {
                self.note(note);
            }
            if let Some(limit) = rlimit {
                self.send(&rlimit_option(limit), false)?;
            }
            let restarts = self.restarts;
            answer = self.check_command(command)?;
            // Killed by the watchdog (and perhaps restarted, without the
            // resource limit): the time is used up.
            if self.dead.is_some() || self.restarts != restarts {
                return Ok(answer);
            }
            if rlimit.is_some() {
                self.send(&rlimit_option(0), false)?;
            }
            if !self.out_of_resources {
                return Ok(answer);
            }
        }
        Ok(answer)
    }

    /// `(check-sat-assuming (lits...))`: checks with `assumptions` (Boolean
    /// constants or their negations) added for this query only.
    pub fn check_assuming(&mut self, assumptions: &[Term]) -> Result<CheckResult, SmtError> {
        self.check_command(term::app(
            "check-sat-assuming",
            [Sexp::list(assumptions.iter().cloned())],
        ))
    }

    /// `(get-value (terms...))` after a `Sat` check: one value per term, in
    /// order.
    pub fn get_values(&mut self, terms: &[Term]) -> Result<Vec<Value>, SmtError> {
        if terms.is_empty() {
            return Ok(Vec::new());
        }
        let answer = self.request(
            term::app("get-value", [Sexp::list(terms.iter().cloned())]),
            "a get-value answer",
        )?;
        decode_get_value(&answer, terms.len()).map_err(|e| self.fail(e))
    }

    /// `(get-model)` after a `Sat` check: the value of every declared
    /// constant, by name.
    pub fn get_model(&mut self) -> Result<Vec<(String, Value)>, SmtError> {
        let answer = self.request(Sexp::list([Sexp::atom("get-model")]), "a model")?;
        decode_model(&answer).map_err(|e| self.fail(e))
    }

    fn check_command(&mut self, command: Sexp) -> Result<CheckResult, SmtError> {
        self.out_of_resources = false;
        self.send(&command, false)?;
        self.flush();
        let start = Instant::now();
        // A limit too far away to represent as an instant is no deadline.
        let deadline = self
            .timeout
            .and_then(|t| start.checked_add(t.saturating_add(self.grace)));
        let answer = match self.read_answer(deadline, &command, "sat, unsat or unknown") {
            Ok(answer) => answer,
            Err(Failure::Deadline) => return Ok(self.watchdog_kill(start)),
            // z3 reports a tactic that its time limit stopped
            // (`check-sat-using`) as `(error "tactic failed: canceled")`:
            // an unknown answer, and the session stays usable.
            Err(Failure::Error(SmtError::Solver { message }))
                if message.contains("canceled") && self.timeout.is_some() =>
            {
                self.out_of_resources = false;
                return Ok(CheckResult::Unknown(timeout_reason(
                    self.timeout.unwrap_or_default(),
                )));
            }
            Err(Failure::Error(e)) => return Err(self.fail(e)),
        };
        match answer.as_atom() {
            Some("sat") => Ok(CheckResult::Sat),
            Some("unsat") => Ok(CheckResult::Unsat),
            Some("unknown") => self.reason_unknown(deadline, start),
            _ => Err(self.fail(SmtError::UnexpectedResponse {
                expected: "sat, unsat or unknown",
                got: truncate(&answer.to_string()),
            })),
        }
    }

    /// Asks why the solver answered `unknown` and words it as the reason.
    fn reason_unknown(
        &mut self,
        deadline: Option<Instant>,
        start: Instant,
    ) -> Result<CheckResult, SmtError> {
        let command = term::app("get-info", [Sexp::atom(":reason-unknown")]);
        self.send(&command, false)?;
        self.flush();
        // The solver has just answered, so this is quick; allow at least
        // `grace` even when the query used up its time.
        let deadline = deadline.map(|d| d.max(Instant::now() + self.grace));
        let reason = match self.read_answer(deadline, &command, "a reason-unknown answer") {
            Ok(answer) => match answer.as_list() {
                Some([key, reason]) if key.as_atom() == Some(":reason-unknown") => reason
                    .as_string_literal()
                    .unwrap_or_else(|| reason.to_string()),
                _ => answer.to_string(),
            },
            Err(Failure::Error(SmtError::Unsupported { .. })) => "unknown".to_owned(),
            Err(Failure::Deadline) => return Ok(self.watchdog_kill(start)),
            Err(Failure::Error(e)) => {
                // The answer was `unknown` either way; the session is not
                // trusted after a failure.
                let reason = format!("unknown ({e})");
                self.fail(e);
                return Ok(CheckResult::Unknown(reason));
            }
        };
        let lower = reason.to_ascii_lowercase();
        let timed_out = ["timeout", "cancel", "resource"]
            .iter()
            .any(|word| lower.contains(word));
        // z3 says `timeout` for the time limit and `canceled` or `max.
        // resource limit exceeded` for the resource limit.
        self.out_of_resources = timed_out && !lower.contains("timeout");
        Ok(CheckResult::Unknown(match self.timeout {
            Some(t) if timed_out => timeout_reason(t),
            _ => reason,
        }))
    }

    /// Sends a command that has one answer and returns the answer.
    fn request(&mut self, command: Sexp, expected: &'static str) -> Result<Sexp, SmtError> {
        self.send(&command, false)?;
        self.flush();
        let after = self.timeout.map(|t| t + self.grace);
        match self.read_answer(after.map(|a| Instant::now() + a), &command, expected) {
            Ok(answer) => Ok(answer),
            Err(Failure::Error(e)) => Err(self.fail(e)),
            Err(Failure::Deadline) => Err(self.fail(SmtError::Unresponsive {
                command: truncate(&command.to_string()),
                after: after.unwrap_or_default(),
            })),
        }
    }

    /// Reads the next answer; an `(error ...)`, `unsupported`, garbage or
    /// end of output is a failure.
    fn read_answer(
        &mut self,
        deadline: Option<Instant>,
        command: &Sexp,
        expected: &'static str,
    ) -> Result<Sexp, Failure> {
        let event = match self.process.recv(deadline) {
            Ok(event) => event,
            Err(WaitError::Deadline) => return Err(Failure::Deadline),
            Err(WaitError::Eof) => {
                let err = self.process.exited_error();
                self.note(&format!("solver exited: {err}"));
                return Err(Failure::Error(err));
            }
        };
        let answer = match event {
            Event::Answer(answer) => answer,
            Event::Garbage(got) => {
                self.note(&format!("unreadable output: {got}"));
                return Err(Failure::Error(SmtError::UnexpectedResponse {
                    expected,
                    got,
                }));
            }
            Event::Eof => return Err(Failure::Error(self.process.exited_error())),
        };
        self.note(&answer.to_string());
        if let Some([head, message]) = answer.as_list() {
            if head.as_atom() == Some("error") {
                let message = message
                    .as_string_literal()
                    .unwrap_or_else(|| message.to_string());
                return Err(Failure::Error(SmtError::Solver { message }));
            }
        }
        if answer.as_atom() == Some("unsupported") {
            return Err(Failure::Error(SmtError::Unsupported {
                command: truncate(&command.to_string()),
            }));
        }
        Ok(answer)
    }

    /// The watchdog fired: kill the solver, restart it with the state of
    /// the open scopes (or, past [`MAX_RESTARTS`] or when it cannot start,
    /// leave it dead) and report the timeout.
    fn watchdog_kill(&mut self, start: Instant) -> CheckResult {
        let waited = start.elapsed().as_millis();
        self.process.kill();
        let reason = format!("killed by the watchdog after {waited} ms without an answer");
        self.note(&reason);
        if self.restarts < MAX_RESTARTS {
            match SolverProcess::spawn(&self.program, &self.args) {
                Ok(process) => {
                    self.process = process;
                    self.restarts += 1;
                    let mut replay = String::new();
                    for (i, frame) in self.frames.iter().enumerate() {
                        if i > 0 {
                            replay.push_str("(push 1)\n");
                        }
                        for command in frame {
                            replay.push_str(command);
                            replay.push('\n');
                        }
                    }
                    self.note(&format!(
                        "restarted the solver ({} of {MAX_RESTARTS}) and sent again the {} scope(s) still open",
                        self.restarts,
                        self.frames.len()
                    ));
                    self.buffered = replay;
                }
                Err(e) => self.dead = Some(format!("{reason}; restarting it failed: {e}")),
            }
        } else {
            self.dead = Some(reason);
        }
        // The deadline exists only when a timeout is set.
        CheckResult::Unknown(timeout_reason(self.timeout.unwrap_or_default()))
    }

    /// Marks the solver dead, kills it, and passes `err` on.
    fn fail(&mut self, err: SmtError) -> SmtError {
        if self.dead.is_none() {
            self.dead = Some(err.to_string());
        }
        self.process.kill();
        err
    }

    fn alive(&self) -> Result<(), SmtError> {
        match &self.dead {
            Some(reason) => Err(SmtError::Dead {
                reason: reason.clone(),
            }),
            None => Ok(()),
        }
    }

    fn flush(&mut self) {
        if !self.buffered.is_empty() {
            let bytes = std::mem::take(&mut self.buffered).into_bytes();
            self.process.send(bytes);
        }
    }

    fn note(&self, text: &str) {
        if let Some(t) = &self.transcript {
            t.comment(text);
        }
    }
}

/// Why [`Solver::read_answer`] got no answer.
enum Failure {
    Deadline,
    Error(SmtError),
}

/// The transcript's note before the bit-blasted try.
const BIT_BLAST_NOTE: &str =
    "the incremental try ran out of its resource limit: asking again, bit-blasted";

/// `(set-option :rlimit N)` (0: no limit).
fn rlimit_option(limit: u64) -> Sexp {
    term::app(
        "set-option",
        [Sexp::atom(":rlimit"), Sexp::atom(limit.to_string())],
    )
}

fn timeout_reason(timeout: Duration) -> String {
    format!("timeout after {} ms", timeout.as_millis())
}

fn symbol(name: &str) -> Result<Sexp, SmtError> {
    Sexp::symbol(name)
        .ok_or_else(|| SmtError::Usage(format!("`{name}` cannot be an SMT-LIB2 symbol")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solver_can_move_to_worker_threads() {
        fn send<T: Send>() {}
        send::<Solver>();
        send::<CheckResult>();
        send::<SmtError>();
    }

    #[test]
    fn check_results() {
        assert!(CheckResult::Sat.is_sat());
        assert!(CheckResult::Unsat.is_unsat());
        assert!(CheckResult::Unknown(timeout_reason(Duration::from_millis(5))).is_timeout());
        assert!(!CheckResult::Unknown("incomplete".to_owned()).is_timeout());
    }
}
