//! The template arguments a launch gives its kernel, when the launching
//! function is itself a template: `reduce0<T><<<b, t>>>(...)` inside
//! `template <class T> void reduce(...)` launches `reduce0<int>` for the
//! instantiation `template void reduce<int>(...)` (or a call `reduce<int>(...)`
//! elsewhere in the file), and so on for each instantiation.
//!
//! Invariant: a launch whose arguments name a parameter of the launching
//! template that no instantiation in the file gives a value yields no
//! argument list at all (the kernel then needs another source of its
//! arguments), never one with the parameter's name left in it.

use crate::items::{FnItem, Items};
use crate::launch::Launch;
use crate::syntax::{named_children, Syntax};
use tree_sitter::Node;

/// Every template argument list (as texts) launch `l` gives its kernel;
/// `None` for a launch that writes no template arguments.
pub fn launch_arg_lists(syn: &Syntax, items: &Items, l: &Launch) -> Option<Vec<Vec<String>>> {
    let written = match l.template_args {
        Some(a) => crate::template_arg_texts(syn, a),
        None => deduced_args(syn, items, l)?,
    };
    let host = items.fns.iter().find(|g| g.def.id() == l.host.id());
    // The launching function's local constants (`constexpr int g = 2;`
    // before `k<T, 1024 / g><<<...>>>`) by value.
    let locals = host
        .and_then(|h| h.def.child_by_field_name("body"))
        .map(|b| crate::launch::host_consts(syn, items, b, l.call.start_byte()))
        .unwrap_or_default();
    let written: Vec<String> = written
        .iter()
        .map(|t| substitute(t, |id| locals.get(id).map(|v| v.to_string())))
        .collect();
    let params: Vec<&str> = host
        .map(|h| h.template.iter().map(|p| p.name.as_str()).collect())
        .unwrap_or_default();
    let mentions = |t: &str| identifiers(t).any(|(_, id)| params.contains(&id));
    if !written.iter().any(|t| mentions(t)) {
        return Some(vec![written]);
    }
    let host = host.expect("invariant: params come from the host function");
    let lists = host_instantiations(syn, items, host)
        .into_iter()
        .map(|values| {
            let value = |id: &str| {
                params
                    .iter()
                    .position(|p| *p == id)
                    .map(|i| values[i].clone())
            };
            written.iter().map(|t| substitute(t, value)).collect()
        })
        .collect();
    Some(lists)
}

/// The template arguments of a launch that writes none, deduced from the
/// declared types of its arguments: `k<<<g, b>>>(d_values, n)` with `Real
/// *d_values` declared in the host and `template <class Real> __global__
/// void k(Real *values, int n)` gives `Real` (which the host's
/// instantiations then resolve, as for written arguments). `None` unless
/// every type parameter is deduced, the same way from each argument that
/// is a variable of the host.
fn deduced_args(syn: &Syntax, items: &Items, l: &Launch) -> Option<Vec<String>> {
    let args = l.args.clone()?;
    let kernel = items.fns.iter().find(|f| {
        f.name == l.kernel && f.is_kernel() && !f.template.is_empty() && f.spec.is_none()
    })?;
    let params: Vec<Node> = function_params(kernel.def)?;
    let mut out = Vec::new();
    for t in &kernel.template {
        if !t.is_type {
            return None;
        }
        // Every parameter of type `T`, `T *`, ... whose argument is a
        // declared variable deduces `T` (with the argument's extra `*`s);
        // they must agree, as C++ requires.
        let mut found: Option<String> = None;
        for (p, a) in params.iter().zip(&args) {
            let Some((base, depth)) = declared_type(syn, *p) else {
                continue;
            };
            if base != t.name || a.kind() != "identifier" {
                continue;
            }
            let (ty, d) = host_declaration(syn, l.host, syn.text(*a), l.call.start_byte())?;
            let deduced = format!("{ty}{}", " *".repeat(d.checked_sub(depth)?));
            if found.as_ref().is_some_and(|f| *f != deduced) {
                return None;
            }
            found = Some(deduced);
        }
        out.push(found?);
    }
    Some(out)
}

/// The `parameter_declaration`s of a function definition.
fn function_params(def: Node) -> Option<Vec<Node>> {
    let mut d = def.child_by_field_name("declarator")?;
    while d.kind() != "function_declarator" {
        d = d.child_by_field_name("declarator")?;
    }
    Some(
        named_children(d.child_by_field_name("parameters")?)
            .into_iter()
            .filter(|p| p.kind().ends_with("parameter_declaration"))
            .collect(),
    )
}

/// The base type text (without `const`/`volatile`) and pointer depth of a
/// declaration's declarator `d` applied to its `type`.
fn declared_type(syn: &Syntax, decl: Node) -> Option<(String, usize)> {
    let ty = syn
        .text(decl.child_by_field_name("type")?)
        .trim()
        .to_string();
    let depth = pointer_depth(decl.child_by_field_name("declarator")?).1;
    Some((ty, depth))
}

/// The identifier a declarator declares and how many `*`s it applies.
fn pointer_depth(mut d: Node) -> (Option<Node>, usize) {
    let mut depth = 0;
    loop {
        match d.kind() {
            "identifier" => return (Some(d), depth),
            "pointer_declarator" => depth += 1,
            "init_declarator" | "array_declarator" | "parenthesized_declarator" => {}
            "reference_declarator" => {}
            _ => return (None, depth),
        }
        match d
            .child_by_field_name("declarator")
            .or_else(|| named_children(d).into_iter().next())
        {
            Some(inner) => d = inner,
            None => return (None, depth),
        }
    }
}

/// The type text and pointer depth of `name`'s last declaration before
/// byte `before` in the host function `host` (its parameters or a local).
fn host_declaration(
    syn: &Syntax,
    host: Node,
    name: &str,
    before: usize,
) -> Option<(String, usize)> {
    let mut best: Option<(usize, String, usize)> = None;
    let mut stack = vec![host];
    while let Some(n) = stack.pop() {
        if n.start_byte() >= before {
            continue;
        }
        if matches!(n.kind(), "declaration" | "parameter_declaration") {
            let ty = n
                .child_by_field_name("type")
                .map(|t| syn.text(t).trim().to_string());
            let mut c = n.walk();
            for d in n.children_by_field_name("declarator", &mut c) {
                let (id, depth) = pointer_depth(d);
                if id.is_some_and(|i| syn.text(i) == name) {
                    if let Some(ty) = &ty {
                        if best.as_ref().is_none_or(|b| b.0 < n.start_byte()) {
                            best = Some((n.start_byte(), ty.clone(), depth));
                        }
                    }
                }
            }
        }
        stack.extend(named_children(n));
    }
    best.map(|(_, ty, depth)| (ty, depth))
}

/// The argument lists the file instantiates template function `host` with,
/// each completed by the parameters' defaults (an instantiation that leaves
/// a parameter without value is dropped).
fn host_instantiations(syn: &Syntax, items: &Items, host: &FnItem) -> Vec<Vec<String>> {
    let mut lists: Vec<Vec<String>> = items
        .instantiations
        .iter()
        .filter(|(name, _)| *name == host.name)
        .map(|(_, a)| crate::template_arg_texts(syn, *a))
        .collect();
    // A member of a class template defined out of line
    // (`template <class Real> Real PiEstimator<Real>::run()`): the class's
    // explicit instantiations (`template class PiEstimator<float>;`).
    if let Some(class) = enclosing_class_template(syn, host) {
        lists.extend(
            items
                .class_instantiations
                .iter()
                .filter(|(name, _)| *name == class)
                .map(|(_, a)| crate::template_arg_texts(syn, *a)),
        );
    }
    // Calls `reduce<int>(...)` from functions that are not templates
    // themselves (a template caller's arguments may name its parameters).
    for caller in items.fns.iter().filter(|g| g.template.is_empty()) {
        let mut stack: Vec<Node> = caller.def.child_by_field_name("body").into_iter().collect();
        while let Some(n) = stack.pop() {
            if n.kind() == "call_expression" {
                let callee = n.child_by_field_name("function");
                if let Some(f) = callee.filter(|f| f.kind() == "template_function") {
                    let named = f.child_by_field_name("name").map(|c| syn.text(c));
                    if named == Some(host.name.as_str()) {
                        if let Some(a) = f.child_by_field_name("arguments") {
                            lists.push(crate::template_arg_texts(syn, a));
                        }
                    }
                }
            }
            stack.extend(named_children(n));
        }
    }
    let mut complete: Vec<Vec<String>> = lists
        .into_iter()
        .filter_map(|mut list| {
            for p in host.template.iter().skip(list.len()) {
                list.push(syn.text(p.default?).to_string());
            }
            Some(list)
        })
        .collect();
    complete.sort();
    complete.dedup();
    complete
}

/// The class template `C` of a member defined as `C<P1, P2>::f(...)` whose
/// scope's arguments are exactly the function's template parameters.
fn enclosing_class_template(syn: &Syntax, host: &FnItem) -> Option<String> {
    let mut d = host.def.child_by_field_name("declarator")?;
    while d.kind() != "qualified_identifier" {
        d = d.child_by_field_name("declarator")?;
    }
    let scope = d
        .child_by_field_name("scope")
        .filter(|s| s.kind() == "template_type")?;
    let args = crate::template_arg_texts(syn, scope.child_by_field_name("arguments")?);
    let params: Vec<&str> = host.template.iter().map(|p| p.name.as_str()).collect();
    if !args.iter().map(String::as_str).eq(params.iter().copied()) {
        return None;
    }
    Some(syn.text(scope.child_by_field_name("name")?).to_string())
}

/// `text` with each identifier that `value` gives a text for replaced by
/// it (parenthesised when it is an expression).
fn substitute(text: &str, value: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::new();
    let mut last = 0;
    for (at, id) in identifiers(text) {
        let Some(v) = value(id) else {
            continue;
        };
        out.push_str(&text[last..at]);
        let v = v.trim();
        let simple = v
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == ' ');
        if simple || text.trim() == id {
            out.push_str(v);
        } else {
            out.push('(');
            out.push_str(v);
            out.push(')');
        }
        last = at + id.len();
    }
    out.push_str(&text[last..]);
    out
}

/// The identifiers of `text` with their byte offsets (a name after `::` or
/// `.` is a member, not a parameter, and is skipped).
fn identifiers(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            let c = bytes[i];
            if c.is_ascii_alphabetic() || c == b'_' {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                let before = text[..start].trim_end();
                if before.ends_with("::") || before.ends_with('.') || before.ends_with("->") {
                    continue;
                }
                return Some((start, &text[start..i]));
            }
            if c.is_ascii_digit() {
                // A number's suffix (`16u`) is no identifier.
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.') {
                    i += 1;
                }
                continue;
            }
            i += 1;
        }
        None
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn substitutes_whole_identifiers_only() {
        let value = |id: &str| match id {
            "T" => Some("float".to_string()),
            "N" => Some("16 * 2".to_string()),
            _ => None,
        };
        assert_eq!(substitute("T", value), "float");
        assert_eq!(substitute("N / 2", value), "(16 * 2) / 2");
        assert_eq!(substitute("Tx + cg::T + 1u", value), "Tx + cg::T + 1u");
        assert_eq!(substitute("vec<T>", value), "vec<float>");
    }
}
