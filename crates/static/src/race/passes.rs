//! The passes of one race check: one, or, in a kernel with warp or tile
//! barriers that can be modelled, one per pair class (`groups`), each a
//! [`Check`] with its own solver session; their races, inconclusive
//! queries and divergences merged into one result (one race per pair of
//! accesses, the most certain), and the aligned phases of the pass outside
//! every group for `--dump aligned`.

use super::{reasons::unmodelled_synchronisation, Check, Fatal, RaceConfig};
use crate::groups::{self, PairClass};
use crate::protocol::{Access, KernelProtocol};
use crate::verdict::{Certainty, Divergence, Race};
use warpsafe_ir::{Kernel, Span};
use warpsafe_smt::SolverConfig;
use warpsafe_source::SourceMap;

/// What the race check's passes found together.
pub(super) struct Passes {
    /// Why the passes inside warps or tiles could not align their
    /// barriers (the check then ran once with those barriers ordering
    /// nothing, so their divergence was not checked).
    pub(super) unaligned_groups: Option<(String, Span)>,
    pub(super) races: Vec<Race>,
    pub(super) inconclusive: Vec<(Access, Access, String)>,
    pub(super) divergences: Vec<Divergence>,
    pub(super) stopped_early: bool,
    pub(super) outcome: Result<Option<(String, Span)>, Fatal>,
    /// The aligned phases as text (`--dump aligned`), of the pass outside
    /// every warp or tile.
    pub(super) aligned_text: Option<String>,
}

/// The race check: one pass, or, in a kernel with warp or tile barriers
/// that can be modelled, one pass per pair class (`groups`). When a class
/// inside a group cannot be aligned (a warp barrier in a loop of unknown
/// length, say), the single pass in which those barriers order nothing
/// is the answer.
pub(super) fn run_passes(
    kernel: &Kernel,
    kp: &KernelProtocol,
    config: &RaceConfig,
    solver_config: &SolverConfig,
    sources: Option<&SourceMap>,
) -> Passes {
    let one = |kp: &KernelProtocol, class: Option<PairClass>, reasons: Vec<String>| {
        let mut check = Check::new(
            kernel,
            kp,
            solver_config.clone(),
            &config.params,
            config.assumptions,
            reasons,
        );
        check.max_races = config.max_races;
        // The phases printed are those of the pass outside every group.
        if class.as_ref().is_none_or(|c| c.same.is_none()) {
            check.dump_aligned = sources;
        }
        check.class = class;
        let outcome = check.run();
        Passes {
            races: check.races,
            inconclusive: check.inconclusive,
            divergences: check.divergences,
            stopped_early: check.stopped_early,
            outcome,
            unaligned_groups: None,
            aligned_text: check.aligned_text,
        }
    };
    let found = groups::groups(&kp.body).filter(|g| !g.sizes.is_empty());
    let Some(found) = found else {
        return one(kp, None, unmodelled_synchronisation(kernel, false));
    };
    let reasons = unmodelled_synchronisation(kernel, true);
    let mut all: Option<Passes> = None;
    for class in groups::classes(&found) {
        let inside = class.inside();
        let group = match class.same {
            Some(32) => "threads of a warp".to_string(),
            Some(n) => format!("threads of a tile of {n}"),
            None => String::new(),
        };
        let pass = match class.same {
            None => one(kp, Some(class), reasons.clone()),
            Some(_) => {
                let body = groups::as_block_barriers(&kp.body, &class);
                let grouped = KernelProtocol { body, ..kp.clone() };
                one(&grouped, Some(class), reasons.clone())
            }
        };
        if let Ok(Some(why)) = &pass.outcome {
            if inside {
                // Not aligned with the group's barriers: they order
                // nothing, and whether every thread of a group reaches
                // them is unknown.
                let mut fallback = one(kp, None, unmodelled_synchronisation(kernel, false));
                fallback.unaligned_groups = Some(why.clone());
                return fallback;
            }
        }
        all = Some(match all {
            None => pass,
            Some(mut acc) => {
                for race in pass.races {
                    // One race per pair of accesses: the most certain.
                    match acc.races.iter_mut().find(|r| same_race(r, &race)) {
                        Some(r)
                            if r.certainty != Certainty::Provable
                                && race.certainty == Certainty::Provable =>
                        {
                            *r = race
                        }
                        Some(_) => {}
                        None => acc.races.push(race),
                    }
                }
                acc.inconclusive.extend(pass.inconclusive);
                for mut d in pass.divergences {
                    if acc.divergences.iter().any(|e| e.span == d.span) {
                        continue;
                    }
                    // Found between two threads of one group.
                    d.reason = d.reason.replace("threads of a block", &group);
                    acc.divergences.push(d);
                }
                acc.stopped_early |= pass.stopped_early;
                acc.aligned_text = acc.aligned_text.or(pass.aligned_text);
                acc.outcome = match (acc.outcome, pass.outcome) {
                    (Ok(None), o) => o,
                    (o, _) => o,
                };
                acc
            }
        });
    }
    let mut all = all.expect("invariant: at least the class outside every group");
    if let Some(m) = config.max_races {
        all.stopped_early |= all.races.len() > m;
        all.races.truncate(m);
    }
    all
}

/// Whether two races are between the same two accesses.
fn same_race(a: &Race, b: &Race) -> bool {
    let key = |r: &Race| {
        let (x, y) = (r.first.span, r.second.span);
        (r.array, x.min(y), x.max(y))
    };
    key(a) == key(b)
}
