//! Calls: dispatch to built-ins, and inlining of `__device__` functions
//! (with template argument deduction for simple cases).
//!
//! Invariants: recursion is reported, never unrolled; an inlined body's
//! `return` becomes a `break` out of a single-pass `Inline` loop, so the
//! callee's control flow stays structured.

use super::value::{Place, Value};
use super::{Binding, LoopCtx, Lowerer, ReturnCtx, R};
use crate::decl::TemplateEnv;
use crate::items::FnItem;
use crate::member_types::TemplateArg;
use crate::syntax::named_children;
use crate::types::CType;
use tree_sitter::Node;
use warpsafe_ir::{Expr, LoopCheck, LoopKind, StmtKind};

impl<'t> Lowerer<'_, 't> {
    pub fn call(&mut self, n: Node<'t>) -> R<Value> {
        let f = n
            .child_by_field_name("function")
            .ok_or_else(|| self.unsupported(n, "call"))?;
        let args: Vec<Node<'t>> = n
            .child_by_field_name("arguments")
            .map(named_children)
            .unwrap_or_default();
        if let Some(config) = named_children(n)
            .into_iter()
            .find(|c| c.kind() == "kernel_call_syntax")
        {
            return self.device_launch(config, &args, n);
        }
        if f.kind() == "identifier" {
            if let Some(Binding::Lambda(i)) = self.lookup(self.text(f)) {
                return self.call_lambda(i, &args, n);
            }
        }
        match f.kind() {
            "field_expression" => {
                return match self.method_call(f, &args, n) {
                    Ok(v) => Ok(v),
                    Err(e) => match self.block(|s| s.value(f)) {
                        Ok((block, Value::FnPtr(target))) => {
                            self.out.extend(block);
                            self.call_indirect(target, &args, n)
                        }
                        _ => Err(e),
                    },
                }
            }
            "identifier" if self.lookup(self.text(f)).is_some() => {
                return match self.value(f)? {
                    Value::FnPtr(target) => self.call_indirect(target, &args, n),
                    other => Err(self.unsupported(n, format!("calling a `{}`", other.ty_desc()))),
                };
            }
            "identifier"
            | "qualified_identifier"
            | "template_function"
            | "primitive_type"
            | "type_identifier" => {}
            "parenthesized_expression" | "pointer_expression" => {
                // `(clock_t)(a - b)`: a cast the grammar reads as a call.
                if let Some(v) = self.functional_cast(f, &args, n)? {
                    return Ok(v);
                }
                return match self.value(f)? {
                    Value::FnPtr(target) => self.call_indirect(target, &args, n),
                    other => Err(self.unsupported(n, format!("calling a `{}`", other.ty_desc()))),
                };
            }
            _ => return Err(self.unsupported(n, format!("call of `{}`", self.text(f)))),
        }
        let (name, targs) = self.callee_name(f);
        if let Some(v) = self.static_member_call(f, &args, n)? {
            return Ok(v);
        }
        // Inside a method, the class's members hide functions of the
        // enclosing namespaces (the implicit `this->`).
        if let Some((class, this)) = self.this_stack.last().cloned().flatten() {
            let members: Vec<FnItem<'t>> = self.class_methods(&class, &name);
            if f.kind() == "identifier" && !members.is_empty() {
                let chosen = self
                    .resolve_overload(&members, targs, &args, n)?
                    .ok_or_else(|| {
                        self.unsupported(
                            n,
                            format!("no overload of `{class}::{name}` accepts these arguments"),
                        )
                    })?;
                return self.inline(&chosen, targs, &args, n, Some(this));
            }
        }
        // C++ lookup: a function of the file that the name denotes wins over
        // a built-in of the same name when one of its overloads is viable.
        if let super::overload::Lookup::Found(candidates) = self.lookup_callee(f, &name)? {
            if let Some(chosen) = self.resolve_overload(&candidates, targs, &args, n)? {
                // A built-in of the name (CUDA declares them as non-template
                // overloads for every arithmetic type) beats a user template
                // that matches no better.
                if !chosen.template.is_empty()
                    && targs.is_none()
                    && self.is_builtin(&name, &args, n)
                {
                    if let Some(v) = self.builtin_call(&name, targs, &args, n)? {
                        return Ok(v);
                    }
                }
                if chosen.is_kernel() && !chosen.quals.device {
                    return Err(
                        self.unsupported(n, "calling a `__global__` function from device code")
                    );
                }
                return self.inline(&chosen, targs, &args, n, None);
            }
            if let Some(v) = self.builtin_call(&name, targs, &args, n)? {
                return Ok(v);
            }
            return Err(warpsafe_source::Diagnostic::error(
                "no-overload",
                format!(
                    "no overload of `{name}` accepts these {} argument(s)",
                    args.len()
                ),
            )
            .at(self.span(n))
            .with_label(self.syn.span(candidates[0].def), "a candidate"));
        }
        if let Some(v) = self.builtin_call(&name, targs, &args, n)? {
            return Ok(v);
        }
        // `SharedMemory<T>()`: a class template object converted to the
        // pointer its `operator T *()` returns (the only use of such an
        // object warpsafe models).
        if args.is_empty() && targs.is_some() {
            let key = crate::items::conversion_name(&name);
            let conversion = self
                .items
                .fns
                .iter()
                .find(|g| g.name == key && g.spec.is_none())
                .cloned();
            if let Some(conversion) = conversion {
                return self.inline(&conversion, targs, &[], n, None);
            }
        }
        if let Some(v) = self.functional_cast(f, &args, n)? {
            return Ok(v);
        }
        if let Some(v) = self.temporary_object(f, n)? {
            return Ok(v);
        }
        if let Some((_, proto)) = self.items.prototypes.iter().find(|(p, _)| *p == name) {
            return self.bodiless_call(&name, *proto, &args, n);
        }
        if let Some(d) = self.invisible_function(f, &name) {
            return Err(d);
        }
        let callee = self.syn.text(f).trim_start_matches("::");
        if callee.starts_with("cuda::") && !callee.starts_with("cuda::std::") {
            return Err(self.unsupported(
                f,
                format!(
                    "`cuda::{name}`: not one of the libcu++ functions warpsafe models (atomics, `memcpy_async` on per-thread pipelines and block barriers), so the kernel is left out"
                ),
            ));
        }
        Err(warpsafe_source::Diagnostic::error(
            "undeclared",
            format!("call to unknown function `{name}`"),
        )
        .at(self.span(f))
        .with_note("warpsafe knows the CUDA built-ins and functions defined in the file"))
    }

    /// `T(x)` with `T` a template type parameter or a typedef of a number
    /// (`Real(4.0)`, `uint(x)`), and `(clock_t)(x)`: the conversion of `x`.
    /// `None` when the callee names no such type.
    fn functional_cast(&mut self, f: Node<'t>, args: &[Node<'t>], n: Node<'t>) -> R<Option<Value>> {
        let mut callee = f;
        while callee.kind() == "parenthesized_expression" {
            match named_children(callee).as_slice() {
                [inner] => callee = *inner,
                _ => return Ok(None),
            }
        }
        let [arg] = args else { return Ok(None) };
        if !matches!(callee.kind(), "identifier" | "type_identifier") {
            return Ok(None);
        }
        let name = self.text(callee);
        if self.lookup(name).is_some() || !self.items.functions(name).is_empty() {
            return Ok(None);
        }
        let ty = match self.type_cx().base_type_named(callee) {
            Ok(t @ (CType::Scalar(_) | CType::Vector(..))) => t,
            _ => return Ok(None),
        };
        let v = self.value(*arg)?;
        self.cast(v, ty, n).map(Some)
    }

    /// The object `this` points to in the method being lowered.
    pub fn this_place(&self, n: Node<'t>) -> R<Place> {
        match self.this_stack.last() {
            Some(Some((_, p))) => Ok(p.clone()),
            _ => Err(self.unsupported(n, "`this` outside a method")),
        }
    }

    /// Whether `name(args)` is a built-in call warpsafe lowers (tried in a
    /// discarded block).
    fn is_builtin(&mut self, name: &str, args: &[Node<'t>], n: Node<'t>) -> bool {
        matches!(
            self.block(|s| s.builtin_call(name, None, args, n)),
            Ok((_, Some(_)))
        )
    }

    /// The id of a function usable through a function pointer (0 is null).
    pub fn function_id(&self, name: &str) -> Option<u32> {
        self.items
            .fns
            .iter()
            .position(|f| {
                f.name == name
                    && f.owner.is_none()
                    && f.spec.is_none()
                    && f.is_device()
                    && f.def.child_by_field_name("body").is_some()
            })
            .map(|i| i as u32 + 1)
    }

    /// A call through a function pointer: a choice among the functions of
    /// the file that take this many arguments, by function id.
    fn call_indirect(&mut self, target: Expr, args: &[Node<'t>], n: Node<'t>) -> R<Value> {
        let argc = args.len();
        let candidates: Vec<(u32, FnItem<'t>)> = self
            .items
            .fns
            .iter()
            .enumerate()
            .filter(|(_, f)| {
                f.quals.device
                    && f.owner.is_none()
                    && f.template.is_empty()
                    && f.spec.is_none()
                    && f.def.child_by_field_name("body").is_some()
            })
            .filter(|(_, f)| {
                let (min, max) = self.arity(f);
                (min..=max).contains(&argc)
                    && !self.call_stack.iter().any(|(id, _)| *id == f.def.id())
            })
            .map(|(i, f)| (i as u32 + 1, f.clone()))
            .collect();
        if let Some(id) = target.as_const_int() {
            return match candidates.iter().find(|(c, _)| i128::from(*c) == id) {
                Some((_, f)) => self.inline(&f.clone(), None, args, n, None),
                None => Err(self.unsupported(
                    n,
                    "a call through a function pointer that points to no function of this file",
                )),
            };
        }
        if candidates.is_empty() {
            return Err(self.unsupported(n, format!("a call through a function pointer: no function of this file takes {argc} arguments")));
        }
        self.warn(
            n,
            format!(
                "a call through a function pointer is assumed to target one of the {} function(s) of this file that take {argc} arguments",
                candidates.len()
            ),
        );
        let span = self.span(n);
        let ret_ty = self.return_type(&candidates[0].1)?;
        let slot = match &ret_ty {
            CType::Void => None,
            t => Some(self.local_place("fnptr.ret", t, false, n)?),
        };
        // No candidate matched: the pointer is null or points elsewhere.
        let message = format!(
            "call through a function pointer that is null or points to no function of this file taking {argc} argument(s): `{}`",
            self.text(n)
        );
        let mut else_ = vec![
            warpsafe_ir::Stmt::new(
                StmtKind::Assert {
                    cond: Expr::bool(false),
                    message,
                },
                span,
            ),
            warpsafe_ir::Stmt::new(
                StmtKind::Assume {
                    cond: Expr::bool(false),
                    origin: warpsafe_ir::AssumeOrigin::Assume,
                },
                span,
            ),
        ];
        for (id, f) in candidates.iter().rev() {
            let (then_, ()) = self.block(|s| {
                let v = s.inline(f, None, args, n, None)?;
                if let Some(slot) = &slot {
                    s.write(slot, v, n)?;
                }
                Ok(())
            })?;
            let cond = Expr::binary(
                warpsafe_ir::BinOp::Eq,
                warpsafe_ir::ScalarTy::U32,
                target.clone(),
                Expr::int(*id as i128, warpsafe_ir::ScalarTy::U32),
            );
            else_ = vec![warpsafe_ir::Stmt::new(
                StmtKind::If { cond, then_, else_ },
                span,
            )];
        }
        self.out.extend(else_);
        match slot {
            Some(p) => self.read(&p, n),
            None => Ok(Value::Void),
        }
    }

    /// The place a call of a function returning a reference refers to:
    /// `call` lowers the call (at node `n`), whose `return` gives it.
    pub(super) fn call_place(
        &mut self,
        n: Node<'t>,
        call: impl FnOnce(&mut Self) -> R<Value>,
    ) -> R<Place> {
        let saved = self.want_ref.replace(n.id());
        let result = call(self);
        self.want_ref = saved;
        result?;
        self.ref_result.take().ok_or_else(|| {
            self.unsupported(
                n,
                format!(
                    "`{}` as an assignable location (the function does not return a reference)",
                    self.text(n)
                ),
            )
        })
    }

    /// Whether the call `n` may name a function returning a reference: a
    /// function or method of that name in the file is declared with one.
    pub(super) fn may_return_reference(&self, n: Node<'t>) -> bool {
        let Some(f) = n.child_by_field_name("function") else {
            return false;
        };
        let name = match f.kind() {
            "field_expression" => f
                .child_by_field_name("field")
                .map(|m| self.text(m).to_string())
                .unwrap_or_default(),
            _ => self.callee_name(f).0,
        };
        self.items.reference_returning.contains(&name)
    }

    /// Whether `f` returns a non-`const` reference (`T &operator[](int)`).
    fn returns_reference(&self, f: &FnItem<'t>) -> bool {
        !crate::decl::quals(self.syn, f.def).const_ && self.declares_reference(f)
    }

    /// Whether `f` returns a `const` reference (`const T &lower() const`).
    fn returns_const_reference(&self, f: &FnItem<'t>) -> bool {
        crate::decl::quals(self.syn, f.def).const_ && self.declares_reference(f)
    }

    /// Whether `f`'s declarator makes its result a reference.
    fn declares_reference(&self, f: &FnItem<'t>) -> bool {
        let mut d = f.def.child_by_field_name("declarator");
        while let Some(node) = d {
            match node.kind() {
                "reference_declarator" => return true,
                "function_declarator" | "abstract_function_declarator" => return false,
                _ => {}
            }
            d = node
                .child_by_field_name("declarator")
                .or_else(|| named_children(node).into_iter().next());
        }
        false
    }

    /// A call to a function declared without a body: its result is unknown.
    /// It is assumed to access no memory, which is only believable when no
    /// pointer or reference reaches it; otherwise the call is rejected.
    fn bodiless_call(
        &mut self,
        name: &str,
        proto: Node<'t>,
        args: &[Node<'t>],
        n: Node<'t>,
    ) -> R<Value> {
        let by_ref = self.text(proto).contains('&');
        for a in args {
            let v = self.value(*a)?;
            if by_ref || matches!(v, Value::Ptr(_) | Value::AtomicRef(..)) {
                return Err(self
                    .unsupported(n, format!("call to `{name}`, which is declared but never defined, with a pointer or reference argument (it may access memory through it)"))
                    .with_label(self.span(proto), "declared here"));
            }
        }
        let ty_node = proto
            .child_by_field_name("type")
            .ok_or_else(|| self.unsupported(proto, "return type"))?;
        let ret = self.type_cx().base_type(ty_node)?;
        let returns_pointer = proto
            .children_by_field_name("declarator", &mut proto.walk())
            .any(|d| d.kind() == "pointer_declarator");
        if returns_pointer {
            return Err(self.unsupported(
                n,
                format!(
                    "call to `{name}`, which is declared but never defined and returns a pointer"
                ),
            ));
        }
        self.warn(
            n,
            format!(
                "`{name}` has no body: its result is unknown and it is assumed to access no memory"
            ),
        );
        let reason = format!("result of `{name}`, which has no body");
        let span = self.span(n);
        match ret {
            CType::Void => Ok(Value::Void),
            CType::Scalar(t) => {
                let dst = self.temp(t, span);
                self.emit(StmtKind::Havoc { dst, reason }, span);
                Ok(Value::Scalar(Expr::Var(dst), t))
            }
            other => Err(self.unsupported(
                n,
                format!(
                    "call to `{name}`, which is declared but never defined and returns a `{}`",
                    other.describe()
                ),
            )),
        }
    }

    /// The callee's name and explicit template arguments.
    fn callee_name(&self, f: Node<'t>) -> (String, Option<Node<'t>>) {
        match f.kind() {
            "template_function" => {
                let name = f
                    .child_by_field_name("name")
                    .map(|n| self.text(n))
                    .unwrap_or("");
                (name.to_string(), f.child_by_field_name("arguments"))
            }
            "qualified_identifier" => {
                let mut cur = f;
                while let Some(inner) = cur.child_by_field_name("name") {
                    if inner.kind() == "qualified_identifier" {
                        cur = inner;
                        continue;
                    }
                    return self.callee_name(inner);
                }
                (self.text(f).to_string(), None)
            }
            _ => (self.text(f).to_string(), None),
        }
    }

    pub(super) fn arity(&self, f: &FnItem) -> (usize, usize) {
        let params = self.params_of(f);
        let required = params
            .iter()
            .filter(|p| p.kind() != "optional_parameter_declaration")
            .count();
        (required, params.len())
    }

    pub fn params_of(&self, f: &FnItem<'t>) -> Vec<Node<'t>> {
        let mut d = f.def.child_by_field_name("declarator");
        while let Some(node) = d {
            if node.kind() == "function_declarator" {
                return node
                    .child_by_field_name("parameters")
                    .map(named_children)
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|p| {
                        p.kind().ends_with("parameter_declaration")
                            && self.text(*p).trim() != "void"
                    })
                    .collect();
            }
            // A reference declarator (`T &f(...)`) holds its declarator
            // without a field name.
            d = node
                .child_by_field_name("declarator")
                .or_else(|| named_children(node).into_iter().next())
                .filter(|c| c.kind().ends_with("declarator"));
        }
        Vec::new()
    }

    pub fn inline(
        &mut self,
        f: &FnItem<'t>,
        targs: Option<Node<'t>>,
        args: &[Node<'t>],
        n: Node<'t>,
        this: Option<Place>,
    ) -> R<Value> {
        if f.broken {
            return Err(self.unsupported(
                n,
                format!("a call to `{}`, which has syntax errors", f.name),
            ));
        }
        if self.call_stack.len() > 64 {
            return Err(self.unsupported(n, "calls nested more than 64 deep"));
        }
        let params = self.params_of(f);
        let (values, ref_places, deduced_from) = self.call_args(&params, args, n)?;
        let tenv = self.deduce(f, targs, &params, &deduced_from, n)?;
        // An explicit specialisation for these template arguments replaces
        // the primary template's body.
        let spec = self.specialisation(f, &tenv)?;
        let (f, tenv) = match &spec {
            Some(s) => (s, TemplateEnv::default()),
            None => (f, tenv),
        };
        // The specialisation's own parameters (`int x` for `T x`).
        let params = match &spec {
            Some(s) => self.params_of(s),
            None => params,
        };
        // A call of the function being inlined with the same template
        // arguments recurses; `f<i - 1>` inside `f<i>` (compile-time
        // unrolling, ended by a specialisation) does not.
        let instance = (f.def.id(), tenv.key());
        if self.call_stack.contains(&instance) {
            return Err(warpsafe_source::Diagnostic::error(
                "recursion",
                format!("recursive call to `{}`: recursion is not supported", f.name),
            )
            .at(self.span(n))
            .with_label(self.syn.span(f.def), "the function is defined here"));
        }
        let body = f
            .def
            .child_by_field_name("body")
            .ok_or_else(|| self.unsupported(n, "function without a body"))?;
        let saved_tenv = std::mem::replace(&mut self.tenv, tenv);
        let saved_scopes =
            std::mem::replace(&mut self.scopes, vec![std::collections::HashMap::new()]);
        let saved_loops = std::mem::take(&mut self.loops);
        let saved_usings = std::mem::take(&mut self.local_usings);
        self.call_stack.push(instance);
        self.ns_stack.push(f.ns.clone());
        self.instances.push(self.next_instance);
        self.next_instance += 1;
        let class = f.owner.clone();
        self.this_stack
            .push(this.clone().and_then(|p| class.map(|c| (c, p))));
        let taken = self.scan_addr_taken(body);
        self.addr_taken.push(taken);
        let result = self.bind_this(this.clone(), n).and_then(|()| {
            self.inline_body(f, body, (&params, values, ref_places), this.as_ref(), n)
        });
        self.addr_taken.pop();
        self.ns_stack.pop();
        self.instances.pop();
        self.this_stack.pop();
        self.local_usings = saved_usings;
        self.call_stack.pop();
        self.loops = saved_loops;
        self.scopes = saved_scopes;
        self.tenv = saved_tenv;
        result
    }

    /// The arguments of a call, evaluated in the caller's environment:
    /// each parameter's value, or the place a reference parameter binds,
    /// and what template deduction sees of each.
    #[allow(clippy::type_complexity)]
    pub(super) fn call_args(
        &mut self,
        params: &[Node<'t>],
        args: &[Node<'t>],
        n: Node<'t>,
    ) -> R<(Vec<Option<Value>>, Vec<Option<Place>>, Vec<Option<Value>>)> {
        let mut values = Vec::new();
        let mut ref_places = Vec::new();
        // What template deduction sees of each argument, references included.
        let mut deduced_from = Vec::new();
        for (i, p) in params.iter().enumerate() {
            // `int &x`, and `int *&p` (a reference to a pointer).
            let is_ref = {
                let mut d = p.child_by_field_name("declarator");
                let mut found = false;
                while let Some(node) = d {
                    found |= node.kind() == "reference_declarator";
                    d = node
                        .child_by_field_name("declarator")
                        .or_else(|| named_children(node).into_iter().next())
                        .filter(|c| c.kind().ends_with("declarator"));
                }
                found
            };
            let is_const = crate::decl::quals(self.syn, *p).const_;
            let place = match args.get(i) {
                Some(a) if is_ref => match self.block(|s| s.place(*a)) {
                    Ok((block, place)) => {
                        self.out.extend(block);
                        Some(self.freeze(place, *a))
                    }
                    // A `const T&` binds to a temporary holding an rvalue.
                    Err(_) if is_const => None,
                    // A group handle (`Group &g`) is passed as its value:
                    // groups are immutable.
                    Err(_) if matches!(self.block(|s| s.value(*a)), Ok((_, Value::Group(_)))) => {
                        None
                    }
                    Err(e) => return Err(e),
                },
                _ => None,
            };
            match args.get(i) {
                Some(a) if place.is_some() => {
                    let place = place.expect("invariant: checked just above");
                    let seen = self.block(|s| s.read(&place, *a)).ok().map(|(_, v)| v);
                    deduced_from.push(seen);
                    ref_places.push(Some(place));
                    values.push(None);
                }
                Some(a) => {
                    ref_places.push(None);
                    let v = self.value(*a)?;
                    deduced_from.push(Some(v.clone()));
                    values.push(Some(v));
                }
                None => {
                    let default = p
                        .child_by_field_name("default_value")
                        .ok_or_else(|| self.unsupported(n, "missing argument"))?;
                    ref_places.push(None);
                    let v = self.value(default)?;
                    deduced_from.push(Some(v.clone()));
                    values.push(Some(v));
                }
            }
        }
        Ok((values, ref_places, deduced_from))
    }

    /// Binds each parameter to its argument's value (a fresh local) or,
    /// for a reference parameter, to the place it refers to.
    pub(super) fn bind_params(
        &mut self,
        params: &[Node<'t>],
        values: Vec<Option<Value>>,
        refs: Vec<Option<Place>>,
    ) -> R<()> {
        for ((p, v), r) in params.iter().zip(values).zip(refs) {
            let q = crate::decl::quals(self.syn, *p);
            let ty_node = p
                .child_by_field_name("type")
                .ok_or_else(|| self.unsupported(*p, "parameter"))?;
            let base = self.type_cx().base_type(ty_node)?;
            let Some(d) = p.child_by_field_name("declarator") else {
                continue;
            };
            let declared = self.type_cx().declarator(base, d)?;
            let name = self.text(declared.name).to_string();
            if let Some(place) = r {
                self.bind(&name, Binding::Place(place));
                continue;
            }
            let Some(v) = v else { continue };
            match (&declared.ty, v) {
                (CType::Group(_), Value::Group(g)) => self.bind(&name, Binding::Group(g)),
                (CType::AtomicRef(..), Value::AtomicRef(pl, t, s)) => {
                    self.bind(&name, Binding::Place(Place::AtomicRef(Box::new(pl), t, s)))
                }
                (ty, v) => {
                    // Arrays in parameter lists are pointers.
                    let ty = match ty {
                        CType::Array(e, _) => CType::Pointer(e.clone()),
                        t => t.clone(),
                    };
                    let place = self.local_place(&name, &ty, q.volatile, *p)?;
                    self.write(&place, v, *p)?;
                    self.bind(&name, Binding::Place(place));
                }
            }
        }
        Ok(())
    }

    /// A method's fields are in scope by name (the implicit `this`).
    fn bind_this(&mut self, this: Option<Place>, n: Node<'t>) -> R<()> {
        let Some(this) = this else { return Ok(()) };
        let ty = match &this {
            Place::Agg(t, _) | Place::Mem { ty: t, .. } => t.clone(),
            _ => CType::Void,
        };
        for (field, _, _) in self.items.types.fields(&ty).unwrap_or_default() {
            let place = self.field(this.clone(), &field, n)?;
            self.bind(&field, Binding::Place(place));
        }
        Ok(())
    }

    fn inline_body(
        &mut self,
        f: &FnItem<'t>,
        body: Node<'t>,
        (params, values, refs): ParamBindings<'_, 't>,
        this: Option<&Place>,
        n: Node<'t>,
    ) -> R<Value> {
        self.bind_params(params, values, refs)?;
        if let Some(this) = this {
            self.ctor_prologue(f, this, n)?;
        }
        // A `const` reference is a place only where one is wanted (a
        // reference bound to the call); elsewhere its value, as before.
        let by_ref = self.returns_reference(f)
            || (self.want_ref == Some(n.id()) && self.returns_const_reference(f));
        if self.deduces_return_type(f) && !by_ref {
            return self.returning_body(&f.name, body, None, false, n);
        }
        let ret_ty = self.return_type(f)?;
        self.returning_body(&f.name, body, Some(&ret_ty), by_ref, n)
    }

    /// Whether `f` is declared with a deduced return type (`auto f(...)`
    /// without a trailing `-> T`).
    fn deduces_return_type(&self, f: &FnItem<'t>) -> bool {
        let is_auto = f
            .def
            .child_by_field_name("type")
            .is_some_and(|t| t.kind() == "placeholder_type_specifier" && self.text(t) == "auto");
        let trailing = f.def.child_by_field_name("declarator").is_some_and(|d| {
            named_children(d)
                .into_iter()
                .any(|c| c.kind() == "trailing_return_type")
        });
        is_auto && !trailing
    }

    /// Lowers the body of a called function or lambda: each `return` writes
    /// the result (`ret_ty`; `None`: the type of the first `return`'s
    /// value, as `auto` deduces it) and leaves the body, or, for a function
    /// returning a reference (`by_ref`), names the place it refers to.
    pub(super) fn returning_body(
        &mut self,
        name: &str,
        body: Node<'t>,
        ret_ty: Option<&CType>,
        by_ref: bool,
        n: Node<'t>,
    ) -> R<Value> {
        let span = self.span(n);
        let slot = match ret_ty {
            None | Some(CType::Void) => None,
            _ if by_ref => None,
            Some(t) => Some(self.local_place(&format!("{name}.ret"), t, false, n)?),
        };
        let id = self.new_loop_id();
        self.returns.push(ReturnCtx {
            target: id,
            slot,
            deduce: ret_ty.is_none().then(|| format!("{name}.ret")),
            by_ref,
            returned: None,
        });
        self.loops.push(LoopCtx {
            id,
            iterates: false,
            breakable: false,
        });
        let lowered = self.block(|s| s.stmt(body));
        self.loops.pop();
        let ctx = self
            .returns
            .pop()
            .expect("invariant: this body's return context was pushed above");
        let (returned, slot) = (ctx.returned, ctx.slot);
        let (mut block, ()) = lowered?;
        if by_ref && (returned.is_none() || needs_loop(&block, id)) {
            return Err(self.unsupported(
                n,
                format!("a call to `{name}`, which returns a reference from other than one `return` at its end"),
            ));
        }
        if needs_loop(&block, id) {
            if !matches!(block.last().map(|s| &s.kind), Some(StmtKind::Break(l)) if *l == id) {
                block.push(warpsafe_ir::Stmt::new(StmtKind::Break(id), span));
            }
            self.emit(
                StmtKind::Loop {
                    id,
                    kind: LoopKind::Inline,
                    header: Vec::new(),
                    cond: Expr::bool(true),
                    check: LoopCheck::Before,
                    body: block,
                    step: Vec::new(),
                },
                span,
            );
        } else {
            // The only `return` is the last statement: no loop needed.
            if matches!(block.last().map(|s| &s.kind), Some(StmtKind::Break(l)) if *l == id) {
                block.pop();
            }
            self.out.extend(block);
        }
        if let Some(place) = returned {
            // Wanted as a place (`a[i] = x` through `operator[]`): no read.
            if self.want_ref == Some(n.id()) {
                self.ref_result = Some(place);
                return Ok(Value::Void);
            }
            return self.read(&place, n);
        }
        match slot {
            Some(p) => self.read(&p, n),
            None => Ok(Value::Void),
        }
    }

    /// The explicit specialisation of template `f` whose arguments are the
    /// deduced `env`, if the file has one.
    fn specialisation(&self, f: &FnItem<'t>, env: &TemplateEnv) -> R<Option<FnItem<'t>>> {
        if f.template.is_empty() {
            return Ok(None);
        }
        for s in
            self.items.fns.iter().filter(|s| {
                s.spec.is_some() && s.name == f.name && s.ns == f.ns && s.owner == f.owner
            })
        {
            let Some(list) = s.spec else { continue };
            let args = named_children(list);
            let mut matches = args.len() <= f.template.len();
            for (tp, a) in f.template.iter().zip(&args) {
                matches &= if tp.is_type {
                    let t = self.type_cx().type_descriptor(*a).map_err(|_| {
                        self.unsupported(*a, "a specialisation argument warpsafe cannot read")
                    })?;
                    env.types.get(&tp.name) == Some(&t)
                } else {
                    let v = crate::consteval::eval(self.syn, *a, self).ok_or_else(|| {
                        self.unsupported(*a, "a specialisation argument that is not a constant")
                    })?;
                    env.values.get(&tp.name) == Some(&v)
                };
            }
            if matches && args.len() < f.template.len() {
                return Err(self.unsupported(
                    list,
                    "an explicit specialisation that relies on default template arguments",
                ));
            }
            if matches {
                return Ok(Some(s.clone()));
            }
        }
        Ok(None)
    }

    fn return_type(&self, f: &FnItem<'t>) -> R<CType> {
        if f.owner.as_ref() == Some(&f.name) {
            // A constructor.
            return Ok(CType::Void);
        }
        // `operator T *()`: the type is the conversion's.
        let conversion = f
            .def
            .child_by_field_name("declarator")
            .filter(|d| d.kind() == "operator_cast");
        let ty_node = conversion
            .unwrap_or(f.def)
            .child_by_field_name("type")
            .ok_or_else(|| self.unsupported(f.def, "return type"))?;
        let base = self.type_cx().base_type(ty_node)?;
        // `int *f()` puts the pointer in the declarator.
        let mut ty = base;
        let mut d = f.def.child_by_field_name("declarator");
        while let Some(node) = d {
            match node.kind() {
                "pointer_declarator" | "abstract_pointer_declarator" => {
                    ty = CType::Pointer(Box::new(ty))
                }
                "abstract_function_declarator" => break,
                // A reference result has the referred type: whether the
                // call reads it or is a place is `inline_body`'s choice.
                "reference_declarator" => {}
                "function_declarator" => break,
                _ => {}
            }
            d = node
                .child_by_field_name("declarator")
                .or_else(|| named_children(node).into_iter().next());
        }
        Ok(ty)
    }

    /// Template arguments of a call: explicit ones, else deduced from the
    /// argument types of parameters declared as `T`, `T*`.
    pub(super) fn deduce(
        &self,
        f: &FnItem<'t>,
        targs: Option<Node<'t>>,
        params: &[Node<'t>],
        values: &[Option<Value>],
        n: Node,
    ) -> R<TemplateEnv> {
        let mut env = f.class_env.clone().unwrap_or_default();
        if f.template.is_empty() {
            return Ok(env);
        }
        let explicit: Vec<Node> = targs.map(named_children).unwrap_or_default();
        for (i, tp) in f.template.iter().enumerate() {
            if let Some(a) = explicit.get(i) {
                if tp.is_type {
                    env.types
                        .insert(tp.name.clone(), self.type_cx().type_descriptor(*a)?);
                } else {
                    let v = crate::consteval::eval(self.syn, *a, self).ok_or_else(|| {
                        self.unsupported(*a, "a template argument that is not a constant")
                    })?;
                    env.values.insert(tp.name.clone(), v);
                }
                continue;
            }
            // `C<T, N> x` given an object of an instance of `C`.
            let from_instance = params.iter().zip(values).find_map(|(p, v)| {
                self.deduce_from_instance(p.child_by_field_name("type")?, tp, v)
            });
            match from_instance {
                Some(TemplateArg::Type(t)) => {
                    env.types.insert(tp.name.clone(), t);
                    continue;
                }
                Some(TemplateArg::Value(v)) => {
                    env.values.insert(tp.name.clone(), v);
                    continue;
                }
                None => {}
            }
            if tp.is_type {
                for (p, v) in params.iter().zip(values) {
                    let Some(ty) = p.child_by_field_name("type") else {
                        continue;
                    };
                    if self.text(ty) != tp.name {
                        continue;
                    }
                    let ptr = p
                        .child_by_field_name("declarator")
                        .is_some_and(|d| d.kind() == "pointer_declarator");
                    let deduced = match (v, ptr) {
                        (Some(Value::Scalar(_, t)), false) => Some(CType::Scalar(*t)),
                        (Some(Value::Ptr(p)), true) => Some(p.pointee.clone()),
                        (Some(Value::Agg(t, _)), false) => Some(t.clone()),
                        (Some(Value::Group(g)), false) => Some(CType::Group(*g)),
                        _ => None,
                    };
                    if let Some(t) = deduced {
                        env.types.insert(tp.name.clone(), t);
                        break;
                    }
                }
            }
            let known = env.types.contains_key(&tp.name) || env.values.contains_key(&tp.name);
            if !known {
                if let Some(d) = tp.default {
                    if tp.is_type {
                        env.types
                            .insert(tp.name.clone(), self.type_cx().type_descriptor(d)?);
                    } else if let Some(v) = crate::consteval::eval(self.syn, d, self) {
                        env.values.insert(tp.name.clone(), v);
                    }
                } else {
                    return Err(self.unsupported(
                        n,
                        format!(
                            "cannot deduce template parameter `{}` of `{}`",
                            tp.name, f.name
                        ),
                    ));
                }
            }
        }
        Ok(env)
    }
}

/// A call's parameters with, for each, the argument's value (by-value
/// parameters) or place (references).
type ParamBindings<'a, 't> = (&'a [Node<'t>], Vec<Option<Value>>, Vec<Option<Place>>);

/// Whether the inlined body needs its single-pass loop: it breaks to `id`
/// somewhere other than as its very last statement.
fn needs_loop(block: &warpsafe_ir::Block, id: warpsafe_ir::LoopId) -> bool {
    let mut count = 0;
    warpsafe_ir::walk_block(block, &mut |s| {
        if matches!(s.kind, StmtKind::Break(l) if l == id) {
            count += 1;
        }
    });
    let last_is_break =
        matches!(block.last().map(|s| &s.kind), Some(StmtKind::Break(l)) if *l == id);
    count > usize::from(last_is_break)
}
