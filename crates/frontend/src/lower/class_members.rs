//! Members of classes as calls and initialisation see them: the methods,
//! constructors and default member initialisers of a class of the file, or
//! of an instance of a class template (`Acc<float>`, see `class_instance`).
//! An instance's members are its template body's, defined in the class or
//! outside it (`template <class T> T Acc<T>::get() { ... }`), each carrying
//! the instance's parameter values as its `class_env`.
//!
//! Invariant: a member of an instance is lowered with the instance's
//! template arguments in force, never the caller's.

use super::Lowerer;
use crate::decl::{quals, TemplateEnv};
use crate::items::{function_name, ClassInfo, FnItem};
use crate::member_types::TemplateArg;
use crate::syntax::named_children;
use crate::types::ClassInstance;

impl<'t> Lowerer<'_, 't> {
    /// The methods named `name` of class `owner` that have a body; for
    /// `name == owner`, its constructors.
    pub fn class_methods(&self, owner: &str, name: &str) -> Vec<FnItem<'t>> {
        let Some(inst) = self.items.types.instance(owner) else {
            return self.items.defined_methods(owner, name);
        };
        // Constructors are named after the template (`Acc`), not the
        // instance (`Acc<float>`).
        let wanted = if name == owner { &inst.class } else { name };
        let class = &self.items.class_types[inst.body];
        let mut out = Vec::new();
        for m in named_children(class.body) {
            let named = m.kind() == "function_definition"
                && m.child_by_field_name("declarator")
                    .and_then(|d| function_name(self.syn, d))
                    .is_some_and(|f| f == *wanted);
            if named {
                out.push(self.member(owner, name, m, class.ns.clone(), inst.env.clone()));
            }
        }
        // Members defined outside the class belong to the primary template.
        if class.spec.is_some() {
            return out;
        }
        for f in &self.items.fns {
            if f.name != *wanted || f.owner.as_ref() != Some(&inst.class) {
                continue;
            }
            let Some(written) = f.of_template else {
                continue;
            };
            if let Some(env) = self.out_of_line_env(f, written, &inst, owner) {
                out.push(self.member(owner, name, f.def, f.ns.clone(), env));
            }
        }
        out
    }

    fn member(
        &self,
        owner: &str,
        name: &str,
        def: tree_sitter::Node<'t>,
        ns: Vec<String>,
        env: TemplateEnv,
    ) -> FnItem<'t> {
        FnItem {
            name: name.to_string(),
            def,
            quals: quals(self.syn, def),
            template: Vec::new(),
            broken: def.has_error(),
            owner: Some(owner.to_string()),
            ns,
            spec: None,
            class_env: Some(env),
            of_template: None,
        }
    }

    /// The parameter values of an out-of-line member (`template <class U>
    /// U C<U>::get()`) of instance `owner`: its own parameters, named in the class as written
    /// (`C<U>`), take the instance's arguments by position. `None` when the
    /// class is written with anything but the parameters in order (a
    /// member of a partial specialisation).
    fn out_of_line_env(
        &self,
        f: &FnItem<'t>,
        written: tree_sitter::Node<'t>,
        inst: &ClassInstance,
        owner: &str,
    ) -> Option<TemplateEnv> {
        let names: Vec<&str> = written
            .child_by_field_name("arguments")
            .map(named_children)
            .unwrap_or_default()
            .into_iter()
            .map(|a| self.text(a).trim())
            .collect();
        if names.len() != inst.args.len() || names.len() != f.template.len() {
            return None;
        }
        let mut env = TemplateEnv::default();
        for ((p, n), a) in f.template.iter().zip(&names).zip(&inst.args) {
            if p.name != *n {
                return None;
            }
            match a {
                TemplateArg::Type(t) if p.is_type => {
                    env.types.insert(p.name.clone(), t.clone());
                }
                TemplateArg::Value(v) if !p.is_type => {
                    env.values.insert(p.name.clone(), *v);
                }
                _ => return None,
            }
        }
        // The injected class name, as in the class body.
        env.types.insert(
            inst.class.clone(),
            crate::types::CType::Struct(owner.to_string()),
        );
        Some(env)
    }

    /// Constructors, destructor and default member initialisers of class
    /// `c`, if it is a class of the file or a class template instance.
    pub fn class_info(&self, c: &str) -> Option<ClassInfo<'t>> {
        if let Some(info) = self.items.classes.get(c) {
            return Some(info.clone());
        }
        let inst = self.items.types.instance(c)?;
        let body = self.items.class_types[inst.body].body;
        let mut info = ClassInfo::default();
        for m in named_children(body) {
            info.note_special(self.syn, m, &inst.class);
            if m.kind() != "field_declaration" || quals(self.syn, m).static_ {
                continue;
            }
            let Some(init) = m.child_by_field_name("default_value") else {
                continue;
            };
            for d in m.children_by_field_name("declarator", &mut m.walk()) {
                if let Some(name) = crate::items::declared_name(self.syn, d) {
                    info.field_inits.push((name, init));
                }
            }
        }
        Some(info)
    }

    /// The template arguments in force in class `c`'s body (none for a
    /// class that is not a template instance).
    pub fn class_env(&self, c: &str) -> Option<TemplateEnv> {
        self.items.types.instance(c).map(|i| i.env)
    }

    /// The value a template parameter takes when a parameter of type `ty`
    /// (`C<T, N>`) receives `v`, an object of an instance of class template
    /// `C`: the instance's argument where the parameter is written.
    pub(super) fn deduce_from_instance(
        &self,
        ty: tree_sitter::Node<'t>,
        param: &crate::items::TemplateParam<'t>,
        v: &Option<super::value::Value>,
    ) -> Option<TemplateArg> {
        let Some(super::value::Value::Agg(crate::types::CType::Struct(key), _)) = v else {
            return None;
        };
        if ty.kind() != "template_type" {
            return None;
        }
        let inst = self.items.types.instance(key)?;
        let class = ty.child_by_field_name("name")?;
        if self.text(class) != inst.class {
            return None;
        }
        let written = ty
            .child_by_field_name("arguments")
            .map(named_children)
            .unwrap_or_default();
        written.iter().zip(&inst.args).find_map(|(w, a)| {
            let kind_fits = matches!(a, TemplateArg::Type(_)) == param.is_type;
            (kind_fits && self.text(*w).trim() == param.name).then(|| a.clone())
        })
    }

    /// `P(x, y)`, `Acc<T>(v)`: a temporary object of a class of the file,
    /// constructed from the arguments as a declaration `P t(x, y);` would
    /// be. `None` when the callee names no class.
    pub(super) fn temporary_object(
        &mut self,
        f: tree_sitter::Node<'t>,
        call: tree_sitter::Node<'t>,
    ) -> super::R<Option<super::value::Value>> {
        let ty = match f.kind() {
            "identifier" | "type_identifier" if self.lookup(self.text(f)).is_none() => {
                self.type_cx().base_type_named(f).ok()
            }
            "template_function" => {
                let (Some(name), args) = (
                    f.child_by_field_name("name"),
                    f.child_by_field_name("arguments"),
                ) else {
                    return Ok(None);
                };
                let name = self.text(name);
                if !self.type_cx().is_class_template(name) {
                    return Ok(None);
                }
                let args = args.map(named_children).unwrap_or_default();
                Some(self.type_cx().class_instance(f, name, &args)?)
            }
            _ => None,
        };
        let Some(crate::types::CType::Struct(c)) = ty else {
            return Ok(None);
        };
        let ty = crate::types::CType::Struct(c.clone());
        let place = self.local_place(&format!("{c}.tmp"), &ty, false, call)?;
        let args = call.child_by_field_name("arguments");
        self.construct(&place, &c, args, call)?;
        self.read(&place, call).map(Some)
    }

    /// A typedef or alias declared in a function body (`typedef
    /// interval_gpu<T> I;`): bound for the rest of the function, with the
    /// template arguments in force (block scoping is not tracked; C++ lets
    /// no later declaration reuse the name in a way that would differ). A
    /// type warpsafe cannot resolve is left unbound, so only a use of the
    /// name is an error.
    pub(super) fn local_typedef(&mut self, n: tree_sitter::Node<'t>) -> super::R<()> {
        let mut bindings: Vec<(String, crate::types::CType)> = Vec::new();
        if n.kind() == "alias_declaration" {
            if let (Some(name), Some(ty)) =
                (n.child_by_field_name("name"), n.child_by_field_name("type"))
            {
                if let Ok(t) = self.type_cx().type_descriptor(ty) {
                    bindings.push((self.text(name).to_string(), t));
                }
            }
        } else if let Some(ty) = n.child_by_field_name("type") {
            if let Ok(base) = self.type_cx().base_type(ty) {
                for d in n.children_by_field_name("declarator", &mut n.walk()) {
                    if let Ok(declared) = self.type_cx().declarator(base.clone(), d) {
                        bindings.push((self.text(declared.name).to_string(), declared.ty));
                    }
                }
            }
        }
        for (name, ty) in bindings {
            self.tenv.types.insert(name, ty);
        }
        Ok(())
    }

    /// `C<T>::f(args)`: a `static` method of a class template instance
    /// (`VolumeTypeInfo<float>::convert(x)`), inlined without an object.
    /// `None` when the callee is not qualified by a class template.
    pub(super) fn static_member_call(
        &mut self,
        f: tree_sitter::Node<'t>,
        args: &[tree_sitter::Node<'t>],
        n: tree_sitter::Node<'t>,
    ) -> super::R<Option<super::value::Value>> {
        if f.kind() != "qualified_identifier" {
            return Ok(None);
        }
        let (Some(scope), Some(member)) = (
            f.child_by_field_name("scope"),
            f.child_by_field_name("name"),
        ) else {
            return Ok(None);
        };
        if member.kind() != "identifier" {
            return Ok(None);
        }
        let name = self.text(member);
        let owner = match scope.kind() {
            "template_type" => {
                let Some(class) = scope.child_by_field_name("name") else {
                    return Ok(None);
                };
                let class = self.text(class);
                if !self.type_cx().is_class_template(class) {
                    return Ok(None);
                }
                let targs = scope
                    .child_by_field_name("arguments")
                    .map(named_children)
                    .unwrap_or_default();
                let crate::types::CType::Struct(owner) =
                    self.type_cx().class_instance(scope, class, &targs)?
                else {
                    return Ok(None);
                };
                owner
            }
            // A class named by a typedef or template parameter
            // (`typedef interval_gpu<T> I;` then `I::empty()`) whose
            // methods include `name`; a namespace names no type.
            "namespace_identifier" | "type_identifier" => {
                match self.type_cx().base_type_named(scope) {
                    Ok(crate::types::CType::Struct(owner))
                        if !self.class_methods(&owner, name).is_empty() =>
                    {
                        owner
                    }
                    _ => return Ok(None),
                }
            }
            _ => return Ok(None),
        };
        let methods = self.class_methods(&owner, name);
        if methods.is_empty() {
            return Err(self.unsupported(
                n,
                format!("`{owner}` has no method `{name}` warpsafe can see"),
            ));
        }
        if let Some(m) = methods
            .iter()
            .find(|m| !self.is_static_member(&owner, name, m))
        {
            return Err(self
                .unsupported(
                    n,
                    format!(
                        "a call of `{owner}::{name}` without an object, which is not a `static` method"
                    ),
                )
                .with_label(self.syn.span(m.def), "the method"));
        }
        let chosen = self
            .resolve_overload(&methods, None, args, n)?
            .ok_or_else(|| {
                self.unsupported(
                    n,
                    format!("no overload of `{owner}::{name}` accepts these arguments"),
                )
            })?;
        self.inline(&chosen, None, args, n, None).map(Some)
    }

    /// Whether method `m` of instance `owner` is `static`: said on its
    /// definition in the class, or (C++ forbids it on a definition outside
    /// the class) on its declaration there.
    fn is_static_member(&self, owner: &str, name: &str, m: &FnItem<'t>) -> bool {
        if m.def
            .parent()
            .is_some_and(|p| p.kind() == "field_declaration_list")
        {
            return quals(self.syn, m.def).static_;
        }
        let Some(inst) = self.items.types.instance(owner) else {
            return false;
        };
        let body = self.items.class_types[inst.body].body;
        named_children(body).into_iter().any(|d| {
            d.kind() == "field_declaration"
                && quals(self.syn, d).static_
                && d.children_by_field_name("declarator", &mut d.walk())
                    .any(|x| function_name(self.syn, x).as_deref() == Some(name))
        })
    }
}
