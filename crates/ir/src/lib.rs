//! The kernel IR: a structured, per-thread program that every engine reads.
//!
//! A [`Kernel`] is the code one thread runs. Its body is a tree of
//! [`Stmt`]s (sequence, `If`, labelled `Loop`); memory is only touched by
//! `Load`, `Store`, `Rmw` and `Cas` statements, so [`Expr`]essions are pure
//! and side-effect free. Arrays are flat sequences of scalar *slots*: the
//! front end linearises multi-dimensional indices and struct fields.
//!
//! Invariants (the front end establishes them, engines may rely on them):
//! - **Every statement carries the [`Span`] of the source it came from.**
//! - Expressions never read memory and never have side effects.
//! - The operands of a `Binary` have the type stored in it (the front end
//!   inserts C's usual arithmetic conversions as explicit `Cast`s); comparisons
//!   and logical operators yield `Bool`.
//! - `Break`/`Continue` name an enclosing `Loop`; a `Loop` of kind
//!   `Switch`, `Inline` or `Goto` runs at most once and is only left by `Break`
//!   (`Continue` never targets it).
//! - Every `VarId` and `ArrayId` used in a kernel indexes its `vars`/`arrays`.

mod expr;
mod kernel;
mod print;
mod stmt;
mod ty;
mod visit;
mod volatile;

pub use expr::{BinOp, Builtin, Const, Dim, Expr, UnOp, FREXP_EXPONENT};
pub use kernel::{
    Array, ArrayId, ArrayOrigin, Kernel, LaunchConfig, MemSpace, Module, Param, ParamKind, Var,
    VarId, VarKind, INFERRED, POINTEE_STRIDE, RELATION_NOTE,
};
pub use print::{print_expr, print_kernel};
pub use stmt::{
    AccessKind, AssumeOrigin, BarrierKind, Block, LoopCheck, LoopId, LoopKind, MemOrder, MemRef,
    ReduceOp, RmwOp, Scope, Stmt, StmtKind,
};
pub use ty::ScalarTy;
pub use visit::walk_block;
pub use volatile::VolatileReading;
pub use warpsafe_source::Span;
