//! Statements and local declarations: blocks, `if`, the three loops,
//! `switch` (as a single-pass loop with a fall-through flag), `break`,
//! `continue`, `return`, and variables of every supported type.

use super::value::{Place, Value};
use super::{Binding, LoopCtx, Lowerer, R};
use crate::decl::quals;
use crate::syntax::named_children;
use crate::types::CType;
use tree_sitter::Node;
use warpsafe_ir::{
    ArrayOrigin, Expr, LoopCheck, LoopKind, MemSpace, ScalarTy, Stmt, StmtKind, VarKind,
};

impl<'t> Lowerer<'_, 't> {
    pub fn stmt(&mut self, n: Node<'t>) -> R<()> {
        match n.kind() {
            "compound_statement" => {
                self.push_scope();
                let r = self.sequence(&named_children(n));
                self.pop_scope();
                r
            }
            "expression_statement" => match named_children(n).first() {
                Some(e) => self.effect(*e),
                None => Ok(()),
            },
            "declaration" => self.declaration(n),
            "if_statement" => self.if_stmt(n),
            "for_statement" => self.for_stmt(n),
            "while_statement" => self.while_stmt(n),
            "do_statement" => self.do_stmt(n),
            "switch_statement" => self.switch_stmt(n),
            "break_statement" => {
                let target = self
                    .loops
                    .iter()
                    .rev()
                    .find(|l| l.breakable)
                    .map(|l| l.id)
                    .ok_or_else(|| self.unsupported(n, "`break` outside a loop"))?;
                self.emit(StmtKind::Break(target), self.span(n));
                Ok(())
            }
            "continue_statement" => {
                let target = self
                    .loops
                    .iter()
                    .rev()
                    .find(|l| l.iterates)
                    .map(|l| l.id)
                    .ok_or_else(|| self.unsupported(n, "`continue` outside a loop"))?;
                self.emit(StmtKind::Continue(target), self.span(n));
                Ok(())
            }
            "return_statement" => self.return_stmt(n),
            "attributed_statement" => match named_children(n)
                .into_iter()
                .find(|c| c.kind() != "attribute_declaration")
            {
                Some(s) => self.stmt(s),
                None => Ok(()),
            },
            "labeled_statement" => match named_children(n)
                .into_iter()
                .find(|c| c.kind() != "statement_identifier")
            {
                Some(inner) => self.stmt(inner),
                None => Ok(()),
            },
            "goto_statement" => {
                let label = n
                    .child_by_field_name("label")
                    .map(|l| self.text(l))
                    .unwrap_or("");
                match self.goto_targets.get(label) {
                    Some(id) => {
                        self.emit(StmtKind::Break(*id), self.span(n));
                        Ok(())
                    }
                    None => Err(self.unsupported(n, "`goto` to a label that is not later in an enclosing block (backward or into a block)")),
                }
            }
            "using_declaration" => {
                // Visible to calls in the rest of the function (name lookup,
                // `overload.rs`); block scoping is not tracked.
                if let Some(using) = crate::items::using_path(self.syn, n) {
                    self.local_usings.push(using);
                }
                Ok(())
            }
            "type_definition" | "alias_declaration" => self.local_typedef(n),
            "struct_specifier" | "static_assert_declaration" | "namespace_alias_definition" => {
                Ok(())
            }
            "try_statement" | "throw_statement" => Err(self.unsupported(n, "exceptions")),
            "for_range_loop" => Err(self.unsupported(n, "range-based `for`")),
            "ERROR" => {
                let mut errs = Vec::new();
                self.syn.errors_under(n, 1, &mut errs);
                Err(errs
                    .pop()
                    .unwrap_or_else(|| self.unsupported(n, "syntax error")))
            }
            other => Err(self.unsupported(n, format!("statement kind `{other}`"))),
        }
    }

    /// The statements of a block. A label that a `goto` earlier in the same
    /// block jumps to splits the block: the statements before it go into a
    /// single-pass `Goto` loop that the `goto` breaks out of.
    fn sequence(&mut self, children: &[Node<'t>]) -> R<()> {
        let split = children.iter().enumerate().rev().find_map(|(i, c)| {
            if c.kind() != "labeled_statement" {
                return None;
            }
            let label = self.text(c.child_by_field_name("label")?);
            children[..i]
                .iter()
                .any(|s| self.contains_goto(*s, label))
                .then(|| (i, label.to_string()))
        });
        let Some((i, label)) = split else {
            return children.iter().try_for_each(|c| self.stmt(*c));
        };
        let id = self.new_loop_id();
        let span = self.span(children[0]);
        self.goto_targets.insert(label.clone(), id);
        self.loops.push(LoopCtx {
            id,
            iterates: false,
            breakable: false,
        });
        let lowered = self.block(|s| s.sequence(&children[..i]));
        self.loops.pop();
        self.goto_targets.remove(&label);
        let (mut body, ()) = lowered?;
        body.push(Stmt::new(StmtKind::Break(id), span));
        self.emit(
            StmtKind::Loop {
                id,
                kind: LoopKind::Goto,
                header: Vec::new(),
                cond: Expr::bool(true),
                check: LoopCheck::Before,
                body,
                step: Vec::new(),
            },
            span,
        );
        self.sequence(&children[i..])
    }

    fn contains_goto(&self, n: Node, label: &str) -> bool {
        if n.kind() == "goto_statement" {
            return n.child_by_field_name("label").map(|l| self.text(l)) == Some(label);
        }
        named_children(n)
            .into_iter()
            .any(|c| self.contains_goto(c, label))
    }

    fn if_stmt(&mut self, n: Node<'t>) -> R<()> {
        let c = n
            .child_by_field_name("condition")
            .ok_or_else(|| self.unsupported(n, "if"))?;
        self.push_scope();
        let cond = self.condition_clause(c)?;
        let then_n = n
            .child_by_field_name("consequence")
            .ok_or_else(|| self.unsupported(n, "if"))?;
        let before = self.targets();
        let (mut then_, ()) = self.block(|s| s.scoped_stmt(then_n))?;
        let after_then = std::mem::replace(&mut self.ptr_targets, before);
        let mut else_ = match n.child_by_field_name("alternative") {
            Some(alt) => {
                let inner = named_children(alt).into_iter().next();
                match inner {
                    Some(i) => self.block(|s| s.scoped_stmt(i))?.0,
                    None => Vec::new(),
                }
            }
            None => Vec::new(),
        };
        let after_else = self.targets();
        self.pop_scope();
        if let Some(v) = cond.as_const_int() {
            // `if (1)` / `if (0)` (often from macros): keep only the live arm.
            self.ptr_targets = if v != 0 { after_then } else { after_else };
            self.out.extend(if v != 0 { then_ } else { else_ });
            return Ok(());
        }
        let span = self.span(n);
        self.merge_branches(&after_then, &mut then_, &after_else, &mut else_, span);
        self.emit(StmtKind::If { cond, then_, else_ }, self.span(n));
        Ok(())
    }

    fn scoped_stmt(&mut self, n: Node<'t>) -> R<()> {
        self.push_scope();
        let r = self.stmt(n);
        self.pop_scope();
        r
    }

    /// `(cond)` of if/while/switch, possibly `(T x = e)`.
    fn condition_clause(&mut self, c: Node<'t>) -> R<Expr> {
        let c = if c.kind() == "condition_clause" {
            if let Some(init) = c.child_by_field_name("initializer") {
                self.stmt(init)?;
            }
            c.child_by_field_name("value")
                .ok_or_else(|| self.unsupported(c, "condition"))?
        } else {
            c
        };
        if c.kind() == "declaration" {
            return Err(self.unsupported(c, "a declaration as a condition"));
        }
        self.cond(c)
    }

    fn loop_body(
        &mut self,
        id: warpsafe_ir::LoopId,
        iterates: bool,
        body: Node<'t>,
    ) -> R<Vec<Stmt>> {
        self.loops.push(LoopCtx {
            id,
            iterates,
            breakable: true,
        });
        let r = self.block(|s| s.scoped_stmt(body));
        self.loops.pop();
        Ok(r?.0)
    }

    fn for_stmt(&mut self, n: Node<'t>) -> R<()> {
        self.push_scope();
        let r = self.for_inner(n);
        self.pop_scope();
        r
    }

    fn for_inner(&mut self, n: Node<'t>) -> R<()> {
        if let Some(init) = n.child_by_field_name("initializer") {
            if init.kind() == "declaration" {
                self.declaration(init)?;
            } else {
                self.effect(init)?;
            }
        }
        // The loop's body may change what a pointer points into: lowered
        // until every pointer's array is stable (see targets.rs).
        self.with_stable_targets(n, |s| s.for_loop(n))
    }

    fn for_loop(&mut self, n: Node<'t>) -> R<()> {
        let id = self.new_loop_id();
        let (header, cond) = match n.child_by_field_name("condition") {
            Some(c) => self.block(|s| s.cond(c))?,
            None => (Vec::new(), Expr::bool(true)),
        };
        let body_n = n
            .child_by_field_name("body")
            .ok_or_else(|| self.unsupported(n, "for body"))?;
        let body = self.loop_body(id, true, body_n)?;
        let step = match n.child_by_field_name("update") {
            Some(u) => self.block(|s| s.effect(u))?.0,
            None => Vec::new(),
        };
        let kind = LoopKind::For;
        self.emit(
            StmtKind::Loop {
                id,
                kind,
                header,
                cond,
                check: LoopCheck::Before,
                body,
                step,
            },
            self.span(n),
        );
        Ok(())
    }

    fn while_stmt(&mut self, n: Node<'t>) -> R<()> {
        self.with_stable_targets(n, |s| s.while_loop(n))
    }

    fn while_loop(&mut self, n: Node<'t>) -> R<()> {
        let id = self.new_loop_id();
        let c = n
            .child_by_field_name("condition")
            .ok_or_else(|| self.unsupported(n, "while"))?;
        self.push_scope();
        let (header, cond) = self.block(|s| s.condition_clause(c))?;
        let body_n = n
            .child_by_field_name("body")
            .ok_or_else(|| self.unsupported(n, "while body"))?;
        let body = self.loop_body(id, true, body_n)?;
        self.pop_scope();
        self.emit(
            StmtKind::Loop {
                id,
                kind: LoopKind::While,
                header,
                cond,
                check: LoopCheck::Before,
                body,
                step: Vec::new(),
            },
            self.span(n),
        );
        Ok(())
    }

    fn do_stmt(&mut self, n: Node<'t>) -> R<()> {
        self.with_stable_targets(n, |s| s.do_loop(n))
    }

    fn do_loop(&mut self, n: Node<'t>) -> R<()> {
        let id = self.new_loop_id();
        let body_n = n
            .child_by_field_name("body")
            .ok_or_else(|| self.unsupported(n, "do body"))?;
        let body = self.loop_body(id, true, body_n)?;
        let c = n
            .child_by_field_name("condition")
            .ok_or_else(|| self.unsupported(n, "do condition"))?;
        let (header, cond) = self.block(|s| s.cond(c))?;
        self.emit(
            StmtKind::Loop {
                id,
                kind: LoopKind::DoWhile,
                header,
                cond,
                check: LoopCheck::After,
                body,
                step: Vec::new(),
            },
            self.span(n),
        );
        Ok(())
    }

    /// `switch (v) { case a: ... }` becomes a single-pass loop whose body
    /// runs each case when it matches or when an earlier case fell through.
    fn switch_stmt(&mut self, n: Node<'t>) -> R<()> {
        let span = self.span(n);
        let c = n
            .child_by_field_name("condition")
            .ok_or_else(|| self.unsupported(n, "switch"))?;
        // The condition is promoted, and each case converted to the
        // promoted type ([stmt.switch]/2).
        let (scrut, sty) = {
            let e = self.condition_value(c)?;
            let (e, t) = self.scalar_of(e, c)?;
            let p = crate::types::promote(t);
            (self.convert(e, t, p), p)
        };
        let v = self.temp(sty, span);
        self.emit(
            StmtKind::Assign {
                dst: v,
                value: scrut,
            },
            span,
        );
        let fall = self.temp(ScalarTy::Bool, span);
        self.emit(
            StmtKind::Assign {
                dst: fall,
                value: Expr::bool(false),
            },
            span,
        );
        let body = n
            .child_by_field_name("body")
            .ok_or_else(|| self.unsupported(n, "switch body"))?;
        let cases: Vec<Node> = named_children(body)
            .into_iter()
            .filter(|c| c.kind() == "case_statement")
            .collect();
        // The values of every `case`, for `default`'s condition.
        let mut values = Vec::new();
        for case in &cases {
            if let Some(val) = case.child_by_field_name("value") {
                let (e, t) = self.scalar(val)?;
                values.push(self.convert(e, t, sty));
            }
        }
        let id = self.new_loop_id();
        self.loops.push(LoopCtx {
            id,
            iterates: false,
            breakable: true,
        });
        self.push_scope();
        let result = self.block(|s| {
            let mut vi = 0;
            for case in &cases {
                let matches = if case.child_by_field_name("value").is_some() {
                    let e = Expr::binary(
                        warpsafe_ir::BinOp::Eq,
                        sty,
                        Expr::Var(v),
                        values[vi].clone(),
                    );
                    vi += 1;
                    e
                } else {
                    let ne = |val: &Expr| {
                        Expr::binary(warpsafe_ir::BinOp::Ne, sty, Expr::Var(v), val.clone())
                    };
                    match values.split_first() {
                        None => Expr::bool(true),
                        Some((first, rest)) => rest.iter().fold(ne(first), |acc, val| {
                            Expr::binary(warpsafe_ir::BinOp::And, ScalarTy::Bool, acc, ne(val))
                        }),
                    }
                };
                let cond = Expr::binary(
                    warpsafe_ir::BinOp::Or,
                    ScalarTy::Bool,
                    Expr::Var(fall),
                    matches,
                );
                let cspan = s.span(*case);
                let before = s.targets();
                let (mut then_, ()) = s.block(|s2| {
                    for st in named_children(*case) {
                        if Some(st.id()) == case.child_by_field_name("value").map(|x| x.id()) {
                            continue;
                        }
                        s2.stmt(st)?;
                    }
                    Ok(())
                })?;
                let after = s.targets();
                let mut else_ = Vec::new();
                s.merge_branches(&after, &mut then_, &before, &mut else_, cspan);
                then_.insert(
                    0,
                    Stmt::new(
                        StmtKind::Assign {
                            dst: fall,
                            value: Expr::bool(true),
                        },
                        cspan,
                    ),
                );
                s.emit(StmtKind::If { cond, then_, else_ }, cspan);
            }
            Ok(())
        });
        self.pop_scope();
        self.loops.pop();
        let (mut block, ()) = result?;
        block.push(Stmt::new(StmtKind::Break(id), span));
        self.emit(
            StmtKind::Loop {
                id,
                kind: LoopKind::Switch,
                header: Vec::new(),
                cond: Expr::bool(true),
                check: LoopCheck::Before,
                body: block,
                step: Vec::new(),
            },
            span,
        );
        Ok(())
    }

    fn condition_value(&mut self, c: Node<'t>) -> R<Value> {
        let c = if c.kind() == "condition_clause" {
            c.child_by_field_name("value")
                .ok_or_else(|| self.unsupported(c, "condition"))?
        } else {
            c
        };
        self.value(c)
    }

    fn return_stmt(&mut self, n: Node<'t>) -> R<()> {
        let span = self.span(n);
        let value = named_children(n).into_iter().next();
        match self.returns.last().cloned() {
            None => {
                if let Some(v) = value {
                    self.effect(v)?;
                }
                self.emit(StmtKind::Return, span);
            }
            Some(ctx) if ctx.by_ref => {
                let v = value.ok_or_else(|| {
                    self.unsupported(n, "`return;` in a function returning a reference")
                })?;
                let place = self.place(v)?;
                let place = self.freeze(place, v);
                let top = self
                    .returns
                    .last_mut()
                    .expect("invariant: `ctx` is the innermost return context");
                if top.returned.is_some() {
                    return Err(self.unsupported(
                        n,
                        "a function returning a reference with more than one `return`",
                    ));
                }
                top.returned = Some(place);
                self.emit(StmtKind::Break(ctx.target), span);
            }
            Some(ctx) => {
                if let Some(v) = value {
                    match (&ctx.slot, &ctx.deduce) {
                        // The first `return` of a deduced type: its value's.
                        (None, Some(name)) => self.deduced_return(v, name, n)?,
                        // `return {};`, `return {a, b};`: the result
                        // initialised from the list.
                        (Some(slot), _) if v.kind() == "initializer_list" => {
                            let ty = self.place_type(slot);
                            self.init_place(slot, &ty, v)?;
                        }
                        (Some(slot), _) => {
                            let val = self.value(v)?;
                            self.write(slot, val, n)?;
                        }
                        (None, None) => self.effect(v)?,
                    }
                }
                self.emit(StmtKind::Break(ctx.target), span);
            }
        }
        Ok(())
    }

    /// The first `return v;` of a function or lambda whose return type is
    /// deduced: the result's slot `name`, of `v`'s type, made and written
    /// (later returns write it as any result). A `void` value makes none.
    fn deduced_return(&mut self, v: Node<'t>, name: &str, n: Node<'t>) -> R<()> {
        if v.kind() == "initializer_list" {
            return Err(self.unsupported(
                v,
                "a braced list returned from a function whose return type is deduced",
            ));
        }
        let val = self.value(v)?;
        let ty = match &val {
            Value::Scalar(_, t) => CType::Scalar(*t),
            Value::Agg(t, _) => t.clone(),
            Value::Void => return Ok(()),
            other => {
                return Err(
                    self.unsupported(v, format!("a deduced return type `{}`", other.ty_desc()))
                )
            }
        };
        let slot = self.local_place(name, &ty, false, n)?;
        self.write(&slot, val, n)?;
        self.returns
            .last_mut()
            .expect("invariant: a return statement is inside its function's return context")
            .slot = Some(slot);
        Ok(())
    }

    /// Local declarations of every supported kind.
    pub fn declaration(&mut self, n: Node<'t>) -> R<()> {
        let q = quals(self.syn, n);
        let ty_node = n
            .child_by_field_name("type")
            .ok_or_else(|| self.unsupported(n, "declaration without a type"))?;
        let declarators: Vec<Node<'t>> = n
            .children_by_field_name("declarator", &mut n.walk())
            .collect();
        let is_auto = ty_node.kind() == "placeholder_type_specifier";
        let base = if is_auto {
            CType::Void
        } else {
            self.type_cx().base_type(ty_node)?
        };
        for d in declarators {
            if d.kind() == "function_declarator" {
                self.misparsed_ctor(base.clone(), d, n)?;
                continue;
            }
            let init = if d.kind() == "init_declarator" {
                d.child_by_field_name("value")
            } else {
                None
            };
            let declared = self.type_cx().declarator(base.clone(), d)?;
            let name = self.text(declared.name).to_string();
            let span = self.span(d);
            if q.shared {
                let place = self.shared_decl(d, &name, &declared.ty, q.extern_, q.volatile)?;
                self.bind(&name, Binding::Place(place));
                continue;
            }
            if q.static_ {
                return Err(self.unsupported(n, "`static` local variables"));
            }
            // `const char letters[] = {'x', 'y'};` (or `letters[] {...}`):
            // the brace list gives the length.
            let mut declared = declared;
            if let (CType::Array(elem, None), Some(list)) = (&declared.ty, init) {
                if list.kind() == "initializer_list" {
                    let len = named_children(list).len() as u64;
                    if len > 0 {
                        declared.ty = CType::Array(elem.clone(), Some(len));
                    }
                }
            }
            if declared.is_ref {
                let init =
                    init.ok_or_else(|| self.unsupported(d, "a reference without an initialiser"))?;
                // A call returning a reference gives the place it refers
                // to; a `const T &` bound to any other call's result binds
                // a temporary holding it.
                let place = match self.block(|s| s.place(init)) {
                    Ok((block, place)) => {
                        self.out.extend(block);
                        place
                    }
                    Err(_) if init.kind() == "call_expression" && q.const_ => {
                        let v = self.value(init)?;
                        let place = self.local_place(&name, &declared.ty, false, d)?;
                        self.write(&place, v, d)?;
                        self.bind(&name, Binding::Place(place));
                        continue;
                    }
                    Err(e) => return Err(e),
                };
                // A reference to a base class bound to a derived object
                // (calls through it would bind by the static type).
                let bound = self.place_type(&place);
                if let (CType::Struct(want), CType::Struct(got)) = (&declared.ty, &bound) {
                    if want != got {
                        return Err(self.unsupported(
                            d,
                            format!("a `{want}&` bound to a `{got}` (derived-to-base conversions are not modelled)"),
                        ));
                    }
                }
                let place = self.freeze(place, d);
                self.bind(&name, Binding::Place(place));
                continue;
            }
            // `auto x = e;`: the type of the initialiser.
            if is_auto {
                let init =
                    init.ok_or_else(|| self.unsupported(d, "`auto` without an initialiser"))?;
                if init.kind() == "lambda_expression" {
                    let lambda = self.lambda(init)?;
                    self.bind(&name, lambda);
                    continue;
                }
                let v = self.value(init)?;
                let place = match v {
                    Value::Group(g) => {
                        self.bind(&name, Binding::Group(g));
                        continue;
                    }
                    Value::AtomicRef(ref p, t, s) => Place::AtomicRef(Box::new(p.clone()), t, s),
                    Value::Scalar(_, t) => {
                        self.local_place(&name, &CType::Scalar(t), q.volatile, d)?
                    }
                    Value::Ptr(ref p) => self.local_place(
                        &name,
                        &CType::Pointer(Box::new(p.pointee.clone())),
                        p.volatile,
                        d,
                    )?,
                    Value::Agg(ref t, _) => self.local_place(&name, t, q.volatile, d)?,
                    Value::FnPtr(_) => self.local_place(&name, &CType::FnPtr, false, d)?,
                    Value::Void => return Err(self.unsupported(d, "`auto` of a void expression")),
                };
                if !matches!(place, Place::AtomicRef(..)) {
                    self.write(&place, v, d)?;
                }
                self.bind(&name, Binding::Place(place));
                continue;
            }
            match &declared.ty {
                CType::Group(_) => {
                    let init =
                        init.ok_or_else(|| self.unsupported(d, "a group without an initialiser"))?;
                    match self.value(init)? {
                        Value::Group(g) => self.bind(&name, Binding::Group(g)),
                        other => {
                            return Err(self.unsupported(
                                init,
                                format!("a `{}` as a thread group", other.ty_desc()),
                            ))
                        }
                    }
                    continue;
                }
                CType::AtomicRef(t, s) => {
                    let init = init.ok_or_else(|| {
                        self.unsupported(d, "an atomic_ref without an initialiser")
                    })?;
                    let target = self.ctor_arg(init)?;
                    let place = self.place(target)?;
                    self.bind(
                        &name,
                        Binding::Place(Place::AtomicRef(Box::new(place), *t, *s)),
                    );
                    continue;
                }
                CType::Scalar(t) if q.const_ && !self.is_addr_taken(&name) => {
                    if let Some(v) = init.and_then(|i| crate::consteval::eval(self.syn, i, self)) {
                        let v = super::value::wrap(v, *t);
                        if t.is_integer() || *t == ScalarTy::Bool {
                            self.bind(&name, Binding::Const(v, *t));
                            continue;
                        }
                    }
                }
                _ => {}
            }
            let class = match &declared.ty {
                CType::Struct(c) if self.has_initialisation(c) => Some(c.clone()),
                CType::Array(..) => {
                    let (elem, _) = array_shape(&declared.ty);
                    if matches!(&elem, CType::Struct(c) if self.has_initialisation(c)) {
                        return Err(self.unsupported(
                            d,
                            "an array of a class with constructors or default member initialisers",
                        ));
                    }
                    None
                }
                _ => None,
            };
            let place = self.local_place(&name, &declared.ty, q.volatile, d)?;
            if let Some(c) = class {
                self.construct(&place, &c, init, d)?;
                self.bind(&name, Binding::Place(place));
                continue;
            }
            // Bind before the initialiser is lowered only when C allows
            // self-reference; it does not matter for supported code.
            if let Some(init) = init {
                self.init_place(&place, &declared.ty, init)?;
            } else if let CType::Vector(..) = declared.ty {
                // dim3 defaults are 1; other vectors are uninitialised.
            }
            let _ = span;
            self.bind(&name, Binding::Place(place));
        }
        Ok(())
    }

    /// `cuda::atomic_ref<int, S> r(a[1]);` parses as a function declarator;
    /// rebuild the intended constructor call.
    fn misparsed_ctor(&mut self, base: CType, d: Node<'t>, n: Node<'t>) -> R<()> {
        if let CType::Struct(class) = &base {
            if let Some(args) = self.misparsed_args(d) {
                // `PeerGroup g(data, grid);`: C++'s most vexing parse, read
                // by tree-sitter as a function declaration because every
                // argument is a plain name. The names are variables in
                // scope, so it constructs an object.
                let name_node = d
                    .child_by_field_name("declarator")
                    .ok_or_else(|| self.unsupported(d, "declarator"))?;
                let name = self.text(name_node).to_string();
                let volatile = crate::decl::quals(self.syn, n).volatile;
                let place = self.local_place(&name, &base, volatile, d)?;
                self.construct(&place, class, Some(args), d)?;
                self.bind(&name, Binding::Place(place));
                return Ok(());
            }
        }
        let CType::AtomicRef(t, s) = base else {
            return Err(self.unsupported(d, "local function declarations"));
        };
        let name_node = d
            .child_by_field_name("declarator")
            .ok_or_else(|| self.unsupported(d, "declarator"))?;
        let params = d
            .child_by_field_name("parameters")
            .ok_or_else(|| self.unsupported(d, "declarator"))?;
        let param = *named_children(params)
            .first()
            .ok_or_else(|| self.unsupported(d, "atomic_ref without a target"))?;
        // `x` parses as a type name, `a[i]` as an abstract array declarator.
        let ty = param
            .child_by_field_name("type")
            .ok_or_else(|| self.unsupported(param, "atomic_ref target"))?;
        let mut place = self.place_of_name(ty)?;
        let mut sizes = Vec::new();
        let mut decl = param.child_by_field_name("declarator");
        while let Some(dd) = decl {
            if dd.kind() != "abstract_array_declarator" {
                return Err(self.unsupported(dd, "this atomic_ref target"));
            }
            sizes.push(
                dd.child_by_field_name("size")
                    .ok_or_else(|| self.unsupported(dd, "index"))?,
            );
            decl = dd.child_by_field_name("declarator");
        }
        for idx in sizes.into_iter().rev() {
            let base_v = self.read(&place, param)?;
            let ptr = self.as_ptr(base_v, param)?;
            let (e, et) = self.scalar(idx)?;
            let moved = self.ptr_add(ptr, super::value::i64_expr(e, et), idx)?;
            place = self.deref(moved, idx)?;
        }
        let _ = n;
        let name = self.text(name_node).to_string();
        self.bind(
            &name,
            Binding::Place(Place::AtomicRef(Box::new(place), t, s)),
        );
        Ok(())
    }

    /// The parameter list of a function declarator that is really a
    /// constructor call: every parameter a bare name (no declarator) that
    /// names a variable in scope, not a type.
    fn misparsed_args(&self, d: Node<'t>) -> Option<Node<'t>> {
        let params = d.child_by_field_name("parameters")?;
        let list = named_children(params);
        let names_variable = |p: &Node<'t>| {
            p.kind() == "parameter_declaration"
                && p.child_by_field_name("declarator").is_none()
                && p.child_by_field_name("type").is_some_and(|t| {
                    t.kind() == "type_identifier" && self.lookup(self.text(t)).is_some()
                })
        };
        (!list.is_empty() && list.iter().all(names_variable)).then_some(params)
    }

    fn place_of_name(&mut self, n: Node<'t>) -> R<Place> {
        let name = self.text(n).to_string();
        match self.lookup(&name) {
            Some(Binding::Place(p)) => Ok(p),
            _ => match self.global(&name, n)? {
                Some(p) => Ok(p),
                None => Err(self.undeclared(n)),
            },
        }
    }

    /// The single argument of `T x(arg)` / `T x{arg}` / `T x = T(arg)`.
    fn ctor_arg(&self, init: Node<'t>) -> R<Node<'t>> {
        match init.kind() {
            "argument_list" | "initializer_list" => named_children(init)
                .into_iter()
                .next()
                .ok_or_else(|| self.unsupported(init, "missing argument")),
            "call_expression" => init
                .child_by_field_name("arguments")
                .and_then(|a| named_children(a).into_iter().next())
                .ok_or_else(|| self.unsupported(init, "missing argument")),
            _ => Ok(init),
        }
    }

    /// A fresh local of type `ty`: a variable, an aggregate of variables, a
    /// pointer variable, or a local-memory array.
    pub fn local_place(&mut self, name: &str, ty: &CType, volatile: bool, d: Node) -> R<Place> {
        let span = self.span(d);
        // A union's members are views of its storage: it lives in memory.
        let in_memory = self.is_addr_taken(name)
            || matches!(ty, CType::Array(..) | CType::Atomic(..))
            || self.union_members(ty).is_some();
        if in_memory {
            let (elem, dims) = array_shape(ty);
            let slots = self.slots(&elem, d)?;
            let total = dims.iter().product::<u64>().max(1);
            if dims.is_empty() {
                // A scalar or aggregate whose address is taken.
                let id = self.new_array(
                    name,
                    MemSpace::Local,
                    ArrayOrigin::Local,
                    &elem,
                    vec![1],
                    slots,
                    span,
                );
                return Ok(Place::Mem {
                    array: id,
                    index: Expr::int(0, ScalarTy::I64),
                    ty: ty.clone(),
                    volatile,
                });
            }
            if total > 1 << 20 {
                return Err(self.unsupported(d, "local arrays larger than 2^20 elements"));
            }
            let id = self.new_array(
                name,
                MemSpace::Local,
                ArrayOrigin::Local,
                &elem,
                dims,
                slots,
                span,
            );
            return Ok(Place::Mem {
                array: id,
                index: Expr::int(0, ScalarTy::I64),
                ty: ty.clone(),
                volatile,
            });
        }
        match ty {
            CType::Scalar(t) => Ok(Place::Var(self.new_var(name, *t, VarKind::Local, span), *t)),
            CType::FnPtr => Ok(Place::FnVar(self.new_var(
                name,
                ScalarTy::U32,
                VarKind::Local,
                span,
            ))),
            CType::Pointer(p) => {
                let off = self.new_var(name, ScalarTy::I64, VarKind::Local, span);
                self.ptr_targets
                    .insert(off, super::targets::PtrState::Static(None));
                Ok(Place::PtrVar {
                    offset: off,
                    pointee: (**p).clone(),
                    volatile,
                })
            }
            CType::Vector(..) | CType::Struct(_) => {
                let fields = self.items.types.fields(ty).ok_or_else(|| {
                    self.unsupported(d, format!("unknown type `{}`", ty.describe()))
                })?;
                let mut places = Vec::new();
                for (fname, fty, _) in fields {
                    places.push(self.local_place(&format!("{name}.{fname}"), &fty, volatile, d)?);
                }
                Ok(Place::Agg(ty.clone(), places))
            }
            CType::Void => Err(self.unsupported(d, "a variable of type void")),
            other => Err(self.unsupported(d, format!("a local of type `{}`", other.describe()))),
        }
    }

    /// Initialises a place from `= e`, `(args)`, `{...}`.
    pub fn init_place(&mut self, place: &Place, ty: &CType, init: Node<'t>) -> R<()> {
        match init.kind() {
            "initializer_list" | "argument_list" => {
                let elems = named_children(init);
                match (place, ty) {
                    (Place::Agg(_, fields), _) => {
                        let is_dim3 = matches!(ty, CType::Vector(_, 3, n) if n == "dim3");
                        for (i, f) in fields.iter().enumerate() {
                            let fty = self.place_type(f);
                            match elems.get(i) {
                                Some(e) => self.init_place(f, &fty, *e)?,
                                None if is_dim3 => self.write(
                                    f,
                                    Value::Scalar(Expr::int(1, ScalarTy::U32), ScalarTy::U32),
                                    init,
                                )?,
                                None if !elems.is_empty() => self.zero(f, &fty, init)?,
                                None => {}
                            }
                        }
                        if elems.len() == 1
                            && fields.len() > 1
                            && elems[0].kind() != "initializer_list"
                        {
                            // `T x(other)` copy construction.
                            let v = self.value(elems[0])?;
                            if let Value::Agg(..) = v {
                                return self.write(place, v, init);
                            }
                        }
                        Ok(())
                    }
                    (
                        Place::Mem {
                            array,
                            index,
                            volatile,
                            ..
                        },
                        CType::Array(elem, Some(len)),
                    ) => {
                        let places = self.elements(*array, index, *volatile, elem, *len, init)?;
                        for (i, p) in places.iter().enumerate() {
                            match elems.get(i) {
                                Some(e) => self.init_place(p, elem, *e)?,
                                None => self.zero(p, elem, init)?,
                            }
                        }
                        Ok(())
                    }
                    (
                        Place::Mem {
                            array,
                            index,
                            volatile,
                            ty: mty,
                        },
                        _,
                    ) if mty.is_aggregate() => {
                        let fields = self.mem_fields(*array, index, mty, *volatile, init)?;
                        let agg = Place::Agg(mty.clone(), fields);
                        self.init_place(&agg, ty, init)
                    }
                    (_, _) if elems.len() == 1 => {
                        let v = self.value(elems[0])?;
                        self.write(place, v, init)
                    }
                    (_, _) if elems.is_empty() => self.zero(place, ty, init),
                    _ => Err(self.unsupported(init, "this initialiser")),
                }
            }
            _ => {
                let v = self.value(init)?;
                self.write(place, v, init)
            }
        }
    }

    /// The places of the `len` elements of an array in memory from `index`.
    pub(super) fn elements(
        &self,
        array: warpsafe_ir::ArrayId,
        index: &Expr,
        volatile: bool,
        elem: &CType,
        len: u64,
        n: Node,
    ) -> R<Vec<Place>> {
        let size = self.slot_count(elem, n)?;
        Ok((0..len)
            .map(|i| Place::Mem {
                array,
                index: super::value::add_offset(
                    index.clone(),
                    Expr::int((i * size) as i128, ScalarTy::I64),
                ),
                ty: elem.clone(),
                volatile,
            })
            .collect())
    }

    pub(super) fn place_type(&self, p: &Place) -> CType {
        match p {
            Place::Var(_, t) => CType::Scalar(*t),
            Place::Mem { ty, .. } | Place::Agg(ty, _) => ty.clone(),
            Place::View(v) => v.ty.clone(),
            Place::PtrVar { pointee, .. } => CType::Pointer(Box::new(pointee.clone())),
            Place::AtomicRef(_, t, s) => CType::AtomicRef(*t, *s),
            Place::FnVar(_) => CType::FnPtr,
            Place::Choice { arms, .. } => arms
                .first()
                .map(|(_, p)| self.place_type(p))
                .unwrap_or(CType::Void),
        }
    }

    pub(super) fn zero(&mut self, p: &Place, ty: &CType, n: Node<'t>) -> R<()> {
        match ty {
            CType::FnPtr => self.write(p, Value::FnPtr(Expr::int(0, ScalarTy::U32)), n),
            CType::Scalar(t) | CType::Atomic(t, _) => {
                let z = if t.is_float() {
                    Expr::Const(warpsafe_ir::Const::Float(0.0), *t)
                } else {
                    Expr::int(0, *t)
                };
                self.write(p, Value::Scalar(z, *t), n)
            }
            CType::Pointer(_) => self.write(
                p,
                Value::Scalar(Expr::int(0, ScalarTy::I32), ScalarTy::I32),
                n,
            ),
            _ => match (p, ty) {
                (Place::Agg(_, fields), _) => {
                    for f in fields.clone() {
                        let fty = self.place_type(&f);
                        self.zero(&f, &fty, n)?;
                    }
                    Ok(())
                }
                (
                    Place::Mem {
                        array,
                        index,
                        volatile,
                        ..
                    },
                    CType::Array(elem, Some(len)),
                ) => {
                    for q in self.elements(*array, index, *volatile, elem, *len, n)? {
                        self.zero(&q, elem, n)?;
                    }
                    Ok(())
                }
                (
                    Place::Mem {
                        array,
                        index,
                        volatile,
                        ty: mty,
                    },
                    _,
                ) => {
                    for f in self.mem_fields(*array, index, mty, *volatile, n)? {
                        let fty = self.place_type(&f);
                        self.zero(&f, &fty, n)?;
                    }
                    Ok(())
                }
                _ => Err(self.unsupported(n, "zero-initialising this object")),
            },
        }
    }

    /// A `__shared__` declaration inside a function: one array per block,
    /// shared by every inlined copy of the function.
    fn shared_decl(
        &mut self,
        d: Node,
        name: &str,
        ty: &CType,
        is_extern: bool,
        volatile: bool,
    ) -> R<Place> {
        if let Some(p) = self.shared_sites.get(&d.start_byte()) {
            return Ok(p.clone());
        }
        let place = self.make_shared(name, ty, is_extern, volatile, d)?;
        self.shared_sites.insert(d.start_byte(), place.clone());
        Ok(place)
    }

    /// A `__shared__` variable; `volatile` when it was declared so (its
    /// accesses are then volatile, `--volatile` says how they are read).
    pub fn make_shared(
        &mut self,
        name: &str,
        ty: &CType,
        is_extern: bool,
        volatile: bool,
        d: Node,
    ) -> R<Place> {
        let (elem, dims) = array_shape(ty);
        let slots = self.slots(&elem, d)?;
        let span = self.span(d);
        let (origin, dims) = if is_extern || matches!(ty, CType::Array(_, None)) {
            (ArrayOrigin::DynamicShared, Vec::new())
        } else if dims.is_empty() {
            (ArrayOrigin::Shared, vec![1])
        } else {
            (ArrayOrigin::Shared, dims)
        };
        let bytes = dims
            .iter()
            .product::<u64>()
            .saturating_mul(slots.iter().map(|t| t.size_bytes()).sum());
        if bytes > MAX_SHARED_BYTES {
            return Err(self.unsupported(
                d,
                format!("the `__shared__` array `{name}` needs {bytes} bytes; a block has at most {MAX_SHARED_BYTES}"),
            ));
        }
        // Every `extern __shared__` array of a kernel starts at the block's
        // dynamic shared memory: they are one array (aliases), which is only
        // modelled when they agree on the element type.
        let existing = (origin == ArrayOrigin::DynamicShared)
            .then(|| {
                self.kernel
                    .arrays
                    .iter()
                    .find(|a| a.origin == ArrayOrigin::DynamicShared)
            })
            .flatten();
        let id = match existing {
            Some(a) if a.slots == slots && a.elem == elem.describe() => a.id,
            // Another element type over the same buffer: the first array
            // seen at this type (see `view.rs`).
            Some(a)
                if self.uniform_slot_bytes(&elem).is_some()
                    && self.slot_bytes.contains_key(&a.id) =>
            {
                return Ok(Place::View(Box::new(super::view::View {
                    array: a.id,
                    base: Expr::int(0, ScalarTy::I64),
                    // Byte 0 of the buffer: aligned to any element.
                    align: 1 << 12,
                    extra: 0,
                    ty: CType::Array(Box::new(elem), None),
                    volatile,
                })));
            }
            Some(a) => {
                return Err(self
                    .unsupported(
                        d,
                        format!(
                            "`extern __shared__` arrays of different element types (`{}` and `{}`) alias one buffer; reinterpreting memory is not modelled",
                            a.elem,
                            elem.describe()
                        ),
                    )
                    .with_label(a.span, "the other array"))
            }
            None => self.new_array(name, MemSpace::Shared, origin, &elem, dims, slots, span),
        };
        let ty = match ty {
            CType::Array(e, None) => CType::Array(e.clone(), None),
            t => t.clone(),
        };
        Ok(Place::Mem {
            array: id,
            index: Expr::int(0, ScalarTy::I64),
            ty,
            volatile,
        })
    }
}

/// Shared memory of one block on the largest current GPUs (227 KiB).
const MAX_SHARED_BYTES: u64 = 227 * 1024;

/// Element type and dimensions of a (possibly nested) array type.
pub fn array_shape(ty: &CType) -> (CType, Vec<u64>) {
    let mut dims = Vec::new();
    let mut cur = ty;
    while let CType::Array(inner, size) = cur {
        dims.push(size.unwrap_or(0));
        cur = inner;
    }
    if dims.contains(&0) {
        dims.clear();
    }
    (cur.clone(), dims)
}
