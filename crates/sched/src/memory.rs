//! The memory of one schedule: under sequential consistency a location
//! holds one value, plus what the race check ([`crate::shadow`]) and
//! synchronisation ([`crate::sync`]) remember about it.
//!
//! Locations are the model checker's ([`Loc`]): `__shared__` slots are per
//! block. A location nobody wrote holds its initial value
//! ([`warpsafe_mc::initial_value`], the same as the other explorers').

use crate::shadow::Shadow;
use crate::sync::Released;
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;
use warpsafe_interp::{Launch, Value};
use warpsafe_ir::{Kernel, MemSpace, ScalarTy};
use warpsafe_mc::{initial_value, reinterpret, Loc};

/// One location's state.
#[derive(Clone, Debug, Default)]
pub(crate) struct Cell {
    /// The value written last; `None` before the first write.
    pub value: Option<Value>,
    pub shadow: Shadow,
    pub released: Released,
}

pub(crate) struct Memory<'k> {
    kernel: &'k Kernel,
    cells: FxHashMap<Loc, Cell>,
    /// Writes that changed a value: a thread spinning on memory is worth
    /// running again only when this moved.
    pub changes: u64,
}

impl<'k> Memory<'k> {
    pub fn new(kernel: &'k Kernel) -> Memory<'k> {
        Memory {
            kernel,
            cells: FxHashMap::default(),
            changes: 0,
        }
    }

    pub fn cell(&mut self, loc: Loc) -> &mut Cell {
        self.cells.entry(loc).or_default()
    }

    /// The value of `loc` read as `ty` (the bits of the slot's value when
    /// the slot holds another type: `atomicInc((unsigned *)&a[i], n)` on
    /// an `int` array).
    pub fn read(&mut self, launch: &Launch, loc: Loc, ty: ScalarTy) -> Value {
        let v = match self.cells.get(&loc).and_then(|c| c.value) {
            Some(v) => v,
            None => initial_value(self.kernel, launch, loc, ty),
        };
        reinterpret(v, ty)
    }

    /// Whether `loc` is a `__shared__` slot without initialiser that no
    /// thread wrote yet.
    pub fn uninitialised_shared(&self, loc: Loc) -> bool {
        let shared_without_init = self
            .kernel
            .arrays
            .get(loc.array.0 as usize)
            .is_some_and(|a| a.space == MemSpace::Shared && a.init.is_none());
        shared_without_init && self.cells.get(&loc).is_none_or(|c| c.value.is_none())
    }

    /// Writes `v` to `loc`, counting it when it changes the value.
    pub fn write(&mut self, launch: &Launch, loc: Loc, v: Value) {
        let before = self.read(launch, loc, v.ty());
        if before.to_bits() != v.to_bits() || before.ty() != v.ty() {
            self.changes += 1;
        }
        self.cell(loc).value = Some(v);
    }

    /// The global memory the launch wrote, by location.
    pub fn final_global(&self) -> BTreeMap<Loc, Value> {
        self.cells
            .iter()
            .filter(|(loc, _)| {
                self.kernel
                    .arrays
                    .get(loc.array.0 as usize)
                    .is_some_and(|a| a.space == MemSpace::Global)
            })
            .filter_map(|(loc, c)| c.value.map(|v| (*loc, v)))
            .collect()
    }
}
