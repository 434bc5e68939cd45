//! Collects the top-level items of a translation unit: functions (kernels,
//! device and host), device-side global variables, structs, typedefs,
//! enumerators and file-scope constants.
//!
//! Invariant: collection never fails; what it cannot understand becomes a
//! diagnostic (an error when it is device code, a warning for host code,
//! which warpsafe skips).

use crate::consteval::{eval, ConstEnv};
use crate::decl::{anon_struct_name, quals, Quals, TemplateEnv, TypeCx};
use crate::member_types::ClassTypes;
use crate::syntax::{named_children, Syntax};
use crate::types::{CType, StructDef, TypeTable};
use std::collections::{HashMap, HashSet};
use tree_sitter::Node;
use warpsafe_ir::ScalarTy;
use warpsafe_source::Diagnostic;

#[derive(Clone, Debug)]
pub struct TemplateParam<'t> {
    pub name: String,
    pub is_type: bool,
    pub default: Option<Node<'t>>,
}

#[derive(Clone, Debug)]
pub struct FnItem<'t> {
    pub name: String,
    /// The `function_definition` node.
    pub def: Node<'t>,
    pub quals: Quals,
    pub template: Vec<TemplateParam<'t>>,
    /// The definition contains syntax errors (already reported).
    pub broken: bool,
    /// The struct or class a method belongs to (`None` for free functions).
    pub owner: Option<String>,
    /// The namespaces it is declared in, outermost first (anonymous
    /// namespaces are transparent).
    pub ns: Vec<String>,
    /// For an explicit specialisation (`template <> int f<2>(int)`), its
    /// template argument list.
    pub spec: Option<Node<'t>>,
    /// For a method of a class template instance, the template parameters'
    /// values in the class (see `lower::class_members`).
    pub class_env: Option<TemplateEnv>,
    /// For a member of a class template defined outside the class
    /// (`template <class T> T C<T>::get()`), the class as written there
    /// (`C<T>`); `owner` is the template's name.
    pub of_template: Option<Node<'t>>,
}

impl FnItem<'_> {
    pub fn is_kernel(&self) -> bool {
        self.quals.global
    }

    /// Callable from device code.
    pub fn is_device(&self) -> bool {
        self.quals.device || self.quals.global
    }
}

#[derive(Clone, Debug)]
pub struct GlobalItem<'t> {
    pub name: String,
    /// The namespace it is declared in.
    pub ns: Vec<String>,
    /// A file-scope variable without `__device__`/`__constant__`/`__shared__`
    /// (host memory in CUDA; GPUVerify treats it as global memory).
    pub host: bool,
    pub decl: Node<'t>,
    pub declarator: Node<'t>,
    pub quals: Quals,
}

/// A namespace-scope `using namespace N;` or `using N::f;`.
#[derive(Clone, Debug)]
pub struct Using {
    /// The namespace the directive appears in.
    pub scope: Vec<String>,
    /// The path it names, as written (`N` or `N::f`).
    pub path: Vec<String>,
    /// `using namespace` (a directive) rather than a using-declaration.
    pub directive: bool,
}

/// What lowering needs of a class beyond its field layout: the default
/// member initialisers and whether user-written constructors or a
/// destructor exist.
#[derive(Clone, Debug, Default)]
pub struct ClassInfo<'t> {
    /// Default member initialisers (`unsigned off = 1;`), base classes'
    /// first, by field name.
    pub field_inits: Vec<(String, Node<'t>)>,
    /// A constructor is declared or defined (in or out of the class).
    pub has_ctor: bool,
    /// A destructor declared or defined by the user.
    pub dtor: Option<Node<'t>>,
}

impl<'t> ClassInfo<'t> {
    /// Records member `m` of class `class`'s body if it declares or defines
    /// a constructor or the destructor.
    pub(crate) fn note_special(&mut self, syn: &Syntax, m: Node<'t>, class: &str) {
        let Some(decl) = m.child_by_field_name("declarator") else {
            return;
        };
        match special_member(syn, decl) {
            Some(Special::Dtor) => self.dtor = Some(m),
            Some(Special::Ctor(c)) if c == class => self.has_ctor = true,
            _ => {}
        }
    }
}

#[derive(Default)]
pub struct Items<'t> {
    pub fns: Vec<FnItem<'t>>,
    /// The names of the functions and methods anywhere in the file
    /// (class templates included) declared to return a reference.
    pub reference_returning: HashSet<String>,
    /// Names of functions declared without a body.
    pub prototypes: Vec<(String, Node<'t>)>,
    pub globals: Vec<GlobalItem<'t>>,
    pub types: TypeTable,
    pub consts: HashMap<String, i128>,
    /// The declared types of `consts` that are `const` variables
    /// (enumerators are `int`).
    pub const_types: HashMap<String, ScalarTy>,
    /// GPUVerify's file-scope `__axiom(e);` statements, in file order:
    /// assumptions every kernel starts with.
    pub axioms: Vec<Node<'t>>,
    /// Explicit instantiations (`template __global__ void k<32>(float*);`):
    /// the function's name and its template argument list.
    pub instantiations: Vec<(String, Node<'t>)>,
    /// Explicit instantiations of class templates (`template class
    /// PiEstimator<float>;`): the class's name and its argument list.
    pub class_instantiations: Vec<(String, Node<'t>)>,
    /// Namespace-scope using-directives and using-declarations.
    pub usings: Vec<Using>,
    /// Every named namespace declared in the file (paths from the root).
    pub namespaces: std::collections::HashSet<Vec<String>>,
    /// Names of variables and constants declared in several namespaces or
    /// scoped enumerations: which one a use means needs qualified lookup of
    /// variables, which warpsafe does not do, so a use is an error.
    pub ambiguous: std::collections::HashSet<String>,
    /// Constructors, destructors and default member initialisers by class.
    pub classes: HashMap<String, ClassInfo<'t>>,
    /// Class template bodies (primary templates and explicit
    /// specialisations) and class bodies that declare member types, in file
    /// order.
    pub class_types: Vec<ClassTypes<'t>>,
    pub diagnostics: Vec<Diagnostic>,
    /// The namespaces being walked during collection.
    ns: Vec<String>,
    /// The syntax node that defined each class (a class met twice through
    /// one node is one definition).
    class_sites: HashMap<String, usize>,
}

impl<'t> Items<'t> {
    pub fn collect(syn: &'t Syntax) -> Items<'t> {
        let mut items = Items::default();
        // cuRAND states: opaque, one slot that generator calls update.
        for (name, aliases) in [
            (
                crate::lower::CURAND_STATE,
                &[
                    "curandState",
                    "curandState_t",
                    "curandStateXORWOW_t",
                    "curandStatePhilox4_32_10_t",
                ][..],
            ),
            (crate::lower::CURAND_MTGP32, &["curandStateMtgp32_t"][..]),
        ] {
            let def = StructDef {
                fields: vec![("state".to_string(), CType::Scalar(ScalarTy::U32))],
                min_align: 0,
            };
            items.types.structs.insert(name.to_string(), def);
            for a in aliases {
                items
                    .types
                    .typedefs
                    .insert(a.to_string(), CType::Struct(name.to_string()));
            }
        }
        // libcu++'s per-thread pipeline (no state warpsafe reads) and
        // block barrier (the count `init` gave it), see `async_copy`.
        for (name, field) in [
            (crate::lower::ASYNC_PIPELINE, "batches"),
            (crate::lower::ASYNC_BARRIER, "expected"),
            (crate::lower::BLOCK_TILE_MEMORY, "reserved"),
        ] {
            let def = StructDef {
                fields: vec![(field.to_string(), CType::Scalar(ScalarTy::U32))],
                min_align: 0,
            };
            items.types.structs.insert(name.to_string(), def);
        }
        items.walk(syn, syn.root(), &[]);
        items.reference_returning = reference_returning(syn);
        items
    }

    /// Free functions (not methods) named `name`, in every namespace.
    pub fn functions(&self, name: &str) -> Vec<&FnItem<'t>> {
        self.fns
            .iter()
            .filter(|f| f.name == name && f.owner.is_none() && f.spec.is_none())
            .collect()
    }

    /// The methods named `name` of class `owner` that have a body (what a
    /// call can inline).
    pub fn defined_methods(&self, owner: &str, name: &str) -> Vec<FnItem<'t>> {
        self.methods(owner, name)
            .into_iter()
            .filter(|m| m.def.child_by_field_name("body").is_some())
            .cloned()
            .collect()
    }

    /// Whether a namespace path names a namespace declared in the file.
    pub fn is_namespace(&self, path: &[String]) -> bool {
        self.namespaces.contains(path)
    }

    /// Methods named `name` of the struct or class `owner`.
    pub fn methods(&self, owner: &str, name: &str) -> Vec<&FnItem<'t>> {
        self.fns
            .iter()
            .filter(|f| f.name == name && f.owner.as_deref() == Some(owner) && f.spec.is_none())
            .collect()
    }

    fn walk(&mut self, syn: &'t Syntax, node: Node<'t>, template: &[TemplateParam<'t>]) {
        for child in named_children(node) {
            self.item(syn, child, template);
        }
    }

    fn item(&mut self, syn: &'t Syntax, n: Node<'t>, template: &[TemplateParam<'t>]) {
        match n.kind() {
            "namespace_definition" | "linkage_specification" => {
                // `namespace a::b { }` opens both; an anonymous namespace is
                // transparent (its names are visible in the enclosing one).
                let opened: Vec<String> = match n.child_by_field_name("name") {
                    Some(name) if n.kind() == "namespace_definition" => syn
                        .text(name)
                        .split("::")
                        .map(|p| p.trim().to_string())
                        .filter(|p| !p.is_empty())
                        .collect(),
                    _ => Vec::new(),
                };
                let depth = self.ns.len();
                for part in opened {
                    self.ns.push(part);
                    self.namespaces.insert(self.ns.clone());
                }
                if let Some(body) = n.child_by_field_name("body") {
                    if body.kind() == "declaration_list" {
                        self.walk(syn, body, template);
                    } else {
                        self.item(syn, body, template);
                    }
                }
                self.ns.truncate(depth);
            }
            "using_declaration" => {
                if let Some((path, directive)) = using_path(syn, n) {
                    self.usings.push(Using {
                        scope: self.ns.clone(),
                        path,
                        directive,
                    });
                }
            }
            "declaration_list" => self.walk(syn, n, template),
            "template_declaration" => {
                let params = n
                    .child_by_field_name("parameters")
                    .map(|p| template_params(syn, p))
                    .unwrap_or_default();
                for child in named_children(n) {
                    if child.kind() != "template_parameter_list" {
                        self.item(syn, child, &params);
                    }
                }
            }
            "function_definition" => self.function(syn, n, template),
            "template_instantiation" => {
                // `template class PiEstimator<float>;`
                let class = n
                    .child_by_field_name("type")
                    .filter(|t| matches!(t.kind(), "class_specifier" | "struct_specifier"))
                    .and_then(|t| t.child_by_field_name("name"))
                    .filter(|t| t.kind() == "template_type");
                if let Some(t) = class {
                    let name = t
                        .child_by_field_name("name")
                        .map(|c| syn.text(c).to_string());
                    if let (Some(name), Some(args)) = (name, t.child_by_field_name("arguments")) {
                        self.class_instantiations.push((name, args));
                    }
                }
                let args = n
                    .child_by_field_name("declarator")
                    .and_then(specialisation_args);
                let name = n
                    .child_by_field_name("declarator")
                    .and_then(|d| function_name(syn, d));
                if let (Some(name), Some(args)) = (name, args) {
                    self.instantiations.push((name, args));
                }
            }
            "declaration" => self.declaration(syn, n),
            "type_definition" => self.typedef(syn, n),
            "alias_declaration" => {
                let name = n
                    .child_by_field_name("name")
                    .map(|c| syn.text(c).to_string());
                let ty = n.child_by_field_name("type");
                if let (Some(name), Some(ty)) = (name, ty) {
                    if let Ok(t) = self.type_cx(syn).type_descriptor(ty) {
                        self.types.typedefs.insert(name, t);
                    }
                }
            }
            "struct_specifier" | "class_specifier" | "union_specifier" => {
                self.member_types(syn, n, template);
                self.member_enums(syn, n);
                let name = n.child_by_field_name("name");
                if !template.is_empty() || name.is_some_and(|c| c.kind() == "template_type") {
                    self.pointer_conversion(syn, n, template);
                    return;
                }
                self.struct_def(syn, n);
            }
            "enum_specifier" => self.enum_def(syn, n),
            "expression_statement" => {
                // GPUVerify's `__axiom(e)` at file scope: an assumption of
                // every kernel (lowered at the start of each).
                if is_axiom(syn, n) {
                    self.axioms.push(n);
                } else {
                    self.diagnostics.push(
                        Diagnostic::warning("ignored", "file-scope statement ignored")
                            .at(syn.span(n)),
                    );
                }
            }
            "ERROR" => {
                syn.errors_under(n, 5, &mut self.diagnostics);
            }
            _ => {}
        }
    }

    /// Enumerations defined in a class body (`enum CallPut { Call, Put };`):
    /// their names and enumerators are visible unqualified, as in the
    /// class's own methods (qualified uses, `Option<Real>::Call`, name the
    /// same constants).
    fn member_enums(&mut self, syn: &'t Syntax, n: Node<'t>) {
        let Some(body) = n.child_by_field_name("body") else {
            return;
        };
        for m in named_children(body) {
            let ty = m.child_by_field_name("type").filter(|t| {
                t.kind() == "enum_specifier" && t.child_by_field_name("body").is_some()
            });
            if let (true, Some(ty)) = (m.kind() == "field_declaration", ty) {
                self.enum_def(syn, ty);
            }
        }
    }

    /// Records a class template's body, or a class body that declares
    /// member types (`typedef float4 Type;`), with its template parameters
    /// or specialisation arguments.
    fn member_types(&mut self, syn: &'t Syntax, n: Node<'t>, template: &[TemplateParam<'t>]) {
        let (Some(name), Some(body)) =
            (n.child_by_field_name("name"), n.child_by_field_name("body"))
        else {
            return;
        };
        let (Some(class), spec) = class_and_arguments(name) else {
            return;
        };
        let member_types = named_children(body)
            .iter()
            .any(|m| matches!(m.kind(), "type_definition" | "alias_declaration"));
        if !member_types && template.is_empty() && spec.is_none() {
            return;
        }
        self.class_types.push(ClassTypes {
            name: syn.text(class).to_string(),
            ns: self.ns.clone(),
            params: template.to_vec(),
            spec,
            body,
        });
    }

    /// A class template's conversion to a pointer (cuda-samples'
    /// `SharedMemory<T>`, whose `operator T *()` returns the block's
    /// `extern __shared__` memory): recorded as a template function named
    /// [`conversion_name`] so that `SharedMemory<T>()` can inline it, and an
    /// explicit specialisation (`template <> struct SharedMemory<double>`)
    /// as that function's specialisation. Class templates are otherwise not
    /// modelled. Of a non-`const` and a `const` conversion the first
    /// non-`const` one is kept (the one a `T *` initialiser calls).
    fn pointer_conversion(&mut self, syn: &'t Syntax, n: Node<'t>, template: &[TemplateParam<'t>]) {
        let Some(name) = n.child_by_field_name("name") else {
            return;
        };
        let (class, spec) = class_and_arguments(name);
        let Some(class) = class.map(|c| syn.text(c).to_string()) else {
            return;
        };
        let Some(body) = n.child_by_field_name("body") else {
            return;
        };
        let casts: Vec<Node<'t>> = named_children(body)
            .into_iter()
            .filter(|m| {
                m.kind() == "function_definition"
                    && m.child_by_field_name("declarator").is_some_and(|d| {
                        d.kind() == "operator_cast"
                            && d.child_by_field_name("declarator")
                                .is_some_and(|a| a.kind() == "abstract_pointer_declarator")
                    })
            })
            .collect();
        // `operator const T *() const`: the qualifier follows the parameters.
        let is_const = |m: &Node| {
            m.child_by_field_name("declarator")
                .and_then(|d| d.child_by_field_name("declarator"))
                .and_then(|a| a.child_by_field_name("declarator"))
                .is_some_and(|f| {
                    named_children(f)
                        .iter()
                        .any(|q| q.kind() == "type_qualifier")
                })
        };
        let chosen = casts
            .iter()
            .find(|m| !is_const(m))
            .or_else(|| casts.first())
            .copied();
        let Some(def) = chosen else { return };
        self.fns.push(FnItem {
            name: conversion_name(&class),
            def,
            quals: quals(syn, def),
            template: template.to_vec(),
            broken: def.has_error(),
            owner: None,
            ns: self.ns.clone(),
            spec,
            class_env: None,
            of_template: None,
        });
    }

    pub(crate) fn type_cx<'a>(&'a self, syn: &'a Syntax) -> TypeCx<'a> {
        static EMPTY: std::sync::OnceLock<TemplateEnv> = std::sync::OnceLock::new();
        TypeCx {
            syn,
            types: &self.types,
            tenv: EMPTY.get_or_init(TemplateEnv::default),
            consts: &self.consts,
            classes: &self.class_types,
            depth: 0,
        }
    }

    fn function(&mut self, syn: &'t Syntax, n: Node<'t>, template: &[TemplateParam<'t>]) {
        // Structs defined in the return type position are rare; functions
        // whose declarator is not a plain or qualified name (operators) are
        // skipped.
        let Some(decl) = n.child_by_field_name("declarator") else {
            return;
        };
        let mut ns = self.ns.clone();
        let mut owner = None;
        let name = match function_name(syn, decl) {
            Some(name) => name,
            None => {
                // `a::f(...) { }` or `S::m(...) { }` defined out of line.
                let Some((scope, name)) = qualified_function_name(syn, decl) else {
                    // A member of a class template or an operator
                    // (`PiEstimator<Real>::operator()()`), which nothing
                    // calls by name: kept, under its qualified name as
                    // written, for the kernel launches in its body.
                    if let Some(core) =
                        declarator_core(decl).filter(|c| c.kind() == "qualified_identifier")
                    {
                        let q = quals(syn, n);
                        if let Some((class, member)) = template_member(syn, core) {
                            if q.device {
                                self.fns.push(FnItem {
                                    name: member,
                                    def: n,
                                    quals: q,
                                    template: template.to_vec(),
                                    broken: n.has_error(),
                                    owner: Some(syn.text(class).to_string()),
                                    ns,
                                    spec: None,
                                    class_env: None,
                                    of_template: Some(
                                        core.child_by_field_name("scope")
                                            .expect("invariant: template_member found the scope"),
                                    ),
                                });
                                return;
                            }
                        }
                        if !(q.device || q.global) {
                            self.fns.push(FnItem {
                                name: syn.text(core).split_whitespace().collect(),
                                def: n,
                                quals: q,
                                template: template.to_vec(),
                                broken: n.has_error(),
                                owner: None,
                                ns,
                                spec: None,
                                class_env: None,
                                of_template: None,
                            });
                        }
                    }
                    return;
                };
                match scope.last() {
                    Some(class) if self.types.structs.contains_key(class) => {
                        let class = class.clone();
                        if name == class {
                            self.classes.entry(class.clone()).or_default().has_ctor = true;
                        }
                        owner = Some(class);
                    }
                    _ => ns.extend(scope),
                }
                name
            }
        };
        let q = quals(syn, n);
        if n.has_error() {
            let mut errs = Vec::new();
            syn.errors_under(n, 5, &mut errs);
            if !(q.global || q.device) {
                for e in &mut errs {
                    e.severity = warpsafe_source::Severity::Warning;
                    e.notes
                        .push("this is host code, which warpsafe skips".into());
                }
            }
            self.diagnostics.extend(errs);
        }
        self.fns.push(FnItem {
            name,
            def: n,
            quals: q,
            template: template.to_vec(),
            broken: n.has_error(),
            owner,
            ns,
            spec: specialisation_args(decl),
            class_env: None,
            of_template: None,
        });
    }

    fn declaration(&mut self, syn: &'t Syntax, n: Node<'t>) {
        if let Some(ty) = n.child_by_field_name("type") {
            if matches!(
                ty.kind(),
                "struct_specifier" | "class_specifier" | "union_specifier"
            ) && ty.child_by_field_name("body").is_some()
            {
                self.struct_def(syn, ty);
            }
            if ty.kind() == "enum_specifier" {
                self.enum_def(syn, ty);
            }
        }
        let q = quals(syn, n);
        let declarators: Vec<Node<'t>> = n
            .children_by_field_name("declarator", &mut n.walk())
            .collect();
        for d in declarators {
            if d.kind() == "function_declarator" {
                if let Some(name) = function_name(syn, d) {
                    self.prototypes.push((name, n));
                }
                continue;
            }
            let Some(name) = declared_name(syn, d) else {
                continue;
            };
            // A variable of this declaration, in device or host memory.
            let global = |name, ns, host, quals| GlobalItem {
                name,
                ns,
                host,
                decl: n,
                declarator: d,
                quals,
            };
            if q.shared || q.constant || q.device {
                self.define_global(global(name, self.ns.clone(), false, q));
            } else if q.const_ {
                // `const int N = 64;` at file scope: usable in array sizes,
                // with its declared type.
                let scalar = n
                    .child_by_field_name("type")
                    .and_then(|t| self.type_cx(syn).base_type(t).ok())
                    .and_then(|t| t.scalar());
                let value = d.child_by_field_name("value");
                match (value, scalar) {
                    (Some(v), Some(ty)) if !ty.is_float() => {
                        if let Some(c) = eval(syn, v, &*self) {
                            self.define_const(name.clone(), crate::consteval::wrap(c, ty));
                            self.const_types.insert(name, ty);
                        }
                    }
                    // `const float sqrt_2PI = 2.5066f;`: nvcc lets device
                    // code read a const floating-point variable with a
                    // constant initialiser; it is read as the read-only
                    // `__constant__` it amounts to.
                    (Some(_), Some(_)) if d.kind() == "init_declarator" => {
                        let quals = Quals {
                            constant: true,
                            ..q
                        };
                        self.define_global(global(name, self.ns.clone(), false, quals))
                    }
                    _ => {}
                }
            } else if !q.extern_ {
                self.define_global(global(name, self.ns.clone(), true, q));
            }
        }
    }

    fn typedef(&mut self, syn: &'t Syntax, n: Node<'t>) {
        let Some(ty) = n.child_by_field_name("type") else {
            return;
        };
        if matches!(
            ty.kind(),
            "struct_specifier" | "class_specifier" | "union_specifier"
        ) {
            self.struct_def(syn, ty);
        }
        if ty.kind() == "enum_specifier" {
            self.enum_def(syn, ty);
        }
        let declarators: Vec<Node<'t>> = n
            .children_by_field_name("declarator", &mut n.walk())
            .collect();
        for d in declarators {
            let cx = self.type_cx(syn);
            let Ok(base) = cx.base_type(ty) else { continue };
            if let Ok(declared) = cx.declarator(base, d) {
                let name = syn.text(declared.name).to_string();
                // `typedef struct S S;` must not shadow the struct itself.
                if declared.ty != CType::Struct(name.clone()) {
                    self.types.typedefs.insert(name, declared.ty);
                }
            }
        }
    }

    pub(crate) fn struct_def(&mut self, syn: &'t Syntax, n: Node<'t>) {
        let Some(body) = n.child_by_field_name("body") else {
            return;
        };
        let name = match n.child_by_field_name("name") {
            Some(nm) => syn.text(nm).to_string(),
            None => anon_struct_name(n),
        };
        if let Some(reason) = self.unmodelled_layout(syn, body) {
            self.types.structs.remove(&name);
            self.types.rejected.insert(name, reason);
            return;
        }
        if n.kind() == "union_specifier" {
            match crate::unions::collect(self, syn, body) {
                Ok((storage, members)) => {
                    self.types.structs.insert(name.clone(), storage);
                    self.types.unions.insert(name, members);
                }
                Err(reason) => {
                    self.types.structs.remove(&name);
                    self.types.rejected.insert(name, reason);
                }
            }
            return;
        }
        // One name, two definitions (in different namespaces): which one a
        // use means needs qualified lookup, which types do not have yet.
        let site = *self.class_sites.entry(name.clone()).or_insert(n.id());
        if site != n.id() {
            self.types.structs.remove(&name);
            self.types.rejected.insert(
                name,
                "a class defined twice (in different namespaces): warpsafe does not resolve qualified type names".into(),
            );
            return;
        }
        // The name is known inside its own body, so that a field can point
        // at the struct (`list_elem *next;`); the definition replaces this
        // placeholder, which goes again when the struct is refused.
        let placeholder = !self.types.structs.contains_key(&name);
        if placeholder {
            self.types
                .structs
                .insert(name.clone(), StructDef::default());
        }
        if !self.class_members(syn, n, body, name.clone()) && placeholder {
            self.types.structs.remove(&name);
        }
    }

    /// The fields and methods of class `name` (defined by `n`, with body
    /// `body`), stored; `false` when the class is refused instead (its
    /// reason in `types.rejected`) or a field cannot be read.
    fn class_members(
        &mut self,
        syn: &'t Syntax,
        n: Node<'t>,
        body: Node<'t>,
        name: String,
    ) -> bool {
        let mut def = StructDef::default();
        let mut info = ClassInfo::default();
        // Base classes' fields come first.
        for child in named_children(n) {
            if child.kind() == "base_class_clause" {
                for base in named_children(child) {
                    let bname = syn.text(base).trim().to_string();
                    if let Some(b) = self.types.structs.get(&bname) {
                        def.fields.extend(b.fields.clone());
                    }
                    if let Some(b) = self.classes.get(&bname) {
                        info.field_inits.extend(b.field_inits.clone());
                        info.has_ctor |= b.has_ctor;
                        info.dtor = info.dtor.or(b.dtor);
                    }
                }
            }
        }
        for field in named_children(body) {
            // Constructors and destructors, declared or defined in the class.
            info.note_special(syn, field, &name);
            if field.kind() == "function_definition" {
                // A method defined in the class body.
                let fname = field
                    .child_by_field_name("declarator")
                    .and_then(|d| function_name(syn, d));
                if let Some(fname) = fname {
                    self.fns.push(FnItem {
                        name: fname,
                        def: field,
                        quals: quals(syn, field),
                        template: Vec::new(),
                        broken: field.has_error(),
                        owner: Some(name.clone()),
                        ns: self.ns.clone(),
                        spec: None,
                        class_env: None,
                        of_template: None,
                    });
                }
                continue;
            }
            if field.kind() != "field_declaration" {
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
                self.struct_def(syn, fty);
            }
            let declarators: Vec<Node<'t>> = field
                .children_by_field_name("declarator", &mut field.walk())
                .collect();
            let cx = self.type_cx(syn);
            let base = match cx.base_type(fty) {
                Ok(base) => base,
                Err(e) => {
                    // An unknown field type makes the struct unusable: a use
                    // reports why (the field's type is often declared in a
                    // header warpsafe could not find).
                    let field_name = declarators
                        .first()
                        .and_then(|d| declared_name(syn, *d))
                        .unwrap_or_default();
                    self.types.rejected.insert(
                        name.clone(),
                        format!(
                            "`{name}`, whose field `{field_name}` has a type warpsafe cannot read ({})",
                            e.message
                        ),
                    );
                    return false;
                }
            };
            if declarators.is_empty() {
                // An anonymous struct member: its fields are inlined.
                if let CType::Struct(inner) = &base {
                    if let Some(d) = self.types.structs.get(inner) {
                        def.fields.extend(d.fields.clone());
                    }
                    if let Some(i) = self.classes.get(inner) {
                        info.field_inits.extend(i.field_inits.clone());
                    }
                }
                continue;
            }
            for d in &declarators {
                if declares_function(*d) {
                    continue;
                }
                match cx.declarator(base.clone(), *d) {
                    Ok(decl) => {
                        let fname = syn.text(decl.name).to_string();
                        if let Some(init) = field.child_by_field_name("default_value") {
                            info.field_inits.push((fname.clone(), init));
                        }
                        def.fields.push((fname, decl.ty));
                    }
                    Err(_) => return false,
                }
            }
        }
        // A field that hides a base class's field of the same name is a
        // second subobject, which the flat field list cannot hold.
        let mut seen = std::collections::HashSet::new();
        if let Some((dup, _)) = def.fields.iter().find(|(f, _)| !seen.insert(f.clone())) {
            let reason = format!(
                "class `{name}` declares a field `{dup}` that hides a base class's field of the same name (not modelled)"
            );
            self.types.rejected.insert(name, reason);
            return false;
        }
        self.types.structs.insert(name.clone(), def);
        self.classes.insert(name, info);
        true
    }

    /// Why a class's memory layout cannot be modelled, if it cannot: a
    /// bit-field (adjacent bit-fields are one memory location), or a field
    /// of a type already refused. (Unions are `unions.rs`'s.)
    fn unmodelled_layout(&self, syn: &Syntax, body: Node) -> Option<String> {
        for field in named_children(body) {
            if named_children(field)
                .iter()
                .any(|c| c.kind() == "bitfield_clause")
            {
                return Some(format!(
                    "bit-fields are not modelled (adjacent bit-fields are one memory location): `{}`",
                    syn.text(field).trim()
                ));
            }
            let inner = field.child_by_field_name("type");
            if let Some(t) = inner.filter(|t| t.kind() == "type_identifier") {
                if let Some(r) = self.types.rejected.get(syn.text(t)) {
                    return Some(r.clone());
                }
            }
        }
        None
    }

    fn enum_def(&mut self, syn: &'t Syntax, n: Node<'t>) {
        // The underlying type: the fixed one (`enum class E : unsigned
        // char`), else `int` for a scoped enum, else the first of int,
        // unsigned int, long long, unsigned long long that holds every
        // enumerator ([dcl.enum]/5,7).
        let fixed = n
            .child_by_field_name("base")
            .and_then(|b| self.type_cx(syn).base_type(b).ok())
            .and_then(|t| t.scalar());
        let scoped = syn.text(n).trim_start().starts_with("enum class")
            || syn.text(n).trim_start().starts_with("enum struct");
        let mut values = Vec::new();
        if let Some(body) = n.child_by_field_name("body") {
            let mut next = Some(0i128);
            for e in named_children(body) {
                if e.kind() != "enumerator" {
                    continue;
                }
                let Some(name) = e.child_by_field_name("name") else {
                    continue;
                };
                if let Some(v) = e.child_by_field_name("value") {
                    next = eval(syn, v, &*self);
                }
                // An enumerator whose value cannot be computed (and those
                // after it) is left undefined, so a use is an error.
                let Some(v) = next else { continue };
                values.push((syn.text(name).to_string(), v));
                next = v.checked_add(1);
            }
        }
        let fits = |t: ScalarTy| {
            values
                .iter()
                .all(|(_, v)| crate::consteval::wrap(*v, t) == *v)
        };
        let underlying = match (fixed, scoped) {
            (Some(t), _) => t,
            (None, true) => ScalarTy::I32,
            (None, false) => [ScalarTy::I32, ScalarTy::U32, ScalarTy::I64, ScalarTy::U64]
                .into_iter()
                .find(|t| fits(*t))
                .unwrap_or(ScalarTy::I64),
        };
        if let Some(name) = n.child_by_field_name("name") {
            self.types
                .typedefs
                .insert(syn.text(name).to_string(), CType::Scalar(underlying));
        }
        for (name, v) in values {
            self.define_const(name.clone(), crate::consteval::wrap(v, underlying));
            self.const_types.insert(name, underlying);
        }
    }
}

impl<'t> Items<'t> {
    /// A file- or namespace-scope constant (or enumerator); a name given two
    /// different values in different scopes is ambiguous.
    fn define_const(&mut self, name: String, value: i128) {
        if self.ambiguous.contains(&name) {
            return;
        }
        match self.consts.get(&name) {
            Some(v) if *v != value => {
                self.consts.remove(&name);
                self.ambiguous.insert(name);
            }
            _ => {
                self.consts.insert(name, value);
            }
        }
    }

    /// A device or host variable; one name in two namespaces is ambiguous.
    fn define_global(&mut self, g: GlobalItem<'t>) {
        if self
            .globals
            .iter()
            .any(|o| o.name == g.name && o.ns != g.ns)
        {
            self.ambiguous.insert(g.name.clone());
        }
        self.globals.push(g);
    }
}

impl ConstEnv for Items<'_> {
    fn constant(&self, name: &str) -> Option<i128> {
        self.consts.get(name).copied()
    }

    fn constant_type(&self, name: &str) -> Option<ScalarTy> {
        self.const_types.get(name).copied()
    }

    fn scalar_type(&self, name: &str) -> Option<ScalarTy> {
        crate::types::named_scalar(name).or_else(|| self.types.typedefs.get(name)?.scalar())
    }
}

fn template_params<'t>(syn: &'t Syntax, list: Node<'t>) -> Vec<TemplateParam<'t>> {
    let mut out = Vec::new();
    for p in named_children(list) {
        match p.kind() {
            "type_parameter_declaration" | "optional_type_parameter_declaration" => {
                let name = p
                    .child_by_field_name("name")
                    .or_else(|| {
                        named_children(p)
                            .into_iter()
                            .find(|c| c.kind() == "type_identifier")
                    })
                    .map(|c| syn.text(c).to_string())
                    .unwrap_or_default();
                out.push(TemplateParam {
                    name,
                    is_type: true,
                    default: p.child_by_field_name("default_type"),
                });
            }
            "parameter_declaration" | "optional_parameter_declaration" => {
                let name = p
                    .child_by_field_name("declarator")
                    .and_then(|d| declared_name(syn, d))
                    .unwrap_or_default();
                out.push(TemplateParam {
                    name,
                    is_type: false,
                    default: p.child_by_field_name("default_value"),
                });
            }
            _ => {}
        }
    }
    out
}

/// The path a `using namespace a::b;` (a directive: `true`) or a
/// `using a::f;` names, as written.
pub fn using_path(syn: &Syntax, n: Node) -> Option<(Vec<String>, bool)> {
    let directive = syn.text(n).split_whitespace().nth(1) == Some("namespace");
    let target = named_children(n).into_iter().last()?;
    let path = syn
        .text(target)
        .split("::")
        .map(|p| p.trim().to_string())
        .collect();
    Some((path, directive))
}

/// The node a function declarator names, through pointer, reference,
/// parenthesised and attributed declarators (`f`, `a::f`, `f<2>`,
/// `operator+`).
pub(crate) fn declarator_core(mut d: Node) -> Option<Node> {
    loop {
        match d.kind() {
            "function_declarator"
            | "pointer_declarator"
            | "reference_declarator"
            | "parenthesized_declarator"
            | "attributed_declarator" => {
                d = d
                    .child_by_field_name("declarator")
                    .or_else(|| named_children(d).into_iter().next())?;
            }
            _ => return Some(d),
        }
    }
}

/// The names of every function or method declared (or defined) with a
/// reference result: `T &at(int)`, `const T &C<T>::lower() const`.
fn reference_returning(syn: &Syntax) -> HashSet<String> {
    let mut names = HashSet::new();
    let mut stack = vec![syn.root()];
    while let Some(n) = stack.pop() {
        if matches!(
            n.kind(),
            "function_definition" | "field_declaration" | "declaration"
        ) {
            let mut c = n.walk();
            for d in n.children_by_field_name("declarator", &mut c) {
                if d.kind() == "reference_declarator" && declares_function(d) {
                    let core = declarator_core(d);
                    let name = core.map(|c| match c.child_by_field_name("name") {
                        Some(last) => syn.text(last),
                        None => syn.text(c),
                    });
                    if let Some(name) = name {
                        names.insert(name.split_whitespace().collect());
                    }
                }
            }
        }
        stack.extend(named_children(n));
    }
    names
}

/// Whether a member declarator declares a method (`f()`, `T *f()`,
/// `T const &f() const`), not a field: a function declarator under the
/// pointers and references of its result type.
pub(crate) fn declares_function(mut d: Node) -> bool {
    loop {
        match d.kind() {
            "function_declarator" => return true,
            "pointer_declarator" | "reference_declarator" => {
                match d
                    .child_by_field_name("declarator")
                    .or_else(|| named_children(d).into_iter().next())
                {
                    Some(inner) => d = inner,
                    None => return false,
                }
            }
            _ => return false,
        }
    }
}

/// The name a function declarator declares (`k`, `k<2>`, `operator+`), if
/// it is not qualified.
pub fn function_name(syn: &Syntax, d: Node) -> Option<String> {
    let core = declarator_core(d)?;
    match core.kind() {
        "identifier" | "field_identifier" => Some(syn.text(core).to_string()),
        "template_function" => core
            .child_by_field_name("name")
            .filter(|n| n.kind() == "identifier")
            .map(|n| syn.text(n).to_string()),
        // `operator+`, `operator +=`: named without spaces.
        "operator_name" => {
            let text: String = syn.text(core).split_whitespace().collect();
            text.starts_with("operator").then_some(text)
        }
        _ => None,
    }
}

/// The scope and name of a function declarator named `a::b::f`.
fn qualified_function_name(syn: &Syntax, d: Node) -> Option<(Vec<String>, String)> {
    let core = declarator_core(d).filter(|c| c.kind() == "qualified_identifier")?;
    let text = syn.text(core);
    if text.contains('<') || text.contains('~') || text.contains("operator") {
        return None;
    }
    let mut parts: Vec<String> = text.split("::").map(|p| p.trim().to_string()).collect();
    let name = parts.pop()?;
    if parts.iter().any(|p| p.is_empty()) || name.is_empty() {
        return None;
    }
    Some((parts, name))
}

/// The class template and member a qualified declarator names
/// (`C<T>::get`, `C<T>::C`): plain members and constructors only.
fn template_member<'t>(syn: &Syntax, core: Node<'t>) -> Option<(Node<'t>, String)> {
    let scope = core
        .child_by_field_name("scope")
        .filter(|s| s.kind() == "template_type")?;
    let name = core.child_by_field_name("name").filter(|n| {
        matches!(
            n.kind(),
            "identifier" | "field_identifier" | "type_identifier"
        )
    })?;
    Some((
        scope.child_by_field_name("name")?,
        syn.text(name).to_string(),
    ))
}

/// The name under which a class template's conversion to a pointer is
/// recorded among the functions (`::` keeps it apart from every function
/// name a file can declare).
pub fn conversion_name(class: &str) -> String {
    format!("{class}::operator*")
}

/// The template arguments of an explicit specialisation's declarator
/// (`f<2>` in `template <> int f<2>(int)`).
fn specialisation_args(d: Node) -> Option<Node> {
    declarator_core(d)
        .filter(|c| c.kind() == "template_function")?
        .child_by_field_name("arguments")
}

enum Special {
    Ctor(String),
    Dtor,
}

/// Whether a member declarator declares a constructor (named after its
/// class) or a destructor.
fn special_member(syn: &Syntax, mut d: Node) -> Option<Special> {
    loop {
        match d.kind() {
            "function_declarator" => {
                let inner = d.child_by_field_name("declarator")?;
                return match inner.kind() {
                    "destructor_name" => Some(Special::Dtor),
                    "identifier" | "field_identifier" | "type_identifier" => {
                        Some(Special::Ctor(syn.text(inner).to_string()))
                    }
                    _ => None,
                };
            }
            "pointer_declarator" | "reference_declarator" => return None,
            _ => {
                d = d
                    .child_by_field_name("declarator")
                    .or_else(|| named_children(d).into_iter().next())?;
            }
        }
    }
}

/// The identifier a (variable) declarator declares.
pub fn declared_name(syn: &Syntax, mut d: Node) -> Option<String> {
    loop {
        match d.kind() {
            // A typedef declares a `type_identifier`.
            "identifier" | "field_identifier" | "type_identifier" => {
                return Some(syn.text(d).to_string())
            }
            _ => {
                d = d.child_by_field_name("declarator").or_else(|| {
                    named_children(d)
                        .into_iter()
                        .find(|c| c.kind() != "type_qualifier")
                })?;
            }
        }
    }
}

/// Whether the expression statement `n` is a call of `__axiom`.
fn is_axiom(syn: &Syntax, n: Node<'_>) -> bool {
    named_children(n).into_iter().any(|c| {
        c.kind() == "call_expression"
            && c.child_by_field_name("function")
                .is_some_and(|f| syn.text(f) == "__axiom")
    })
}

/// The class a class head names and, for an explicit specialisation
/// (`struct S<float>`), its argument list.
fn class_and_arguments(name: Node) -> (Option<Node>, Option<Node>) {
    match name.kind() {
        "template_type" => (
            name.child_by_field_name("name"),
            name.child_by_field_name("arguments"),
        ),
        _ => (Some(name), None),
    }
}
