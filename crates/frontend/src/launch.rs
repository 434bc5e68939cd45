//! Kernel launches in host code (`k<<<grid, block, shmem>>>(...)`): their
//! constant launch configurations become the kernel's default dimensions.
//!
//! Invariant: a configuration is taken only when every component is a
//! compile-time constant after macro expansion (literals, `dim3(...)`, or a
//! `dim3` variable of the same host function with constant arguments).

use crate::consteval::{eval, ConstEnv};
use crate::host_writes::HostValues;
use crate::items::Items;
use crate::syntax::{callee_name, named_children, Syntax};
use tree_sitter::Node;
use warpsafe_source::Span;

#[derive(Clone, Debug)]
pub struct Launch<'t> {
    pub kernel: String,
    pub template_args: Option<Node<'t>>,
    /// `None` when the configuration is not constant.
    pub grid: Option<[u64; 3]>,
    pub block: Option<[u64; 3]>,
    pub shared: Option<u64>,
    pub span: Span,
    /// The `call_expression` (its `kernel_call_syntax` holds the
    /// configuration, its `arguments` the kernel's arguments).
    pub call: Node<'t>,
    /// The host function's `function_definition` the launch is in.
    pub host: Node<'t>,
    /// The kernel's arguments as host expressions: the call's
    /// (`k<<<g, b>>>(a, n)`), or what the argument array of a launch
    /// through an API points to (`launch_args.rs`); `None` when they are
    /// not known.
    pub args: Option<Vec<Node<'t>>>,
    /// The grid, the block and (when given) the shared memory size, as
    /// written in the launch (`dim3` values).
    pub config: Vec<Node<'t>>,
    /// The grid's and the block's components, for a launch through the
    /// driver API, which passes them one by one (`launch_driver.rs`).
    pub components: Option<[[Node<'t>; 3]; 2]>,
    /// Conditions that held where the launched function was chosen
    /// (`if (bs == 16) cuModuleGetFunction(&f, m, "k16")`), read as the
    /// launch's own path conditions are.
    pub selection: Vec<crate::launch_path::PathCond<'t>>,
    /// The template argument lists the launch gives its kernel (see
    /// [`crate::launch_templates`]), once computed; `None` for a launch
    /// that writes none.
    pub arg_lists: Option<Vec<Vec<String>>>,
}

/// Whether `f` runs only on the device (a kernel or a `__device__`
/// function without `__host__`): its launches are not host launches.
pub(crate) fn device_only(f: &crate::items::FnItem) -> bool {
    f.is_kernel() || (f.quals.device && !f.quals.host)
}

/// A launch from device code (dynamic parallelism): only its constant
/// dimensions are known; its arguments are device values.
#[derive(Clone, Debug)]
pub struct DeviceLaunch {
    pub kernel: String,
    pub grid: Option<[u64; 3]>,
    pub block: Option<[u64; 3]>,
    pub shared: Option<u64>,
}

/// The launches in device code. A kernel launched there gets launches
/// whose arguments the host never sees, so its host launches' arguments
/// are not all it gets.
pub fn device_launches(syn: &Syntax, items: &Items) -> Vec<DeviceLaunch> {
    let mut out = Vec::new();
    // A `__host__ __device__` function's launches may run on the device.
    for f in items.fns.iter().filter(|f| f.is_device()) {
        let Some(body) = f.def.child_by_field_name("body") else {
            continue;
        };
        let mut stack = vec![body];
        while let Some(n) = stack.pop() {
            let config = named_children(n)
                .into_iter()
                .find(|c| c.kind() == "kernel_call_syntax");
            if let (Some(config), Some(k)) = (config, n.child_by_field_name("function")) {
                let k = match k.kind() {
                    "template_function" => k.child_by_field_name("name").unwrap_or(k),
                    _ => k,
                };
                let config = named_children(config);
                let dims = |i: usize| const_dims(syn, items, *config.get(i)?);
                out.push(DeviceLaunch {
                    kernel: syn.text(k).rsplit("::").next().unwrap_or("").to_string(),
                    grid: dims(0),
                    block: dims(1),
                    shared: config
                        .get(2)
                        .and_then(|a| eval(syn, *a, items))
                        .and_then(|v| u64::try_from(v).ok()),
                });
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
    }
    out
}

pub fn find_launches<'t>(syn: &'t Syntax, items: &Items<'t>) -> Vec<Launch<'t>> {
    find_launches_of(syn, items, &|_| false)
}

/// The launches of the file's host code, also of the kernels `declared`
/// names (a file that declares a kernel another file defines).
pub(crate) fn find_launches_of<'t>(
    syn: &'t Syntax,
    items: &Items<'t>,
    declared: &dyn Fn(&str) -> bool,
) -> Vec<Launch<'t>> {
    let mut out = Vec::new();
    let is_kernel =
        |name: &str| declared(name) || items.fns.iter().any(|g| g.is_kernel() && g.name == name);
    for f in &items.fns {
        if device_only(f) {
            continue;
        }
        let Some(body) = f.def.child_by_field_name("body") else {
            continue;
        };
        let values = HostValues::analyse(syn, items, f.def);
        let mut stack = vec![body];
        while let Some(n) = stack.pop() {
            if n.kind() == "call_expression" && is_launch(syn, n) {
                let env = HostConsts::visible_at(syn, items, f.def, n.start_byte());
                if let Some(l) = launch_of(syn, &env, &values, n, f.def) {
                    if is_kernel(&l.kernel) {
                        out.push(l);
                    } else if let Some(targets) = pointer_targets(syn, body, &l.kernel, &is_kernel)
                    {
                        // `kernel<<<grid, block>>>(...)` through a function
                        // pointer: a launch of each kernel it may hold.
                        for kernel in targets {
                            out.push(Launch {
                                kernel,
                                ..l.clone()
                            });
                        }
                    }
                }
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
    }
    out.sort_by_key(|l| l.span.lo);
    let lists: Vec<_> = out
        .iter()
        .map(|l| crate::launch_templates::launch_arg_lists(syn, items, l))
        .collect();
    for (l, a) in out.iter_mut().zip(lists) {
        l.arg_lists = a;
    }
    out
}

/// The kernels the function pointer `name`, a local of the host function
/// `body`, may hold: the kernel every assignment to it names (`kernel =
/// &copy;`, `kernel = copy;`, its initialiser). `None` when one assigns
/// anything else, its address is taken, or nothing is assigned.
fn pointer_targets(
    syn: &Syntax,
    body: Node,
    name: &str,
    is_kernel: &dyn Fn(&str) -> bool,
) -> Option<Vec<String>> {
    let target = |n: Node| -> Option<String> {
        let mut n = n;
        loop {
            match n.kind() {
                "pointer_expression" | "parenthesized_expression" => {
                    n = n
                        .child_by_field_name("argument")
                        .or_else(|| named_children(n).into_iter().next())?;
                }
                "identifier" | "qualified_identifier" => {
                    let k = syn.text(n).rsplit("::").next()?.to_string();
                    return is_kernel(&k).then_some(k);
                }
                _ => return None,
            }
        }
    };
    // `void (*kernel)(float *) = &copy;`
    let declares = |d: Node| {
        crate::items::declarator_core(d)
            .is_some_and(|n| n.kind() == "identifier" && syn.text(n) == name)
    };
    let mut targets = Vec::new();
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "assignment_expression"
                if n.child_by_field_name("left").map(|l| syn.text(l)) == Some(name) =>
            {
                targets.push(target(n.child_by_field_name("right")?)?);
            }
            "init_declarator" if n.child_by_field_name("declarator").is_some_and(declares) => {
                targets.push(target(n.child_by_field_name("value")?)?);
            }
            "pointer_expression"
                if syn.text(n).starts_with('&')
                    && n.child_by_field_name("argument").map(|a| syn.text(a)) == Some(name) =>
            {
                return None;
            }
            _ => {}
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    targets.sort();
    targets.dedup();
    (!targets.is_empty()).then_some(targets)
}

/// Whether `call` is written as a launch: `k<<<...>>>(...)`, or a call of
/// a launch API function (which [`launch_of`] reads further).
fn is_launch(syn: &Syntax, call: Node) -> bool {
    named_children(call)
        .iter()
        .any(|c| c.kind() == "kernel_call_syntax")
        || callee_name(syn, call).is_some_and(|f| API_LAUNCHES.contains(&f))
}

/// The runtime API's launch functions, which take the kernel first and
/// its arguments behind `void **` (see [`api_launch`]).
const API_LAUNCHES: &[&str] = &["cudaLaunchCooperativeKernel", "cudaLaunchKernel"];

fn launch_of<'t>(
    syn: &'t Syntax,
    items: &dyn ConstEnv,
    values: &HostValues<'t>,
    call: Node<'t>,
    host: Node<'t>,
) -> Option<Launch<'t>> {
    // The kernel, and the grid, the block and the shared memory size.
    let (kernel, config, args) = match named_children(call)
        .into_iter()
        .find(|c| c.kind() == "kernel_call_syntax")
    {
        Some(c) => (
            call.child_by_field_name("function")?,
            named_children(c),
            Some(named_children(call.child_by_field_name("arguments")?)),
        ),
        None => {
            let (kernel, config) = api_launch(syn, call)?;
            (
                kernel,
                config,
                crate::launch_args::api_args(syn, host, call),
            )
        }
    };
    let (name, targs) = match kernel.kind() {
        "template_function" => (
            syn.text(kernel.child_by_field_name("name")?).to_string(),
            kernel.child_by_field_name("arguments"),
        ),
        _ => (syn.text(kernel).rsplit("::").next()?.to_string(), None),
    };
    let at = call.start_byte();
    let dims = |i: usize| {
        let a = *config.get(i)?;
        dim_value(syn, items, values, a, at).or_else(|| match a.kind() {
            // `dim3 b; b.x = 128; ... k<<<g, b>>>`.
            "identifier" => crate::launch_fields::assigned_dims(syn, items, a, syn.text(a), host),
            _ => None,
        })
    };
    let shared = config
        .get(2)
        .and_then(|a| eval(syn, *a, items))
        .and_then(|v| u64::try_from(v).ok());
    Some(Launch {
        kernel: name,
        template_args: targs,
        grid: dims(0),
        block: dims(1),
        shared,
        span: syn.span(call),
        call,
        host,
        args,
        config,
        components: None,
        selection: Vec::new(),
        arg_lists: None,
    })
}

/// `cudaLaunchCooperativeKernel((void *)k, grid, block, args, smem, stream)`
/// and `cudaLaunchKernel(...)` (same arguments): the kernel's name node and
/// the grid, block and shared memory size arguments. The kernel's own
/// arguments (behind `void **`) are read by `launch_args.rs`.
fn api_launch<'t>(syn: &Syntax, call: Node<'t>) -> Option<(Node<'t>, Vec<Node<'t>>)> {
    if !API_LAUNCHES.contains(&callee_name(syn, call)?) {
        return None;
    }
    let args = named_children(call.child_by_field_name("arguments")?);
    // `(void *)k`, `(void *)&k`, `k`, `reinterpret_cast<void *>(k)`.
    let mut target = *args.first()?;
    loop {
        target = match target.kind() {
            "cast_expression" => target.child_by_field_name("value")?,
            "pointer_expression" | "parenthesized_expression" => target
                .child_by_field_name("argument")
                .or_else(|| named_children(target).into_iter().last())?,
            // Only a cast: the first argument of any other call is not
            // the kernel it returns.
            "call_expression"
                if target.child_by_field_name("function").is_some_and(|f| {
                    let t = syn.text(f);
                    t.starts_with("reinterpret_cast") || t.starts_with("static_cast")
                }) =>
            {
                named_children(target.child_by_field_name("arguments")?)
                    .into_iter()
                    .next()?
            }
            _ => break,
        };
    }
    if !matches!(
        target.kind(),
        "template_function" | "identifier" | "qualified_identifier"
    ) {
        return None;
    }
    let config = [1, 2, 4]
        .iter()
        .filter_map(|i| args.get(*i).copied())
        .collect();
    Some((target, config))
}

/// A launch dimension: an integer, `dim3(a, b, c)`, or a local whose
/// initialiser is one and that nothing writes before the launch (`at`).
pub(crate) fn dim_value(
    syn: &Syntax,
    items: &dyn ConstEnv,
    values: &HostValues,
    n: Node,
    at: usize,
) -> Option<[u64; 3]> {
    if let Some(d) = const_dims(syn, items, n) {
        return Some(d);
    }
    match n.kind() {
        "identifier" => {
            let name = syn.text(n);
            // `int blocks = 0; cudaOccupancyMaxPotentialBlockSize(&blocks,
            // ...)` writes it: only an initialiser still held counts.
            let init = values.init_at(name, at)?;
            match dim3_ctor_args(init) {
                Some(args) => dims_from_args(syn, items, args),
                None => dim_value(syn, items, values, init, at),
            }
        }
        "parenthesized_expression" => {
            dim_value(syn, items, values, *named_children(n).first()?, at)
        }
        _ => None,
    }
}

/// A dimension written as a constant: `128`, `N / 32`, `dim3(16, 16)`.
fn const_dims(syn: &Syntax, items: &dyn ConstEnv, n: Node) -> Option<[u64; 3]> {
    if let Some(v) = eval(syn, n, items) {
        return Some([u64::try_from(v).ok()?, 1, 1]);
    }
    match n.kind() {
        "call_expression" => {
            let f = n.child_by_field_name("function")?;
            if syn.text(f) != "dim3" {
                return None;
            }
            dims_from_args(
                syn,
                items,
                named_children(n.child_by_field_name("arguments")?),
            )
        }
        "parenthesized_expression" => const_dims(syn, items, *named_children(n).first()?),
        _ => None,
    }
}

fn dims_from_args(syn: &Syntax, items: &dyn ConstEnv, args: Vec<Node>) -> Option<[u64; 3]> {
    if args.len() > 3 {
        return None;
    }
    let mut d = [1u64; 3];
    for (i, a) in args.iter().enumerate() {
        d[i] = u64::try_from(eval(syn, *a, items)?).ok()?;
    }
    Some(d)
}

/// The constructor arguments of a `dim3` declaration's initialiser:
/// `dim3 b(x, y)`, `dim3 b{x, y}`, `dim3 b = {x, y}`, and the "most vexing
/// parse" of `dim3 b(x, y)` with identifiers only, which tree-sitter reads
/// as a function declaration whose parameters are types named `x` and `y`
/// (the parameter list, see [`vexing_dim3`]); `None` for any other
/// initialiser.
pub(crate) fn dim3_ctor_args(init: Node) -> Option<Vec<Node>> {
    match init.kind() {
        "argument_list" | "initializer_list" => Some(named_children(init)),
        "parameter_list" => named_children(init)
            .into_iter()
            .map(|p| {
                let ty = p.child_by_field_name("type")?;
                (p.kind() == "parameter_declaration"
                    && p.child_by_field_name("declarator").is_none()
                    && named_children(p).len() == 1
                    && ty.kind() == "type_identifier")
                    .then_some(ty)
            })
            .collect(),
        _ => None,
    }
}

/// `dim3 b(x, y);` with identifiers only is parsed as the declaration of a
/// function `b` taking parameters of types `x` and `y`. A `dim3` "function"
/// declared inside a function body whose parameters are bare type names is
/// that variable: its name and its constructor arguments (the parameter
/// list, read by [`dim3_ctor_args`]).
pub(crate) fn vexing_dim3<'t>(declarator: Node<'t>) -> Option<(Node<'t>, Node<'t>)> {
    if declarator.kind() != "function_declarator" {
        return None;
    }
    let name = declarator
        .child_by_field_name("declarator")
        .filter(|d| d.kind() == "identifier")?;
    let params = declarator.child_by_field_name("parameters")?;
    dim3_ctor_args(params)?;
    Some((name, params))
}

/// File-scope constants, then the host function's own `const` locals.
pub(crate) struct HostConsts<'a, 't> {
    pub(crate) items: &'a Items<'t>,
    pub(crate) locals: std::collections::HashMap<String, i128>,
}

impl<'a, 't> HostConsts<'a, 't> {
    /// The file's constants and those of the host function `def` visible
    /// at `at` ([`host_consts`]).
    pub(crate) fn visible_at(syn: &Syntax, items: &'a Items<'t>, def: Node, at: usize) -> Self {
        HostConsts {
            items,
            locals: def
                .child_by_field_name("body")
                .map(|b| host_consts(syn, items, b, at))
                .unwrap_or_default(),
        }
    }
}

/// `dims.x` (`.y`, `.z`) of a `dim3` named by an identifier, written
/// without spaces as [`crate::host_writes::HostFn::scalar`] names it: the
/// identifier and the component's index.
pub(crate) fn dim3_component<'t>(syn: &Syntax, n: Node<'t>) -> Option<(Node<'t>, usize)> {
    if n.kind() != "field_expression" {
        return None;
    }
    let base = n.child_by_field_name("argument")?;
    let field = syn.text(n.child_by_field_name("field")?);
    let i = ["x", "y", "z"].iter().position(|c| *c == field)?;
    (base.kind() == "identifier" && syn.text(n) == format!("{}.{field}", syn.text(base)))
        .then_some((base, i))
}

impl ConstEnv for HostConsts<'_, '_> {
    fn constant(&self, name: &str) -> Option<i128> {
        self.locals
            .get(name)
            .copied()
            .or_else(|| self.items.consts.get(name).copied())
    }
}

/// `const int n = 1 << 20;` in a host function, in order of appearance:
/// those declared before `at` in a block that encloses it, so that `const
/// unsigned BM = 128;` and `const unsigned BM = 64;` in the two branches of
/// an `if` are each read in their own branch (an inner declaration comes
/// after the outer one it hides, and overrides it).
pub(crate) fn host_consts(
    syn: &Syntax,
    items: &Items,
    body: Node,
    at: usize,
) -> std::collections::HashMap<String, i128> {
    let mut out = std::collections::HashMap::new();
    let mut decls = Vec::new();
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        let visible = n.start_byte() < at
            && n.parent()
                .is_some_and(|p| p.start_byte() <= at && at < p.end_byte());
        if n.kind() == "declaration" && visible && crate::decl::quals(syn, n).const_ {
            decls.push(n);
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    decls.sort_by_key(|d| d.start_byte());
    for d in decls {
        for init in d.children_by_field_name("declarator", &mut d.walk()) {
            let (Some(name), Some(value)) = (
                init.child_by_field_name("declarator"),
                init.child_by_field_name("value"),
            ) else {
                continue;
            };
            let env = HostConsts {
                items,
                locals: out.clone(),
            };
            if let Some(v) = eval(syn, value, &env) {
                out.insert(syn.text(name).to_string(), v);
            }
        }
    }
    out
}
