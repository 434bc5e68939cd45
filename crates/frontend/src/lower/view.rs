//! Memory used at another element size than it was declared with:
//! `((uint *)s_hist)[i]` over a `uchar` array, `uchar4` pixels of an
//! `unsigned int` image, a pitched row `(float2 *)((char *)v + y * pitch)`.
//!
//! An array whose element is a run of equal-size slots without padding
//! (`float`, `float2`, `uchar4`, `short`) gives every byte an address: slot
//! `i` holds bytes `[i*s, (i+1)*s)`. A pointer into it counts its offset in
//! units of `gcd(sizeof(pointee), s)` bytes (see [`Unit`]), so a `char *`
//! into `float` memory counts bytes and a `float2 *` counts slots, as before.
//! An object that does not match the array's slots is a [`View`]; reading
//! and writing it become accesses of the array's own slots:
//! - a value wider than a slot is its slots composed little-endian (a
//!   `uint` read of `uchar` memory is four `uchar` loads);
//! - a value narrower than a slot is taken from the slot's bits (a `char`
//!   read of `float` memory loads the float);
//! - a write narrower than a slot is lowered only when the written value
//!   covers whole slots (a `uchar4` stored to `unsigned int` memory is one
//!   store of its four bytes).
//!
//! Invariants: every engine keeps one access per slot, so two accesses
//! race exactly when they touch a common slot of the declared element;
//! accesses that would need a partial slot write or an atomic over several
//! slots are refused, never approximated. Casting to a pointer of a wider
//! unit assumes the address is aligned to it (a misaligned access faults on
//! the GPU; README lists this as not sound).

use super::value::{add_offset, mul_offset, Place, Ptr, Value};
use super::{Lowerer, R};
use crate::types::{CType, Layout};
use tree_sitter::Node;
use warpsafe_ir::{AccessKind, ArrayId, AssumeOrigin, BinOp, Expr, MemRef, ScalarTy, StmtKind};

/// An object of type `ty` at byte `base * align + extra` of `array`, laid
/// over slots it does not match.
#[derive(Clone, Debug)]
pub struct View {
    pub array: ArrayId,
    /// An `i64` expression.
    pub base: Expr,
    pub align: u64,
    pub extra: u64,
    pub ty: CType,
    pub volatile: bool,
}

/// How a pointer counts its offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// In slots of its array (elements of mixed-size slots, or a pointee
    /// without a C layout).
    Slots,
    /// In units of `unit` bytes, into arrays whose slots are `slot` bytes.
    Bytes { unit: u64, slot: u64 },
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The unsigned integer type of `bytes` bytes.
fn unsigned(bytes: u64) -> ScalarTy {
    match bytes {
        1 => ScalarTy::U8,
        2 => ScalarTy::U16,
        4 => ScalarTy::U32,
        _ => ScalarTy::U64,
    }
}

fn int(v: u64, ty: ScalarTy) -> Expr {
    Expr::int(i128::from(v), ty)
}

fn cast(ty: ScalarTy, e: Expr) -> Expr {
    Expr::Cast(ty, Box::new(e))
}

/// `e << bits` (`>>` when `right`) on type `ty`, by a constant; `e` itself for 0.
fn shift(e: Expr, ty: ScalarTy, bits: u64, right: bool) -> Expr {
    if bits == 0 {
        return e;
    }
    let op = if right { BinOp::Shr } else { BinOp::Shl };
    Expr::binary(op, ty, e, int(bits, ty))
}

/// The bits of `e`, a value of type `t`, as the unsigned integer of its size.
fn to_bits(e: Expr, t: ScalarTy) -> Expr {
    let u = unsigned(t.size_bytes());
    match t {
        ScalarTy::F16 => Expr::Call("__half_as_ushort".into(), u, vec![e]),
        ScalarTy::Bf16 => Expr::Call("__bfloat16_as_ushort".into(), u, vec![e]),
        ScalarTy::F32 => Expr::Call("__float_as_uint".into(), u, vec![e]),
        ScalarTy::F64 => cast(
            u,
            Expr::Call("__double_as_longlong".into(), ScalarTy::I64, vec![e]),
        ),
        _ if t == u => e,
        _ => cast(u, e),
    }
}

/// The value of type `t` whose bits are `bits` (an unsigned integer of
/// `t`'s size).
fn from_bits(bits: Expr, t: ScalarTy) -> Expr {
    match t {
        ScalarTy::F16 => Expr::Call("__ushort_as_half".into(), t, vec![bits]),
        ScalarTy::Bf16 => Expr::Call("__ushort_as_bfloat16".into(), t, vec![bits]),
        ScalarTy::F32 => Expr::Call("__uint_as_float".into(), t, vec![bits]),
        ScalarTy::F64 => Expr::Call(
            "__longlong_as_double".into(),
            t,
            vec![cast(ScalarTy::I64, bits)],
        ),
        _ if t == unsigned(t.size_bytes()) => bits,
        _ => cast(t, bits),
    }
}

/// Whether slot `i` of a layout is `s` bytes at byte `i * s`, for every `i`.
fn packed(l: &Layout, s: u64) -> bool {
    l.slots
        .iter()
        .enumerate()
        .all(|(i, (off, t))| t.size_bytes() == s && *off == i as u64 * s)
}

impl<'t> Lowerer<'_, 't> {
    /// The byte size of every slot of an element of type `elem`, when the
    /// element is a run of equal-size slots without padding.
    pub fn uniform_slot_bytes(&self, elem: &CType) -> Option<u64> {
        let l = self.items.types.layout(elem)?;
        let s = l.slots.first()?.1.size_bytes();
        (packed(&l, s) && l.size == l.slots.len() as u64 * s).then_some(s)
    }

    fn ptr_arrays(ptr: &Ptr) -> Vec<ArrayId> {
        match (&ptr.choice, ptr.target) {
            (Some(c), _) => c.arrays.clone(),
            (None, Some(a)) => vec![a],
            (None, None) => Vec::new(),
        }
    }

    /// How `ptr` counts its offset.
    pub fn unit(&self, ptr: &Ptr) -> Unit {
        let arrays = Self::ptr_arrays(ptr);
        let mut sizes = arrays.iter().map(|a| self.slot_bytes.get(a).copied());
        let Some(Some(slot)) = sizes.next() else {
            return Unit::Slots;
        };
        if !sizes.all(|s| s == Some(slot)) {
            return Unit::Slots;
        }
        let size = match &ptr.pointee {
            CType::Void => slot,
            t => match self.items.types.layout(t) {
                Some(l) if l.size > 0 => l.size,
                _ => return Unit::Slots,
            },
        };
        Unit::Bytes {
            unit: gcd(size, slot),
            slot,
        }
    }

    /// Whether the objects `ptr` points at are made of its array's own
    /// slots (of every array it may point into), so that its offset is a
    /// slot index.
    pub fn matches_slots(&self, ptr: &Ptr) -> bool {
        Self::ptr_arrays(ptr).iter().all(|a| {
            let Some(&slot) = self.slot_bytes.get(a) else {
                return true;
            };
            match &ptr.pointee {
                CType::Void => true,
                // No byte size (as `unit` says): counted in slots, as before.
                t => self
                    .items
                    .types
                    .layout(t)
                    .filter(|l| l.size > 0)
                    .is_none_or(|l| l.size.is_multiple_of(slot) && packed(&l, slot)),
            }
        })
    }

    /// How far `ptr + 1` moves the offset.
    pub fn ptr_step(&self, ptr: &Ptr, n: Node) -> R<u64> {
        match (self.unit(ptr), &ptr.pointee) {
            (Unit::Bytes { unit, .. }, t) if *t != CType::Void => {
                let size = self
                    .items
                    .types
                    .layout(t)
                    .map(|l| l.size)
                    .expect("invariant: a pointee counted in bytes has a layout");
                Ok(size / unit)
            }
            _ => self.slot_count(&ptr.pointee, n),
        }
    }

    /// `ptr` converted to a pointer to `to`, its offset counted anew.
    pub fn rebase_ptr(&mut self, ptr: Ptr, to: CType, n: Node) -> R<Option<Ptr>> {
        let target = Ptr {
            pointee: to.clone(),
            ..ptr.clone()
        };
        match (self.unit(&ptr), self.unit(&target)) {
            (Unit::Bytes { unit: a, .. }, Unit::Bytes { unit: b, .. }) => {
                let offset = self.rescale(ptr.offset, a, b, n);
                Ok(Some(Ptr {
                    offset,
                    pointee: to,
                    ..ptr
                }))
            }
            (Unit::Slots, Unit::Slots) => Ok(None),
            (Unit::Bytes { unit, slot }, Unit::Slots)
            | (Unit::Slots, Unit::Bytes { unit, slot })
                if unit == slot =>
            {
                Ok(None)
            }
            _ => Err(self.unsupported(
                n,
                format!(
                    "reinterpreting `{}` memory as `{}` (elements of mixed sizes)",
                    ptr.pointee.describe(),
                    to.describe()
                ),
            )),
        }
    }

    /// An offset counted in units of `from` bytes, counted in units of `to`.
    fn rescale(&mut self, offset: Expr, from: u64, to: u64, n: Node) -> Expr {
        if from >= to {
            return mul_offset(offset, from / to);
        }
        // A pointer to a wider unit must be aligned to it: a misaligned
        // access faults on the GPU. Assumed here, not reported. Units are
        // powers of two: the test is a mask and the exact division a shift
        // (cheaper for the solver than `%` and `/`).
        let k = to / from;
        debug_assert!(k.is_power_of_two(), "units are powers of two");
        let held = self.hold(offset, ScalarTy::I64, n);
        let low = Expr::binary(
            BinOp::BitAnd,
            ScalarTy::I64,
            held.clone(),
            int(k - 1, ScalarTy::I64),
        );
        self.emit(
            StmtKind::Assume {
                cond: Expr::binary(BinOp::Eq, ScalarTy::I64, low, int(0, ScalarTy::I64)),
                origin: AssumeOrigin::Aligned,
            },
            self.span(n),
        );
        Expr::binary(
            BinOp::Shr,
            ScalarTy::I64,
            held,
            int(u64::from(k.trailing_zeros()), ScalarTy::I64),
        )
    }

    /// The place `ptr` points at, when its pointee does not match the
    /// array's slots.
    pub fn view_place(&self, array: ArrayId, ptr: Ptr, n: Node) -> R<Place> {
        let Unit::Bytes { unit, .. } = self.unit(&ptr) else {
            unreachable!("invariant: a pointer counted in slots matches its slots")
        };
        if matches!(ptr.pointee, CType::Atomic(..)) {
            return Err(self.unsupported(
                n,
                format!(
                    "an atomic `{}` over memory of another element size",
                    ptr.pointee.describe()
                ),
            ));
        }
        Ok(Place::View(Box::new(View {
            array,
            base: ptr.offset,
            align: unit,
            extra: 0,
            ty: ptr.pointee,
            volatile: ptr.volatile,
        })))
    }

    /// The field `name` of a viewed aggregate.
    pub fn view_field(&self, v: &View, name: &str, n: Node) -> R<Place> {
        let fields = self.items.types.fields(&v.ty).ok_or_else(|| {
            self.unsupported(n, format!("field `{name}` of `{}`", v.ty.describe()))
        })?;
        let (_, fty, slot) = fields
            .into_iter()
            .find(|(f, _, _)| f == name)
            .ok_or_else(|| {
                self.unsupported(n, format!("`{}` has no field `{name}`", v.ty.describe()))
            })?;
        let byte = self
            .items
            .types
            .layout(&v.ty)
            .and_then(|l| l.slots.get(slot as usize).map(|s| s.0))
            .ok_or_else(|| self.unsupported(n, "the layout of this field"))?;
        Ok(Place::View(Box::new(View {
            extra: v.extra + byte,
            ty: fty,
            ..v.clone()
        })))
    }

    /// The address of a viewed object, as a pointer to its type.
    pub fn view_address(&self, v: View, n: Node) -> R<Ptr> {
        let mut ptr = Ptr {
            target: Some(v.array),
            choice: None,
            offset: int(0, ScalarTy::I64),
            pointee: v.ty,
            volatile: v.volatile,
            null_if: None,
        };
        let unit = match self.unit(&ptr) {
            Unit::Bytes { unit, .. } => unit,
            Unit::Slots => return Err(self.unsupported(n, "the address of this object")),
        };
        if !v.align.is_multiple_of(unit) || !v.extra.is_multiple_of(unit) {
            return Err(self.unsupported(
                n,
                "the address of a part of reinterpreted memory that is not aligned to its size",
            ));
        }
        ptr.offset = add_offset(
            mul_offset(v.base, v.align / unit),
            int(v.extra / unit, ScalarTy::I64),
        );
        Ok(ptr)
    }

    pub fn read_view(&mut self, v: &View, n: Node) -> R<Value> {
        if let CType::Array(elem, _) = &v.ty {
            let decayed = View {
                ty: (**elem).clone(),
                ..v.clone()
            };
            return Ok(Value::Ptr(self.view_address(decayed, n)?));
        }
        let layout = self.view_layout(v, n)?;
        let mut parts = self.read_pieces(v, &layout, n)?.into_iter();
        self.unflatten(&v.ty, &mut parts, n)
    }

    pub fn write_view(&mut self, v: &View, value: Value, n: Node) -> R<()> {
        let layout = self.view_layout(v, n)?;
        let mut flat = Vec::new();
        self.flatten(&v.ty, value, &mut flat, n)?;
        self.write_pieces(v, &layout, flat, n)
    }

    /// The byte offset and type of each scalar of a viewed object.
    fn view_layout(&self, v: &View, n: Node) -> R<Vec<(u64, ScalarTy)>> {
        match &v.ty {
            CType::Scalar(_) | CType::Vector(..) | CType::Struct(_) => {}
            other => {
                return Err(self.unsupported(
                    n,
                    format!("a `{}` in memory of another element size", other.describe()),
                ))
            }
        }
        self.items
            .types
            .layout(&v.ty)
            .map(|l| l.slots)
            .ok_or_else(|| self.unsupported(n, format!("the layout of `{}`", v.ty.describe())))
    }

    /// The slot holding byte `v + off` and the byte's position in it: both
    /// constant offsets when the view is aligned to slots.
    fn slot_of(&self, v: &View, off: u64, slot: u64) -> (Expr, Expr) {
        if v.align.is_multiple_of(slot) {
            let byte = v.extra + off;
            let index = add_offset(
                mul_offset(v.base.clone(), v.align / slot),
                int(byte / slot, ScalarTy::I64),
            );
            return (index, int(byte % slot, ScalarTy::U64));
        }
        // Unsigned, so that a negative address is an index far out of
        // bounds rather than one rounded towards zero.
        let byte = cast(
            ScalarTy::U64,
            add_offset(
                mul_offset(v.base.clone(), v.align),
                int(v.extra + off, ScalarTy::I64),
            ),
        );
        let s = int(slot, ScalarTy::U64);
        let index = cast(
            ScalarTy::I64,
            Expr::binary(BinOp::Div, ScalarTy::U64, byte.clone(), s.clone()),
        );
        (index, Expr::binary(BinOp::Rem, ScalarTy::U64, byte, s))
    }

    /// The slot that begins at byte `v + off`, when it is known to begin
    /// a slot (a value as wide as slots or wider starts there).
    fn first_slot(&self, v: &View, off: u64, slot: u64) -> Option<Expr> {
        (v.align.is_multiple_of(slot) && (v.extra + off).is_multiple_of(slot))
            .then(|| self.slot_of(v, off, slot).0)
    }

    fn access(v: &View) -> AccessKind {
        if v.volatile {
            AccessKind::Volatile
        } else {
            AccessKind::Plain
        }
    }

    fn load_slot(&mut self, v: &View, index: Expr, ty: ScalarTy, n: Node) -> Expr {
        let span = self.span(n);
        let dst = self.temp(ty, span);
        let mem = MemRef {
            array: v.array,
            index,
            ty,
        };
        self.emit(
            StmtKind::Load {
                dst,
                mem,
                access: Self::access(v),
            },
            span,
        );
        Expr::Var(dst)
    }

    fn store_slot(&mut self, v: &View, index: Expr, ty: ScalarTy, value: Expr, n: Node) {
        let mem = MemRef {
            array: v.array,
            index,
            ty,
        };
        self.emit(
            StmtKind::Store {
                mem,
                value,
                access: Self::access(v),
            },
            self.span(n),
        );
    }

    fn view_slot_bytes(&self, v: &View) -> u64 {
        *self
            .slot_bytes
            .get(&v.array)
            .expect("invariant: views are made only over arrays of equal-size slots")
    }

    /// One value per scalar of the view, each of its own type.
    fn read_pieces(&mut self, v: &View, layout: &[(u64, ScalarTy)], n: Node) -> R<Vec<Expr>> {
        let slot = self.view_slot_bytes(v);
        let st = unsigned(slot);
        let mut loaded: Vec<(Expr, Expr)> = Vec::new();
        let mut out = Vec::new();
        for &(off, t) in layout {
            let size = t.size_bytes();
            let wide = unsigned(size);
            if size >= slot {
                let first = self.first_slot(v, off, slot).ok_or_else(|| {
                    self.unsupported(
                        n,
                        "a value spanning elements of memory used at another element size, at an address not aligned to them",
                    )
                })?;
                let mut bits: Option<Expr> = None;
                for j in 0..size / slot {
                    let part =
                        self.load_slot(v, add_offset(first.clone(), int(j, ScalarTy::I64)), st, n);
                    let part = shift(cast(wide, part), wide, 8 * slot * j, false);
                    bits = Some(match bits {
                        None => part,
                        Some(b) => Expr::binary(BinOp::BitOr, wide, b, part),
                    });
                }
                out.push(from_bits(bits.expect("invariant: a piece has a slot"), t));
            } else {
                let (index, pos) = self.slot_of(v, off, slot);
                let word = match loaded.iter().find(|(i, _)| *i == index) {
                    Some((_, w)) => w.clone(),
                    None => {
                        let w = self.load_slot(v, index.clone(), st, n);
                        loaded.push((index, w.clone()));
                        w
                    }
                };
                let bits = match pos.as_const_int() {
                    Some(0) => cast(wide, word),
                    Some(p) => cast(
                        wide,
                        Expr::binary(BinOp::Shr, st, word, Expr::int(8 * p, st)),
                    ),
                    None => {
                        let shift =
                            Expr::binary(BinOp::Mul, ScalarTy::U64, pos, int(8, ScalarTy::U64));
                        cast(wide, Expr::binary(BinOp::Shr, st, word, cast(st, shift)))
                    }
                };
                out.push(from_bits(bits, t));
            }
        }
        Ok(out)
    }

    fn write_pieces(
        &mut self,
        v: &View,
        layout: &[(u64, ScalarTy)],
        values: Vec<Expr>,
        n: Node,
    ) -> R<()> {
        let slot = self.view_slot_bytes(v);
        let st = unsigned(slot);
        // Narrow pieces, grouped by the slot they fall in.
        let mut groups: Vec<(Expr, u64, Expr)> = Vec::new();
        for (&(off, t), value) in layout.iter().zip(values) {
            let size = t.size_bytes();
            let wide = unsigned(size);
            let bits = to_bits(value, t);
            if size >= slot {
                let first = self
                    .first_slot(v, off, slot)
                    .ok_or_else(|| self.partial_write(v, t, slot, n))?;
                let bits = self.hold(bits, wide, n);
                for j in 0..size / slot {
                    let part = cast(st, shift(bits.clone(), wide, 8 * slot * j, true));
                    self.store_slot(
                        v,
                        add_offset(first.clone(), int(j, ScalarTy::I64)),
                        st,
                        part,
                        n,
                    );
                }
                continue;
            }
            if !v.align.is_multiple_of(slot) {
                return Err(self.partial_write(v, t, slot, n));
            }
            let (index, pos) = self.slot_of(v, off, slot);
            let pos = pos
                .as_const_int()
                .expect("invariant: aligned views have constant positions")
                as u64;
            let part = shift(cast(st, bits), st, 8 * pos, false);
            match groups.iter_mut().find(|(i, _, _)| *i == index) {
                Some((_, covered, acc)) => {
                    *covered += size;
                    *acc = Expr::binary(BinOp::BitOr, st, acc.clone(), part);
                }
                None => groups.push((index, size, part)),
            }
        }
        for (index, covered, value) in groups {
            if covered != slot {
                let t = layout.first().map_or(ScalarTy::U8, |p| p.1);
                return Err(self.partial_write(v, t, slot, n));
            }
            self.store_slot(v, index, st, value, n);
        }
        Ok(())
    }

    fn partial_write(
        &self,
        v: &View,
        t: ScalarTy,
        slot: u64,
        n: Node,
    ) -> warpsafe_source::Diagnostic {
        let array = self.kernel.array(v.array);
        self.unsupported(
            n,
            format!(
                "writing a `{}` into part of a {slot}-byte element of `{}` (`{}` memory): only whole elements of memory used at another element size are written",
                crate::types::c_name(t),
                array.name,
                array.elem
            ),
        )
    }

    /// The scalars of a value of type `ty`, in layout order, each converted
    /// to its field's type.
    fn flatten(&self, ty: &CType, v: Value, out: &mut Vec<Expr>, n: Node) -> R<()> {
        match ty {
            CType::Scalar(t) => {
                out.push(self.coerce(v, *t, n)?);
                Ok(())
            }
            CType::Vector(..) | CType::Struct(_) => {
                let fields =
                    self.items.types.fields(ty).ok_or_else(|| {
                        self.unsupported(n, format!("fields of `{}`", ty.describe()))
                    })?;
                let is_dim3 = matches!(ty, CType::Vector(_, 3, name) if name == "dim3");
                let vals = self.agg_values(v, fields.len(), is_dim3, n)?;
                for ((_, fty, _), val) in fields.iter().zip(vals) {
                    self.flatten(fty, val, out, n)?;
                }
                Ok(())
            }
            other => Err(self.unsupported(
                n,
                format!("a `{}` in memory of another element size", other.describe()),
            )),
        }
    }

    /// A value of type `ty` from its scalars in layout order.
    fn unflatten(&self, ty: &CType, parts: &mut impl Iterator<Item = Expr>, n: Node) -> R<Value> {
        match ty {
            CType::Scalar(t) => {
                let e = parts.next().expect("invariant: one scalar per layout slot");
                Ok(Value::Scalar(e, *t))
            }
            CType::Vector(..) | CType::Struct(_) => {
                let fields =
                    self.items.types.fields(ty).ok_or_else(|| {
                        self.unsupported(n, format!("fields of `{}`", ty.describe()))
                    })?;
                let mut vals = Vec::new();
                for (_, fty, _) in &fields {
                    vals.push(self.unflatten(fty, parts, n)?);
                }
                Ok(Value::Agg(ty.clone(), vals))
            }
            other => Err(self.unsupported(
                n,
                format!("a `{}` in memory of another element size", other.describe()),
            )),
        }
    }
}
