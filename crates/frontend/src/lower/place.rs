//! Lvalues: names, fields, subscripts and dereferences, and pointer
//! arithmetic in slot units.

use super::value::{add_offset, i64_expr, mul_offset, Place, Ptr, Value};
use super::{Binding, Lowerer, R};
use crate::syntax::named_children;
use crate::types::CType;
use tree_sitter::Node;
use warpsafe_ir::{ArrayOrigin, AssumeOrigin, BinOp, Expr, MemSpace, ScalarTy, StmtKind};

impl<'t> Lowerer<'_, 't> {
    /// The place an lvalue expression denotes.
    pub fn place(&mut self, n: Node<'t>) -> R<Place> {
        match n.kind() {
            "identifier" | "type_identifier" => {
                let name = self.text(n);
                match self.lookup(name) {
                    Some(Binding::Place(p)) => Ok(p),
                    Some(Binding::Unusable(d)) => Err(d),
                    Some(_) => Err(self.unsupported(n, format!("`{name}` is not assignable"))),
                    None => match self.global(name, n)? {
                        Some(p) => Ok(p),
                        None => Err(self.undeclared(n)),
                    },
                }
            }
            "qualified_identifier" => {
                let name = n
                    .child_by_field_name("name")
                    .ok_or_else(|| self.unsupported(n, "name"))?;
                // A qualified name never names a local: look past them.
                self.without_locals(|s| s.place(name))
            }
            "parenthesized_expression" => {
                let inner = *named_children(n)
                    .first()
                    .ok_or_else(|| self.unsupported(n, "empty parentheses"))?;
                self.place(inner)
            }
            "field_expression" => {
                let arg = n
                    .child_by_field_name("argument")
                    .ok_or_else(|| self.unsupported(n, "field"))?;
                let field = n
                    .child_by_field_name("field")
                    .ok_or_else(|| self.unsupported(n, "field"))?;
                let arrow = n.child_by_field_name("operator").map(|o| self.text(o)) == Some("->");
                let base = if arrow && arg.kind() == "this" {
                    self.this_place(arg)?
                } else if arrow {
                    self.pointee(arg, n)?
                } else {
                    self.place(arg)?
                };
                self.field(base, self.text(field), n)
            }
            "subscript_expression" => {
                let arg = n
                    .child_by_field_name("argument")
                    .ok_or_else(|| self.unsupported(n, "subscript"))?;
                let idx_list = n
                    .child_by_field_name("indices")
                    .ok_or_else(|| self.unsupported(n, "subscript"))?;
                let idx_node = *named_children(idx_list)
                    .first()
                    .ok_or_else(|| self.unsupported(n, "empty subscript"))?;
                // A by-value array field of an aggregate parameter.
                if let Ok((block, Place::Agg(CType::Array(..), elems))) =
                    self.block(|s| s.place(arg))
                {
                    let i = crate::consteval::eval(self.syn, idx_node, self).ok_or_else(|| {
                        self.unsupported(
                            idx_node,
                            "a non-constant index into an array passed by value",
                        )
                    })?;
                    self.out.extend(block);
                    return usize::try_from(i)
                        .ok()
                        .and_then(|i| elems.get(i).cloned())
                        .ok_or_else(|| {
                            self.unsupported(idx_node, "an index outside an array passed by value")
                        });
                }
                if let Some((m, this)) = self.index_method(arg, idx_node, n)? {
                    return self.call_place(n, |s| s.inline(&m, None, &[idx_node], n, Some(this)));
                }
                let base = self.value(arg)?;
                let (idx, ity) = {
                    let v = self.value(idx_node)?;
                    self.scalar_of(v, idx_node)?
                };
                let ptr = self.as_ptr(base, arg)?;
                let moved = self.ptr_add(ptr, i64_expr(idx, ity), n)?;
                self.deref(moved, n)
            }
            "pointer_expression" => {
                let op = n.child_by_field_name("operator").map(|o| self.text(o));
                let arg = n
                    .child_by_field_name("argument")
                    .ok_or_else(|| self.unsupported(n, "pointer"))?;
                if op != Some("*") {
                    return Err(self.unsupported(n, "taking the address of an address"));
                }
                self.pointee(arg, n)
            }
            // A call of a function returning a reference (`at(i) = x`).
            // Other calls are refused before being lowered: place() is
            // tried speculatively (reference parameters, method receivers),
            // and lowering each nested call twice would be exponential.
            "call_expression" if self.may_return_reference(n) => self.call_place(n, |s| s.call(n)),
            "cast_expression" => {
                // `(T&)x` style casts of lvalues: keep the place.
                let v = n
                    .child_by_field_name("value")
                    .ok_or_else(|| self.unsupported(n, "cast"))?;
                self.place(v)
            }
            _ => Err(self.unsupported(n, format!("`{}` as an assignable location", self.text(n)))),
        }
    }

    /// The `operator[]` that `arg[idx]` (node `n`) calls, with the object
    /// it is called on, when `arg` is an object of a class defining one
    /// (the object's statements are then emitted).
    pub(super) fn index_method(
        &mut self,
        arg: Node<'t>,
        idx: Node<'t>,
        n: Node<'t>,
    ) -> R<Option<(crate::items::FnItem<'t>, Place)>> {
        // Only a named object (`sdata[i]`, `v.data[i]`, `(*p)[i]`): `arg`
        // is lowered here and again by the caller when it is not one,
        // which must not repeat at every level of `a[i][j][k]`.
        if !matches!(
            arg.kind(),
            "identifier" | "field_expression" | "parenthesized_expression" | "pointer_expression"
        ) {
            return Ok(None);
        }
        let Ok((block, object)) = self.block(|s| s.place(arg)) else {
            return Ok(None);
        };
        let owner = match &object {
            Place::Agg(CType::Struct(s), _)
            | Place::Mem {
                ty: CType::Struct(s),
                ..
            } => s.clone(),
            _ => return Ok(None),
        };
        let defined = self.class_methods(&owner, "operator[]");
        if defined.is_empty() {
            return Ok(None);
        }
        let Some(m) = self.resolve_overload(&defined, None, &[idx], n)? else {
            return Err(self.unsupported(n, format!("no `{owner}::operator[]` accepts this index")));
        };
        self.out.extend(block);
        let this = self.freeze(object, arg);
        Ok(Some((m, this)))
    }

    pub fn undeclared(&self, n: Node) -> warpsafe_source::Diagnostic {
        warpsafe_source::Diagnostic::error(
            "undeclared",
            format!("use of undeclared identifier `{}`", self.text(n)),
        )
        .at(self.span(n))
    }

    /// A field of an aggregate place.
    /// The place as it stands now, for a reference (bound once, C++
    /// [dcl.init.ref]): index expressions and a choice's array id that read
    /// variables are copied into fresh temporaries, so later writes to those
    /// variables do not move the reference.
    pub fn freeze(&mut self, p: Place, n: Node) -> Place {
        match p {
            Place::Mem {
                array,
                index,
                ty,
                volatile,
            } => Place::Mem {
                array,
                index: self.hold(index, ScalarTy::I64, n),
                ty,
                volatile,
            },
            Place::Agg(t, fields) => {
                Place::Agg(t, fields.into_iter().map(|f| self.freeze(f, n)).collect())
            }
            Place::AtomicRef(inner, t, s) => {
                Place::AtomicRef(Box::new(self.freeze(*inner, n)), t, s)
            }
            Place::View(v) => {
                let base = self.hold(v.base, ScalarTy::I64, n);
                Place::View(Box::new(super::view::View { base, ..*v }))
            }
            Place::Choice { base, arms } => Place::Choice {
                base: self.hold(base, ScalarTy::U32, n),
                arms: arms
                    .into_iter()
                    .map(|(a, p)| (a, self.freeze(p, n)))
                    .collect(),
            },
            // Variables are bound by identity.
            p @ (Place::Var(..) | Place::PtrVar { .. } | Place::FnVar(_)) => p,
        }
    }

    /// `e` as it is now: copied into a fresh temporary when it reads a
    /// variable (which later code may change), else itself.
    pub fn hold(&mut self, e: Expr, ty: ScalarTy, n: Node) -> Expr {
        let mut reads_vars = false;
        e.walk(&mut |x| reads_vars |= matches!(x, Expr::Var(_)));
        if !reads_vars {
            return e;
        }
        let span = self.span(n);
        let t = self.temp(ty, span);
        self.emit(StmtKind::Assign { dst: t, value: e }, span);
        Expr::Var(t)
    }

    pub fn field(&mut self, base: Place, name: &str, n: Node) -> R<Place> {
        if let Place::View(v) = &base {
            return self.view_field(v, name, n);
        }
        if let Place::Choice { base, arms } = base {
            let mut out = Vec::new();
            for (a, p) in arms {
                out.push((a, self.field(p, name, n)?));
            }
            return Ok(Place::Choice { base, arms: out });
        }
        let ty = match &base {
            Place::Agg(ty, _) => ty.clone(),
            Place::Mem { ty, .. } => ty.clone(),
            _ => return Err(self.unsupported(n, format!("field `{name}` of a non-aggregate"))),
        };
        if self.union_members(&ty).is_some() {
            return self.union_member(base, &ty, name, n);
        }
        let fields =
            self.items.types.fields(&ty).ok_or_else(|| {
                self.unsupported(n, format!("field `{name}` of `{}`", ty.describe()))
            })?;
        let pos = fields
            .iter()
            .position(|(f, _, _)| f == name)
            .ok_or_else(|| {
                self.unsupported(n, format!("`{}` has no field `{name}`", ty.describe()))
            })?;
        match base {
            Place::Agg(_, places) => places
                .get(pos)
                .cloned()
                .ok_or_else(|| self.unsupported(n, "field layout")),
            Place::Mem {
                array,
                index,
                volatile,
                ..
            } => {
                let (_, fty, off) = fields[pos].clone();
                Ok(Place::Mem {
                    array,
                    index: add_offset(index, Expr::int(off as i128, ScalarTy::I64)),
                    ty: fty,
                    volatile,
                })
            }
            _ => Err(self.unsupported(n, "field access")),
        }
    }

    pub fn as_ptr(&self, v: Value, n: Node) -> R<Ptr> {
        match v {
            Value::Ptr(p) => Ok(p),
            // The literal `0` as a pointer is null.
            Value::Scalar(e, t) if t.is_integer() && e.as_const_int() == Some(0) => Ok(Ptr {
                target: None,
                choice: None,
                offset: Expr::int(0, ScalarTy::I64),
                pointee: CType::Void,
                volatile: false,
                null_if: None,
            }),
            other => {
                Err(self.unsupported(n, format!("indirection through a `{}`", other.ty_desc())))
            }
        }
    }

    /// `ptr + k` (in elements of the pointee).
    pub fn ptr_add(&self, ptr: Ptr, k: Expr, n: Node) -> R<Ptr> {
        let size = self.ptr_step(&ptr, n)?;
        let offset = add_offset(ptr.offset, mul_offset(k, size));
        Ok(Ptr { offset, ..ptr })
    }

    /// The object the pointer expression `ptr` points at (`*ptr`,
    /// `ptr->f`), dereferenced at `n`.
    pub fn pointee(&mut self, ptr: Node<'t>, n: Node<'t>) -> R<Place> {
        let v = self.value(ptr)?;
        let ptr = self.as_ptr(v, ptr)?;
        self.deref(ptr, n)
    }

    /// The object a pointer points at. Dereferencing the null (or a never
    /// assigned) pointer is an assertion failure at the access; the access
    /// itself then goes to a one-slot stand-in array that no run reaches.
    pub fn deref(&mut self, ptr: Ptr, n: Node) -> R<Place> {
        if let Some(c) = &ptr.choice {
            if !self.matches_slots(&ptr) {
                // The same reinterpretation in each array (`(int4 *)` over
                // one of two `half` matrices), when their elements are of
                // one size, so the offset means the same in each.
                let sizes: std::collections::HashSet<Option<&u64>> =
                    c.arrays.iter().map(|a| self.slot_bytes.get(a)).collect();
                if sizes.len() != 1 || sizes.contains(&None) {
                    return Err(self.unsupported(
                        n,
                        "memory of other element sizes through a pointer into arrays of different element sizes",
                    ));
                }
                let mut arms = Vec::new();
                for a in &c.arrays {
                    let one = Ptr {
                        target: Some(*a),
                        choice: None,
                        ..ptr.clone()
                    };
                    arms.push((*a, self.view_place(*a, one, n)?));
                }
                return Ok(Place::Choice {
                    base: c.base.clone(),
                    arms,
                });
            }
            return Ok(self.choice_place(c, &ptr));
        }
        let array = match ptr.target {
            Some(a) => a,
            None => {
                let span = self.span(n);
                let message = format!("null pointer dereference: `{}`", self.text(n));
                self.emit(
                    StmtKind::Assert {
                        cond: Expr::bool(false),
                        message,
                    },
                    span,
                );
                self.emit(
                    StmtKind::Assume {
                        cond: Expr::bool(false),
                        origin: AssumeOrigin::Assume,
                    },
                    span,
                );
                let slots = self
                    .slots(&ptr.pointee, n)
                    .unwrap_or_else(|_| vec![ScalarTy::U8]);
                self.new_array(
                    "null",
                    MemSpace::Global,
                    ArrayOrigin::DeviceGlobal,
                    &ptr.pointee,
                    vec![1],
                    slots,
                    span,
                )
            }
        };
        if !self.matches_slots(&ptr) {
            return self.view_place(array, ptr, n);
        }
        Ok(Place::Mem {
            array,
            index: ptr.offset,
            ty: ptr.pointee,
            volatile: ptr.volatile,
        })
    }

    /// `p - q` in elements, for pointers into the same array.
    pub fn ptr_diff(&self, a: Ptr, b: Ptr, n: Node) -> R<Value> {
        if a.target != b.target || a.choice.is_some() || b.choice.is_some() {
            return Err(self.unsupported(n, "difference of pointers into different arrays"));
        }
        let size = self.ptr_step(&a, n)?;
        let diff = Expr::binary(BinOp::Sub, ScalarTy::I64, a.offset, b.offset);
        let diff = if size == 1 {
            diff
        } else {
            Expr::binary(
                BinOp::Div,
                ScalarTy::I64,
                diff,
                Expr::int(size as i128, ScalarTy::I64),
            )
        };
        Ok(Value::Scalar(diff, ScalarTy::I64))
    }

    /// Pointer casts: into an array of equal-size slots, the offset is
    /// counted anew for the new pointee (see `view.rs`); otherwise it is kept,
    /// which needs the slots of both pointee types to have one byte size.
    pub fn cast_ptr(&mut self, ptr: Ptr, to: CType, n: Node) -> R<Ptr> {
        if let Some(p) = self.rebase_ptr(ptr.clone(), to.clone(), n)? {
            return Ok(p);
        }
        if to == CType::Void {
            return Ok(Ptr { pointee: to, ..ptr });
        }
        if ptr.pointee == CType::Void {
            return Ok(Ptr { pointee: to, ..ptr });
        }
        let from_slots = self.slots(&ptr.pointee, n)?;
        let to_slots = self.slots(&to, n)?;
        let size = from_slots.first().map(|t| t.size_bytes());
        let same = from_slots
            .iter()
            .chain(&to_slots)
            .all(|t| Some(t.size_bytes()) == size);
        if !same {
            return Err(self.unsupported(
                n,
                format!(
                    "reinterpreting `{}` memory as `{}` (element sizes differ)",
                    ptr.pointee.describe(),
                    to.describe()
                ),
            ));
        }
        Ok(Ptr { pointee: to, ..ptr })
    }
}
