//! A thread's identity and the launch it belongs to.
//!
//! [`Launch`] is what every thread of one kernel launch shares: grid and
//! block dimensions, the values of scalar kernel parameters, sizes of
//! arrays the IR does not know (pointer parameters, dynamic shared memory)
//! and the initial contents of global arrays the host provides.
//! It sits behind an `Arc`, so a [`ThreadCtx`] (a launch plus the thread's
//! `blockIdx`/`threadIdx`) is cheap to clone and to create per thread.
//!
//! Seed 000 §2 and seed 003 §4 both identify threads by (block, thread);
//! [`ThreadCtx::warp`] and [`ThreadCtx::lane`] give the warp structure
//! (32 threads, linearised x-fastest) drivers need for warp barriers.

use crate::value::Value;
use std::collections::BTreeMap;
use std::sync::Arc;
use warpsafe_ir::{Array, ArrayId, ArrayOrigin, Builtin, Dim, Kernel, VarId};

/// Threads per warp on every CUDA device.
pub const WARP_SIZE: u32 = 32;

/// What every thread of one launch shares.
#[derive(Clone, Debug, PartialEq)]
pub struct Launch {
    /// `gridDim` (blocks per dimension).
    pub grid_dim: [u32; 3],
    /// `blockDim` (threads per dimension).
    pub block_dim: [u32; 3],
    /// Values of the kernel's scalar parameters (`VarKind::Param` vars).
    pub params: BTreeMap<VarId, Value>,
    /// Lengths in slots of arrays whose size the IR leaves open (pointer
    /// parameters), known to the driver; they enable bounds checks.
    pub array_lens: BTreeMap<ArrayId, u64>,
    /// Bytes of dynamic shared memory (`<<<g, b, bytes>>>`), which size
    /// `extern __shared__` arrays.
    pub dynamic_shared_bytes: Option<u64>,
    /// Initial contents, slot by slot, of global arrays the host fills
    /// before the launch (pointer parameters, `__device__` arrays); they
    /// override the IR's initialisers. Slots past the end start as zero.
    pub array_init: BTreeMap<ArrayId, Vec<Value>>,
}

impl Launch {
    pub fn new(grid_dim: [u32; 3], block_dim: [u32; 3]) -> Launch {
        Launch {
            grid_dim,
            block_dim,
            params: BTreeMap::new(),
            array_lens: BTreeMap::new(),
            dynamic_shared_bytes: None,
            array_init: BTreeMap::new(),
        }
    }

    /// The launch configuration the source gives (a constant `<<<...>>>` or
    /// flags), when both dimensions are known and fit in `u32`.
    pub fn from_kernel(kernel: &Kernel) -> Option<Launch> {
        let dims = |d: [u64; 3]| -> Option<[u32; 3]> {
            Some([
                u32::try_from(d[0]).ok()?,
                u32::try_from(d[1]).ok()?,
                u32::try_from(d[2]).ok()?,
            ])
        };
        let mut l = Launch::new(dims(kernel.launch.grid?)?, dims(kernel.launch.block?)?);
        l.dynamic_shared_bytes = kernel.launch.dynamic_shared;
        Some(l)
    }

    pub fn with_param(mut self, var: VarId, value: Value) -> Launch {
        self.params.insert(var, value);
        self
    }

    pub fn with_array_len(mut self, array: ArrayId, len_slots: u64) -> Launch {
        self.array_lens.insert(array, len_slots);
        self
    }

    pub fn with_dynamic_shared_bytes(mut self, bytes: u64) -> Launch {
        self.dynamic_shared_bytes = Some(bytes);
        self
    }

    /// Sets the initial contents of `array`, one value per slot.
    pub fn with_array_init(mut self, array: ArrayId, slots: Vec<Value>) -> Launch {
        self.array_init.insert(array, slots);
        self
    }

    /// The initial value the host gave slot `index` of `array`, if any.
    pub fn initial_value(&self, array: ArrayId, index: u64) -> Option<Value> {
        let slots = self.array_init.get(&array)?;
        slots.get(usize::try_from(index).ok()?).copied()
    }

    /// Length in slots of `array`: from the IR, else from `array_lens`,
    /// else, for `extern __shared__` arrays, the dynamic shared bytes divided
    /// by the element size (the sum of its slots' sizes; padding ignored).
    /// `None`: unknown, accesses are not bounds-checked.
    pub fn array_len(&self, array: &Array) -> Option<u64> {
        if let Some(n) = array.len_slots() {
            return Some(n);
        }
        if let Some(n) = self.array_lens.get(&array.id) {
            return Some(*n);
        }
        if array.origin == ArrayOrigin::DynamicShared {
            let elem: u64 = array.slots.iter().map(|t| t.size_bytes()).sum();
            let bytes = self.dynamic_shared_bytes?;
            return (elem > 0).then(|| bytes / elem * array.slots.len() as u64);
        }
        None
    }

    /// Threads per block (saturating at `u64::MAX`).
    pub fn threads_per_block(&self) -> u64 {
        saturating_product(self.block_dim)
    }

    /// Blocks in the grid (saturating at `u64::MAX`).
    pub fn blocks(&self) -> u64 {
        saturating_product(self.grid_dim)
    }

    /// Threads in the whole launch (saturating at `u64::MAX`, so a grid
    /// too large to count still compares as too large).
    pub fn threads(&self) -> u64 {
        self.blocks().saturating_mul(self.threads_per_block())
    }
}

/// One thread: its launch and its indices.
#[derive(Clone, Debug, PartialEq)]
pub struct ThreadCtx {
    pub launch: Arc<Launch>,
    /// `blockIdx`.
    pub block_idx: [u32; 3],
    /// `threadIdx`.
    pub thread_idx: [u32; 3],
}

impl ThreadCtx {
    pub fn new(launch: Arc<Launch>, block_idx: [u32; 3], thread_idx: [u32; 3]) -> ThreadCtx {
        ThreadCtx {
            launch,
            block_idx,
            thread_idx,
        }
    }

    /// Thread `thread` of block `block`, both linear indices, x fastest
    /// (the inverse of [`ThreadCtx::linear_block`] and
    /// [`ThreadCtx::linear_tid`]): how explorers number a launch's threads.
    pub fn at_linear(launch: Arc<Launch>, block: u64, thread: u64) -> ThreadCtx {
        let block_idx = delinear(block, launch.grid_dim);
        let thread_idx = delinear(thread, launch.block_dim);
        ThreadCtx::new(launch, block_idx, thread_idx)
    }

    /// The value of a builtin: indices and dimensions are `u32`,
    /// `warpSize` is `i32` (as the front end types them).
    pub fn builtin(&self, b: Builtin) -> Value {
        let at = |v: [u32; 3], d: Dim| {
            Value::U32(match d {
                Dim::X => v[0],
                Dim::Y => v[1],
                Dim::Z => v[2],
            })
        };
        match b {
            Builtin::ThreadIdx(d) => at(self.thread_idx, d),
            Builtin::BlockIdx(d) => at(self.block_idx, d),
            Builtin::BlockDim(d) => at(self.launch.block_dim, d),
            Builtin::GridDim(d) => at(self.launch.grid_dim, d),
            Builtin::WarpSize => Value::I32(WARP_SIZE as i32),
        }
    }

    /// The thread's index within its block, x fastest (CUDA's linear order,
    /// which defines warps).
    pub fn linear_tid(&self) -> u64 {
        linear(self.thread_idx, self.launch.block_dim)
    }

    /// The block's index within the grid, x fastest.
    pub fn linear_block(&self) -> u64 {
        linear(self.block_idx, self.launch.grid_dim)
    }

    /// The thread's warp within its block.
    pub fn warp(&self) -> u64 {
        self.linear_tid() / u64::from(WARP_SIZE)
    }

    /// The thread's lane within its warp (`0..32`).
    pub fn lane(&self) -> u32 {
        (self.linear_tid() % u64::from(WARP_SIZE)) as u32
    }

    /// Whether the indices lie inside the launch's dimensions.
    pub fn in_launch(&self) -> bool {
        let inside = |i: [u32; 3], d: [u32; 3]| (0..3).all(|k| i[k] < d[k]);
        inside(self.thread_idx, self.launch.block_dim)
            && inside(self.block_idx, self.launch.grid_dim)
    }
}

fn saturating_product(d: [u32; 3]) -> u64 {
    d.iter()
        .fold(1u64, |acc, x| acc.saturating_mul(u64::from(*x)))
}

fn linear(i: [u32; 3], d: [u32; 3]) -> u64 {
    let (x, y, z) = (u64::from(i[0]), u64::from(i[1]), u64::from(i[2]));
    x + u64::from(d[0]) * (y + u64::from(d[1]) * z)
}

/// The index of linear position `i` in dimensions `d` (the inverse of
/// [`linear`]).
fn delinear(i: u64, d: [u32; 3]) -> [u32; 3] {
    let (x, y) = (u64::from(d[0]).max(1), u64::from(d[1]).max(1));
    [(i % x) as u32, ((i / x) % y) as u32, (i / (x * y)) as u32]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_counts_saturate_instead_of_overflowing() {
        let huge = Launch::new([u32::MAX; 3], [u32::MAX; 3]);
        assert_eq!(huge.blocks(), u64::MAX);
        assert_eq!(huge.threads(), u64::MAX);
        assert_eq!(Launch::new([2, 1, 1], [3, 2, 1]).threads(), 12);
    }

    #[test]
    fn initial_values_are_per_array_and_slot() {
        let l = Launch::new([1; 3], [1; 3])
            .with_array_init(ArrayId(1), vec![Value::I32(7), Value::I32(-1)]);
        assert_eq!(l.initial_value(ArrayId(1), 1), Some(Value::I32(-1)));
        assert_eq!(l.initial_value(ArrayId(1), 2), None);
        assert_eq!(l.initial_value(ArrayId(0), 0), None);
    }

    #[test]
    fn linear_indices_round_trip() {
        let launch = Arc::new(Launch::new([3, 2, 2], [4, 3, 2]));
        for b in 0..launch.blocks() {
            for t in 0..launch.threads_per_block() {
                let ctx = ThreadCtx::at_linear(launch.clone(), b, t);
                assert!(ctx.in_launch());
                assert_eq!((ctx.linear_block(), ctx.linear_tid()), (b, t));
            }
        }
    }
}
