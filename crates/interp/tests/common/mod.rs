//! Test helpers: build IR kernels by hand and drive a single thread with a
//! trivial sequential memory.

#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::Arc;
use warpsafe_interp::{
    apply_rmw, cas_result, reduce_barrier, BlockReason, EventKind, Fault, Launch, Location, Step,
    Thread, ThreadConfig, ThreadCtx, Value,
};
use warpsafe_ir::{
    AccessKind, Array, ArrayId, ArrayOrigin, AssumeOrigin, BarrierKind, BinOp, Block, Builtin,
    Const, Dim, Expr, Kernel, LaunchConfig, LoopCheck, LoopId, LoopKind, MemOrder, MemRef,
    MemSpace, Param, ParamKind, RmwOp, ScalarTy, Scope, Span, Stmt, StmtKind, UnOp, Var, VarId,
    VarKind,
};
use warpsafe_source::FileId;

pub use ScalarTy::*;

/// A span whose `lo` identifies the statement in tests.
pub fn sp(lo: u32) -> Span {
    Span::new(FileId(0), lo, lo + 1)
}

/// A kernel under construction.
pub struct Kb {
    pub kernel: Kernel,
    next_loop: u32,
}

impl Default for Kb {
    fn default() -> Self {
        Kb::new()
    }
}

impl Kb {
    pub fn new() -> Kb {
        Kb {
            kernel: Kernel {
                name: "test".into(),
                template_args: vec![],
                params: vec![],
                vars: vec![],
                arrays: vec![],
                body: vec![],
                launch: LaunchConfig::default(),
                span: sp(9999),
                volatile_read_as: None,
            },
            next_loop: 0,
        }
    }

    fn add_var(&mut self, name: &str, ty: ScalarTy, kind: VarKind) -> VarId {
        let id = VarId(self.kernel.vars.len() as u32);
        self.kernel.vars.push(Var {
            id,
            name: name.into(),
            ty,
            kind,
            span: sp(0),
        });
        id
    }

    pub fn var(&mut self, name: &str, ty: ScalarTy) -> VarId {
        self.add_var(name, ty, VarKind::Local)
    }

    pub fn param(&mut self, name: &str, ty: ScalarTy) -> VarId {
        let id = self.add_var(name, ty, VarKind::Param);
        self.kernel.params.push(Param {
            name: name.into(),
            c_type: ty.name().into(),
            kind: ParamKind::Scalar(id),
            span: sp(0),
        });
        id
    }

    fn add_array(
        &mut self,
        name: &str,
        ty: ScalarTy,
        space: MemSpace,
        origin: ArrayOrigin,
        dims: Vec<u64>,
        init: Option<Vec<Const>>,
    ) -> ArrayId {
        let id = ArrayId(self.kernel.arrays.len() as u32);
        self.kernel.arrays.push(Array {
            id,
            name: name.into(),
            space,
            origin,
            elem: ty.name().into(),
            slots: vec![ty],
            dims,
            init,
            atomic_object: false,
            span: sp(0),
        });
        id
    }

    /// A pointer parameter: global, size unknown.
    pub fn ptr(&mut self, name: &str, ty: ScalarTy) -> ArrayId {
        let id = self.add_array(name, ty, MemSpace::Global, ArrayOrigin::Param, vec![], None);
        self.kernel.params.push(Param {
            name: name.into(),
            c_type: format!("{}*", ty.name()),
            kind: ParamKind::Array(id),
            span: sp(0),
        });
        id
    }

    pub fn global(&mut self, name: &str, ty: ScalarTy, len: u64) -> ArrayId {
        self.add_array(
            name,
            ty,
            MemSpace::Global,
            ArrayOrigin::DeviceGlobal,
            vec![len],
            None,
        )
    }

    pub fn shared(&mut self, name: &str, ty: ScalarTy, len: u64) -> ArrayId {
        self.add_array(
            name,
            ty,
            MemSpace::Shared,
            ArrayOrigin::Shared,
            vec![len],
            None,
        )
    }

    pub fn extern_shared(&mut self, name: &str, ty: ScalarTy) -> ArrayId {
        self.add_array(
            name,
            ty,
            MemSpace::Shared,
            ArrayOrigin::DynamicShared,
            vec![],
            None,
        )
    }

    pub fn local(
        &mut self,
        name: &str,
        ty: ScalarTy,
        len: u64,
        init: Option<Vec<Const>>,
    ) -> ArrayId {
        self.add_array(
            name,
            ty,
            MemSpace::Local,
            ArrayOrigin::Local,
            vec![len],
            init,
        )
    }

    pub fn loop_id(&mut self) -> LoopId {
        self.next_loop += 1;
        LoopId(self.next_loop - 1)
    }

    pub fn finish(mut self, body: Block) -> Kernel {
        self.kernel.body = body;
        self.kernel
    }
}

// ---- expressions ----

pub fn v(id: VarId) -> Expr {
    Expr::Var(id)
}
pub fn c(value: i128, ty: ScalarTy) -> Expr {
    Expr::int(value, ty)
}
pub fn i32c(value: i32) -> Expr {
    Expr::int(value.into(), I32)
}
pub fn u32c(value: u32) -> Expr {
    Expr::int(value.into(), U32)
}
pub fn i64c(value: i64) -> Expr {
    Expr::int(value.into(), I64)
}
pub fn f32c(value: f32) -> Expr {
    Expr::Const(Const::Float(value.into()), F32)
}
pub fn f64c(value: f64) -> Expr {
    Expr::Const(Const::Float(value), F64)
}
pub fn t() -> Expr {
    Expr::bool(true)
}
pub fn bin(op: BinOp, ty: ScalarTy, a: Expr, b: Expr) -> Expr {
    Expr::binary(op, ty, a, b)
}
pub fn add(ty: ScalarTy, a: Expr, b: Expr) -> Expr {
    bin(BinOp::Add, ty, a, b)
}
pub fn lt(ty: ScalarTy, a: Expr, b: Expr) -> Expr {
    bin(BinOp::Lt, ty, a, b)
}
pub fn eq(ty: ScalarTy, a: Expr, b: Expr) -> Expr {
    bin(BinOp::Eq, ty, a, b)
}
pub fn un(op: UnOp, ty: ScalarTy, a: Expr) -> Expr {
    Expr::Unary(op, ty, Box::new(a))
}
pub fn cast(ty: ScalarTy, a: Expr) -> Expr {
    Expr::Cast(ty, Box::new(a))
}
pub fn select(cond: Expr, a: Expr, b: Expr) -> Expr {
    Expr::Select(Box::new(cond), Box::new(a), Box::new(b))
}
pub fn call(name: &str, ty: ScalarTy, args: Vec<Expr>) -> Expr {
    Expr::Call(name.into(), ty, args)
}
pub fn tid() -> Expr {
    Expr::Builtin(Builtin::ThreadIdx(Dim::X))
}

// ---- statements (span 0 unless set with `at`) ----

pub fn st(kind: StmtKind) -> Stmt {
    Stmt::new(kind, sp(0))
}
pub fn at(lo: u32, mut s: Stmt) -> Stmt {
    s.span = sp(lo);
    s
}
pub fn assign(dst: VarId, value: Expr) -> Stmt {
    st(StmtKind::Assign { dst, value })
}
pub fn mem(array: ArrayId, index: Expr, ty: ScalarTy) -> MemRef {
    MemRef { array, index, ty }
}
pub fn load(dst: VarId, array: ArrayId, index: Expr, ty: ScalarTy) -> Stmt {
    st(StmtKind::Load {
        dst,
        mem: mem(array, index, ty),
        access: AccessKind::Plain,
    })
}
pub fn store(array: ArrayId, index: Expr, ty: ScalarTy, value: Expr) -> Stmt {
    st(StmtKind::Store {
        mem: mem(array, index, ty),
        value,
        access: AccessKind::Plain,
    })
}
pub fn atomic(
    dst: Option<VarId>,
    op: RmwOp,
    array: ArrayId,
    index: Expr,
    ty: ScalarTy,
    operand: Expr,
) -> Stmt {
    st(StmtKind::Rmw {
        dst,
        op,
        mem: mem(array, index, ty),
        operand,
        order: MemOrder::Relaxed,
        scope: Scope::Device,
    })
}
pub fn cas(
    dst: Option<VarId>,
    array: ArrayId,
    index: Expr,
    ty: ScalarTy,
    expected: Expr,
    desired: Expr,
) -> Stmt {
    st(StmtKind::Cas {
        dst,
        mem: mem(array, index, ty),
        expected,
        desired,
        order: MemOrder::SeqCst,
        failure_order: MemOrder::Relaxed,
        scope: Scope::Block,
    })
}
pub fn barrier() -> Stmt {
    st(StmtKind::Barrier {
        kind: BarrierKind::Block,
        reduce: None,
    })
}
pub fn fence() -> Stmt {
    st(StmtKind::Fence {
        order: MemOrder::SeqCst,
        scope: Scope::Device,
    })
}
pub fn if_(cond: Expr, then_: Block, else_: Block) -> Stmt {
    st(StmtKind::If { cond, then_, else_ })
}
/// `header; while (cond) { body; step }` as the IR's `for`.
pub fn for_(id: LoopId, cond: Expr, body: Block, step: Block) -> Stmt {
    st(StmtKind::Loop {
        id,
        kind: LoopKind::For,
        header: vec![],
        cond,
        check: LoopCheck::Before,
        body,
        step,
    })
}
pub fn do_while(id: LoopId, body: Block, cond: Expr) -> Stmt {
    st(StmtKind::Loop {
        id,
        kind: LoopKind::DoWhile,
        header: vec![],
        cond,
        check: LoopCheck::After,
        body,
        step: vec![],
    })
}
/// A single-pass loop (`switch`, inlined body, forward `goto`).
pub fn once(id: LoopId, kind: LoopKind, body: Block) -> Stmt {
    st(StmtKind::Loop {
        id,
        kind,
        header: vec![],
        cond: Expr::bool(true),
        check: LoopCheck::Before,
        body,
        step: vec![],
    })
}
pub fn brk(id: LoopId) -> Stmt {
    st(StmtKind::Break(id))
}
pub fn cont(id: LoopId) -> Stmt {
    st(StmtKind::Continue(id))
}
pub fn ret() -> Stmt {
    st(StmtKind::Return)
}
pub fn assert_(cond: Expr, message: &str) -> Stmt {
    st(StmtKind::Assert {
        cond,
        message: message.into(),
    })
}
pub fn assume(cond: Expr) -> Stmt {
    st(StmtKind::Assume {
        cond,
        origin: AssumeOrigin::Requires,
    })
}
pub fn havoc(dst: VarId) -> Stmt {
    st(StmtKind::Havoc {
        dst,
        reason: "clock".into(),
    })
}

// ---- running ----

/// A launch of one block of `threads` threads.
pub fn launch(threads: u32) -> Launch {
    Launch::new([1, 1, 1], [threads, 1, 1])
}

pub fn thread<'k>(kernel: &'k Kernel, launch: Launch, tid: u32) -> Thread<'k> {
    thread_with(kernel, launch, tid, ThreadConfig::default())
}

pub fn thread_with<'k>(
    kernel: &'k Kernel,
    launch: Launch,
    tid: u32,
    config: ThreadConfig,
) -> Thread<'k> {
    let ctx = ThreadCtx::new(Arc::new(launch), [0, 0, 0], [tid, 0, 0]);
    Thread::new(kernel, ctx, config).expect("valid launch")
}

/// How a single-thread run ended.
#[derive(Debug, PartialEq)]
pub enum Outcome {
    Done,
    Assertion(String, Span),
    Infeasible(Span),
    Blocked(BlockReason, Span),
    /// `spin_yield`: a wasted iteration; the thread may go on.
    Yield(Span),
    Fault(Fault),
}

/// Sequential memory for one thread: unwritten slots read as zero (or as
/// `initial` when set), barriers pass at once, havoc yields `havoc_value`.
#[derive(Debug, Default)]
pub struct Mem {
    pub cells: HashMap<Location, Value>,
    pub log: Vec<EventKind>,
    pub havoc_value: Option<i128>,
}

impl Mem {
    pub fn get(&self, array: ArrayId, index: u64) -> Option<Value> {
        self.cells.get(&Location { array, index }).copied()
    }

    pub fn set(&mut self, array: ArrayId, index: u64, value: Value) {
        self.cells.insert(Location { array, index }, value);
    }

    fn read(&self, loc: Location, ty: ScalarTy) -> Value {
        match self.cells.get(&loc) {
            Some(v) if v.ty() == ty => *v,
            Some(v) => Value::from_bits(ty, v.to_bits()),
            None => Value::zero(ty),
        }
    }

    /// Runs `thread` to its end, performing every event.
    pub fn run(&mut self, thread: &mut Thread) -> Outcome {
        loop {
            match thread.step() {
                Ok(Step::Event(e)) => {
                    self.log.push(e.kind.clone());
                    self.perform(thread, e.kind);
                }
                Ok(Step::Done) => return Outcome::Done,
                Ok(Step::AssertionFailed { message, span }) => {
                    return Outcome::Assertion(message, span)
                }
                Ok(Step::Infeasible { span }) => return Outcome::Infeasible(span),
                Ok(Step::Blocked { reason, span }) => return Outcome::Blocked(reason, span),
                Ok(Step::Yield { span, .. }) => return Outcome::Yield(span),
                Err(f) => return Outcome::Fault(f),
            }
        }
    }

    pub fn perform(&mut self, thread: &mut Thread, kind: EventKind) {
        match kind {
            EventKind::Load { loc, ty, .. } => {
                thread
                    .resume_load(self.read(loc, ty))
                    .expect("load resumes");
            }
            EventKind::Store { loc, value, .. } => {
                self.cells.insert(loc, value);
            }
            EventKind::Rmw {
                loc, op, operand, ..
            } => {
                let old = self.read(loc, operand.ty());
                let new = apply_rmw(op, old, operand).expect("well-typed atomic");
                self.cells.insert(loc, new);
                thread.resume_rmw(old).expect("rmw resumes");
            }
            EventKind::Cas {
                loc,
                expected,
                desired,
                ..
            } => {
                let old = self.read(loc, expected.ty());
                self.cells.insert(loc, cas_result(old, expected, desired));
                thread.resume_cas(old).expect("cas resumes");
            }
            EventKind::Barrier { reduce, .. } => {
                if let Some((op, pred)) = reduce {
                    thread
                        .resume_barrier(reduce_barrier(op, [pred]))
                        .expect("barrier resumes");
                }
            }
            EventKind::Fence { .. } => {}
            EventKind::Havoc { ty, .. } => {
                let v = Value::from_int(ty, self.havoc_value.unwrap_or(0));
                thread.resume_havoc(v).expect("havoc resumes");
            }
        }
    }
}

/// Runs one thread of a one-block launch to its end.
pub fn run(kernel: &Kernel, launch: Launch, tid: u32) -> (Outcome, Mem, Thread<'_>) {
    let mut th = thread(kernel, launch, tid);
    let mut m = Mem::default();
    let out = m.run(&mut th);
    (out, m, th)
}

/// Takes a (possibly very deep) statement tree apart without recursion, so
/// dropping it cannot overflow the stack.
pub fn dismantle(block: Block) {
    let mut work = vec![block];
    while let Some(b) = work.pop() {
        for s in b {
            match s.kind {
                StmtKind::If { then_, else_, .. } => {
                    work.push(then_);
                    work.push(else_);
                }
                StmtKind::Loop {
                    header, body, step, ..
                } => {
                    work.push(header);
                    work.push(body);
                    work.push(step);
                }
                _ => {}
            }
        }
    }
}
