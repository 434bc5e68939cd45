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
    /// The template parameters (empty for a class or a full specialisation).
    pub params: Vec<TemplateParam<'t>>,
    /// An explicit specialisation's argument list (`<float>`).
    pub spec: Option<Node<'t>>,
    /// The `field_declaration_list`.
    pub body: Node<'t>,
}

/// A template argument as written, resolved.
#[derive(Clone, Debug, PartialEq)]
enum Arg {
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
        let candidates: Vec<&ClassTypes> =
            self.classes.iter().filter(|c| c.name == class).collect();
        if candidates.is_empty() {
            return Err(fail(format!(
                "unknown type `{}::{member}`: `{class}` is not a class of this file",
                self.syn.text(scope)
            )));
        }
        let args = arg_nodes
            .iter()
            .map(|a| self.arg(*a))
            .collect::<Res<Vec<Arg>>>()?;
        // A full specialisation for exactly these arguments wins.
        for c in candidates.iter().filter(|c| c.params.is_empty()) {
            let Some(spec) = c.spec else { continue };
            let own = named_children(spec)
                .iter()
                .map(|a| self.arg(*a))
                .collect::<Res<Vec<Arg>>>()?;
            if own == args {
                return self.in_class(c, TemplateEnv::default(), member, name);
            }
        }
        if candidates
            .iter()
            .any(|c| c.spec.is_some() && !c.params.is_empty())
        {
            return Err(Diagnostic::error(
                "unsupported",
                format!(
                    "`{}::{member}`: `{class}` has partial specialisations, which warpsafe does not match",
                    self.syn.text(scope)
                ),
            )
            .at(self.syn.span(name)));
        }
        let Some(primary) = candidates.iter().find(|c| c.spec.is_none()) else {
            return Err(fail(format!(
                "unknown type `{}::{member}`: no specialisation of `{class}` for these arguments",
                self.syn.text(scope)
            )));
        };
        let mut env = TemplateEnv::default();
        for (i, p) in primary.params.iter().enumerate() {
            let arg = match (args.get(i), p.default) {
                (Some(a), _) => a.clone(),
                (None, Some(d)) => self.arg(d)?,
                (None, None) => {
                    return Err(fail(format!(
                        "`{}::{member}` without a value for `{}`",
                        self.syn.text(scope),
                        p.name
                    )))
                }
            };
            match arg {
                Arg::Type(t) if p.is_type => {
                    env.types.insert(p.name.clone(), t);
                }
                Arg::Value(v) if !p.is_type => {
                    env.values.insert(p.name.clone(), v);
                }
                _ => {
                    return Err(fail(format!(
                        "`{}::{member}`: the argument for `{}` is not a {}",
                        self.syn.text(scope),
                        p.name,
                        if p.is_type { "type" } else { "value" }
                    )))
                }
            }
        }
        self.in_class(primary, env, member, name)
    }

    /// A template argument: a type, or a constant.
    fn arg(&self, a: Node) -> Res<Arg> {
        if a.kind() == "type_descriptor" {
            return self.type_descriptor(a).map(Arg::Type);
        }
        let consts = WithValues {
            values: self.tenv,
            outer: self.consts,
        };
        if let Some(v) = crate::consteval::eval(self.syn, a, &consts) {
            return Ok(Arg::Value(v));
        }
        self.type_descriptor(a).map(Arg::Type)
    }

    /// Member type `member` of class `c` with its parameters bound by `env`.
    fn in_class(&self, c: &ClassTypes, env: TemplateEnv, member: &str, at: Node) -> Res<CType> {
        let consts = WithValues {
            values: &env,
            outer: self.consts,
        };
        let inner = TypeCx {
            syn: self.syn,
            types: self.types,
            tenv: &env,
            consts: &consts,
            classes: self.classes,
            depth: self.depth + 1,
        };
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
                        let base = inner.base_type(ty)?;
                        return Ok(inner.declarator(base, d)?.ty);
                    }
                }
                "alias_declaration" => {
                    let named = m
                        .child_by_field_name("name")
                        .is_some_and(|n| self.syn.text(n) == member);
                    if let (true, Some(ty)) = (named, m.child_by_field_name("type")) {
                        return inner.type_descriptor(ty);
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
struct WithValues<'a> {
    values: &'a TemplateEnv,
    outer: &'a dyn ConstEnv,
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
