//! Warp-level data exchange: shuffles (`__shfl_sync` and its `_up`,
//! `_down`, `_xor` forms), votes (`__ballot_sync`, `__any_sync`,
//! `__all_sync`, `__activemask`), `__match_any_sync`, `__reduce_*_sync`,
//! and the cooperative-groups forms on a tile (`tile.shfl_down(v, d)`,
//! `tile.any(p)`, `cg::reduce(tile, v, op)`).
//!
//! Lowered as a sound abstraction for the static engine (seed 001's
//! treatment of values a thread cannot compute itself): the result is an
//! unknown value of its type (`Havoc`, whose reason names the intrinsic),
//! so an index built from it gives *possible* races, never provable ones.
//! The arguments are still evaluated (their reads are accesses). An
//! exchange orders no memory (CUDA guarantees no ordering for shuffles and
//! votes), so none is modelled.
//!
//! The mask-less forms of CUDA before 9 (`__shfl_down(v, d)`, `__ballot(p)`,
//! `__any(p)`, `__all(p)`, removed for sm_70 and later, still in older
//! code) are lowered the same way, with a warning: their value is any value
//! too, so the abstraction holds whichever lanes take part.
//!
//! Known gaps, stated in the README: the explorers reject the unknown value
//! (no lane-exact semantics yet), and a mask naming threads that do not
//! reach the call (for the mask-less forms, a warp that has diverged) is
//! not reported as divergence.

use super::overload::c_type;
use super::value::Value;
use super::{Lowerer, R};
use crate::types::CType;
use tree_sitter::Node;
use warpsafe_ir::ScalarTy;

/// Whether `name` is a warp exchange intrinsic this module lowers.
pub fn is_warp_exchange(name: &str) -> bool {
    matches!(
        name,
        "__shfl_sync"
            | "__shfl_up_sync"
            | "__shfl_down_sync"
            | "__shfl_xor_sync"
            | "__ballot_sync"
            | "__any_sync"
            | "__all_sync"
            | "__uni_sync"
            | "__activemask"
            | "__match_any_sync"
            | "__reduce_add_sync"
            | "__reduce_min_sync"
            | "__reduce_max_sync"
            | "__reduce_and_sync"
            | "__reduce_or_sync"
            | "__reduce_xor_sync"
    )
}

/// The mask-less warp intrinsics of CUDA before 9, removed for sm_70 and
/// later (see the module doc).
pub fn is_legacy_warp_exchange(name: &str) -> bool {
    matches!(
        name,
        "__shfl" | "__shfl_up" | "__shfl_down" | "__shfl_xor" | "__ballot" | "__any" | "__all"
    )
}

/// The warning a kernel that calls a mask-less warp intrinsic gets, once.
const LEGACY: &str = "a warp intrinsic without a mask (`__shfl_down`, `__ballot` and the rest \
of CUDA before 9, removed for sm_70 and later) is read as its `_sync` form over the whole warp: \
its value is any value, and whether the warp has diverged at the call is not checked";

/// Tile methods that exchange data among the tile's threads.
pub fn is_tile_exchange(method: &str) -> bool {
    matches!(
        method,
        "shfl" | "shfl_up" | "shfl_down" | "shfl_xor" | "any" | "all" | "ballot" | "match_any"
    )
}

impl<'t> Lowerer<'_, 't> {
    /// `__shfl_down_sync(mask, v, d)` and the rest, mask-less forms
    /// included (see the module doc).
    pub fn warp_exchange(&mut self, name: &str, args: &[Node<'t>], n: Node<'t>) -> R<Value> {
        let mut values = Vec::new();
        for a in args {
            values.push(self.value(*a)?);
        }
        // The exchanged value is the second argument (after the mask).
        let ty = match name {
            "__shfl_sync" | "__shfl_up_sync" | "__shfl_down_sync" | "__shfl_xor_sync" => {
                self.exchanged_type(values.get(1), name, n)?
            }
            // The mask-less shuffles: the value comes first.
            "__shfl" | "__shfl_up" | "__shfl_down" | "__shfl_xor" => {
                self.exchanged_type(values.first(), name, n)?
            }
            "__reduce_add_sync" | "__reduce_min_sync" | "__reduce_max_sync" => {
                match values.get(1).and_then(c_type) {
                    Some(CType::Scalar(ScalarTy::I32)) => CType::Scalar(ScalarTy::I32),
                    _ => CType::Scalar(ScalarTy::U32),
                }
            }
            "__any_sync" | "__all_sync" | "__uni_sync" | "__any" | "__all" => {
                CType::Scalar(ScalarTy::I32)
            }
            _ => CType::Scalar(ScalarTy::U32),
        };
        if is_legacy_warp_exchange(name) {
            self.warn_once(n, LEGACY);
        }
        self.exchange_result(name, &ty, n)
    }

    /// `tile.shfl_down(v, d)`, `tile.any(p)`, ... on a tile of `size`.
    pub fn tile_exchange(
        &mut self,
        size: u32,
        method: &str,
        args: &[Node<'t>],
        n: Node<'t>,
    ) -> R<Value> {
        self.group_exchange(&format!("thread_block_tile<{size}>"), method, args, n)
    }

    /// An exchange method of a group (`shfl`, `any`, `ballot`, ...) of a
    /// tile or a `coalesced_group`.
    pub fn group_exchange(
        &mut self,
        group: &str,
        method: &str,
        args: &[Node<'t>],
        n: Node<'t>,
    ) -> R<Value> {
        let mut values = Vec::new();
        for a in args {
            values.push(self.value(*a)?);
        }
        let ty = match method {
            "any" | "all" => CType::Scalar(ScalarTy::Bool),
            "ballot" | "match_any" => CType::Scalar(ScalarTy::U32),
            _ => self.exchanged_type(values.first(), method, n)?,
        };
        self.exchange_result(&format!("{group}::{method}"), &ty, n)
    }

    /// A value that depends on which lanes of the warp are active (the
    /// size of a coalesced group, a thread's rank in it): any `u32`.
    pub fn active_lanes_value(&mut self, what: &str, n: Node<'t>) -> R<Value> {
        let reason = format!("`{what}` depends on which lanes of the warp are active (any value)");
        self.unknown_value(&CType::Scalar(ScalarTy::U32), &reason, n)
    }

    /// `cg::reduce(tile, v, op)`: the reduction over the tile's values.
    /// The operator (`cg::plus<T>()`) is not evaluated: it has no effect.
    pub fn group_reduce(&mut self, args: &[Node<'t>], n: Node<'t>) -> R<Value> {
        let group = args
            .first()
            .ok_or_else(|| self.unsupported(n, "`reduce` without a group"))?;
        match self.value(*group)? {
            Value::Group(crate::types::GroupKind::Tile(_) | crate::types::GroupKind::Coalesced) => {
            }
            other => {
                return Err(self.unsupported(
                    n,
                    format!("`cg::reduce` over a `{}` (only tiles)", other.ty_desc()),
                ))
            }
        }
        let v = self.value(
            *args
                .get(1)
                .ok_or_else(|| self.unsupported(n, "`reduce` without a value"))?,
        )?;
        let ty = self.exchanged_type(Some(&v), "reduce", n)?;
        self.exchange_result("cg::reduce", &ty, n)
    }

    fn exchanged_type(&self, v: Option<&Value>, what: &str, n: Node<'t>) -> R<CType> {
        match v.and_then(c_type) {
            Some(t @ (CType::Scalar(_) | CType::Vector(..))) => Ok(t),
            Some(other) => {
                Err(self.unsupported(n, format!("`{what}` of a `{}` value", other.describe())))
            }
            None => Err(self.unsupported(n, format!("`{what}` without a value"))),
        }
    }

    fn exchange_result(&mut self, what: &str, ty: &CType, n: Node<'t>) -> R<Value> {
        let reason = format!("value from other lanes by `{what}` (warp exchange: any value)");
        self.unknown_value(ty, &reason, n)
    }
}
