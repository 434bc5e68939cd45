//! `warpsafe explore --format json`: the same report as the text output,
//! as one JSON object.
//!
//! Shape (every field always present; `null` when it does not apply):
//!
//! ```text
//! { "file", "engine": "dpor"|"reference", "replay": bool,
//!   "kernels": [ { "kernel", "verdict": "safe"|"errors-found"|"unknown"|"no-error",
//!                  "reason", "complete", "unchecked_arrays": [names], "notes": [..],
//!                  "errors": [ { "kind", "message", "location", "details": [..],
//!                                "occurrences", "witness" } ],
//!                  "witnesses": [ { "execution", "replay", "threads": [
//!                        { "id", "block", "thread", "end",
//!                          "events": [ { "id", "kind", "location", "read_value",
//!                                        "written_value", "rf", "order", "scope",
//!                                        "barrier", "line", "column", "excerpt" } ] } ],
//!                      "co": [ { "location", "order": ["init", "T0.0", ..] } ] } ],
//!                  "outcomes": null | [ { "state", "executions" } ],
//!                  "summary": null | { "executions", "blocked", "cut",
//!                               "spin_blocked", "bounded", "states",
//!                               "inconsistent", "seconds", "peak_memory_kib" } } ] }
//! ```
//!
//! `witness` is the index of the error's witness in `witnesses`; event ids
//! are the `T<thread>.<index>` names of the text output. Invariant: the
//! field names and nesting above are what `crates/cli/tests/explore.rs`
//! checks; change both together.

use super::result::{KernelResult, Verdict};
use serde::Serialize;
use std::path::Path;
use warpsafe_explore::Explorer;
use warpsafe_interp::FaultKind;
use warpsafe_mc::graph::Kind;
use warpsafe_mc::witness::{group, Names};
use warpsafe_mc::{Execution, Finding};
use warpsafe_source::SourceMap;

#[derive(Serialize)]
struct Run<'a> {
    file: String,
    engine: &'static str,
    replay: bool,
    kernels: Vec<KernelJson<'a>>,
}

#[derive(Serialize)]
struct KernelJson<'a> {
    kernel: &'a str,
    verdict: &'static str,
    reason: Option<String>,
    complete: bool,
    /// Arrays accessed without a known length (not bounds-checked).
    unchecked_arrays: &'a [String],
    notes: &'a [String],
    errors: Vec<ErrorJson>,
    witnesses: Vec<WitnessJson>,
    outcomes: Option<Vec<OutcomeJson>>,
    summary: Option<SummaryJson>,
}

#[derive(Serialize)]
struct ErrorJson {
    kind: &'static str,
    message: String,
    location: Option<String>,
    details: Vec<String>,
    occurrences: usize,
    witness: usize,
}

#[derive(Serialize)]
struct WitnessJson {
    execution: usize,
    replay: String,
    threads: Vec<ThreadJson>,
    co: Vec<CoJson>,
}

#[derive(Serialize)]
struct ThreadJson {
    id: String,
    block: u32,
    thread: u32,
    end: Option<String>,
    events: Vec<EventJson>,
}

#[derive(Serialize)]
struct EventJson {
    id: String,
    kind: &'static str,
    location: Option<String>,
    read_value: Option<String>,
    written_value: Option<String>,
    rf: Option<String>,
    order: String,
    scope: Option<&'static str>,
    barrier: Option<String>,
    line: Option<u32>,
    column: Option<u32>,
    excerpt: String,
}

#[derive(Serialize)]
struct CoJson {
    location: String,
    order: Vec<String>,
}

#[derive(Serialize)]
struct OutcomeJson {
    state: String,
    executions: usize,
}

#[derive(Serialize)]
struct SummaryJson {
    executions: usize,
    blocked: usize,
    cut: usize,
    spin_blocked: usize,
    bounded: usize,
    states: usize,
    inconsistent: usize,
    seconds: f64,
    peak_memory_kib: Option<u64>,
}

/// The whole run as pretty-printed JSON.
pub fn run(
    file: &Path,
    explorer: &dyn Explorer,
    replay: bool,
    results: &[KernelResult<'_>],
    sources: &SourceMap,
) -> String {
    let run = Run {
        file: file.display().to_string(),
        engine: explorer.name(),
        replay,
        kernels: results.iter().map(|r| kernel(r, sources)).collect(),
    };
    serde_json::to_string_pretty(&run).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

/// A run that failed before any kernel result (a bad replay token).
pub fn error(file: &Path, message: &str) -> String {
    serde_json::json!({ "file": file.display().to_string(), "error": message }).to_string()
}

fn kernel<'a>(r: &'a KernelResult<'_>, sources: &SourceMap) -> KernelJson<'a> {
    let names = Names::new(r.kernel, sources);
    let reason = match &r.verdict {
        Verdict::Unknown(reason) => Some(reason.clone()),
        _ => r.incomplete.clone(),
    };
    KernelJson {
        kernel: &r.kernel.name,
        verdict: r.verdict.name(),
        reason,
        complete: r.incomplete.is_none() && !matches!(r.verdict, Verdict::Unknown(_)),
        unchecked_arrays: &r.unchecked,
        notes: &r.notes,
        errors: r
            .errors
            .iter()
            .map(|e| ErrorJson {
                kind: e.finding.kind().name(),
                message: names.headline(&e.finding),
                location: location(&names, &e.finding),
                details: names.details(&e.finding, &r.witnesses[e.witness].witness.execution.graph),
                occurrences: e.occurrences,
                witness: e.witness,
            })
            .collect(),
        witnesses: r
            .witnesses
            .iter()
            .map(|w| WitnessJson {
                execution: w.witness.number,
                replay: w.token.clone(),
                threads: threads(&names, &w.witness.execution, sources),
                co: w
                    .witness
                    .execution
                    .graph
                    .co
                    .iter()
                    .map(|(loc, ws)| CoJson {
                        location: names.loc(*loc),
                        order: std::iter::once("init".to_string())
                            .chain(ws.iter().map(|w| Names::event(*w)))
                            .collect(),
                    })
                    .collect(),
            })
            .collect(),
        outcomes: r.outcomes.as_ref().map(|o| {
            o.iter()
                .map(|(state, n)| OutcomeJson {
                    state: state.clone(),
                    executions: *n,
                })
                .collect()
        }),
        summary: r.summary.map(|s| SummaryJson {
            executions: s.executions,
            blocked: s.blocked,
            cut: s.cut,
            spin_blocked: s.spin_blocked,
            bounded: s.bounded,
            states: s.states,
            inconsistent: s.inconsistent,
            seconds: s.seconds,
            peak_memory_kib: s.peak_kib,
        }),
    }
}

/// The memory location an error is about, when there is one (a race's
/// location, an out-of-bounds or uninitialised slot).
fn location(names: &Names<'_>, f: &Finding) -> Option<String> {
    match f {
        Finding::Race(r) => Some(names.loc(r.loc)),
        Finding::Fault(t) => match &t.fault.kind {
            FaultKind::OutOfBounds { array, index, .. }
            | FaultKind::UninitialisedMemory { array, index } => {
                Some(format!("{}[{index}]", names.array(*array)))
            }
            FaultKind::NegativeIndex { array, index } => {
                Some(format!("{}[{index}]", names.array(*array)))
            }
            _ => None,
        },
        _ => None,
    }
}

fn threads(names: &Names<'_>, exec: &Execution, sources: &SourceMap) -> Vec<ThreadJson> {
    let g = &exec.graph;
    g.threads
        .iter()
        .enumerate()
        .map(|(t, id)| {
            let end = exec
                .assertion_failures
                .iter()
                .find(|a| a.thread == *id)
                .map(|a| format!("assertion violated: {}", a.message))
                .or_else(|| {
                    exec.faults
                        .iter()
                        .find(|f| f.thread == *id)
                        .map(|f| names.fault(&f.fault.kind))
                })
                .or_else(|| {
                    exec.blocked
                        .iter()
                        .any(|(b, _)| b == id)
                        .then(|| "blocked at a barrier".to_string())
                });
            ThreadJson {
                id: format!("T{t}"),
                block: id.block,
                thread: id.thread,
                end,
                events: g.events[t]
                    .iter()
                    .map(|e| {
                        let at = sources.location(e.span);
                        EventJson {
                            id: Names::event(e.id),
                            kind: match e.kind {
                                Kind::Read => "read",
                                Kind::Write => "write",
                                Kind::Update => "update",
                                Kind::Fence => "fence",
                                Kind::Barrier => "barrier",
                            },
                            location: e.loc.map(|l| names.loc(l)),
                            read_value: e.read_value.map(Names::value),
                            written_value: e.written_value.map(Names::value),
                            rf: g.rf.get(&e.id).map(|s| Names::source(*s)),
                            order: Names::order(e).split(' ').next().unwrap_or("").to_string(),
                            scope: e.scope.map(|s| s.name()),
                            barrier: e
                                .barrier
                                .map(|b| format!("{} #{}", group(b.group), b.generation)),
                            line: at.map(|l| l.line),
                            column: at.map(|l| l.col),
                            excerpt: names.excerpt(e.span),
                        }
                    })
                    .collect(),
            }
        })
        .collect()
}
