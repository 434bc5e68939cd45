//! Kernels, their variables, arrays and launch configuration.

use crate::{Block, ScalarTy, Span};
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct VarId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct ArrayId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MemSpace {
    Global,
    Shared,
    Constant,
    /// Per-thread memory (local arrays).
    Local,
}

impl MemSpace {
    pub fn name(self) -> &'static str {
        match self {
            MemSpace::Global => "global",
            MemSpace::Shared => "shared",
            MemSpace::Constant => "constant",
            MemSpace::Local => "local",
        }
    }
}

/// Where an array comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ArrayOrigin {
    /// A pointer parameter of the kernel (distinct parameters are assumed
    /// not to alias).
    Param,
    /// `__shared__ T a[N]`.
    Shared,
    /// `extern __shared__ T a[]`: sized at launch.
    DynamicShared,
    /// A `__device__` global variable.
    DeviceGlobal,
    /// A `__constant__` variable.
    Constant,
    /// A local array, or a local aggregate whose address is taken.
    Local,
    /// The objects that pointers the host stored in memory point to: the
    /// pointer in slot `k` of its holder array points to the object that
    /// starts at slot `k * POINTEE_STRIDE` of this array (the front end's
    /// `mem_pointer.rs`).
    Pointee,
}

/// Slots between two objects of a [`ArrayOrigin::Pointee`] array.
pub const POINTEE_STRIDE: i128 = 1 << 48;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Array {
    pub id: ArrayId,
    pub name: String,
    pub space: MemSpace,
    pub origin: ArrayOrigin,
    /// The C element type as written (`float`, `float4`, `struct S`).
    pub elem: String,
    /// The scalar slots of one element (one for scalars, four for `float4`).
    pub slots: Vec<ScalarTy>,
    /// Dimensions in elements (`[16][16]`); empty when the size is unknown.
    pub dims: Vec<u64>,
    /// Initial slot values of `__device__`/`__constant__`/local arrays, when
    /// given by an initialiser.
    pub init: Option<Vec<crate::Const>>,
    /// Every access to it is atomic (`cuda::atomic<T>` objects).
    pub atomic_object: bool,
    pub span: Span,
}

impl Array {
    /// Number of slots, when the size is known.
    pub fn len_slots(&self) -> Option<u64> {
        if self.dims.is_empty() {
            return None;
        }
        self.dims
            .iter()
            .try_fold(self.slots.len() as u64, |acc, d| acc.checked_mul(*d))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VarKind {
    /// A scalar kernel parameter (uniform across threads, unknown value).
    Param,
    /// A named local variable of the source.
    Local,
    /// A temporary introduced by lowering.
    Temp,
    /// A value of the launching host function that a launch relation
    /// names (`scanExclusiveLarge::arrayLength`, a parameter the kernel is
    /// passed only as `arrayLength / 1024`): uniform and unknown like a
    /// parameter, but not one. The kernel's body never reads it; only
    /// `check` assumes the relation, and nothing runs it.
    Host,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Var {
    pub id: VarId,
    pub name: String,
    pub ty: ScalarTy,
    pub kind: VarKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum ParamKind {
    Scalar(crate::VarId),
    /// A pointer into global memory.
    Array(ArrayId),
    /// A by-value aggregate, flattened into scalar parameters.
    Aggregate(Vec<crate::VarId>),
    /// A parameter the kernel never uses, of a type the front end cannot
    /// model (the reason); any use would have stopped lowering.
    Unmodelled(String),
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Param {
    pub name: String,
    /// The C type as written.
    pub c_type: String,
    pub kind: ParamKind,
    pub span: Span,
}

/// Grid and block dimensions known from the source (a constant `<<<...>>>`
/// launch) or from flags; `None` means symbolic (any size).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LaunchConfig {
    pub grid: Option<[u64; 3]>,
    pub block: Option<[u64; 3]>,
    /// Bytes of dynamic shared memory, when given.
    pub dynamic_shared: Option<u64>,
    /// The launch in the source, when it came from one.
    pub span: Option<Span>,
    /// Components known when the whole triple is not (`None`: any value
    /// CUDA allows): dimensions the kernel never reads are assumed to be 1
    /// (`threadIdx.y/z` and `blockDim.y/z` for the block, `blockIdx.y/z`
    /// and `gridDim.y/z` for the grid).
    pub block_parts: [Option<u64>; 3],
    pub grid_parts: [Option<u64>; 3],
    /// Where each known part comes from, for reports (`blockDim from the
    /// launch`, with the launch's span; `gridDim.y/z assumed 1: ...`).
    pub notes: Vec<(String, Option<Span>)>,
    /// The most threads per block the kernel declares it is launched
    /// with (`__launch_bounds__(N)`); a launch with more fails.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_block_threads: Option<u64>,
    /// What the kernel's launches in host code say about its dimensions
    /// and scalar parameters together (`gridDim.x == (u32)width / 8u`),
    /// when they say anything: a precondition `check` assumes. Dropped
    /// when flags give the dimensions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relation: Option<crate::Expr>,
}

impl LaunchConfig {
    /// Block dimension `d` when known, from the full triple or a part.
    pub fn block_dim(&self, d: usize) -> Option<u64> {
        self.block.map(|b| b[d]).or(self.block_parts[d])
    }

    /// Grid dimension `d` when known.
    pub fn grid_dim(&self, d: usize) -> Option<u64> {
        self.grid.map(|g| g[d]).or(self.grid_parts[d])
    }

    /// Drops what was inferred rather than given (`--all-dims`).
    pub fn forget_inferred(&mut self) {
        self.block_parts = [None; 3];
        self.grid_parts = [None; 3];
        self.notes.retain(|(n, _)| !n.contains(INFERRED));
    }
}

/// Begins the note that states a launch's [`LaunchConfig::relation`].
pub const RELATION_NOTE: &str = "assuming";

/// Marks the notes about dimensions assumed from what a kernel reads.
pub const INFERRED: &str = "assumed 1";

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Kernel {
    pub name: String,
    /// Template arguments this instance was made with (empty when none).
    pub template_args: Vec<String>,
    pub params: Vec<Param>,
    pub vars: Vec<Var>,
    pub arrays: Vec<Array>,
    pub body: Block,
    pub launch: LaunchConfig,
    pub span: Span,
    /// The reading its volatile accesses were rewritten into
    /// ([`Kernel::read_volatile_as`]), when it had any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub volatile_read_as: Option<crate::VolatileReading>,
}

impl Kernel {
    pub fn var(&self, id: crate::VarId) -> &Var {
        &self.vars[id.0 as usize]
    }

    pub fn array(&self, id: ArrayId) -> &Array {
        &self.arrays[id.0 as usize]
    }
}

/// Every kernel lowered from one translation unit.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Module {
    pub kernels: Vec<Kernel>,
}
