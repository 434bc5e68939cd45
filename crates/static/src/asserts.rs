//! Assertion checking (seed 001's one-thread view of `assert`): for every
//! `assert`/`__assert` of a kernel, is there a thread, with any launch
//! within the given dimensions and any parameters satisfying the
//! preconditions, that reaches it with its condition false?
//!
//! One query per assertion: `guard(t) ∧ ¬cond(t)` for one symbolic thread
//! `t` (ids within the launch), the enclosing counting loops' variables
//! constrained to their ranges (when the loop is exact), and the kernel's
//! unconditional preconditions that come *before* the assertion in program
//! order (a later `__assume` must not prove an earlier assertion; each
//! group of assertions with the same preceding preconditions gets its own
//! solver session).
//!
//! - `unsat`: the assertion holds for every thread ([`AssertOutcome::Holds`]);
//!   so does an assertion whose condition folds to `true` (or whose path
//!   condition folds to `false`), without starting a solver.
//! - `sat` with an exact encoding: it fails, *provable*, with the thread
//!   and values of the model; when the encoding involves unknowns (a value
//!   loaded from memory, a variable modified in a loop, an opaque call) or
//!   a loop variable whose value may not be taken (a step by a symbolic
//!   amount, which `stride` leaves out here), the
//!   failure is only *possible*, with those reasons (seed 004).
//! - anything else (timeout, a condition that cannot be encoded): UNKNOWN
//!   with the reason.
//!
//! Soundness: every unknown leaf is a fresh constant (any value), dropped
//! preconditions only widen the search, so `Holds` is never claimed for an
//! assertion some thread can violate.

use crate::encode::{sort_of, Encoder};
use crate::protocol::{Condition, ConditionOrigin, KernelProtocol};
use crate::race::{describe_reason, in_range_of, Check, Fatal};
use crate::stride;
use crate::verdict::{AssertCheck, AssertOutcome, AssertWitness, Certainty, LoopValue, ThreadId};
use warpsafe_ir::{Kernel, ScalarTy};
use warpsafe_smt::{term, CheckResult, SolverConfig, Term};

/// Checks every assertion of `kp`, in program order.
pub(crate) fn check_asserts(
    kernel: &Kernel,
    kp: &KernelProtocol,
    solver: &SolverConfig,
    params: &[(String, i128)],
    assumptions: crate::race::Assumptions,
) -> Vec<AssertCheck> {
    let mut out: Vec<Option<AssertCheck>> = vec![None; kp.asserts.len()];
    // Group the assertions by the preconditions that precede them.
    let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
    for (k, a) in kp.asserts.iter().enumerate() {
        let before = kp.preconditions.iter().filter(|p| p.seq < a.seq).count();
        match groups.iter_mut().find(|(b, _)| *b == before) {
            Some((_, v)) => v.push(k),
            None => groups.push((before, vec![k])),
        }
    }
    for (before, mut members) in groups {
        // An assertion whose condition folded to `true` (or that no path
        // reaches) holds without asking the solver.
        members.retain(|&k| {
            let a = &kp.asserts[k];
            let trivial = a.cond.is_true() || a.guard.is_false();
            if trivial {
                out[k] = Some(AssertCheck {
                    span: a.span,
                    message: message(a),
                    outcome: AssertOutcome::Holds,
                });
            }
            !trivial
        });
        if members.is_empty() {
            continue;
        }
        let mut scoped = kp.clone();
        scoped.preconditions.truncate(before);
        let mut check = Check::new(
            kernel,
            &scoped,
            solver.clone(),
            params,
            assumptions,
            Vec::new(),
        );
        check.late_assumes = true;
        let started = check.session().map(|_| ());
        let reasons = check.global_reasons.clone();
        for k in members {
            let a = &kp.asserts[k];
            let outcome = match &started {
                Err(e) => AssertOutcome::Unknown {
                    reason: format!("solver failed: {e}"),
                },
                Ok(()) => match one(&mut check, kernel, a, k, &reasons) {
                    Ok(o) => o,
                    Err(e) => AssertOutcome::Unknown {
                        reason: format!("solver failed: {e}"),
                    },
                },
            };
            out[k] = Some(AssertCheck {
                span: a.span,
                message: message(a),
                outcome,
            });
        }
    }
    out.into_iter().flatten().collect()
}

/// The source text of an assertion.
fn message(a: &Condition) -> String {
    match &a.origin {
        ConditionOrigin::Assert { message } => message.clone(),
        ConditionOrigin::Assume(_) | ConditionOrigin::Launch | ConditionOrigin::CounterNoWrap => {
            String::new()
        }
    }
}

/// The query of one assertion.
fn one(
    check: &mut Check<'_>,
    kernel: &Kernel,
    a: &Condition,
    k: usize,
    global_reasons: &[String],
) -> Result<AssertOutcome, Fatal> {
    let s = check.session()?;
    let g = &s.globals;
    let mut e = Encoder::new(&g.shared, &g.threads[0], &format!("assert{k}"));
    let mut asserts: Vec<Term> = Vec::new();
    let mut loops: Vec<(String, ScalarTy, Term)> = Vec::new();
    let mut reasons: Vec<String> = Vec::new();
    let encoded = (|| {
        for l in &a.loops {
            let v = e.fresh("loop", sort_of(l.ty)?);
            let lo = e.encode_as(&l.lo, l.ty)?;
            let hi = e.encode_as(&l.hi, l.ty)?;
            let valid = e.encode_as(&l.valid, ScalarTy::Bool)?;
            e.loop_vars.insert(l.loop_id, v.clone());
            let mut range: Vec<Term> = in_range_of(l.ty, lo, v.clone(), hi).into();
            // Symbolic strides are left out (see `stride`).
            let exact = l.step.is_unit() || g.constants.ground(&l.step);
            if exact {
                range.extend(stride::reachable(&mut e, l.into(), &v)?);
            }
            asserts.push(term::implies(valid, term::and(range)));
            let name = kernel.var(l.var).name.clone();
            if !exact || !l.valid.is_true() {
                reasons.push(format!(
                    "loop `{name}` may not take the witness value (its step or range is approximate)"
                ));
            }
            loops.push((name, l.ty, v));
        }
        asserts.push(e.encode_program(&a.guard, ScalarTy::Bool)?);
        asserts.push(term::not(e.encode_program(&a.cond, ScalarTy::Bool)?));
        asserts.append(&mut e.facts);
        Ok::<(), crate::encode::EncodeError>(())
    })();
    if let Err(err) = encoded {
        return Ok(AssertOutcome::Unknown {
            reason: format!("the assertion cannot be encoded: {}", err.0),
        });
    }
    for r in &e.approximations {
        let d = describe_reason(kernel, r);
        if !reasons.contains(&d) {
            reasons.push(d);
        }
    }
    reasons.extend(global_reasons.iter().cloned());
    let solver = &mut s.solver;
    solver.push()?;
    for (name, sort) in &e.decls {
        solver.declare_const(name, sort)?;
    }
    for t in &asserts {
        solver.assert(t)?;
    }
    let outcome = match solver.check()? {
        CheckResult::Unsat => AssertOutcome::Holds,
        CheckResult::Unknown(msg) => AssertOutcome::Unknown {
            reason: format!("the solver gave up: {msg}"),
        },
        CheckResult::Sat => {
            let witness = witness(kernel, s, &loops).ok();
            AssertOutcome::Fails {
                certainty: if reasons.is_empty() {
                    Certainty::Provable
                } else {
                    Certainty::Possible { reasons }
                },
                witness,
            }
        }
    };
    s.solver.pop()?;
    Ok(outcome)
}

/// The failing thread and values, from the model.
fn witness(
    kernel: &Kernel,
    s: &mut crate::race::Session,
    loops: &[(String, ScalarTy, Term)],
) -> Result<AssertWitness, warpsafe_smt::SmtError> {
    let g = &s.globals;
    let t = &g.threads[0];
    let mut terms: Vec<Term> = Vec::new();
    terms.extend(t.block_idx.iter().cloned());
    terms.extend(t.thread_idx.iter().cloned());
    terms.extend(g.shared.block_dim.iter().cloned());
    terms.extend(g.shared.grid_dim.iter().cloned());
    terms.extend(g.params.iter().map(|p| p.2.clone()));
    terms.extend(loops.iter().map(|l| l.2.clone()));
    let values = s.solver.get_values(&terms)?;
    let unsigned = |i: usize| match values.get(i) {
        Some(warpsafe_smt::Value::BitVec { value, .. }) => *value as u64,
        _ => 0,
    };
    let typed = |i: usize, ty: ScalarTy| match (values.get(i), ty.is_signed()) {
        (Some(v @ warpsafe_smt::Value::BitVec { .. }), true) => v.as_signed().unwrap_or(0),
        (Some(warpsafe_smt::Value::BitVec { value, .. }), false) => *value as i128,
        (Some(warpsafe_smt::Value::Bool(b)), _) => i128::from(*b),
        _ => 0,
    };
    let triple = |at: usize| [unsigned(at), unsigned(at + 1), unsigned(at + 2)];
    let at = 12;
    let params: Vec<(String, i128)> = g
        .params
        .iter()
        .enumerate()
        .map(|(k, (name, ty, _))| (name.clone(), typed(at + k, *ty)))
        .collect();
    let at = at + params.len();
    let loop_vars = loops
        .iter()
        .enumerate()
        .map(|(k, (name, ty, _))| LoopValue {
            thread: 1,
            name: name.clone(),
            value: typed(at + k, *ty),
        })
        .collect();
    Ok(AssertWitness {
        thread: ThreadId {
            block_idx: triple(0),
            thread_idx: triple(3),
        },
        block_dim: kernel.launch.block.is_none().then(|| triple(6)),
        grid_dim: kernel.launch.grid.is_none().then(|| triple(9)),
        params,
        loop_vars,
    })
}
