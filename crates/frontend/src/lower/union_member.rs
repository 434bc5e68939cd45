//! Member access on unions (`u.word`, `u.lo`): the union's storage (see
//! the crate's `unions.rs`) seen at the member's type, through a pointer
//! cast as `*(T *)((char *)&u + offset)` would be, so reads and writes of a
//! member are accesses of the storage's slots (`view.rs` composes wider
//! members from them).
//!
//! Invariant: a union object is in memory (`local_place` puts union locals
//! there); a union held in registers (a by-value kernel parameter) has no
//! member access, which is refused with the reason.

use super::value::{Place, Value};
use super::{Lowerer, R};
use crate::types::{CType, UnionMember};
use tree_sitter::Node;

impl Lowerer<'_, '_> {
    /// The members of `ty`, if it is a union.
    pub(super) fn union_members(&self, ty: &CType) -> Option<&Vec<UnionMember>> {
        match ty {
            CType::Struct(name) => self.items.types.unions.get(name),
            _ => None,
        }
    }

    /// Member `name` of the union object `base` (of type `ty`).
    pub(super) fn union_member(
        &mut self,
        base: Place,
        ty: &CType,
        name: &str,
        n: Node,
    ) -> R<Place> {
        let members = self.union_members(ty).cloned().unwrap_or_default();
        let Some((_, mty, off)) = members.iter().find(|(m, _, _)| m == name).cloned() else {
            return Err(self.unsupported(n, format!("`{}` has no member `{name}`", ty.describe())));
        };
        if matches!(base, Place::Agg(..)) {
            return Err(self.unsupported(
                n,
                format!(
                    "a member of a `{}` held in registers (a union passed by value to a kernel)",
                    ty.describe()
                ),
            ));
        }
        let Value::Ptr(p) = self.address_of(base, n)? else {
            return Err(self.unsupported(n, "the address of a union"));
        };
        // The storage's scalar: members start at multiples of its size.
        let slot = *self
            .slots(ty, n)?
            .first()
            .ok_or_else(|| self.unsupported(n, "a union without storage"))?;
        let step = slot.size_bytes().max(1);
        let slot = CType::Scalar(slot);
        let p = self.cast_ptr(p, slot, n)?;
        let p = self.ptr_add(
            p,
            warpsafe_ir::Expr::int(i128::from(off / step), warpsafe_ir::ScalarTy::I64),
            n,
        )?;
        let p = self.cast_ptr(p, mty, n)?;
        self.deref(p, n)
    }
}
