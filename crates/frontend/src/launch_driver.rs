//! Launches through the CUDA driver API (issue 9): NVRTC and driver-API
//! programs compile `kernel.cu` at run time and launch its `extern "C"`
//! kernels from `main.cpp` by name:
//!
//! ```c
//! CUfunction f;
//! cuModuleGetFunction(&f, module, "sequence_gpu");
//! void *arr[] = {(void *)&d_ptr, (void *)&N};
//! cuLaunchKernel(f, grid.x, grid.y, grid.z, block.x, block.y, block.z, 0, 0, arr, 0);
//! ```
//!
//! Such a launch is read as `sequence_gpu<<<grid, block>>>(d_ptr, N)`: its
//! components, its arguments (`launch_args.rs`), and, besides its own
//! path conditions, those under which its function was chosen.
//!
//! **Invariant:** the handle is a local of the launching function, declared
//! once, written only by `cuModuleGetFunction(&f, m, "name")` calls before
//! the launch, and otherwise only passed by value to driver functions
//! (`cu...`); its kernels are the names of those calls. Any other launch
//! through the driver API is *unresolved*: it may launch any kernel of the
//! module, and the caller then takes no driver launch at all.

use crate::consteval::{eval, ConstEnv};
use crate::host_writes::HostValues;
use crate::items::Items;
use crate::launch::Launch;
use crate::launch_path::path_conditions;
use crate::syntax::{callee_name, named_children, strip_parens, Syntax};
use tree_sitter::Node;
use warpsafe_source::Span;

/// Launch functions of the driver API that take the function handle
/// first and the grid and block components next.
const LAUNCHES: &[&str] = &["cuLaunchKernel", "cuLaunchCooperativeKernel"];

/// Other ways the driver API launches (a configuration struct, the
/// pre-4.0 calls): never resolved.
const OTHER_LAUNCHES: &[&str] = &[
    "cuLaunchKernelEx",
    "cuLaunch",
    "cuLaunchGrid",
    "cuLaunchGridAsync",
    "cuLaunchCooperativeKernelMultiDevice",
    "cuGraphAddKernelNode",
];

/// The driver-API launches of one file.
#[derive(Default)]
pub(crate) struct DriverLaunches<'t> {
    /// One per kernel name a resolved launch may launch.
    pub(crate) launches: Vec<Launch<'t>>,
    /// Launches whose kernel is not known.
    pub(crate) unresolved: Vec<Span>,
}

/// The driver-API launches of the file's host functions.
pub(crate) fn driver_launches<'t>(syn: &'t Syntax, items: &Items<'t>) -> DriverLaunches<'t> {
    let mut out = DriverLaunches::default();
    for f in &items.fns {
        if crate::launch::device_only(f) {
            continue;
        }
        let Some(body) = f.def.child_by_field_name("body") else {
            continue;
        };
        let mut values = None;
        let mut stack = vec![body];
        while let Some(n) = stack.pop() {
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
            let Some(api) = callee_name(syn, n) else {
                continue;
            };
            if OTHER_LAUNCHES.contains(&api) {
                out.unresolved.push(syn.span(n));
                continue;
            }
            if !LAUNCHES.contains(&api) {
                continue;
            }
            let values = values.get_or_insert_with(|| HostValues::analyse(syn, items, f.def));
            match resolve(syn, items, values, f.def, n) {
                Some(mut launches) => out.launches.append(&mut launches),
                None => out.unresolved.push(syn.span(n)),
            }
        }
    }
    out.launches.sort_by_key(|l| l.span.lo);
    out
}

/// The launches `call` (a `cuLaunchKernel` in `def`) makes, one per kernel
/// its handle may hold; `None` when the handle is not resolved.
fn resolve<'t>(
    syn: &'t Syntax,
    items: &Items<'t>,
    values: &HostValues<'t>,
    def: Node<'t>,
    call: Node<'t>,
) -> Option<Vec<Launch<'t>>> {
    let args = named_children(call.child_by_field_name("arguments")?);
    if args.len() < 10 {
        return None;
    }
    let handle = strip_parens(args[0]);
    if handle.kind() != "identifier" {
        return None;
    }
    let selections = selections(syn, def, syn.text(handle))?;
    if selections
        .iter()
        .any(|(_, at)| at.start_byte() >= call.start_byte())
    {
        return None;
    }
    let components = [[args[1], args[2], args[3]], [args[4], args[5], args[6]]];
    let env = crate::launch::HostConsts::visible_at(syn, items, def, call.start_byte());
    let at = call.start_byte();
    let dims = |which: usize| -> Option<[u64; 3]> {
        let mut d = [0u64; 3];
        for (i, n) in components[which].iter().enumerate() {
            d[i] = component(syn, &env, values, *n, at)?;
        }
        Some(d)
    };
    let shared = eval(syn, args[7], &env).and_then(|v| u64::try_from(v).ok());
    let kernel_args = crate::launch_args::api_args(syn, def, call);
    Some(
        selections
            .into_iter()
            .map(|(kernel, at)| Launch {
                kernel,
                template_args: None,
                grid: dims(0),
                block: dims(1),
                shared,
                span: syn.span(call),
                call,
                host: def,
                args: kernel_args.clone(),
                config: Vec::new(),
                components: Some(components),
                selection: path_conditions(syn, at, def),
                arg_lists: None,
            })
            .collect(),
    )
}

/// The kernel names the handle `name` may hold in `def`, each with the
/// `cuModuleGetFunction` call that chose it; `None` unless every use of
/// the name is its one declaration, such a call, or a by-value argument
/// of a driver function.
fn selections<'t>(syn: &'t Syntax, def: Node<'t>, name: &str) -> Option<Vec<(String, Node<'t>)>> {
    let mut out = Vec::new();
    let mut declarations = 0;
    let mut stack = vec![def];
    while let Some(n) = stack.pop() {
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
        if n.kind() != "identifier" || syn.text(n) != name {
            continue;
        }
        let parent = n.parent()?;
        match parent.kind() {
            // `CUfunction f;`, `CUfunction f = NULL;` (not `static`: a
            // value kept from an earlier call was chosen there).
            "declaration" if !crate::decl::quals(syn, parent).static_ => {
                declarations += 1;
            }
            "init_declarator"
                if parent.child_by_field_name("declarator") == Some(n)
                    && !parent
                        .parent()
                        .is_some_and(|d| crate::decl::quals(syn, d).static_) =>
            {
                let value = parent.child_by_field_name("value")?;
                if !matches!(syn.text(value), "NULL" | "0" | "nullptr") {
                    return None;
                }
                declarations += 1;
            }
            "pointer_expression" if syn.text(parent).starts_with('&') => {
                let call = parent.parent()?.parent()?;
                let call_args = named_children(call.child_by_field_name("arguments")?);
                if callee_name(syn, call) != Some("cuModuleGetFunction")
                    || call_args.first().map(|a| a.id()) != Some(parent.id())
                {
                    return None;
                }
                let literal = call_args.get(2)?;
                out.push((string_literal(syn, *literal)?, call));
            }
            "argument_list" => {
                // Passed by value to a driver function (`cuFuncSetCacheConfig(f, ...)`,
                // the launch itself).
                let call = parent.parent()?;
                if !callee_name(syn, call).is_some_and(|c| c.starts_with("cu")) {
                    return None;
                }
            }
            _ => return None,
        }
    }
    (declarations == 1 && !out.is_empty()).then_some(out)
}

/// The text of a plain string literal (`"sequence_gpu"`).
fn string_literal(syn: &Syntax, n: Node) -> Option<String> {
    if n.kind() != "string_literal" {
        return None;
    }
    let text = syn.text(n);
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    (!inner.is_empty() && inner.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .then(|| inner.to_string())
}

/// A constant launch component: an integer, or `v.x` of a `dim3` local
/// that still holds a constant initialiser at the launch (`at`).
fn component(
    syn: &Syntax,
    env: &dyn ConstEnv,
    values: &HostValues,
    n: Node,
    at: usize,
) -> Option<u64> {
    if let Some(v) = eval(syn, n, env) {
        return u64::try_from(v).ok();
    }
    let (base, i) = crate::launch::dim3_component(syn, strip_parens(n))?;
    crate::launch::dim_value(syn, env, values, base, at).map(|d| d[i])
}

/// Whether `f` has C linkage (`extern "C"`, alone or around a block):
/// only such a kernel is found by its plain name in a module.
pub(crate) fn c_linkage(syn: &Syntax, f: &crate::items::FnItem) -> bool {
    let mut n = f.def.parent();
    while let Some(p) = n {
        if p.kind() == "linkage_specification" {
            return p
                .child_by_field_name("value")
                .is_some_and(|v| syn.text(v) == "\"C\"");
        }
        n = p.parent();
    }
    false
}
