//! The comparison rules: when do `check` and `explore` disagree in the
//! unsound direction?
//!
//! - Divergence first (a divergent kernel is compared on divergence only):
//!   `explore` shows barrier divergence and `check` says DRF or RACY (it
//!   found the barriers aligned); or `check` proves a divergence and a
//!   complete `explore` never shows one.
//! - Races, when neither engine reports divergence: `explore` shows a race
//!   and `check` says DRF; `explore` shows a racy pair of accesses that
//!   `check`'s RACY report does not list (check claims to report every
//!   racy pair); or `check` calls a pair *provable* and a complete
//!   `explore --all` never shows it.
//! - UNKNOWN from `check`, *possible* races and incomplete explorations are
//!   allowed disagreements: the case is skipped or the rule not applied.
//! - Any other `explore` error (a fault, a hang) is a disagreement with the
//!   generator, which keeps every index in bounds and every loop finite.

use super::engines::{Check, Explore, Pair};
use std::fmt::Write;

/// How one case ended.
#[derive(Debug)]
pub enum Outcome {
    Agree,
    /// Nothing to compare, with the reason.
    Skipped(String),
    /// Unsound disagreements, one line each.
    Disagree(Vec<String>),
}

pub fn compare(check: &Check, explore: &Explore) -> Outcome {
    let mut bad = Vec::new();
    for o in &explore.others {
        bad.push(format!(
            "explore reports an error the generator rules out: {o}"
        ));
    }
    let check_divergent = matches!(check, Check::Divergent { .. });
    match check {
        Check::Rejected(why) => return Outcome::Skipped(format!("check rejected: {why}")),
        Check::Unknown(why) => {
            return finish(bad, || format!("check UNKNOWN: {why}"));
        }
        _ => {}
    }
    if explore.divergence || check_divergent {
        if explore.divergence && !check_divergent {
            bad.push("explore shows barrier divergence; check found the barriers aligned".into());
        }
        if let Check::Divergent { provable: true } = check {
            if explore.complete && !explore.divergence {
                bad.push(
                    "check proves barrier divergence; the complete exploration never shows it"
                        .into(),
                );
            }
        }
        return finish(bad, || "divergent".to_string());
    }
    if explore.verdict == "unknown" && explore.races.is_empty() && bad.is_empty() {
        return Outcome::Skipped(format!("explore {}", explore.verdict));
    }
    match check {
        Check::Drf if !explore.races.is_empty() => {
            bad.push(format!(
                "check says DRF; explore shows races {}",
                pairs(explore.races.iter())
            ));
        }
        Check::Racy { provable, possible } => {
            let missed: Vec<&Pair> = explore
                .races
                .iter()
                .filter(|p| !provable.contains(p) && !possible.contains(p))
                .collect();
            if !missed.is_empty() {
                bad.push(format!(
                    "explore shows racy pairs check does not report: {}",
                    pairs(missed.into_iter())
                ));
            }
            if explore.complete {
                let unseen: Vec<&Pair> = provable
                    .iter()
                    .filter(|p| !explore.races.contains(p))
                    .collect();
                if !unseen.is_empty() {
                    bad.push(format!(
                        "check calls pairs provable that the complete exploration never shows: {}",
                        pairs(unseen.into_iter())
                    ));
                }
            }
        }
        _ => {}
    }
    finish(bad, || "agree".to_string())
}

/// The schedule explorer (`warpsafe run`) against the other two: every
/// race or divergence it shows is real (it judges races by the
/// happens-before of an interleaving it ran), so `check` must report it as
/// it must report `explore`'s (the rules of [`compare`], for an incomplete
/// exploration), and a complete exploration must show it too.
pub fn compare_run(check: &Check, explore: &Explore, run: &Explore) -> Outcome {
    let mut bad = Vec::new();
    if let Outcome::Disagree(lines) = compare(check, run) {
        bad.extend(lines.into_iter().map(|l| format!("run: {l}")));
    }
    if explore.complete {
        let extra: Vec<&Pair> = run
            .races
            .iter()
            .filter(|p| !explore.races.contains(p))
            .collect();
        if !extra.is_empty() {
            bad.push(format!(
                "run shows racy pairs the complete exploration never shows: {}",
                pairs(extra.into_iter())
            ));
        }
        if run.divergence && !explore.divergence {
            bad.push("run shows divergence the complete exploration never shows".into());
        }
    }
    finish(bad, || "agree".to_string())
}

/// `Disagree` when `bad` has lines, else `Agree` (or `Skipped` when the
/// case had nothing comparable, per `skipped`'s reason unless "agree").
fn finish(bad: Vec<String>, why: impl FnOnce() -> String) -> Outcome {
    if !bad.is_empty() {
        return Outcome::Disagree(bad);
    }
    match why() {
        w if w == "agree" || w == "divergent" => Outcome::Agree,
        w => Outcome::Skipped(w),
    }
}

fn pairs<'a>(ps: impl Iterator<Item = &'a Pair>) -> String {
    let mut s = String::new();
    for ((l1, c1), (l2, c2)) in ps {
        let _ = write!(s, "[{l1}:{c1} / {l2}:{c2}] ");
    }
    s.trim_end().to_string()
}
