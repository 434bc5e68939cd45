//! The CUDA front end: preprocess, parse with tree-sitter-cuda, collect
//! items, and lower each `__global__` function to the kernel IR.
//!
//! **Boundary: the front end never fails.** It returns the kernels it could
//! lower plus diagnostics; a kernel it cannot model completely is left out
//! with an error diagnostic that points at the construct, never lowered
//! with parts silently missing. No I/O: files come through a
//! [`SourceLoader`].

mod class_instance;
mod companion;
mod consteval;
mod decl;
mod host_writes;
mod items;
mod launch;
mod launch_args;
mod launch_driver;
mod launch_fields;
mod launch_path;
mod launch_relation;
mod launch_templates;
pub(crate) mod lower;
mod member_types;
mod syntax;
mod types;
mod unions;
mod wmma_types;

use decl::TemplateEnv;
use items::{FnItem, Items};
use warpsafe_ir::Module;
use warpsafe_source::{Diagnostic, FileId, SourceMap};

pub use warpsafe_preproc::{Options as PreprocOptions, SourceLoader};

/// Preprocessed text beyond this size is rejected before parsing (a 2,000
/// line kernel file is about 70 KB).
pub const MAX_PREPROCESSED_BYTES: usize = 4 << 20;

/// Syntax nested deeper than this is rejected: lowering recurses over the
/// syntax tree, and no hand-written kernel comes near it.
pub const MAX_NESTING: usize = 256;

/// The math functions the front end keeps as uninterpreted calls
/// (`Expr::Call`); every engine that evaluates concretely must know them.
pub fn math_functions() -> impl Iterator<Item = &'static str> {
    lower::MATH.iter().map(|(name, _)| *name)
}

/// What the user asked the front end for.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub preproc: PreprocOptions,
    /// Lower only these kernels (`--kernel NAME`, repeatable); empty: all.
    pub kernels: Vec<String>,
    /// Template arguments for template kernels (`--template-args`).
    pub template_args: Option<Vec<String>>,
    /// The program's other source files (`companion.rs`), read only when a
    /// launching function is one that only another file calls.
    pub companions: Vec<std::path::PathBuf>,
}

/// The front end's result.
#[derive(Debug, Default)]
pub struct Output {
    pub module: Module,
    pub diagnostics: Vec<Diagnostic>,
    /// The files read as the program's other files (`companion.rs`) and
    /// what they include: not included by the main file.
    pub companion_files: Vec<FileId>,
}

impl Output {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.is_error())
    }
}

/// Preprocesses, parses and lowers the file `main` of `sources`.
pub fn compile(
    main: FileId,
    sources: &mut SourceMap,
    opts: &Options,
    loader: &dyn SourceLoader,
) -> Output {
    let pre = warpsafe_preproc::preprocess_cuda(main, sources, &opts.preproc, loader);
    let mut diagnostics = pre.diagnostics;
    let main_span = warpsafe_source::Span::new(main, 0, 0);
    if pre.text.len() > MAX_PREPROCESSED_BYTES {
        let message = format!(
            "the preprocessed source is {} bytes; warpsafe reads at most {} (a runaway macro expansion?)",
            pre.text.len(),
            MAX_PREPROCESSED_BYTES
        );
        diagnostics.push(Diagnostic::error("too-large", message).at(main_span));
        return Output {
            module: Module::default(),
            diagnostics,
            companion_files: Vec::new(),
        };
    }
    let Some(syn) = syntax::Syntax::parse(pre.text, pre.map) else {
        diagnostics
            .push(Diagnostic::error("parser", "the CUDA parser gave up: the preprocessed text is too irregular to parse within its operation budget (it grows with the text's size; a runaway macro expansion of malformed code?)").at(main_span));
        return Output {
            module: Module::default(),
            diagnostics,
            companion_files: Vec::new(),
        };
    };
    if let Some(deep) = syntax::too_deep(&syn, MAX_NESTING) {
        let message = format!("code nested more than {MAX_NESTING} levels deep is not supported");
        diagnostics.push(Diagnostic::error("too-deep", message).at(deep));
        return Output {
            module: Module::default(),
            diagnostics,
            companion_files: Vec::new(),
        };
    }
    let items = Items::collect(&syn);
    diagnostics.extend(items.diagnostics.iter().cloned());
    let launches = launch::find_launches(&syn, &items);
    let from_device = launch::device_launches(&syn, &items);
    let kernels: Vec<&FnItem> = items
        .fns
        .iter()
        .filter(|f| f.is_kernel() && f.def.child_by_field_name("body").is_some())
        .filter(|f| {
            opts.kernels.is_empty() || opts.kernels.iter().any(|k| kernel_base(k) == f.name)
        })
        .collect();
    if kernels.is_empty() {
        let names: Vec<String> = items
            .fns
            .iter()
            .filter(|f| f.is_kernel())
            .map(|f| f.name.clone())
            .collect();
        let wanted = opts
            .kernels
            .iter()
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(" or ");
        let d = match opts.kernels.is_empty() {
            false if names.is_empty() => Diagnostic::error(
                "no-kernel",
                format!("no kernel named {wanted}: the file defines no `__global__` function"),
            ),
            false => Diagnostic::error("no-kernel", format!("no kernel named {wanted}"))
                .with_note(format!("kernels in this file: {}", names.join(", "))),
            true => Diagnostic::error(
                "no-kernel",
                "no kernel: the file defines no `__global__` function",
            ),
        };
        diagnostics.push(d.at(main_span));
        return Output {
            module: Module::default(),
            diagnostics,
            companion_files: Vec::new(),
        };
    }
    // The program's other files, when a launch is in a function that
    // only they call, or when a kernel the file never launches may be
    // launched by name through the driver API (`launch_driver.rs`).
    let before = sources.files().count();
    let by_name = kernels
        .iter()
        .any(|f| launch_driver::c_linkage(&syn, f) && !launches.iter().any(|l| l.kernel == f.name));
    // Kernels the file never launches that another file may (declared
    // there, defined here: `cdpQuicksort.h`'s `bitonicsort`).
    let unlaunched: Vec<String> = kernels
        .iter()
        .filter(|f| f.template.is_empty() && !f.quals.static_)
        .filter(|f| !launches.iter().any(|l| l.kernel == f.name))
        .filter(|f| !from_device.iter().any(|l| l.kernel == f.name))
        .map(|f| f.name.clone())
        .collect();
    let companion_syns: Vec<syntax::Syntax> = if by_name
        || !unlaunched.is_empty()
        || launches
            .iter()
            .any(|l| launch_relation::exported(&syn, &items, l.host))
    {
        companion::parse(&opts.companions, sources, &opts.preproc, loader)
    } else {
        Vec::new()
    };
    let companion_files: Vec<FileId> = sources.files().skip(before).map(|(id, _)| id).collect();
    let companion_items: Vec<Items> = companion_syns.iter().map(Items::collect).collect();
    let companions: Vec<launch_relation::Companion> =
        companion_syns.iter().zip(&companion_items).collect();
    let program = Program::scan((&syn, &items), companions, by_name, &unlaunched);
    let mut module = Module::default();
    for f in kernels {
        if f.broken {
            diagnostics.push(
                Diagnostic::note(
                    "not-lowered",
                    format!(
                        "kernel `{}` was not lowered because of the syntax errors above",
                        f.name
                    ),
                )
                .at(name_span(&syn, f)),
            );
            continue;
        }
        let instances = match instances(&syn, &items, f, opts, &launches) {
            Ok(i) => i,
            Err(d) => {
                diagnostics.push(d.with_note(format!("kernel `{}` was not lowered", f.name)));
                continue;
            }
        };
        // `--kernel k<16>` (as reports name instantiations) picks one;
        // names compare without their spaces.
        let squeeze = |s: &str| s.split_whitespace().collect::<String>();
        let wanted: Vec<String> = opts
            .kernels
            .iter()
            .filter(|k| kernel_base(k) == f.name && k.contains('<'))
            .map(|k| squeeze(k))
            .collect();
        let all_wanted = opts.kernels.iter().any(|k| k.as_str() == f.name);
        let several = instances.len() > 1;
        let shown_all: Vec<String> = instances
            .iter()
            .map(|t| instance_name(&f.name, t))
            .collect();
        let instances: Vec<Vec<String>> = instances
            .into_iter()
            .zip(&shown_all)
            .filter(|(_, shown)| {
                wanted.is_empty() || all_wanted || wanted.contains(&squeeze(shown))
            })
            .map(|(t, _)| t)
            .collect();
        if instances.is_empty() {
            diagnostics.push(
                Diagnostic::error(
                    "no-kernel",
                    format!(
                        "no instantiation {} of kernel `{}`",
                        wanted.join(" or "),
                        f.name
                    ),
                )
                .with_note(format!("instantiations: {}", shown_all.join(", ")))
                .at(name_span(&syn, f)),
            );
            continue;
        }
        for texts in instances {
            match lower_one(&syn, &items, f, &texts, &launches, &from_device, &program) {
                Ok((mut kernel, warnings)) => {
                    diagnostics.extend(warnings);
                    if several {
                        // One kernel per instantiation, named by its arguments.
                        kernel.name = instance_name(&f.name, &kernel.template_args);
                    }
                    module.kernels.push(kernel);
                }
                Err(d) => {
                    let shown = if several {
                        instance_name(&f.name, &texts)
                    } else {
                        f.name.clone()
                    };
                    diagnostics.push(d.with_note(format!("kernel `{shown}` was not lowered")))
                }
            }
        }
    }
    Output {
        module,
        diagnostics,
        companion_files,
    }
}

/// The span of a function's name (its whole definition if none is found).
fn name_span(syn: &syntax::Syntax, f: &FnItem) -> warpsafe_source::Span {
    let mut d = f.def.child_by_field_name("declarator");
    while let Some(node) = d {
        if node.kind() == "identifier" {
            return syn.span(node);
        }
        d = node.child_by_field_name("declarator");
    }
    syn.span(f.def)
}

fn lower_one<'t>(
    syn: &'t syntax::Syntax,
    items: &Items<'t>,
    f: &FnItem<'t>,
    texts: &[String],
    launches: &[launch::Launch<'t>],
    from_device: &[launch::DeviceLaunch],
    program: &Program<'t>,
) -> Result<(warpsafe_ir::Kernel, Vec<Diagnostic>), Diagnostic> {
    // A kernel launched from device code gets launches whose arguments the
    // host never sees: only dimensions every launch, host or device,
    // gives as the same constant are taken.
    let device: Vec<&launch::DeviceLaunch> = from_device
        .iter()
        .chain(&program.elsewhere_device)
        .filter(|l| l.kernel == f.name)
        .collect();
    // The launches of this instantiation (of every one, for a kernel that
    // is not a template).
    let by_name = launch_driver::c_linkage(syn, f);
    let mine: Vec<(launch_relation::Companion, &launch::Launch)> = launches
        .iter()
        .filter(|l| l.kernel == f.name)
        .filter(|l| {
            f.template.is_empty()
                || l.arg_lists
                    .as_ref()
                    .is_none_or(|lists| lists.iter().any(|a| a == texts))
        })
        .map(|l| ((syn, items), l))
        .chain(
            program
                .driver
                .iter()
                .filter(|(_, l)| by_name && l.kernel == f.name)
                .map(|(c, l)| (*c, l)),
        )
        .chain(
            program
                .elsewhere
                .iter()
                .filter(|(_, l)| l.kernel == f.name)
                .map(|(c, l)| (*c, l)),
        )
        .collect();
    let (tenv, targs) = template_env(syn, items, f, texts)?;
    let lowerer = lower::Lowerer::new(syn, items, f, tenv, targs);
    let (mut kernel, mut warnings) = lowerer.lower_kernel(f)?;
    // Default dimensions from constant launches in host code: the block
    // and the grid each when every launch gives the same constant one.
    let agreed = |dims: Vec<Option<[u64; 3]>>| match dims.first() {
        Some(Some(first)) if dims.iter().all(|d| d.as_ref() == Some(first)) => Some(*first),
        _ => None,
    };
    if let Some((_, first)) = mine.first() {
        let dims = |host: fn(&launch::Launch) -> Option<[u64; 3]>,
                    dev: fn(&launch::DeviceLaunch) -> Option<[u64; 3]>| {
            let all = mine.iter().map(|(_, l)| host(l));
            agreed(all.chain(device.iter().map(|l| dev(l))).collect())
        };
        let block = dims(|l| l.block, |l| l.block);
        let grid = dims(|l| l.grid, |l| l.grid);
        if block.is_none() && grid.is_none() {
            warnings.push(
                Diagnostic::note("launch", "the kernel is launched with several or non-constant configurations; no default dimensions taken")
                    .at(first.span),
            );
        }
        let launch = &mut kernel.launch;
        launch.span = Some(first.span);
        launch.dynamic_shared = first
            .shared
            .filter(|_| mine.iter().all(|(_, l)| l.shared == first.shared))
            .filter(|_| device.iter().all(|l| l.shared == first.shared));
        if let Some(b) = block {
            launch.block = Some(b);
            launch
                .notes
                .push(("blockDim from the launch".into(), Some(first.span)));
        }
        if let Some(g) = grid {
            launch.grid = Some(g);
            launch
                .notes
                .push(("gridDim from the launch".into(), Some(first.span)));
        }
    }
    if mine.is_empty() && !device.is_empty() && (!by_name || program.unresolved.is_empty()) {
        // Launched only from device code (and not by name through a
        // driver-API handle warpsafe does not follow): dimensions every
        // such launch gives as the same constant.
        let launch = &mut kernel.launch;
        for (given, dims, what) in [
            (
                &mut launch.block,
                agreed(device.iter().map(|l| l.block).collect()),
                "blockDim",
            ),
            (
                &mut launch.grid,
                agreed(device.iter().map(|l| l.grid).collect()),
                "gridDim",
            ),
        ] {
            if let (None, Some(d)) = (&given, dims) {
                *given = Some(d);
                launch
                    .notes
                    .push((format!("{what} from the launches in device code"), None));
            }
        }
    }
    if let Some((_, first)) = mine.first().filter(|_| device.is_empty()) {
        let rel = launch_relation::relations(&kernel, &mine, &program.companions);
        apply_relations(&mut kernel, rel, first.span, mine.len());
    }
    if let (true, true, Some(at)) = (by_name, mine.is_empty(), program.unresolved.first()) {
        kernel.launch.notes.push((
            "the program launches kernels through the driver API with a function handle warpsafe does not follow; no launch taken".into(),
            Some(*at),
        ));
    }
    if !device.is_empty() {
        kernel.launch.notes.push((
            "the kernel is also launched from device code, whose arguments are not known".into(),
            None,
        ));
    }
    infer_unused_dims(&mut kernel);
    Ok((kernel, warnings))
}

/// The program's other files (`companion.rs`) and the driver-API launches
/// of the file and of those files (`launch_driver.rs`), each with the file
/// it is in. When one of them is unresolved (it may launch any kernel),
/// none is taken.
struct Program<'t> {
    companions: Vec<launch_relation::Companion<'t, 't>>,
    driver: Vec<(launch_relation::Companion<'t, 't>, launch::Launch<'t>)>,
    unresolved: Vec<warpsafe_source::Span>,
    /// Launches in the other files of kernels this file defines and never
    /// launches (`unlaunched`), from their host and their device code.
    elsewhere: Vec<(launch_relation::Companion<'t, 't>, launch::Launch<'t>)>,
    elsewhere_device: Vec<launch::DeviceLaunch>,
}

impl<'t> Program<'t> {
    /// The driver-API launches are looked for only when `by_name`. A file
    /// that defines a kernel of `unlaunched` itself is another program's
    /// and gives it no launch; one that only declares it `__global__`
    /// gives its launches.
    fn scan(
        own: launch_relation::Companion<'t, 't>,
        companions: Vec<launch_relation::Companion<'t, 't>>,
        by_name: bool,
        unlaunched: &[String],
    ) -> Self {
        let mut out = Program {
            companions,
            driver: Vec::new(),
            unresolved: Vec::new(),
            elsewhere: Vec::new(),
            elsewhere_device: Vec::new(),
        };
        for file in out.companions.clone() {
            let (syn, items) = file;
            let declared = |name: &str| {
                unlaunched.iter().any(|k| k == name)
                    && !items.fns.iter().any(|g| g.name == name)
                    && items
                        .prototypes
                        .iter()
                        .any(|(p, d)| p == name && decl::quals(syn, *d).global)
            };
            for l in launch::find_launches_of(syn, items, &declared) {
                if declared(&l.kernel) {
                    out.elsewhere.push((file, l));
                }
            }
            out.elsewhere_device.extend(
                launch::device_launches(syn, items)
                    .into_iter()
                    .filter(|l| declared(&l.kernel)),
            );
        }
        if !by_name {
            return out;
        }
        for file in std::iter::once(own).chain(out.companions.iter().copied()) {
            let found = launch_driver::driver_launches(file.0, file.1);
            out.unresolved.extend(found.unresolved);
            out.driver
                .extend(found.launches.into_iter().map(|l| (file, l)));
        }
        if !out.unresolved.is_empty() {
            out.driver.clear();
        }
        out
    }
}

/// How reports name one instantiation of kernel `name`: `k<32, true>`.
fn instance_name(name: &str, args: &[String]) -> String {
    format!("{name}<{}>", args.join(", "))
}

/// The kernel a `--kernel` value names: `k` for `k<16>`.
fn kernel_base(wanted: &str) -> &str {
    wanted.split('<').next().unwrap_or(wanted).trim()
}

/// Constant components every launch gives become known parts of the
/// block or grid; the rest of what the launches say about dimensions and
/// parameters becomes the launch's relation, with a note.
fn apply_relations(
    kernel: &mut warpsafe_ir::Kernel,
    rel: launch_relation::Relations,
    span: warpsafe_source::Span,
    launches: usize,
) {
    let launch = &mut kernel.launch;
    let mut from_launch = Vec::new();
    for (given, parts, known, what) in [
        (
            launch.grid.is_some(),
            &mut launch.grid_parts,
            rel.grid_parts,
            "gridDim",
        ),
        (
            launch.block.is_some(),
            &mut launch.block_parts,
            rel.block_parts,
            "blockDim",
        ),
    ] {
        if given {
            continue;
        }
        let dims: Vec<&str> = (0..3)
            .filter(|d| known[*d].is_some())
            .map(|d| ["x", "y", "z"][d])
            .collect();
        if dims.is_empty() {
            continue;
        }
        for d in 0..3 {
            parts[d] = parts[d].or(known[d]);
        }
        from_launch.push(if dims.len() == 3 {
            what.to_string()
        } else {
            format!("{what}.{}", dims.join("/"))
        });
    }
    if !from_launch.is_empty() {
        launch.notes.push((
            format!("{} from the launch", from_launch.join(" and ")),
            Some(span),
        ));
    }
    for (text, call) in &rel.callers {
        launch.notes.push((format!("assuming {text}"), Some(*call)));
    }
    if let Some(cond) = rel.cond {
        // The host values the relation names are variables of the kernel.
        kernel.vars.extend(rel.hosts);
        let text = warpsafe_ir::print_expr(kernel, &cond);
        let launch = &mut kernel.launch;
        let whence = if launches > 1 {
            "the launches"
        } else {
            "the launch"
        };
        launch.notes.push((
            format!("{} {text} from {whence}", warpsafe_ir::RELATION_NOTE),
            Some(span),
        ));
        launch.relation = Some(cond);
    }
}

/// Dimensions a kernel never reads are 1: a kernel that reads neither
/// `threadIdx.y/z` nor `blockDim.y/z` is written for 1-D blocks, one that
/// never reads `threadIdx.z`/`blockDim.z` for 2-D blocks (likewise the grid
/// with `blockIdx`/`gridDim`). An assumption about how the kernel is
/// launched, stated in reports and dropped by `--all-dims`.
fn infer_unused_dims(kernel: &mut warpsafe_ir::Kernel) {
    use warpsafe_ir::{Builtin as B, Dim};
    // The highest dimension (0: x only) the kernel reads of the block
    // (`threadIdx`, `blockDim`) or of the grid (`blockIdx`, `gridDim`).
    // A dimension the launch relation constrains is not assumed 1 either:
    // the launch says what it is.
    let top = |block: bool| {
        let reads = |want: Dim| {
            let pred = |b: B| match b {
                B::ThreadIdx(d) | B::BlockDim(d) => block && d == want,
                B::BlockIdx(d) | B::GridDim(d) => !block && d == want,
                _ => false,
            };
            let mut related = false;
            if let Some(r) = &kernel.launch.relation {
                r.walk(&mut |e| {
                    if let warpsafe_ir::Expr::Builtin(b) = e {
                        related |= pred(*b);
                    }
                });
            }
            related || kernel.reads_builtin(&pred)
        };
        if reads(Dim::Z) {
            2
        } else if reads(Dim::Y) {
            1
        } else {
            0
        }
    };
    let (block_top, grid_top) = (top(true), top(false));
    let launch = &mut kernel.launch;
    let mut notes = Vec::new();
    for (top, given, parts, what, ids) in [
        (
            block_top,
            launch.block.is_some(),
            &mut launch.block_parts,
            "blockDim",
            "threadIdx",
        ),
        (
            grid_top,
            launch.grid.is_some(),
            &mut launch.grid_parts,
            "gridDim",
            "blockIdx",
        ),
    ] {
        if top == 2 || given || parts[top + 1..].iter().all(|p| p.is_some()) {
            continue;
        }
        for part in &mut parts[top + 1..] {
            // A part the launch gives stays.
            *part = part.or(Some(1));
        }
        let which = if top == 0 { "y/z" } else { "z" };
        notes.push(format!(
            "{what}.{which} {}: the kernel never reads {ids}.{which} or {what}.{which}",
            warpsafe_ir::INFERRED
        ));
    }
    launch.notes.extend(notes.into_iter().map(|n| (n, None)));
}

/// The template argument lists a kernel is checked with: `--template-args`,
/// else every distinct instantiation in the file (launches `k<32><<<..>>>`
/// and explicit instantiations `template __global__ void k<32>(...)`), else
/// none (defaults must cover every parameter). One empty list for a kernel
/// that is not a template.
fn instances<'t>(
    syn: &'t syntax::Syntax,
    items: &Items<'t>,
    f: &FnItem<'t>,
    opts: &Options,
    launches: &[launch::Launch<'t>],
) -> Result<Vec<Vec<String>>, Diagnostic> {
    if f.template.is_empty() {
        return Ok(vec![Vec::new()]);
    }
    if let Some(args) = &opts.template_args {
        return Ok(vec![args.clone()]);
    }
    let mut distinct: Vec<Vec<String>> = launches
        .iter()
        .filter(|l| l.kernel == f.name)
        .filter_map(|l| l.arg_lists.clone())
        .flatten()
        .chain(
            items
                .instantiations
                .iter()
                .filter(|(name, _)| *name == f.name)
                .map(|(_, a)| template_arg_texts(syn, *a)),
        )
        .collect();
    distinct.sort();
    distinct.dedup();
    if distinct.is_empty() {
        distinct.push(Vec::new());
    }
    Ok(distinct)
}

/// The arguments of a template argument list, as written.
pub(crate) fn template_arg_texts(syn: &syntax::Syntax, list: tree_sitter::Node) -> Vec<String> {
    split_template_args(
        syn.text(list)
            .trim()
            .trim_start_matches('<')
            .trim_end_matches('>'),
    )
}

/// The template environment of one instantiation of `f`.
fn template_env<'t>(
    syn: &'t syntax::Syntax,
    items: &Items<'t>,
    f: &FnItem<'t>,
    texts: &[String],
) -> Result<(TemplateEnv, Vec<String>), Diagnostic> {
    let mut env = TemplateEnv::default();
    if f.template.is_empty() {
        return Ok((env, Vec::new()));
    }
    let span = syn.span(f.def);
    for (i, p) in f.template.iter().enumerate() {
        let text = texts.get(i).map(|s| s.trim().to_string());
        let text = match (text, p.default) {
            (Some(t), _) => t,
            (None, Some(d)) => syn.text(d).to_string(),
            (None, None) => {
                return Err(Diagnostic::error(
                    "template",
                    format!("template kernel `{}` needs a value for `{}`: pass --template-args or launch it in the file", f.name, p.name),
                )
                .at(span))
            }
        };
        if p.is_type {
            let ty = parse_type_arg(items, &text).ok_or_else(|| {
                Diagnostic::error(
                    "template",
                    format!(
                        "template argument `{text}` for `{}` is not a known type",
                        p.name
                    ),
                )
                .at(span)
            })?;
            env.types.insert(p.name.clone(), ty);
        } else {
            let v = consteval::int_literal(&text)
                .or(match text.as_str() {
                    "true" => Some(1),
                    "false" => Some(0),
                    _ => consteval::eval_text(&text, &items.consts),
                })
                .ok_or_else(|| {
                    Diagnostic::error(
                        "template",
                        format!(
                            "template argument `{text}` for `{}` is not an integer constant",
                            p.name
                        ),
                    )
                    .at(span)
                })?;
            env.values.insert(p.name.clone(), v);
        }
    }
    let shown = f.template.iter().map(|p| {
        env.types
            .get(&p.name)
            .map(|t| t.describe())
            .or_else(|| env.values.get(&p.name).map(|v| v.to_string()))
            .unwrap_or_default()
    });
    Ok((env.clone(), shown.collect()))
}

fn split_template_args(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur).trim().to_string());
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

fn parse_type_arg(items: &Items, text: &str) -> Option<types::CType> {
    let t = text.trim();
    if let Some(inner) = t.strip_suffix('*') {
        return parse_type_arg(items, inner).map(|i| types::CType::Pointer(Box::new(i)));
    }
    if let Some(s) = types::named_scalar(t) {
        return Some(types::CType::Scalar(s));
    }
    let words: Vec<&str> = t.split_whitespace().collect();
    if words.len() > 1
        && words.iter().all(|w| {
            matches!(
                *w,
                "unsigned" | "signed" | "long" | "short" | "int" | "char"
            )
        })
    {
        return types::sized_scalar(&words).map(types::CType::Scalar);
    }
    if let Some(v) = types::vector_type(t) {
        return Some(v);
    }
    if let Some(ty) = items.types.typedefs.get(t) {
        return Some(ty.clone());
    }
    if items.types.is_struct(t) {
        return Some(types::CType::Struct(t.to_string()));
    }
    None
}
