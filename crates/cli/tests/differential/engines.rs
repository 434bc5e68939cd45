//! Running `warpsafe check` and `warpsafe explore --all` on one case and
//! reading their `--format json` reports (shapes documented in
//! `src/check/json.rs` and `src/explore/json.rs`) into what the comparison
//! needs: verdicts, racy pairs of source positions, divergences.

use super::ast::{Kernel, Launch};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// A source position `(line, column)` of an access.
pub type Pos = (u64, u64);

/// A racy pair of accesses, the smaller position first.
pub type Pair = (Pos, Pos);

fn pair(a: Pos, b: Pos) -> Pair {
    (a.min(b), a.max(b))
}

/// What `check` said about the kernel.
#[derive(Debug)]
pub enum Check {
    /// The input was not checked (a front-end error): no comparison.
    Rejected(String),
    Unknown(String),
    Drf,
    Racy {
        provable: BTreeSet<Pair>,
        possible: BTreeSet<Pair>,
    },
    Divergent {
        provable: bool,
    },
}

impl Check {
    /// The verdict in a word or two.
    pub fn name(&self) -> &'static str {
        match self {
            Check::Rejected(_) => "rejected",
            Check::Unknown(_) => "unknown",
            Check::Drf => "drf",
            Check::Racy { provable, .. } if provable.is_empty() => "racy (possible)",
            Check::Racy { .. } => "racy (provable)",
            Check::Divergent { provable: true } => "divergent (provable)",
            Check::Divergent { .. } => "divergent (possible)",
        }
    }
}

/// What `explore --all` said about the kernel.
#[derive(Debug)]
pub struct Explore {
    /// The verdict's name (`safe`, `errors-found`, `unknown`) or why there
    /// is none.
    pub verdict: String,
    /// Every execution was explored.
    pub complete: bool,
    pub races: BTreeSet<Pair>,
    pub divergence: bool,
    /// Errors other than races and divergence (`kind: message`).
    pub others: Vec<String>,
}

/// Flags shared by both engines: the launch and every scalar parameter.
fn launch_flags(kernel: &Kernel, launch: Launch) -> Vec<String> {
    let mut flags = vec![
        "--block-dim".to_string(),
        launch.block.to_string(),
        "--grid-dim".to_string(),
        launch.grid.to_string(),
        "--format".to_string(),
        "json".to_string(),
    ];
    for (i, v) in kernel.params.iter().enumerate() {
        flags.push("--param".to_string());
        flags.push(format!("n{i}={v}"));
    }
    flags
}

/// The command lines both engines run, for the failure report.
pub fn command_lines(
    kernel: &Kernel,
    launch: Launch,
    limits: Limits,
) -> (Vec<String>, Vec<String>) {
    let common = launch_flags(kernel, launch);
    // explore executes signed overflow wrapping, as GPUs do; check assumes
    // it away by default (undefined behaviour): compare like with like.
    // (The generator's arithmetic is unsigned, so it changes nothing today.)
    let mut check = vec![
        "check".to_string(),
        "--signed-wrap".to_string(),
        "--timeout".to_string(),
        "10".to_string(),
    ];
    check.extend(common.iter().cloned());
    let mut explore = vec![
        "explore".to_string(),
        "--all".to_string(),
        "--max-executions".to_string(),
        limits.max_executions.to_string(),
        "--timeout".to_string(),
        limits.explore_seconds.to_string(),
    ];
    explore.extend(common);
    for g in 0..kernel.globals {
        explore.push("--array".to_string());
        explore.push(format!("g{g}={}", kernel.len));
    }
    if kernel.pairs {
        explore.push("--array".to_string());
        explore.push(format!("gp={}", kernel.len));
    }
    (check, explore)
}

/// The schedule explorer's command line: `explore`'s launch, parameters
/// and arrays, every error (`--all`), at most `RUN_SCHEDULES` schedules.
pub fn run_command_line(explore_args: &[String]) -> Vec<String> {
    let mut run = vec![
        "run".to_string(),
        "--all".to_string(),
        "--bounded-ok".to_string(),
        "--max-schedules".to_string(),
        RUN_SCHEDULES.to_string(),
    ];
    // Drop explore's own limits (`--max-executions N`, `--timeout S`).
    let mut rest = explore_args[2..].iter();
    while let Some(a) = rest.next() {
        if a == "--max-executions" || a == "--timeout" {
            rest.next();
        } else {
            run.push(a.clone());
        }
    }
    run
}

/// Schedules `run` may take per case.
pub const RUN_SCHEDULES: u64 = 50;

/// How far `explore` may go on one case.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_executions: u64,
    pub explore_seconds: u64,
}

fn run(bin: &Path, file: &Path, args: &[String]) -> Result<serde_json::Value, String> {
    let out = Command::new(bin)
        .arg(&args[0])
        .arg(file)
        .args(&args[1..])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(&stdout).map_err(|e| {
        format!(
            "`{}` printed no JSON ({e}), exit {:?}: {stdout}\n{}",
            args[0],
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// Runs `check` on `file`.
pub fn check(bin: &Path, file: &Path, args: &[String]) -> Result<Check, String> {
    let v = run(bin, file, args)?;
    if let Some(e) = v.get("error") {
        return Ok(Check::Rejected(e.to_string()));
    }
    let k = &v["kernels"][0];
    if k.is_null() {
        return Ok(Check::Rejected(format!("no kernel: {}", v["diagnostics"])));
    }
    let races = |certainty: &str| -> BTreeSet<Pair> {
        k["races"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|r| r["certainty"] == certainty)
            .map(|r| {
                let at = |i: usize| {
                    let l = &r["accesses"][i]["location"];
                    (
                        l["line"].as_u64().unwrap_or(0),
                        l["column"].as_u64().unwrap_or(0),
                    )
                };
                pair(at(0), at(1))
            })
            .collect()
    };
    Ok(match k["verdict"].as_str() {
        Some("drf") => Check::Drf,
        Some("racy") => Check::Racy {
            provable: races("provable"),
            possible: races("possible"),
        },
        Some("divergent") => Check::Divergent {
            provable: k["divergences"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|d| d["certainty"] == "provable"),
        },
        _ => Check::Unknown(k["reason"].to_string()),
    })
}

/// Runs `explore` (or `run`, whose JSON errors have the same shape; it
/// never claims to be complete) on `file`, named `name` in its reports.
pub fn explore(bin: &Path, file: &Path, name: &str, args: &[String]) -> Result<Explore, String> {
    let v = run(bin, file, args)?;
    let k = &v["kernels"][0];
    if k.is_null() {
        return Ok(Explore {
            verdict: format!("no kernel: {v}"),
            complete: false,
            races: BTreeSet::new(),
            divergence: false,
            others: Vec::new(),
        });
    }
    let mut e = Explore {
        verdict: k["verdict"].as_str().unwrap_or("?").to_string(),
        complete: k["complete"] == true,
        races: BTreeSet::new(),
        divergence: false,
        others: Vec::new(),
    };
    for err in k["errors"].as_array().into_iter().flatten() {
        match err["kind"].as_str() {
            Some("data-race") => {
                let at: Vec<Pos> = err["details"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|d| position(d.as_str()?, name))
                    .collect();
                match at[..] {
                    [a, b] => {
                        e.races.insert(pair(a, b));
                    }
                    _ => e.others.push(format!("unreadable race: {err}")),
                }
            }
            Some("barrier-divergence") => e.divergence = true,
            kind => e.others.push(format!(
                "{}: {}",
                kind.unwrap_or("?"),
                err["message"].as_str().unwrap_or("?")
            )),
        }
    }
    Ok(e)
}

/// The `LINE:COL` after `name:` in a race detail line
/// (`write (non-atomic) by ... at /tmp/.../kernel.cu:4:3: s[t] = n`).
fn position(detail: &str, name: &str) -> Option<Pos> {
    let tag = format!("{name}:");
    let rest = &detail[detail.find(&tag)? + tag.len()..];
    let mut parts = rest.splitn(3, ':');
    let line = parts.next()?.parse().ok()?;
    let col = parts.next()?.parse().ok()?;
    Some((line, col))
}
