//! The text report of `warpsafe check`, one kernel at a time: the dumps
//! asked for, the verdict (DRF, RACY with every racy pair and its witness,
//! DIVERGENT with every divergent barrier, UNKNOWN with the reason), the
//! assertions' outcomes, notes, and the SMT transcript (`--dump smt`).

use super::confirm::Confirmation;
use super::KernelResult;
use crate::color::{paint, Tone};
use std::fmt::Write;
use warpsafe_ir::Kernel;
use warpsafe_source::SourceMap;
use warpsafe_static::{
    AccessMode, AssertCheck, AssertOutcome, AssertWitness, Certainty, Divergence, Race, RaceScope,
    ThreadId, Verdict, Witness,
};

/// Races listed one by one in a kernel's text report unless `--max-races`
/// says otherwise; the grouped summary covers the others, `--format json`
/// lists them all.
const SHOWN_RACES: usize = 20;

/// A group of at least this many races on one array gets a summary line.
const GROUPED_RACES: usize = 3;

/// One kernel's report; `max_races` is `--max-races` (0: not given),
/// `color` whether to colour verdicts.
pub fn kernel(r: &KernelResult<'_>, src: &SourceMap, max_races: usize, color: bool) -> String {
    let mut out = String::new();
    let name = &r.kernel.name;
    let word = |w: &str, tone| paint(w, tone, color);
    if let Some(p) = &r.protocol {
        out.push_str(p);
    }
    if let Some(a) = &r.aligned {
        out.push_str(a);
    }
    let report = &r.report;
    let start = out.len();
    match &report.verdict {
        Verdict::Drf => {
            let _ = writeln!(
                out,
                "kernel {name}: {} (no data race and no barrier divergence)",
                word("DRF", Tone::Good)
            );
        }
        Verdict::Racy(races) => {
            let _ = writeln!(
                out,
                "kernel {name}: {} ({} race(s))",
                word("RACY", Tone::Bad),
                races.len()
            );
            print_groups(&mut out, races, src);
            let shown = if max_races > 0 {
                races.len()
            } else {
                SHOWN_RACES
            };
            let file = &src.file(r.kernel.span.file).name;
            for (i, race) in races.iter().take(shown).enumerate() {
                print_race(&mut out, race, r.kernel, src, color);
                if let Some(c) = r.confirmations.get(i) {
                    let _ = writeln!(out, "    {}", confirmation(c, file));
                }
            }
            if races.len() > shown {
                let _ = writeln!(
                    out,
                    "  ... and {} more race(s) (--format json lists them all; --max-races N stops the check after N)",
                    races.len() - shown
                );
            }
        }
        Verdict::Divergent(ds) => {
            let _ = writeln!(
                out,
                "kernel {name}: {} ({} divergent barrier(s))",
                word("DIVERGENT", Tone::Bad),
                ds.len()
            );
            for d in ds {
                print_divergence(&mut out, d, src, color);
            }
            let _ = writeln!(
                out,
                "  note: data races are not checked in a kernel with barrier divergence"
            );
        }
        Verdict::Unknown { reason, span } => {
            let unknown = word("UNKNOWN", Tone::Unsure);
            let _ = match span {
                Some(s) => writeln!(
                    out,
                    "kernel {name}: {unknown}: {reason} ({})",
                    src.describe(*s)
                ),
                None => writeln!(out, "kernel {name}: {unknown}: {reason}"),
            };
        }
    }
    // The launch the verdict assumed, right under the verdict line.
    if let Some(eol) = out[start..].find('\n') {
        out.insert_str(
            start + eol + 1,
            &format!("  {}\n", launch(&r.kernel.launch, src)),
        );
    }
    print_asserts(&mut out, &report.asserts, src, color);
    for n in &report.notes {
        let _ = writeln!(out, "  note: {n}");
    }
    if let Some(t) = &report.transcript {
        let _ = writeln!(out, "; SMT queries of {name}\n{t}");
    }
    out
}

/// The dimensions a kernel was checked for and where each comes from:
/// `launch: blockDim=(256,1,1), gridDim=(any,1,1) (blockDim from the launch
/// at main.cu:88; gridDim.y/z assumed 1: ...)`.
pub fn launch(l: &warpsafe_ir::LaunchConfig, src: &SourceMap) -> String {
    let dims = |known: &dyn Fn(usize) -> Option<u64>| {
        let parts: Vec<String> = (0..3)
            .map(|d| known(d).map_or("any".to_string(), |v| v.to_string()))
            .collect();
        format!("({})", parts.join(","))
    };
    let notes = launch_notes(l, src);
    let mut line = format!(
        "launch: blockDim={}, gridDim={}",
        dims(&|d| l.block_dim(d)),
        dims(&|d| l.grid_dim(d))
    );
    if !notes.is_empty() {
        let _ = write!(line, " ({})", notes.join("; "));
    }
    line
}

/// Where each known dimension comes from, with the launch's location.
pub fn launch_notes(l: &warpsafe_ir::LaunchConfig, src: &SourceMap) -> Vec<String> {
    l.notes
        .iter()
        .map(|(n, span)| match span {
            Some(s) => format!("{n} at {}", src.describe(*s)),
            None => n.clone(),
        })
        .collect()
}

fn certainty(c: &Certainty, color: bool) -> String {
    match c {
        Certainty::Provable => paint("provable", Tone::Bad, color),
        Certainty::Possible { reasons } => format!(
            "{}: {}",
            paint("possible", Tone::Unsure, color),
            reasons.join("; ")
        ),
    }
}

/// A variable's name as the source spells it: the front end's `x.1` for
/// the second `x` in scope is `x`.
fn source_name(name: &str) -> String {
    let (base, rest) = name.split_at(name.find(' ').unwrap_or(name.len()));
    let base = match base.rsplit_once('.') {
        Some((b, n)) if !b.is_empty() && !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()) => {
            b
        }
        _ => base,
    };
    format!("{base}{rest}")
}

/// The element a slot index names, as C writes it: `tile[17][0]`,
/// `v[3] (component 2 of float4)`; `a[slot]` when the size is unknown or
/// the index outside it.
pub fn element(kernel: &Kernel, array: warpsafe_ir::ArrayId, slot: i128) -> String {
    let Some(a) = kernel.arrays.get(array.0 as usize) else {
        return format!("[{slot}]");
    };
    let per = a.slots.len().max(1) as i128;
    if a.origin == warpsafe_ir::ArrayOrigin::Pointee {
        // `*lines[]`: the object the pointer in slot `k` of `lines` points to.
        let stride = warpsafe_ir::POINTEE_STRIDE;
        let (object, within) = (slot.div_euclid(stride), slot.rem_euclid(stride));
        let holder = a.name.trim_end_matches("[]");
        let (elem, component) = (within.div_euclid(per), within.rem_euclid(per));
        let mut text = format!("({holder}[slot {object}])[{elem}]");
        if per > 1 {
            let _ = write!(text, " (component {component} of {})", a.elem);
        }
        return text;
    }
    let (elem, component) = (slot.div_euclid(per), slot.rem_euclid(per));
    let total: Option<i128> = a
        .dims
        .iter()
        .try_fold(1i128, |acc, d| acc.checked_mul(*d as i128));
    let mut text = match total {
        Some(t) if a.dims.len() > 1 && (0..t).contains(&elem) => {
            let mut rest = elem;
            let mut idx = Vec::new();
            for d in a.dims.iter().rev() {
                idx.push(rest % *d as i128);
                rest /= *d as i128;
            }
            let parts: String = idx.iter().rev().map(|i| format!("[{i}]")).collect();
            format!("{}{parts}", a.name)
        }
        _ => format!("{}[{elem}]", a.name),
    };
    if per > 1 {
        let _ = write!(text, " (component {component} of {})", a.elem);
    }
    text
}

/// One line per array with many races: how many, between which lines.
fn print_groups(out: &mut String, races: &[Race], src: &SourceMap) {
    let mut groups: Vec<(&str, Vec<&Race>)> = Vec::new();
    for r in races {
        match groups.iter_mut().find(|(n, _)| *n == r.array_name) {
            Some((_, g)) => g.push(r),
            None => groups.push((&r.array_name, vec![r])),
        }
    }
    for (name, g) in groups {
        if g.len() < GROUPED_RACES {
            continue;
        }
        let lines: Vec<u32> = g
            .iter()
            .flat_map(|r| [r.first.span, r.second.span])
            .filter_map(|s| src.location(s).map(|l| l.line))
            .collect();
        let (lo, hi) = (
            lines.iter().min().copied().unwrap_or(0),
            lines.iter().max().copied().unwrap_or(0),
        );
        let cross = g.iter().any(|r| r.scope == RaceScope::CrossBlock);
        let advice = if cross {
            "between blocks no __syncthreads() orders them (atomics, disjoint indices per block, or separate kernel launches do)"
        } else {
            "no barrier orders these accesses"
        };
        let place = if lo == hi {
            format!("at line {lo}")
        } else {
            format!("between line {lo} and line {hi}")
        };
        let _ = writeln!(out, "  {} races on `{name}` {place}: {advice}", g.len());
    }
}

fn triple(t: [u64; 3]) -> String {
    format!("({},{},{})", t[0], t[1], t[2])
}

pub(super) fn thread(t: &ThreadId) -> String {
    format!(
        "blockIdx={} threadIdx={}",
        triple(t.block_idx),
        triple(t.thread_idx)
    )
}

/// A count of the assertions that hold, and each one that fails (with its
/// witness) or is unknown.
fn print_asserts(out: &mut String, asserts: &[AssertCheck], src: &SourceMap, color: bool) {
    if asserts.is_empty() {
        return;
    }
    let holds = asserts
        .iter()
        .filter(|a| a.outcome == AssertOutcome::Holds)
        .count();
    let _ = writeln!(
        out,
        "  assertions: {holds} of {} proved to hold for every thread",
        asserts.len()
    );
    for a in asserts {
        let at = src.describe(a.span);
        match &a.outcome {
            AssertOutcome::Holds => {}
            AssertOutcome::Fails {
                certainty: c,
                witness,
            } => {
                let _ = writeln!(
                    out,
                    "  assertion `{}` at {at} fails [{}]",
                    a.message,
                    certainty(c, color)
                );
                if let Some(w) = witness {
                    let _ = writeln!(out, "    witness: {}", assert_witness(w));
                }
            }
            AssertOutcome::Unknown { reason } => {
                let _ = writeln!(
                    out,
                    "  assertion `{}` at {at}: UNKNOWN: {reason}",
                    a.message
                );
            }
        }
    }
}

pub(super) fn assert_witness(w: &AssertWitness) -> String {
    let mut parts = vec![thread(&w.thread)];
    if let Some(b) = w.block_dim {
        parts.push(format!("blockDim={}", triple(b)));
    }
    if let Some(g) = w.grid_dim {
        parts.push(format!("gridDim={}", triple(g)));
    }
    for (name, v) in &w.params {
        parts.push(format!("{name}={v}"));
    }
    for l in &w.loop_vars {
        parts.push(format!("{}={}", source_name(&l.name), l.value));
    }
    parts.join(", ")
}

fn print_divergence(out: &mut String, d: &Divergence, src: &SourceMap, color: bool) {
    let _ = writeln!(
        out,
        "  barrier at {}: {} [{}]",
        src.describe(d.span),
        d.reason,
        certainty(&d.certainty, color)
    );
    print_excerpt(out, src, d.span);
    if let Some(w) = divergence_witness(d) {
        let _ = writeln!(out, "    witness: {w}");
    }
}

/// The two threads of a divergence and the parameters that decide it.
pub(super) fn divergence_witness(d: &Divergence) -> Option<String> {
    let [a, b] = d.threads.as_ref()?;
    let mut parts = vec![
        format!("thread 1: {}", thread(a)),
        format!("thread 2: {}", thread(b)),
    ];
    parts.extend(d.params.iter().map(|(n, v)| format!("{n}={v}")));
    Some(parts.join(", "))
}

/// The source line of `span`, indented under the line that names it.
fn print_excerpt(out: &mut String, src: &SourceMap, span: warpsafe_ir::Span) {
    let Some(f) = src.get(span.file) else {
        return;
    };
    let at = f.location(span.lo);
    let line = f.line_text(at.line).trim_end();
    if line.trim().is_empty() {
        return;
    }
    let _ = writeln!(out, "      {:>5} | {}", at.line, line);
}

fn print_race(out: &mut String, r: &Race, kernel: &Kernel, src: &SourceMap, color: bool) {
    let scope = match r.scope {
        RaceScope::SameBlock => "threads of one block",
        RaceScope::CrossBlock => "threads of different blocks",
    };
    let _ = writeln!(
        out,
        "  race on `{}` ({}) between {scope} [{}]",
        r.array_name,
        r.space.name(),
        certainty(&r.certainty, color)
    );
    let mut shown_line = None;
    for (n, a) in [(1, &r.first), (2, &r.second)] {
        let mode = match a.mode {
            AccessMode::Read => "read",
            AccessMode::Write => "write",
        };
        let atomic = if a.atomic { "atomic " } else { "" };
        let _ = writeln!(
            out,
            "    thread {n}: {atomic}{mode} at {}",
            src.describe(a.span)
        );
        let line = src.location(a.span).map(|l| (a.span.file, l.line));
        if line != shown_line {
            print_excerpt(out, src, a.span);
            shown_line = line;
        }
    }
    let _ = match &r.witness {
        Some(w) => writeln!(
            out,
            "    witness: {}, element {}",
            witness(w),
            element(kernel, r.array, w.index)
        ),
        None => writeln!(out, "    (no witness: the model could not be read)"),
    };
}

/// What `--confirm` found for a race, with the command that replays it.
pub(super) fn confirmation(c: &Confirmation, file: &str) -> String {
    match c {
        Confirmation::Confirmed {
            threads,
            flags,
            token,
        } => format!(
            "confirmed: `warpsafe run` shows it at the witness launch ({threads}); replay with: warpsafe run {file} {flags} --replay {token}"
        ),
        Confirmation::Related { with, flags, token } => format!(
            "confirmed in part: `warpsafe run` shows a race on this array between one of these statements and {with} (it reports one race per location, not every pair); replay with: warpsafe run {file} {flags} --replay {token}"
        ),
        Confirmation::NotShown {
            schedules,
            flags,
            cut: Some(why),
        } => format!(
            "not confirmed: {schedules} schedule(s) of the witness launch ({flags}, arrays zero-filled) do not show it, and one stopped early: {why}"
        ),
        Confirmation::NotShown {
            schedules, flags, ..
        } => format!(
            "not confirmed: {schedules} schedule(s) of the witness launch ({flags}, arrays zero-filled) do not show it (it may need other memory contents or schedules)"
        ),
        Confirmation::NotRun(why) => format!("not confirmed: {why}"),
    }
}

/// The threads and values of a race witness (the element is printed
/// beside it by [`print_race`]).
pub(super) fn witness(w: &Witness) -> String {
    let mut parts = Vec::new();
    for (n, t) in w.threads.iter().enumerate() {
        parts.push(format!("thread {}: {}", n + 1, thread(t)));
    }
    if let Some(b) = w.block_dim {
        parts.push(format!("blockDim={}", triple(b)));
    }
    if let Some(g) = w.grid_dim {
        parts.push(format!("gridDim={}", triple(g)));
    }
    for (name, v) in &w.params {
        parts.push(format!("{name}={v}"));
    }
    for l in &w.loop_vars {
        let name = source_name(&l.name);
        if l.thread == 0 {
            // A synchronized loop's variable: the same for both threads.
            parts.push(format!("both threads: {name}={}", l.value));
        } else {
            parts.push(format!("thread {}: {name}={}", l.thread, l.value));
        }
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_names_drop_the_front_ends_suffix() {
        assert_eq!(source_name("iAccum.1"), "iAccum");
        assert_eq!(
            source_name("i.12 (previous iteration)"),
            "i (previous iteration)"
        );
        assert_eq!(source_name("s.x"), "s.x");
        assert_eq!(source_name("v1"), "v1");
        assert_eq!(source_name(".5"), ".5");
    }
}
