//! The text form of a kernel after barrier aligning and splitting (seed
//! 002 §4.1 Fig. 3 and §4.2 Fig. 4): the phases (the paper's symbolic
//! traces, the barrier intervals) that the race check queries, one per
//! block, what `warpsafe check --dump aligned` shows. For people and
//! snapshot tests, not for parsing back.
//!
//! Each phase lists its access instances: the access in the notation of
//! `--dump protocol`, the guards of its enclosing conditionals, its
//! enclosing unsynchronized loops (`for i in lo..hi:`, one value per
//! thread), and, for each enclosing synchronized loop, the iteration it
//! belongs to (`x: first`, `x: cur`, `x: prev`, `x: last`; see
//! `align::Role`). Within one phase, instances with the same roles of the
//! same loops share that loop variable's value between the two threads of
//! a same-block query.
//!
//! The race check hands its own aligning's result here
//! ([`crate::check_protocol_dumping_aligned`]), so the phases printed are
//! the ones it queried, and nothing is aligned a second time. When
//! aligning stops (an unsupported construct, barrier divergence, a solver
//! failure) the reason is printed instead.
//!
//! Invariant: printing never changes a verdict; it only formats.

use std::fmt::Write;

use crate::align::{AlignError, Aligned, Role, Site};
use crate::print::print_sym;
use crate::protocol::{AccessMode, ForLoop};
use warpsafe_ir::{Kernel, LoopId, Span};
use warpsafe_source::SourceMap;

/// The text of one aligning's result: its phases, or why it stopped.
pub(crate) fn aligned_text<E: std::fmt::Display>(
    kernel: &Kernel,
    result: &Result<Aligned<'_>, AlignError<E>>,
    sources: &SourceMap,
) -> String {
    let mut out = String::new();
    match result {
        Ok(aligned) => phases(&mut out, kernel, aligned, sources),
        Err(AlignError::Unsupported(reason, span)) => {
            let _ = writeln!(
                out,
                "kernel {}: not aligned: {reason} (at {})",
                kernel.name,
                sources.describe(*span)
            );
        }
        Err(AlignError::Divergent(ds)) => {
            let _ = writeln!(
                out,
                "kernel {}: not aligned: barrier divergence at {}",
                kernel.name,
                ds.iter()
                    .map(|d| sources.describe(d.span))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        Err(AlignError::Oracle(e)) => {
            let _ = writeln!(
                out,
                "kernel {}: not aligned: solver failed: {e}",
                kernel.name
            );
        }
    }
    out
}

fn phases(out: &mut String, kernel: &Kernel, a: &Aligned<'_>, sources: &SourceMap) {
    let _ = writeln!(
        out,
        "kernel {}: {} phase{} after barrier aligning and splitting",
        kernel.name,
        a.phases.len(),
        if a.phases.len() == 1 { "" } else { "s" }
    );
    let loops = sync_loops(a);
    if !loops.is_empty() {
        let _ = writeln!(
            out,
            "  synchronized loops (each role's value shared by the two threads of a block):"
        );
        for l in &loops {
            let _ = writeln!(
                out,
                "    {}  {}",
                at(kernel, sources, l.span),
                loop_header(l, kernel)
            );
        }
    }
    for (n, phase) in a.phases.iter().enumerate() {
        let mut header = format!("  phase {}", n + 1);
        if phase.assumed {
            header.push_str(" (assumed: only on a path that skips barriers under a condition)");
        }
        let _ = writeln!(out, "{header}:");
        let rows: Vec<(String, String)> = phase
            .insts
            .iter()
            .map(|inst| {
                let site = &a.sites[inst.site];
                let text = format!(
                    "{}{}",
                    instance(site, kernel),
                    roles(site, &inst.path, kernel)
                );
                (at(kernel, sources, site.access.span), text)
            })
            .collect();
        let width = rows.iter().map(|(l, _)| l.len()).max().unwrap_or(0);
        for (l, text) in rows {
            let _ = writeln!(out, "    {l:<width$}  {text}");
        }
    }
    if !loops.is_empty() {
        let _ = writeln!(
            out,
            "  roles: first = the loop's first iteration, cur = any iteration, \
             prev = the one before cur, last = the loop's last one"
        );
    }
    if a.phases.iter().any(|p| p.assumed) {
        let _ = writeln!(
            out,
            "  a race found only in an assumed phase is possible, not provable"
        );
    }
    let global = a
        .sites
        .iter()
        .any(|s| kernel.array(s.access.array).space == warpsafe_ir::MemSpace::Global);
    let one_block = kernel.launch.grid == Some([1, 1, 1]);
    if global && !one_block {
        let _ = writeln!(
            out,
            "  threads of different blocks: any two accesses to a global array in one grid phase \
             (block barriers do not order blocks)"
        );
        // With grid barriers, the grid phases (see `grid`).
        if a.grid_phases.len() > 1 || a.grid_phases.iter().any(|p| p.assumed) {
            for (n, phase) in a.grid_phases.iter().enumerate() {
                let mut header = format!("  grid phase {}", n + 1);
                if phase.assumed {
                    header.push_str(
                        " (assumed: only on a path that skips grid barriers under a condition)",
                    );
                }
                let _ = writeln!(out, "{header}:");
                let rows: Vec<(String, String)> = phase
                    .sites
                    .iter()
                    .map(|&i| {
                        let site = &a.sites[i];
                        (
                            at(kernel, sources, site.access.span),
                            instance(site, kernel),
                        )
                    })
                    .collect();
                let width = rows.iter().map(|(l, _)| l.len()).max().unwrap_or(0);
                for (l, text) in rows {
                    let _ = writeln!(out, "    {l:<width$}  {text}");
                }
            }
        }
    }
}

/// The synchronized loops of the sites, outermost first, each once.
fn sync_loops<'p>(a: &Aligned<'p>) -> Vec<&'p ForLoop> {
    let mut seen: Vec<LoopId> = Vec::new();
    let mut out = Vec::new();
    for s in &a.sites {
        for l in &s.sync_loops {
            if !seen.contains(&l.loop_id) {
                seen.push(l.loop_id);
                out.push(*l);
            }
        }
    }
    out
}

/// `line:col` in the kernel's file, `file:line:col` in another one (a
/// header).
fn at(kernel: &Kernel, sources: &SourceMap, span: Span) -> String {
    match sources.location(span) {
        Some(l) if span.file == kernel.span.file => format!("{}:{}", l.line, l.col),
        _ => sources.describe(span),
    }
}

fn var_name(kernel: &Kernel, l: &ForLoop) -> String {
    kernel
        .vars
        .get(l.var.0 as usize)
        .map_or_else(|| format!("v{}", l.var.0), |v| v.name.clone())
}

fn loop_header(l: &ForLoop, kernel: &Kernel) -> String {
    let mut text = format!(
        "{} in {}..{}",
        var_name(kernel, l),
        print_sym(&l.lo, kernel),
        print_sym(&l.hi, kernel)
    );
    if !(matches!(l.step, crate::protocol::Step::Add(_)) && l.step.is_unit()) {
        let _ = write!(
            text,
            " step {}{}",
            l.step.op().symbol(),
            print_sym(l.step.amount(), kernel)
        );
    }
    text
}

/// `[if G: ][for i in lo..hi: ]wr a[i];`
fn instance(site: &Site<'_>, kernel: &Kernel) -> String {
    let mut text = String::new();
    if !site.guards.is_empty() {
        let guards: Vec<String> = site.guards.iter().map(|g| print_sym(g, kernel)).collect();
        let _ = write!(text, "if {}: ", guards.join(" && "));
    }
    if site.in_unknown_loop {
        text.push_str("loop: ");
    }
    for l in &site.loops {
        let _ = write!(text, "for {}: ", loop_header(l, kernel));
    }
    let a = site.access;
    if a.atomic {
        text.push_str("atomic ");
    } else if a.volatile {
        text.push_str("volatile ");
    }
    text.push_str(match a.mode {
        AccessMode::Read => "rd ",
        AccessMode::Write => "wr ",
    });
    let _ = write!(
        text,
        "{}[{}];",
        kernel.array(a.array).name,
        print_sym(&a.index, kernel)
    );
    text
}

/// `  [x: first, y: cur]`, or nothing outside synchronized loops.
fn roles(site: &Site<'_>, path: &[Role], kernel: &Kernel) -> String {
    if path.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = site
        .sync_loops
        .iter()
        .zip(path)
        .map(|(l, r)| {
            let role = match r {
                Role::First => "first",
                Role::Cur => "cur",
                Role::Prev => "prev",
                Role::Last => "last",
            };
            format!("{}: {role}", var_name(kernel, l))
        })
        .collect();
    format!("  [{}]", parts.join(", "))
}
