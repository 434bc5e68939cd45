//! Statement semantics: what executing one IR statement does to a thread.
//!
//! Pure statements (assignments, `assume`, `assert`, `printf`, local
//! memory, control flow) change only the thread; statements on shared
//! memory, barriers, fences and havocs become [`Event`]s for the driver
//! (seed 000 §3: the read, write, RMW and fence events of an execution).
//! Operands are evaluated at the statement's span, so every fault points at
//! it; values written to memory or variables are converted to the slot's or
//! variable's type as C's assignment does.

use super::{Thread, ThreadEnv, Update, Wait};
use crate::control::LoopStmt;
use crate::eval::cast;
use crate::event::{Awaiting, Barrier, Event, EventKind, Location, Step};
use crate::fault::{Fault, FaultKind};
use crate::rmw::{apply_rmw, cas_result};
use crate::value::Value;
use warpsafe_ir::{
    Array, BarrierKind, Expr, Kernel, MemRef, MemSpace, ScalarTy, Stmt, StmtKind, VarId,
};

impl<'k> Thread<'k> {
    pub(super) fn fault(&self, kind: FaultKind) -> Fault {
        Fault::new(kind, self.span)
    }

    pub(super) fn eval(&mut self, e: &'k Expr) -> Result<Value, Fault> {
        let env = ThreadEnv {
            kernel: self.kernel,
            vars: &self.vars,
            ctx: &self.ctx,
            options: self.config.eval,
        };
        self.evaluator
            .eval(e, &env)
            .map_err(|k| Fault::new(k, self.span))
    }

    /// `e` evaluated and converted to `ty` (C's implicit conversion).
    fn eval_as(&mut self, e: &'k Expr, ty: ScalarTy) -> Result<Value, Fault> {
        let v = self.eval(e)?;
        cast(v, ty, self.config.eval).map_err(|k| self.fault(k))
    }

    /// Assigns `value` to `dst`, converted to its type.
    pub(super) fn set(&mut self, dst: VarId, value: Value) -> Result<(), Fault> {
        let Some(var) = self.kernel.vars.get(dst.0 as usize) else {
            return Err(self.fault(FaultKind::UnknownVar(dst)));
        };
        let v = cast(value, var.ty, self.config.eval).map_err(|k| self.fault(k))?;
        self.vars[dst.0 as usize] = Some(v);
        Ok(())
    }

    fn wait_for(&mut self, awaiting: Awaiting, dst: Option<VarId>) {
        self.wait = Some(Wait {
            awaiting,
            dst,
            update: None,
        });
    }

    /// Stops at an event, counting it for spin-assume (an update counts as
    /// a read until it turns out to have changed memory).
    fn event(&mut self, kind: EventKind) -> Option<Step> {
        let update = match &kind {
            EventKind::Rmw { op, operand, .. } => Some(Update::Rmw {
                op: *op,
                operand: *operand,
            }),
            EventKind::Cas {
                expected, desired, ..
            } => Some(Update::Cas {
                expected: *expected,
                desired: *desired,
            }),
            _ => None,
        };
        match &kind {
            EventKind::Load { loc, .. } => self.count_read(*loc),
            EventKind::Rmw { loc, .. } | EventKind::Cas { loc, .. } => {
                self.count_read(*loc);
                if let Some(w) = self.wait.as_mut() {
                    w.update = update;
                }
            }
            _ => self.counts.effects += 1,
        }
        Some(Step::Event(Event {
            kind,
            span: self.span,
            site: self.site,
        }))
    }

    /// Counts a read of `loc` for spin-assume, noting it when its array
    /// is not quiet ([`crate::spin`]).
    fn count_read(&mut self, loc: Location) {
        self.counts.reads += 1;
        if !self.quiet.contains(loc.array) {
            self.counts.loud_read = self.counts.reads;
        }
    }

    /// The array and bounds-checked slot index `mem` designates.
    fn address(&mut self, mem: &'k MemRef) -> Result<(&'k Array, Option<u64>, u64), Fault> {
        let kernel: &'k Kernel = self.kernel;
        let Some(array) = kernel.arrays.get(mem.array.0 as usize) else {
            return Err(self.fault(FaultKind::UnknownArray(mem.array)));
        };
        let index = self.eval(&mem.index)?;
        let Some(index) = index.as_int() else {
            return Err(self.fault(FaultKind::IllTyped(format!(
                "index of type {} into `{}`",
                index.ty(),
                array.name
            ))));
        };
        if index < 0 {
            return Err(self.fault(FaultKind::NegativeIndex {
                array: array.id,
                index,
            }));
        }
        let index = index as u64; // At most u64::MAX: values are ≤ 64 bits.
        let len = self.ctx.launch.array_len(array);
        if let Some(len) = len {
            if index >= len {
                return Err(self.fault(FaultKind::OutOfBounds {
                    array: array.id,
                    index,
                    len,
                }));
            }
        }
        Ok((array, len, index))
    }

    fn local_load(
        &mut self,
        array: &Array,
        len: Option<u64>,
        index: u64,
        ty: ScalarTy,
    ) -> Result<Value, Fault> {
        self.locals
            .load(array, len, index, ty)
            .map_err(|k| Fault::new(k, self.span))
    }

    fn local_store(
        &mut self,
        array: &Array,
        len: Option<u64>,
        index: u64,
        value: Value,
    ) -> Result<(), Fault> {
        self.locals
            .store(array, len, index, value)
            .map_err(|k| Fault::new(k, self.span))
    }

    /// Executes one statement; `Some` when the thread stops.
    pub(super) fn exec(&mut self, stmt: &'k Stmt) -> Result<Option<Step>, Fault> {
        match &stmt.kind {
            StmtKind::Assign { dst, value } => {
                let v = self.eval(value)?;
                self.set(*dst, v)?;
            }
            StmtKind::Havoc { dst, reason } => {
                let Some(var) = self.kernel.vars.get(dst.0 as usize) else {
                    return Err(self.fault(FaultKind::UnknownVar(*dst)));
                };
                let ty = var.ty;
                self.wait_for(Awaiting::Havoc { ty }, Some(*dst));
                return Ok(self.event(EventKind::Havoc {
                    var: *dst,
                    ty,
                    reason: reason.clone(),
                }));
            }
            StmtKind::Load { dst, mem, access } => {
                let (array, len, index) = self.address(mem)?;
                if array.space == MemSpace::Local {
                    let v = self.local_load(array, len, index, mem.ty)?;
                    self.set(*dst, v)?;
                } else {
                    self.wait_for(Awaiting::Load { ty: mem.ty }, Some(*dst));
                    return Ok(self.event(EventKind::Load {
                        loc: Location {
                            array: array.id,
                            index,
                        },
                        ty: mem.ty,
                        access: *access,
                    }));
                }
            }
            StmtKind::Store { mem, value, access } => {
                let (array, len, index) = self.address(mem)?;
                let value = self.eval_as(value, mem.ty)?;
                if array.space == MemSpace::Local {
                    self.local_store(array, len, index, value)?;
                } else {
                    return Ok(self.event(EventKind::Store {
                        loc: Location {
                            array: array.id,
                            index,
                        },
                        value,
                        access: *access,
                    }));
                }
            }
            StmtKind::Rmw {
                dst,
                op,
                mem,
                operand,
                order,
                scope,
            } => {
                let (array, len, index) = self.address(mem)?;
                let operand = self.eval_as(operand, mem.ty)?;
                if array.space == MemSpace::Local {
                    let old = self.local_load(array, len, index, mem.ty)?;
                    let new = apply_rmw(*op, old, operand).map_err(|k| self.fault(k))?;
                    self.local_store(array, len, index, new)?;
                    if let Some(dst) = dst {
                        self.set(*dst, old)?;
                    }
                } else {
                    self.wait_for(Awaiting::Rmw { ty: mem.ty }, *dst);
                    return Ok(self.event(EventKind::Rmw {
                        loc: Location {
                            array: array.id,
                            index,
                        },
                        op: *op,
                        operand,
                        order: *order,
                        scope: *scope,
                    }));
                }
            }
            StmtKind::Cas {
                dst,
                mem,
                expected,
                desired,
                order,
                failure_order,
                scope,
            } => {
                let (array, len, index) = self.address(mem)?;
                let expected = self.eval_as(expected, mem.ty)?;
                let desired = self.eval_as(desired, mem.ty)?;
                if array.space == MemSpace::Local {
                    let old = self.local_load(array, len, index, mem.ty)?;
                    let new = cas_result(old, expected, desired);
                    self.local_store(array, len, index, new)?;
                    if let Some(dst) = dst {
                        self.set(*dst, old)?;
                    }
                } else {
                    self.wait_for(Awaiting::Cas { ty: mem.ty }, *dst);
                    return Ok(self.event(EventKind::Cas {
                        loc: Location {
                            array: array.id,
                            index,
                        },
                        expected,
                        desired,
                        order: *order,
                        failure_order: *failure_order,
                        scope: *scope,
                    }));
                }
            }
            StmtKind::Barrier { kind, reduce } => {
                let barrier = match kind {
                    BarrierKind::Block => Barrier::Block,
                    BarrierKind::Warp { mask } => {
                        let m = self.eval_as(mask, ScalarTy::U32)?;
                        Barrier::Warp {
                            mask: m.to_bits() as u32,
                        }
                    }
                    BarrierKind::Tile { size } => Barrier::Tile { size: *size },
                    BarrierKind::Grid => Barrier::Grid,
                };
                let reduce = match reduce {
                    Some((op, pred, dst)) => {
                        let p = self.eval(pred)?.is_true();
                        self.wait_for(Awaiting::BarrierReduction, Some(*dst));
                        Some((*op, p))
                    }
                    None => None,
                };
                let iterations = self.control.iterations();
                return Ok(self.event(EventKind::Barrier {
                    barrier,
                    reduce,
                    iterations,
                }));
            }
            StmtKind::Fence { order, scope } => {
                return Ok(self.event(EventKind::Fence {
                    order: *order,
                    scope: *scope,
                }));
            }
            StmtKind::Assert { cond, message } => {
                if !self.eval(cond)?.is_true() {
                    return Ok(Some(Step::AssertionFailed {
                        message: message.clone(),
                        span: stmt.span,
                    }));
                }
            }
            StmtKind::Assume { cond, .. } => {
                if !self.eval(cond)?.is_true() {
                    return Ok(Some(Step::Infeasible { span: stmt.span }));
                }
            }
            StmtKind::Print { args, .. } => {
                for a in args {
                    self.eval(a)?;
                }
            }
            StmtKind::If { cond, then_, else_ } => {
                let branch = if self.eval(cond)?.is_true() {
                    then_
                } else {
                    else_
                };
                self.control.enter_block(branch);
            }
            StmtKind::Loop {
                id,
                kind,
                header,
                cond,
                check,
                body,
                step,
            } => self.control.enter_loop(LoopStmt {
                id: *id,
                kind: *kind,
                check: *check,
                header,
                cond,
                body,
                step,
                span: stmt.span,
            }),
            StmtKind::Break(id) => {
                if self.control.break_(*id).is_err() {
                    return Err(self.fault(FaultKind::BadJump(*id)));
                }
            }
            StmtKind::Continue(id) => {
                if self.control.continue_(*id).is_err() {
                    return Err(self.fault(FaultKind::BadJump(*id)));
                }
            }
            StmtKind::Return => self.control.clear(),
        }
        Ok(None)
    }
}
