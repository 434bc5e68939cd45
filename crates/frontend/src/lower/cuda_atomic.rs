//! `cuda::atomic`, `cuda::atomic_ref` and `cuda::std::atomic`: methods,
//! operators, and the read-modify-write and compare-and-swap statements
//! shared with the `atomic*` built-ins.
//!
//! Invariant: the memory order and scope of every access are explicit in
//! the IR (defaults: `seq_cst`, and the scope of the atomic's type).

use super::value::{Place, Value};
use super::{Lowerer, R};
use crate::types::CType;
use tree_sitter::Node;
use warpsafe_ir::{AccessKind, Expr, MemOrder, MemRef, RmwOp, ScalarTy, Scope, StmtKind};

impl<'t> Lowerer<'_, 't> {
    /// The memory slot of an atomic target and its element type.
    fn atomic_slot(&self, place: &Place, n: Node) -> R<(MemRef, ScalarTy)> {
        match place {
            Place::Mem {
                array,
                index,
                ty: CType::Scalar(t) | CType::Atomic(t, _),
                ..
            } => Ok((
                MemRef {
                    array: *array,
                    index: index.clone(),
                    ty: *t,
                },
                *t,
            )),
            Place::Mem { ty, .. } => {
                Err(self.unsupported(n, format!("atomic operations on `{}`", ty.describe())))
            }
            Place::Choice { .. } => {
                Err(self.unsupported(n, "atomic operations through a pointer into several arrays"))
            }
            Place::View(v) => Err(self.unsupported(
                n,
                format!(
                    "atomic operations on a `{}` in memory of another element size",
                    v.ty.describe()
                ),
            )),
            _ => Err(self.unsupported(n, "atomic operations on a variable that is not in memory")),
        }
    }

    pub fn rmw(
        &mut self,
        place: &Place,
        op: RmwOp,
        v: Value,
        order: MemOrder,
        scope: Scope,
        n: Node,
    ) -> R<Value> {
        let (mem, t) = self.atomic_slot(place, n)?;
        let operand = self.coerce(v, t, n)?;
        let span = self.span(n);
        let dst = self.temp(t, span);
        self.emit(
            StmtKind::Rmw {
                dst: Some(dst),
                op,
                mem,
                operand,
                order,
                scope,
            },
            span,
        );
        Ok(Value::Scalar(Expr::Var(dst), t))
    }

    #[allow(clippy::too_many_arguments)]
    pub fn cas(
        &mut self,
        place: &Place,
        expected: Value,
        desired: Value,
        order: MemOrder,
        failure_order: MemOrder,
        scope: Scope,
        n: Node,
    ) -> R<Value> {
        let (mem, t) = self.atomic_slot(place, n)?;
        let expected = self.coerce(expected, t, n)?;
        let desired = self.coerce(desired, t, n)?;
        let span = self.span(n);
        let dst = self.temp(t, span);
        self.emit(
            StmtKind::Cas {
                dst: Some(dst),
                mem,
                expected,
                desired,
                order,
                failure_order,
                scope,
            },
            span,
        );
        Ok(Value::Scalar(Expr::Var(dst), t))
    }

    fn order_arg(&self, args: &[Node], i: usize) -> R<MemOrder> {
        match args.get(i) {
            Some(a) => self.memory_order(*a),
            None => Ok(MemOrder::SeqCst),
        }
    }

    /// `r.load()`, `r.store(v)`, `r.fetch_add(v, order)`, ...
    pub fn atomic_method(
        &mut self,
        target: Place,
        t: ScalarTy,
        scope: Scope,
        method: &str,
        args: &[Node<'t>],
        n: Node<'t>,
    ) -> R<Value> {
        let span = self.span(n);
        let arg = |i: usize| {
            args.get(i).copied().ok_or_else(|| {
                warpsafe_source::Diagnostic::error(
                    "unsupported",
                    format!("`{method}` needs argument {}", i + 1),
                )
                .at(span)
            })
        };
        let rmw_op = match method {
            "exchange" => Some(RmwOp::Exch),
            "fetch_add" => Some(RmwOp::Add),
            "fetch_sub" => Some(RmwOp::Sub),
            "fetch_and" => Some(RmwOp::And),
            "fetch_or" => Some(RmwOp::Or),
            "fetch_xor" => Some(RmwOp::Xor),
            "fetch_min" => Some(RmwOp::Min),
            "fetch_max" => Some(RmwOp::Max),
            _ => None,
        };
        if let Some(op) = rmw_op {
            let v = self.value(arg(0)?)?;
            let order = self.order_arg(args, 1)?;
            return self.rmw(&target, op, v, order, scope, n);
        }
        match method {
            "load" => {
                let order = self.order_arg(args, 0)?;
                let (mem, _) = self.atomic_slot(&target, n)?;
                let dst = self.temp(t, span);
                self.emit(
                    StmtKind::Load {
                        dst,
                        mem,
                        access: AccessKind::Atomic { order, scope },
                    },
                    span,
                );
                Ok(Value::Scalar(Expr::Var(dst), t))
            }
            "store" => {
                let v = self.value(arg(0)?)?;
                let value = self.coerce(v, t, n)?;
                let order = self.order_arg(args, 1)?;
                let (mem, _) = self.atomic_slot(&target, n)?;
                self.emit(
                    StmtKind::Store {
                        mem,
                        value,
                        access: AccessKind::Atomic { order, scope },
                    },
                    span,
                );
                Ok(Value::Void)
            }
            "compare_exchange_strong" | "compare_exchange_weak" => {
                if method.ends_with("weak") {
                    self.warn(n, "compare_exchange_weak is modelled as compare_exchange_strong (no spurious failures)");
                }
                let exp_place = self.place(arg(0)?)?;
                let expected = self.read(&exp_place, n)?;
                let desired = self.value(arg(1)?)?;
                let order = self.order_arg(args, 2)?;
                let failure = match args.get(3) {
                    Some(a) => self.memory_order(*a)?,
                    None => match order {
                        MemOrder::AcqRel => MemOrder::Acquire,
                        MemOrder::Release => MemOrder::Relaxed,
                        o => o,
                    },
                };
                let exp_expr = self.coerce(expected.clone(), t, n)?;
                let old = self.cas(&target, expected, desired, order, failure, scope, n)?;
                let (old_e, _) = self.scalar_of(old.clone(), n)?;
                let ok = Expr::binary(warpsafe_ir::BinOp::Eq, t, old_e, exp_expr);
                let okv = self.temp(ScalarTy::Bool, span);
                self.emit(
                    StmtKind::Assign {
                        dst: okv,
                        value: ok,
                    },
                    span,
                );
                // On failure, `expected` receives the current value.
                let (upd, ()) = self.block(|s| s.write(&exp_place, old, n))?;
                self.emit(
                    StmtKind::If {
                        cond: Expr::negate(Expr::Var(okv)),
                        then_: upd,
                        else_: Vec::new(),
                    },
                    span,
                );
                Ok(Value::Scalar(Expr::Var(okv), ScalarTy::Bool))
            }
            "is_lock_free" => Ok(Value::Scalar(Expr::bool(true), ScalarTy::Bool)),
            _ => Err(self.unsupported(n, format!("atomic method `{method}`"))),
        }
    }

    /// `a = v`, `a += v`, ... on a `cuda::atomic` object or reference.
    pub fn atomic_object_assign(
        &mut self,
        target: &Place,
        t: ScalarTy,
        scope: Scope,
        op: &str,
        r: Node<'t>,
        n: Node<'t>,
    ) -> R<Value> {
        let v = self.value(r)?;
        if op == "=" {
            let value = self.coerce(v.clone(), t, n)?;
            let (mem, _) = self.atomic_slot(target, n)?;
            let access = AccessKind::Atomic {
                order: MemOrder::SeqCst,
                scope,
            };
            self.emit(StmtKind::Store { mem, value, access }, self.span(n));
            return Ok(v);
        }
        let (rop, sym) = match op {
            "+=" => (RmwOp::Add, "+"),
            "-=" => (RmwOp::Sub, "-"),
            "&=" => (RmwOp::And, "&"),
            "|=" => (RmwOp::Or, "|"),
            "^=" => (RmwOp::Xor, "^"),
            _ => return Err(self.unsupported(n, format!("operator `{op}` on an atomic"))),
        };
        let old = self.rmw(target, rop, v.clone(), MemOrder::SeqCst, scope, n)?;
        self.binop(sym, old, v, n)
    }

    /// `++a`, `a--` on an atomic.
    pub fn atomic_object_update(
        &mut self,
        target: &Place,
        t: ScalarTy,
        scope: Scope,
        delta: &str,
        prefix: bool,
        n: Node<'t>,
    ) -> R<Value> {
        let one = Value::Scalar(Expr::int(1, t), t);
        let op = if delta == "+" { RmwOp::Add } else { RmwOp::Sub };
        let old = self.rmw(target, op, one.clone(), MemOrder::SeqCst, scope, n)?;
        if prefix {
            self.binop(delta, old, one, n)
        } else {
            Ok(old)
        }
    }
}
