//! Pointers stored in memory: `float3 *v[3]` (a local array of pointers),
//! `struct Line { float2 *pos; }` in a parameter array, `T **p` and
//! `cudaSurfaceObject_t *` parameters.
//!
//! A pointer slot holds one `u64`. What a pointer read from it points to
//! depends on who wrote it:
//! - **Memory the kernel fills** (local and `__shared__` arrays): every
//!   pointer the kernel stores there points into one array, recorded at the
//!   first store; the slot holds the offset. A read gives a pointer into
//!   that array at the offset read. Storing a null pointer, a pointer into
//!   another array, or reading before any store is refused by name.
//! - **Memory the host fills** (parameters, `__device__` and `__constant__`
//!   variables): the host's pointers are not known. The pointer in slot
//!   `k` of holder array `h` is taken to point to the start of its own
//!   object, which starts at slot `k * 2^48` of an array of origin
//!   `Pointee` named `*h[]` (one per holder and pointee type). So pointers
//!   in distinct slots point to distinct objects and no parameter array is
//!   one of them: an assumption about the host, stated once
//!   per kernel and in README (not sound when the host stores one pointer
//!   twice, or a pointer into another array). The kernel cannot store a
//!   pointer there (refused; `device_launch.rs`'s device-side `cudaMalloc`
//!   writes a slot, keeping its object). Whether such a pointer is null is
//!   its slot's value (0 is null) where it is read from the slot; a null
//!   test of one kept in a variable is refused rather than answered from
//!   the assumption.
//!
//! Invariants: the slot is read (a `Load` of the `u64`) wherever the
//! pointer is read, so the race check sees the pointer's own accesses;
//! objects stay `2^48` slots apart, beyond any 32-bit index and any 1-D or
//! 2-D surface offset (a 3-D surface offset reaches 2^58: such objects may
//! seem to overlap, which can only add races, never hide one).

use super::value::{Ptr, Value};
use super::{Lowerer, R};
use crate::types::CType;
use tree_sitter::Node;
use warpsafe_ir::{
    AccessKind, ArrayId, ArrayOrigin, BinOp, Expr, MemRef, MemSpace, ScalarTy, StmtKind,
    POINTEE_STRIDE,
};

/// The assumption every kernel reading a pointer from host memory states.
const HOST_POINTERS: &str = "pointers read from memory the host filled are taken to point to the start of distinct objects, one per slot, that no other array of the kernel covers (not sound when the host stores one pointer twice or a pointer into a parameter array)";

/// Why a pointer read from host memory is not compared with null.
const NULL_HOST_POINTER: &str = "comparing with null a pointer read from memory the host filled and then kept in a variable or moved: warpsafe knows whether such a pointer is null only where it is read";

/// Whether the host gives the contents of memory of this origin.
fn host_filled(origin: ArrayOrigin) -> bool {
    matches!(
        origin,
        ArrayOrigin::Param
            | ArrayOrigin::DeviceGlobal
            | ArrayOrigin::Constant
            | ArrayOrigin::Pointee
    )
}

impl<'t> Lowerer<'_, 't> {
    /// Reads the pointer in slot `index` of `holder` (see the module
    /// comment).
    pub(super) fn read_mem_pointer(
        &mut self,
        holder: ArrayId,
        index: &Expr,
        pointee: &CType,
        volatile: bool,
        n: Node,
    ) -> R<Value> {
        let span = self.span(n);
        let dst = self.temp(ScalarTy::U64, span);
        let mem = MemRef {
            array: holder,
            index: index.clone(),
            ty: ScalarTy::U64,
        };
        // `volatile int *a[4]` declares the pointees volatile, as for a
        // pointer variable; the slots are plain.
        let access = AccessKind::Plain;
        self.emit(StmtKind::Load { dst, mem, access }, span);
        let (target, offset, null_if) = if host_filled(self.kernel.array(holder).origin) {
            self.warn_once(n, HOST_POINTERS);
            let target = self.pointee_array(holder, pointee, n)?;
            let offset = Expr::binary(
                BinOp::Mul,
                ScalarTy::I64,
                index.clone(),
                Expr::int(POINTEE_STRIDE, ScalarTy::I64),
            );
            let null = Expr::binary(
                BinOp::Eq,
                ScalarTy::U64,
                Expr::Var(dst),
                Expr::int(0, ScalarTy::U64),
            );
            (target, offset, Some(null))
        } else {
            let Some(target) = self.mem_ptr_targets.get(&holder).copied() else {
                return Err(self.unsupported(
                    n,
                    format!(
                        "reading a pointer from `{}` before the kernel stores one there",
                        self.kernel.array(holder).name
                    ),
                ));
            };
            let offset = self.convert(Expr::Var(dst), ScalarTy::U64, ScalarTy::I64);
            (target, offset, None)
        };
        Ok(Value::Ptr(Ptr {
            target: Some(target),
            choice: None,
            offset,
            pointee: pointee.clone(),
            volatile,
            null_if,
        }))
    }

    /// Stores pointer `v` in slot `index` of `holder` (see the module
    /// comment).
    pub(super) fn write_mem_pointer(
        &mut self,
        holder: ArrayId,
        index: &Expr,
        v: Value,
        n: Node,
    ) -> R<()> {
        let name = self.kernel.array(holder).name.clone();
        if host_filled(self.kernel.array(holder).origin) {
            return Err(self.unsupported(
                n,
                format!("storing a pointer into `{name}`, memory the host fills: warpsafe models the host's pointers there as one distinct object per slot"),
            ));
        }
        let null = || {
            format!(
                "storing a null pointer, or one whose array depends on the path taken, in `{name}`"
            )
        };
        let p = match v {
            Value::Ptr(p) => p,
            Value::Scalar(e, _) if e.as_const_int() == Some(0) => {
                return Err(self.unsupported(n, null()))
            }
            other => {
                return Err(self.unsupported(
                    n,
                    format!(
                        "storing a `{}` where `{name}` holds pointers",
                        other.ty_desc()
                    ),
                ))
            }
        };
        let Some(target) = p.target.filter(|_| p.choice.is_none()) else {
            return Err(self.unsupported(n, null()));
        };
        match self.mem_ptr_targets.get(&holder) {
            Some(t) if *t != target => {
                return Err(self.unsupported(
                    n,
                    format!(
                        "pointers into two arrays (`{}` and `{}`) stored in `{name}`",
                        self.kernel.array(*t).name,
                        self.kernel.array(target).name
                    ),
                ))
            }
            Some(_) => {}
            None => {
                self.mem_ptr_targets.insert(holder, target);
            }
        }
        let value = self.convert(p.offset, ScalarTy::I64, ScalarTy::U64);
        let mem = MemRef {
            array: holder,
            index: index.clone(),
            ty: ScalarTy::U64,
        };
        let access = AccessKind::Plain;
        let span = self.span(n);
        self.emit(StmtKind::Store { mem, value, access }, span);
        Ok(())
    }

    /// The array of the objects the host's pointers in `holder` point to,
    /// made at first use.
    fn pointee_array(&mut self, holder: ArrayId, pointee: &CType, n: Node) -> R<ArrayId> {
        let elem = match pointee {
            CType::Void => CType::Scalar(ScalarTy::U8),
            t => t.clone(),
        };
        let key = (holder, elem.describe());
        if let Some(a) = self.pointees.get(&key) {
            return Ok(*a);
        }
        let slots = self.slots(&elem, n)?;
        let holder_name = self.kernel.array(holder).name.clone();
        let span = self.kernel.array(holder).span;
        let id = self.new_array(
            &format!("*{holder_name}[]"),
            MemSpace::Global,
            ArrayOrigin::Pointee,
            &elem,
            Vec::new(),
            slots,
            span,
        );
        self.pointees.insert(key, id);
        Ok(id)
    }

    /// `p == NULL` (`equal`) or `p != NULL` for a pointer into the host's
    /// objects: known from the slot it was read from, when it comes
    /// straight from there; refused otherwise.
    pub(super) fn host_pointer_is_null(&self, p: &Ptr, equal: bool, n: Node) -> R<Value> {
        let Some(null) = p.null_if.clone() else {
            return Err(self.unsupported(n, NULL_HOST_POINTER));
        };
        let e = if equal { null } else { Expr::negate(null) };
        Ok(Value::Scalar(e, ScalarTy::Bool))
    }

    /// Whether the host fills `a` (pointers there follow the host model).
    pub(super) fn host_filled_array(&self, a: ArrayId) -> bool {
        host_filled(self.kernel.array(a).origin)
    }

    /// Whether `p` points into objects the host's pointers in memory point
    /// to, whose nullness warpsafe does not model.
    pub(super) fn points_to_host_object(&self, p: &Ptr) -> bool {
        let origin = |a: ArrayId| self.kernel.array(a).origin == ArrayOrigin::Pointee;
        p.target.is_some_and(origin)
            || p.choice
                .as_ref()
                .is_some_and(|c| c.arrays.iter().any(|a| origin(*a)))
    }
}
