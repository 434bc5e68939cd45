//! The text report of `warpsafe check`, one kernel at a time: the dumps
//! asked for, the verdict (DRF, RACY with every racy pair and its witness,
//! DIVERGENT with every divergent barrier, UNKNOWN with the reason), the
//! assertions' outcomes, notes, and the SMT transcript (`--dump smt`).

use super::KernelResult;
use std::fmt::Write;
use warpsafe_source::SourceMap;
use warpsafe_static::{
    AccessMode, AssertCheck, AssertOutcome, AssertWitness, Certainty, Divergence, Race, RaceScope,
    ThreadId, Verdict, Witness,
};

/// One kernel's report.
pub fn kernel(r: &KernelResult<'_>, src: &SourceMap) -> String {
    let mut out = String::new();
    let name = &r.kernel.name;
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
                "kernel {name}: DRF (no data race and no barrier divergence)"
            );
        }
        Verdict::Racy(races) => {
            let _ = writeln!(out, "kernel {name}: RACY ({} race(s))", races.len());
            for race in races {
                print_race(&mut out, race, src);
            }
        }
        Verdict::Divergent(ds) => {
            let _ = writeln!(
                out,
                "kernel {name}: DIVERGENT ({} divergent barrier(s))",
                ds.len()
            );
            for d in ds {
                print_divergence(&mut out, d, src);
            }
            let _ = writeln!(
                out,
                "  note: data races are not checked in a kernel with barrier divergence"
            );
        }
        Verdict::Unknown { reason, span } => {
            let _ = match span {
                Some(s) => writeln!(
                    out,
                    "kernel {name}: UNKNOWN: {reason} ({})",
                    src.describe(*s)
                ),
                None => writeln!(out, "kernel {name}: UNKNOWN: {reason}"),
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
    print_asserts(&mut out, &report.asserts, src);
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

fn certainty(c: &Certainty) -> String {
    match c {
        Certainty::Provable => "provable".to_string(),
        Certainty::Possible { reasons } => format!("possible: {}", reasons.join("; ")),
    }
}

fn triple(t: [u64; 3]) -> String {
    format!("({},{},{})", t[0], t[1], t[2])
}

fn thread(t: &ThreadId) -> String {
    format!(
        "blockIdx={} threadIdx={}",
        triple(t.block_idx),
        triple(t.thread_idx)
    )
}

/// A count of the assertions that hold, and each one that fails (with its
/// witness) or is unknown.
fn print_asserts(out: &mut String, asserts: &[AssertCheck], src: &SourceMap) {
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
                    certainty(c)
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

fn assert_witness(w: &AssertWitness) -> String {
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
        parts.push(format!("{}={}", l.name, l.value));
    }
    parts.join(", ")
}

fn print_divergence(out: &mut String, d: &Divergence, src: &SourceMap) {
    let _ = writeln!(
        out,
        "  barrier at {}: {} [{}]",
        src.describe(d.span),
        d.reason,
        certainty(&d.certainty)
    );
    if let Some([a, b]) = &d.threads {
        let _ = writeln!(
            out,
            "    witness: thread 1: {}, thread 2: {}",
            thread(a),
            thread(b)
        );
    }
}

fn print_race(out: &mut String, r: &Race, src: &SourceMap) {
    let scope = match r.scope {
        RaceScope::SameBlock => "threads of one block",
        RaceScope::CrossBlock => "threads of different blocks",
    };
    let _ = writeln!(
        out,
        "  race on `{}` ({}) between {scope} [{}]",
        r.array_name,
        r.space.name(),
        certainty(&r.certainty)
    );
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
    }
    let _ = match &r.witness {
        Some(w) => writeln!(out, "    witness: {}", witness(w)),
        None => writeln!(out, "    (no witness: the model could not be read)"),
    };
}

fn witness(w: &Witness) -> String {
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
        if l.thread == 0 {
            // A synchronized loop's variable: the same for both threads.
            parts.push(format!("both threads: {}={}", l.name, l.value));
        } else {
            parts.push(format!("thread {}: {}={}", l.thread, l.name, l.value));
        }
    }
    parts.push(format!("index={}", w.index));
    parts.join(", ")
}
