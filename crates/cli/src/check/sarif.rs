//! `warpsafe check --format sarif`: the run as a SARIF 2.1.0 log, for
//! GitHub code scanning and IDEs, and `warpsafe merge` of such logs.
//!
//! One run; one result per race, divergent barrier, failing assertion and
//! unverified kernel or assertion. Rules (stable ids, documented in the
//! README): `data-race`, `barrier-divergence`, `assertion-failure`,
//! `not-verified`. Level: *provable* findings are `error`, *possible* ones
//! `warning`, unverified ones `note`. A race's location is its first
//! access; the second access is a related location (id 1) that the
//! message links to. The witness, kernel, certainty and reasons are in the
//! result's `properties`. Front-end diagnostics and files that could not
//! be read are the invocation's `toolExecutionNotifications`.
//! Invariant: the output validates against the SARIF 2.1.0 schema
//! (`crates/cli/tests/sarif.rs` checks it).

use super::{KernelResult, Unit};
use anyhow::{bail, Context, Result};
use serde::Serialize;
use serde_json::{json, Value};
use std::path::Path;
use warpsafe_ir::Span;
use warpsafe_source::{Diagnostic, Severity, SourceMap};
use warpsafe_static::{AccessMode, AssertOutcome, Certainty, Race, RaceScope, Verdict};

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// `(id, name, short description, help)`, in `ruleIndex` order.
pub const RULES: &[(&str, &str, &str, &str)] = &[
    (
        "data-race",
        "DataRace",
        "Two threads access the same memory without synchronisation, and one of them writes",
        "Order the two accesses with a barrier (__syncthreads() between threads of a block), make both atomic, or make them touch different locations.",
    ),
    (
        "barrier-divergence",
        "BarrierDivergence",
        "A barrier that some threads of a block reach and others do not",
        "Every thread of the block must reach each __syncthreads() (the same one, the same number of times): move the barrier out of the thread-dependent condition or loop.",
    ),
    (
        "assertion-failure",
        "AssertionFailure",
        "An assertion that a thread can reach with its condition false",
        "The witness gives the thread and values under which the assertion fails.",
    ),
    (
        "not-verified",
        "NotVerified",
        "A kernel or an assertion that warpsafe could neither prove nor refute",
        "The message says why (an unsupported construct, a solver timeout); a longer --timeout, concrete --param values or launch dimensions often help.",
    ),
];

fn rule_index(id: &str) -> usize {
    RULES
        .iter()
        .position(|r| r.0 == id)
        .expect("invariant: results use the rules of RULES")
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Value,
    locations: Vec<Value>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<Value>,
    properties: Value,
}

impl SarifResult {
    /// A result of `rule` (its `ruleIndex` follows from [`RULES`]) at
    /// `span`, with no related location.
    fn new(
        rule: &'static str,
        level: &'static str,
        text: String,
        sources: &SourceMap,
        span: Span,
        properties: Value,
    ) -> SarifResult {
        SarifResult {
            rule_id: rule,
            rule_index: rule_index(rule),
            level,
            message: json!({ "text": text }),
            locations: location(sources, span).into_iter().collect(),
            related_locations: Vec::new(),
            properties,
        }
    }
}

/// A file path as a URI reference: `/` separators, the characters URIs
/// reserve percent-encoded; absolute paths as `file://` URIs.
fn uri(path: &str) -> String {
    let mut out = String::new();
    let p = path.replace('\\', "/");
    if p.starts_with('/') {
        out.push_str("file://");
    }
    for b in p.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

fn physical(sources: &SourceMap, span: Span) -> Option<Value> {
    let f = sources.get(span.file)?;
    let lo = f.location(span.lo);
    let hi = f.location(span.hi.max(span.lo));
    let snippet = sources.snippet(span);
    let mut region = json!({
        "startLine": lo.line,
        "startColumn": lo.col,
        "endLine": hi.line,
        "endColumn": hi.col.max(if hi.line == lo.line { lo.col + 1 } else { 1 }),
    });
    if !snippet.is_empty() {
        region["snippet"] = json!({ "text": snippet });
    }
    Some(json!({
        "artifactLocation": { "uri": uri(&f.name) },
        "region": region,
    }))
}

fn location(sources: &SourceMap, span: Span) -> Option<Value> {
    physical(sources, span).map(|p| json!({ "physicalLocation": p }))
}

fn file_location(path: &Path) -> Value {
    json!({ "physicalLocation": { "artifactLocation": { "uri": uri(&path.display().to_string()) } } })
}

fn level(c: &Certainty) -> &'static str {
    match c {
        Certainty::Provable => "error",
        Certainty::Possible { .. } => "warning",
    }
}

fn mode(m: AccessMode, atomic: bool) -> String {
    let m = match m {
        AccessMode::Read => "read",
        AccessMode::Write => "write",
    };
    if atomic {
        format!("atomic {m}")
    } else {
        m.to_string()
    }
}

fn race_result(k: &KernelResult<'_>, r: &Race, sources: &SourceMap) -> SarifResult {
    let (certainty, reasons) = super::json::certainty(&r.certainty);
    let scope = match r.scope {
        RaceScope::SameBlock => "threads of one block",
        RaceScope::CrossBlock => "threads of different blocks",
    };
    let second_at = sources
        .location(r.second.span)
        .map_or(String::new(), |l| format!(" at line {}", l.line));
    let text = format!(
        "Data race on `{}` ({}) between {scope} in kernel `{}`: this {} and [a {}{second_at}](1) [{certainty}{}]",
        r.array_name,
        r.space.name(),
        k.kernel.name,
        mode(r.first.mode, r.first.atomic),
        mode(r.second.mode, r.second.atomic),
        if reasons.is_empty() { String::new() } else { format!(": {}", reasons.join("; ")) },
    );
    let mut result = SarifResult::new(
        "data-race",
        level(&r.certainty),
        text,
        sources,
        r.first.span,
        json!({
            "kernel": k.kernel.name,
            "certainty": certainty,
            "reasons": reasons,
            "witness": r.witness.as_ref().map(|w| format!(
                "{}, element {}",
                super::text::witness(w),
                super::text::element(k.kernel, r.array, w.index)
            )),
        }),
    );
    if let Some(p) = physical(sources, r.second.span) {
        result.related_locations.push(json!({
            "id": 1,
            "physicalLocation": p,
            "message": { "text": format!("thread 2: {}", mode(r.second.mode, r.second.atomic)) },
        }));
    }
    result
}

/// The results of one kernel.
fn kernel_results(k: &KernelResult<'_>, sources: &SourceMap) -> Vec<SarifResult> {
    let mut out = Vec::new();
    let name = &k.kernel.name;
    match &k.report.verdict {
        Verdict::Drf => {}
        Verdict::Racy(races) => out.extend(races.iter().map(|r| race_result(k, r, sources))),
        Verdict::Divergent(ds) => {
            for d in ds {
                let (certainty, reasons) = super::json::certainty(&d.certainty);
                out.push(SarifResult::new(
                    "barrier-divergence",
                    level(&d.certainty),
                    format!(
                        "Barrier divergence in kernel `{name}`: {} [{certainty}]",
                        d.reason
                    ),
                    sources,
                    d.span,
                    json!({
                        "kernel": name,
                        "certainty": certainty,
                        "reasons": reasons,
                        "witness": super::text::divergence_witness(d),
                    }),
                ));
            }
        }
        Verdict::Unknown { reason, span } => out.push(SarifResult::new(
            "not-verified",
            "note",
            format!("Kernel `{name}` was not verified: {reason}"),
            sources,
            span.unwrap_or(k.kernel.span),
            json!({ "kernel": name }),
        )),
    }
    for a in &k.report.asserts {
        match &a.outcome {
            AssertOutcome::Holds => {}
            AssertOutcome::Fails {
                certainty: c,
                witness,
            } => {
                let (certainty, reasons) = super::json::certainty(c);
                out.push(SarifResult::new(
                    "assertion-failure",
                    level(c),
                    format!(
                        "Assertion `{}` fails in kernel `{name}` [{certainty}]",
                        a.message
                    ),
                    sources,
                    a.span,
                    json!({
                        "kernel": name,
                        "certainty": certainty,
                        "reasons": reasons,
                        "witness": witness.as_ref().map(super::text::assert_witness),
                    }),
                ));
            }
            AssertOutcome::Unknown { reason } => out.push(SarifResult::new(
                "not-verified",
                "note",
                format!(
                    "Assertion `{}` in kernel `{name}` was not verified: {reason}",
                    a.message
                ),
                sources,
                a.span,
                json!({ "kernel": name }),
            )),
        }
    }
    out
}

fn notification(d: &Diagnostic, sources: &SourceMap) -> Value {
    let level = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    };
    let mut n = json!({
        "level": level,
        "message": { "text": d.message },
        "descriptor": { "id": d.code },
    });
    if let Some(l) = d.span.and_then(|s| location(sources, s)) {
        n["locations"] = json!([l]);
    }
    n
}

fn driver() -> Value {
    let rules: Vec<Value> = RULES
        .iter()
        .map(|(id, name, short, help)| {
            let level = match *id {
                "not-verified" => "note",
                _ => "error",
            };
            json!({
                "id": id,
                "name": name,
                "shortDescription": { "text": short },
                "help": { "text": help },
                "defaultConfiguration": { "level": level },
            })
        })
        .collect();
    json!({
        "name": "warpsafe",
        "version": env!("CARGO_PKG_VERSION"),
        "rules": rules,
    })
}

fn sarif_log(run: Value) -> String {
    let log = json!({ "$schema": SCHEMA, "version": "2.1.0", "runs": [run] });
    serde_json::to_string_pretty(&log).expect("invariant: JSON values serialise")
}

/// The whole run as a SARIF log.
pub fn log(units: &[Unit], results: &[Vec<KernelResult<'_>>]) -> String {
    let mut out = Vec::new();
    let mut notifications = Vec::new();
    let mut ok = true;
    for (u, rs) in units.iter().zip(results) {
        match &u.loaded {
            Ok(l) => {
                notifications.extend(
                    l.output
                        .diagnostics
                        .iter()
                        .map(|d| notification(d, &l.sources)),
                );
                for r in rs {
                    out.extend(kernel_results(r, &l.sources));
                }
            }
            Err(e) => {
                ok = false;
                notifications.push(json!({
                    "level": "error",
                    "message": { "text": e },
                    "locations": [file_location(&u.path)],
                }));
            }
        }
    }
    sarif_log(json!({
        "tool": { "driver": driver() },
        "invocations": [{
            "executionSuccessful": ok,
            "toolExecutionNotifications": notifications,
        }],
        "columnKind": "unicodeCodePoints",
        "results": out,
    }))
}

/// A run that could not check anything.
pub fn error(message: &str) -> String {
    sarif_log(json!({
        "tool": { "driver": driver() },
        "invocations": [{
            "executionSuccessful": false,
            "toolExecutionNotifications": [{ "level": "error", "message": { "text": message } }],
        }],
        "results": [],
    }))
}

/// Joins SARIF logs of `check` (shards of one run): one run with every
/// result and notification, in the order of the inputs; the run is
/// successful when every input's is.
pub fn merge(logs: &[(String, Value)]) -> Result<String> {
    let mut results = Vec::new();
    let mut notifications = Vec::new();
    let mut ok = true;
    for (name, l) in logs {
        if l["version"] != "2.1.0" {
            bail!("`{name}` is not a SARIF 2.1.0 log");
        }
        for run in l["runs"]
            .as_array()
            .with_context(|| format!("`{name}` has no runs"))?
        {
            if run["tool"]["driver"]["name"] != "warpsafe" {
                bail!("`{name}` is not a warpsafe log");
            }
            results.extend(run["results"].as_array().into_iter().flatten().cloned());
            for inv in run["invocations"].as_array().into_iter().flatten() {
                ok &= inv["executionSuccessful"].as_bool().unwrap_or(false);
                // Shards read the same files, so each repeats the front
                // end's notifications: keep one of each.
                for n in inv["toolExecutionNotifications"]
                    .as_array()
                    .into_iter()
                    .flatten()
                {
                    if !notifications.contains(n) {
                        notifications.push(n.clone());
                    }
                }
            }
        }
    }
    Ok(sarif_log(json!({
        "tool": { "driver": driver() },
        "invocations": [{
            "executionSuccessful": ok,
            "toolExecutionNotifications": notifications,
        }],
        "columnKind": "unicodeCodePoints",
        "results": results,
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_encoded() {
        assert_eq!(uri("src/a b.cu"), "src/a%20b.cu");
        assert_eq!(uri("/abs/k#1.cu"), "file:///abs/k%231.cu");
        assert_eq!(uri("d\\k.cu"), "d/k.cu");
    }
}
