//! The kernel entry: parameters (scalars, pointers into global memory,
//! by-value aggregates) and the body.

use super::value::Place;
use super::{Binding, Lowerer, R};
use crate::items::FnItem;
use crate::types::CType;
use tree_sitter::Node;
use warpsafe_ir::{ArrayOrigin, Expr, Kernel, MemSpace, Param, ParamKind, ScalarTy, VarKind};

impl<'t> Lowerer<'_, 't> {
    /// Lowers the kernel `f` (already chosen and instantiated).
    pub fn lower_kernel(mut self, f: &FnItem<'t>) -> R<(Kernel, Vec<warpsafe_source::Diagnostic>)> {
        let body = f
            .def
            .child_by_field_name("body")
            .ok_or_else(|| self.unsupported(f.def, "a kernel without a body"))?;
        let taken = self.scan_addr_taken(body);
        self.addr_taken.push(taken);
        // File-scope axioms first, where only file-scope names are visible.
        for &axiom in &self.items.axioms {
            let emitted = self.out.len();
            if let Err(d) = self.stmt(axiom) {
                // Dropping an assumption only weakens the check.
                self.out.truncate(emitted);
                self.warn(axiom, format!("axiom ignored: {}", d.message));
            }
        }
        self.launch_bounds(f);
        for p in self.params_of(f) {
            self.kernel_param(p, body)?;
        }
        self.stmt(body)?;
        self.kernel.body = std::mem::take(&mut self.out);
        Ok((self.kernel, self.warnings))
    }

    /// `__launch_bounds__(N[, ...])`: at most N threads per block. A bound
    /// that is not a positive constant is left out with a warning (no
    /// bound only widens the launches checked).
    fn launch_bounds(&mut self, f: &FnItem<'t>) {
        let mut cursor = f.def.walk();
        let Some(bounds) = f
            .def
            .children(&mut cursor)
            .find(|c| c.kind() == "launch_bounds")
        else {
            return;
        };
        let mut cursor = bounds.walk();
        let first = bounds.named_children(&mut cursor).next();
        match first.and_then(|n| crate::consteval::eval(self.syn, n, self)) {
            Some(n) if n > 0 => {
                self.kernel.launch.max_block_threads = Some(n as u64);
                let span = self.span(bounds);
                self.kernel.launch.notes.push((
                    format!("at most {n} threads per block from __launch_bounds__"),
                    Some(span),
                ));
            }
            _ => self.warn(
                bounds,
                "__launch_bounds__ without a positive constant thread count: not used",
            ),
        }
    }

    fn kernel_param(&mut self, p: Node<'t>, body: Node<'t>) -> R<()> {
        let q = crate::decl::quals(self.syn, p);
        let ty_node = p
            .child_by_field_name("type")
            .ok_or_else(|| self.unsupported(p, "parameter"))?;
        let base = self.type_cx().base_type(ty_node)?;
        let Some(d) = p.child_by_field_name("declarator") else {
            return Ok(()); // unnamed parameter: unused
        };
        let declared = self.type_cx().declarator(base, d)?;
        if declared.is_ref {
            return Err(self.unsupported(p, "reference parameters of a kernel"));
        }
        let name = self.text(declared.name).to_string();
        let c_type = declared.ty.describe();
        let span = self.span(p);
        let ty = match declared.ty {
            CType::Array(e, _) => CType::Pointer(e),
            t => t,
        };
        let (binding, kind) = match self.param_place(&name, &ty, (q.volatile, q.const_), p, body) {
            Ok((place, kind)) => (Binding::Place(place), kind),
            // An unused parameter need not be modelled; a use reports this.
            Err(d) if d.code == "unsupported" => {
                let reason = d.message.clone();
                (Binding::Unusable(d), ParamKind::Unmodelled(reason))
            }
            Err(d) => return Err(d),
        };
        self.kernel.params.push(Param {
            name: name.clone(),
            c_type,
            kind,
            span,
        });
        self.bind(&name, binding);
        Ok(())
    }

    /// The place of a kernel parameter and how the IR lists it.
    fn param_place(
        &mut self,
        name: &str,
        ty: &CType,
        (volatile, konst): (bool, bool),
        p: Node<'t>,
        body: Node<'t>,
    ) -> R<(Place, ParamKind)> {
        let quals = (volatile, konst);
        let span = self.span(p);
        match ty {
            CType::Scalar(t) => {
                let v = self.new_var(name, *t, VarKind::Param, span);
                Ok((Place::Var(v, *t), ParamKind::Scalar(v)))
            }
            CType::FnPtr => {
                let v = self.new_var(name, ScalarTy::U32, VarKind::Param, span);
                Ok((Place::FnVar(v), ParamKind::Scalar(v)))
            }
            CType::Pointer(pointee) => {
                let elem = if **pointee == CType::Void {
                    CType::Scalar(ScalarTy::U8)
                } else {
                    (**pointee).clone()
                };
                let slots = self.slots(&elem, p)?;
                let id = self.new_array(
                    name,
                    MemSpace::Global,
                    ArrayOrigin::Param,
                    &elem,
                    Vec::new(),
                    slots,
                    span,
                );
                let zero = Expr::int(0, ScalarTy::I64);
                if is_reassigned(self, body, name) {
                    let off = self.new_var(name, ScalarTy::I64, VarKind::Local, span);
                    self.ptr_targets
                        .insert(off, super::targets::PtrState::Static(Some(id)));
                    self.emit(
                        warpsafe_ir::StmtKind::Assign {
                            dst: off,
                            value: zero,
                        },
                        span,
                    );
                    Ok((
                        Place::PtrVar {
                            offset: off,
                            pointee: (**pointee).clone(),
                            volatile,
                        },
                        ParamKind::Array(id),
                    ))
                } else {
                    let ty = CType::Array(pointee.clone(), None);
                    Ok((
                        Place::Mem {
                            array: id,
                            index: zero,
                            ty,
                            volatile,
                        },
                        ParamKind::Array(id),
                    ))
                }
            }
            CType::Vector(..) | CType::Struct(_) => {
                let fields = self.items.types.fields(ty).ok_or_else(|| {
                    self.unsupported(p, format!("unknown type `{}`", ty.describe()))
                })?;
                let mut places = Vec::new();
                let mut vars = Vec::new();
                for (fname, fty, _) in fields {
                    let fty = match fty {
                        CType::Array(e, Some(n)) if n <= 64 => {
                            // A small array field passed by value: one
                            // parameter per element.
                            let mut elems = Vec::new();
                            for i in 0..n {
                                let (pl, k) = self.param_place(
                                    &format!("{name}.{fname}[{i}]"),
                                    &e,
                                    quals,
                                    p,
                                    body,
                                )?;
                                if let ParamKind::Scalar(v) = k {
                                    vars.push(v);
                                }
                                elems.push(pl);
                            }
                            places.push(Place::Agg(CType::Array(e, Some(n)), elems));
                            continue;
                        }
                        CType::Array(e, Some(n)) if konst => {
                            // A large array field of a `const` parameter
                            // (`__grid_constant__ const params p`): the
                            // kernel reads it like `__constant__` memory,
                            // which is where CUDA puts kernel parameters.
                            let slots = self.slots(&e, p)?;
                            let id = self.new_array(
                                &format!("{name}.{fname}"),
                                MemSpace::Constant,
                                ArrayOrigin::Constant,
                                &e,
                                vec![n],
                                slots,
                                span,
                            );
                            places.push(Place::Mem {
                                array: id,
                                index: Expr::int(0, ScalarTy::I64),
                                ty: CType::Array(e, Some(n)),
                                volatile,
                            });
                            continue;
                        }
                        CType::Array(_, Some(n)) => {
                            return Err(self.unsupported(
                                p,
                                format!("an array field of {n} elements in a parameter passed by value that is not `const` (each thread would get its own copy)"),
                            ))
                        }
                        t => t,
                    };
                    let (pl, k) =
                        self.param_place(&format!("{name}.{fname}"), &fty, quals, p, body)?;
                    match k {
                        ParamKind::Scalar(v) => vars.push(v),
                        ParamKind::Aggregate(vs) => vars.extend(vs),
                        ParamKind::Array(_) | ParamKind::Unmodelled(_) => {}
                    }
                    places.push(pl);
                }
                Ok((Place::Agg(ty.clone(), places), ParamKind::Aggregate(vars)))
            }
            CType::Atomic(..) | CType::AtomicRef(..) => {
                Err(self.unsupported(p, "atomics passed by value"))
            }
            other => Err(self.unsupported(
                p,
                format!("kernel parameters of type `{}`", other.describe()),
            )),
        }
    }
}

/// Whether the kernel body assigns to the (pointer) parameter `name`.
fn is_reassigned(l: &Lowerer, body: Node, name: &str) -> bool {
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        let target = match n.kind() {
            "assignment_expression" => n.child_by_field_name("left"),
            "update_expression" => n.child_by_field_name("argument"),
            _ => None,
        };
        if target.is_some_and(|t| t.kind() == "identifier" && l.text(t) == name) {
            return true;
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    false
}
