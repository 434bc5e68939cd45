//! Warp matrix operations (`nvcuda::wmma`, tensor cores): `fill_fragment`,
//! `load_matrix_sync`, `store_matrix_sync` and `mma_sync` on the fragment
//! types of `wmma_types`.
//!
//! CUDA leaves unspecified which thread of the warp holds which element of
//! a fragment. warpsafe fixes one mapping: element `x[k]` of lane `l` (the
//! thread's linear index mod 32) is tile element `e = 32k + l`, at row
//! `e / cols` and column `e % cols`; row-major memory holds element (r, c)
//! at `ptr[r*ldm + c]`, column-major at `ptr[c*ldm + r]`. Loads and stores
//! are then exact per-thread accesses: each element of the tile is read or
//! written by exactly one thread of the warp, and a load after a store of
//! the same tile returns what was stored. `fill_fragment` is exact.
//! `mma_sync` combines elements other threads hold (like a shuffle): its
//! result is an unknown value per element (`Havoc`, with the reason), as
//! for the warp exchanges of `warp_exchange.rs`.
//!
//! Known gaps (README): the fixed mapping may hide an intra-warp race that
//! another mapping would show (not sound); the warp-wide participation a
//! `_sync` operation requires is not checked (not complete); the explorers
//! reject `mma_sync`'s unknown values.

use super::value::{i64_expr, Place, Value};
use super::{Lowerer, R};
use crate::types::CType;
use crate::wmma_types::{FragmentShape, FragmentUse};
use tree_sitter::Node;
use warpsafe_ir::{BinOp, Expr, ScalarTy};

impl<'t> Lowerer<'_, 't> {
    /// A `wmma::` operation, or `None` when `name` is not one.
    pub(super) fn wmma_call(
        &mut self,
        name: &str,
        args: &[Node<'t>],
        n: Node<'t>,
    ) -> R<Option<Value>> {
        if !matches!(
            name,
            "fill_fragment" | "load_matrix_sync" | "store_matrix_sync" | "mma_sync"
        ) {
            return Ok(None);
        }
        let needed = match name {
            "fill_fragment" => 2,
            "load_matrix_sync" => 3,
            _ => 4,
        };
        if args.len() < needed {
            return Err(self.unsupported(
                n,
                format!(
                    "`wmma::{name}` needs {needed} arguments, not {}",
                    args.len()
                ),
            ));
        }
        let arg = |i: usize| -> R<Node<'t>> { Ok(args[i]) };
        match name {
            "fill_fragment" => {
                let (regs, shape) = self.fragment_operand(arg(0)?, name)?;
                let v = self.value(arg(1)?)?;
                let v = self.cast(v, CType::Scalar(shape.elem), n)?;
                for slot in &regs {
                    self.write(slot, v.clone(), n)?;
                }
            }
            "load_matrix_sync" => {
                let (regs, shape) = self.fragment_operand(arg(0)?, name)?;
                let row_major = self.tile_layout(&shape, args.get(3).copied(), name, n)?;
                let ptr = self.value(arg(1)?)?;
                let ptr = self.as_ptr(ptr, arg(1)?)?;
                let ldm = self.leading_dimension(arg(2)?)?;
                for (k, slot) in regs.iter().enumerate() {
                    let off = tile_offset(&shape, k as u64, &ldm, row_major);
                    let at = self.ptr_add(ptr.clone(), off, n)?;
                    let place = self.deref(at, n)?;
                    let v = self.read(&place, n)?;
                    let v = self.cast(v, CType::Scalar(shape.elem), n)?;
                    self.write(slot, v, n)?;
                }
            }
            "store_matrix_sync" => {
                let (regs, shape) = self.fragment_operand(arg(1)?, name)?;
                if shape.usage != FragmentUse::Accumulator {
                    return Err(self.unsupported(
                        n,
                        "`wmma::store_matrix_sync` of a matrix_a or matrix_b fragment",
                    ));
                }
                let row_major = self.tile_layout(&shape, args.get(3).copied(), name, n)?;
                let ptr = self.value(arg(0)?)?;
                let ptr = self.as_ptr(ptr, arg(0)?)?;
                let ldm = self.leading_dimension(arg(2)?)?;
                let pointee = ptr.pointee.clone();
                for (k, slot) in regs.iter().enumerate() {
                    let v = self.read(slot, n)?;
                    let v = self.cast(v, pointee.clone(), n)?;
                    let off = tile_offset(&shape, k as u64, &ldm, row_major);
                    let at = self.ptr_add(ptr.clone(), off, n)?;
                    let place = self.deref(at, n)?;
                    self.write(&place, v, n)?;
                }
            }
            _ => {
                let (d, ds) = self.fragment_operand(arg(0)?, name)?;
                let uses = [
                    FragmentUse::MatrixA,
                    FragmentUse::MatrixB,
                    FragmentUse::Accumulator,
                ];
                for (i, want) in uses.into_iter().enumerate() {
                    let (_, s) = self.fragment_operand(arg(i + 1)?, name)?;
                    if s.usage != want {
                        return Err(self.unsupported(
                            arg(i + 1)?,
                            format!(
                                "`wmma::mma_sync` operand {} is not a {want:?} fragment",
                                i + 2
                            ),
                        ));
                    }
                }
                if ds.usage != FragmentUse::Accumulator {
                    return Err(self.unsupported(n, "`wmma::mma_sync` into a matrix operand"));
                }
                let span = self.span(n);
                for slot in &d {
                    let v = self.havoc(
                        ds.elem,
                        "wmma::mma_sync's product (tensor-core results combine elements other threads hold)",
                        span,
                    );
                    self.write(slot, v, n)?;
                }
            }
        }
        Ok(Some(Value::Void))
    }

    /// `c_frag.num_elements`, when `n` is that field of a fragment.
    pub(super) fn fragment_num_elements(&mut self, n: Node<'t>) -> Option<Value> {
        let field = n.child_by_field_name("field")?;
        if self.text(field) != "num_elements" {
            return None;
        }
        let arg = n.child_by_field_name("argument")?;
        let (_, place) = self.block(|s| s.place(arg)).ok()?;
        let shape = self.items.types.fragment(&self.place_type(&place))?;
        Some(Value::Scalar(
            Expr::int(shape.per_thread() as i128, ScalarTy::I32),
            ScalarTy::I32,
        ))
    }

    /// The `x` registers of a fragment argument, with its tile.
    fn fragment_operand(&mut self, a: Node<'t>, op: &str) -> R<(Vec<Place>, FragmentShape)> {
        let place = self.place(a)?;
        let ty = self.place_type(&place);
        let shape = self.items.types.fragment(&ty).ok_or_else(|| {
            self.unsupported(
                a,
                format!(
                    "`wmma::{op}` on a `{}`, which is not a warp matrix fragment",
                    ty.describe()
                ),
            )
        })?;
        let x = self.field(place, "x", a)?;
        let regs = self.registers(x, shape.per_thread(), a)?;
        Ok((regs, shape))
    }

    /// The places of the `count` registers of a fragment's `x` array.
    fn registers(&mut self, x: Place, count: u64, n: Node) -> R<Vec<Place>> {
        match x {
            Place::Agg(_, elems) => Ok(elems),
            Place::Mem {
                array,
                index,
                ty: CType::Array(e, _),
                volatile,
            } => self.elements(array, &index, volatile, &e, count, n),
            Place::Choice { base, arms } => {
                // Register k is register k of the chosen array.
                let mut per_arm = Vec::new();
                for (a, p) in arms {
                    per_arm.push((a, self.registers(p, count, n)?));
                }
                Ok((0..count as usize)
                    .map(|k| Place::Choice {
                        base: base.clone(),
                        arms: per_arm.iter().map(|(a, r)| (*a, r[k].clone())).collect(),
                    })
                    .collect())
            }
            _ => Err(self.unsupported(n, "a fragment held where warpsafe cannot index it")),
        }
    }

    /// Whether the tile is row-major in memory: a matrix operand's own
    /// layout, or an accumulator's `wmma::mem_row_major` / `mem_col_major`
    /// argument.
    fn tile_layout(
        &self,
        shape: &FragmentShape,
        layout: Option<Node<'t>>,
        op: &str,
        n: Node<'t>,
    ) -> R<bool> {
        if let Some(own) = shape.row_major {
            return Ok(own);
        }
        let Some(l) = layout else {
            return Err(self.unsupported(
                n,
                format!("`wmma::{op}` of an accumulator without its memory layout"),
            ));
        };
        let text = self.text(l).trim();
        if text.ends_with("mem_row_major") {
            Ok(true)
        } else if text.ends_with("mem_col_major") {
            Ok(false)
        } else {
            Err(self.unsupported(
                l,
                "a memory layout that is not `wmma::mem_row_major` or `wmma::mem_col_major`",
            ))
        }
    }

    /// The leading dimension (`ldm`), as a 64-bit offset.
    fn leading_dimension(&mut self, a: Node<'t>) -> R<Expr> {
        let v = self.value(a)?;
        let (e, t) = self.scalar_of(v, a)?;
        if !t.is_integer() {
            return Err(self.unsupported(a, "a leading dimension that is not an integer"));
        }
        Ok(i64_expr(e, t))
    }
}

/// The offset (in elements of the pointer) of this thread's register `k`:
/// tile element `32k + lane`, the lane being the thread's linear index mod
/// 32.
fn tile_offset(shape: &FragmentShape, k: u64, ldm: &Expr, row_major: bool) -> Expr {
    let u = ScalarTy::U32;
    let lane = Expr::binary(
        BinOp::Rem,
        u,
        super::builtins::linear_tid(),
        Expr::int(32, u),
    );
    let e = if k == 0 {
        lane
    } else {
        Expr::binary(BinOp::Add, u, lane, Expr::int((32 * k) as i128, u))
    };
    let cols = Expr::int(shape.cols as i128, u);
    let r = Expr::binary(BinOp::Div, u, e.clone(), cols.clone());
    let c = Expr::binary(BinOp::Rem, u, e, cols);
    let (major, minor) = if row_major { (r, c) } else { (c, r) };
    let i = ScalarTy::I64;
    Expr::binary(
        BinOp::Add,
        i,
        Expr::binary(BinOp::Mul, i, i64_expr(major, u), ldm.clone()),
        i64_expr(minor, u),
    )
}
