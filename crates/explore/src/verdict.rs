//! The verdict of an exploration (issue 11: the rules live here, not in
//! the CLI). ERRORS FOUND when a run showed an error; UNKNOWN, with the
//! reason, when the exploration stopped before covering what its
//! [`Coverage`] promises or no run ended (zero complete runs are never
//! clean, issue 12); otherwise SAFE for an exhaustive explorer and NO
//! ERROR FOUND for a bounded one (a replayed run: no error in it).

use crate::explorer::Coverage;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every consistent execution explored, none with an error.
    Safe,
    ErrorsFound,
    /// No error in the runs of a bounded search (no proof).
    NoErrorFound,
    /// `--replay`: the one run has no error.
    NoErrorInReplay,
    Unknown(String),
}

impl Verdict {
    /// `safe`, `errors-found`, `no-error-found`, `no-error`, `unknown`.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Safe => "safe",
            Verdict::ErrorsFound => "errors-found",
            Verdict::NoErrorFound => "no-error-found",
            Verdict::NoErrorInReplay => "no-error",
            Verdict::Unknown(_) => "unknown",
        }
    }
}

/// What an exploration showed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Evidence {
    /// A run showed an error (or, comparing final states, two runs
    /// differ).
    pub errors: bool,
    /// Why the exploration stopped before covering what it promises
    /// (a limit, a failure), if it did.
    pub incomplete: Option<String>,
    /// Runs in which every thread reached its end.
    pub complete_runs: usize,
    /// Why no run ended, said when `complete_runs` is 0.
    pub none_complete: String,
    /// One replayed run, not an exploration.
    pub replay: bool,
}

/// The verdict `evidence` supports for an explorer of `coverage`.
pub fn decide(coverage: Coverage, evidence: Evidence) -> Verdict {
    if evidence.errors {
        Verdict::ErrorsFound
    } else if let Some(reason) = evidence.incomplete {
        Verdict::Unknown(reason)
    } else if evidence.complete_runs == 0 {
        Verdict::Unknown(evidence.none_complete)
    } else if evidence.replay {
        Verdict::NoErrorInReplay
    } else {
        match coverage {
            Coverage::Exhaustive => Verdict::Safe,
            Coverage::Bounded => Verdict::NoErrorFound,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clean(runs: usize) -> Evidence {
        Evidence {
            complete_runs: runs,
            none_complete: "nothing ended".into(),
            ..Evidence::default()
        }
    }

    #[test]
    fn a_bounded_search_is_never_safe() {
        assert_eq!(decide(Coverage::Bounded, clean(5)), Verdict::NoErrorFound);
        assert_eq!(decide(Coverage::Exhaustive, clean(5)), Verdict::Safe);
    }

    #[test]
    fn zero_complete_runs_are_unknown() {
        for c in [Coverage::Exhaustive, Coverage::Bounded] {
            assert_eq!(
                decide(c, clean(0)),
                Verdict::Unknown("nothing ended".into())
            );
        }
    }

    #[test]
    fn errors_win_over_limits_and_limits_over_clean() {
        let mut e = clean(3);
        e.incomplete = Some("time limit".into());
        assert_eq!(
            decide(Coverage::Exhaustive, e.clone()),
            Verdict::Unknown("time limit".into())
        );
        e.errors = true;
        assert_eq!(decide(Coverage::Exhaustive, e), Verdict::ErrorsFound);
    }

    #[test]
    fn a_clean_replay_says_so() {
        let mut e = clean(1);
        e.replay = true;
        assert_eq!(decide(Coverage::Exhaustive, e), Verdict::NoErrorInReplay);
    }
}
