//! Whether a *provable* race happens for every launch and every argument.
//!
//! Seed 004 calls an alarm a true alarm when the kernel's accesses do not
//! depend on memory: the race exists for *some* values of the scalar
//! parameters and of the launch dimensions the check leaves open. On real
//! code that reads too strongly: `out[y * pitch + x]` under `x < width`
//! races when `pitch < width`, which no host passes, and a user reads
//! "provable" as "will race on my launch". So a race the query found
//! provable is asked once more, in a second solver that allows
//! quantifiers:
//!
//! > are there arguments and open dimensions (`p`) under which two threads
//! > of the pair's class reach both accesses, yet no two threads collide?
//!
//! i.e. `reach(p, t) ∧ ∀ t'. ¬(facts(t') ∧ reach(p, t') ∧ collide(p, t'))`,
//! where `t` are both threads, their loop variables and every constant of
//! the query, and `facts` what the session asserts of threads (ids within
//! the launch, the global index, preconditions). `unsat`: the race happens
//! whatever the host passes, *provable*; `sat`: only for some arguments,
//! *possible*, and the reason names arguments without a race; the solver
//! giving up also leaves the race *possible* (a wrong *provable* is the
//! worst answer the check can give).
//!
//! Preconditions (launch relations from host code, `__requires`) hold in
//! the session, so the arguments range only over what they allow: a race
//! that needs `width % 16 != 0` under `gridDim.x == (width + 15) / 16` is
//! *possible*, with the clean `width=1024` named. A collision of the two
//! accesses between blocks counts for a race found within a block (and is
//! part of the body as a second disjunct, over its own constants).
//!
//! z3 answers these bit-vector quantifiers by model-based instantiation,
//! with e-matching off (it loops on them), within a resource limit (the
//! answer does not depend on the machine's load). Facts about a global
//! index the question never mentions are left out: the index is defined
//! for every pair of threads, and its product makes the question hard.
//!
//! **Invariant:** the quantified variables are named as the session's
//! constants; SMT-LIB's binders shadow them, so no term is rewritten.
//! **Boundary:** the second solver is started only after the session's
//! solver is dropped, so one thread never holds two capped processes.

use std::collections::HashSet;
use std::time::Duration;

use warpsafe_ir::{LaunchConfig, ScalarTy};
use warpsafe_smt::{
    term, CheckResult, Sexp, SmtError, Solver, SolverConfig, SolverKind, Sort, Term,
};

/// z3's resource limit for the quantified question (about 3 s here; a
/// resource limit, not a time limit, so that the answer does not depend
/// on the machine's load).
const RLIMIT: u64 = 15_000_000;

/// z3's resource limit for the search for small values of a clean launch.
const SMALL_RLIMIT: u64 = 3_000_000;

/// The time limit of each question with cvc5 (its only limit), and the
/// watchdog's when no per-query timeout is set. With z3 the resource limit
/// decides and the watchdog waits for the per-query timeout: under 5 s of
/// wall time, a loaded machine gave up on questions that z3 answers within
/// its resource limit (that of `out[y * pitch + x]` under `x < width`:
/// 3.7 s of CPU under load), and the answer then depended on the load.
const TIMEOUT: Duration = Duration::from_secs(5);

/// The small values a clean launch is first looked for within: scalar
/// parameters and open grid dimensions at most this, block dimensions at
/// most [`SMALL_BLOCK`].
const SMALL: u128 = 1024;
const SMALL_BLOCK: u128 = 256;

/// What the session's `declare_globals` sent, replayed in the second solver.
#[derive(Clone, Debug, Default)]
pub(crate) struct Prelude {
    pub(crate) decls: Vec<(String, Sort)>,
    pub(crate) asserts: Vec<Term>,
    /// The constants of the two threads (ids, global indices, their
    /// preconditions' intermediate values): bound by the quantifier.
    pub(crate) thread_decls: Vec<(String, Sort)>,
    /// What the session asserts of the two threads (also in `asserts`),
    /// each with the dimension of the global index it defines or bounds
    /// (left out of questions that do not mention that index: it is
    /// defined for every pair of threads, and its multiplication makes the
    /// quantified question hard).
    pub(crate) thread_facts: Vec<(Term, Option<usize>)>,
}

impl Prelude {
    /// Declares a constant (of a thread, with `thread`) and records it.
    pub(crate) fn declare(
        &mut self,
        solver: &mut Solver,
        name: &str,
        sort: &Sort,
        thread: bool,
    ) -> Result<Term, SmtError> {
        let t = solver.declare_const(name, sort)?;
        self.decls.push((name.to_string(), sort.clone()));
        if thread {
            self.thread_decls.push((name.to_string(), sort.clone()));
        }
        Ok(t)
    }

    /// Asserts a fact and records it, with what it is about.
    pub(crate) fn assert(
        &mut self,
        solver: &mut Solver,
        fact: Term,
        about: Fact,
    ) -> Result<(), SmtError> {
        solver.assert(&fact)?;
        match about {
            Fact::Launch => {}
            Fact::Thread => self.thread_facts.push((fact.clone(), None)),
            Fact::GlobalIndex(d) => self.thread_facts.push((fact.clone(), Some(d))),
        }
        self.asserts.push(fact);
        Ok(())
    }
}

/// What a fact of the prelude is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fact {
    /// The launch and the parameters only: asserted once, outside the
    /// quantifier.
    Launch,
    /// The two threads: repeated inside the quantifier.
    Thread,
    /// The threads' global index along a dimension (its definition or a
    /// lemma): repeated inside the quantifier when the question mentions
    /// that index.
    GlobalIndex(usize),
}

/// One provable race's query, for the second question.
#[derive(Clone, Debug)]
pub(crate) struct Question {
    /// The query's own constants (loop variables, encoder temporaries).
    pub(crate) decls: Vec<(String, Sort)>,
    /// Both threads reach their accesses (guards, loop domains, scope).
    pub(crate) reach: Vec<Term>,
    /// The accesses collide (equal indices, with the lemmas about them).
    pub(crate) collide: Vec<Term>,
    /// For a race within a block on a global array: the same two accesses
    /// by threads of different blocks (another way the race happens).
    pub(crate) across: Option<Across>,
}

/// Two accesses by threads of different blocks, reached and colliding,
/// over their own constants.
#[derive(Clone, Debug)]
pub(crate) struct Across {
    pub(crate) decls: Vec<(String, Sort)>,
    pub(crate) conjuncts: Vec<Term>,
}

/// The answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Answer {
    /// For every launch and argument under which both accesses run.
    Every,
    /// Not for these (printed `name=value`): both accesses run, no
    /// collision.
    NotFor(Vec<String>),
    /// The solver gave up (its message).
    GaveUp(String),
}

impl Answer {
    /// The reason a race whose answer is not [`Answer::Every`] is only
    /// possible.
    pub(crate) fn reason(&self) -> Option<String> {
        self.reason_as("both accesses run and do not collide")
    }

    /// The reason a finding whose answer is not [`Answer::Every`] is only
    /// possible, saying what `clean` launches show (`the threads of each
    /// block agree on the barrier`).
    pub(crate) fn reason_as(&self, clean: &str) -> Option<String> {
        match self {
            Answer::Every => None,
            Answer::NotFor(values) if values.is_empty() => {
                Some("only for some launches or arguments".to_string())
            }
            Answer::NotFor(values) => Some(format!(
                "only for some launches or arguments: with {} {clean} \
                 (check that the host never passes the witness's values)",
                values.join(", ")
            )),
            Answer::GaveUp(msg) => Some(format!(
                "not shown to happen for every launch and argument (the solver gave up: {msg})"
            )),
        }
    }
}

/// The second solver, started on the first question.
pub(crate) struct Universal<'a> {
    config: SolverConfig,
    prelude: &'a Prelude,
    /// The scalar parameters and open launch dimensions, as reports name
    /// them (`n`, `blockDim.x`), for the values of a clean launch, each
    /// with the bound its small values are first looked for within.
    values: Vec<(String, ScalarTy, Term, u128)>,
    solver: Option<Solver>,
}

impl<'a> Universal<'a> {
    pub(crate) fn new(
        config: &SolverConfig,
        prelude: &'a Prelude,
        params: &[(String, ScalarTy, Term)],
        launch: &LaunchConfig,
        [block_dim, grid_dim]: [&[Term; 3]; 2],
    ) -> Universal<'a> {
        // Quantifiers are outside the session's quantifier-free logic; z3
        // does not always stop at its own timeout on them, so the watchdog
        // is set to this question's time limit.
        let mut config = config.clone();
        config.logic = None;
        config.timeout = Some(match config.kind {
            SolverKind::Z3 => config.timeout.unwrap_or(TIMEOUT),
            SolverKind::Cvc5 => config.timeout.map_or(TIMEOUT, |t| t.min(TIMEOUT)),
        });
        let mut values: Vec<_> = params
            .iter()
            .map(|(name, ty, t)| (name.clone(), *ty, t.clone(), SMALL))
            .collect();
        for (d, axis) in AXES.into_iter().enumerate() {
            for (open, kind, term, small) in [
                (
                    launch.block_dim(d).is_none(),
                    "blockDim",
                    &block_dim[d],
                    SMALL_BLOCK,
                ),
                (launch.grid_dim(d).is_none(), "gridDim", &grid_dim[d], SMALL),
            ] {
                if open {
                    values.push((format!("{kind}.{axis}"), ScalarTy::U32, term.clone(), small));
                }
            }
        }
        Universal {
            config,
            prelude,
            values,
            solver: None,
        }
    }

    fn solver(&mut self) -> Result<&mut Solver, SmtError> {
        if self.solver.is_none() {
            let mut solver = Solver::start(self.config.clone())?;
            if self.config.kind == SolverKind::Z3 {
                // E-matching loops on these bit-vector quantifiers;
                // model-based instantiation alone answers them.
                solver.command(&term::app(
                    "set-option",
                    [Sexp::atom(":smt.ematching"), Sexp::atom("false")],
                ))?;
            }
            for (name, sort) in &self.prelude.decls {
                solver.declare_const(name, sort)?;
            }
            for fact in &self.prelude.asserts {
                solver.assert(fact)?;
            }
            self.solver = Some(solver);
        }
        Ok(self.solver.as_mut().expect("invariant: started above"))
    }

    /// Asks the question of one race. A solver failure is an answer (the
    /// solver gave up); after giving up (perhaps killed by the watchdog)
    /// the next question starts a new solver.
    pub(crate) fn ask(&mut self, q: &Question) -> Answer {
        let answer = self
            .ask_in(q)
            .unwrap_or_else(|e| Answer::GaveUp(e.to_string()));
        if matches!(answer, Answer::GaveUp(_)) {
            self.solver = None;
        }
        answer
    }

    fn ask_in(&mut self, q: &Question) -> Result<Answer, SmtError> {
        let prelude = self.prelude;
        let across = q.across.as_ref();
        let mentioned = atoms(
            q.reach
                .iter()
                .chain(&q.collide)
                .chain(across.into_iter().flat_map(|x| &x.conjuncts)),
        );
        let global_index_used = |d: usize| {
            ["t1", "t2"]
                .iter()
                .any(|t| mentioned.contains(&format!("{t}_globalIdx_{}", AXES[d])))
        };
        let bound: Vec<Sexp> = prelude
            .thread_decls
            .iter()
            .chain(&q.decls)
            .chain(across.into_iter().flat_map(|x| &x.decls))
            .map(|(name, sort)| Sexp::list([Sexp::atom(name.clone()), sort.to_sexp()]))
            .collect();
        let facts: Vec<Term> = prelude
            .thread_facts
            .iter()
            .filter(|(_, d)| d.is_none_or(global_index_used))
            .map(|(f, _)| f.clone())
            .collect();
        let within = term::and(q.reach.iter().chain(&q.collide).cloned());
        let collision = match across {
            Some(x) => term::or([within, term::and(x.conjuncts.iter().cloned())]),
            None => within,
        };
        let body = term::not(term::and(facts.into_iter().chain([collision])));
        let no_collision = Sexp::list([Sexp::atom("forall"), Sexp::list(bound), body]);
        let values = self.values.clone();
        let kind = self.config.kind;
        let solver = self.solver()?;
        solver.push()?;
        for (name, sort) in &q.decls {
            solver.declare_const(name, sort)?;
        }
        for c in &q.reach {
            solver.assert(c)?;
        }
        solver.assert(&no_collision)?;
        let answer = match check_limited(solver, kind, RLIMIT)? {
            CheckResult::Unsat => Answer::Every,
            // The solver is dropped, scopes and all (see `ask`).
            CheckResult::Unknown(msg) => return Ok(Answer::GaveUp(msg)),
            CheckResult::Sat => {
                let model = read(solver, &values)?;
                // Small values read better than the first model's; a
                // failure to find them keeps these (and a new solver is
                // started for the next question).
                match smaller(solver, kind, &values) {
                    Ok(Some(small)) => Answer::NotFor(small),
                    Ok(None) => Answer::NotFor(model),
                    Err(_) => {
                        self.solver = None;
                        return Ok(Answer::NotFor(model));
                    }
                }
            }
        };
        solver.pop()?;
        Ok(answer)
    }
}

const AXES: [&str; 3] = ["x", "y", "z"];

/// A clean launch with every value at most its small bound, if the solver
/// finds one within its limit.
fn smaller(
    solver: &mut Solver,
    kind: SolverKind,
    values: &[(String, ScalarTy, Term, u128)],
) -> Result<Option<Vec<String>>, SmtError> {
    solver.push()?;
    for (_, ty, t, small) in values {
        if *ty == ScalarTy::Bool || ty.is_float() {
            continue;
        }
        let bits = ty.bits();
        let top = term::bv(*small, bits);
        if ty.is_signed() {
            solver.assert(&term::bvsge(t.clone(), term::bv(0, bits)))?;
            solver.assert(&term::bvsle(t.clone(), top))?;
        } else {
            solver.assert(&term::bvule(t.clone(), top))?;
        }
    }
    let found = if check_limited(solver, kind, SMALL_RLIMIT)?.is_sat() {
        Some(read(solver, values)?)
    } else {
        None
    };
    solver.pop()?;
    Ok(found)
}

/// `name=value` for each of `values`, from the solver's model.
fn read(
    solver: &mut Solver,
    values: &[(String, ScalarTy, Term, u128)],
) -> Result<Vec<String>, SmtError> {
    let terms: Vec<Term> = values.iter().map(|(_, _, t, _)| t.clone()).collect();
    let got = solver.get_values(&terms)?;
    Ok(values
        .iter()
        .zip(got)
        .map(|((name, ty, _, _), v)| format!("{name}={}", crate::race::typed_value(&v, *ty)))
        .collect())
}

/// One plain `check-sat` (no resource-limited first try: its fallback
/// tactics do not take quantifiers) within z3's resource limit `rlimit`,
/// or cvc5's per-check time limit.
fn check_limited(
    solver: &mut Solver,
    kind: SolverKind,
    rlimit: u64,
) -> Result<CheckResult, SmtError> {
    let limit = |value: String| match kind {
        SolverKind::Z3 => term::app("set-option", [Sexp::atom(":rlimit"), Sexp::atom(value)]),
        SolverKind::Cvc5 => crate::race::timeout_option(kind, Some(TIMEOUT)),
    };
    solver.command(&limit(rlimit.to_string()))?;
    let r = solver.check_assuming(&[]);
    solver.command(&limit("0".to_string()))?;
    r
}

/// The atoms (symbols and literals) of `terms`.
fn atoms<'t>(terms: impl Iterator<Item = &'t Term>) -> HashSet<String> {
    let mut out = HashSet::new();
    let mut stack: Vec<&Term> = terms.collect();
    while let Some(t) = stack.pop() {
        match t {
            Sexp::Atom(a) => {
                out.insert(a.clone());
            }
            Sexp::List(items) => stack.extend(items),
        }
    }
    out
}
