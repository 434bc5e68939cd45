//! Host structs built with a brace initialiser (issue 9): cuda-samples'
//! volume filter launches `cudaExtent extent = {VOLUMERENDER_TF_PREINTSTEPS,
//! 0, 0}; dim3 gridSize(iDivUp(extent.width, blockSize.x));
//! d_integrate_trapezoidal<<<gridSize, blockSize>>>(extent, ...)`, and the
//! kernel's bounds check `x >= extent.width` keeps its threads apart only
//! with the width known. A field read (`extent.width`) translates to its
//! initialiser, and a struct passed by value gives each field of the
//! kernel's flattened parameter its value.
//!
//! **Invariant:** only a local of the launching function (the declaration
//! visible at the read) declared with a brace list of plain expressions
//! (no nested braces, no designators), not written between its
//! declaration and the read (a field assignment, `&x` or a call that may
//! take it by reference is a write of the whole variable), of a struct
//! type (not a union, not rejected, without methods, constructors or
//! default member initialisers) whose fields are all scalars, is read:
//! its `i`-th field is the `i`-th element, or 0 past the list's end
//! (aggregate initialisation).

use super::Cx;
use crate::syntax::named_children;
use crate::types::CType;
use tree_sitter::Node;
use warpsafe_ir::{Expr, ScalarTy};

/// A brace-initialised struct local: its type's name and its fields'
/// names and types, in order, with the list's elements.
pub(super) struct BraceInit<'t> {
    pub(super) type_name: String,
    pub(super) fields: Vec<(String, ScalarTy)>,
    elements: Vec<Node<'t>>,
}

impl<'t> Cx<'_, 't> {
    /// The brace initialiser of the struct local `name`, when it still
    /// holds it at `read` (see the module's invariant).
    pub(super) fn brace_init(&self, name: &str, read: usize) -> Option<BraceInit<'t>> {
        if self.helper || self.locals.contains_key(name) {
            return None;
        }
        // The declaration visible at the read (sibling blocks may declare
        // the name again; writes are counted over all of them).
        let var = self.host.var_at(name, read)?;
        let init = var.init?;
        if init.kind() != "initializer_list" || !self.host.unchanged(name, var.decl, read) {
            return None;
        }
        let decl = init.parent()?.parent()?;
        let ty = decl.child_by_field_name("type")?;
        let type_name = self.type_name(ty)?;
        let types = &self.items.types;
        if !self.plain_struct(&type_name) {
            return None;
        }
        // A constructor, not the list, makes the object; a default member
        // initialiser, not 0, fills a field past the list's end.
        let special = self
            .items
            .classes
            .get(&type_name)
            .is_some_and(|c| c.has_ctor || c.dtor.is_some() || !c.field_inits.is_empty());
        if special {
            return None;
        }
        let fields = types.with_struct(&type_name, |d| {
            d.fields
                .iter()
                .map(|(f, t)| match t {
                    CType::Scalar(s) => Some((f.clone(), *s)),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()
        })??;
        let elements = named_children(init)
            .into_iter()
            .filter(|e| e.kind() != "comment")
            .collect::<Vec<_>>();
        if elements.len() > fields.len()
            || elements
                .iter()
                .any(|e| matches!(e.kind(), "initializer_list" | "initializer_pair"))
        {
            return None;
        }
        Some(BraceInit {
            type_name,
            fields,
            elements,
        })
    }

    /// The name of the struct type `ty` names (`Extent`, `struct Extent`).
    pub(super) fn type_name(&self, ty: Node) -> Option<String> {
        match ty.kind() {
            "type_identifier" => Some(self.syn.text(ty).to_string()),
            "struct_specifier" => Some(self.syn.text(ty.child_by_field_name("name")?).to_string()),
            _ => None,
        }
    }

    /// Whether `type_name` is a struct that is no union, not rejected and
    /// has no methods (a method may change an object without a write the
    /// analysis sees: `e.setWidth(n)`).
    pub(super) fn plain_struct(&self, type_name: &str) -> bool {
        let types = &self.items.types;
        !types.unions.contains_key(type_name)
            && !types.rejected.contains_key(type_name)
            && !self
                .items
                .fns
                .iter()
                .any(|f| f.owner.as_deref() == Some(type_name))
    }

    /// Field `i` of a brace-initialised struct, as a kernel expression of
    /// the field's type.
    pub(super) fn brace_field(&self, b: &BraceInit<'t>, i: usize, depth: u32) -> Option<Expr> {
        let (_, fty) = *b.fields.get(i)?;
        if !fty.is_integer() {
            return None;
        }
        match b.elements.get(i) {
            None => Some(Expr::int(0, fty)),
            Some(e) => {
                let (e, ty) = self.tr(*e, depth + 1)?;
                Some(super::convert(e, ty, fty))
            }
        }
    }
}
