//! `warpsafe explore --outcomes`: the distinct final states of global
//! memory over the explored executions (seed 000 §5's litmus outcomes), each
//! with how many executions reach it.
//!
//! A state lists every slot of a `__global__`/pointer-parameter array that
//! some execution touched, by array name and index (`x[0]=1 y[0]=0`); slots
//! an execution never touched keep their initial value and are left out, and
//! `__shared__` memory, which does not outlive the kernel, is not part of
//! it. Invariant: states are listed in the order the exploration first
//! reached them, so the output is deterministic.

use std::collections::HashMap;
use warpsafe_interp::Value;
use warpsafe_ir::{ArrayId, Kernel, MemSpace};
use warpsafe_mc::witness::Names;
use warpsafe_mc::Execution;

type State = Vec<(ArrayId, u64, Value)>;

pub struct Outcomes<'k> {
    kernel: &'k Kernel,
    states: Vec<(State, usize)>,
    index: HashMap<State, usize>,
}

impl<'k> Outcomes<'k> {
    pub fn new(kernel: &'k Kernel) -> Outcomes<'k> {
        Outcomes {
            kernel,
            states: Vec::new(),
            index: HashMap::new(),
        }
    }

    pub fn add(&mut self, exec: &Execution) {
        let state: State = exec
            .final_memory
            .iter()
            .filter(|(loc, _)| {
                loc.block.is_none()
                    && self
                        .kernel
                        .arrays
                        .get(loc.array.0 as usize)
                        .is_some_and(|a| a.space == MemSpace::Global)
            })
            .map(|(loc, v)| (loc.array, loc.index, *v))
            .collect();
        self.count(state, 1);
    }

    /// Counts `n` more executions reaching `state` (a new state goes last).
    fn count(&mut self, state: State, n: usize) {
        match self.index.get(&state) {
            Some(i) => self.states[*i].1 += n,
            None => {
                self.index.insert(state.clone(), self.states.len());
                self.states.push((state, n));
            }
        }
    }

    /// An empty table for the same kernel (a worker's part).
    pub fn fresh(&self) -> Outcomes<'k> {
        Outcomes::new(self.kernel)
    }

    /// Adds the states of `later`, whose executions come after this
    /// table's (first-reached order is kept).
    pub fn merge(&mut self, later: Outcomes<'k>) {
        for (state, n) in later.states {
            self.count(state, n);
        }
    }

    /// Every state as text (`x[0]=1 y[0]=0`, or `(no global memory
    /// written)`) with its count, in first-reached order.
    pub fn rendered(&self) -> Vec<(String, usize)> {
        self.states
            .iter()
            .map(|(state, n)| {
                let text: Vec<String> = state
                    .iter()
                    .map(|(a, i, v)| {
                        let slot = warpsafe_mc::witness::slot_text(self.kernel, *a, *i);
                        format!("{slot}={}", Names::value(*v))
                    })
                    .collect();
                let text = if text.is_empty() {
                    "(no global memory touched)".to_string()
                } else {
                    text.join(" ")
                };
                (text, *n)
            })
            .collect()
    }
}
