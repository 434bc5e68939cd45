//! Final-state comparison (seed 003's *fc*): the distinct final states of
//! global memory over the schedules run, and the first schedule that ends
//! differently from the canonical one.
//!
//! Only schedules that ran to the end count (a cut run has no final state).

use crate::canonical::Run;
use crate::delay::DelayPoint;
use std::collections::BTreeMap;
use warpsafe_interp::Value;
use warpsafe_mc::Loc;

/// One final state and the schedules that reach it.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub memory: BTreeMap<Loc, Value>,
    /// The first schedule that reached it.
    pub delays: Vec<DelayPoint>,
    pub schedules: usize,
}

/// Where two final states differ: the location and its value in each
/// (`None`: not written).
pub type Difference = (Loc, Option<Value>, Option<Value>);

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcomes {
    /// In the order first reached; the canonical schedule's first.
    pub outcomes: Vec<Outcome>,
}

impl Outcomes {
    /// Adds `run`'s final state; the index of its outcome, if it ran to
    /// the end.
    pub fn add(&mut self, run: &Run) -> Option<usize> {
        if run.cut.is_some() {
            return None;
        }
        if let Some(i) = self
            .outcomes
            .iter()
            .position(|o| same(&o.memory, &run.final_memory))
        {
            self.outcomes[i].schedules += 1;
            return Some(i);
        }
        self.outcomes.push(Outcome {
            memory: run.final_memory.clone(),
            delays: run.delays.clone(),
            schedules: 1,
        });
        Some(self.outcomes.len() - 1)
    }

    /// The locations where outcomes `a` and `b` differ, in order.
    pub fn differences(&self, a: usize, b: usize) -> Vec<Difference> {
        let (ma, mb) = (&self.outcomes[a].memory, &self.outcomes[b].memory);
        let mut locs: Vec<Loc> = ma.keys().chain(mb.keys()).copied().collect();
        locs.sort();
        locs.dedup();
        locs.into_iter()
            .filter_map(|l| {
                let (va, vb) = (ma.get(&l).copied(), mb.get(&l).copied());
                (!same_value(va, vb)).then_some((l, va, vb))
            })
            .collect()
    }
}

fn same_value(a: Option<Value>, b: Option<Value>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.ty() == b.ty() && a.to_bits() == b.to_bits(),
        (None, None) => true,
        _ => false,
    }
}

/// Bitwise equality of two memories (NaNs with equal bits are equal).
fn same(a: &BTreeMap<Loc, Value>, b: &BTreeMap<Loc, Value>) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|((la, va), (lb, vb))| la == lb && same_value(Some(*va), Some(*vb)))
}
