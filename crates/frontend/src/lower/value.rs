//! Values (rvalues) and places (lvalues) of the lowering, and the two
//! operations that connect them: reading a place and writing a value.
//!
//! Invariant: memory is touched only here (loads and stores) and in the
//! atomic/builtin call lowering, so every access gets a statement and span.

use super::{Lowerer, R};
use crate::types::{common_type, CType, GroupKind};
use tree_sitter::Node;
use warpsafe_ir::{AccessKind, ArrayId, Expr, MemOrder, MemRef, ScalarTy, StmtKind, VarId};

/// A pointer into one array: `offset` counts scalar slots (type `i64`).
#[derive(Clone, Debug)]
pub struct Ptr {
    /// `None` for the null pointer (or when `choice` says where it points).
    pub target: Option<ArrayId>,
    /// A pointer whose array depends on the path taken: `base` holds the id
    /// of one of `arrays` (see `targets.rs`). When set, `target` is `None`.
    pub choice: Option<Choice>,
    pub offset: Expr,
    pub pointee: CType,
    pub volatile: bool,
    /// For a pointer read from memory the host filled: true when it is
    /// null (its slot holds 0). See `mem_pointer.rs`.
    pub null_if: Option<Expr>,
}

impl Ptr {
    /// The null pointer (no array, offset 0).
    pub fn is_null(&self) -> bool {
        self.target.is_none() && self.choice.is_none() && self.offset.as_const_int() == Some(0)
    }

    /// A pointer into an object (an array, or one of several): not null.
    pub fn points_somewhere(&self) -> bool {
        self.target.is_some() || self.choice.is_some()
    }

    /// Two pointers that cannot be equal: one null and one into an
    /// object, or into two distinct arrays (distinct parameters do not
    /// alias).
    pub fn points_apart(&self, q: &Ptr) -> bool {
        (self.is_null() && q.points_somewhere())
            || (q.is_null() && self.points_somewhere())
            || matches!((self.target, q.target), (Some(a), Some(b)) if a != b)
    }
}

/// Which of several arrays a pointer points into, decided at run time.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// A `u32` expression equal to the chosen array's id.
    pub base: Expr,
    pub arrays: Vec<ArrayId>,
}

#[derive(Clone, Debug)]
pub enum Value {
    Scalar(Expr, ScalarTy),
    Ptr(Ptr),
    /// A vector or struct value, one value per field.
    Agg(CType, Vec<Value>),
    Group(GroupKind),
    /// A `cuda::atomic_ref` (or a reference to a `cuda::atomic` object).
    AtomicRef(Place, ScalarTy, warpsafe_ir::Scope),
    /// A function pointer: a function id (`u32`, 0 = null).
    FnPtr(Expr),
    Void,
}

#[derive(Clone, Debug)]
pub enum Place {
    Var(VarId, ScalarTy),
    /// An object in memory starting at slot `index` of `array`.
    Mem {
        array: ArrayId,
        index: Expr,
        ty: CType,
        volatile: bool,
    },
    /// A local aggregate: one place per field.
    Agg(CType, Vec<Place>),
    /// A local pointer variable; its target is in `Lowerer::ptr_targets`.
    PtrVar {
        offset: VarId,
        pointee: CType,
        volatile: bool,
    },
    /// A local `cuda::atomic_ref` variable bound to a memory place.
    AtomicRef(Box<Place>, ScalarTy, warpsafe_ir::Scope),
    /// A function-pointer variable (holds a function id).
    FnVar(VarId),
    /// The same object in one of several arrays, chosen by `base` (an
    /// array id): every access becomes a choice among the arms.
    Choice {
        base: Expr,
        arms: Vec<(ArrayId, Place)>,
    },
    /// An object in memory declared with elements of another size.
    View(Box<super::view::View>),
}

impl Value {
    pub fn ty_desc(&self) -> String {
        match self {
            Value::Scalar(_, t) => crate::types::c_name(*t).to_string(),
            Value::Ptr(p) => format!("{}*", p.pointee.describe()),
            Value::Agg(t, _) => t.describe(),
            Value::Group(g) => CType::Group(*g).describe(),
            Value::AtomicRef(_, t, s) => CType::AtomicRef(*t, *s).describe(),
            Value::FnPtr(_) => "function pointer".into(),
            Value::Void => "void".into(),
        }
    }
}

pub fn i64_expr(e: Expr, from: ScalarTy) -> Expr {
    match e.as_const_int() {
        _ if from == ScalarTy::I64 => e,
        Some(v) if from != ScalarTy::Bool => Expr::int(v, ScalarTy::I64),
        _ => Expr::Cast(ScalarTy::I64, Box::new(e)),
    }
}

/// `a + b` on `i64` slot offsets, folding constants.
pub fn add_offset(a: Expr, b: Expr) -> Expr {
    match (a.as_const_int(), b.as_const_int()) {
        (Some(0), _) => b,
        (_, Some(0)) => a,
        (Some(x), Some(y)) => Expr::int(x + y, ScalarTy::I64),
        _ => Expr::binary(warpsafe_ir::BinOp::Add, ScalarTy::I64, a, b),
    }
}

/// `a * k` on `i64` slot offsets, folding constants.
pub fn mul_offset(a: Expr, k: u64) -> Expr {
    match a.as_const_int() {
        _ if k == 1 => a,
        Some(x) => Expr::int(x * k as i128, ScalarTy::I64),
        None => Expr::binary(
            warpsafe_ir::BinOp::Mul,
            ScalarTy::I64,
            a,
            Expr::int(k as i128, ScalarTy::I64),
        ),
    }
}

impl Lowerer<'_, '_> {
    /// Converts a scalar to `to` with an explicit cast when the type differs.
    pub fn convert(&self, e: Expr, from: ScalarTy, to: ScalarTy) -> Expr {
        if from == to {
            return e;
        }
        if to == ScalarTy::Bool {
            return self.truthy(e, from);
        }
        if let Expr::Const(warpsafe_ir::Const::Int(v), _) = e {
            if to.is_integer() {
                return Expr::int(wrap(v, to), to);
            }
            if to.is_float() {
                return Expr::Const(warpsafe_ir::Const::Float(v as f64), to);
            }
        }
        Expr::Cast(to, Box::new(e))
    }

    /// `e != 0` as a `Bool`.
    pub fn truthy(&self, e: Expr, ty: ScalarTy) -> Expr {
        if ty == ScalarTy::Bool {
            return e;
        }
        if let Some(v) = e.as_const_int() {
            return Expr::bool(v != 0);
        }
        let zero = if ty.is_float() {
            Expr::Const(warpsafe_ir::Const::Float(0.0), ty)
        } else {
            Expr::int(0, ty)
        };
        Expr::binary(warpsafe_ir::BinOp::Ne, ty, e, zero)
    }

    /// Converts a value to a scalar of type `to` (for assignments, arguments).
    pub fn coerce(&self, v: Value, to: ScalarTy, n: Node) -> R<Expr> {
        match v {
            Value::Scalar(e, t) => Ok(self.convert(e, t, to)),
            Value::FnPtr(e) => Ok(self.convert(e, ScalarTy::U32, to)),
            Value::Ptr(p)
                if p.target.is_none() && p.offset.as_const_int() == Some(0) && to.is_integer() =>
            {
                Ok(Expr::int(0, to))
            }
            Value::AtomicRef(..) => {
                Err(self.unsupported(n, "implicit conversion of an atomic reference"))
            }
            Value::Ptr(p) if to == ScalarTy::Bool && self.points_to_host_object(&p) => {
                match self.host_pointer_is_null(&p, false, n)? {
                    Value::Scalar(e, _) => Ok(e),
                    _ => unreachable!("host_pointer_is_null gives a bool"),
                }
            }
            Value::Ptr(p) if to == ScalarTy::Bool => {
                // `if (ptr)`: non-null is known at lowering time.
                Ok(Expr::bool(p.points_somewhere()))
            }
            other => Err(self.unsupported(
                n,
                format!(
                    "use of a `{}` as a `{}`",
                    other.ty_desc(),
                    crate::types::c_name(to)
                ),
            )),
        }
    }

    /// Reads a place: loads from memory, decays arrays to pointers.
    pub fn read(&mut self, p: &Place, n: Node) -> R<Value> {
        match p {
            Place::Var(v, t) => Ok(Value::Scalar(Expr::Var(*v), *t)),
            Place::FnVar(v) => Ok(Value::FnPtr(Expr::Var(*v))),
            Place::PtrVar {
                offset,
                pointee,
                volatile,
            } => {
                let (target, choice) = self.ptr_state(*offset);
                Ok(Value::Ptr(Ptr {
                    target,
                    choice,
                    offset: Expr::Var(*offset),
                    pointee: pointee.clone(),
                    volatile: *volatile,
                    null_if: None,
                }))
            }
            Place::Agg(ty, fields) => {
                let mut vals = Vec::new();
                for f in fields {
                    vals.push(self.read(f, n)?);
                }
                Ok(Value::Agg(ty.clone(), vals))
            }
            Place::AtomicRef(inner, t, s) => Ok(Value::AtomicRef((**inner).clone(), *t, *s)),
            Place::Choice { base, arms } => self.read_choice(base, arms, n),
            Place::View(v) => self.read_view(v, n),
            Place::Mem {
                array,
                index,
                ty,
                volatile,
            } => {
                match ty {
                    CType::Scalar(_) | CType::Atomic(..) | CType::FnPtr => {
                        let (t, access) = slot_access(ty, *volatile)
                            .expect("invariant: one-slot types have a slot access");
                        let dst = self.temp(t, self.span(n));
                        let mem = MemRef {
                            array: *array,
                            index: index.clone(),
                            ty: t,
                        };
                        self.emit(StmtKind::Load { dst, mem, access }, self.span(n));
                        Ok(match ty {
                            CType::FnPtr => Value::FnPtr(Expr::Var(dst)),
                            _ => Value::Scalar(Expr::Var(dst), t),
                        })
                    }
                    CType::Pointer(pointee) => {
                        self.read_mem_pointer(*array, index, pointee, *volatile, n)
                    }
                    CType::Array(elem, _) => Ok(Value::Ptr(Ptr {
                        target: Some(*array),
                        choice: None,
                        offset: index.clone(),
                        pointee: (**elem).clone(),
                        volatile: *volatile,
                        null_if: None,
                    })),
                    CType::Vector(..) | CType::Struct(_) => {
                        let fields = self.mem_fields(*array, index, ty, *volatile, n)?;
                        let mut vals = Vec::new();
                        for f in &fields {
                            vals.push(self.read(f, n)?);
                        }
                        Ok(Value::Agg(ty.clone(), vals))
                    }
                    other => Err(self
                        .unsupported(n, format!("reading a `{}` from memory", other.describe()))),
                }
            }
        }
    }

    /// The places of the fields of an aggregate in memory.
    pub fn mem_fields(
        &self,
        array: ArrayId,
        index: &Expr,
        ty: &CType,
        volatile: bool,
        n: Node,
    ) -> R<Vec<Place>> {
        let fields = self
            .items
            .types
            .fields(ty)
            .ok_or_else(|| self.unsupported(n, format!("fields of `{}`", ty.describe())))?;
        Ok(fields
            .into_iter()
            .map(|(_, fty, off)| Place::Mem {
                array,
                index: add_offset(index.clone(), Expr::int(off as i128, ScalarTy::I64)),
                ty: fty,
                volatile,
            })
            .collect())
    }

    /// Writes a value to a place (assignment, initialisation, argument binding).
    pub fn write(&mut self, p: &Place, v: Value, n: Node) -> R<()> {
        let span = self.span(n);
        let memory = match p {
            Place::Mem { array, .. } => Some(*array),
            Place::View(view) => Some(view.array),
            _ => None,
        };
        if let Some(array) = memory {
            if self.kernel.array(array).space == warpsafe_ir::MemSpace::Constant
                && !self.constant_write_reported(n)
            {
                self.constant_write(array, n);
            }
        }
        match p {
            Place::Var(var, t) => {
                let value = self.coerce(v, *t, n)?;
                self.emit(StmtKind::Assign { dst: *var, value }, span);
                Ok(())
            }
            Place::FnVar(var) => {
                let value = self.coerce(v, ScalarTy::U32, n)?;
                self.emit(StmtKind::Assign { dst: *var, value }, span);
                Ok(())
            }
            Place::PtrVar {
                offset, pointee, ..
            } => {
                match v {
                    Value::Ptr(ptr) => {
                        // The offset variable counts in the unit of its own
                        // pointee (`void *p = (char *)q + 1`).
                        let ptr = if ptr.pointee != *pointee {
                            self.cast_ptr(ptr, pointee.clone(), n)?
                        } else {
                            ptr
                        };
                        // Targets are flow-sensitive: the assignment decides
                        // what the pointer points into from here on; where
                        // paths meet, `merge_targets` checks they agree.
                        self.assign_target(*offset, &ptr, span);
                        self.emit(
                            StmtKind::Assign {
                                dst: *offset,
                                value: ptr.offset,
                            },
                            span,
                        );
                        Ok(())
                    }
                    Value::Scalar(e, _) if e.as_const_int() == Some(0) => {
                        // Null: the target stays as it was; the offset is reset.
                        self.emit(
                            StmtKind::Assign {
                                dst: *offset,
                                value: Expr::int(0, ScalarTy::I64),
                            },
                            span,
                        );
                        Ok(())
                    }
                    other => Err(self
                        .unsupported(n, format!("assigning a `{}` to a pointer", other.ty_desc()))),
                }
            }
            Place::Agg(t, fields) => {
                let is_dim3 = matches!(t, CType::Vector(_, 3, name) if name == "dim3");
                let vals = self.agg_values(v, fields.len(), is_dim3, n)?;
                for (f, val) in fields.iter().zip(vals) {
                    self.write(f, val, n)?;
                }
                Ok(())
            }
            Place::AtomicRef(..) => Err(self.unsupported(n, "rebinding an atomic reference")),
            Place::Choice { base, arms } => {
                self.on_each_arm(base, arms, n, |s, arm| s.write(arm, v.clone(), n))
            }
            Place::View(view) => self.write_view(view, v, n),
            Place::Mem {
                array,
                index,
                ty,
                volatile,
            } => match ty {
                CType::Scalar(_) | CType::Atomic(..) | CType::FnPtr => {
                    let (t, access) = slot_access(ty, *volatile)
                        .expect("invariant: one-slot types have a slot access");
                    let value = self.coerce(v, t, n)?;
                    let mem = MemRef {
                        array: *array,
                        index: index.clone(),
                        ty: t,
                    };
                    self.emit(StmtKind::Store { mem, value, access }, span);
                    Ok(())
                }
                CType::Vector(..) | CType::Struct(_) => {
                    let fields = self.mem_fields(*array, index, ty, *volatile, n)?;
                    let is_dim3 = matches!(ty, CType::Vector(_, 3, name) if name == "dim3");
                    let vals = self.agg_values(v, fields.len(), is_dim3, n)?;
                    for (f, val) in fields.iter().zip(vals) {
                        self.write(f, val, n)?;
                    }
                    Ok(())
                }
                CType::Pointer(_) => self.write_mem_pointer(*array, index, v, n),
                other => {
                    Err(self.unsupported(n, format!("storing a `{}` to memory", other.describe())))
                }
            },
        }
    }

    /// Device code writing `__constant__` memory is a bug: an assertion
    /// failure at the write (the write itself follows, unreachable).
    fn constant_write(&mut self, array: ArrayId, n: Node) {
        let span = self.span(n);
        let message = format!(
            "write to `__constant__` memory `{}`",
            self.kernel.array(array).name
        );
        self.emit(
            StmtKind::Assert {
                cond: Expr::bool(false),
                message,
            },
            span,
        );
        self.emit(
            StmtKind::Assume {
                cond: Expr::bool(false),
                origin: warpsafe_ir::AssumeOrigin::Assume,
            },
            span,
        );
        self.constant_writes.insert(n.id());
    }

    fn constant_write_reported(&self, n: Node) -> bool {
        self.constant_writes.contains(&n.id())
    }

    /// The field values of an aggregate value (a scalar broadcasts, as in
    /// `float4 v = {0}` style zero-initialisation).
    pub(super) fn agg_values(
        &self,
        v: Value,
        count: usize,
        is_dim3: bool,
        n: Node,
    ) -> R<Vec<Value>> {
        match v {
            Value::Agg(_, vals) if vals.len() == count => Ok(vals),
            Value::Agg(t, vals) => Err(self.unsupported(
                n,
                format!(
                    "assigning a `{}` with {} fields to one with {}",
                    t.describe(),
                    vals.len(),
                    count
                ),
            )),
            // `dim3 d = n;`: dim3's constructor makes it (n, 1, 1).
            Value::Scalar(e, t) if is_dim3 && count == 3 => {
                let one = Value::Scalar(Expr::int(1, ScalarTy::U32), ScalarTy::U32);
                Ok(vec![Value::Scalar(e, t), one.clone(), one])
            }
            // A scalar never initialises every field of a struct in C++ (a
            // converting constructor or brace elision does something else).
            Value::Scalar(_, t) => Err(self.unsupported(
                n,
                format!(
                    "initialising or assigning an aggregate from a `{}` (a converting constructor or brace elision)",
                    crate::types::c_name(t)
                ),
            )),
            other => Err(self.unsupported(
                n,
                format!("assigning a `{}` to an aggregate", other.ty_desc()),
            )),
        }
    }

    /// A scalar rvalue of a value, or an error naming what it is.
    pub fn scalar_of(&self, v: Value, n: Node) -> R<(Expr, ScalarTy)> {
        match v {
            Value::Scalar(e, t) => Ok((e, t)),
            Value::FnPtr(e) => Ok((e, ScalarTy::U32)),
            other => Err(self.unsupported(
                n,
                format!("a `{}` where a number is expected", other.ty_desc()),
            )),
        }
    }

    /// Brings two scalars to their common type.
    pub fn unify(&self, a: (Expr, ScalarTy), b: (Expr, ScalarTy)) -> (Expr, Expr, ScalarTy) {
        let t = common_type(a.1, b.1);
        (self.convert(a.0, a.1, t), self.convert(b.0, b.1, t), t)
    }

    /// The operands of `c ? a : b`: of their type when they agree (no
    /// promotion, [expr.cond]/4-7), else converted to their common type.
    pub fn unify_conditional(
        &self,
        a: (Expr, ScalarTy),
        b: (Expr, ScalarTy),
    ) -> (Expr, Expr, ScalarTy) {
        if a.1 == b.1 {
            return (a.0, b.0, a.1);
        }
        self.unify(a, b)
    }
}

/// The slot type and access kind of a one-slot object in memory: plain or
/// volatile scalars and function pointers, and `cuda::atomic<T>` objects,
/// whose plain reads and writes are `seq_cst` atomics.
fn slot_access(ty: &CType, volatile: bool) -> Option<(ScalarTy, AccessKind)> {
    let plain = if volatile {
        AccessKind::Volatile
    } else {
        AccessKind::Plain
    };
    match ty {
        CType::Scalar(t) => Some((*t, plain)),
        CType::FnPtr => Some((ScalarTy::U32, plain)),
        CType::Atomic(t, scope) => Some((
            *t,
            AccessKind::Atomic {
                order: MemOrder::SeqCst,
                scope: *scope,
            },
        )),
        _ => None,
    }
}

/// Wraps an integer constant to the range of `ty`.
pub use crate::consteval::wrap;
