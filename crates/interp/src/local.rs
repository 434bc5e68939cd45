//! Thread-private local arrays (`MemSpace::Local`).
//!
//! Local memory is private to its thread, so no other thread can observe it
//! and accesses to it are not events (seed 000 §3 only has events for
//! shared locations); the thread keeps it. An array is materialised on its
//! first access: with its `init` values when the IR gives them (the rest
//! zero, as C's aggregate initialisation does), otherwise uninitialised, and
//! reading an uninitialised slot is [`FaultKind::UninitialisedMemory`].
//!
//! Each array sits behind an `Arc` and is copied on its first write after a
//! clone, so forking a thread costs O(number of local arrays), not O(slots).
//!
//! A slot read at a different type than it was written (type punning through
//! a local aggregate) is reinterpreted from its bits.

use crate::fault::FaultKind;
use crate::value::Value;
use std::sync::Arc;
use warpsafe_ir::{Array, ArrayId, ScalarTy};

/// The most slots one local array may have (16 Mi).
pub(crate) const MAX_LOCAL_SLOTS: u64 = 1 << 24;

#[derive(Debug, Default)]
pub(crate) struct LocalMemory {
    /// Indexed by `ArrayId`; `None` until first accessed.
    arrays: Vec<Option<Arc<Vec<Option<Value>>>>>,
}

impl Clone for LocalMemory {
    fn clone(&self) -> LocalMemory {
        LocalMemory {
            arrays: self.arrays.clone(),
        }
    }

    /// Reuses `self`'s table (spin-assume copies the local memory at every
    /// loop iteration's start).
    fn clone_from(&mut self, source: &LocalMemory) {
        self.arrays.clone_from(&source.arrays);
    }
}

impl LocalMemory {
    /// The value of `array[index]` read as `ty`. `len`: the array's length
    /// in slots when known (the caller has bounds-checked `index`).
    pub fn load(
        &mut self,
        array: &Array,
        len: Option<u64>,
        index: u64,
        ty: ScalarTy,
    ) -> Result<Value, FaultKind> {
        let slots = self.slots(array, len)?;
        match usize::try_from(index).ok().and_then(|i| slots.get(i)) {
            Some(Some(v)) if v.ty() == ty => Ok(*v),
            Some(Some(v)) => Ok(Value::from_bits(ty, v.to_bits())),
            _ => Err(FaultKind::UninitialisedMemory {
                array: array.id,
                index,
            }),
        }
    }

    /// Writes `value` to `array[index]`.
    pub fn store(
        &mut self,
        array: &Array,
        len: Option<u64>,
        index: u64,
        value: Value,
    ) -> Result<(), FaultKind> {
        if index >= MAX_LOCAL_SLOTS {
            return Err(FaultKind::LocalArrayTooLarge {
                array: array.id,
                len: index.saturating_add(1),
            });
        }
        self.slots(array, len)?;
        let slots = Arc::make_mut(
            self.arrays[array.id.0 as usize]
                .as_mut()
                .expect("invariant: `slots` materialised the array"),
        );
        let i = index as usize;
        if i >= slots.len() {
            // Only arrays of unknown length grow.
            slots.resize(i + 1, None);
        }
        slots[i] = Some(value);
        Ok(())
    }

    /// The current value of a slot, if the array was touched and the slot
    /// holds one.
    pub fn get(&self, array: ArrayId, index: u64) -> Option<Value> {
        let slots = self.arrays.get(array.0 as usize)?.as_ref()?;
        *slots.get(usize::try_from(index).ok()?)?
    }

    /// Whether both hold the same arrays with the same slots (arrays not
    /// yet touched count as different from touched ones).
    pub fn same_contents(&self, other: &LocalMemory) -> bool {
        self.arrays.len() == other.arrays.len()
            && self
                .arrays
                .iter()
                .zip(&other.arrays)
                .all(|(a, b)| match (a, b) {
                    (None, None) => true,
                    (Some(a), Some(b)) => Arc::ptr_eq(a, b) || a == b,
                    _ => false,
                })
    }

    /// The slots of `array`, materialised on first use.
    fn slots(&mut self, array: &Array, len: Option<u64>) -> Result<&[Option<Value>], FaultKind> {
        let at = array.id.0 as usize;
        if self.arrays.len() <= at {
            self.arrays.resize(at + 1, None);
        }
        if self.arrays[at].is_none() {
            self.arrays[at] = Some(Arc::new(initial(array, len)?));
        }
        Ok(self.arrays[at]
            .as_deref()
            .expect("invariant: materialised just above"))
    }
}

/// The contents of `array` before the thread touches it.
fn initial(array: &Array, len: Option<u64>) -> Result<Vec<Option<Value>>, FaultKind> {
    let n = len.unwrap_or(0);
    if n > MAX_LOCAL_SLOTS {
        return Err(FaultKind::LocalArrayTooLarge {
            array: array.id,
            len: n,
        });
    }
    let Some(init) = &array.init else {
        return Ok(vec![None; n as usize]);
    };
    let slot_ty = |i: usize| {
        array
            .slots
            .get(i % array.slots.len().max(1))
            .copied()
            .unwrap_or(ScalarTy::I32)
    };
    let total = (n as usize).max(init.len());
    Ok((0..total)
        .map(|i| {
            let ty = slot_ty(i);
            Some(match init.get(i) {
                Some(c) => Value::from_const(*c, ty),
                None => Value::zero(ty),
            })
        })
        .collect())
}
