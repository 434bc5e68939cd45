//! `warpsafe check --format json`: the same report as the text output, as
//! one JSON object (serde).
//!
//! Shape (every field always present; `null` when it does not apply):
//!
//! ```text
//! { "file", "solver": "z3"|"cvc5",
//!   "kernels": [ { "kernel", "verdict": "drf"|"racy"|"divergent"|"unknown",
//!       "launch": { "block_dim": [null|int; 3], "grid_dim": [null|int; 3],
//!                   "notes": [string] },  // what was assumed (null: any)
//!       "reason": null|string,          // why UNKNOWN
//!       "location": null|LOC,           // the construct that made it UNKNOWN
//!       "races": [ { "array", "space": "global"|"shared"|..,
//!           "scope": "same-block"|"cross-block",
//!           "certainty": "provable"|"possible", "reasons": [string],
//!           "accesses": [ { "thread": 1|2, "kind": "read"|"write", "atomic": bool,
//!                           "location": LOC } ],      // two
//!           "witness": null | { "threads": [THREAD, THREAD],
//!               "block_dim": null|DIMS, "grid_dim": null|DIMS,   // when symbolic
//!               "params": { NAME: int },
//!               "loop_vars": [ { "thread": 1|2|null, "name", "value": int } ],
//!               "index": int,                 // the slot both threads access
//!               "element": string },         // it as C names it: "tile[17][0]"
//!           "confirmation": { "status": "confirmed"|"related"|"not-shown"|"not-run",
//!               "detail": string, "replay": null|string } } ],  // --confirm only
//!       "divergences": [ { "location": LOC, "reason",
//!           "certainty": "provable"|"possible", "reasons": [string],
//!           "threads": null|[THREAD, THREAD],
//!           "params": { NAME: int } } ],   // those the barrier's condition reads
//!       "assertions": [ { "message", "location": LOC,
//!           "outcome": "holds"|"fails"|"unknown",
//!           "certainty": null|"provable"|"possible", "reasons": [string],
//!           "reason": null|string,      // why unknown
//!           "witness": null | { "thread": THREAD, "block_dim", "grid_dim",
//!                               "params", "loop_vars" } } ],
//!       "notes": [string],
//!       "protocol": null|string, "aligned": null|string, "smt": null|string } ],
//!   "diagnostics": [ { "severity", "code", "message", "file", "line", "column",
//!                      "notes" } ] }
//! THREAD = { "block_idx": DIMS, "thread_idx": DIMS }    DIMS = [x, y, z]
//! LOC = { "file", "line", "column", "excerpt" }
//! ```
//!
//! Races, divergences and assertions are in the order of the text report.
//! A loop variable with `"thread": null` belongs to a synchronized loop and
//! is shared by both threads (its name says which iteration: `x (previous
//! iteration)`). `protocol`, `aligned` and `smt` hold the `--dump` texts.
//! An input that cannot be checked at all (a missing file, no kernel, an
//! unknown `--param`, a missing solver) prints `{ "file", "error",
//! "diagnostics" }` instead, with exit status 2.
//!
//! A run over several files, a folder or a shard prints
//! `{ "solver", "files": [FILE], "summary": SUMMARY }`, where FILE is the
//! object above without `solver` (or `{ "file", "error", "diagnostics" }`
//! for a file that could not be read) and SUMMARY = `{ "files", "kernels",
//! "drf", "racy", "divergent", "unknown", "assertion_failures",
//! "file_errors" }`. `warpsafe merge` joins such outputs (shards) into one
//! of the same shape: files ordered by path, the kernels of a file that
//! several shards checked ordered by name.
//! Invariant: the field names and nesting above are what
//! `crates/cli/tests/check.rs` checks; change both together.

use super::confirm::Confirmation;
use super::summary::Counts;
use super::{KernelResult, Unit};
use anyhow::{bail, Result};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::{json, Value};
use std::path::Path;
use warpsafe_ir::Span;
use warpsafe_report::JsonDiagnostic;
use warpsafe_smt::SolverKind;
use warpsafe_source::SourceMap;
use warpsafe_static::{
    AccessMode, AssertOutcome, Certainty, LoopValue, RaceScope, ThreadId, Verdict,
};

#[derive(Serialize)]
struct Run<'a> {
    file: String,
    solver: &'static str,
    kernels: Vec<KernelJson<'a>>,
    diagnostics: &'a [JsonDiagnostic],
}

#[derive(Serialize)]
struct KernelJson<'a> {
    kernel: &'a str,
    verdict: &'static str,
    launch: LaunchJson,
    reason: Option<&'a str>,
    location: Option<Loc>,
    races: Vec<RaceJson<'a>>,
    divergences: Vec<DivergenceJson<'a>>,
    assertions: Vec<AssertJson<'a>>,
    notes: &'a [String],
    protocol: Option<&'a str>,
    aligned: Option<&'a str>,
    smt: Option<String>,
}

/// The dimensions a kernel was checked for (`None`: any size CUDA
/// allows) and where each known one comes from.
#[derive(Serialize)]
struct LaunchJson {
    block_dim: [Option<u64>; 3],
    grid_dim: [Option<u64>; 3],
    notes: Vec<String>,
}

#[derive(Serialize)]
struct Loc {
    file: Option<String>,
    line: Option<u32>,
    column: Option<u32>,
    excerpt: String,
}

#[derive(Serialize)]
struct RaceJson<'a> {
    array: &'a str,
    space: &'static str,
    scope: &'static str,
    certainty: &'static str,
    reasons: &'a [String],
    accesses: [AccessJson; 2],
    witness: Option<WitnessJson<'a>>,
    /// `--confirm` only.
    #[serde(skip_serializing_if = "Option::is_none")]
    confirmation: Option<ConfirmationJson>,
}

/// What running the witness launch showed (`--confirm`).
#[derive(Serialize)]
struct ConfirmationJson {
    /// `confirmed`, `related` (a race at one of the statements with
    /// another), `not-shown` or `not-run`.
    status: &'static str,
    /// The sentence the text output prints.
    detail: String,
    /// The `warpsafe run` replay token of a confirmed race.
    replay: Option<String>,
}

#[derive(Serialize)]
struct AccessJson {
    thread: u8,
    kind: &'static str,
    atomic: bool,
    location: Loc,
}

#[derive(Serialize)]
struct ThreadJson {
    block_idx: [u64; 3],
    thread_idx: [u64; 3],
}

#[derive(Serialize)]
struct WitnessJson<'a> {
    threads: [ThreadJson; 2],
    block_dim: Option<[u64; 3]>,
    grid_dim: Option<[u64; 3]>,
    params: Params<'a>,
    loop_vars: Vec<LoopJson<'a>>,
    index: i128,
    element: String,
}

/// Parameter values as a JSON object, in the kernel's parameter order.
struct Params<'a>(&'a [(String, i128)]);

impl Serialize for Params<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (name, value) in self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

#[derive(Serialize)]
struct LoopJson<'a> {
    thread: Option<u8>,
    name: &'a str,
    value: i128,
}

#[derive(Serialize)]
struct DivergenceJson<'a> {
    location: Loc,
    reason: &'a str,
    certainty: &'static str,
    reasons: &'a [String],
    threads: Option<[ThreadJson; 2]>,
    params: Params<'a>,
}

#[derive(Serialize)]
struct AssertJson<'a> {
    message: &'a str,
    location: Loc,
    outcome: &'static str,
    certainty: Option<&'static str>,
    reasons: &'a [String],
    reason: Option<&'a str>,
    witness: Option<AssertWitnessJson<'a>>,
}

#[derive(Serialize)]
struct AssertWitnessJson<'a> {
    thread: ThreadJson,
    block_dim: Option<[u64; 3]>,
    grid_dim: Option<[u64; 3]>,
    params: Params<'a>,
    loop_vars: Vec<LoopJson<'a>>,
}

/// The whole run as pretty-printed JSON.
pub fn run(
    file: &Path,
    solver: SolverKind,
    results: &[KernelResult<'_>],
    diagnostics: &[JsonDiagnostic],
    sources: &SourceMap,
) -> String {
    let run = Run {
        file: file.display().to_string(),
        solver: solver.name(),
        kernels: results.iter().map(|r| kernel(r, sources)).collect(),
        diagnostics,
    };
    serde_json::to_string_pretty(&run).unwrap_or_else(|e| error(file, &e.to_string(), &[]))
}

/// One file of a many-file run.
#[derive(Serialize)]
struct FileJson<'a> {
    file: String,
    kernels: Vec<KernelJson<'a>>,
    diagnostics: Vec<JsonDiagnostic>,
}

/// A run over several files (see the module doc for the shape).
pub fn many(solver: SolverKind, units: &[Unit], results: &[Vec<KernelResult<'_>>]) -> String {
    let files: Vec<Value> = units
        .iter()
        .zip(results)
        .map(|(u, rs)| {
            let file = u.path.display().to_string();
            let diagnostics = u.diagnostics_json();
            match &u.loaded {
                Ok(l) => serde_json::to_value(FileJson {
                    file,
                    kernels: rs.iter().map(|r| kernel(r, &l.sources)).collect(),
                    diagnostics,
                }),
                Err(e) => Ok(json!({ "file": file, "error": e, "diagnostics": diagnostics })),
            }
            .unwrap_or_else(|e| json!({ "file": u.path.display().to_string(), "error": e.to_string(), "diagnostics": [] }))
        })
        .collect();
    many_json(solver.name(), files)
}

fn many_json(solver: &str, files: Vec<Value>) -> String {
    let summary = Counts::of_json(&files);
    let out = json!({ "solver": solver, "files": files, "summary": summary });
    serde_json::to_string_pretty(&out).expect("invariant: JSON values serialise")
}

/// Joins JSON outputs of `check` (shards of one run, one-file or
/// many-file): see the module doc.
pub fn merge(inputs: &[(String, Value)]) -> Result<String> {
    let mut solver: Option<String> = None;
    let mut files: Vec<Value> = Vec::new();
    for (name, v) in inputs {
        let entries: Vec<Value> = match (v.get("files"), v.get("file")) {
            (Some(Value::Array(fs)), _) => fs.clone(),
            (None, Some(_)) => {
                let mut one = v.clone();
                if let Some(m) = one.as_object_mut() {
                    m.remove("solver");
                }
                vec![one]
            }
            _ => bail!("`{name}` is not the JSON output of `warpsafe check`"),
        };
        if let Some(s) = v.get("solver").and_then(Value::as_str) {
            match &solver {
                Some(t) if t != s => {
                    bail!("`{name}` was checked with {s}, an earlier input with {t}")
                }
                _ => solver = Some(s.to_string()),
            }
        }
        for e in entries {
            let Some(path) = e.get("file").and_then(Value::as_str).map(str::to_string) else {
                bail!("`{name}` has a file entry without a `file`");
            };
            match files.iter_mut().find(|f| f["file"] == path.as_str()) {
                None => files.push(e),
                Some(f) => {
                    let more = e["kernels"].as_array().cloned().unwrap_or_default();
                    if let Some(ks) = f.get_mut("kernels").and_then(Value::as_array_mut) {
                        ks.extend(more);
                    } else if !more.is_empty() {
                        f["kernels"] = Value::Array(more);
                    }
                }
            }
        }
    }
    files.sort_by(|a, b| a["file"].as_str().cmp(&b["file"].as_str()));
    for f in &mut files {
        if let Some(ks) = f.get_mut("kernels").and_then(Value::as_array_mut) {
            ks.sort_by(|a, b| a["kernel"].as_str().cmp(&b["kernel"].as_str()));
        }
    }
    Ok(many_json(solver.as_deref().unwrap_or("z3"), files))
}

/// A run that could not check anything.
pub fn error(file: &Path, message: &str, diagnostics: &[JsonDiagnostic]) -> String {
    #[derive(Serialize)]
    struct ErrorJson<'a> {
        file: String,
        error: &'a str,
        diagnostics: &'a [JsonDiagnostic],
    }
    let e = ErrorJson {
        file: file.display().to_string(),
        error: message,
        diagnostics,
    };
    serde_json::to_string(&e).unwrap_or_else(|_| String::from("{}"))
}

const NO_REASONS: &[String] = &[];

/// `("provable"|"possible", reasons)`.
pub(super) fn certainty(c: &Certainty) -> (&'static str, &[String]) {
    match c {
        Certainty::Provable => ("provable", NO_REASONS),
        Certainty::Possible { reasons } => ("possible", reasons),
    }
}

fn thread(t: &ThreadId) -> ThreadJson {
    ThreadJson {
        block_idx: t.block_idx,
        thread_idx: t.thread_idx,
    }
}

fn loop_vars(vs: &[LoopValue]) -> Vec<LoopJson<'_>> {
    vs.iter()
        .map(|l| LoopJson {
            thread: (l.thread != 0).then_some(l.thread),
            name: &l.name,
            value: l.value,
        })
        .collect()
}

fn loc(sources: &SourceMap, span: Span) -> Loc {
    let at = sources.location(span);
    Loc {
        file: sources.get(span.file).map(|f| f.name.clone()),
        line: at.map(|l| l.line),
        column: at.map(|l| l.col),
        excerpt: excerpt(sources, span),
    }
}

/// The first line of the span's text, at most 60 characters (`...` when
/// cut).
fn excerpt(sources: &SourceMap, span: Span) -> String {
    let text = sources.snippet(span).trim();
    let line = text.lines().next().unwrap_or("").trim();
    let mut s: String = line.chars().take(60).collect();
    if text.lines().nth(1).is_some() || line.chars().count() > 60 {
        s.push_str(" ...");
    }
    s
}

/// The `verdict` field: `drf`, `racy`, `divergent` or `unknown`.
pub(super) fn verdict_name(v: &Verdict) -> &'static str {
    match v {
        Verdict::Drf => "drf",
        Verdict::Racy(_) => "racy",
        Verdict::Divergent(_) => "divergent",
        Verdict::Unknown { .. } => "unknown",
    }
}

fn kernel<'a>(r: &'a KernelResult<'_>, sources: &SourceMap) -> KernelJson<'a> {
    let report = &r.report;
    let verdict = verdict_name(&report.verdict);
    let (reason, location) = match &report.verdict {
        Verdict::Unknown { reason, span } => (Some(reason.as_str()), span.map(|s| loc(sources, s))),
        _ => (None, None),
    };
    let file = &sources.file(r.kernel.span.file).name;
    let races = report
        .verdict
        .races()
        .iter()
        .enumerate()
        .map(|(i, race)| {
            let (c, reasons) = certainty(&race.certainty);
            let access = |n: u8, a: &warpsafe_static::RaceAccess| AccessJson {
                thread: n,
                kind: match a.mode {
                    AccessMode::Read => "read",
                    AccessMode::Write => "write",
                },
                atomic: a.atomic,
                location: loc(sources, a.span),
            };
            RaceJson {
                array: &race.array_name,
                space: race.space.name(),
                scope: match race.scope {
                    RaceScope::SameBlock => "same-block",
                    RaceScope::CrossBlock => "cross-block",
                },
                certainty: c,
                reasons,
                accesses: [access(1, &race.first), access(2, &race.second)],
                witness: race.witness.as_ref().map(|w| WitnessJson {
                    threads: [thread(&w.threads[0]), thread(&w.threads[1])],
                    block_dim: w.block_dim,
                    grid_dim: w.grid_dim,
                    params: Params(&w.params),
                    loop_vars: loop_vars(&w.loop_vars),
                    index: w.index,
                    element: super::text::element(r.kernel, race.array, w.index),
                }),
                confirmation: r.confirmations.get(i).map(|c| ConfirmationJson {
                    status: match c {
                        Confirmation::Confirmed { .. } => "confirmed",
                        Confirmation::Related { .. } => "related",
                        Confirmation::NotShown { .. } => "not-shown",
                        Confirmation::NotRun(_) => "not-run",
                    },
                    detail: super::text::confirmation(c, file),
                    replay: match c {
                        Confirmation::Confirmed { token, .. }
                        | Confirmation::Related { token, .. } => Some(token.clone()),
                        _ => None,
                    },
                }),
            }
        })
        .collect();
    let divergences = match &report.verdict {
        Verdict::Divergent(ds) => ds
            .iter()
            .map(|d| {
                let (c, reasons) = certainty(&d.certainty);
                DivergenceJson {
                    location: loc(sources, d.span),
                    reason: &d.reason,
                    certainty: c,
                    reasons,
                    threads: d.threads.as_ref().map(|[a, b]| [thread(a), thread(b)]),
                    params: Params(&d.params),
                }
            })
            .collect(),
        _ => Vec::new(),
    };
    let assertions = report
        .asserts
        .iter()
        .map(|a| {
            let mut j = AssertJson {
                message: &a.message,
                location: loc(sources, a.span),
                outcome: "holds",
                certainty: None,
                reasons: NO_REASONS,
                reason: None,
                witness: None,
            };
            match &a.outcome {
                AssertOutcome::Holds => {}
                AssertOutcome::Fails {
                    certainty: cert,
                    witness,
                } => {
                    let (c, reasons) = certainty(cert);
                    j.outcome = "fails";
                    j.certainty = Some(c);
                    j.reasons = reasons;
                    j.witness = witness.as_ref().map(|w| AssertWitnessJson {
                        thread: thread(&w.thread),
                        block_dim: w.block_dim,
                        grid_dim: w.grid_dim,
                        params: Params(&w.params),
                        loop_vars: loop_vars(&w.loop_vars),
                    });
                }
                AssertOutcome::Unknown { reason } => {
                    j.outcome = "unknown";
                    j.reason = Some(reason);
                }
            }
            j
        })
        .collect();
    let l = &r.kernel.launch;
    let launch = LaunchJson {
        block_dim: [0, 1, 2].map(|d| l.block_dim(d)),
        grid_dim: [0, 1, 2].map(|d| l.grid_dim(d)),
        notes: super::text::launch_notes(l, sources),
    };
    KernelJson {
        kernel: &r.kernel.name,
        verdict,
        launch,
        reason,
        location,
        races,
        divergences,
        assertions,
        notes: &report.notes,
        protocol: r.protocol.as_deref(),
        aligned: r.aligned.as_deref(),
        smt: report.transcript.as_ref().map(ToString::to_string),
    }
}
