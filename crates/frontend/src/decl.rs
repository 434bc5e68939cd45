//! Type specifiers and declarators: from tree-sitter nodes to [`CType`]s.
//!
//! Invariant: resolution is pure; unknown or unsupported types are an
//! `Err(Diagnostic)` naming the type at its span, never a guess.

use crate::consteval::ConstEnv;
use crate::syntax::{all_children, named_children, Syntax};
use crate::types::{named_scalar, sized_scalar, vector_type, CType, GroupKind, TypeTable};
use std::collections::HashMap;
use tree_sitter::Node;
use warpsafe_ir::{ScalarTy, Scope};
use warpsafe_source::Diagnostic;

/// Template arguments in force while lowering one instance.
#[derive(Clone, Debug, Default)]
pub struct TemplateEnv {
    pub types: HashMap<String, CType>,
    pub values: HashMap<String, i128>,
}

impl TemplateEnv {
    /// The arguments as one string, equal for equal environments (an
    /// instance of a function template is its definition plus this key).
    pub fn key(&self) -> String {
        let mut parts: Vec<String> = self
            .types
            .iter()
            .map(|(k, t)| format!("{k}={t:?}"))
            .chain(self.values.iter().map(|(k, v)| format!("{k}={v}")))
            .collect();
        parts.sort();
        parts.join(",")
    }
}

/// Qualifiers and CUDA specifiers found on a declaration or definition.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quals {
    pub global: bool,
    pub device: bool,
    pub host: bool,
    pub shared: bool,
    pub constant: bool,
    pub extern_: bool,
    pub volatile: bool,
    pub const_: bool,
    pub static_: bool,
}

/// Scans the specifier tokens of a declaration (everything but its type,
/// declarator and body).
pub fn quals(syn: &Syntax, node: Node) -> Quals {
    let mut q = Quals::default();
    let skip: Vec<usize> = ["declarator", "body", "value"]
        .iter()
        .filter_map(|f| node.child_by_field_name(f).map(|c| c.id()))
        .collect();
    let mut visit = |text: &str| {
        for word in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            match word {
                "__global__" => q.global = true,
                "__device__" => q.device = true,
                "__host__" => q.host = true,
                "__shared__" => q.shared = true,
                "__constant__" => q.constant = true,
                "extern" => q.extern_ = true,
                "volatile" => q.volatile = true,
                "const" | "constexpr" => q.const_ = true,
                "static" => q.static_ = true,
                _ => {}
            }
        }
    };
    for child in all_children(node) {
        if skip.contains(&child.id()) {
            continue;
        }
        if child.kind() == "compound_statement" || child.kind() == "template_parameter_list" {
            continue;
        }
        let is_type = node.child_by_field_name("type").map(|t| t.id()) == Some(child.id());
        if is_type {
            // `volatile`/`const` may sit inside a qualified type; the type's
            // own text holds no CUDA specifiers otherwise.
            if matches!(
                child.kind(),
                "primitive_type" | "sized_type_specifier" | "type_identifier"
            ) {
                continue;
            }
            if child.kind() == "struct_specifier" || child.kind() == "class_specifier" {
                continue;
            }
        }
        visit(syn.text(child));
    }
    q
}

/// What a CUDA library type warpsafe does not model belongs to, for the
/// message that leaves its kernel out: `fragment<wmma::matrix_a, ...>`,
/// `pipeline<...>`, `barrier<...>`.
fn library_type_gap(what: &str) -> Option<&'static str> {
    let name = what.split('<').next().unwrap_or(what).trim();
    let name = name.rsplit("::").next().unwrap_or(name);
    match name {
        "fragment" if what.contains("wmma::") => {
            Some("warp matrix fragments (wmma, tensor cores) of this kind")
        }
        "pipeline" | "pipeline_shared_state" => Some(
            "libcu++'s pipelines other than `pipeline<thread_scope_thread>` (shared state, producer and consumer roles)",
        ),
        "barrier" if what.contains("thread_scope") => {
            Some("libcu++'s barriers other than `barrier<thread_scope_block>`")
        }
        _ => None,
    }
}

/// Resolves type specifiers with the type table and template environment.
pub struct TypeCx<'a> {
    pub syn: &'a Syntax,
    pub types: &'a TypeTable,
    pub tenv: &'a TemplateEnv,
    pub consts: &'a dyn ConstEnv,
    /// Classes with member types (`vec4<T>::Type`), see `member_types`.
    pub classes: &'a [crate::member_types::ClassTypes<'a>],
    /// How many member types are being resolved around this one.
    pub depth: u32,
}

type Res<T> = Result<T, Diagnostic>;

impl TypeCx<'_> {
    fn unsupported(&self, n: Node, what: &str) -> Diagnostic {
        let why = library_type_gap(what)
            .map(|gap| format!(": {gap} are not modelled yet, so the kernel is left out"))
            .unwrap_or_default();
        Diagnostic::error("unsupported", format!("unsupported type: {what}{why}"))
            .at(self.syn.span(n))
    }

    /// The type named by a `type` field node.
    pub fn base_type(&self, n: Node) -> Res<CType> {
        let text = self.syn.text(n).trim();
        match n.kind() {
            "primitive_type" => {
                if text == "void" {
                    return Ok(CType::Void);
                }
                named_scalar(text)
                    .map(CType::Scalar)
                    .ok_or_else(|| self.unsupported(n, text))
            }
            "sized_type_specifier" => {
                let words: Vec<&str> = text.split_whitespace().collect();
                sized_scalar(&words)
                    .map(CType::Scalar)
                    .ok_or_else(|| self.unsupported(n, text))
            }
            "type_identifier" => self.named_type(n, text, &[]),
            // `typename T::type`, and the front end's own disambiguation
            // of a declaration (see `syntax`).
            "dependent_type" => match n.named_child(0) {
                Some(inner) => self.base_type(inner),
                None => Err(self.unsupported(n, text)),
            },
            "qualified_identifier" if self.names_member_type(n) => {
                let (Some(scope), Some(name)) = (
                    n.child_by_field_name("scope"),
                    n.child_by_field_name("name"),
                ) else {
                    return Err(self.unsupported(n, text));
                };
                self.member_type(scope, name)
            }
            "qualified_identifier" => {
                // `cg::thread_block`, `cuda::atomic_ref<int, ...>`, `std::size_t`.
                let mut scopes = Vec::new();
                let mut cur = n;
                loop {
                    if let Some(s) = cur.child_by_field_name("scope") {
                        scopes.push(self.syn.text(s).to_string());
                    }
                    match cur.child_by_field_name("name") {
                        Some(name) if name.kind() == "qualified_identifier" => cur = name,
                        Some(name) if name.kind() == "template_type" => {
                            return self.template_type(name, &scopes);
                        }
                        Some(name) => {
                            let scopes: Vec<&str> = scopes.iter().map(|s| s.as_str()).collect();
                            return self.named_type(name, self.syn.text(name), &scopes);
                        }
                        None => return Err(self.unsupported(n, text)),
                    }
                }
            }
            "template_type" => self.template_type(n, &[]),
            "struct_specifier" | "class_specifier" | "union_specifier" => {
                match n.child_by_field_name("name") {
                    Some(name) => self.named_type(name, self.syn.text(name), &[]),
                    None => Ok(CType::Struct(anon_struct_name(n))),
                }
            }
            "enum_specifier" => Ok(CType::Scalar(ScalarTy::I32)),
            "placeholder_type_specifier" => Err(Diagnostic::error(
                "unsupported",
                "`auto` needs an initialiser to infer its type",
            )
            .at(self.syn.span(n))),
            _ => Err(self.unsupported(n, text)),
        }
    }

    /// `S::T` or `C<A>::T` where `S`/`C` is a class of the file with member
    /// types (not a namespace, as in `cg::thread_block`).
    fn names_member_type(&self, n: Node) -> bool {
        let (Some(scope), Some(name)) = (
            n.child_by_field_name("scope"),
            n.child_by_field_name("name"),
        ) else {
            return false;
        };
        let class = match scope.kind() {
            "template_type" => scope.child_by_field_name("name"),
            "namespace_identifier" | "type_identifier" => Some(scope),
            _ => None,
        };
        name.kind() == "type_identifier"
            && class.is_some_and(|c| {
                let c = self.syn.text(c);
                self.classes.iter().any(|k| k.name == c)
            })
    }

    /// The type an identifier names, when it names one.
    pub fn base_type_named(&self, n: Node) -> Res<CType> {
        self.named_type(n, self.syn.text(n), &[])
    }

    fn named_type(&self, n: Node, name: &str, scopes: &[&str]) -> Res<CType> {
        if let Some(t) = self.tenv.types.get(name) {
            return Ok(t.clone());
        }
        if let Some(t) = self.types.typedefs.get(name) {
            return Ok(t.clone());
        }
        if let Some(reason) = self.types.rejected.get(name) {
            return Err(
                Diagnostic::error("unsupported", format!("unsupported: {reason}"))
                    .at(self.syn.span(n)),
            );
        }
        if self.types.is_struct(name) {
            return Ok(CType::Struct(name.to_string()));
        }
        if let Some(t) = named_scalar(name) {
            return Ok(CType::Scalar(t));
        }
        if let Some(t) = vector_type(name) {
            return Ok(t);
        }
        let _ = scopes;
        match name {
            "thread_block" => Ok(CType::Group(GroupKind::Block)),
            "grid_group" => Ok(CType::Group(GroupKind::Grid)),
            "coalesced_group" => Ok(CType::Group(GroupKind::Coalesced)),
            "thread_group" => Ok(CType::Group(GroupKind::Any)),
            _ => Err(
                Diagnostic::error("unknown-type", format!("unknown type `{name}`"))
                    .at(self.syn.span(n)),
            ),
        }
    }

    fn template_type(&self, n: Node, scopes: &[String]) -> Res<CType> {
        let name_node = n
            .child_by_field_name("name")
            .ok_or_else(|| self.unsupported(n, "template"))?;
        let name = self.syn.text(name_node);
        let args: Vec<Node> = n
            .child_by_field_name("arguments")
            .map(named_children)
            .unwrap_or_default();
        let std = scopes.iter().any(|s| s == "std");
        match name {
            "atomic" | "atomic_ref" => {
                let elem = args
                    .first()
                    .ok_or_else(|| self.unsupported(n, "atomic without element type"))?;
                let elem = self.type_descriptor(*elem)?;
                let elem = elem
                    .scalar()
                    .ok_or_else(|| self.unsupported(n, "atomic of a non-scalar type"))?;
                let scope = match args.get(1) {
                    Some(s) => scope_name(self.syn.text(*s))
                        .ok_or_else(|| self.unsupported(*s, "unknown thread scope"))?,
                    // `cuda::std::atomic<T>` and unscoped `cuda::atomic<T>`
                    // default to system scope.
                    None => Scope::System,
                };
                Ok(if name == "atomic" {
                    CType::Atomic(elem, scope)
                } else {
                    CType::AtomicRef(elem, scope)
                })
            }
            "thread_block_tile" => {
                let size = args
                    .first()
                    .and_then(|a| crate::consteval::eval(self.syn, *a, self.consts))
                    .ok_or_else(|| self.unsupported(n, "tile size is not a constant"))?;
                Ok(CType::Group(GroupKind::Tile(size.clamp(1, 1024) as u32)))
            }
            "fragment"
                if n.child_by_field_name("arguments")
                    .is_some_and(|a| crate::wmma_types::is_wmma_fragment(self.syn, scopes, a))
                    && !self.is_class_template(name) =>
            {
                self.fragment_type(n, &args)
            }
            _ if !std && self.is_class_template(name) => self.class_instance(n, name, &args),
            "pipeline" | "barrier" => self.async_sync_type(n, name, &args),
            // Cooperative groups' scratch for tiles wider than a warp
            // (`this_thread_block(scratch)`): storage the library owns,
            // which no access of the program's touches.
            "block_tile_memory" => Ok(CType::Struct(crate::lower::BLOCK_TILE_MEMORY.to_string())),
            _ => Err(self.unsupported(n, self.syn.text(n))),
        }
    }

    /// libcu++'s `pipeline<thread_scope_thread>` and
    /// `barrier<thread_scope_block>` (see `lower::async_copy`), the scope
    /// spelt any way libcu++ allows (`cuda::thread_scope_block`,
    /// `cuda::thread_scope::thread_scope_block`); other scopes are refused.
    fn async_sync_type(&self, n: Node, name: &str, args: &[Node]) -> Res<CType> {
        let scope = args.first().and_then(|a| scope_name(self.syn.text(*a)));
        match (name, scope) {
            ("pipeline", Some(Scope::Thread)) => {
                Ok(CType::Struct(crate::lower::ASYNC_PIPELINE.to_string()))
            }
            ("barrier", Some(Scope::Block)) => {
                Ok(CType::Struct(crate::lower::ASYNC_BARRIER.to_string()))
            }
            _ => Err(self.unsupported(n, self.syn.text(n))),
        }
    }

    /// A `type_descriptor` (in casts, template arguments, `sizeof`).
    pub fn type_descriptor(&self, n: Node) -> Res<CType> {
        if n.kind() != "type_descriptor" {
            return self.base_type(n);
        }
        let ty_node = n
            .child_by_field_name("type")
            .ok_or_else(|| self.unsupported(n, "type"))?;
        let mut ty = self.base_type(ty_node)?;
        let mut decl = n.child_by_field_name("declarator");
        while let Some(d) = decl {
            match d.kind() {
                "abstract_pointer_declarator" => ty = CType::Pointer(Box::new(ty)),
                "abstract_reference_declarator" => {}
                "abstract_array_declarator" => {
                    let size = d
                        .child_by_field_name("size")
                        .and_then(|s| crate::consteval::eval(self.syn, s, self.consts))
                        .map(|v| v as u64);
                    ty = CType::Array(Box::new(ty), size);
                }
                "abstract_parenthesized_declarator" => {}
                _ => return Err(self.unsupported(d, self.syn.text(d))),
            }
            decl = d.child_by_field_name("declarator").or_else(|| {
                named_children(d)
                    .into_iter()
                    .find(|c| c.kind().starts_with("abstract_"))
            });
        }
        Ok(ty)
    }

    /// Applies a declarator to a base type; returns the declared identifier,
    /// its type and whether it is a C++ reference.
    pub fn declarator<'t>(&self, base: CType, d: Node<'t>) -> Res<Declared<'t>> {
        let mut ty = base;
        let mut is_ref = false;
        let mut cur = d;
        loop {
            match cur.kind() {
                "identifier" | "field_identifier" | "type_identifier" => {
                    return Ok(Declared {
                        name: cur,
                        ty,
                        is_ref,
                    })
                }
                "pointer_declarator" if ty == CType::FnPtr => {}
                "pointer_declarator" => ty = CType::Pointer(Box::new(ty)),
                "reference_declarator" => is_ref = true,
                "array_declarator" => {
                    let size = match cur.child_by_field_name("size") {
                        Some(s) => Some(
                            crate::consteval::eval(self.syn, s, self.consts)
                                .filter(|v| *v >= 0)
                                .ok_or_else(|| {
                                    Diagnostic::error(
                                        "unsupported",
                                        "array size is not a compile-time constant",
                                    )
                                    .at(self.syn.span(s))
                                })? as u64,
                        ),
                        None => None,
                    };
                    ty = CType::Array(Box::new(ty), size);
                }
                "init_declarator" | "parenthesized_declarator" | "attributed_declarator" => {}
                // `R (*f)(args)`: whatever the layers, a function pointer.
                "function_declarator" => ty = CType::FnPtr,
                "qualified_identifier" => {
                    let name = cur.child_by_field_name("name").unwrap_or(cur);
                    return Ok(Declared { name, ty, is_ref });
                }
                _ => return Err(self.unsupported(cur, self.syn.text(cur))),
            }
            let next = cur.child_by_field_name("declarator").or_else(|| {
                named_children(cur)
                    .into_iter()
                    .find(|c| c.kind() != "type_qualifier" && c.kind() != "ms_pointer_modifier")
            });
            match next {
                Some(n) => cur = n,
                None => return Err(self.unsupported(cur, "declarator without a name")),
            }
        }
    }
}

/// What a declarator declares.
pub struct Declared<'t> {
    pub name: Node<'t>,
    pub ty: CType,
    pub is_ref: bool,
}

/// Name given to an anonymous struct, unique per definition site.
pub fn anon_struct_name(n: Node) -> String {
    format!("<anonymous@{}>", n.start_byte())
}

/// `cuda::thread_scope_device` and friends.
pub fn scope_name(text: &str) -> Option<Scope> {
    let last = text.rsplit("::").next()?.trim();
    Some(match last {
        "thread_scope_thread" => Scope::Thread,
        "thread_scope_block" => Scope::Block,
        "thread_scope_cluster" => Scope::Cluster,
        "thread_scope_device" => Scope::Device,
        "thread_scope_system" => Scope::System,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::library_type_gap;

    #[test]
    fn library_types_left_out_say_which_library() {
        assert!(
            library_type_gap("fragment<wmma::accumulator, 16, 16, 16, float>")
                .is_some_and(|g| g.contains("wmma"))
        );
        assert!(
            library_type_gap("pipeline_shared_state<cuda::thread_scope_block, 2>")
                .is_some_and(|g| g.contains("shared state"))
        );
        assert!(library_type_gap("cuda::barrier<cuda::thread_scope_system>")
            .is_some_and(|g| g.contains("barrier<thread_scope_block>")));
        // A user's own types of these names are not libcu++'s.
        assert_eq!(library_type_gap("fragment<float>"), None);
        assert_eq!(library_type_gap("barrier"), None);
        assert_eq!(library_type_gap("SharedMemory<T>"), None);
    }
}
