//! The well-formedness questions barrier aligning asks (seed 002 §5):
//! whether values are the same for two threads of a block (or of the
//! grid), whether a branch is feasible and a loop non-empty, in the
//! solver session's context of enclosing synchronized loops; and the
//! divergence witness from a model.

use super::*;

impl Oracle for Check<'_> {
    type Error = Fatal;

    fn uniform(
        &mut self,
        sync_loops: &[&ForLoop],
        guards: &[Sym],
        values: &[&Sym],
    ) -> Result<Uniformity, Fatal> {
        self.uniform_in(sync_loops, guards, values, true)
    }

    fn grid_uniform(&mut self, guards: &[Sym], values: &[&Sym]) -> Result<Uniformity, Fatal> {
        self.uniform_in(&[], guards, values, false)
    }

    fn feasible(
        &mut self,
        sync_loops: &[&ForLoop],
        guards: &[Sym],
        cond: &Sym,
    ) -> Result<bool, Fatal> {
        let r = self.scoped_query(sync_loops, guards, |e1, _| {
            e1.encode_as(cond, ScalarTy::Bool)
        })?;
        // Dead only on a clean `unsat`.
        match r {
            Ok(CheckResult::Unsat) => Ok(false),
            Ok(_) | Err(Fatal::Encode(_)) => Ok(true),
            Err(e) => Err(e),
        }
    }

    fn nonempty(
        &mut self,
        sync_loops: &[&ForLoop],
        guards: &[Sym],
        l: &ForLoop,
    ) -> Result<bool, Fatal> {
        let r = self.scoped_query(sync_loops, guards, |e1, _| {
            let lo = e1.encode_as(&l.lo, l.ty)?;
            let hi = e1.encode_as(&l.hi, l.ty)?;
            let v = e1.encode_as(&l.first_value(), l.ty)?;
            Ok(term::not(term::and(in_range(l, lo, v, hi))))
        })?;
        match r {
            Ok(CheckResult::Unsat) => Ok(true),
            Ok(_) | Err(Fatal::Encode(_)) => Ok(false),
            Err(e) => Err(e),
        }
    }
}

impl Check<'_> {
    /// Whether `values` are the same for any two threads (of one block, with
    /// `same_block`) under `guards`, in the context of `sync_loops`.
    pub(super) fn uniform_in(
        &mut self,
        sync_loops: &[&ForLoop],
        guards: &[Sym],
        values: &[&Sym],
        same_block: bool,
    ) -> Result<Uniformity, Fatal> {
        let n = self.queries;
        self.queries += 1;
        let self_kernel = self.kernel;
        let s = self.session()?;
        let entered = enter_context(s, n, sync_loops);
        s.solver.push()?;
        let mut approximate = false;
        let r = entered.and_then(|()| {
            context_query(s, n, guards, same_block, true, |e1, e2| {
                let mut differ = Vec::new();
                for v in values {
                    let ty = if v.ty() == ScalarTy::Bool {
                        ScalarTy::Bool
                    } else {
                        v.ty()
                    };
                    // Loop bounds the abstraction derived (`i <= n` as
                    // `i < n + 1`) are among `values`: no facts.
                    let x = e1.encode_as(v, ty)?;
                    let y = e2.encode_as(v, ty)?;
                    differ.push(term::not(term::eq(x, y)));
                }
                approximate = !e1.approximations.is_empty() || !e2.approximations.is_empty();
                let mut goal = vec![term::or(differ)];
                if same_block {
                    // Two threads of one block read a quiet load alike.
                    for (id, x) in &e1.block_uniform {
                        if let Some((_, y)) = e2.block_uniform.iter().find(|(j, _)| j == id) {
                            goal.push(term::eq(x.clone(), y.clone()));
                        }
                    }
                }
                Ok(term::and(goal))
            })
        });
        let mut question = None;
        let out = match r {
            Ok((CheckResult::Unsat, _)) => Ok(Uniformity::Uniform),
            Ok((CheckResult::Sat, parts)) => {
                // Two threads (of one block, with `same_block`) that
                // disagree: a divergence, with the parameters it reads.
                let mut read = Vec::new();
                for v in values.iter().copied().chain(guards) {
                    v.walk(&mut |x| {
                        if let Sym::Param { var, .. } = x {
                            read.push(self_kernel.var(*var).name.clone());
                        }
                    });
                }
                let threads = divergence_witness(s, &read).ok();
                let certainty = if approximate {
                    Certainty::Possible {
                        reasons: vec![
                            "the condition depends on values the analysis does not know".into()
                        ],
                    }
                } else {
                    question = Some(s.question(parts));
                    Certainty::Provable
                };
                Ok(Uniformity::Differs { threads, certainty })
            }
            Ok((CheckResult::Unknown(_), _)) => Ok(Uniformity::Unproved),
            // Not encodable: not proved uniform.
            Err(Fatal::Encode(_)) => Ok(Uniformity::Unproved),
            Err(e) => Err(e),
        };
        s.solver.pop()?;
        match (out, question) {
            (Ok(Uniformity::Differs { threads, .. }), Some(q)) => {
                let certainty = match self.divergence_for_every_launch(&q) {
                    Some(reason) => Certainty::Possible {
                        reasons: vec![reason],
                    },
                    None => Certainty::Provable,
                };
                Ok(Uniformity::Differs { threads, certainty })
            }
            (out, _) => out,
        }
    }

    /// Ends the session (its solver process released, so that the second
    /// solver of `universal` is the thread's one capped process) and keeps
    /// what it declared; the next query starts a new session.
    pub(super) fn end_session(&mut self) -> Option<Globals> {
        let Session {
            solver, globals, ..
        } = self.session.take()?;
        drop(solver);
        Some(globals)
    }

    /// Whether two threads of a block disagree (as a query found they can)
    /// for every launch and argument, asked as races are (see `universal`:
    /// are there arguments and open dimensions under which the context is
    /// reached, yet no two threads of a block disagree?). `None`: for
    /// every one, the divergence is *provable*; otherwise why it is only
    /// possible. The session ends first (one capped solver process per
    /// thread); the next query starts a new one.
    pub(super) fn divergence_for_every_launch(&mut self, q: &Question) -> Option<String> {
        let Some(globals) = self.end_session() else {
            return Some("not shown to happen for every launch and argument".into());
        };
        universal(&self.config, &globals, &self.kernel.launch)
            .ask(q)
            .reason_as("the threads of each block agree at the barrier")
    }

    /// One well-formedness query in its own push/pop scope: the inner
    /// result is the query's (an encoding failure included); the outer one
    /// fails only when the session itself does.
    pub(super) fn scoped_query(
        &mut self,
        sync_loops: &[&ForLoop],
        guards: &[Sym],
        goal: impl FnOnce(&mut Encoder<'_>, &mut Encoder<'_>) -> Result<Term, EncodeError>,
    ) -> Result<Result<CheckResult, Fatal>, Fatal> {
        let n = self.queries;
        self.queries += 1;
        let s = self.session()?;
        let entered = enter_context(s, n, sync_loops);
        s.solver.push()?;
        let r =
            entered.and_then(|()| context_query(s, n, guards, true, false, goal).map(|(r, _)| r));
        s.solver.pop()?;
        Ok(r)
    }
}

/// A model value as an integer of type `ty` (signed types read two's
/// complement; booleans are 0 or 1; anything else 0).
pub(crate) fn typed_value(v: &warpsafe_smt::Value, ty: ScalarTy) -> i128 {
    match v {
        warpsafe_smt::Value::BitVec { .. } if ty.is_signed() => v.as_signed().unwrap_or(0),
        warpsafe_smt::Value::BitVec { value, .. } => *value as i128,
        warpsafe_smt::Value::Bool(b) => i128::from(*b),
        _ => 0,
    }
}

/// Both threads' ids, and the values of the parameters named in `read`,
/// from the model of a satisfiable query.
pub(super) fn divergence_witness(
    s: &mut Session,
    read: &[String],
) -> Result<DivergenceWitness, SmtError> {
    let mut terms = Vec::new();
    for t in &s.globals.threads {
        terms.extend(t.block_idx.iter().cloned());
        terms.extend(t.thread_idx.iter().cloned());
    }
    let params: Vec<&(String, ScalarTy, Term)> = s
        .globals
        .params
        .iter()
        .filter(|(name, _, _)| read.contains(name))
        .collect();
    terms.extend(params.iter().map(|p| p.2.clone()));
    let v = s.solver.get_values(&terms)?;
    let u = |i: usize| match v.get(i) {
        Some(warpsafe_smt::Value::BitVec { value, .. }) => *value as u64,
        _ => 0,
    };
    let t = |k: usize| ThreadId {
        block_idx: [u(6 * k), u(6 * k + 1), u(6 * k + 2)],
        thread_idx: [u(6 * k + 3), u(6 * k + 4), u(6 * k + 5)],
    };
    let params = params
        .iter()
        .enumerate()
        .map(|(k, (name, ty, _))| (name.clone(), typed_value(&v[12 + k], *ty)))
        .collect();
    Ok(DivergenceWitness {
        threads: [t(0), t(1)],
        params,
    })
}

/// Makes the solver's scopes hold the well-formedness context of
/// `sync_loops` (the enclosing synchronized loops, outermost first): one
/// scope per loop, with its variable shared by the two threads of a block
/// and constrained to its range. Scopes of loops no longer enclosing are
/// popped first. Aligning walks the protocol depth first, so consecutive
/// queries share most of their context and it is sent once, not once per
/// query (linear, not quadratic, in the nesting depth).
pub(super) fn enter_context(
    s: &mut Session,
    n: usize,
    sync_loops: &[&ForLoop],
) -> Result<(), Fatal> {
    let common = s
        .context
        .iter()
        .zip(sync_loops)
        .take_while(|(c, l)| std::ptr::eq(c.ptr, **l))
        .count();
    while s.context.len() > common {
        s.solver.pop()?;
        s.context.pop();
    }
    for (k, l) in sync_loops.iter().enumerate().skip(common) {
        let g = &s.globals;
        let mut e = Encoder::new(&g.shared, &g.threads[0], &format!("wf{n}l{k}"));
        e.loop_vars = s.context.iter().map(|c| (c.id, c.var.clone())).collect();
        let lo = e.encode_as(&l.lo, l.ty)?;
        let hi = e.encode_as(&l.hi, l.ty)?;
        let v = e.fresh("v", sort_of(l.ty)?);
        // Encoded before the scope opens: a failure leaves the stack and
        // the solver's scopes in step.
        // A symbolic stride is left out of well-formedness queries.
        let (constraints, _) = domain(&mut e, &g.constants, l, lo, v.clone(), hi)?;
        s.solver.push()?;
        for (name, sort) in &e.decls {
            s.solver.declare_const(name, sort)?;
        }
        for a in &constraints {
            s.solver.assert(a)?;
        }
        s.context.push(ContextLoop {
            ptr: *l as *const ForLoop,
            var: v,
            id: l.loop_id,
            decls: e.decls,
            constraints,
        });
    }
    Ok(())
}

/// What a well-formedness query asserted beyond the session's globals
/// and its context's loops: with those (see [`Session::question`]), the
/// question "for every launch?" is built from it (see `universal`).
pub(super) struct QueryParts {
    /// Constants of both threads' encoders.
    pub(super) decls: Vec<(String, Sort)>,
    /// The enclosing conditions for both threads and the encoders' facts.
    pub(super) reach: Vec<Term>,
    /// The goal, with what makes the two threads a pair of one block.
    pub(super) goal: Vec<Term>,
}

/// Asserts the per-query part of a well-formedness context (the enclosing
/// conditions, for both threads, over the loop variables of the context
/// that [`enter_context`] set up) and `goal`, built from both threads'
/// encoders, and checks. The caller pushes and pops.
pub(super) fn context_query(
    s: &mut Session,
    n: usize,
    guards: &[Sym],
    same_block: bool,
    pair: bool,
    goal: impl FnOnce(&mut Encoder<'_>, &mut Encoder<'_>) -> Result<Term, EncodeError>,
) -> Result<(CheckResult, QueryParts), Fatal> {
    let g = &s.globals;
    let vars: HashMap<LoopId, Term> = s.context.iter().map(|c| (c.id, c.var.clone())).collect();
    let mut asserts = Vec::new();
    let mut decls = Vec::new();
    let mut e1 = Encoder::new(&g.shared, &g.threads[0], &format!("wf{n}t1"));
    let mut e2 = Encoder::new(&g.shared, &g.threads[1], &format!("wf{n}t2"));
    e1.loop_vars = vars.clone();
    e2.loop_vars = vars;
    for c in guards {
        asserts.push(e1.encode_program(c, ScalarTy::Bool)?);
        asserts.push(e2.encode_program(c, ScalarTy::Bool)?);
    }
    let mut goals = vec![goal(&mut e1, &mut e2)?];
    asserts.append(&mut e1.facts);
    asserts.append(&mut e2.facts);
    decls.extend(e1.decls);
    decls.extend(e2.decls);
    for (name, sort) in &decls {
        s.solver.declare_const(name, sort)?;
    }
    for a in asserts.iter().chain(&goals) {
        s.solver.assert(a)?;
    }
    if same_block {
        goals.push(s.same_block());
        s.solver.assert(&s.same_block())?;
        if let Some(class) = s.class.as_ref().filter(|_| pair) {
            goals.push(class.clone());
            s.solver.assert(class)?;
        }
    }
    let result = s.solver.check()?;
    let parts = QueryParts {
        decls,
        reach: asserts,
        goal: goals,
    };
    Ok((result, parts))
}
