//! Fields of a struct the launching function holds by value (issue 9).
//! cuda-samples' dct8x8 sizes its grid from a by-value parameter:
//!
//! ```c
//! float WrapperCUDA1(byte *ImgSrc, byte *ImgDst, int Stride, ROI Size) {
//!     cudaMallocPitch((void **)(&Dst), &DstStride, Size.width * sizeof(float), Size.height);
//!     dim3 grid(Size.width / BLOCK_SIZE, Size.height / BLOCK_SIZE);
//! ```
//!
//! The grid and the pitch both read `Size.width`, a value the relation
//! cannot express over the kernel's parameters. It becomes a host
//! variable (`host_unknowns.rs`), `WrapperCUDA1::Size.width`, so that the
//! facts that read it are linked: the grid's columns stay within the
//! pitch's row.
//!
//! **Invariant:** the field is an integer field of a struct type (not a
//! union, not rejected, without methods, and the launching function calls
//! nothing through the variable, `v.reset()` or `v()`: a method, also an
//! inherited one, may change the object without a write `host_writes.rs`
//! sees) and the variable is a local or parameter of the launching
//! function declared by value (no pointer, reference or array), the
//! declaration visible at the read, unchanged between its declaration
//! and the read (a field assignment, `&x` or a call that may take it by
//! reference is a write of the whole variable).
//! Then every read of the field sees the value it had at the declaration:
//! one variable per field and declaration.

use super::Cx;
use crate::syntax::named_children;
use crate::types::CType;
use tree_sitter::Node;
use warpsafe_ir::{Expr, ScalarTy};

impl<'t> Cx<'_, 't> {
    /// Field `field` of the by-value struct `name` read at `read`, as a
    /// host variable (see the module's invariant).
    pub(super) fn struct_field(
        &self,
        name: &str,
        field: &str,
        read: usize,
    ) -> Option<(Expr, ScalarTy)> {
        let unknowns = self.unknowns.as_ref()?;
        if self.helper || self.locals.contains_key(name) {
            return None;
        }
        let var = self.host.var_at(name, read)?;
        if var.dim3 || var.scalar.is_some() || !self.host.unchanged(name, var.decl, read) {
            return None;
        }
        let ty = var.by_value_type?;
        let type_name = self.type_name(ty)?;
        let types = &self.items.types;
        // `typedef struct { ... } ROI;` names the struct through a typedef.
        let type_name = match types.typedefs.get(&type_name) {
            Some(CType::Struct(s)) => s.clone(),
            _ => type_name,
        };
        if !self.plain_struct(&type_name) || calls_through(self, unknowns.def, name) {
            return None;
        }
        let fty = types.with_struct(&type_name, |d| {
            d.fields.iter().find_map(|(f, t)| match t {
                CType::Scalar(s) if f == field && s.is_integer() => Some(*s),
                _ => None,
            })
        })??;
        let e = unknowns.reg.var(
            format!("{}::{name}.{field}", unknowns.function),
            var.decl,
            fty,
        );
        Some((e, fty))
    }
}

/// Whether `def` calls a function through `name` (`name.m()`,
/// `name->m()`, `name()`).
fn calls_through(cx: &Cx<'_, '_>, def: Node, name: &str) -> bool {
    let mut stack = vec![def];
    while let Some(n) = stack.pop() {
        if n.kind() == "call_expression" {
            let mut f = n.child_by_field_name("function");
            while let Some(x) = f {
                match x.kind() {
                    "identifier" => {
                        if cx.syn.text(x) == name {
                            return true;
                        }
                        break;
                    }
                    "field_expression" | "parenthesized_expression" => {
                        f = x
                            .child_by_field_name("argument")
                            .or_else(|| named_children(x).first().copied());
                    }
                    _ => break,
                }
            }
        }
        stack.extend(named_children(n));
    }
    false
}
