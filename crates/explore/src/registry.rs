//! Every explorer by name: what `--explorer NAME` picks and what the
//! conformance tests iterate over.
//!
//! Invariant: names are distinct; the first explorer is the default.

use crate::cd::DelayBounded;
use crate::dpor::Dpor;
use crate::explorer::Explorer;
use crate::reference::Reference;

static EXPLORERS: [&dyn Explorer; 3] = [&Dpor, &Reference, &DelayBounded];

/// Every registered explorer, the default (DPOR) first.
pub fn explorers() -> &'static [&'static dyn Explorer] {
    &EXPLORERS
}

/// The explorer called `name`.
pub fn by_name(name: &str) -> Option<&'static dyn Explorer> {
    EXPLORERS.iter().copied().find(|e| e.name() == name)
}

/// The registered names, in registry order.
pub fn names() -> Vec<&'static str> {
    EXPLORERS.iter().map(|e| e.name()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explorer::Coverage;

    #[test]
    fn names_are_distinct_and_found() {
        let names = names();
        for (i, n) in names.iter().enumerate() {
            assert!(!names[..i].contains(n), "{n} registered twice");
            assert_eq!(by_name(n).map(|e| e.name()), Some(*n));
        }
        assert!(by_name("nonsense").is_none());
        assert_eq!(explorers()[0].name(), "dpor");
    }

    #[test]
    fn only_the_model_checkers_are_exhaustive() {
        let exhaustive: Vec<&str> = explorers()
            .iter()
            .filter(|e| e.coverage() == Coverage::Exhaustive)
            .map(|e| e.name())
            .collect();
        assert_eq!(exhaustive, ["dpor", "reference"]);
    }
}
