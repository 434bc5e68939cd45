//! The text output of `warpsafe explore`: per kernel, the verdict line
//! (a SAFE verdict names the arrays whose bounds were not checked), a note
//! on those arrays, then for every witness execution the errors it shows (headline and the
//! accesses involved), the execution itself (`crate::explore` renders it
//! with [`warpsafe_mc::witness::Names::render`]) and its replay token, then
//! why the exploration is incomplete, the outcomes, and a summary line.
//!
//! Invariant: everything but the time and memory figures and the replay
//! tokens is a function of the kernel and the flags (snapshot tests filter
//! those three).

use super::result::{count, KernelResult, Verdict};
use std::fmt::Write;
use warpsafe_mc::witness::Names;
use warpsafe_source::SourceMap;

/// Errors listed per witness execution unless `--full`.
pub const MAX_ERRORS_LISTED: usize = 10;

/// One kernel's report; unless `full`, a witness lists at most
/// [`MAX_ERRORS_LISTED`] errors and long executions are shortened
/// ([`Names::render`]).
pub fn kernel(r: &KernelResult<'_>, sources: &SourceMap, full: bool) -> String {
    let names = Names::new(r.kernel, sources);
    let mut o = String::new();
    let name = &r.kernel.name;
    let what = if r.replay { "replayed execution: " } else { "" };
    let unchecked = r
        .unchecked
        .iter()
        .map(|a| format!("`{a}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let _ = match &r.verdict {
        Verdict::Safe if !r.unchecked.is_empty() => writeln!(
            o,
            "kernel {name}: SAFE (no error in any of the {}; out-of-bounds accesses to {unchecked} not checked)",
            count(r.summary.map_or(0, |s| s.executions), "execution")
        ),
        Verdict::Safe => writeln!(
            o,
            "kernel {name}: SAFE (no error in any of the {})",
            count(r.summary.map_or(0, |s| s.executions), "execution")
        ),
        Verdict::ErrorsFound => {
            let n = count(r.errors.len(), "distinct error");
            writeln!(o, "kernel {name}: {what}ERRORS FOUND ({n})")
        }
        Verdict::Unknown(reason) => writeln!(o, "kernel {name}: UNKNOWN ({reason})"),
        Verdict::NoErrorInReplay => {
            writeln!(o, "kernel {name}: {what}no error in this execution")
        }
        Verdict::NoErrorFound => writeln!(
            o,
            "kernel {name}: NO ERROR FOUND in {} (a bounded search, not a proof)",
            count(r.summary.map_or(0, |s| s.executions), "execution")
        ),
    };
    for note in &r.notes {
        let _ = writeln!(o, "  note: {note}");
    }
    for (i, shown) in r.witnesses.iter().enumerate() {
        let mut marks = Vec::new();
        let errors: Vec<_> = r.errors_of(i).collect();
        let listed = if full {
            errors.len()
        } else {
            errors.len().min(MAX_ERRORS_LISTED)
        };
        for e in &errors[..listed] {
            let seen = if r.all && e.occurrences > 1 {
                format!(" (in {})", count(e.occurrences, "execution"))
            } else {
                String::new()
            };
            let _ = writeln!(o, "  error: {}{seen}", names.headline(&e.finding));
            for d in names.details(&e.finding, &shown.witness.execution.graph) {
                let _ = writeln!(o, "    {d}");
            }
            marks.extend(Names::marks(&e.finding));
        }
        if listed < errors.len() {
            let more = errors.len() - listed;
            let s = if more == 1 { "" } else { "s" };
            let _ = writeln!(
                o,
                "  ... and {more} more error{s} in this execution (--full lists them)"
            );
        }
        let number = if r.replay {
            String::new()
        } else {
            format!(" (execution {})", shown.witness.number)
        };
        let _ = writeln!(o, "  witness{number}, replay with --replay {}", shown.token);
        o.push_str(&names.render(&shown.witness.execution, &marks, "    ", full));
    }
    if r.verdict == Verdict::ErrorsFound {
        if let Some(why) = &r.incomplete {
            let _ = writeln!(o, "  exploration incomplete: {why}");
        }
    }
    if let Some(outcomes) = &r.outcomes {
        let of = if r.incomplete.is_some() {
            " (of the executions explored)"
        } else {
            ""
        };
        let _ = writeln!(o, "  outcomes{of}: executions, final global memory");
        let w = outcomes
            .iter()
            .map(|(_, n)| n.to_string().len())
            .max()
            .unwrap_or(1);
        for (state, n) in outcomes {
            let _ = writeln!(o, "    {n:>w$}  {state}");
        }
    }
    if let Some(s) = r.summary.filter(|_| !r.replay) {
        let memory = s
            .peak_kib
            .map(|k| format!(", peak memory {:.1} MiB", k as f64 / 1024.0))
            .unwrap_or_default();
        // Only the kinds of stopped execution that occurred.
        let stopped: Vec<String> = [
            (s.blocked, "blocked at a barrier"),
            (s.cut, "cut by assumptions"),
            (s.spin_blocked, "blocked in await loops (spin-assume)"),
            (s.bounded, "cut at the loop bound"),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
        let stopped = if stopped.is_empty() {
            String::new()
        } else {
            format!(" ({})", stopped.join(", "))
        };
        let _ = writeln!(
            o,
            "  summary: {}{stopped}, {}, {} inconsistent pruned, {:.3} s{memory}",
            count(s.executions, "complete execution"),
            count(s.states, "state"),
            s.inconsistent,
            s.seconds
        );
    }
    o
}
