//! Protocol inference (seed 002, §5 "Inference"): symbolic execution of one
//! thread's structured IR into a [`Proto`].
//!
//! - Straight-line code substitutes: every variable holds a [`Sym`] over
//!   builtins, parameters and loop variables ([`Env`]).
//! - `If` walks both arms; a variable assigned differently becomes a
//!   `select` on the condition. Loads, atomics, havoc, opaque calls and
//!   floats yield [`Unknown`](crate::sym::Unknown) values with their reason.
//! - Jumps are forward edges: after a statement that may `break`,
//!   `continue` or `return`, the rest of the block is guarded by the
//!   condition under which it fell through ([`Flow::fall`]). Single-pass
//!   "loops" (`Switch`, `Inline`, `Goto`) are left by `break` and join the
//!   stores of every exit; real loops are in `loops.rs`.
//! - `Assume` and `Assert` statements are collected with their path guard.
//!
//! Invariant: no value is ever claimed known that the IR does not determine
//! (soundness first); where precision is lost an [`Approximation`] is noted.

use crate::env::Env;
use crate::protocol::{
    Access, AccessMode, Approximation, ArrayProtocol, Condition, ConditionOrigin, KernelProtocol,
    LoopRange, Proto, SyncKind,
};
use crate::sym::{Sym, UnknownReason};
use std::collections::HashSet;
use thiserror::Error;
use warpsafe_ir::{
    AccessKind, BarrierKind, Builtin, Const, Expr, Kernel, LoopId, MemRef, MemSpace, ScalarTy,
    Span, Stmt, StmtKind, UnOp, VarId, VarKind,
};

/// The IR broke one of its documented invariants.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum InferError {
    #[error("malformed IR in kernel `{kernel}`: {what}")]
    MalformedIr { kernel: String, what: String },
}

/// Infers the access protocols of a kernel.
pub fn infer(kernel: &Kernel) -> Result<KernelProtocol, InferError> {
    crate::validate::validate(kernel)?;
    let mut cx = Infer::new(kernel);
    let mut env = Env::new(kernel.vars.len());
    for var in &kernel.vars {
        // A host value a launch relation names is as unknown and as
        // uniform as a parameter.
        if matches!(var.kind, VarKind::Param | VarKind::Host) {
            env.set(
                var.id,
                Sym::Param {
                    var: var.id,
                    ty: var.ty,
                },
            );
        }
    }
    if let Some(r) = &kernel.launch.relation {
        let span = kernel.launch.span.unwrap_or(kernel.span);
        let c = cx.condition(r, &env, span, ConditionOrigin::Launch);
        cx.preconditions.push(c);
    }
    let flow = cx.block(&kernel.body, &mut env);
    if let Some(j) = flow.jumps.iter().find(|j| j.target != Target::Return) {
        return Err(InferError::MalformedIr {
            kernel: kernel.name.clone(),
            what: format!("a jump {:?} leaves the kernel body", j.target),
        });
    }
    let body = flow.proto;
    let arrays = kernel
        .arrays
        .iter()
        .filter(|a| a.space != MemSpace::Local)
        .filter(|a| body.accesses().iter().any(|acc| acc.array == a.id))
        .map(|a| ArrayProtocol {
            array: a.id,
            name: a.name.clone(),
            space: a.space,
            proto: body.slice(&|acc| acc.array == a.id),
        })
        .collect();
    Ok(KernelProtocol {
        kernel: kernel.name.clone(),
        body,
        arrays,
        preconditions: cx.preconditions,
        asserts: cx.asserts,
        approximations: cx.approximations,
    })
}

/// Where a jump goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    Break(LoopId),
    Continue(LoopId),
    Return,
}

/// A jump out of a walked fragment: taken under `cond` (relative to the
/// fragment's entry) with the store `env`.
pub(crate) struct Jump {
    pub(crate) target: Target,
    pub(crate) cond: Sym,
    pub(crate) env: Env,
}

/// The result of walking a fragment.
pub(crate) struct Flow {
    pub(crate) proto: Proto,
    /// When control falls through to the next statement.
    pub(crate) fall: Sym,
    pub(crate) jumps: Vec<Jump>,
}

impl Flow {
    pub(crate) fn straight(proto: Proto) -> Flow {
        Flow {
            proto,
            fall: Sym::Bool(true),
            jumps: Vec::new(),
        }
    }
}

/// The inference state of one kernel.
pub(crate) struct Infer<'k> {
    pub(crate) kernel: &'k Kernel,
    pub(crate) next_unknown: u32,
    /// The condition under which the current statement runs.
    pub(crate) path: Sym,
    /// How many real loops enclose the current statement.
    pub(crate) loop_depth: usize,
    /// The enclosing counting loops' ranges, outermost first.
    pub(crate) loop_ranges: Vec<LoopRange>,
    /// How many conditions (`Assume`, `Assert`) were collected so far.
    pub(crate) conditions: usize,
    /// Memory accesses and barriers met so far (in program order).
    pub(crate) effects: usize,
    pub(crate) preconditions: Vec<Condition>,
    asserts: Vec<Condition>,
    pub(crate) approximations: Vec<Approximation>,
    /// The quiet loads of shared memory (`quiet`).
    quiet: HashSet<*const Stmt>,
}

impl<'k> Infer<'k> {
    fn new(kernel: &'k Kernel) -> Infer<'k> {
        Infer {
            kernel,
            next_unknown: 0,
            path: Sym::Bool(true),
            loop_depth: 0,
            loop_ranges: Vec::new(),
            conditions: 0,
            effects: 0,
            preconditions: Vec::new(),
            asserts: Vec::new(),
            approximations: Vec::new(),
            quiet: crate::quiet::quiet_loads(kernel),
        }
    }

    pub(crate) fn fresh(&mut self, ty: ScalarTy, reason: UnknownReason, span: Span) -> Sym {
        let id = self.next_unknown;
        self.next_unknown += 1;
        Sym::unknown(id, ty, reason, span)
    }

    pub(crate) fn note(&mut self, span: Span, what: String) {
        self.approximations.push(Approximation { span, what });
    }

    /// The value of `v`, or an `Uninitialised` unknown.
    pub(crate) fn read(&mut self, env: &Env, v: VarId, span: Span) -> Sym {
        match env.get(v) {
            Some(s) => s.clone(),
            None => {
                let ty = self.kernel.var(v).ty;
                self.fresh(ty, UnknownReason::Uninitialised { var: v }, span)
            }
        }
    }

    /// Joins stores (see [`Env::merge`]).
    pub(crate) fn merge(&mut self, entries: Vec<(Sym, Env)>, fallback: Env, span: Span) -> Env {
        let kernel = self.kernel;
        let mut fresh = |v: VarId| {
            let ty = kernel.var(v).ty;
            self.fresh(ty, UnknownReason::Uninitialised { var: v }, span)
        };
        Env::merge(entries, fallback, &mut fresh)
    }

    /// Evaluates an IR expression in the store `env`.
    pub(crate) fn eval(&mut self, e: &Expr, env: &Env, span: Span) -> Sym {
        let ty = expr_ty(e, self.kernel);
        if ty.is_float() {
            return self.fresh(ty, UnknownReason::Float, span);
        }
        match e {
            Expr::Const(Const::Int(v), ty) => Sym::int(*v, *ty),
            Expr::Const(Const::Bool(b), _) => Sym::Bool(*b),
            Expr::Const(Const::Float(_), ty) => self.fresh(*ty, UnknownReason::Float, span),
            Expr::Var(v) => self.read(env, *v, span),
            Expr::Builtin(Builtin::WarpSize) => Sym::int(32, ScalarTy::I32),
            Expr::Builtin(b) => Sym::Builtin(*b),
            Expr::Unary(op, ty, a) => {
                if ty.is_float() || (*op == UnOp::Not && expr_ty(a, self.kernel).is_float()) {
                    return self.fresh(ScalarTy::Bool, UnknownReason::Float, span);
                }
                let a = self.eval(a, env, span);
                Sym::unary(*op, *ty, a)
            }
            Expr::Binary(op, ty, a, b) => {
                if ty.is_float() {
                    // A comparison of floats: a Bool the protocol cannot know.
                    return self.fresh(ScalarTy::Bool, UnknownReason::Float, span);
                }
                let a = self.eval(a, env, span);
                let b = self.eval(b, env, span);
                Sym::binary(*op, *ty, a, b)
            }
            Expr::Select(c, a, b) => {
                let c = self.eval(c, env, span);
                let a = self.eval(a, env, span);
                let b = self.eval(b, env, span);
                Sym::select(c, a, b)
            }
            Expr::Cast(ty, a) => {
                if expr_ty(a, self.kernel).is_float() {
                    return self.fresh(*ty, UnknownReason::Float, span);
                }
                let a = self.eval(a, env, span);
                Sym::cast(*ty, a)
            }
            Expr::Call(name, ty, args) => {
                // An integer intrinsic of the declared result type, on
                // integer arguments: exact.
                let exact = crate::intrinsic::Intrinsic::from_name(name).filter(|i| {
                    i.result() == *ty
                        && args.len() == i.args().len()
                        && args.iter().all(|a| !expr_ty(a, self.kernel).is_float())
                });
                match exact {
                    Some(i) => {
                        let args = args
                            .iter()
                            .zip(i.args())
                            .map(|(a, t)| Sym::cast(*t, self.eval(a, env, span)))
                            .collect();
                        Sym::Intrinsic(i, args)
                    }
                    None => self.fresh(*ty, UnknownReason::Call(name.clone()), span),
                }
            }
        }
    }

    /// Walks a block: statements after one that may jump are guarded by its
    /// fall-through condition.
    pub(crate) fn block(&mut self, block: &[Stmt], env: &mut Env) -> Flow {
        let saved_path = self.path.clone();
        // Segments closed by a conditional fall-through, innermost last.
        let mut segments: Vec<(Vec<Proto>, Sym)> = Vec::new();
        let mut current = Vec::new();
        let mut fall = Sym::Bool(true);
        let mut jumps = Vec::new();
        for stmt in block {
            let flow = self.stmt(stmt, env);
            current.push(flow.proto);
            for mut j in flow.jumps {
                j.cond = Sym::and(fall.clone(), j.cond);
                jumps.push(j);
            }
            if flow.fall.is_true() {
                continue;
            }
            fall = Sym::and(fall, flow.fall.clone());
            self.path = Sym::and(self.path.clone(), flow.fall.clone());
            segments.push((std::mem::take(&mut current), flow.fall));
            if fall.is_false() {
                break;
            }
        }
        self.path = saved_path;
        let mut proto = Proto::seq(current);
        while let Some((mut items, cond)) = segments.pop() {
            items.push(Proto::if_(cond, proto, Proto::Skip));
            proto = Proto::seq(items);
        }
        Flow { proto, fall, jumps }
    }

    fn access(
        &mut self,
        mem: &MemRef,
        mode: AccessMode,
        access: AccessKind,
        env: &Env,
        span: Span,
    ) -> Proto {
        self.effects += 1;
        let index = self.eval(&mem.index, env, span);
        let atomic_object = self.kernel.array(mem.array).atomic_object;
        let (atomic, scope) = match access {
            AccessKind::Atomic { scope, .. } => (true, Some(scope)),
            _ if atomic_object => (true, Some(warpsafe_ir::Scope::System)),
            _ => (false, None),
        };
        Proto::Access(Access {
            array: mem.array,
            mode,
            index,
            atomic,
            scope,
            volatile: access == AccessKind::Volatile,
            span,
        })
    }

    fn stmt(&mut self, stmt: &Stmt, env: &mut Env) -> Flow {
        let span = stmt.span;
        match &stmt.kind {
            StmtKind::Assign { dst, value } => {
                let mut v = self.eval(value, env, span);
                if v.larger_than(crate::sym::MAX_TRACKED_NODES) {
                    let ty = self.kernel.var(*dst).ty;
                    v = self.fresh(ty, UnknownReason::TooLarge { var: *dst }, span);
                }
                env.set(*dst, v);
                Flow::straight(Proto::Skip)
            }
            StmtKind::Havoc { dst, reason } => {
                let ty = self.kernel.var(*dst).ty;
                let v = self.fresh(ty, UnknownReason::Havoc(reason.clone()), span);
                env.set(*dst, v);
                Flow::straight(Proto::Skip)
            }
            StmtKind::Load { dst, mem, access } => {
                let p = self.access(mem, AccessMode::Read, *access, env, span);
                let ty = self.kernel.var(*dst).ty;
                let mut v = self.fresh(ty, UnknownReason::Load { array: mem.array }, span);
                // A quiet load of one location for the whole block.
                if self.quiet.contains(&(stmt as *const Stmt))
                    && matches!(&p, Proto::Access(a) if a.index.same_in_block(&|_| false))
                {
                    v = v.mark_block_uniform(&|_| true);
                }
                env.set(*dst, v);
                Flow::straight(p)
            }
            StmtKind::Store { mem, access, .. } => {
                Flow::straight(self.access(mem, AccessMode::Write, *access, env, span))
            }
            StmtKind::Rmw {
                dst,
                mem,
                order,
                scope,
                ..
            }
            | StmtKind::Cas {
                dst,
                mem,
                order,
                scope,
                ..
            } => {
                let kind = AccessKind::Atomic {
                    order: *order,
                    scope: *scope,
                };
                let p = self.access(mem, AccessMode::Write, kind, env, span);
                if let Some(dst) = dst {
                    let ty = self.kernel.var(*dst).ty;
                    let v = self.fresh(ty, UnknownReason::Atomic { array: mem.array }, span);
                    env.set(*dst, v);
                }
                Flow::straight(p)
            }
            StmtKind::Barrier { kind, reduce } => {
                let kind = match kind {
                    BarrierKind::Block => SyncKind::Block,
                    BarrierKind::Warp { mask } => SyncKind::Warp {
                        mask: self.eval(mask, env, span),
                    },
                    BarrierKind::Tile { size } => SyncKind::Tile { size: *size },
                    BarrierKind::Grid => SyncKind::Grid,
                };
                if let Some((_, _, dst)) = reduce {
                    let ty = self.kernel.var(*dst).ty;
                    let mut v = self.fresh(ty, UnknownReason::BarrierReduce, span);
                    if kind == SyncKind::Block {
                        // `__syncthreads_count/_and/_or` give every thread
                        // of the block the same result.
                        v = v.mark_block_uniform(&|_| true);
                    }
                    env.set(*dst, v);
                }
                self.effects += 1;
                Flow::straight(Proto::Sync { kind, span })
            }
            StmtKind::Fence { .. } | StmtKind::Print { .. } => Flow::straight(Proto::Skip),
            StmtKind::Assert { cond, message } => {
                let c = self.condition(
                    cond,
                    env,
                    span,
                    ConditionOrigin::Assert {
                        message: message.clone(),
                    },
                );
                self.asserts.push(c);
                Flow::straight(Proto::Skip)
            }
            StmtKind::Assume { cond, origin } => {
                let c = self.condition(cond, env, span, ConditionOrigin::Assume(*origin));
                self.preconditions.push(c);
                Flow::straight(Proto::Skip)
            }
            StmtKind::If { cond, then_, else_ } => self.if_(cond, then_, else_, env, span),
            StmtKind::Loop {
                id,
                kind,
                header,
                cond,
                check,
                body,
                step,
            } => {
                if kind.iterates() {
                    self.real_loop(
                        crate::loops::LoopParts {
                            id: *id,
                            kind: *kind,
                            header,
                            cond,
                            check: *check,
                            body,
                            step,
                            span,
                        },
                        env,
                    )
                } else {
                    self.single_pass(*id, header, cond, body, step, env, span)
                }
            }
            StmtKind::Break(id) => self.jump(Target::Break(*id), env),
            StmtKind::Continue(id) => self.jump(Target::Continue(*id), env),
            StmtKind::Return => self.jump(Target::Return, env),
        }
    }

    fn jump(&mut self, target: Target, env: &Env) -> Flow {
        Flow {
            proto: Proto::Skip,
            fall: Sym::Bool(false),
            jumps: vec![Jump {
                target,
                cond: Sym::Bool(true),
                env: env.clone(),
            }],
        }
    }

    fn condition(
        &mut self,
        cond: &Expr,
        env: &Env,
        span: Span,
        origin: ConditionOrigin,
    ) -> Condition {
        let seq = self.conditions;
        self.conditions += 1;
        Condition {
            cond: self.eval(cond, env, span),
            guard: self.path.clone(),
            in_loop: self.loop_depth > 0,
            loops: self.loop_ranges.clone(),
            after_effects: self.effects > 0,
            seq,
            origin,
            span,
        }
    }

    fn if_(
        &mut self,
        cond: &Expr,
        then_: &[Stmt],
        else_: &[Stmt],
        env: &mut Env,
        span: Span,
    ) -> Flow {
        let c = self.eval(cond, env, span);
        if c.is_true() {
            return self.block(then_, env);
        }
        if c.is_false() {
            return self.block(else_, env);
        }
        let saved = self.path.clone();
        let mut env_t = env.clone();
        self.path = Sym::and(saved.clone(), c.clone());
        let t = self.block(then_, &mut env_t);
        let mut env_e = env.clone();
        self.path = Sym::and(saved.clone(), Sym::negate(c.clone()));
        let e = self.block(else_, &mut env_e);
        self.path = saved;
        let mut jumps = Vec::new();
        for mut j in t.jumps {
            j.cond = Sym::and(c.clone(), j.cond);
            jumps.push(j);
        }
        for mut j in e.jumps {
            j.cond = Sym::and(Sym::negate(c.clone()), j.cond);
            jumps.push(j);
        }
        let fall_t = Sym::and(c.clone(), t.fall.clone());
        let fall_e = Sym::and(Sym::negate(c.clone()), e.fall.clone());
        let fall = Sym::select(c.clone(), t.fall, e.fall);
        let fallback = env.clone();
        *env = self.merge(vec![(fall_t, env_t), (fall_e, env_e)], fallback, span);
        Flow {
            proto: Proto::if_(c, t.proto, e.proto),
            fall,
            jumps,
        }
    }

    /// A `Switch`, `Inline` or `Goto` region: runs once; `break` to it is a
    /// forward jump to its end, and so is falling off its end.
    #[allow(clippy::too_many_arguments)]
    fn single_pass(
        &mut self,
        id: LoopId,
        header: &[Stmt],
        cond: &Expr,
        body: &[Stmt],
        step: &[Stmt],
        env: &mut Env,
        span: Span,
    ) -> Flow {
        let mut all = header.to_vec();
        all.push(Stmt::new(
            StmtKind::If {
                cond: cond.clone(),
                then_: body.iter().chain(step).cloned().collect(),
                else_: Vec::new(),
            },
            span,
        ));
        let flow = self.block(&all, env);
        let mut exits = vec![(flow.fall.clone(), env.clone())];
        let mut fall = flow.fall;
        let mut jumps = Vec::new();
        for j in flow.jumps {
            if j.target == Target::Break(id) || j.target == Target::Continue(id) {
                fall = Sym::or(fall, j.cond.clone());
                exits.push((j.cond, j.env));
            } else {
                jumps.push(j);
            }
        }
        // The exit conditions are mutually exclusive; the last is the default.
        exits.reverse();
        let fallback = env.clone();
        *env = self.merge(exits, fallback, span);
        Flow {
            proto: flow.proto,
            fall,
            jumps,
        }
    }
}

/// The type of an IR expression.
pub(crate) fn expr_ty(e: &Expr, kernel: &Kernel) -> ScalarTy {
    match e {
        Expr::Const(_, ty) | Expr::Cast(ty, _) | Expr::Call(_, ty, _) => *ty,
        Expr::Var(v) => kernel.var(*v).ty,
        Expr::Builtin(Builtin::WarpSize) => ScalarTy::I32,
        Expr::Builtin(_) => ScalarTy::U32,
        Expr::Unary(UnOp::Not, _, _) => ScalarTy::Bool,
        Expr::Unary(_, ty, _) => *ty,
        Expr::Binary(op, ty, _, _) => {
            if op.is_boolean() {
                ScalarTy::Bool
            } else {
                *ty
            }
        }
        Expr::Select(_, a, _) => expr_ty(a, kernel),
    }
}
