//! Asynchronous copies into shared memory: libcu++'s `cuda::memcpy_async`
//! with a per-thread `pipeline<thread_scope_thread>` or a block
//! `barrier<thread_scope_block>`, and cooperative groups' collective
//! `cg::memcpy_async(group, ...)` with `cg::wait`/`cg::wait_prior`.
//!
//! The model (stated in a warning on every kernel that uses it, and in the
//! README as not sound): a copy is done when it is issued, as `memcpy` is.
//! Each byte is read and written by the thread that issues it, or, for a
//! collective copy, element `e` by the group's thread of rank `e % size`.
//! Pipeline acquire/commit/wait/release only order a thread's own copies,
//! so they emit nothing; `cg::wait(g)` synchronises `g` (as libcu++ does);
//! `bar.arrive_and_wait()` is `__syncthreads()`, which `init(&bar, n)`
//! makes exact by asserting that `n` is the block's thread count; so is a
//! split `token = bar.arrive(); ... bar.wait(token)` with nothing between
//! the two that touches memory.
//!
//! Invariants: what the model cannot express is refused by name, never
//! approximated silently: block-scoped pipelines with shared state
//! (producer and consumer roles synchronise through the pipeline), a
//! split `arrive()`/`wait(token)` with memory accesses between them (they
//! are concurrent with both phases), and copies whose length is not known
//! at lowering time.

use super::builtins::{block_size, linear_tid};
use super::value::Value;
use super::{Lowerer, R};
use crate::types::{CType, GroupKind};
use tree_sitter::Node;
use warpsafe_ir::{BinOp, Expr, ScalarTy, StmtKind};

/// The type of `cuda::pipeline<cuda::thread_scope_thread>`.
pub const ASYNC_PIPELINE: &str = "cuda::pipeline<cuda::thread_scope_thread>";
/// The type of `cuda::barrier<cuda::thread_scope_block>`.
pub const ASYNC_BARRIER: &str = "cuda::barrier<cuda::thread_scope_block>";

/// The warning every kernel with an asynchronous copy gets.
const DONE_AT_ISSUE: &str = "asynchronous copies (`memcpy_async`) are modelled as done when issued: a read of the destination or a write of the source between the copy and its wait is not checked (not sound)";

/// The most element copies one collective copy unrolls to per thread.
const MAX_COLLECTIVE: u64 = 1024;

/// What an argument is, for the calls whose names are common words.
#[derive(PartialEq)]
enum Sync {
    Pipeline,
    Barrier,
}

impl<'t> Lowerer<'_, 't> {
    /// The asynchronous-copy built-ins, or `None` when `name` with these
    /// arguments is not one of them.
    pub(super) fn async_call(
        &mut self,
        name: &str,
        args: &[Node<'t>],
        n: Node<'t>,
    ) -> R<Option<Value>> {
        match name {
            "memcpy_async" => self.memcpy_async(args, n).map(|()| Some(Value::Void)),
            "make_pipeline" if args.is_empty() => Ok(Some(Value::Agg(
                CType::Struct(ASYNC_PIPELINE.to_string()),
                vec![Value::Scalar(Expr::int(0, ScalarTy::U32), ScalarTy::U32)],
            ))),
            "make_pipeline" => Err(self.unsupported(
                n,
                "`cuda::make_pipeline(group, &shared_state, ...)`: block-scoped pipelines, whose producer and consumer threads synchronise through the pipeline, are not modelled yet",
            )),
            "pipeline_consumer_wait_prior" | "pipeline_producer_commit"
                if self.sync_object(args.first().copied()) == Some(Sync::Pipeline) =>
            {
                Ok(Some(Value::Void))
            }
            "wait" | "wait_prior" if args.len() == 1 => match self.group_arg(args[0]) {
                Some(g) => {
                    self.group_sync(g, n)?;
                    Ok(Some(Value::Void))
                }
                None => Ok(None),
            },
            "init" if args.len() == 2 => self.barrier_init(args, n),
            "aligned_size_t" if args.len() == 1 => {
                let (e, t) = self.scalar(args[0])?;
                Ok(Some(Value::Scalar(
                    self.convert(e, t, ScalarTy::U64),
                    ScalarTy::U64,
                )))
            }
            _ => Ok(None),
        }
    }

    /// A method of a pipeline or barrier object (`pipe.producer_commit()`,
    /// `bar.arrive_and_wait()`).
    pub(super) fn async_method(
        &mut self,
        owner: &str,
        method: &str,
        args: &[Node<'t>],
        n: Node<'t>,
    ) -> R<Value> {
        match (owner, method) {
            (
                ASYNC_PIPELINE,
                "producer_acquire" | "producer_commit" | "consumer_wait" | "consumer_release",
            ) => Ok(Value::Void),
            (ASYNC_BARRIER, "arrive_and_wait") => {
                self.block_barrier(n);
                Ok(Value::Void)
            }
            (ASYNC_BARRIER, "arrive") if args.is_empty() => {
                // A marker the matching `wait` looks for: `token = id`.
                let span = self.span(n);
                let marker = self.temp(ScalarTy::U32, span);
                let id = Expr::int(i128::from(marker.0), ScalarTy::U32);
                self.emit(
                    StmtKind::Assign {
                        dst: marker,
                        value: id.clone(),
                    },
                    span,
                );
                Ok(Value::Scalar(id, ScalarTy::U32))
            }
            (ASYNC_BARRIER, "wait") if args.len() == 1 => self.barrier_wait(args[0], n),
            _ => Err(self.unsupported(n, format!("`{owner}::{method}()`"))),
        }
    }

    /// `bar.wait(token)` after `token = bar.arrive()`: a block barrier when
    /// nothing between the two touches memory or synchronises (then the
    /// split is `arrive_and_wait()`). Accesses between them are concurrent
    /// with both phases, which a barrier cannot express: refused.
    fn barrier_wait(&mut self, token: Node<'t>, n: Node<'t>) -> R<Value> {
        let refuse = |s: &Self, why: &str| {
            s.unsupported(
                n,
                format!("the split `bar.arrive()` / `bar.wait(token)` of `cuda::barrier` {why} (accesses between them are concurrent with both phases; `arrive_and_wait()`, or nothing between the two, is modelled)"),
            )
        };
        let v = self.value(token)?;
        let id = match v {
            Value::Scalar(e, _) => self.known_constant(&e),
            _ => None,
        };
        let at = id.and_then(|id| {
            self.out.iter().rposition(
                |s| matches!(&s.kind, StmtKind::Assign { dst, .. } if i128::from(dst.0) == id),
            )
        });
        let Some(at) = at else {
            return Err(refuse(self, "with a token from another block of code"));
        };
        let mut touches = false;
        warpsafe_ir::walk_block(&self.out[at + 1..].to_vec(), &mut |s| {
            touches |= s.mem().is_some()
                || matches!(s.kind, StmtKind::Barrier { .. } | StmtKind::Fence { .. });
        });
        if touches {
            return Err(refuse(self, "with memory accesses between them"));
        }
        self.block_barrier(n);
        Ok(Value::Void)
    }

    /// Whether `a` (if any) is a pipeline or a barrier object, without
    /// emitting anything.
    fn sync_object(&mut self, a: Option<Node<'t>>) -> Option<Sync> {
        let a = a?;
        let ty = match self.block(|s| s.place(a)) {
            Ok((_, p)) => Some(self.place_type(&p)),
            Err(_) => None,
        };
        match ty {
            Some(CType::Struct(s)) if s == ASYNC_PIPELINE => Some(Sync::Pipeline),
            Some(CType::Struct(s)) if s == ASYNC_BARRIER => Some(Sync::Barrier),
            _ => None,
        }
    }

    /// The cooperative group `a` denotes, if it is one.
    fn group_arg(&mut self, a: Node<'t>) -> Option<Value> {
        match self.block(|s| s.value(a)) {
            Ok((block, g @ Value::Group(_))) if block.is_empty() => Some(g),
            _ => None,
        }
    }

    /// `init(&bar, count)`: the count is stored, and asserted to be the
    /// block's thread count (what makes `arrive_and_wait` a `__syncthreads`).
    fn barrier_init(&mut self, args: &[Node<'t>], n: Node<'t>) -> R<Option<Value>> {
        let Ok((block, v)) = self.block(|s| s.value(args[0])) else {
            return Ok(None);
        };
        let ptr = match v {
            Value::Ptr(p) if p.pointee == CType::Struct(ASYNC_BARRIER.to_string()) => p,
            _ => return Ok(None),
        };
        self.out.extend(block);
        let place = self.deref(ptr, args[0])?;
        let expected = self.field(place, "expected", args[0])?;
        let count = self.value(args[1])?;
        let count = self.coerce(count, ScalarTy::U32, args[1])?;
        let count = self.hold(count, ScalarTy::U32, args[1]);
        self.write(
            &expected,
            Value::Scalar(count.clone(), ScalarTy::U32),
            args[1],
        )?;
        let cond = Expr::binary(BinOp::Eq, ScalarTy::U32, count, block_size());
        self.emit(
            StmtKind::Assert {
                cond,
                message: "the barrier's count is the block's thread count (warpsafe models `arrive_and_wait` as `__syncthreads`, which every thread of the block reaches)".to_string(),
            },
            self.span(n),
        );
        Ok(Some(Value::Void))
    }

    /// `cuda::memcpy_async(dst, src, size, pipe_or_bar)`,
    /// `cuda::memcpy_async(group, dst, src, size, pipe_or_bar)`,
    /// `cg::memcpy_async(group, dst, src, size)` and
    /// `cg::memcpy_async(group, dst, dst_size, src, src_size)`.
    fn memcpy_async(&mut self, args: &[Node<'t>], n: Node<'t>) -> R<()> {
        self.warn_once(n, DONE_AT_ISSUE);
        let group = args.first().and_then(|a| self.group_arg(*a));
        let Some(group) = group else {
            if args.len() != 4 || self.sync_object(args.get(3).copied()).is_none() {
                return Err(self.unsupported(
                    n,
                    "`memcpy_async` other than (dst, src, size, pipeline or barrier) or with a cooperative group first",
                ));
            }
            return self.mem_intrinsic(true, &args[..3], n);
        };
        let (dst, src, size) = match args.len() {
            4 => (args[1], args[2], args[3]),
            5 if self.sync_object(Some(args[4])).is_some() => (args[1], args[2], args[3]),
            5 => {
                // (group, dst, dst_size, src, src_size): the source's bytes.
                self.byte_count(args[2], "memcpy_async")?;
                (args[1], args[3], args[4])
            }
            _ => {
                return Err(
                    self.unsupported(n, "`memcpy_async` with a group and this many arguments")
                )
            }
        };
        self.collective_copy(group, dst, src, size, n)
    }

    /// A copy shared by a group's threads: element `e` (of the pointee
    /// type) by the thread of rank `e % size`.
    fn collective_copy(
        &mut self,
        group: Value,
        dst: Node<'t>,
        src: Node<'t>,
        size: Node<'t>,
        n: Node<'t>,
    ) -> R<()> {
        let u = ScalarTy::U32;
        let (rank, threads, fixed) = match group {
            Value::Group(GroupKind::Tile(s)) => (
                Expr::binary(BinOp::Rem, u, linear_tid(), Expr::int(s as i128, u)),
                Expr::int(s as i128, u),
                Some(s as u64),
            ),
            Value::Group(GroupKind::Block) => (linear_tid(), block_size(), None),
            other => {
                return Err(self.unsupported(
                    n,
                    format!("`memcpy_async` shared by a `{}`", other.ty_desc()),
                ))
            }
        };
        let dv = self.value(dst)?;
        let dst_ptr = self.as_ptr(dv, dst)?;
        let sv = self.value(src)?;
        let src_ptr = self.as_ptr(sv, src)?;
        let len = self.byte_count(size, "memcpy_async")?;
        if !dst_ptr.points_somewhere() || !src_ptr.points_somewhere() {
            return Err(self.unsupported(n, "a collective `memcpy_async` through a null pointer"));
        }
        if dst_ptr.pointee != src_ptr.pointee {
            return Err(self.unsupported(
                n,
                format!(
                    "a collective `memcpy_async` from `{}*` to `{}*` (both must point to one element type)",
                    src_ptr.pointee.describe(),
                    dst_ptr.pointee.describe()
                ),
            ));
        }
        let layout = self
            .items
            .types
            .layout(&dst_ptr.pointee)
            .filter(|l| l.size > 0 && len % l.size == 0)
            .ok_or_else(|| {
                self.unsupported(
                    size,
                    format!(
                        "a collective `memcpy_async` of {len} bytes, not whole `{}` elements",
                        dst_ptr.pointee.describe()
                    ),
                )
            })?;
        let elems = len / layout.size;
        // Copies per thread: `elems / size` rounded up, or, for a group
        // whose size is not known here, up to `elems` guarded ones.
        let rounds = fixed.map_or(elems, |s| elems.div_ceil(s));
        if rounds > MAX_COLLECTIVE {
            return Err(self.unsupported(
                n,
                format!(
                    "a collective `memcpy_async` of more than {MAX_COLLECTIVE} elements per thread"
                ),
            ));
        }
        let i64t = ScalarTy::I64;
        let wide = |e: Expr| Expr::Cast(i64t, Box::new(e));
        for k in 0..rounds {
            // Round k starts k * size elements in (a constant for tiles).
            let start = match fixed {
                Some(s) => Expr::int(i128::from(k * s), i64t),
                None => Expr::binary(
                    BinOp::Mul,
                    i64t,
                    Expr::int(k as i128, i64t),
                    wide(threads.clone()),
                ),
            };
            let e = match k {
                0 => wide(rank.clone()),
                _ => Expr::binary(BinOp::Add, i64t, wide(rank.clone()), start),
            };
            let always = fixed.is_some_and(|s| (k + 1) * s <= elems);
            let (body, ()) = self.block(|s| {
                for j in 0..layout.slots.len() {
                    let from = s.elem_slot_place(&src_ptr, e.clone(), &layout, j, n)?;
                    let v = s.read(&from, n)?;
                    let to = s.elem_slot_place(&dst_ptr, e.clone(), &layout, j, n)?;
                    s.write(&to, v, n)?;
                }
                Ok(())
            })?;
            if always {
                self.out.extend(body);
            } else {
                let cond = Expr::binary(BinOp::Lt, i64t, e.clone(), Expr::int(elems as i128, i64t));
                self.emit(
                    StmtKind::If {
                        cond,
                        then_: body,
                        else_: Vec::new(),
                    },
                    self.span(n),
                );
            }
        }
        Ok(())
    }
}
