//! Statements: the only place where memory is accessed, threads synchronise
//! or control flows.

use crate::{ArrayId, Expr, ScalarTy, Span, VarId};
use serde::Serialize;

/// C++ memory orders (`consume` is strengthened to `acquire`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MemOrder {
    Relaxed,
    Acquire,
    Release,
    AcqRel,
    SeqCst,
}

impl MemOrder {
    pub fn name(self) -> &'static str {
        match self {
            MemOrder::Relaxed => "relaxed",
            MemOrder::Acquire => "acquire",
            MemOrder::Release => "release",
            MemOrder::AcqRel => "acq_rel",
            MemOrder::SeqCst => "seq_cst",
        }
    }
}

/// CUDA synchronisation scopes, narrowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    Thread,
    /// The thread block (CTA).
    Block,
    Cluster,
    /// The whole GPU (`thread_scope_device`, the default of `atomicAdd`).
    Device,
    System,
}

impl Scope {
    pub fn name(self) -> &'static str {
        match self {
            Scope::Thread => "thread",
            Scope::Block => "block",
            Scope::Cluster => "cluster",
            Scope::Device => "device",
            Scope::System => "system",
        }
    }
}

/// How a memory access is performed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum AccessKind {
    Plain,
    Volatile,
    Atomic { order: MemOrder, scope: Scope },
}

/// One scalar slot of an array: `array[index]`, read or written as `ty`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MemRef {
    pub array: ArrayId,
    /// Index in slots (elements times slots per element, plus field).
    pub index: Expr,
    pub ty: ScalarTy,
}

/// Read-modify-write operations of the `atomic*` family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RmwOp {
    Add,
    Sub,
    Exch,
    Min,
    Max,
    /// `atomicInc`: `old >= operand ? 0 : old + 1`.
    Inc,
    /// `atomicDec`: `old == 0 || old > operand ? operand : old - 1`.
    Dec,
    And,
    Or,
    Xor,
}

impl RmwOp {
    pub fn name(self) -> &'static str {
        match self {
            RmwOp::Add => "add",
            RmwOp::Sub => "sub",
            RmwOp::Exch => "exch",
            RmwOp::Min => "min",
            RmwOp::Max => "max",
            RmwOp::Inc => "inc",
            RmwOp::Dec => "dec",
            RmwOp::And => "and",
            RmwOp::Or => "or",
            RmwOp::Xor => "xor",
        }
    }
}

/// Which threads a barrier synchronises.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum BarrierKind {
    /// `__syncthreads()`, `this_thread_block().sync()`.
    Block,
    /// `__syncwarp(mask)`: the threads of one warp named by `mask`.
    Warp { mask: Expr },
    /// A `tiled_partition<size>` tile's `sync()`.
    Tile { size: u32 },
    /// `this_grid().sync()`: every thread of the grid.
    Grid,
}

/// The reduction of `__syncthreads_count/_and/_or`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ReduceOp {
    Count,
    And,
    Or,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AssumeOrigin {
    /// GPUVerify's `__requires(e)`: a precondition of the kernel.
    Requires,
    /// GPUVerify's `__axiom(e)` (at file scope: lowered at the start of
    /// every kernel of the file), assumed like a precondition.
    Axiom,
    /// `__assume(e)` / `__builtin_assume(e)`.
    Assume,
    /// A pointer cast to a wider element is aligned to it (the front end's
    /// assumption: a misaligned access faults on the GPU).
    Aligned,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct LoopId(pub u32);

/// What a `Loop` came from (for printing, and to tell real loops from
/// single-pass constructs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LoopKind {
    For,
    While,
    DoWhile,
    /// A `switch`: runs once, `break` leaves it.
    Switch,
    /// An inlined function body: runs once, `return` became `break`.
    Inline,
    /// The statements before a label: runs once, a forward `goto` to the
    /// label became `break`.
    Goto,
}

impl LoopKind {
    /// Whether this loop may run its body more than once.
    pub fn iterates(self) -> bool {
        matches!(self, LoopKind::For | LoopKind::While | LoopKind::DoWhile)
    }
}

/// When a loop tests its condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LoopCheck {
    /// `loop { header; if !cond break; body; step }` (for, while).
    Before,
    /// `loop { body; step; header; if !cond break }` (do-while).
    After,
}

pub type Block = Vec<Stmt>;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum StmtKind {
    Assign {
        dst: VarId,
        value: Expr,
    },
    /// A value the thread cannot know (e.g. `clock()`): any value of the type.
    Havoc {
        dst: VarId,
        reason: String,
    },
    Load {
        dst: VarId,
        mem: MemRef,
        access: AccessKind,
    },
    Store {
        mem: MemRef,
        value: Expr,
        access: AccessKind,
    },
    /// An atomic read-modify-write; `dst` receives the old value.
    Rmw {
        dst: Option<VarId>,
        op: RmwOp,
        mem: MemRef,
        operand: Expr,
        order: MemOrder,
        scope: Scope,
    },
    /// An atomic compare-and-swap; `dst` receives the old value.
    Cas {
        dst: Option<VarId>,
        mem: MemRef,
        expected: Expr,
        desired: Expr,
        order: MemOrder,
        failure_order: MemOrder,
        scope: Scope,
    },
    Barrier {
        kind: BarrierKind,
        /// `__syncthreads_count/_and/_or(pred)` stores the reduction in `dst`.
        reduce: Option<(ReduceOp, Expr, VarId)>,
    },
    Fence {
        order: MemOrder,
        scope: Scope,
    },
    Assert {
        cond: Expr,
        message: String,
    },
    Assume {
        cond: Expr,
        origin: AssumeOrigin,
    },
    /// `printf`: no effect on memory; arguments were evaluated before.
    Print {
        format: String,
        args: Vec<Expr>,
    },
    If {
        cond: Expr,
        then_: Block,
        else_: Block,
    },
    Loop {
        id: LoopId,
        kind: LoopKind,
        /// Statements computing `cond` (loads of the condition, ...).
        header: Block,
        cond: Expr,
        check: LoopCheck,
        body: Block,
        /// The `for` increment; `continue` jumps here.
        step: Block,
    },
    Break(LoopId),
    Continue(LoopId),
    /// The thread leaves the kernel.
    Return,
}

impl Stmt {
    pub fn new(kind: StmtKind, span: Span) -> Stmt {
        Stmt { kind, span }
    }

    /// The memory slot this statement touches, if any.
    pub fn mem(&self) -> Option<&MemRef> {
        match &self.kind {
            StmtKind::Load { mem, .. }
            | StmtKind::Store { mem, .. }
            | StmtKind::Rmw { mem, .. }
            | StmtKind::Cas { mem, .. } => Some(mem),
            _ => None,
        }
    }

    /// The nested blocks of a compound statement.
    pub fn children(&self) -> Vec<&Block> {
        match &self.kind {
            StmtKind::If { then_, else_, .. } => vec![then_, else_],
            StmtKind::Loop {
                header, body, step, ..
            } => vec![header, body, step],
            _ => Vec::new(),
        }
    }
}
