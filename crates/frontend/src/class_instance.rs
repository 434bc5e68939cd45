//! Instances of the file's class templates as types: `Acc<float>`,
//! `SharedMemory<T>` inside a kernel instance with `T = int`. A type that
//! names a class template picks its body (an explicit specialisation for
//! exactly these arguments, else the primary template, see
//! `member_types::select_class`), binds the parameters and lays out the
//! fields there. The instance is a struct named as written with its
//! arguments resolved (`Acc<float>`), cached in `TypeTable::instances`;
//! its methods and constructors are found by `lower::class_members`.
//!
//! Invariants:
//! - An instance is laid out exactly like the class it stands for, or not
//!   at all: what the layout cannot model (base classes, bit-fields, nested
//!   class definitions, partial specialisations) is an `Err` naming it.
//! - Instantiation is bounded by `member_types::MAX_DEPTH`, so a class
//!   whose fields name its own next instance without end is an error.

use crate::decl::TypeCx;
use crate::member_types::{TemplateArg, MAX_DEPTH};
use crate::syntax::named_children;
use crate::types::{CType, ClassInstance, StructDef};
use tree_sitter::Node;
use warpsafe_source::Diagnostic;

type Res<T> = Result<T, Diagnostic>;

impl TypeCx<'_> {
    /// Whether `name` is a class template (or has an explicit
    /// specialisation) in the file.
    pub fn is_class_template(&self, name: &str) -> bool {
        self.classes
            .iter()
            .any(|c| c.name == name && (!c.params.is_empty() || c.spec.is_some()))
    }

    /// The struct type `name<args>` names, instantiating it on first use.
    pub fn class_instance(&self, n: Node, name: &str, arg_nodes: &[Node]) -> Res<CType> {
        let what = self.syn.text(n).to_string();
        if self.depth >= MAX_DEPTH {
            return Err(Diagnostic::error(
                "unsupported",
                format!("class template instance `{what}` nested more than {MAX_DEPTH} deep"),
            )
            .at(self.syn.span(n)));
        }
        let args = arg_nodes
            .iter()
            .map(|a| self.arg(*a))
            .collect::<Res<Vec<TemplateArg>>>()?;
        let chosen = self.select_class(name, &args, &what, n)?;
        let key = instance_name(name, &chosen.args);
        if self.types.is_struct(&key) {
            return Ok(CType::Struct(key));
        }
        let mut env = chosen.env;
        // The injected class name: `Acc` inside `Acc<T>` is the instance.
        env.types
            .insert(name.to_string(), CType::Struct(key.clone()));
        let body = self.classes[chosen.body].body;
        let def = self.within(&env, |inner| inner.instance_layout(body, &key))?;
        self.types.instances.borrow_mut().insert(
            key.clone(),
            ClassInstance {
                def,
                class: name.to_string(),
                body: chosen.body,
                env,
                args: chosen.args,
            },
        );
        Ok(CType::Struct(key))
    }

    /// The fields of a class template's body, in this context's bindings.
    fn instance_layout(&self, body: Node, key: &str) -> Res<StructDef> {
        let refuse = |at: Node, what: &str| {
            Err(Diagnostic::error(
                "unsupported",
                format!("unsupported: `{key}`: {what} in a class template are not modelled"),
            )
            .at(self.syn.span(at)))
        };
        if let Some(head) = body.parent() {
            if let Some(base) = named_children(head)
                .into_iter()
                .find(|c| c.kind() == "base_class_clause")
            {
                return refuse(base, "base classes");
            }
        }
        let mut def = StructDef::default();
        for field in named_children(body) {
            if field.kind() != "field_declaration" {
                continue;
            }
            if named_children(field)
                .iter()
                .any(|c| c.kind() == "bitfield_clause")
            {
                return refuse(field, "bit-fields");
            }
            // Static members are not part of an object.
            if crate::decl::quals(self.syn, field).static_ {
                continue;
            }
            let Some(fty) = field.child_by_field_name("type") else {
                continue;
            };
            if matches!(
                fty.kind(),
                "struct_specifier" | "union_specifier" | "class_specifier"
            ) && fty.child_by_field_name("body").is_some()
            {
                return refuse(fty, "nested class definitions");
            }
            let declarators: Vec<Node> = field
                .children_by_field_name("declarator", &mut field.walk())
                .filter(|d| !crate::items::declares_function(*d))
                .collect();
            if declarators.is_empty() {
                continue;
            }
            let base = self.base_type(fty)?;
            for d in declarators {
                let decl = self.declarator(base.clone(), d)?;
                def.fields
                    .push((self.syn.text(decl.name).to_string(), decl.ty));
            }
        }
        Ok(def)
    }
}

/// The name of an instance: the template's name and its arguments as C++
/// writes them (`Acc<float>`, `Tile<int, 16>`).
fn instance_name(class: &str, args: &[TemplateArg]) -> String {
    let args: Vec<String> = args
        .iter()
        .map(|a| match a {
            TemplateArg::Type(CType::Struct(s)) => s.clone(),
            TemplateArg::Type(t) => t.describe(),
            TemplateArg::Value(v) => v.to_string(),
        })
        .collect();
    format!("{class}<{}>", args.join(", "))
}
