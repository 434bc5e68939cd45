//! Warp matrix fragments (`nvcuda::wmma::fragment<Use, M, N, K, T, Layout>`,
//! tensor cores) as types. A fragment is what each thread of a warp holds
//! of an M×K (`matrix_a`), K×N (`matrix_b`) or M×N (`accumulator`) tile:
//! its `x[num_elements]` registers, `num_elements` = the tile's elements /
//! 32. The type is a struct with that one array field, named as written
//! with its arguments resolved, cached in `TypeTable::fragments` with its
//! shape (which `lower::wmma` uses to address the tile).
//!
//! Invariant: only element types with a scalar model are accepted (`half`,
//! `float`, `double`, `int`, 8-bit integers, `precision::tf32` held as
//! `float`, `__nv_bfloat16`); sub-byte fragments are refused by name.

use crate::decl::TypeCx;
use crate::syntax::named_children;
use crate::types::{CType, StructDef};
use tree_sitter::Node;
use warpsafe_ir::ScalarTy;
use warpsafe_source::Diagnostic;

/// Which operand of `D = A×B + C` a fragment holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FragmentUse {
    MatrixA,
    MatrixB,
    Accumulator,
}

/// The tile behind a fragment type.
#[derive(Clone, Debug, PartialEq)]
pub struct FragmentShape {
    pub usage: FragmentUse,
    /// Rows and columns of the tile (M×K, K×N or M×N).
    pub rows: u64,
    pub cols: u64,
    pub elem: ScalarTy,
    /// The fragment's own layout (`row_major` is `Some(true)`); an
    /// accumulator has none (its loads and stores name one).
    pub row_major: Option<bool>,
}

impl FragmentShape {
    /// Elements each of the warp's 32 threads holds.
    pub fn per_thread(&self) -> u64 {
        self.rows * self.cols / 32
    }
}

type Res<T> = Result<T, Diagnostic>;

impl TypeCx<'_> {
    /// `fragment<Use, M, N, K, T[, Layout]>`.
    pub fn fragment_type(&self, n: Node, args: &[Node]) -> Res<CType> {
        let refuse = |what: String| {
            Diagnostic::error(
                "unsupported",
                format!("unsupported: a warp matrix fragment {what}"),
            )
            .at(self.syn.span(n))
        };
        let [usage, m, nn, k, elem, rest @ ..] = args else {
            return Err(refuse(
                "without its five arguments (use, M, N, K, element type)".into(),
            ));
        };
        let last = |a: &Node| {
            let t = self.syn.text(*a).trim();
            t.rsplit("::").next().unwrap_or(t).trim().to_string()
        };
        let usage = match last(usage).as_str() {
            "matrix_a" => FragmentUse::MatrixA,
            "matrix_b" => FragmentUse::MatrixB,
            "accumulator" => FragmentUse::Accumulator,
            other => return Err(refuse(format!("of use `{other}`"))),
        };
        let dim = |a: &Node| {
            let inner = if a.kind() == "type_descriptor" {
                a.child_by_field_name("type").unwrap_or(*a)
            } else {
                *a
            };
            crate::consteval::eval(self.syn, inner, self.consts)
                .filter(|v| (1..=256).contains(v))
                .map(|v| v as u64)
                .ok_or_else(|| {
                    refuse(format!(
                        "whose size `{}` is not a constant",
                        self.syn.text(*a)
                    ))
                })
        };
        let (m, nn, k) = (dim(m)?, dim(nn)?, dim(k)?);
        let elem_text = self.syn.text(*elem).trim().to_string();
        let elem_ty = match last(elem).as_str() {
            "tf32" if elem_text.contains("precision") && !elem_text.contains("experimental") => {
                ScalarTy::F32
            }
            "bf16" if elem_text.contains("precision") && !elem_text.contains("experimental") => {
                ScalarTy::Bf16
            }
            "b1" | "u4" | "s4" => {
                return Err(refuse(format!(
                    "of `{elem_text}` elements (sub-byte fragments are not modelled)"
                )))
            }
            _ => match self.type_descriptor(*elem)? {
                CType::Scalar(t)
                    if matches!(
                        t,
                        ScalarTy::F16
                            | ScalarTy::Bf16
                            | ScalarTy::F32
                            | ScalarTy::F64
                            | ScalarTy::I32
                            | ScalarTy::U8
                            | ScalarTy::I8
                    ) =>
                {
                    t
                }
                other => return Err(refuse(format!("of `{}` elements", other.describe()))),
            },
        };
        let row_major = match rest.first().map(last).as_deref() {
            None => None,
            Some("row_major") => Some(true),
            Some("col_major") => Some(false),
            Some(other) => return Err(refuse(format!("with layout `{other}`"))),
        };
        let (rows, cols) = match usage {
            FragmentUse::MatrixA => (m, k),
            FragmentUse::MatrixB => (k, nn),
            FragmentUse::Accumulator => (m, nn),
        };
        if (rows * cols) % 32 != 0 {
            return Err(refuse(format!(
                "of {rows}×{cols} elements (not a multiple of 32)"
            )));
        }
        if usage != FragmentUse::Accumulator && row_major.is_none() {
            return Err(refuse("of a matrix operand without a layout".into()));
        }
        let shape = FragmentShape {
            usage,
            rows,
            cols,
            elem: elem_ty,
            row_major,
        };
        let key = format!(
            "wmma::fragment<{}, {m}, {nn}, {k}, {}{}>",
            match usage {
                FragmentUse::MatrixA => "matrix_a",
                FragmentUse::MatrixB => "matrix_b",
                FragmentUse::Accumulator => "accumulator",
            },
            crate::types::c_name(elem_ty),
            match row_major {
                None => "",
                Some(true) => ", row_major",
                Some(false) => ", col_major",
            }
        );
        if !self.types.is_struct(&key) {
            let def = StructDef {
                fields: vec![(
                    "x".to_string(),
                    CType::Array(Box::new(CType::Scalar(elem_ty)), Some(shape.per_thread())),
                )],
                min_align: 0,
            };
            self.types
                .fragments
                .borrow_mut()
                .insert(key.clone(), (def, shape));
        }
        Ok(CType::Struct(key))
    }
}

/// Whether a template type named `fragment` with these scopes and
/// arguments is wmma's (five or six arguments, the first a fragment use).
pub fn is_wmma_fragment(syn: &crate::syntax::Syntax, scopes: &[String], args: Node) -> bool {
    let list = named_children(args);
    let first_is_use = list.first().is_some_and(|a| {
        let t = syn.text(*a);
        t.ends_with("matrix_a") || t.ends_with("matrix_b") || t.ends_with("accumulator")
    });
    (scopes.is_empty() || scopes.iter().any(|s| s.contains("wmma")))
        && first_is_use
        && (5..=6).contains(&list.len())
}
