//! Real loops (`for`, `while`, `do-while`) in protocol inference (seed 002,
//! §5: loop normalisation, "we approximate whiles as a structured loop with
//! an unknown upper bound").
//!
//! - A loop of a recognised counting shape (`shape.rs`) becomes a
//!   [`ForLoop`] whose variable is a loop variable inside the body. Where the
//!   range `lo..hi` is only exact under a condition (the stride is positive,
//!   an unsigned variable cannot wrap, `!=` meets its bound, a signed `/`/`>>`
//!   loop stays non-negative), the protocol is `if valid { for } else { loop }`.
//!   Overflow of *signed* loop variables is C undefined behaviour and is
//!   assumed not to happen: `i <= n` with a signed `i` needs no `n < MAX`
//!   when the loop cannot stop early (it could only end by overflowing).
//! - A loop whose condition is a conjunction with a counting conjunct is
//!   that counting loop with the other conjuncts as an exit at the top of
//!   its body (`conjunct_exit.rs`).
//! - Any other loop becomes a [`Proto::Loop`] (unknown iteration count) whose
//!   body is guarded by the loop condition.
//! - Inside the loop, every variable the loop assigns (other than the loop
//!   variable) is an unknown at the start of each iteration; after the loop,
//!   every variable it assigns (loop variable included) is an unknown.
//! - `continue` reaches the step; `break` of the loop, `return`, and jumps
//!   to outer loops make `bound_known` false, and a counting loop with
//!   barriers that may stop early becomes a [`Proto::Loop`] (its counter an
//!   unknown), which barrier aligning handles when the block leaves it
//!   together. Code after a loop that may
//!   `return` (or jump to an outer loop) is guarded by a fresh boolean
//!   unknown ([`UnknownReason::LoopExit`]).

use std::collections::{HashMap, HashSet};

use crate::carried::{first_and_even, iteration_index, Carried, Cycle};
use crate::conjunct_exit::conjunct_exit;
use crate::env::Env;
use crate::induction::Counter;
use crate::infer::{Flow, Infer, Jump, Target};
use crate::protocol::{ForLoop, LoopRange, Proto, Step};
use crate::shape::{assigned_vars, recognise};
use crate::sym::{type_range, Sym, UnknownReason};
use crate::top_exit::top_exit;
use warpsafe_ir::{BinOp, Block, Expr, LoopCheck, LoopId, LoopKind, ScalarTy, Span, VarId};

/// The fields of an IR `Loop` statement.
pub(crate) struct LoopParts<'a> {
    pub(crate) id: LoopId,
    pub(crate) kind: LoopKind,
    pub(crate) header: &'a Block,
    pub(crate) cond: &'a Expr,
    pub(crate) check: LoopCheck,
    pub(crate) body: &'a Block,
    pub(crate) step: &'a Block,
    pub(crate) span: Span,
}

/// A counting loop's normalised range.
struct Counted {
    var: VarId,
    ty: ScalarTy,
    /// The variable's first value.
    start: Sym,
    lo: Sym,
    hi: Sym,
    step: Step,
    test: BinOp,
    valid: Sym,
    /// `valid` without the conditions that only rule out executions in
    /// which the signed loop variable overflows (`i <= n` with `n` the
    /// type's maximum can only end by overflowing `i`). A loop that cannot
    /// stop early needs only this: those executions are undefined
    /// behaviour, assumed away like every signed overflow of a loop
    /// variable.
    valid_defined: Sym,
    /// `valid` rules out a counter that wraps around (see [`Validity`]).
    may_wrap: bool,
    /// For a 64-bit unsigned variable stepped up by `+`: the condition
    /// (also part of `valid`) that it does not wrap around 2^64 (its bound
    /// is at most one step below 2^64). See [`Infer::assume_no_wide_wrap`].
    wide_no_wrap: Option<Sym>,
}

/// One evaluated iteration.
struct Iteration {
    /// The body, header and step, without the loop-condition guard.
    proto: Proto,
    /// The loop condition in the iteration's store.
    cond: Sym,
    /// When a thread that starts the iteration (before the header) goes on
    /// to start the next one: the condition held, no jump left the loop,
    /// and the step (and, in a do-while, the header and the condition
    /// after the body) fell through.
    again: Sym,
    /// The loop may be left by `break` (of itself).
    breaks: bool,
    /// Jumps past the loop (`return`, outer `break`/`continue`).
    escapes: Vec<Target>,
}

impl Infer<'_> {
    pub(crate) fn real_loop(&mut self, l: LoopParts<'_>, env: &mut Env) -> Flow {
        let span = l.span;
        // A loop that leaves at the top of its body is the counting loop
        // its exit makes (`top_exit.rs`), exact under `top_valid`.
        let top = top_exit(l.id, l.check, (l.header, l.cond, l.body, l.step));
        // A loop whose condition is a conjunction is the counting loop of
        // one conjunct that leaves where the others fail
        // (`conjunct_exit.rs`), exactly.
        let conj = match top {
            Some(_) => None,
            None => conjunct_exit(self.kernel, &l),
        };
        let l = match (&top, &conj) {
            (Some(t), _) => LoopParts {
                header: &t.header,
                cond: &t.cond,
                body: &t.body,
                ..l
            },
            (None, Some(c)) => LoopParts {
                cond: &c.cond,
                body: &c.body,
                ..l
            },
            (None, None) => l,
        };
        let modified = assigned_vars(&[l.header, l.body, l.step]);
        let mut lenv = env.clone();
        let first_inside = self.next_unknown;
        let mut starts = HashMap::new();
        for &v in &modified {
            let ty = self.kernel.var(v).ty;
            let u = self.fresh(ty, UnknownReason::ModifiedInLoop { var: v }, span);
            if let Sym::Unknown(x) = &u {
                starts.insert(v, x.id);
            }
            lenv.set(v, u);
        }
        // The rewritten header only computes the exit, which the counted
        // condition already stands for.
        let no_header = Block::new();
        let counted = match recognise(
            self.kernel,
            l.id,
            l.kind,
            l.check,
            if top.is_some() { &no_header } else { l.header },
            top.as_ref().map_or(l.cond, |t| &t.counted_cond),
            l.body,
            l.step,
        ) {
            Ok(shape) => {
                let ty = self.kernel.var(shape.var).ty;
                let init = self.read(env, shape.var, span);
                let bound = self.eval(shape.bound, env, span);
                let amount = self.eval(&shape.amount, env, span);
                let (bound, test, widened) = match (shape.widened, shape.offset) {
                    (Some(w), _) => {
                        let (bound, conditions) = narrowed_bound(bound, w, ty, &init);
                        (bound, shape.test, Some(conditions))
                    }
                    (None, Some(k)) => {
                        let k = self.eval(k, env, span);
                        let (bound, test, conditions) =
                            offset_bound(bound, k, ty, shape.test, &init, &amount);
                        (bound, test, Some(conditions))
                    }
                    (None, None) => (bound, shape.test, None),
                };
                match counted(
                    shape.var,
                    ty,
                    test,
                    init,
                    bound,
                    shape.step_op,
                    amount,
                    shape.wraps,
                )
                .map(|c| match widened {
                    Some(w) => w.apply(c),
                    None => c,
                })
                .map(|c| match &top {
                    Some(t) => t.restrict(c, &self.read(env, t.counter, span)),
                    None => c,
                }) {
                    Ok(c) if !c.valid.is_false() => Some(c),
                    Ok(_) => {
                        self.note(
                            span,
                            "counting loop whose variable may wrap: iteration count unknown".into(),
                        );
                        None
                    }
                    Err(why) => {
                        self.note(
                            span,
                            format!("loop not normalised ({why}): iteration count unknown"),
                        );
                        None
                    }
                }
            }
            Err(why) => {
                self.note(
                    span,
                    format!(
                        "loop not recognised as a counting loop ({why}): iteration count unknown"
                    ),
                );
                None
            }
        };
        if let Some(cond) = counted.as_ref().and_then(|c| c.wide_no_wrap.clone()) {
            self.assume_no_wide_wrap(cond, span);
        }
        if let Some(c) = &counted {
            lenv.set(
                c.var,
                Sym::LoopVar {
                    var: c.var,
                    loop_id: l.id,
                    ty: c.ty,
                },
            );
        }
        // Variables stepped along with an exact counting loop keep exact
        // values (`induction.rs`).
        if let Some(c) = counted.as_ref().filter(|c| c.valid.is_true()) {
            let counter = Counter {
                var: c.var,
                ty: c.ty,
                start: &c.start,
                step: &c.step,
                loop_id: l.id,
            };
            let blocks = (l.header, l.body, l.step);
            for (v, value) in self.derived_inductions(&counter, blocks, &modified, env, span) {
                lenv.set(v, value);
                starts.remove(&v);
            }
        }
        let saved_path = self.path.clone();
        self.loop_depth += 1;
        if let Some(c) = &counted {
            self.loop_ranges.push(LoopRange {
                var: c.var,
                loop_id: l.id,
                ty: c.ty,
                lo: c.lo.clone(),
                hi: c.hi.clone(),
                valid: c.valid.clone(),
                step: c.step.clone(),
            });
        }
        let mut it = self.iteration(&l, &mut lenv);
        if counted.is_some() {
            self.loop_ranges.pop();
        }
        self.loop_depth -= 1;
        self.path = saved_path;
        if let Some(c) = &counted {
            starts.remove(&c.var);
        }
        let cycles = Carried {
            starts: &starts,
            entry: env,
            end: &lenv,
            first_inside,
            loop_id: l.id,
        }
        .cycles();
        let early = it.breaks || !it.escapes.is_empty();

        // The store after the loop: everything the loop assigns is unknown,
        // but for the variables that cycle, and only when the loop cannot
        // stop in the middle of an iteration.
        let mut after = env.clone();
        let mut exit_parity = None;
        for &v in &modified {
            let ty = self.kernel.var(v).ty;
            let value = match cycles.get(&v) {
                Some(cycle) if !early => {
                    let which = exit_parity.get_or_insert_with(|| {
                        self.fresh(ScalarTy::Bool, UnknownReason::AfterLoop { var: v }, span)
                    });
                    cycle.after(which)
                }
                _ => self.fresh(ty, UnknownReason::AfterLoop { var: v }, span),
            };
            after.set(v, value);
        }
        if !cycles.is_empty() {
            self.close_cycles(&mut it, &cycles, &starts, counted.as_ref(), l.id, span);
        }
        let alike = self.carried_alike(&starts, env, &lenv);
        if !alike.is_empty() {
            let mut mark = |s: &Sym| match s {
                Sym::Unknown(_) => Some(s.mark_block_uniform(&|id| alike.contains(&id))),
                _ => None,
            };
            it.proto = it.proto.map_syms(&mut mark);
            it.cond = it.cond.map(&mut mark);
            it.again = it.again.map(&mut mark);
        }
        // A counter that is not an exact count (the fallback below) is
        // still the same in every thread of a block at one iteration when
        // it starts and steps alike.
        let counter_alike = counted.as_ref().is_some_and(|c| {
            c.start.same_in_block(&|_| false)
                && lenv
                    .get(c.var)
                    .is_some_and(|s| s.same_in_block(&|x| alike.contains(&x)))
        });
        let unknown_loop = |cond: Sym, again: Sym, proto: Proto| Proto::Loop {
            id: l.id,
            body: Box::new(Proto::if_(cond, proto, Proto::Skip)),
            again,
            span,
        };
        let proto = match counted {
            // A counting loop with barriers that may stop early: its
            // iteration count is unknown, and barrier aligning reads it
            // as such (the block must leave it together), with the counter
            // an unknown that is the same across the block when every
            // thread starts and steps it alike.
            Some(c) if early && it.proto.has_sync() => {
                self.note(
                    span,
                    "counting loop with barriers that may stop early: iteration count unknown"
                        .into(),
                );
                let reason = UnknownReason::ModifiedInLoop { var: c.var };
                let u = self.counter(c.ty, reason, counter_alike, span);
                with_counter(unknown_loop(it.cond, it.again, it.proto), l.id, &u)
            }
            Some(c) => {
                let for_ = Proto::For(Box::new(ForLoop {
                    var: c.var,
                    loop_id: l.id,
                    ty: c.ty,
                    lo: c.lo,
                    hi: c.hi,
                    step: c.step,
                    test: c.test,
                    body: it.proto.clone(),
                    bound_known: !early,
                    span,
                }));
                let valid = if early { c.valid } else { c.valid_defined };
                if valid.is_true() {
                    for_
                } else {
                    self.note(span, "counting loop is exact only under a condition; otherwise its iteration count is unknown".into());
                    let reason = if c.may_wrap {
                        UnknownReason::CounterMayWrap { var: c.var }
                    } else {
                        UnknownReason::ModifiedInLoop { var: c.var }
                    };
                    let u = self.counter(c.ty, reason, counter_alike, span);
                    let fallback =
                        with_counter(unknown_loop(it.cond, it.again, it.proto), l.id, &u);
                    Proto::if_(valid, for_, fallback)
                }
            }
            None => unknown_loop(it.cond, it.again, it.proto),
        };
        // Jumps past the loop: taken under fresh, mutually exclusive unknowns.
        let mut fall = Sym::Bool(true);
        let mut jumps = Vec::new();
        let mut targets: Vec<Target> = Vec::new();
        for t in it.escapes {
            if !targets.contains(&t) {
                targets.push(t);
            }
        }
        for target in targets {
            let u = self.fresh(ScalarTy::Bool, UnknownReason::LoopExit, span);
            jumps.push(Jump {
                target,
                cond: Sym::and(fall.clone(), u.clone()),
                env: after.clone(),
            });
            fall = Sym::and(fall, Sym::negate(u));
        }
        if !jumps.is_empty() {
            self.note(span, "the loop may be left by return or an outer jump: later code is guarded by an unknown".into());
        }
        *env = after;
        Flow { proto, fall, jumps }
    }

    /// Assumes, as a kernel precondition, that a 64-bit unsigned counter
    /// stepped up by `+` does not wrap around 2^64: its bound would have to
    /// lie within one step of 2^64, more elements than any memory holds
    /// (`for (size_t i = tid; i < n; i += stride)` with `n` an element
    /// count). Recorded only where the condition reads nothing but
    /// parameters, launch dimensions and thread ids. Like an `__assume`,
    /// the check uses it only where it holds for the whole kernel: a loop
    /// every execution reaches (not under a condition or in a loop) before
    /// any memory access or barrier, so no execution is assumed away after
    /// it raced (`if (n == 0) out[0] = 0;` before a loop to `n - 1`).
    /// `--counter-wrap` drops it (see `race::check_protocol`).
    fn assume_no_wide_wrap(&mut self, cond: Sym, span: Span) {
        let mut closed = true;
        cond.walk(&mut |s| closed &= !matches!(s, Sym::Unknown(_) | Sym::LoopVar { .. }));
        if !closed || cond.is_true() {
            return;
        }
        let seq = self.conditions;
        self.conditions += 1;
        self.preconditions.push(crate::protocol::Condition {
            cond,
            guard: self.path.clone(),
            in_loop: self.loop_depth > 0,
            loops: self.loop_ranges.clone(),
            after_effects: self.effects > 0,
            seq,
            origin: crate::protocol::ConditionOrigin::CounterNoWrap,
            span,
        });
    }

    /// Replaces, in the evaluated iteration, the start-of-iteration
    /// unknowns of variables that cycle by their closed forms (see
    /// `carried`), over the iteration number of a counting loop, else over
    /// an unknown boolean.
    fn close_cycles(
        &mut self,
        it: &mut Iteration,
        cycles: &HashMap<VarId, Cycle>,
        starts: &HashMap<VarId, u32>,
        counted: Option<&Counted>,
        loop_id: LoopId,
        span: Span,
    ) {
        let index = counted.and_then(|c| {
            let var = Sym::LoopVar {
                var: c.var,
                loop_id,
                ty: c.ty,
            };
            iteration_index(&var, &c.lo, &c.start, &c.step)
        });
        let (first, even) = match index {
            Some(k) => first_and_even(&k),
            None => {
                let var = *cycles.keys().next().expect("invariant: called with cycles");
                let first = self.fresh(ScalarTy::Bool, UnknownReason::ModifiedInLoop { var }, span);
                let even = self.fresh(ScalarTy::Bool, UnknownReason::ModifiedInLoop { var }, span);
                (first, even)
            }
        };
        let forms: HashMap<u32, Sym> = cycles
            .iter()
            .map(|(v, c)| (starts[v], c.at(&first, &even)))
            .collect();
        let mut replace = |s: &Sym| match s {
            Sym::Unknown(u) => forms.get(&u.id).cloned(),
            _ => None,
        };
        it.proto = it.proto.map_syms(&mut replace);
        it.cond = it.cond.map(&mut replace);
        it.again = it.again.map(&mut replace);
    }

    /// The counter of a counting loop read as one of unknown trip count: a
    /// fresh unknown (`reason`), the same across a block when the counter
    /// starts and steps `alike` in every thread.
    fn counter(&mut self, ty: ScalarTy, reason: UnknownReason, alike: bool, span: Span) -> Sym {
        let u = self.fresh(ty, reason, span);
        if alike {
            u.mark_block_uniform(&|_| true)
        } else {
            u
        }
    }

    /// The start leaves (by id) of the variables the loop carries alike in
    /// every thread of a block: the value entering the loop and the value
    /// the iteration leaves for the next one are [`Sym::same_in_block`],
    /// the latter counting the other such variables' start leaves as the
    /// same (a greatest fixed point). Threads of one block in the same
    /// iteration then hold the same value: they entered with it and
    /// applied the same updates.
    fn carried_alike(&self, starts: &HashMap<VarId, u32>, entry: &Env, end: &Env) -> HashSet<u32> {
        let mut alike: HashSet<u32> = starts
            .iter()
            .filter(|(v, _)| entry.get(**v).is_some_and(|s| s.same_in_block(&|_| false)))
            .map(|(_, id)| *id)
            .collect();
        loop {
            let keep: HashSet<u32> = starts
                .iter()
                .filter(|(v, id)| {
                    alike.contains(id)
                        && end
                            .get(**v)
                            .is_some_and(|s| s.same_in_block(&|x| alike.contains(&x)))
                })
                .map(|(_, id)| *id)
                .collect();
            if keep.len() == alike.len() {
                return alike;
            }
            alike = keep;
        }
    }

    fn iteration(&mut self, l: &LoopParts<'_>, lenv: &mut Env) -> Iteration {
        let path = self.path.clone();
        let mut all_jumps = Vec::new();
        let again;
        let (proto, cond) = match l.check {
            LoopCheck::Before => {
                let h = self.block(l.header, lenv);
                let c = self.eval(l.cond, lenv, l.span);
                self.path = Sym::and(path.clone(), Sym::and(h.fall.clone(), c.clone()));
                let b = self.block(l.body, lenv);
                let (step_cond, mut senv, rest) =
                    self.continues(l.id, b.fall, b.jumps, lenv, l.span);
                all_jumps.extend(h.jumps);
                all_jumps.extend(rest);
                self.path = Sym::and(path.clone(), step_cond.clone());
                let s = self.block(l.step, &mut senv);
                all_jumps.extend(s.jumps);
                *lenv = senv;
                again = Sym::and(
                    Sym::and(h.fall.clone(), c.clone()),
                    Sym::and(step_cond.clone(), s.fall.clone()),
                );
                let after_cond =
                    Proto::seq(vec![b.proto, Proto::if_(step_cond, s.proto, Proto::Skip)]);
                // The header runs before the condition is tested.
                if h.proto.is_skip() {
                    (after_cond, Sym::and(h.fall, c))
                } else {
                    let guard = Sym::and(h.fall, c);
                    let proto =
                        Proto::seq(vec![h.proto, Proto::if_(guard, after_cond, Proto::Skip)]);
                    (proto, Sym::Bool(true))
                }
            }
            LoopCheck::After => {
                let b = self.block(l.body, lenv);
                let (step_cond, mut senv, rest) =
                    self.continues(l.id, b.fall, b.jumps, lenv, l.span);
                all_jumps.extend(rest);
                self.path = Sym::and(path.clone(), step_cond.clone());
                let s = self.block(l.step, &mut senv);
                let h = self.block(l.header, &mut senv);
                let c = self.eval(l.cond, &senv, l.span);
                again = Sym::and(
                    Sym::and(step_cond.clone(), s.fall.clone()),
                    Sym::and(h.fall.clone(), c),
                );
                all_jumps.extend(s.jumps);
                all_jumps.extend(h.jumps);
                *lenv = senv;
                let tail = Proto::seq(vec![s.proto, Proto::if_(s.fall, h.proto, Proto::Skip)]);
                let proto = Proto::seq(vec![b.proto, Proto::if_(step_cond, tail, Proto::Skip)]);
                (proto, Sym::Bool(true))
            }
        };
        self.path = path;
        let mut breaks = false;
        let mut escapes = Vec::new();
        for j in all_jumps {
            if j.cond.is_false() {
                continue;
            }
            match j.target {
                Target::Break(id) | Target::Continue(id) if id == l.id => breaks = true,
                t => escapes.push(t),
            }
        }
        Iteration {
            proto,
            cond,
            again,
            breaks,
            escapes,
        }
    }

    /// Splits the jumps of a loop body into `continue`s of loop `id` (which
    /// reach the step) and the rest; returns when the step runs and its store.
    fn continues(
        &mut self,
        id: LoopId,
        fall: Sym,
        jumps: Vec<Jump>,
        lenv: &Env,
        span: Span,
    ) -> (Sym, Env, Vec<Jump>) {
        let mut step_cond = fall.clone();
        let mut entries = vec![(fall, lenv.clone())];
        let mut rest = Vec::new();
        for j in jumps {
            if j.target == Target::Continue(id) {
                step_cond = Sym::or(step_cond, j.cond.clone());
                entries.push((j.cond, j.env));
            } else {
                rest.push(j);
            }
        }
        entries.reverse();
        let env = self.merge(entries, lenv.clone(), span);
        (step_cond, env, rest)
    }
}

/// Normalises a recognised loop `var = init; while (var test bound) var = var op amount`
/// into `lo..hi` with its validity condition.
/// `wraps`: the update wraps around in the variable's type (converted back
/// from a wider type, see `shape`), even when it is signed: it then needs
/// the no-wrap conditions of an unsigned variable.
#[allow(clippy::too_many_arguments)]
fn counted(
    var: VarId,
    ty: ScalarTy,
    test: BinOp,
    init: Sym,
    bound: Sym,
    op: BinOp,
    amount: Sym,
    wraps: bool,
) -> Result<Counted, String> {
    let start = init.clone();
    let (op, amount) = match (op, amount.as_int()) {
        (BinOp::Add, Some(k)) if k < 0 => (BinOp::Sub, Sym::int(-k, ty)),
        (BinOp::Sub, Some(k)) if k < 0 => (BinOp::Add, Sym::int(-k, ty)),
        _ => (op, amount),
    };
    let bin = |op: BinOp, a: &Sym, b: &Sym| Sym::binary(op, ty, a.clone(), b.clone());
    let one = Sym::int(1, ty);
    let zero = Sym::int(0, ty);
    let max = Sym::int(type_range(ty).1, ty);
    let bits = Sym::int(i128::from(ty.bits()), ty);
    let unsigned = !ty.is_signed();
    // Steps that may wrap around in `ty` (defined behaviour).
    let wrapping = unsigned || wraps;
    let mut v = Validity::new();
    let unit = amount.as_int() == Some(1);
    let mut wide_no_wrap = None;
    // `i != 0` on a halving loop is `i > 0` for a start that is not
    // negative (`while (i != 0) { ...; i /= 2; }`).
    let halving_to_zero =
        test == BinOp::Ne && matches!(op, BinOp::Div | BinOp::Shr) && bound.as_int() == Some(0);
    let test = if halving_to_zero {
        if !unsigned {
            v.need(bin(BinOp::Ge, &init, &zero));
        }
        BinOp::Gt
    } else {
        test
    };
    if test == BinOp::Ne && !(unit && matches!(op, BinOp::Add | BinOp::Sub)) {
        return Err("`!=` test with a non-unit step".into());
    }
    let step = match op {
        BinOp::Add => {
            if !amount.is_positive() {
                v.need(bin(BinOp::Gt, &amount, &zero));
            }
            if wrapping {
                let limit = match test {
                    BinOp::Le => bin(BinOp::Sub, &max, &amount),
                    _ => bin(BinOp::Add, &bin(BinOp::Sub, &max, &amount), &one),
                };
                let no_wrap = bin(BinOp::Le, &bound, &limit);
                if unsigned && ty.bits() == 64 {
                    wide_no_wrap = Some(no_wrap.clone());
                }
                v.need_no_wrap(no_wrap);
            }
            Step::Add(amount)
        }
        BinOp::Sub => {
            if !amount.is_positive() {
                v.need(bin(BinOp::Gt, &amount, &zero));
            }
            if wrapping {
                let limit = match test {
                    BinOp::Ge => amount.clone(),
                    _ => bin(BinOp::Sub, &amount, &one),
                };
                v.need_no_wrap(bin(BinOp::Ge, &bound, &limit));
            }
            Step::Sub(amount)
        }
        BinOp::Mul => {
            v.need(bin(BinOp::Gt, &amount, &one));
            v.need(bin(BinOp::Gt, &init, &zero));
            if wrapping {
                v.need_no_wrap(bin(BinOp::Le, &bound, &bin(BinOp::Div, &max, &amount)));
            }
            Step::Mul(amount)
        }
        BinOp::Shl => {
            v.need(bin(BinOp::Gt, &amount, &zero));
            v.need(bin(BinOp::Lt, &amount, &bits));
            v.need(bin(BinOp::Gt, &init, &zero));
            if wrapping {
                v.need_no_wrap(bin(BinOp::Le, &bound, &bin(BinOp::Shr, &max, &amount)));
            }
            Step::Shl(amount)
        }
        BinOp::Div => {
            v.need(bin(BinOp::Gt, &amount, &zero));
            Step::Div(amount)
        }
        _ => {
            v.need(bin(BinOp::Ge, &amount, &zero));
            v.need(bin(BinOp::Lt, &amount, &bits));
            Step::Shr(amount)
        }
    };
    let (lo, hi) = match (step.increasing(), test) {
        (true, BinOp::Lt) => (init, bound),
        (true, BinOp::Le) => {
            // `i <= MAX` holds for every `i`: with a signed `i` the loop
            // ends only by overflowing it (or by an early exit).
            if wrapping {
                v.need_no_wrap(bin(BinOp::Lt, &bound, &max));
            } else {
                v.need_unless_overflow(bin(BinOp::Lt, &bound, &max));
            }
            (init, bin(BinOp::Add, &bound, &one))
        }
        (true, BinOp::Ne) => {
            v.need(bin(BinOp::Le, &init, &bound));
            (init, bound)
        }
        (false, BinOp::Gt | BinOp::Ge | BinOp::Ne) => {
            v.need(bin(BinOp::Lt, &init, &max));
            if test == BinOp::Ne {
                v.need(bin(BinOp::Ge, &init, &bound));
            }
            let lo = if test == BinOp::Ge {
                bound
            } else {
                v.need(bin(BinOp::Lt, &bound, &max));
                bin(BinOp::Add, &bound, &one)
            };
            (lo, bin(BinOp::Add, &init, &one))
        }
        _ => return Err("the step moves away from the bound".into()),
    };
    if !unsigned && matches!(step, Step::Div(_) | Step::Shr(_)) {
        v.need(bin(BinOp::Ge, &lo, &zero));
    }
    Ok(Counted {
        var,
        ty,
        start,
        lo,
        hi,
        step,
        test,
        valid: v.all,
        valid_defined: v.defined,
        may_wrap: v.may_wrap,
        wide_no_wrap,
    })
}

/// `(W)i < n` for a signed `i` and a wider unsigned `n` (`int i` against a
/// `size_t n`), as a comparison in `i`'s type: `i < (T)n`. Exact where `i`
/// starts non-negative (a loop stepping up by `+` keeps it so, signed
/// overflow being undefined) and `n` fits in `i`'s type; a larger `n` lets
/// the loop end only by overflowing `i`, undefined behaviour assumed away
/// like every signed overflow of a loop variable (so only when the loop
/// cannot stop early). Returns the bound in `i`'s type and the conditions.
fn narrowed_bound(bound: Sym, wide: ScalarTy, ty: ScalarTy, init: &Sym) -> (Sym, Validity) {
    let fits = Sym::binary(
        BinOp::Le,
        wide,
        bound.clone(),
        Sym::int(type_range(ty).1, wide),
    );
    let start = Sym::binary(BinOp::Ge, ty, init.clone(), Sym::int(0, ty));
    let mut v = Validity::new();
    v.need(start);
    v.need_unless_overflow(fits);
    (Sym::cast(ty, bound), v)
}

/// `i + k ◇ n` (`◇` being `<` or `<=`, `i` stepped up by `amount`) as a
/// comparison of `i` alone. Exact where no test's `i + k` wraps or
/// overflows: the first is `init + k`, the last at most `n + amount` (the
/// first `i` past the range is at most `amount` past it); a signed overflow
/// of `i + k` is undefined, assumed away like that of `i` itself.
/// - signed: `i ◇ n - k`, where `n - k` does not overflow (`k >= 0`, `n >=
///   MIN + k`);
/// - unsigned: `i < N - k` with `N` being `n + 1` for `<=` (it does not
///   wrap: `n <= MAX - amount`) and `n` for `<`; and `i < 0`, no iteration,
///   where `N < k` (`i + k >= k > N` when it does not wrap).
///
/// Returns the bound, the test and the conditions.
fn offset_bound(
    bound: Sym,
    k: Sym,
    ty: ScalarTy,
    test: BinOp,
    init: &Sym,
    amount: &Sym,
) -> (Sym, BinOp, Validity) {
    let bin = |op: BinOp, a: &Sym, b: &Sym| Sym::binary(op, ty, a.clone(), b.clone());
    let (min, max) = type_range(ty);
    let (min, max) = (Sym::int(min, ty), Sym::int(max, ty));
    let mut v = Validity::new();
    let first = bin(BinOp::Le, init, &bin(BinOp::Sub, &max, &k));
    let last = bin(BinOp::Le, &bound, &bin(BinOp::Sub, &max, amount));
    if ty.is_signed() {
        v.need(bin(BinOp::Ge, &k, &Sym::int(0, ty)));
        v.need(bin(BinOp::Ge, &bound, &bin(BinOp::Add, &min, &k)));
        v.need_unless_overflow(first);
        v.need_unless_overflow(last);
        return (bin(BinOp::Sub, &bound, &k), test, v);
    }
    v.need_no_wrap(first);
    v.need_no_wrap(last);
    let n = match test {
        BinOp::Le => bin(BinOp::Add, &bound, &Sym::int(1, ty)),
        _ => bound,
    };
    let bound = Sym::select(
        bin(BinOp::Ge, &n, &k),
        bin(BinOp::Sub, &n, &k),
        Sym::int(0, ty),
    );
    (bound, BinOp::Lt, v)
}

impl Validity {
    /// Adds these conditions to a counted loop's.
    fn apply(self, mut c: Counted) -> Counted {
        c.valid = Sym::and(c.valid, self.all);
        c.valid_defined = Sym::and(c.valid_defined, self.defined);
        c.may_wrap |= self.may_wrap;
        c
    }
}

/// The conditions under which a counting loop's range is exact.
struct Validity {
    all: Sym,
    /// Without those only an overflow of the signed loop variable breaks.
    defined: Sym,
    /// Some condition rules out a counter that wraps around (defined
    /// behaviour): where the loop is not exact, the counter may wrap.
    may_wrap: bool,
}

impl Validity {
    /// No condition yet: exact.
    fn new() -> Validity {
        Validity {
            all: Sym::Bool(true),
            defined: Sym::Bool(true),
            may_wrap: false,
        }
    }

    fn need(&mut self, c: Sym) {
        self.defined = Sym::and(self.defined.clone(), c.clone());
        self.all = Sym::and(self.all.clone(), c);
    }

    fn need_unless_overflow(&mut self, c: Sym) {
        self.all = Sym::and(self.all.clone(), c);
    }

    /// A condition that the counter does not wrap around its type.
    fn need_no_wrap(&mut self, c: Sym) {
        self.may_wrap |= !c.is_true();
        self.need(c);
    }
}

/// `p` with loop `id`'s variable replaced by the unknown `counter`.
fn with_counter(p: Proto, id: LoopId, counter: &Sym) -> Proto {
    p.map_syms(&mut |s| match s {
        Sym::LoopVar { loop_id, .. } if *loop_id == id => Some(counter.clone()),
        _ => None,
    })
}

impl crate::top_exit::TopExit {
    /// The counting loop of the rewritten condition, exact only while the
    /// counter stays in the range where the exit was evaluated: it starts
    /// at most at `limit`, and its first value past `bound` is at most
    /// `limit` (compared in 64-bit arithmetic: the counter has at most 32
    /// bits, so nothing wraps).
    fn restrict(&self, mut c: Counted, start: &Sym) -> Counted {
        let Step::Add(s) = &c.step else {
            return c;
        };
        let wide = ScalarTy::I64;
        let limit = Sym::int(self.limit, wide);
        let starts_in = Sym::binary(
            BinOp::Le,
            wide,
            Sym::cast(wide, start.clone()),
            limit.clone(),
        );
        let past = Sym::binary(
            BinOp::Add,
            wide,
            Sym::int(self.bound - 1, wide),
            Sym::cast(wide, s.clone()),
        );
        let ends_in = Sym::binary(BinOp::Le, wide, past, limit);
        let within = Sym::and(starts_in, ends_in);
        c.valid = Sym::and(c.valid, within.clone());
        c.valid_defined = Sym::and(c.valid_defined, within);
        c
    }
}
