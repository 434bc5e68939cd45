//! Witness executions as people read them: names for locations, events,
//! values, memory orders and source positions ([`Names`]), one-line
//! descriptions of errors, and the text rendering of a whole execution
//! graph (seed 000 §3: events per thread in program order, with their
//! `rf` sources, memory order and scope, source line:col and an excerpt,
//! then `co` per location).
//!
//! Naming: thread `t` of the graph is `Tt` (its block and thread index are
//! given once), its `i`-th event `Tt.i`; a location is `array[index]`, with
//! `@block b` for `__shared__` arrays (one copy per block).
//!
//! Invariant: the text depends only on the execution, the kernel and the
//! source map (no addresses, times or hash-map orders), so it can be
//! snapshot-tested.

use crate::findings::Finding;
use crate::graph::{Event, EventId, Graph, Kind, Loc, RfSource};
use crate::races::{RaceAccess, RaceKind};
use crate::reference::Execution;
use std::fmt::Write;
use warpsafe_interp::{FaultKind, Value};
use warpsafe_ir::{ArrayId, ArrayOrigin, Kernel, Span};
use warpsafe_source::SourceMap;

/// Names of the things of one kernel's executions.
#[derive(Clone, Copy)]
pub struct Names<'a> {
    pub kernel: &'a Kernel,
    pub sources: &'a SourceMap,
}

/// Slot `index` of `array`: `data[3]`, or `(*lines[slot 4])[2]` for slot 2
/// of the object the pointer in slot 4 of `lines` points to (an
/// [`ArrayOrigin::Pointee`] array).
pub fn slot_text(kernel: &Kernel, array: ArrayId, index: u64) -> String {
    match kernel.arrays.get(array.0 as usize) {
        Some(a) if a.origin == ArrayOrigin::Pointee => {
            let stride = warpsafe_ir::POINTEE_STRIDE as u64;
            let holder = a.name.trim_end_matches("[]");
            format!("({holder}[slot {}])[{}]", index / stride, index % stride)
        }
        Some(a) => format!("{}[{index}]", a.name),
        None => format!("array{}[{index}]", array.0),
    }
}

impl<'a> Names<'a> {
    pub fn new(kernel: &'a Kernel, sources: &'a SourceMap) -> Names<'a> {
        Names { kernel, sources }
    }

    pub fn array(&self, id: ArrayId) -> String {
        self.kernel
            .arrays
            .get(id.0 as usize)
            .map_or_else(|| format!("array{}", id.0), |a| a.name.clone())
    }

    /// `data[0]`, `(*lines[slot 4])[2]` ([`slot_text`]), or `r[1]@block0`
    /// for a `__shared__` slot.
    pub fn loc(&self, loc: Loc) -> String {
        let mut s = slot_text(self.kernel, loc.array, loc.index);
        if let Some(b) = loc.block {
            let _ = write!(s, "@block{b}");
        }
        s
    }

    /// `T1.0`.
    pub fn event(id: EventId) -> String {
        format!("T{}.{}", id.thread, id.index)
    }

    /// `init` or the event's name.
    pub fn source(src: RfSource) -> String {
        match src {
            RfSource::Init => "init".into(),
            RfSource::Write(w) => Names::event(w),
        }
    }

    /// A value without its type suffix (`42`, `1.5`, `true`).
    pub fn value(v: Value) -> String {
        match v {
            Value::Bool(b) => b.to_string(),
            Value::F16(f) | Value::Bf16(f) | Value::F32(f) => format!("{f:?}"),
            Value::F64(f) => format!("{f:?}"),
            v => v.as_int().map_or_else(|| v.to_string(), |i| i.to_string()),
        }
    }

    /// `non-atomic`, `relaxed block`, `acq_rel device`, `barrier`.
    pub fn order(e: &Event) -> String {
        use crate::graph::Order;
        if e.kind == Kind::Barrier {
            return "barrier".into();
        }
        let order = match e.order {
            Order::NonAtomic => return "non-atomic".into(),
            Order::Relaxed => "relaxed",
            Order::Acquire => "acquire",
            Order::Release => "release",
            Order::AcqRel => "acq_rel",
            Order::SeqCst => "seq_cst",
        };
        match e.scope {
            Some(s) => format!("{order} {}", s.name()),
            None => order.into(),
        }
    }

    /// `12:5` (line and column in the span's file).
    pub fn at(&self, span: Span) -> String {
        self.sources
            .location(span)
            .map_or_else(|| "?".into(), |l| format!("{}:{}", l.line, l.col))
    }

    /// `file.cu:12:5`.
    pub fn describe(&self, span: Span) -> String {
        self.sources.describe(span)
    }

    /// The first line of the span's text, trimmed, at most 48 characters.
    pub fn excerpt(&self, span: Span) -> String {
        let text = self.sources.snippet(span);
        let line = text.lines().next().unwrap_or("").trim();
        let more = text.trim().lines().nth(1).is_some();
        let mut s: String = line.chars().take(48).collect();
        if more || line.chars().count() > 48 {
            s.push_str(" ...");
        }
        s
    }

    /// What a fault is, with array and variable names.
    pub fn fault(&self, kind: &FaultKind) -> String {
        match kind {
            FaultKind::OutOfBounds { array, index, len } => format!(
                "out-of-bounds access: index {index} of `{}`, which has {len} slots",
                self.array(*array)
            ),
            FaultKind::NegativeIndex { array, index } => format!(
                "out-of-bounds access: negative index {index} of `{}`",
                self.array(*array)
            ),
            FaultKind::UninitialisedMemory { array, index } => format!(
                "uninitialised read: slot {index} of `{}` is read before it is written",
                self.array(*array)
            ),
            FaultKind::UninitialisedVariable(v) => format!(
                "uninitialised read: `{}` is read before it is assigned",
                self.kernel
                    .vars
                    .get(v.0 as usize)
                    .map_or("?", |v| v.name.as_str())
            ),
            FaultKind::DivisionByZero => "division by zero".into(),
            other => other.to_string(),
        }
    }

    /// A one-line headline of an error (`data race on data[0]`).
    pub fn headline(&self, f: &Finding) -> String {
        match f {
            Finding::Race(r) => match r.kind {
                RaceKind::Data => format!("data race on {}", self.loc(r.loc)),
                RaceKind::Heterogeneous => format!(
                    "heterogeneous race on {} (atomics whose scopes do not include each other)",
                    self.loc(r.loc)
                ),
            },
            Finding::Assertion(a) => format!("assertion violated: {}", a.message),
            Finding::Divergence { .. } => {
                "barrier divergence: threads wait at a barrier that others of their group never reach"
                    .into()
            }
            Finding::MismatchedBarrier { .. } => {
                "barrier divergence: threads of one group pass a barrier at different statements"
                    .into()
            }
            Finding::Fault(t) => self.fault(&t.fault.kind),
            Finding::Hang { .. } => {
                "hang: a thread waits forever in an await loop (no write is left to end it)".into()
            }
        }
    }

    /// The events of `f` with a short label each (`data race`, `blocked`).
    pub fn marks(f: &Finding) -> Vec<(EventId, String)> {
        let label = match f {
            Finding::Race(r) if r.kind == RaceKind::Data => "data race",
            Finding::Race(_) => "heterogeneous race",
            Finding::Divergence { .. } => "blocked here",
            Finding::MismatchedBarrier { .. } => "mismatched barrier",
            Finding::Hang { .. } => "waits forever",
            Finding::Assertion(_) | Finding::Fault(_) => "",
        };
        f.events()
            .into_iter()
            .map(|e| (e, label.to_string()))
            .collect()
    }

    /// The lines under a headline: who does what where.
    pub fn details(&self, f: &Finding, graph: &Graph) -> Vec<String> {
        let access = |a: &RaceAccess| {
            let e = graph.event(a.event);
            let what = match (e.kind, a.is_atomic) {
                (Kind::Update, _) => "atomic update",
                (Kind::Write, true) => "atomic write",
                (Kind::Write, false) => "write",
                (_, true) => "atomic read",
                (_, false) => "read",
            };
            format!(
                "{what} ({}) by {} as {} at {}: {}",
                Names::order(e),
                a.thread,
                Names::event(a.event),
                self.describe(a.span),
                self.excerpt(a.span)
            )
        };
        match f {
            Finding::Race(r) => vec![access(&r.first), access(&r.second)],
            Finding::Assertion(a) => vec![format!(
                "in {} at {}: {}",
                a.thread,
                self.describe(a.span),
                self.excerpt(a.span)
            )],
            Finding::Divergence {
                span,
                threads,
                missing,
                ..
            } => {
                let mut v = vec![format!(
                    "{} blocked at {}: {}",
                    list(threads.iter().map(ToString::to_string)),
                    self.describe(*span),
                    self.excerpt(*span)
                )];
                if !missing.is_empty() {
                    v.push(format!(
                        "{} never {} it",
                        list(missing.iter().map(ToString::to_string)),
                        if missing.len() == 1 {
                            "reaches"
                        } else {
                            "reach"
                        }
                    ));
                }
                v
            }
            Finding::MismatchedBarrier { first, second } => [first, second]
                .iter()
                .map(|a| {
                    format!(
                        "{} at {}: {}",
                        a.thread,
                        self.describe(a.span),
                        self.excerpt(a.span)
                    )
                })
                .collect(),
            Finding::Fault(t) => vec![format!(
                "in {} at {}: {}",
                t.thread,
                self.describe(t.fault.span),
                self.excerpt(t.fault.span)
            )],
            Finding::Hang { thread, span, .. } => vec![format!(
                "{thread} spins in the loop at {}: {}",
                self.describe(*span),
                self.excerpt(*span)
            )],
        }
    }

    /// What an event does: `write data[0] := 42`, `read flag[0] = 1`,
    /// `update x[0] = 0 := 1`, `fence`, `barrier block0 #0`.
    pub fn action(&self, e: &Event) -> String {
        let loc = e.loc.map(|l| self.loc(l)).unwrap_or_default();
        let v = |v: Option<Value>| v.map(Names::value).unwrap_or_else(|| "?".into());
        match e.kind {
            Kind::Read => format!("read   {loc} = {}", v(e.read_value)),
            Kind::Write => format!("write  {loc} := {}", v(e.written_value)),
            Kind::Update => format!(
                "update {loc} = {} := {}",
                v(e.read_value),
                v(e.written_value)
            ),
            Kind::Fence => "fence".into(),
            Kind::Barrier => match e.barrier {
                Some(b) => format!("barrier {} #{}", group(b.group), b.generation),
                None => "barrier".into(),
            },
        }
    }

    /// The whole execution as text, indented by `indent`; each event of
    /// `marks` gets `<--` and its labels. Threads with no events and a
    /// normal end are left out. Unless `full`, an execution of more than
    /// [`ELIDE_ABOVE`] events is shortened: each thread shows the events
    /// within [`CONTEXT`] of a marked one and its last event, and `co` only
    /// the marked locations; a line says how many events each gap hides.
    pub fn render(
        &self,
        exec: &Execution,
        marks: &[(EventId, String)],
        indent: &str,
        full: bool,
    ) -> String {
        enum Line {
            Text(String),
            Row([String; 7]),
        }
        let g = &exec.graph;
        let total: usize = g.events.iter().map(Vec::len).sum();
        let elide = !full && total > ELIDE_ABOVE;
        let mut shown = 0usize;
        let mut lines = Vec::new();
        for (t, evs) in g.events.iter().enumerate() {
            let end = self.thread_end(exec, t);
            if evs.is_empty() && end.is_none() {
                continue;
            }
            lines.push(Line::Text(format!("T{t}: {}", g.threads[t])));
            let keep = visible(evs.len(), t, marks, elide);
            let mut gap: Option<(usize, usize)> = None;
            let hidden = |gap: (usize, usize)| {
                let n = gap.1 - gap.0 + 1;
                let s = if n == 1 { "" } else { "s" };
                Line::Text(format!(
                    "  ... {n} event{s} (T{t}.{}..T{t}.{}) ...",
                    gap.0, gap.1
                ))
            };
            for (i, e) in evs.iter().enumerate() {
                if !keep[i] {
                    gap = Some(gap.map_or((i, i), |(a, _)| (a, i)));
                    continue;
                }
                if let Some(gp) = gap.take() {
                    lines.push(hidden(gp));
                }
                shown += 1;
                let rf =
                    g.rf.get(&e.id)
                        .map(|s| format!("rf {}", Names::source(*s)))
                        .unwrap_or_default();
                let labels: Vec<&str> = marks
                    .iter()
                    .filter(|(id, _)| *id == e.id)
                    .map(|(_, l)| l.as_str())
                    .collect();
                let m = if labels.is_empty() {
                    String::new()
                } else {
                    format!("<-- {}", labels.join(", "))
                };
                lines.push(Line::Row([
                    Names::event(e.id),
                    self.action(e),
                    rf,
                    Names::order(e),
                    self.at(e.span),
                    self.excerpt(e.span),
                    m,
                ]));
            }
            if let Some(gp) = gap.take() {
                lines.push(hidden(gp));
            }
            if let Some(end) = end {
                lines.push(Line::Text(format!("  {end}")));
            }
        }
        let mut widths = [0usize; 7];
        for l in &lines {
            if let Line::Row(r) = l {
                for (w, cell) in widths.iter_mut().zip(r) {
                    *w = (*w).max(cell.chars().count());
                }
            }
        }
        let mut out = String::new();
        for l in &lines {
            match l {
                Line::Text(t) => {
                    let _ = writeln!(out, "{indent}{t}");
                }
                Line::Row(r) => {
                    let mut line = format!("{indent}  ");
                    for (cell, w) in r.iter().zip(widths) {
                        let _ = write!(line, "{cell:<w$}  ");
                    }
                    let _ = writeln!(out, "{}", line.trim_end());
                }
            }
        }
        let marked_locs: Vec<Loc> = marks
            .iter()
            .filter_map(|(id, _)| g.events.get(id.thread)?.get(id.index)?.loc)
            .collect();
        let written = g.co.iter().filter(|(_, ws)| !ws.is_empty());
        let left_out = if elide {
            written
                .clone()
                .filter(|(loc, _)| !marked_locs.contains(loc))
                .count()
        } else {
            0
        };
        let co: Vec<String> = written
            .filter(|(loc, _)| !elide || marked_locs.contains(loc))
            .map(|(loc, ws)| {
                let order: Vec<String> = std::iter::once("init".to_string())
                    .chain(ws.iter().map(|w| Names::event(*w)))
                    .collect();
                format!("{}: {}", self.loc(*loc), order.join(" < "))
            })
            .collect();
        for (i, c) in co.iter().enumerate() {
            let label = if i == 0 { "co" } else { "" };
            let _ = writeln!(out, "{indent}{label:<4}{c}");
        }
        if shown < total || left_out > 0 {
            let _ = writeln!(
                out,
                "{indent}(shortened: {shown} of {total} events shown, the coherence order of \
                 {left_out} more locations left out; --full prints the whole execution)"
            );
        }
        out
    }

    /// How thread `t` ended, when that is part of an error.
    fn thread_end(&self, exec: &Execution, t: usize) -> Option<String> {
        let id = exec.graph.threads[t];
        if let Some(a) = exec.assertion_failures.iter().find(|a| a.thread == id) {
            return Some(format!("then fails `{}` at {}", a.message, self.at(a.span)));
        }
        if let Some(f) = exec.faults.iter().find(|f| f.thread == id) {
            return Some(format!(
                "then faults at {}: {}",
                self.at(f.fault.span),
                self.fault(&f.fault.kind)
            ));
        }
        if exec.blocked.iter().any(|(b, _)| *b == id) {
            return Some("stays blocked at its last barrier".into());
        }
        None
    }
}

/// Executions with more events than this are shortened when rendered
/// (unless `--full`).
pub const ELIDE_ABOVE: usize = 64;

/// Events shown on each side of a marked event in a shortened execution.
pub const CONTEXT: usize = 2;

/// Which of thread `t`'s `len` events a rendering shows: all, or (when
/// `elide`) those within [`CONTEXT`] of a marked event, and the last.
fn visible(len: usize, t: usize, marks: &[(EventId, String)], elide: bool) -> Vec<bool> {
    if !elide {
        return vec![true; len];
    }
    let mut keep = vec![false; len];
    if let Some(last) = keep.last_mut() {
        *last = true;
    }
    for (id, _) in marks.iter().filter(|(id, _)| id.thread == t) {
        let i = id.index;
        for k in keep
            .iter_mut()
            .take(i.saturating_add(CONTEXT + 1))
            .skip(i.saturating_sub(CONTEXT))
        {
            *k = true;
        }
    }
    keep
}

/// `block0`, `block0 warp1 mask 0x3`, `block0 tile4 #1`, `grid`.
pub fn group(g: crate::graph::BarrierGroup) -> String {
    use crate::graph::BarrierGroup;
    match g {
        BarrierGroup::Block { block } => format!("block{block}"),
        BarrierGroup::Warp { block, warp, mask } => {
            format!("block{block} warp{warp} mask {mask:#x}")
        }
        BarrierGroup::Tile { block, size, tile } => {
            format!("block{block} tile{tile} of {size}")
        }
        BarrierGroup::Grid => "grid".into(),
    }
}

/// `a`, `a and b`, `a, b and c`.
fn list(items: impl Iterator<Item = String>) -> String {
    let v: Vec<String> = items.collect();
    match v.len() {
        0 => String::new(),
        1 => v[0].clone(),
        n => format!("{} and {}", v[..n - 1].join(", "), v[n - 1]),
    }
}
