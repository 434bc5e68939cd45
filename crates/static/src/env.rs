//! The symbolic store of the inference (seed 002, §5: "a standard SSA
//! transformation to simplify the analysis of indices"): the current value
//! of every variable as a [`Sym`], and the merging of stores where control
//! flow joins.
//!
//! Invariants: `None` means "never assigned on this path" (reads yield an
//! `Uninitialised` unknown); merged values are `select`s on conditions that
//! are mutually exclusive and together cover the joining paths.

use crate::sym::Sym;
use warpsafe_ir::VarId;

/// The value of every variable of the kernel, indexed by `VarId`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Env {
    vals: Vec<Option<Sym>>,
}

impl Env {
    pub(crate) fn new(len: usize) -> Env {
        Env {
            vals: vec![None; len],
        }
    }

    pub(crate) fn get(&self, v: VarId) -> Option<&Sym> {
        self.vals
            .get(v.0 as usize)
            .expect("invariant: variable ids are validated before inference")
            .as_ref()
    }

    pub(crate) fn set(&mut self, v: VarId, value: Sym) {
        let slot = self
            .vals
            .get_mut(v.0 as usize)
            .expect("invariant: variable ids are validated before inference");
        *slot = Some(value);
    }

    pub(crate) fn len(&self) -> usize {
        self.vals.len()
    }

    /// Merges stores reached under mutually exclusive conditions: the value
    /// of a variable is `c1 ? v1 : c2 ? v2 : ... : vn`. `fresh` supplies an
    /// unknown for a variable unassigned on some path. Entries with a `false`
    /// condition are ignored; with none left, `fallback` is returned.
    pub(crate) fn merge(
        entries: Vec<(Sym, Env)>,
        fallback: Env,
        fresh: &mut dyn FnMut(VarId) -> Sym,
    ) -> Env {
        let mut live: Vec<(Sym, Env)> =
            entries.into_iter().filter(|(c, _)| !c.is_false()).collect();
        let Some((_, last)) = live.pop() else {
            return fallback;
        };
        if live.is_empty() {
            return last;
        }
        let mut out = last.clone();
        for i in 0..out.len() {
            let v = VarId(i as u32);
            if live.iter().all(|(_, e)| e.vals[i] == last.vals[i]) {
                continue;
            }
            let mut acc = last.get(v).cloned().unwrap_or_else(|| fresh(v));
            for (c, e) in live.iter().rev() {
                let here = e.get(v).cloned().unwrap_or_else(|| fresh(v));
                acc = Sym::select(c.clone(), here, acc);
            }
            out.vals[i] = Some(acc);
        }
        out
    }
}
