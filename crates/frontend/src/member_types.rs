//! Member types of classes: `typename vec4<T>::Type`, `Traits<float>::value_type`,
//! `S::index_t`. A class (template) body's `typedef`s and `using` aliases
//! are recorded by `items`; a qualified type name picks the class, the
//! explicit specialisation whose arguments equal the ones written (or else
//! the primary template with its parameters bound to them) and resolves the
//! member's type there.
//!
//! Invariants:
//! - Resolution is pure and never guesses: a class, member or partial
//!   specialisation it cannot match is an `Err` naming the type.
//! - Nesting is bounded ([`MAX_DEPTH`]): a template whose member type names
//!   its own next instance without end is an error, not a stack overflow.

use crate::consteval::ConstEnv;
use crate::decl::{TemplateEnv, TypeCx};
use crate::items::TemplateParam;
use crate::syntax::named_children;
use crate::types::CType;
use tree_sitter::Node;
use warpsafe_ir::ScalarTy;
use warpsafe_source::Diagnostic;

/// How deeply member types may name other classes' member types.
pub const MAX_DEPTH: u32 = 32;

/// A class or class template body with member type declarations.
#[derive(Clone, Debug)]
pub struct ClassTypes<'t> {
    pub name: String,
    /// The namespace it is declared in.
    pub ns: Vec<String>,
    /// The template parameters (empty for a class or a full specialisation).
    pub params: Vec<TemplateParam<'t>>,
    /// An explicit specialisation's argument list (`<float>`).
    pub spec: Option<Node<'t>>,
    /// The `field_declaration_list`.
    pub body: Node<'t>,
}

/// What `class<args>` means: a body of `TypeCx::classes`, the parameters'
/// values in it, and the arguments with defaults filled in.
pub(crate) struct Selected {
    pub body: usize,
    pub env: TemplateEnv,
    pub args: Vec<TemplateArg>,
}

/// A template argument as written, resolved.
#[derive(Clone, Debug, PartialEq)]
pub enum TemplateArg {
    Type(CType),
    Value(i128),
}

type Res<T> = Result<T, Diagnostic>;

impl TypeCx<'_> {
    /// The type `scope::name` names, where `scope` is a class (`S`) or a
    /// class template instance (`vec4<T>`) declared in the file.
    pub fn member_type(&self, scope: Node, name: Node) -> Res<CType> {
        let member = self.syn.text(name);
        let (class, arg_nodes) = match scope.kind() {
            "template_type" => (
                scope
                    .child_by_field_name("name")
                    .map(|c| self.syn.text(c))
                    .unwrap_or_default(),
                scope
                    .child_by_field_name("arguments")
                    .map(named_children)
                    .unwrap_or_default(),
            ),
            _ => (self.syn.text(scope), Vec::new()),
        };
        let fail = |what: String| Diagnostic::error("unknown-type", what).at(self.syn.span(name));
        if self.depth >= MAX_DEPTH {
            return Err(fail(format!(
                "member type `{}::{member}` nested more than {MAX_DEPTH} deep",
                self.syn.text(scope)
            )));
        }
        if !self.classes.iter().any(|c| c.name == class) {
            return Err(fail(format!(
                "unknown type `{}::{member}`: `{class}` is not a class of this file",
                self.syn.text(scope)
            )));
        }
        let args = arg_nodes
            .iter()
            .map(|a| self.arg(*a))
            .collect::<Res<Vec<TemplateArg>>>()?;
        let what = format!("{}::{member}", self.syn.text(scope));
        let chosen = self.select_class(class, &args, &what, name)?;
        self.in_class(&self.classes[chosen.body], chosen.env, member, name)
    }

    /// The body of class (template) `class` that `class<args>` means: the
    /// explicit specialisation for exactly these arguments, else the
    /// primary template with its parameters bound to them (defaults filled
    /// in). `what` names the use in messages.
    pub(crate) fn select_class(
        &self,
        class: &str,
        args: &[TemplateArg],
        what: &str,
        at: Node,
    ) -> Res<Selected> {
        let fail = |msg: String| Diagnostic::error("unknown-type", msg).at(self.syn.span(at));
        let candidates: Vec<(usize, &ClassTypes)> = self
            .classes
            .iter()
            .enumerate()
            .filter(|(_, c)| c.name == class)
            .collect();
        // A full specialisation for exactly these arguments wins.
        for (i, c) in candidates.iter().filter(|(_, c)| c.params.is_empty()) {
            let Some(spec) = c.spec else { continue };
            let own = named_children(spec)
                .iter()
                .map(|a| self.arg(*a))
                .collect::<Res<Vec<TemplateArg>>>()?;
            if own == args {
                return Ok(Selected {
                    body: *i,
                    env: TemplateEnv::default(),
                    args: own,
                });
            }
        }
        if candidates
            .iter()
            .any(|(_, c)| c.spec.is_some() && !c.params.is_empty())
        {
            return Err(Diagnostic::error(
                "unsupported",
                format!(
                    "`{what}`: `{class}` has partial specialisations, which warpsafe does not match"
                ),
            )
            .at(self.syn.span(at)));
        }
        let Some((index, primary)) = candidates.iter().find(|(_, c)| c.spec.is_none()) else {
            return Err(fail(format!(
                "unknown type `{what}`: no specialisation of `{class}` for these arguments"
            )));
        };
        if args.len() > primary.params.len() {
            return Err(fail(format!(
                "`{what}`: `{class}` takes {} template argument(s)",
                primary.params.len()
            )));
        }
        let mut env = TemplateEnv::default();
        let mut all = Vec::new();
        for (i, p) in primary.params.iter().enumerate() {
            let arg = match (args.get(i), p.default) {
                (Some(a), _) => a.clone(),
                (None, Some(d)) => {
                    // A default may name earlier parameters.
                    let consts = WithValues {
                        values: &env,
                        outer: self.consts,
                    };
                    let inner = TypeCx {
                        tenv: &env,
                        consts: &consts,
                        ..*self
                    };
                    inner.arg(d)?
                }
                (None, None) => {
                    return Err(fail(format!("`{what}` without a value for `{}`", p.name)))
                }
            };
            match &arg {
                TemplateArg::Type(t) if p.is_type => {
                    env.types.insert(p.name.clone(), t.clone());
                }
                TemplateArg::Value(v) if !p.is_type => {
                    env.values.insert(p.name.clone(), *v);
                }
                _ => {
                    return Err(fail(format!(
                        "`{what}`: the argument for `{}` is not a {}",
                        p.name,
                        if p.is_type { "type" } else { "value" }
                    )))
                }
            }
            all.push(arg);
        }
        Ok(Selected {
            body: *index,
            env,
            args: all,
        })
    }

    /// A template argument: a type, or a constant.
    pub(crate) fn arg(&self, a: Node) -> Res<TemplateArg> {
        let consts = WithValues {
            values: self.tenv,
            outer: self.consts,
        };
        if a.kind() == "type_descriptor" {
            // A bare name is read as a type; it may be a constant
            // (`C<float, DEPTH>`).
            let named = a
                .child_by_field_name("type")
                .filter(|t| t.kind() == "type_identifier" && a.named_child_count() == 1);
            return match (self.type_descriptor(a), named) {
                (Err(e), Some(t)) => crate::consteval::eval(self.syn, t, &consts)
                    .map(TemplateArg::Value)
                    .ok_or(e),
                (r, _) => r.map(TemplateArg::Type),
            };
        }
        if let Some(v) = crate::consteval::eval(self.syn, a, &consts) {
            return Ok(TemplateArg::Value(v));
        }
        self.type_descriptor(a).map(TemplateArg::Type)
    }

    /// Member type `member` of class `c` with its parameters bound by `env`.
    fn in_class(&self, c: &ClassTypes, env: TemplateEnv, member: &str, at: Node) -> Res<CType> {
        self.within(&env, |inner| inner.member_in(c, member, at))
    }

    /// Runs `f` one level deeper, in a class body whose template parameters
    /// `env` binds (as types and as constants).
    pub(crate) fn within<R>(&self, env: &TemplateEnv, f: impl FnOnce(&TypeCx) -> R) -> R {
        let consts = WithValues {
            values: env,
            outer: self.consts,
        };
        f(&TypeCx {
            tenv: env,
            consts: &consts,
            depth: self.depth + 1,
            ..*self
        })
    }

    /// Member type `member` of class `c`, in `c`'s bindings (`self`).
    fn member_in(&self, c: &ClassTypes, member: &str, at: Node) -> Res<CType> {
        for m in named_children(c.body) {
            match m.kind() {
                "type_definition" => {
                    let Some(ty) = m.child_by_field_name("type") else {
                        continue;
                    };
                    let declarators: Vec<Node> = m
                        .children_by_field_name("declarator", &mut m.walk())
                        .collect();
                    for d in declarators {
                        if crate::items::declared_name(self.syn, d).as_deref() != Some(member) {
                            continue;
                        }
                        let base = self.base_type(ty)?;
                        return Ok(self.declarator(base, d)?.ty);
                    }
                }
                "alias_declaration" => {
                    let named = m
                        .child_by_field_name("name")
                        .is_some_and(|n| self.syn.text(n) == member);
                    if let (true, Some(ty)) = (named, m.child_by_field_name("type")) {
                        return self.type_descriptor(ty);
                    }
                }
                _ => {}
            }
        }
        Err(Diagnostic::error(
            "unknown-type",
            format!(
                "unknown type `{}::{member}`: the class declares no such member type",
                c.name
            ),
        )
        .at(self.syn.span(at)))
    }
}

/// The constants of a class's body: its value parameters, then the
/// enclosing scope's constants.
pub(crate) struct WithValues<'a> {
    pub values: &'a TemplateEnv,
    pub outer: &'a dyn ConstEnv,
}

impl ConstEnv for WithValues<'_> {
    fn constant(&self, name: &str) -> Option<i128> {
        self.values
            .values
            .get(name)
            .copied()
            .or_else(|| self.outer.constant(name))
    }

    fn constant_type(&self, name: &str) -> Option<ScalarTy> {
        match self.values.values.contains_key(name) {
            true => None,
            false => self.outer.constant_type(name),
        }
    }

    fn scalar_type(&self, name: &str) -> Option<ScalarTy> {
        self.outer.scalar_type(name)
    }
}
