//! Expressions: literals, operators, conversions, short-circuit and
//! conditional evaluation, assignments and increments.
//!
//! Invariant: operands are evaluated left to right; the right side of `&&`,
//! `||` and the arms of `?:` run only when C would run them (as control
//! flow when they access memory or have effects).

use super::value::{i64_expr, wrap, Place, Ptr, Value};
use super::{Binding, Lowerer, R};
use crate::consteval::int_literal;
use crate::syntax::named_children;
use crate::types::{promote, CType};
use tree_sitter::Node;
use warpsafe_ir::{BinOp, Builtin, Const, Dim, Expr, ScalarTy, StmtKind, UnOp};

impl<'t> Lowerer<'_, 't> {
    /// A scalar rvalue.
    pub fn scalar(&mut self, n: Node<'t>) -> R<(Expr, ScalarTy)> {
        let v = self.value(n)?;
        self.scalar_of(v, n)
    }

    /// A condition, as a `Bool`.
    pub fn cond(&mut self, n: Node<'t>) -> R<Expr> {
        let v = self.value(n)?;
        self.coerce(v, ScalarTy::Bool, n)
    }

    /// An rvalue.
    pub fn value(&mut self, n: Node<'t>) -> R<Value> {
        match n.kind() {
            "number_literal" => self.number(n),
            "char_literal" => {
                let v = crate::consteval::eval(self.syn, n, self)
                    .ok_or_else(|| self.unsupported(n, "character literal"))?;
                Ok(Value::Scalar(Expr::int(v, ScalarTy::I8), ScalarTy::I8))
            }
            "true" => Ok(Value::Scalar(Expr::bool(true), ScalarTy::Bool)),
            "false" => Ok(Value::Scalar(Expr::bool(false), ScalarTy::Bool)),
            "null" | "nullptr" => Ok(Value::Ptr(Ptr {
                target: None,
                choice: None,
                offset: Expr::int(0, ScalarTy::I64),
                pointee: CType::Void,
                volatile: false,
                null_if: None,
            })),
            "parenthesized_expression" => {
                let inner = *named_children(n)
                    .first()
                    .ok_or_else(|| self.unsupported(n, "empty parentheses"))?;
                self.value(inner)
            }
            "identifier" => self.identifier(n),
            // A variable's name that tree-sitter read as a type (the
            // arguments of a misparsed constructor call).
            "type_identifier" if self.lookup(self.text(n)).is_some() => self.identifier(n),
            "qualified_identifier" => {
                // A qualified name never names a local: look past them.
                self.without_locals(|s| {
                    if let Some((v, t)) = crate::consteval::eval_typed(s.syn, n, s) {
                        return Ok(Value::Scalar(Expr::int(v, t), t));
                    }
                    let name = n
                        .child_by_field_name("name")
                        .ok_or_else(|| s.unsupported(n, "name"))?;
                    s.value(name)
                })
            }
            "field_expression" => {
                if let Some(b) = self.builtin_field(n) {
                    return Ok(Value::Scalar(Expr::Builtin(b), ScalarTy::U32));
                }
                if let Some(v) = self.fragment_num_elements(n) {
                    return Ok(v);
                }
                if let Some(v) = self.call_result_field(n)? {
                    return Ok(v);
                }
                let p = self.place(n)?;
                self.read(&p, n)
            }
            "subscript_expression" => {
                // `a[i]` through a class's `operator[]`: its value (a
                // reference result is read).
                if let (Some(arg), Some(idx)) = (
                    n.child_by_field_name("argument"),
                    n.child_by_field_name("indices")
                        .and_then(|l| named_children(l).into_iter().next()),
                ) {
                    if let Some((m, this)) = self.index_method(arg, idx, n)? {
                        return self.inline(&m, None, &[idx], n, Some(this));
                    }
                }
                let p = self.place(n)?;
                self.read(&p, n)
            }
            "pointer_expression" => {
                let op = n.child_by_field_name("operator").map(|o| self.text(o));
                let arg = n
                    .child_by_field_name("argument")
                    .ok_or_else(|| self.unsupported(n, "pointer"))?;
                if op == Some("&") {
                    if arg.kind() == "identifier" && self.lookup(self.text(arg)).is_none() {
                        if let Some(id) = self.function_id(self.text(arg)) {
                            return Ok(Value::FnPtr(Expr::int(id as i128, ScalarTy::U32)));
                        }
                    }
                    let p = self.place(arg)?;
                    return self.address_of(p, n);
                }
                let (block, v) = self.block(|s| s.value(arg))?;
                if let Value::FnPtr(_) = v {
                    // `*f` of a function pointer is the function.
                    self.out.extend(block);
                    return Ok(v);
                }
                let p = self.place(n)?;
                self.read(&p, n)
            }
            "unary_expression" => self.unary(n),
            "binary_expression" => self.binary(n),
            "assignment_expression" => self.assign(n, true),
            "update_expression" => self.update(n, true),
            "conditional_expression" => self.conditional(n),
            "comma_expression" => {
                let l = n
                    .child_by_field_name("left")
                    .ok_or_else(|| self.unsupported(n, "comma"))?;
                let r = n
                    .child_by_field_name("right")
                    .ok_or_else(|| self.unsupported(n, "comma"))?;
                self.effect(l)?;
                self.value(r)
            }
            "cast_expression" => {
                let ty = n
                    .child_by_field_name("type")
                    .ok_or_else(|| self.unsupported(n, "cast"))?;
                let v = n
                    .child_by_field_name("value")
                    .ok_or_else(|| self.unsupported(n, "cast"))?;
                let to = self.type_cx().type_descriptor(ty)?;
                let val = self.value(v)?;
                self.cast(val, to, n)
            }
            "sizeof_expression" => self.sizeof(n),
            "compound_literal_expression" => self.compound_literal(n),
            "call_expression" => self.call(n),
            "initializer_list" => {
                Err(self.unsupported(n, "an initialiser list outside a declaration"))
            }
            "string_literal" | "concatenated_string" => {
                Err(self.unsupported(n, "a string outside `printf` or `assert`"))
            }
            "lambda_expression" => Err(self.unsupported(
                n,
                "a lambda other than one bound to a local name and called through it (`auto f = [&](int i) { ... }; f(1);`)",
            )),
            "new_expression" | "delete_expression" => {
                Err(self.unsupported(n, "dynamic allocation (`new`/`delete`)"))
            }
            "gnu_asm_expression" => {
                self.inline_asm(n)?;
                Ok(Value::Void)
            }
            "this" => Err(self.unsupported(n, "`this` (class methods)")),
            other => Err(self.unsupported(n, format!("expression kind `{other}`"))),
        }
    }

    /// Evaluates an expression for its effects only (statement context).
    pub fn effect(&mut self, n: Node<'t>) -> R<()> {
        match n.kind() {
            "assignment_expression" => self.assign(n, false).map(drop),
            "update_expression" => self.update(n, false).map(drop),
            "comma_expression" => {
                for c in named_children(n) {
                    self.effect(c)?;
                }
                Ok(())
            }
            _ => self.value(n).map(drop),
        }
    }

    fn builtin_field(&self, n: Node) -> Option<Builtin> {
        let arg = n.child_by_field_name("argument")?;
        let field = n.child_by_field_name("field")?;
        if arg.kind() != "identifier" || self.lookup(self.text(arg)).is_some() {
            return None;
        }
        let dim = match self.text(field) {
            "x" => Dim::X,
            "y" => Dim::Y,
            "z" => Dim::Z,
            _ => return None,
        };
        Some(match self.text(arg) {
            "threadIdx" => Builtin::ThreadIdx(dim),
            "blockIdx" => Builtin::BlockIdx(dim),
            "blockDim" => Builtin::BlockDim(dim),
            "gridDim" => Builtin::GridDim(dim),
            _ => return None,
        })
    }

    fn identifier(&mut self, n: Node<'t>) -> R<Value> {
        let name = self.text(n);
        match self.lookup(name) {
            Some(Binding::Place(p)) => return self.read(&p, n),
            Some(Binding::Const(v, t)) => return Ok(Value::Scalar(Expr::int(v, t), t)),
            Some(Binding::Group(g)) => return Ok(Value::Group(g)),
            Some(Binding::Unusable(d)) => return Err(d.with_label(self.span(n), "used here")),
            Some(Binding::Lambda(_)) => {
                return Err(self.unsupported(
                    n,
                    format!("the lambda `{name}` other than called (passed or copied as a value)"),
                ))
            }
            None => {}
        }
        if self.items.ambiguous.contains(name) {
            return Err(self.ambiguous_name(n, name));
        }
        if let Some(v) = crate::consteval::ConstEnv::constant(self, name) {
            let t = crate::consteval::ConstEnv::constant_type(self, name).unwrap_or(ScalarTy::I32);
            return Ok(Value::Scalar(Expr::int(v, t), t));
        }
        let dims = |b: fn(Dim) -> Builtin| {
            Value::Agg(
                crate::types::vector_type("dim3").unwrap_or(CType::Void),
                Dim::ALL
                    .iter()
                    .map(|d| Value::Scalar(Expr::Builtin(b(*d)), ScalarTy::U32))
                    .collect(),
            )
        };
        match name {
            "warpSize" => {
                return Ok(Value::Scalar(
                    Expr::Builtin(Builtin::WarpSize),
                    ScalarTy::I32,
                ))
            }
            "threadIdx" => return Ok(dims(Builtin::ThreadIdx)),
            "blockIdx" => return Ok(dims(Builtin::BlockIdx)),
            "blockDim" => return Ok(dims(Builtin::BlockDim)),
            "gridDim" => return Ok(dims(Builtin::GridDim)),
            "NULL" => return Ok(Value::Scalar(Expr::int(0, ScalarTy::I32), ScalarTy::I32)),
            _ => {}
        }
        if let Some(p) = self.global(name, n)? {
            return self.read(&p, n);
        }
        if let Some(id) = self.function_id(name) {
            return Ok(Value::FnPtr(Expr::int(id as i128, ScalarTy::U32)));
        }
        Err(self.undeclared(n))
    }

    fn number(&self, n: Node) -> R<Value> {
        let text = self.text(n).replace('\'', "");
        let lower = text.to_ascii_lowercase();
        let is_hex = lower.starts_with("0x");
        let is_float = !is_hex
            && (lower.contains('.') || lower.contains('e') || lower.ends_with('f'))
            || (is_hex && lower.contains('p'));
        if is_float {
            let digits = lower.trim_end_matches(['f', 'l']);
            let v: f64 = digits
                .parse()
                .map_err(|_| self.unsupported(n, format!("number `{text}`")))?;
            let ty = if lower.ends_with('f') {
                ScalarTy::F32
            } else {
                ScalarTy::F64
            };
            return Ok(Value::Scalar(Expr::Const(Const::Float(v), ty), ty));
        }
        // The grammar reads `-3000000000` as one literal: C types the
        // magnitude and negates it in that type.
        let (negative, magnitude) = match text.strip_prefix('-') {
            Some(m) => (true, m.trim()),
            None => (false, text.as_str()),
        };
        let unsupported = || self.unsupported(n, format!("number `{text}`"));
        let v = int_literal(magnitude).ok_or_else(unsupported)?;
        let ty = crate::consteval::literal_type(magnitude, v).ok_or_else(unsupported)?;
        let v = if negative {
            // Negating the smallest value of a signed type overflows.
            let neg = wrap(-v, ty);
            if ty.is_signed() && neg != -v {
                return Err(unsupported());
            }
            neg
        } else {
            v
        };
        Ok(Value::Scalar(Expr::int(v, ty), ty))
    }

    fn unary(&mut self, n: Node<'t>) -> R<Value> {
        let op = n
            .child_by_field_name("operator")
            .map(|o| self.text(o))
            .unwrap_or("");
        let arg = n
            .child_by_field_name("argument")
            .ok_or_else(|| self.unsupported(n, "unary"))?;
        if let Some(f) = self.user_operator(op, &[arg], n)? {
            return self.inline(&f, None, &[arg], n, None);
        }
        if op == "!" {
            let c = self.cond(arg)?;
            return Ok(Value::Scalar(Expr::negate(c), ScalarTy::Bool));
        }
        let (e, t) = self.scalar(arg)?;
        let pt = promote(t);
        let e = self.convert(e, t, pt);
        match op {
            "-" => Ok(Value::Scalar(
                match e {
                    Expr::Const(Const::Int(v), _) => Expr::int(wrap(-v, pt), pt),
                    Expr::Const(Const::Float(v), _) => Expr::Const(Const::Float(-v), pt),
                    e => Expr::Unary(UnOp::Neg, pt, Box::new(e)),
                },
                pt,
            )),
            "+" => Ok(Value::Scalar(e, pt)),
            "~" => Ok(Value::Scalar(
                Expr::Unary(UnOp::BitNot, pt, Box::new(e)),
                pt,
            )),
            _ => Err(self.unsupported(n, format!("operator `{op}`"))),
        }
    }

    fn binary(&mut self, n: Node<'t>) -> R<Value> {
        let op = n
            .child_by_field_name("operator")
            .map(|o| self.text(o))
            .unwrap_or("");
        let l = n
            .child_by_field_name("left")
            .ok_or_else(|| self.unsupported(n, "binary"))?;
        let r = n
            .child_by_field_name("right")
            .ok_or_else(|| self.unsupported(n, "binary"))?;
        if op == "&&" || op == "||" {
            return self.logical(op == "&&", l, r, n);
        }
        if let Some(f) = self.user_operator(op, &[l, r], n)? {
            return self.inline(&f, None, &[l, r], n, None);
        }
        let a = self.value(l)?;
        let b = self.value(r)?;
        self.binop(op, a, b, n)
    }

    /// Applies a C binary operator to two values.
    pub fn binop(&mut self, op: &str, a: Value, b: Value, n: Node<'t>) -> R<Value> {
        // Function pointers compare as function ids.
        let id = |v: Value| match v {
            Value::FnPtr(e) => Value::Scalar(e, ScalarTy::U32),
            v => v,
        };
        let (a, b) = (id(a), id(b));
        if let Some(v) = self.half2_binop(op, &a, &b, n)? {
            return Ok(v);
        }
        // Pointer arithmetic and comparison.
        match (&a, &b, op) {
            (Value::Ptr(_), Value::Scalar(..), "+" | "-") => {
                let (Value::Ptr(p), Value::Scalar(e, t)) = (a, b) else {
                    unreachable!("matched above")
                };
                let k = i64_expr(e, t);
                let k = if op == "-" {
                    Expr::Unary(UnOp::Neg, ScalarTy::I64, Box::new(k))
                } else {
                    k
                };
                return Ok(Value::Ptr(self.ptr_add(p, k, n)?));
            }
            (Value::Scalar(..), Value::Ptr(_), "+") => {
                let (Value::Scalar(e, t), Value::Ptr(p)) = (a, b) else {
                    unreachable!("matched above")
                };
                return Ok(Value::Ptr(self.ptr_add(p, i64_expr(e, t), n)?));
            }
            (Value::Ptr(_), Value::Ptr(_), "-") => {
                let (Value::Ptr(p), Value::Ptr(q)) = (a, b) else {
                    unreachable!("matched above")
                };
                return self.ptr_diff(p, q, n);
            }
            (Value::Ptr(x), Value::Ptr(y), "==" | "!=")
                if (x.is_null() && self.points_to_host_object(y))
                    || (y.is_null() && self.points_to_host_object(x)) =>
            {
                let p = if x.is_null() { y } else { x };
                return self.host_pointer_is_null(p, op == "==", n);
            }
            (Value::Ptr(p), Value::Scalar(e, _), "==" | "!=")
            | (Value::Scalar(e, _), Value::Ptr(p), "==" | "!=")
                if e.as_const_int() == Some(0) && self.points_to_host_object(p) =>
            {
                return self.host_pointer_is_null(p, op == "==", n);
            }
            (Value::Ptr(p), Value::Ptr(q), "==" | "!=") if p.points_apart(q) => {
                // Null against an object, or objects of distinct arrays
                // (distinct parameters do not alias: README's known gaps).
                return Ok(Value::Scalar(Expr::bool(op == "!="), ScalarTy::Bool));
            }
            (Value::Ptr(p), Value::Ptr(q), "==" | "!=") if p.is_null() && q.is_null() => {
                return Ok(Value::Scalar(Expr::bool(op == "=="), ScalarTy::Bool));
            }
            (Value::Ptr(p), Value::Scalar(e, _), "==" | "!=")
            | (Value::Scalar(e, _), Value::Ptr(p), "==" | "!=")
                if e.as_const_int() == Some(0) && (p.is_null() || p.points_somewhere()) =>
            {
                // `p == NULL` (`NULL` is `0`): known, as `if (p)` is.
                let equal = p.is_null();
                return Ok(Value::Scalar(
                    Expr::bool(equal == (op == "==")),
                    ScalarTy::Bool,
                ));
            }
            (Value::Ptr(p), Value::Ptr(q), "==" | "!=" | "<" | "<=" | ">" | ">=") => {
                if p.target != q.target
                    || p.target.is_none()
                    || p.choice.is_some()
                    || q.choice.is_some()
                {
                    return Err(
                        self.unsupported(n, "comparing pointers into different arrays (or null)")
                    );
                }
                // Both offsets counted in the unit of `p`'s pointee.
                let q = if q.pointee != p.pointee {
                    self.cast_ptr(q.clone(), p.pointee.clone(), n)?
                } else {
                    q.clone()
                };
                let (p, q) = (p.offset.clone(), q.offset.clone());
                let bop = cmp_op(op).unwrap_or(BinOp::Eq);
                return Ok(Value::Scalar(
                    Expr::binary(bop, ScalarTy::I64, p, q),
                    ScalarTy::Bool,
                ));
            }
            (Value::Ptr(_), Value::Scalar(..), _) | (Value::Scalar(..), Value::Ptr(_), _) => {
                return Err(
                    self.unsupported(n, format!("operator `{op}` between a pointer and a number"))
                );
            }
            _ => {}
        }
        let a = self.scalar_of(a, n)?;
        let b = self.scalar_of(b, n)?;
        if op == "<<" || op == ">>" {
            let lt = promote(a.1);
            let le = self.convert(a.0, a.1, lt);
            let re = self.convert(b.0, b.1, lt);
            let bop = if op == "<<" { BinOp::Shl } else { BinOp::Shr };
            return Ok(Value::Scalar(fold(bop, lt, le, re), lt));
        }
        let (x, y, t) = self.unify(a, b);
        let bop = match BinOp::from_symbol(op) {
            Some(c) if c.is_comparison() => {
                return Ok(Value::Scalar(fold(c, t, x, y), ScalarTy::Bool))
            }
            Some(b) if !b.is_boolean() => b,
            _ => return Err(self.unsupported(n, format!("operator `{op}`"))),
        };
        if t.is_float()
            && matches!(
                bop,
                BinOp::Rem | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor
            )
        {
            return Err(self.unsupported(n, format!("operator `{op}` on floating point")));
        }
        Ok(Value::Scalar(fold(bop, t, x, y), t))
    }

    /// `a && b` / `a || b` with C's short circuit.
    fn logical(&mut self, and: bool, l: Node<'t>, r: Node<'t>, n: Node<'t>) -> R<Value> {
        let a = self.cond(l)?;
        let (block, b) = self.block(|s| s.cond(r))?;
        if block.is_empty() {
            let op = if and { BinOp::And } else { BinOp::Or };
            return Ok(Value::Scalar(
                Expr::binary(op, ScalarTy::Bool, a, b),
                ScalarTy::Bool,
            ));
        }
        let span = self.span(n);
        let t = self.temp(ScalarTy::Bool, span);
        self.emit(StmtKind::Assign { dst: t, value: a }, span);
        let mut then_ = block;
        then_.push(warpsafe_ir::Stmt::new(
            StmtKind::Assign { dst: t, value: b },
            span,
        ));
        let cond = if and {
            Expr::Var(t)
        } else {
            Expr::negate(Expr::Var(t))
        };
        self.emit(
            StmtKind::If {
                cond,
                then_,
                else_: Vec::new(),
            },
            span,
        );
        Ok(Value::Scalar(Expr::Var(t), ScalarTy::Bool))
    }

    fn conditional(&mut self, n: Node<'t>) -> R<Value> {
        let c = n
            .child_by_field_name("condition")
            .ok_or_else(|| self.unsupported(n, "?:"))?;
        let a = n
            .child_by_field_name("consequence")
            .ok_or_else(|| self.unsupported(n, "?:"))?;
        let b = n
            .child_by_field_name("alternative")
            .ok_or_else(|| self.unsupported(n, "?:"))?;
        let cond = self.cond(c)?;
        let (ba, va) = self.block(|s| s.value(a))?;
        let (bb, vb) = self.block(|s| s.value(b))?;
        if ba.is_empty() && bb.is_empty() {
            return self.select(cond, va, vb, n);
        }
        if let (Value::Agg(ty, _), Value::Agg(tb, _)) = (&va, &vb) {
            // `c ? p.get() : make_float2(0, 0)`: each arm's loads run only
            // on its branch, and fill one temporary aggregate.
            if ty != tb {
                return Err(self.unsupported(
                    n,
                    format!(
                        "a conditional between a `{}` and a `{}`",
                        ty.describe(),
                        tb.describe()
                    ),
                ));
            }
            let ty = ty.clone();
            let place = self.local_place("select", &ty, false, n)?;
            let (wa, ()) = self.block(|s| s.write(&place, va, a))?;
            let (wb, ()) = self.block(|s| s.write(&place, vb, b))?;
            let mut then_ = ba;
            then_.extend(wa);
            let mut else_ = bb;
            else_.extend(wb);
            let span = self.span(n);
            self.emit(StmtKind::If { cond, then_, else_ }, span);
            return self.read(&place, n);
        }
        let (ea, ta) = self.scalar_of(va, a)?;
        let (eb, tb) = self.scalar_of(vb, b)?;
        let (ea, eb, t) = self.unify_conditional((ea, ta), (eb, tb));
        let span = self.span(n);
        let tmp = self.temp(t, span);
        let mut then_ = ba;
        then_.push(warpsafe_ir::Stmt::new(
            StmtKind::Assign {
                dst: tmp,
                value: ea,
            },
            span,
        ));
        let mut else_ = bb;
        else_.push(warpsafe_ir::Stmt::new(
            StmtKind::Assign {
                dst: tmp,
                value: eb,
            },
            span,
        ));
        self.emit(StmtKind::If { cond, then_, else_ }, span);
        Ok(Value::Scalar(Expr::Var(tmp), t))
    }

    /// `c ? a : b` on pure values.
    pub fn select(&self, c: Expr, a: Value, b: Value, n: Node) -> R<Value> {
        match (a, b) {
            (Value::Ptr(p), Value::Ptr(q)) => {
                let same = p.choice.is_none()
                    && q.choice.is_none()
                    && (p.target == q.target || p.target.is_none() || q.target.is_none());
                if !same {
                    // Pointers into different arrays: the array becomes a choice.
                    return self
                        .select_ptr(c, p, q)
                        .map(Value::Ptr)
                        .ok_or_else(|| self.unsupported(n, "a conditional choosing between a null pointer and a pointer into several arrays, or into memory of another element size"));
                }
                let target = p.target.or(q.target);
                let offset = Expr::Select(Box::new(c), Box::new(p.offset), Box::new(q.offset));
                Ok(Value::Ptr(Ptr {
                    target,
                    choice: None,
                    offset,
                    pointee: p.pointee,
                    volatile: p.volatile || q.volatile,
                    null_if: None,
                }))
            }
            (Value::Agg(t, xs), Value::Agg(_, ys)) if xs.len() == ys.len() => {
                let mut out = Vec::new();
                for (x, y) in xs.into_iter().zip(ys) {
                    out.push(self.select(c.clone(), x, y, n)?);
                }
                Ok(Value::Agg(t, out))
            }
            (a, b) => {
                let a = self.scalar_of(a, n)?;
                let b = self.scalar_of(b, n)?;
                let (x, y, t) = self.unify_conditional(a, b);
                Ok(Value::Scalar(
                    Expr::Select(Box::new(c), Box::new(x), Box::new(y)),
                    t,
                ))
            }
        }
    }

    pub fn cast(&mut self, v: Value, to: CType, n: Node) -> R<Value> {
        match (v, &to) {
            (Value::Scalar(e, t), CType::Scalar(to)) => {
                Ok(Value::Scalar(self.convert(e, t, *to), *to))
            }
            (Value::Ptr(p), CType::Pointer(pointee)) => {
                Ok(Value::Ptr(self.cast_ptr(p, (**pointee).clone(), n)?))
            }
            (Value::Scalar(e, _), CType::Pointer(pointee)) if e.as_const_int() == Some(0) => {
                Ok(Value::Ptr(Ptr {
                    target: None,
                    choice: None,
                    offset: Expr::int(0, ScalarTy::I64),
                    pointee: (**pointee).clone(),
                    volatile: false,
                    null_if: None,
                }))
            }
            (_, CType::Void) => Ok(Value::Void),
            (Value::Scalar(e, t), CType::FnPtr) => {
                Ok(Value::FnPtr(self.convert(e, t, ScalarTy::U32)))
            }
            (v @ Value::FnPtr(_), CType::FnPtr) => Ok(v),
            (Value::FnPtr(e), CType::Scalar(t)) => {
                Ok(Value::Scalar(self.convert(e, ScalarTy::U32, *t), *t))
            }
            (v @ Value::Agg(..), t) if t.is_aggregate() => Ok(v),
            (v, _) => Err(self.unsupported(
                n,
                format!("cast from `{}` to `{}`", v.ty_desc(), to.describe()),
            )),
        }
    }

    fn sizeof(&mut self, n: Node<'t>) -> R<Value> {
        let ty = if let Some(t) = n.child_by_field_name("type") {
            self.type_cx().type_descriptor(t)?
        } else {
            let e = n
                .child_by_field_name("value")
                .ok_or_else(|| self.unsupported(n, "sizeof"))?;
            // `sizeof(T)` where the grammar could not tell `T` is a type.
            let inner = if e.kind() == "parenthesized_expression" {
                named_children(e).first().copied()
            } else {
                Some(e)
            };
            if let Some(id) =
                inner.filter(|i| i.kind() == "identifier" && self.lookup(self.text(*i)).is_none())
            {
                if let Ok(ty) = self.type_cx().base_type_named(id) {
                    let bytes = self.size_of(&ty, n)?;
                    return Ok(Value::Scalar(
                        Expr::int(bytes as i128, ScalarTy::U64),
                        ScalarTy::U64,
                    ));
                }
            }
            // `sizeof x` does not evaluate x: lower it in a discarded block.
            // An array object is measured whole, before it decays to a
            // pointer.
            if let Ok((
                _,
                Place::Mem {
                    ty: ty @ CType::Array(..),
                    ..
                },
            )) = self.block(|s| s.place(e))
            {
                let bytes = self.size_of(&ty, n)?;
                return Ok(Value::Scalar(
                    Expr::int(bytes as i128, ScalarTy::U64),
                    ScalarTy::U64,
                ));
            }
            let (_, v) = self.block(|s| s.value(e))?;
            match v {
                Value::Scalar(_, t) => CType::Scalar(t),
                Value::Agg(t, _) => t,
                Value::Ptr(_) => {
                    return Ok(Value::Scalar(Expr::int(8, ScalarTy::U64), ScalarTy::U64))
                }
                _ => return Err(self.unsupported(n, "sizeof of this expression")),
            }
        };
        let bytes = self.size_of(&ty, n)?;
        Ok(Value::Scalar(
            Expr::int(bytes as i128, ScalarTy::U64),
            ScalarTy::U64,
        ))
    }

    /// `sizeof(ty)` with C's padding and alignment.
    pub fn size_of(&self, ty: &CType, n: Node) -> R<u64> {
        match ty {
            CType::Pointer(_) => Ok(8),
            _ => self
                .items
                .types
                .layout(ty)
                .map(|l| l.size)
                .ok_or_else(|| self.unsupported(n, format!("`sizeof` of `{}`", ty.describe()))),
        }
    }

    pub fn address_of(&mut self, p: Place, n: Node) -> R<Value> {
        match p {
            Place::Mem {
                array,
                index,
                ty,
                volatile,
            } => Ok(Value::Ptr(Ptr {
                target: Some(array),
                choice: None,
                offset: index,
                pointee: ty,
                volatile,
                null_if: None,
            })),
            Place::AtomicRef(inner, ..) => self.address_of(*inner, n),
            Place::View(v) => Ok(Value::Ptr(self.view_address(*v, n)?)),
            Place::Choice { base, arms } => match arms.first() {
                Some((
                    _,
                    Place::Mem {
                        index,
                        ty,
                        volatile,
                        ..
                    },
                )) => Ok(Value::Ptr(Ptr {
                    target: None,
                    choice: Some(super::value::Choice {
                        base,
                        arrays: arms.iter().map(|(a, _)| *a).collect(),
                    }),
                    offset: index.clone(),
                    pointee: ty.clone(),
                    volatile: *volatile,
                    null_if: None,
                })),
                _ => Err(self.unsupported(
                    n,
                    "the address of a field through a pointer into several arrays",
                )),
            },
            // `&f` of a function is the function pointer itself.
            Place::FnVar(v) => Ok(Value::FnPtr(Expr::Var(v))),
            _ => Err(self.unsupported(n, "taking the address of a register variable")),
        }
    }

    /// `x = v`, `x op= v`; returns the assigned value.
    pub fn assign(&mut self, n: Node<'t>, want: bool) -> R<Value> {
        let l = n
            .child_by_field_name("left")
            .ok_or_else(|| self.unsupported(n, "assignment"))?;
        let r = n
            .child_by_field_name("right")
            .ok_or_else(|| self.unsupported(n, "assignment"))?;
        let op = n
            .child_by_field_name("operator")
            .map(|o| self.text(o))
            .unwrap_or("=");
        if op != "=" {
            if let Some(f) = self.user_operator(op, &[l, r], n)? {
                return self.inline(&f, None, &[l, r], n, None);
            }
        }
        // C++17 sequences the right operand before the left one
        // ([expr.ass]/1): the place is lowered apart and emitted after it.
        let (place_code, place) = self.block(|s| s.place(l))?;
        if let Place::AtomicRef(inner, t, scope) = &place {
            // `atomic_obj = v` / `atomic_obj += v` on a cuda::atomic.
            self.out.extend(place_code);
            return self.atomic_object_assign(inner, *t, *scope, op, r, n);
        }
        if let Place::Mem {
            ty: CType::Atomic(t, scope),
            ..
        } = &place
        {
            self.out.extend(place_code);
            let inner = place.clone();
            return self.atomic_object_assign(&inner, *t, *scope, op, r, n);
        }
        let mut rhs = self.value(r)?;
        if !place_code.is_empty() {
            // The left operand's code may change variables the value reads
            // (`x[i++] = i`): take the value first.
            rhs = self.materialize(rhs, n);
        }
        self.out.extend(place_code);
        let new = if op == "=" {
            rhs
        } else {
            let cur = self.read(&place, l)?;
            let bop = &op[..op.len() - 1];
            let v = self.binop(bop, cur, rhs, n)?;
            // Compound assignment converts back to the left type.
            match (&place, v) {
                (Place::Var(_, t), Value::Scalar(e, et)) => {
                    Value::Scalar(self.convert(e, et, *t), *t)
                }
                (
                    Place::Mem {
                        ty: CType::Scalar(t),
                        ..
                    },
                    Value::Scalar(e, et),
                ) => Value::Scalar(self.convert(e, et, *t), *t),
                (_, v) => v,
            }
        };
        let result = if want { Some(new.clone()) } else { None };
        self.write(&place, new, n)?;
        match (result, &place) {
            (Some(_), Place::Var(v, t)) => Ok(Value::Scalar(Expr::Var(*v), *t)),
            // `p += n` as a value: the offset variable as written.
            (Some(_), Place::PtrVar { .. }) => self.read(&place, n),
            (Some(v), _) => Ok(v),
            (None, _) => Ok(Value::Void),
        }
    }

    /// A field of the aggregate a call returns by value
    /// (`g.group_index().x`, `make_float2(a, b).y`): the call is lowered
    /// once and the field taken from its value. `None` for any other field
    /// expression (a place: a variable's field, a reference result).
    fn call_result_field(&mut self, n: Node<'t>) -> R<Option<Value>> {
        let (Some(arg), Some(field)) = (
            n.child_by_field_name("argument"),
            n.child_by_field_name("field"),
        ) else {
            return Ok(None);
        };
        let arrow = n.child_by_field_name("operator").map(|o| self.text(o)) == Some("->");
        if arrow || arg.kind() != "call_expression" || self.may_return_reference(arg) {
            return Ok(None);
        }
        let name = self.text(field).to_string();
        let Value::Agg(ty, values) = self.value(arg)? else {
            return Err(self.unsupported(
                n,
                format!("field `{name}` of a call's non-aggregate result"),
            ));
        };
        let pos = self
            .union_members(&ty)
            .is_none()
            .then(|| self.items.types.fields(&ty))
            .flatten()
            .and_then(|fields| fields.iter().position(|(f, _, _)| *f == name));
        match pos.and_then(|p| values.get(p)) {
            Some(v) => Ok(Some(v.clone())),
            None => Err(self.unsupported(
                n,
                format!("field `{name}` of a call's `{}` result", ty.describe()),
            )),
        }
    }

    /// The value held in fresh temporaries, so later writes to the
    /// variables it reads do not change it.
    fn materialize(&mut self, v: Value, n: Node<'t>) -> Value {
        match v {
            Value::Scalar(e, t) => Value::Scalar(self.hold(e, t, n), t),
            Value::Ptr(p) => {
                let offset = self.hold(p.offset.clone(), ScalarTy::I64, n);
                Value::Ptr(Ptr { offset, ..p })
            }
            Value::Agg(t, fields) => Value::Agg(
                t,
                fields.into_iter().map(|f| self.materialize(f, n)).collect(),
            ),
            v => v,
        }
    }

    /// `++x`, `x--`: returns the new (prefix) or old (postfix) value.
    pub fn update(&mut self, n: Node<'t>, want: bool) -> R<Value> {
        let arg = n
            .child_by_field_name("argument")
            .ok_or_else(|| self.unsupported(n, "++/--"))?;
        let op = n
            .child_by_field_name("operator")
            .map(|o| self.text(o))
            .unwrap_or("++");
        let prefix = n.start_byte() < arg.start_byte();
        let place = self.place(arg)?;
        let delta = if op == "++" { "+" } else { "-" };
        if let Place::Mem {
            ty: CType::Atomic(t, scope),
            ..
        }
        | Place::AtomicRef(_, t, scope) = &place
        {
            let inner = match &place {
                Place::AtomicRef(i, ..) => (**i).clone(),
                p => p.clone(),
            };
            return self.atomic_object_update(&inner, *t, *scope, delta, prefix, n);
        }
        let old = self.read(&place, arg)?;
        // The old value outlives the write below (`x++` as a value).
        let old = if want && !prefix {
            self.materialize(old, n)
        } else {
            old
        };
        let one = Value::Scalar(Expr::int(1, ScalarTy::I32), ScalarTy::I32);
        let new = self.binop(delta, old.clone(), one, n)?;
        let new = match (&place, new) {
            (Place::Var(_, t), Value::Scalar(e, et)) => Value::Scalar(self.convert(e, et, *t), *t),
            (
                Place::Mem {
                    ty: CType::Scalar(t),
                    ..
                },
                Value::Scalar(e, et),
            ) => Value::Scalar(self.convert(e, et, *t), *t),
            (_, v) => v,
        };
        self.write(&place, new.clone(), n)?;
        if !want {
            return Ok(Value::Void);
        }
        if prefix {
            match &place {
                Place::Var(v, t) => Ok(Value::Scalar(Expr::Var(*v), *t)),
                // The new value was computed from the pointer's offset
                // variable, which the write just changed: read it again.
                Place::PtrVar { .. } => self.read(&place, n),
                _ => Ok(new),
            }
        } else {
            Ok(old)
        }
    }

    /// `T{x}`: `cuda::aligned_size_t<N>{bytes}` is the byte count, a
    /// number type is `x` converted; other types are refused by name.
    pub(super) fn compound_literal(&mut self, n: Node<'t>) -> R<Value> {
        let (Some(ty), Some(list)) = (
            n.child_by_field_name("type"),
            n.child_by_field_name("value"),
        ) else {
            return Err(self.unsupported(n, "a compound literal"));
        };
        let items = named_children(list);
        let text = self.text(ty);
        let name = text.split('<').next().unwrap_or(text).trim();
        if name.rsplit("::").next() == Some("aligned_size_t") && items.len() == 1 {
            let (e, t) = self.scalar(items[0])?;
            return Ok(Value::Scalar(
                self.convert(e, t, ScalarTy::U64),
                ScalarTy::U64,
            ));
        }
        match self.type_cx().type_descriptor(ty) {
            Ok(CType::Scalar(to)) if items.len() == 1 => {
                let (e, t) = self.scalar(items[0])?;
                Ok(Value::Scalar(self.convert(e, t, to), to))
            }
            _ => Err(self.unsupported(n, format!("the compound literal `{text}{{...}}`"))),
        }
    }
}

fn cmp_op(op: &str) -> Option<BinOp> {
    BinOp::from_symbol(op).filter(|b| b.is_comparison())
}

/// Builds a binary expression, folding integer constants of the same type.
pub fn fold(op: BinOp, ty: ScalarTy, a: Expr, b: Expr) -> Expr {
    if let (Some(x), Some(y), true) = (a.as_const_int(), b.as_const_int(), ty.is_integer()) {
        let v = match op {
            BinOp::Add => Some(wrap(x + y, ty)),
            BinOp::Sub => Some(wrap(x - y, ty)),
            BinOp::Mul => x.checked_mul(y).map(|v| wrap(v, ty)),
            BinOp::Div if y != 0 => Some(wrap(x / y, ty)),
            BinOp::Rem if y != 0 => Some(wrap(x % y, ty)),
            BinOp::Shl if (0..ty.bits() as i128).contains(&y) => Some(wrap(x << y, ty)),
            BinOp::Shr if (0..ty.bits() as i128).contains(&y) => Some(x >> y),
            BinOp::BitAnd => Some(wrap(x & y, ty)),
            BinOp::BitOr => Some(wrap(x | y, ty)),
            BinOp::BitXor => Some(wrap(x ^ y, ty)),
            BinOp::Eq => return Expr::bool(x == y),
            BinOp::Ne => return Expr::bool(x != y),
            BinOp::Lt => return Expr::bool(x < y),
            BinOp::Le => return Expr::bool(x <= y),
            BinOp::Gt => return Expr::bool(x > y),
            BinOp::Ge => return Expr::bool(x >= y),
            _ => None,
        };
        if let Some(v) = v {
            return Expr::int(v, ty);
        }
    }
    Expr::binary(op, ty, a, b)
}
