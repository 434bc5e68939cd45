//! The text output of `warpsafe run`: per kernel, the verdict line, the
//! launch, each distinct error with the accesses or threads involved and
//! the schedule that shows it (its delays and replay token), warnings,
//! runs cut short, final states, and a summary line.
//!
//! Invariant: everything but the time and memory figures and the replay
//! tokens' fingerprints is a function of the kernel and the flags.

use super::result::{KernelRun, Verdict};
use super::RunArgs;
use crate::explore::result::count;
use std::fmt::Write;
use warpsafe_mc::witness::Names;
use warpsafe_mc::{RaceKind, ThreadId};
use warpsafe_sched::{Access, Cut, DelayPoint, Finding, Warning};
use warpsafe_source::SourceMap;

/// Errors listed per kernel.
const MAX_ERRORS_LISTED: usize = 10;

pub fn kernel(r: &KernelRun<'_>, sources: &SourceMap, args: &RunArgs) -> String {
    let names = Names::new(r.kernel, sources);
    let mut o = String::new();
    let name = &r.kernel.name;
    let schedules = count(r.search.schedules, "schedule");
    let bound = format!("up to {}", count(r.delay_bound, "delay"));
    let _ = match &r.verdict {
        Verdict::ErrorsFound => {
            let n = r.errors.len() + usize::from(r.final_difference.is_some());
            writeln!(o, "kernel {name}: ERRORS FOUND ({})", count(n, "distinct error"))
        }
        Verdict::NoErrorFound if r.search.exhausted => writeln!(
            o,
            "kernel {name}: NO ERROR FOUND in {schedules} (every schedule with {bound} where atomics conflict; a bounded search, not a proof)"
        ),
        Verdict::NoErrorFound => writeln!(
            o,
            "kernel {name}: NO ERROR FOUND in {schedules} (the search stopped early: {}; a bounded search, not a proof)",
            stop(r)
        ),
        Verdict::NoErrorInReplay => writeln!(o, "kernel {name}: no error in this schedule"),
        Verdict::Unknown(reason) => writeln!(o, "kernel {name}: UNKNOWN ({reason})"),
        // The schedule explorer is bounded (warpsafe_explore::cd).
        Verdict::Safe => writeln!(o, "kernel {name}: SAFE in {schedules}"),
    };
    if r.ran() {
        let (g, b) = (r.launch.grid_dim, r.launch.block_dim);
        let _ = writeln!(
            o,
            "  launch: grid ({},{},{}), block ({},{},{}): {}",
            g[0],
            g[1],
            g[2],
            b[0],
            b[1],
            b[2],
            count(r.launch.threads() as usize, "thread")
        );
    }
    for note in &r.notes {
        let _ = writeln!(o, "  note: {note}");
    }
    let tpb = r.threads_per_block();
    let listed = if args.all {
        r.errors.len()
    } else {
        r.errors.len().min(MAX_ERRORS_LISTED)
    };
    for e in &r.errors[..listed] {
        let seen = if r.search.schedules > 1 {
            format!(" (in {} of {schedules})", e.schedules)
        } else {
            String::new()
        };
        let _ = writeln!(o, "  error: {}{seen}", headline(&names, &e.finding));
        for d in details_of(&names, &e.finding) {
            let _ = writeln!(o, "    {d}");
        }
        let _ = writeln!(o, "    schedule: {}", schedule(&e.delays, tpb));
        let _ = writeln!(o, "    replay with --replay {}", e.token);
    }
    if listed < r.errors.len() {
        let _ = writeln!(
            o,
            "  ... and {} more (--all lists them)",
            count(r.errors.len() - listed, "error")
        );
    }
    if let (Some((a, b, diffs)), Some(outcomes)) = (&r.final_difference, &r.outcomes) {
        let _ = writeln!(
            o,
            "  error: final state differs between two schedules (global memory at the end)"
        );
        for (i, which) in [(*a, "first"), (*b, "second")] {
            let delays = &outcomes.outcomes[i].delays;
            let _ = writeln!(
                o,
                "    {which}: {}; replay with --replay {}",
                schedule(delays, tpb),
                warpsafe_sched::token::encode(r.kernel, &r.launch, delays)
            );
        }
        for (loc, va, vb) in diffs.iter().take(10) {
            let show = |v: &Option<warpsafe_interp::Value>| {
                v.map_or_else(|| "unwritten".to_string(), Names::value)
            };
            let _ = writeln!(o, "    {}: {} vs {}", names.loc(*loc), show(va), show(vb));
        }
        if diffs.len() > 10 {
            let _ = writeln!(
                o,
                "    ... and {} more",
                count(diffs.len() - 10, "location")
            );
        }
    }
    for w in &r.warnings {
        let _ = writeln!(o, "  warning: {}", warning(&names, w));
    }
    if r.cut_runs > 0 {
        for (cut, token) in &r.cuts {
            let _ = writeln!(o, "  cut: {}", cut_text(&names, cut));
            if !token.is_empty() && !matches!(cut, Cut::TimedOut) {
                let _ = writeln!(o, "    replay with --replay {token}");
            }
        }
        if r.cut_runs > 1 {
            let _ = writeln!(o, "  {} cut short", count(r.cut_runs, "schedule"));
        }
    }
    if let Some(outcomes) = r.outcomes.as_ref().filter(|_| args.outcomes) {
        let outcomes = &outcomes.outcomes;
        let _ = writeln!(o, "  outcomes: schedules, final global memory");
        for out in outcomes {
            let state: Vec<String> = out
                .memory
                .iter()
                .map(|(l, v)| format!("{}={}", names.loc(*l), Names::value(*v)))
                .collect();
            let _ = writeln!(o, "    {:>5}  {}", out.schedules, state.join(" "));
        }
    }
    if r.ran() && !r.replay {
        let memory = r
            .peak_kib
            .map(|k| format!(", peak memory {:.1} MiB", k as f64 / 1024.0))
            .unwrap_or_default();
        let not_run = r.search.pending + r.search.dropped;
        let pending = if not_run > 0 {
            format!(" ({} not run)", count(not_run, "delay list"))
        } else {
            String::new()
        };
        let _ = writeln!(
            o,
            "  summary: {schedules}{pending}, {} thread steps, {} memory events, {:.2} s{memory}",
            r.steps, r.events, r.seconds
        );
    }
    o
}

/// Why a search stopped early.
fn stop(r: &KernelRun<'_>) -> String {
    match r.search.limit {
        Some(warpsafe_sched::Limit::Schedules(n)) => format!("--max-schedules {n} reached"),
        Some(warpsafe_sched::Limit::TimedOut) => "--timeout passed".into(),
        Some(warpsafe_sched::Limit::Observer) | None => "stopped".into(),
    }
}

fn thread(linear: u32, tpb: u64) -> ThreadId {
    ThreadId {
        block: (u64::from(linear) / tpb) as u32,
        thread: (u64::from(linear) % tpb) as u32,
    }
}

/// A schedule in words.
pub fn schedule(delays: &[DelayPoint], tpb: u64) -> String {
    if delays.is_empty() {
        return "the canonical schedule (no delay)".into();
    }
    let points: Vec<String> = delays
        .iter()
        .map(|p| {
            format!(
                "{} before its atomic access #{}",
                thread(p.thread, tpb),
                p.op + 1
            )
        })
        .collect();
    format!("canonical, delaying {}", points.join(", then "))
}

/// An error's one-line headline.
pub fn headline(names: &Names<'_>, f: &Finding) -> String {
    match f {
        Finding::Race {
            kind: RaceKind::Data,
            loc,
            ..
        } => format!("data race on {}", names.loc(*loc)),
        Finding::Race { loc, .. } => format!(
            "heterogeneous race on {} (atomics whose scopes do not include each other)",
            names.loc(*loc)
        ),
        Finding::Assertion { message, .. } => format!("assertion violated: {message}"),
        Finding::Fault { fault, .. } => names.fault(&fault.kind),
        Finding::Divergence { .. } => {
            "barrier divergence: threads wait at a barrier that others of their group never reach"
                .into()
        }
        Finding::Hang { .. } => {
            "hang: threads spin in await loops that no thread left can release".into()
        }
    }
}

fn access(names: &Names<'_>, a: &Access) -> String {
    let what = match (a.write, a.atomic) {
        (true, None) => "write".to_string(),
        (false, None) => "read".to_string(),
        (true, Some(s)) => format!("atomic write ({})", s.name()),
        (false, Some(s)) => format!("atomic read ({})", s.name()),
    };
    format!(
        "{what} by {} at {}: {}",
        a.thread,
        names.describe(a.span),
        names.excerpt(a.span)
    )
}

fn list(threads: &[ThreadId]) -> String {
    let shown: Vec<String> = threads.iter().take(4).map(ToString::to_string).collect();
    let more = threads.len().saturating_sub(4);
    if more > 0 {
        format!("{} and {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

/// The lines under an error's headline.
pub fn details_of(names: &Names<'_>, f: &Finding) -> Vec<String> {
    let at = |span| format!("{}: {}", names.describe(span), names.excerpt(span));
    match f {
        Finding::Race { first, second, .. } => {
            vec![access(names, first), access(names, second)]
        }
        Finding::Assertion { thread, span, .. } => vec![format!("in {thread} at {}", at(*span))],
        Finding::Fault { thread, fault } => vec![format!("in {thread} at {}", at(fault.span))],
        Finding::Divergence {
            span,
            waiting,
            missing,
            other,
        } => {
            let mut v = vec![if waiting.is_empty() {
                format!("threads wait at {}", at(*span))
            } else {
                format!("{} wait at {}", list(waiting), at(*span))
            }];
            if !missing.is_empty() {
                v.push(format!("{} never reach it", list(missing)));
            }
            if let Some(o) = other {
                v.push(format!("another barrier is reached instead at {}", at(*o)));
            }
            v
        }
        Finding::Hang { threads, .. } => threads
            .iter()
            .take(4)
            .map(|(t, span)| format!("{t} spins in the loop at {}", at(*span)))
            .chain((threads.len() > 4).then(|| format!("... and {} more", threads.len() - 4)))
            .collect(),
    }
}

/// A warning in words.
pub fn warning(names: &Names<'_>, w: &Warning) -> String {
    match w {
        Warning::UninitialisedRead { thread, span, loc } => format!(
            "{thread} reads {} before any thread of its block wrote it, at {}: {} (the run read 0)",
            names.loc(*loc),
            names.describe(*span),
            names.excerpt(*span)
        ),
        Warning::UnknownValue { span, reason } => format!(
            "{reason} at {}: {} is unknown; the run used 0",
            names.describe(*span),
            names.excerpt(*span)
        ),
    }
}

/// Why a run was cut, in words.
pub fn cut_text(names: &Names<'_>, cut: &Cut) -> String {
    match cut {
        Cut::StepLimit {
            thread,
            limit,
            span,
        } => format!(
            "{thread} ran {limit} steps without ending, at {}: {} (--max-steps raises the limit)",
            names.describe(*span),
            names.excerpt(*span)
        ),
        Cut::Infeasible { thread, span } => format!(
            "the launch violates an assumption for {thread} at {}: {}",
            names.describe(*span),
            names.excerpt(*span)
        ),
        Cut::TimedOut => "the time limit passed during a schedule".into(),
    }
}
