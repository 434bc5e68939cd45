//! `warpsafe run --format json`: the text report as one JSON object.
//!
//! Shape (every field always present; `null` when it does not apply):
//!
//! ```text
//! { "file", "engine": "schedule", "delay_bound", "replay": bool,
//!   "kernels": [ { "kernel", "verdict": "errors-found"|"no-error-found"|"no-error"|"unknown",
//!                  "reason", "grid": [x,y,z], "block": [x,y,z], "notes": [..],
//!                  "errors": [ { "kind", "message", "location", "details": [..],
//!                                "schedules", "delays": [ {"block","thread","atomic"} ],
//!                                "replay" } ],
//!                  "final_difference": null | { "first", "second",
//!                        "locations": [ { "location", "first", "second" } ] },
//!                  "warnings": [..], "cut": [..],
//!                  "outcomes": null | [ { "state", "schedules" } ],
//!                  "summary": { "schedules", "exhaustive", "pending", "cut",
//!                               "events", "steps", "seconds", "peak_memory_kib" } } ] }
//! ```
//!
//! `exhaustive`: every delay list up to the bound ran (still no proof).

use super::result::{KernelRun, Verdict};
use super::RunArgs;
use serde::Serialize;
use warpsafe_mc::witness::Names;
use warpsafe_sched::{DelayPoint, Finding};
use warpsafe_source::SourceMap;

#[derive(Serialize)]
struct RunJson<'a> {
    file: String,
    engine: &'static str,
    delay_bound: usize,
    replay: bool,
    kernels: Vec<KernelJson<'a>>,
}

#[derive(Serialize)]
struct KernelJson<'a> {
    kernel: &'a str,
    verdict: &'static str,
    reason: Option<String>,
    grid: [u32; 3],
    block: [u32; 3],
    notes: &'a [String],
    errors: Vec<ErrorJson>,
    final_difference: Option<DifferenceJson>,
    warnings: Vec<String>,
    cut: Vec<String>,
    outcomes: Option<Vec<OutcomeJson>>,
    summary: SummaryJson,
}

#[derive(Serialize)]
struct ErrorJson {
    kind: &'static str,
    message: String,
    location: String,
    details: Vec<String>,
    schedules: usize,
    delays: Vec<DelayJson>,
    replay: String,
}

#[derive(Serialize)]
struct DelayJson {
    block: u64,
    thread: u64,
    /// The thread's atomic access, from 1.
    atomic: u32,
}

#[derive(Serialize)]
struct DifferenceJson {
    first: String,
    second: String,
    locations: Vec<LocationDiff>,
}

#[derive(Serialize)]
struct LocationDiff {
    location: String,
    first: Option<String>,
    second: Option<String>,
}

#[derive(Serialize)]
struct OutcomeJson {
    state: String,
    schedules: usize,
}

#[derive(Serialize)]
struct SummaryJson {
    schedules: usize,
    exhaustive: bool,
    pending: usize,
    cut: usize,
    events: u64,
    steps: u64,
    seconds: f64,
    peak_memory_kib: Option<u64>,
}

fn delays(ds: &[DelayPoint], tpb: u64) -> Vec<DelayJson> {
    ds.iter()
        .map(|p| DelayJson {
            block: u64::from(p.thread) / tpb,
            thread: u64::from(p.thread) % tpb,
            atomic: p.op + 1,
        })
        .collect()
}

fn location(names: &Names<'_>, f: &Finding) -> String {
    names.describe(f.key().span)
}

pub fn run(args: &RunArgs, results: &[KernelRun<'_>], sources: &SourceMap) -> String {
    let kernels = results
        .iter()
        .map(|r| {
            let names = Names::new(r.kernel, sources);
            let tpb = r.threads_per_block();
            let errors = r
                .errors
                .iter()
                .map(|e| ErrorJson {
                    kind: e.finding.kind().name(),
                    message: super::text::headline(&names, &e.finding),
                    location: location(&names, &e.finding),
                    details: super::text::details_of(&names, &e.finding),
                    schedules: e.schedules,
                    delays: delays(&e.delays, tpb),
                    replay: e.token.clone(),
                })
                .collect();
            let final_difference = match (&r.final_difference, &r.outcomes) {
                (Some((a, b, diffs)), Some(o)) => {
                    let tok = |i: usize| {
                        warpsafe_sched::token::encode(r.kernel, &r.launch, &o.outcomes[i].delays)
                    };
                    Some(DifferenceJson {
                        first: tok(*a),
                        second: tok(*b),
                        locations: diffs
                            .iter()
                            .map(|(l, va, vb)| LocationDiff {
                                location: names.loc(*l),
                                first: va.map(Names::value),
                                second: vb.map(Names::value),
                            })
                            .collect(),
                    })
                }
                _ => None,
            };
            KernelJson {
                kernel: &r.kernel.name,
                verdict: r.verdict.name(),
                reason: match &r.verdict {
                    Verdict::Unknown(why) => Some(why.clone()),
                    _ => None,
                },
                grid: r.launch.grid_dim,
                block: r.launch.block_dim,
                notes: &r.notes,
                errors,
                final_difference,
                warnings: r
                    .warnings
                    .iter()
                    .map(|w| super::text::warning(&names, w))
                    .collect(),
                cut: r
                    .cuts
                    .iter()
                    .map(|(c, _)| super::text::cut_text(&names, c))
                    .collect(),
                outcomes: r.outcomes.as_ref().filter(|_| args.outcomes).map(|o| {
                    o.outcomes
                        .iter()
                        .map(|out| OutcomeJson {
                            state: out
                                .memory
                                .iter()
                                .map(|(l, v)| format!("{}={}", names.loc(*l), Names::value(*v)))
                                .collect::<Vec<_>>()
                                .join(" "),
                            schedules: out.schedules,
                        })
                        .collect()
                }),
                summary: SummaryJson {
                    schedules: r.search.schedules,
                    exhaustive: r.search.exhausted,
                    pending: r.search.pending + r.search.dropped,
                    cut: r.cut_runs,
                    events: r.events,
                    steps: r.steps,
                    seconds: r.seconds,
                    peak_memory_kib: r.peak_kib,
                },
            }
        })
        .collect();
    let out = RunJson {
        file: args.file.display().to_string(),
        engine: "schedule",
        delay_bound: args.delays,
        replay: args.replay.is_some(),
        kernels,
    };
    serde_json::to_string_pretty(&out).expect("the report serialises (plain data)")
}
