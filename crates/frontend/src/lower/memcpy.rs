//! `memcpy`/`memset` (and the `__builtin_` forms) with a length known at
//! lowering time, as slot-by-slot loads and stores over C's byte layout.
//!
//! Invariants: every slot whose bytes the call touches is read (source)
//! and written (destination), so races are never missed; a slot only partly
//! covered, or covered by source bytes of another type, receives an unknown
//! value (reported as an approximation), never a made-up one.

use super::value::{add_offset, Place, Ptr, Value};
use super::view::Unit;
use super::{Lowerer, R};
use crate::types::{CType, Layout};
use tree_sitter::Node;
use warpsafe_ir::{BinOp, Const, Expr, ScalarTy, StmtKind};

/// One slot a byte range touches: its place, type and byte range relative
/// to the pointer.
struct Touched {
    place: Place,
    ty: ScalarTy,
    lo: u64,
    hi: u64,
}

/// The most slots one call may expand to.
const MAX_SLOTS: u64 = 1 << 16;

impl<'t> Lowerer<'_, 't> {
    pub fn mem_intrinsic(&mut self, copy: bool, args: &[Node<'t>], n: Node<'t>) -> R<()> {
        if args.len() != 3 {
            return Err(self.unsupported(n, "memcpy/memset with other than three arguments"));
        }
        let dv = self.value(args[0])?;
        let dst = self.as_ptr(dv, args[0])?;
        let src = if copy {
            let sv = self.value(args[1])?;
            Some(self.as_ptr(sv, args[1])?)
        } else {
            None
        };
        let fill = if copy {
            None
        } else {
            Some(self.scalar(args[1])?)
        };
        let len = self.byte_count(args[2], "memcpy/memset")?;
        if !dst.points_somewhere() || src.as_ref().is_some_and(|s| !s.points_somewhere()) {
            // The null pointer: an assertion failure, as any dereference.
            let (p, at) = match &src {
                Some(s) if dst.points_somewhere() => (s.clone(), args[1]),
                _ => (dst.clone(), args[0]),
            };
            self.deref(
                Ptr {
                    pointee: CType::Scalar(ScalarTy::U8),
                    ..p
                },
                at,
            )?;
            return Ok(());
        }
        let dst_slots = self.touched(&dst, len, args[0])?;
        let mut approximate = false;
        match src {
            Some(src) => {
                let src_slots = self.touched(&src, len, args[1])?;
                let mut read = Vec::new();
                for s in &src_slots {
                    let v = self.read(&s.place, n)?;
                    read.push((s.lo, s.hi, s.ty, v));
                }
                for d in &dst_slots {
                    let same = read
                        .iter()
                        .find(|(lo, hi, ty, _)| *lo == d.lo && *hi == d.hi && *ty == d.ty);
                    let whole = d.hi - d.lo == d.ty.size_bytes();
                    let value = match same {
                        Some((.., v)) if whole => v.clone(),
                        _ => {
                            approximate = true;
                            self.unknown(
                                d.ty,
                                "bytes copied by memcpy into part of a value or across types",
                                n,
                            )
                        }
                    };
                    self.write(&d.place, value, n)?;
                }
            }
            None => {
                let (b, _) = fill.expect("invariant: memset has a fill value");
                let byte = self.known_constant(&b);
                for d in &dst_slots {
                    let whole = d.hi - d.lo == d.ty.size_bytes();
                    let value = match byte {
                        Some(byte) if whole && !d.ty.is_float() => {
                            let pattern = (0..d.ty.size_bytes())
                                .fold(0i128, |acc, _| (acc << 8) | (byte & 0xff));
                            Value::Scalar(Expr::int(super::value::wrap(pattern, d.ty), d.ty), d.ty)
                        }
                        Some(0) if whole => {
                            Value::Scalar(Expr::Const(Const::Float(0.0), d.ty), d.ty)
                        }
                        _ => {
                            approximate = true;
                            self.unknown(
                                d.ty,
                                "bytes set by memset into part of a value or with an unknown byte",
                                n,
                            )
                        }
                    };
                    self.write(&d.place, value, n)?;
                }
            }
        }
        if approximate {
            self.warn(n, "this memcpy/memset covers values only in part (or across types): those values become unknown, and every touched value counts as accessed");
        }
        Ok(())
    }

    /// A byte count known at lowering time (`what` names the call in the
    /// message when it is not).
    pub fn byte_count(&mut self, a: Node<'t>, what: &str) -> R<u64> {
        let len = match crate::consteval::eval(self.syn, a, self) {
            Some(l) => l,
            None => {
                let (e, _) = self.scalar(a)?;
                self.known_constant(&e).ok_or_else(|| {
                    self.unsupported(
                        a,
                        format!("{what} with a length that is not known at compile time"),
                    )
                })?
            }
        };
        u64::try_from(len).map_err(|_| self.unsupported(a, format!("a negative {what} length")))
    }

    /// The slots the bytes `[0, len)` from `ptr` touch, by the pointee's
    /// C layout repeated.
    fn touched(&mut self, ptr: &Ptr, len: u64, n: Node) -> R<Vec<Touched>> {
        let layout = self
            .items
            .types
            .layout(&ptr.pointee)
            .filter(|l| l.size > 0)
            .ok_or_else(|| {
                self.unsupported(
                    n,
                    format!("memcpy/memset through a `{}*`", ptr.pointee.describe()),
                )
            })?;
        let per = layout.slots.len() as u64;
        let elems = len.div_ceil(layout.size);
        if elems.saturating_mul(per) > MAX_SLOTS {
            return Err(
                self.unsupported(n, format!("memcpy/memset of more than {MAX_SLOTS} values"))
            );
        }
        let mut out = Vec::new();
        for e in 0..elems {
            for (k, (off, ty)) in layout.slots.iter().enumerate() {
                let lo = e * layout.size + off;
                if lo >= len {
                    continue;
                }
                let hi = (lo + ty.size_bytes()).min(len);
                let elem = Expr::int(e as i128, ScalarTy::I64);
                let place = self.elem_slot_place(ptr, elem, &layout, k, n)?;
                out.push(Touched {
                    place,
                    ty: *ty,
                    lo,
                    hi,
                });
            }
        }
        Ok(out)
    }

    /// Slot `j` of element `e` (an `i64` expression) of the pointee
    /// layout `layout` from `ptr`: in its array, in the one of several it
    /// points into, or, over memory of another element size, as a view of
    /// that memory's slots (see `view`).
    pub(super) fn elem_slot_place(
        &mut self,
        ptr: &Ptr,
        e: Expr,
        layout: &Layout,
        j: usize,
        n: Node,
    ) -> R<Place> {
        let i64t = ScalarTy::I64;
        let (off, ty) = layout.slots[j];
        if self.matches_slots(ptr) {
            let per = layout.slots.len() as i128;
            let slot = match (per, e.as_const_int()) {
                (1, _) => e,
                (_, Some(k)) => Expr::int(k * per + j as i128, i64t),
                _ => Expr::binary(
                    BinOp::Add,
                    i64t,
                    Expr::binary(BinOp::Mul, i64t, e, Expr::int(per, i64t)),
                    Expr::int(j as i128, i64t),
                ),
            };
            let index = add_offset(ptr.offset.clone(), slot);
            return match ptr.target {
                Some(array) => Ok(Place::Mem {
                    array,
                    index,
                    ty: CType::Scalar(ty),
                    volatile: ptr.volatile,
                }),
                None => self.deref(
                    Ptr {
                        offset: index,
                        pointee: CType::Scalar(ty),
                        ..ptr.clone()
                    },
                    n,
                ),
            };
        }
        // Memory of another element size: the offset counts `unit` bytes,
        // and so must the scalar's pointer for the same address.
        let scalar = Ptr {
            pointee: CType::Scalar(ty),
            ..ptr.clone()
        };
        let unit = match (self.unit(ptr), self.unit(&scalar)) {
            (Unit::Bytes { unit, .. }, Unit::Bytes { unit: u, .. })
                if unit == u && layout.size.is_multiple_of(unit) && off.is_multiple_of(unit) =>
            {
                unit
            }
            _ => {
                return Err(self.unsupported(
                    n,
                    format!(
                        "copying `{}` values through memory of another element size",
                        ptr.pointee.describe()
                    ),
                ))
            }
        };
        let (per, at) = ((layout.size / unit) as i128, (off / unit) as i128);
        let step = match e.as_const_int() {
            Some(k) => Expr::int(k * per + at, i64t),
            None => Expr::binary(
                BinOp::Add,
                i64t,
                Expr::binary(BinOp::Mul, i64t, e, Expr::int(per, i64t)),
                Expr::int(at, i64t),
            ),
        };
        self.deref(
            Ptr {
                offset: add_offset(ptr.offset.clone(), step),
                ..scalar
            },
            n,
        )
    }

    /// A fresh unknown value of type `ty`.
    pub(super) fn unknown(&mut self, ty: ScalarTy, reason: &str, n: Node) -> Value {
        let span = self.span(n);
        let dst = self.temp(ty, span);
        self.emit(
            StmtKind::Havoc {
                dst,
                reason: reason.to_string(),
            },
            span,
        );
        Value::Scalar(Expr::Var(dst), ty)
    }
}
