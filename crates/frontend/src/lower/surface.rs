//! Surface memory: `surf2Dwrite(v, s, x, y)`, `surf2Dread(&v, s, x, y)`,
//! `v = surf2Dread<T>(s, x, y)` and their 1-D, 3-D, layered and cubemap
//! forms.
//!
//! A surface object is a byte array in global memory: the built-in
//! `<cuda_runtime_api.h>` declares `cudaSurfaceObject_t` (and `<cuda.h>`
//! `CUsurfObject`) as `unsigned char *`, so a surface parameter is an
//! array parameter like any pointer, and a surface read or write is a
//! memory access that the race check and the explorers see. Coordinates
//! are `int`s; `x` counts bytes. The element at `x` starts at byte `x`; at
//! (`x`, `y`) at byte `x + y * 2^32`; at (`x`, `y`, `z`) (`z` a depth,
//! layer or face) at byte `x + y * 2^24 + z * 2^44`.
//!
//! Invariants:
//! - Distinct coordinates start at distinct bytes: for 1-D and 2-D
//!   surfaces always (a 32-bit `x` is a full residue system modulo 2^32),
//!   for three coordinates when `x` is within ±2^23 bytes and `y`, `z`
//!   within ±2^19, far beyond the hardware's surface limits.
//! - An access whose coordinates lie outside the largest surface the
//!   hardware allows ([`LIMITS`]) is out of range for every surface: it
//!   traps or is ignored (`cudaBoundaryModeTrap`, `Zero`), so it is
//!   lowered as no access (a read returns zero). With
//!   `cudaBoundaryModeClamp` it would touch an edge element instead: not
//!   modelled, stated once per kernel with the layout.
//! - Coordinates inside those limits but outside the actual surface are
//!   not known to be out of range (the surface's size is a host value):
//!   they are accesses like any other.
//! - A handle that is not a surface object (an integer from elsewhere) is
//!   refused with the reason, never read as an unknown.

use super::value::{i64_expr, Ptr, Value};
use super::{Lowerer, R};
use crate::syntax::named_children;
use crate::types::CType;
use tree_sitter::Node;
use warpsafe_ir::{BinOp, Expr, ScalarTy, StmtKind};

/// The hardware's largest surface, per coordinate: `x` in bytes (131,072
/// elements of up to 16 bytes), then rows, then depth, layers or faces
/// (16,384 deep; 2,048 layers of 6 faces).
const LIMITS: [i128; 3] = [1 << 21, 1 << 16, 1 << 14];

/// Bit position of each coordinate in the byte offset, by the number of
/// coordinates.
fn shifts(coords: usize) -> &'static [u32] {
    match coords {
        1 => &[0],
        2 => &[0, 32],
        _ => &[0, 24, 44],
    }
}

/// What a surface intrinsic does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Shape {
    /// Number of coordinates after the handle (`x`, `y`, layer ...).
    coords: usize,
    write: bool,
}

/// The shape of surface intrinsic `name` (`surf2DLayeredwrite`), if it is one.
pub(super) fn shape(name: &str) -> Option<Shape> {
    let rest = name.strip_prefix("surf")?;
    let (kind, write) = match rest.strip_suffix("write") {
        Some(k) => (k, true),
        None => (rest.strip_suffix("read")?, false),
    };
    let coords = match kind {
        "1D" => 1,
        "2D" | "1DLayered" => 2,
        "3D" | "2DLayered" | "Cubemap" | "CubemapLayered" => 3,
        _ => return None,
    };
    Some(Shape { coords, write })
}

impl<'t> Lowerer<'_, 't> {
    /// Lowers one surface read or write (see the module comment).
    pub(super) fn surface(
        &mut self,
        name: &str,
        shape: Shape,
        targs: Option<Node<'t>>,
        args: &[Node<'t>],
        n: Node<'t>,
    ) -> R<Value> {
        let targ = match targs.and_then(|t| named_children(t).first().copied()) {
            Some(t) => Some(self.type_cx().type_descriptor(t)?),
            None => None,
        };
        // `v = surf2Dread<T>(s, x, y[, mode])` returns the value; the other
        // forms name the value first (`surf2Dwrite(v, s, ...)`,
        // `surf2Dread(&v, s, ...)`). A trailing boundary mode is optional.
        let returns = !shape.write
            && targ.is_some()
            && (args.len() == 1 + shape.coords
                || (args.len() == 2 + shape.coords
                    && args
                        .last()
                        .is_some_and(|a| self.text(*a).contains("cudaBoundaryMode"))));
        let first = usize::from(!returns);
        if args.len() < first + 1 + shape.coords || args.len() > first + 2 + shape.coords {
            return Err(self.unsupported(
                n,
                format!(
                    "`{name}` with {} arguments (a value, a surface, {} coordinate(s) and an optional boundary mode)",
                    args.len(),
                    shape.coords
                ),
            ));
        }
        let handle = self.value(args[first])?;
        let Value::Ptr(base) = handle else {
            return Err(self.unsupported(
                args[first],
                format!(
                    "`{name}` on a `{}`: warpsafe models surfaces passed as `cudaSurfaceObject_t` (or `CUsurfObject`) values",
                    handle.ty_desc()
                ),
            ));
        };
        let mut offset: Option<Expr> = None;
        let mut in_range: Option<Expr> = None;
        let coords = &args[first + 1..first + 1 + shape.coords];
        for (i, (c, k)) in coords.iter().zip(shifts(shape.coords)).enumerate() {
            let (e, t) = self.scalar(*c)?;
            // Coordinates are `int` parameters: a wider value is truncated.
            let e = i64_expr(self.convert(e, t, ScalarTy::I32), ScalarTy::I32);
            let limit = Expr::int(LIMITS[i], ScalarTy::I64);
            let within = Expr::binary(
                BinOp::And,
                ScalarTy::Bool,
                Expr::binary(
                    BinOp::Ge,
                    ScalarTy::I64,
                    e.clone(),
                    Expr::int(0, ScalarTy::I64),
                ),
                Expr::binary(BinOp::Lt, ScalarTy::I64, e.clone(), limit),
            );
            in_range = Some(match in_range {
                Some(c) => Expr::binary(BinOp::And, ScalarTy::Bool, c, within),
                None => within,
            });
            let scaled = match k {
                0 => e,
                k => Expr::binary(
                    BinOp::Mul,
                    ScalarTy::I64,
                    e,
                    Expr::int(1i128 << k, ScalarTy::I64),
                ),
            };
            offset = Some(match offset {
                Some(o) => Expr::binary(BinOp::Add, ScalarTy::I64, o, scaled),
                None => scaled,
            });
        }
        // `shape` has at least one coordinate.
        let (Some(offset), Some(in_range)) = (offset, in_range) else {
            return Err(self.unsupported(n, format!("`{name}` without coordinates")));
        };
        self.note_surface_layout(n);
        // A surface object is an `unsigned char *` already; the cast keeps
        // the offset's unit right for any other pointer passed as one.
        let bytes = self.cast_ptr(base, CType::Scalar(ScalarTy::U8), n)?;
        let at = self.ptr_add(bytes, offset, n)?;
        // The value to write, or where a read's value goes, is evaluated
        // whether or not the coordinates are in range.
        let (ty, value, dst) = if shape.write {
            let v = self.value(args[0])?;
            let ty = match targ {
                Some(t) => t,
                None => super::overload::c_type(&v)
                    .ok_or_else(|| self.unsupported(args[0], "a surface write of this value"))?,
            };
            (ty, Some(v), None)
        } else if returns {
            let ty = targ.unwrap_or(CType::Scalar(ScalarTy::F32));
            // Out of range, the value is zero (`cudaBoundaryModeZero`; a
            // trap returns nothing).
            let tmp = self.local_place("surface_value", &ty, false, n)?;
            self.zero(&tmp, &ty, n)?;
            (ty, None, Some(tmp))
        } else {
            let out = self.value(args[0])?;
            let out = self.as_ptr(out, args[0])?;
            let ty = targ.unwrap_or_else(|| out.pointee.clone());
            (ty, None, Some(self.deref(out, args[0])?))
        };
        // Only in-range coordinates reach the surface.
        let (access, ()) = self.block(|s| {
            let place = s.element(at, ty, n)?;
            match (&value, &dst) {
                (Some(v), _) => s.write(&place, v.clone(), n),
                (None, Some(d)) => {
                    let v = s.read(&place, n)?;
                    s.write(d, v, n)
                }
                (None, None) => Ok(()),
            }
        })?;
        self.emit(
            StmtKind::If {
                cond: in_range,
                then_: access,
                else_: Vec::new(),
            },
            self.span(n),
        );
        match (returns, dst) {
            (true, Some(tmp)) => self.read(&tmp, n),
            _ => Ok(Value::Void),
        }
    }

    /// The object of type `ty` at byte pointer `at`.
    fn element(&mut self, at: Ptr, ty: CType, n: Node) -> R<super::value::Place> {
        let p = self.cast_ptr(at, ty, n)?;
        self.deref(p, n)
    }

    fn note_surface_layout(&mut self, n: Node) {
        if !self.surface_noted {
            self.surface_noted = true;
            self.warn(
                n,
                "surfaces are byte arrays here: (x, y) is byte x + y*2^32, (x, y, z) byte x + y*2^24 + z*2^44; coordinates beyond the largest surface the hardware allows (2^21 bytes, 2^16 rows, 2^14 layers) are taken to trap or be ignored, not clamped (cudaBoundaryModeClamp is not modelled)",
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        assert_eq!(
            shape("surf2Dwrite"),
            Some(Shape {
                coords: 2,
                write: true
            })
        );
        assert_eq!(
            shape("surf1Dread"),
            Some(Shape {
                coords: 1,
                write: false
            })
        );
        assert_eq!(
            shape("surf2DLayeredwrite"),
            Some(Shape {
                coords: 3,
                write: true
            })
        );
        assert_eq!(
            shape("surfCubemapLayeredread"),
            Some(Shape {
                coords: 3,
                write: false
            })
        );
        assert_eq!(shape("surf4Dwrite"), None);
        assert_eq!(shape("surface"), None);
    }
}
