//! Which function a call names: C++ name lookup through namespaces
//! (enclosing namespaces, using-directives and using-declarations, `a::f`
//! and `::f`) and overload resolution among the candidates it finds
//! (exact match, promotion, conversion; non-templates before templates),
//! then explicit specialisations of the chosen template.
//!
//! Invariants: a call resolves to the one function C++ would call, or is an
//! error (ambiguous, no viable overload, a name only visible through
//! argument-dependent lookup); it never falls back to "the first function
//! of that name". Specialisations are never candidates themselves.

use super::value::Value;
use super::{Lowerer, R};
use crate::decl::{TemplateEnv, TypeCx};
use crate::items::FnItem;
use crate::syntax::named_children;
use crate::types::CType;
use tree_sitter::Node;
use warpsafe_ir::ScalarTy;
use warpsafe_source::Diagnostic;

/// What name lookup found for a callee.
pub enum Lookup<'t> {
    /// Functions (with bodies) the name denotes.
    Found(Vec<FnItem<'t>>),
    /// The name denotes no function of the file: a built-in, if any.
    NotDeclared,
}

/// How well an argument converts to a parameter (lower is better).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Rank {
    Exact,
    Promotion,
    Conversion,
}

impl<'t> Lowerer<'_, 't> {
    /// The namespace of the function being lowered.
    fn current_ns(&self) -> Vec<String> {
        self.ns_stack.last().cloned().unwrap_or_default()
    }

    /// A namespace path as written in `scope` (`a::b` inside `x`): the
    /// innermost enclosing namespace where it names a declared namespace.
    fn resolve_ns(&self, scope: &[String], path: &[String]) -> Option<Vec<String>> {
        if path.first().is_some_and(|p| p.is_empty()) {
            let abs = path[1..].to_vec();
            return (abs.is_empty() || self.items.is_namespace(&abs)).then_some(abs);
        }
        (0..=scope.len()).rev().find_map(|depth| {
            let mut cand = scope[..depth].to_vec();
            cand.extend(path.iter().cloned());
            self.items.is_namespace(&cand).then_some(cand)
        })
    }

    fn fns_in(&self, ns: &[String], name: &str) -> Vec<FnItem<'t>> {
        self.items
            .functions(name)
            .into_iter()
            .filter(|f| f.ns == ns && f.def.child_by_field_name("body").is_some())
            .cloned()
            .collect()
    }

    /// Name lookup for the callee `f` (an identifier, `a::f`, `f<T>`).
    pub fn lookup_callee(&self, f: Node<'t>, name: &str) -> R<Lookup<'t>> {
        let qualified = self.callee_scope(f);
        if let Some(scope) = qualified {
            return Ok(match self.resolve_ns(&self.current_ns(), &scope) {
                Some(ns) => {
                    let found = self.fns_in(&ns, name);
                    if found.is_empty() {
                        Lookup::NotDeclared
                    } else {
                        Lookup::Found(found)
                    }
                }
                None => Lookup::NotDeclared,
            });
        }
        let cur = self.current_ns();
        for depth in (0..=cur.len()).rev() {
            let scope = &cur[..depth];
            let mut found = self.fns_in(scope, name);
            let usings = self
                .items
                .usings
                .iter()
                .filter(|u| u.scope == scope)
                .map(|u| (u.scope.clone(), u.path.clone(), u.directive))
                .chain(
                    (depth == cur.len())
                        .then(|| self.local_usings.clone())
                        .into_iter()
                        .flatten()
                        .map(|(path, directive)| (cur.clone(), path, directive)),
                );
            for (from, path, directive) in usings.collect::<Vec<_>>() {
                if directive {
                    if let Some(ns) = self.resolve_ns(&from, &path) {
                        found.extend(self.fns_in(&ns, name));
                    }
                } else if path.last().is_some_and(|l| l == name) {
                    if let Some(ns) = self.resolve_ns(&from, &path[..path.len() - 1]) {
                        found.extend(self.fns_in(&ns, name));
                    }
                }
            }
            if !found.is_empty() {
                found.dedup_by_key(|f| f.def.id());
                return Ok(Lookup::Found(found));
            }
        }
        Ok(Lookup::NotDeclared)
    }

    /// The written scope of a qualified callee (`["a", "b"]` for `a::b::f`,
    /// `[""]` for `::f`), or `None` when it is unqualified.
    fn callee_scope(&self, f: Node<'t>) -> Option<Vec<String>> {
        if f.kind() != "qualified_identifier" {
            return None;
        }
        let text = self.text(f);
        let text = text.split('<').next().unwrap_or(text);
        let mut parts: Vec<String> = text.split("::").map(|p| p.trim().to_string()).collect();
        parts.pop();
        Some(parts)
    }

    /// A diagnostic for a call whose name lookup found nothing, when the
    /// file declares the name in a namespace the call does not see.
    pub fn invisible_function(&self, f: Node<'t>, name: &str) -> Option<Diagnostic> {
        let elsewhere = self.items.functions(name);
        let first = elsewhere.first()?;
        Some(
            Diagnostic::error(
                "undeclared",
                format!(
                    "`{}` does not name a function visible here (argument-dependent lookup is not modelled)",
                    self.text(f)
                ),
            )
            .at(self.span(f))
            .with_label(self.syn.span(first.def), "a function of that name is declared here"),
        )
    }

    /// The types of a call's arguments, lowered in a discarded block (the
    /// call lowers them again); `None` where an argument has no C type. Each
    /// is remembered per inlined instance, so nested overloaded operators
    /// (`a + b + c + ...`) are typed once each, not once per enclosing level.
    fn arg_types(&mut self, args: &[Node<'t>]) -> Vec<Option<(CType, Option<Value>)>> {
        args.iter()
            .map(|a| {
                let key = (a.id(), self.instance());
                let ty = match self.type_cache.get(&key) {
                    Some(t) => t.clone(),
                    None => {
                        let t = self
                            .block(|s| s.value(*a))
                            .ok()
                            .and_then(|(_, v)| c_type(&v));
                        self.type_cache.insert(key, t.clone());
                        t
                    }
                };
                ty.map(|t| {
                    let v = representative(&t);
                    (t, v)
                })
            })
            .collect()
    }

    /// Overload resolution: the best viable candidate for these arguments,
    /// or `None` when no candidate is viable. Ambiguity is an error.
    pub fn resolve_overload(
        &mut self,
        cands: &[FnItem<'t>],
        targs: Option<Node<'t>>,
        args: &[Node<'t>],
        n: Node<'t>,
    ) -> R<Option<FnItem<'t>>> {
        self.resolve(cands, targs, args, n, false)
    }

    /// A user-written operator function for `op` applied to `args` (the
    /// operands), when one is viable: every operand's type is checked, since
    /// built-in operators are the alternative.
    pub fn user_operator(
        &mut self,
        op: &str,
        args: &[Node<'t>],
        n: Node<'t>,
    ) -> R<Option<FnItem<'t>>> {
        let name = format!("operator{op}");
        let cands: Vec<FnItem<'t>> = self
            .items
            .fns
            .iter()
            .filter(|f| {
                f.name == name
                    && f.owner.is_none()
                    && f.spec.is_none()
                    && f.def.child_by_field_name("body").is_some()
            })
            .cloned()
            .collect();
        if cands.is_empty() {
            return Ok(None);
        }
        self.resolve(&cands, None, args, n, true)
    }

    fn resolve(
        &mut self,
        cands: &[FnItem<'t>],
        targs: Option<Node<'t>>,
        args: &[Node<'t>],
        n: Node<'t>,
        strict: bool,
    ) -> R<Option<FnItem<'t>>> {
        let argc = args.len();
        let fits: Vec<&FnItem<'t>> = cands
            .iter()
            .filter(|f| {
                let (min, max) = self.arity(f);
                (min..=max).contains(&argc)
            })
            .collect();
        if fits.len() <= 1 && cands.len() <= 1 && !strict {
            return Ok(fits.first().map(|f| (*f).clone()));
        }
        let types = self.arg_types(args);
        let mut viable: Vec<(&FnItem<'t>, Vec<Rank>)> = Vec::new();
        for f in &fits {
            if let Some(ranks) = self.ranks(f, targs, args, &types, n) {
                viable.push((f, ranks));
            }
        }
        let better = |a: &(&FnItem<'t>, Vec<Rank>), b: &(&FnItem<'t>, Vec<Rank>)| {
            let no_worse = a.1.iter().zip(&b.1).all(|(x, y)| x <= y);
            let strictly = a.1.iter().zip(&b.1).any(|(x, y)| x < y);
            no_worse
                && (strictly || (a.1 == b.1 && a.0.template.is_empty() && !b.0.template.is_empty()))
        };
        let best: Vec<usize> = (0..viable.len())
            .filter(|&i| (0..viable.len()).all(|j| i == j || better(&viable[i], &viable[j])))
            .collect();
        match (best.as_slice(), viable.len()) {
            (_, 0) => Ok(None),
            ([one], _) => Ok(Some(viable[*one].0.clone())),
            _ => {
                let mut d = Diagnostic::error(
                    "ambiguous",
                    format!(
                        "ambiguous call to overloaded `{}`: {} candidates match equally well",
                        viable[0].0.name,
                        viable.len()
                    ),
                )
                .at(self.span(n));
                for (f, _) in &viable {
                    d = d.with_label(self.syn.span(f.def), "candidate");
                }
                Err(d)
            }
        }
    }

    /// Each argument's conversion rank to the candidate's parameter, or
    /// `None` when the candidate is not viable (a template whose arguments
    /// cannot be deduced, an argument that does not convert).
    fn ranks(
        &self,
        f: &FnItem<'t>,
        targs: Option<Node<'t>>,
        args: &[Node<'t>],
        types: &[Option<(CType, Option<Value>)>],
        n: Node<'t>,
    ) -> Option<Vec<Rank>> {
        let params = self.params_of(f);
        let values: Vec<Option<Value>> = types
            .iter()
            .map(|t| t.as_ref().and_then(|(_, v)| v.clone()))
            .collect();
        let env = if f.template.is_empty() && f.class_env.is_none() {
            TemplateEnv::default()
        } else {
            self.deduce(f, targs, &params, &values, n).ok()?
        };
        let cx = TypeCx {
            syn: self.syn,
            types: &self.items.types,
            tenv: &env,
            consts: self,
            classes: &self.items.class_types,
            depth: 0,
        };
        let mut ranks = Vec::new();
        for (i, arg) in args.iter().enumerate() {
            let p = params.get(i)?;
            let base = cx.base_type(p.child_by_field_name("type")?).ok()?;
            let declared = match p.child_by_field_name("declarator") {
                Some(d) => {
                    let decl = cx.declarator(base, d).ok()?;
                    (decl.ty, decl.is_ref)
                }
                None => (base, false),
            };
            let (pty, is_ref) = declared;
            let (aty, _) = types.get(i)?.as_ref()?;
            let is_const = crate::decl::quals(self.syn, *p).const_;
            let rank = if is_ref && !is_const {
                // A non-const reference binds only to an object of its type.
                (same_type(aty, &pty)).then_some(Rank::Exact)?
            } else {
                convert(aty, &pty, self.is_null_constant(*arg))?
            };
            ranks.push(rank);
        }
        Some(ranks)
    }

    fn is_null_constant(&self, a: Node) -> bool {
        let inner = if a.kind() == "parenthesized_expression" {
            named_children(a).first().copied().unwrap_or(a)
        } else {
            a
        };
        matches!(self.text(inner).trim(), "0" | "NULL" | "nullptr")
    }
}

/// The C type of a lowered value.
pub(super) fn c_type(v: &Value) -> Option<CType> {
    Some(match v {
        Value::Scalar(_, t) => CType::Scalar(*t),
        Value::Ptr(p) => CType::Pointer(Box::new(p.pointee.clone())),
        Value::Agg(t, _) => t.clone(),
        Value::Group(g) => CType::Group(*g),
        Value::AtomicRef(_, t, s) => CType::AtomicRef(*t, *s),
        Value::FnPtr(_) => CType::FnPtr,
        Value::Void => return None,
    })
}

/// A value of type `t` for template deduction, which looks only at types.
fn representative(t: &CType) -> Option<Value> {
    Some(match t {
        CType::Scalar(s) => Value::Scalar(warpsafe_ir::Expr::int(0, *s), *s),
        CType::Pointer(p) => Value::Ptr(super::value::Ptr {
            target: None,
            choice: None,
            offset: warpsafe_ir::Expr::int(0, ScalarTy::I64),
            pointee: (**p).clone(),
            volatile: false,
            null_if: None,
        }),
        CType::Struct(_) | CType::Vector(..) => Value::Agg(t.clone(), Vec::new()),
        _ => return None,
    })
}

fn same_type(a: &CType, b: &CType) -> bool {
    match (a, b) {
        (CType::Array(x, _), CType::Pointer(y)) | (CType::Pointer(x), CType::Array(y, _)) => x == y,
        _ => a == b,
    }
}

/// The rank of converting a value of type `from` to a parameter of type
/// `to` (by value or by const reference), C++ [over.ics.scs].
fn convert(from: &CType, to: &CType, null_constant: bool) -> Option<Rank> {
    use CType as T;
    if same_type(from, to) {
        return Some(Rank::Exact);
    }
    match (from, to) {
        (T::Scalar(a), T::Scalar(b)) => Some(if promotes(*a, *b) {
            Rank::Promotion
        } else {
            Rank::Conversion
        }),
        (T::Pointer(_) | T::Array(..), T::Pointer(b)) if **b == T::Void => Some(Rank::Conversion),
        (T::Pointer(_) | T::Array(..), T::Scalar(ScalarTy::Bool)) => Some(Rank::Conversion),
        (T::Scalar(_), T::Pointer(_)) if null_constant => Some(Rank::Conversion),
        // Other pointer conversions (derived to base) are not modelled: not
        // viable, so a call that needs one is an error, never a wrong pick.
        _ => None,
    }
}

/// Integral and floating-point promotions ([conv.prom], [conv.fpprom]).
fn promotes(from: ScalarTy, to: ScalarTy) -> bool {
    use ScalarTy as S;
    matches!(
        (from, to),
        (S::Bool | S::I8 | S::U8 | S::I16 | S::U16, S::I32) | (S::F32, S::F64)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_follow_the_standard_conversion_sequences() {
        let int = CType::Scalar(ScalarTy::I32);
        let uint = CType::Scalar(ScalarTy::U32);
        let short = CType::Scalar(ScalarTy::I16);
        let ip = CType::Pointer(Box::new(int.clone()));
        let fp = CType::Pointer(Box::new(CType::Scalar(ScalarTy::F32)));
        let vp = CType::Pointer(Box::new(CType::Void));
        assert_eq!(convert(&int, &int, false), Some(Rank::Exact));
        assert_eq!(convert(&short, &int, false), Some(Rank::Promotion));
        assert_eq!(convert(&uint, &int, false), Some(Rank::Conversion));
        assert_eq!(convert(&ip, &vp, false), Some(Rank::Conversion));
        assert_eq!(convert(&ip, &fp, false), None);
        assert_eq!(convert(&int, &ip, false), None);
        assert_eq!(convert(&int, &ip, true), Some(Rank::Conversion));
        assert_eq!(
            convert(&CType::Array(Box::new(int.clone()), Some(4)), &ip, false),
            Some(Rank::Exact)
        );
    }
}
