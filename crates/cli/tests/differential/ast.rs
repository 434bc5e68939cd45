//! The kernels the generator builds: a small subset of CUDA (arrays of
//! `int` and of a two-field struct, unsigned index expressions over thread
//! ids, loop variables and parameters, conditionals, constant-bound loops,
//! barriers, atomics and `__device__` helpers) and the one launch each is
//! run on. `print` turns a [`Kernel`] into CUDA text.

/// An array the kernel touches. Every array has [`Kernel::len`] elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arr {
    /// Pointer parameter `gK` (`int *`).
    Global(usize),
    /// `__shared__ int sK[N]`.
    Shared(usize),
    /// Field `a` (false) or `b` (true) of `__shared__ Pair sp[N]`.
    SharedPair(bool),
    /// Field `a` (false) or `b` (true) of the pointer parameter `Pair *gp`.
    GlobalPair(bool),
}

impl Arr {
    pub fn is_pair(self) -> bool {
        matches!(self, Arr::SharedPair(_) | Arr::GlobalPair(_))
    }
}

/// An unsigned 32-bit expression (indices, conditions).
#[derive(Clone, Debug)]
pub enum Expr {
    ThreadIdx,
    BlockIdx,
    BlockDim,
    Const(u32),
    /// Scalar parameter `nK`, converted to unsigned.
    Param(usize),
    /// Loop variable `iK`; `true` when every thread of a block runs the
    /// same iterations.
    Loop(usize, bool),
    /// Local `vK`, a value read from memory, converted to unsigned.
    Local(usize),
    /// `cK`, an `unsigned` variable that loops update (loop-carried state).
    Carried(usize),
    Bin(Op, Box<Expr>, Box<Expr>),
    /// `(cond ? a : b)`.
    Select(Box<Cond>, Box<Expr>, Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Xor,
    And,
    Shl,
    Shr,
    Rem,
}

impl Op {
    pub fn text(self) -> &'static str {
        match self {
            Op::Add => "+",
            Op::Sub => "-",
            Op::Mul => "*",
            Op::Xor => "^",
            Op::And => "&",
            Op::Shl => "<<",
            Op::Shr => ">>",
            Op::Rem => "%",
        }
    }
}

impl Expr {
    /// Whether every thread of a block computes the same value (no thread
    /// index, no value read from memory).
    pub fn block_uniform(&self) -> bool {
        match self {
            Expr::ThreadIdx | Expr::Local(_) | Expr::Carried(_) => false,
            Expr::BlockIdx | Expr::BlockDim | Expr::Const(_) | Expr::Param(_) => true,
            Expr::Loop(_, uniform) => *uniform,
            Expr::Bin(_, a, b) => a.block_uniform() && b.block_uniform(),
            Expr::Select(c, a, b) => c.block_uniform() && a.block_uniform() && b.block_uniform(),
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub enum Cmp {
    Lt,
    Le,
    Eq,
    Ne,
}

impl Cmp {
    pub fn text(self) -> &'static str {
        match self {
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Eq => "==",
            Cmp::Ne => "!=",
        }
    }
}

/// A condition: `lhs CMP rhs`, or two joined by `&&` / `||`.
#[derive(Clone, Debug)]
pub enum Cond {
    Cmp {
        cmp: Cmp,
        lhs: Expr,
        rhs: Expr,
    },
    /// `(a && b)` when the flag is true, else `(a || b)`.
    Join(bool, Box<Cond>, Box<Cond>),
}

impl Cond {
    pub fn block_uniform(&self) -> bool {
        match self {
            Cond::Cmp { lhs, rhs, .. } => lhs.block_uniform() && rhs.block_uniform(),
            Cond::Join(_, a, b) => a.block_uniform() && b.block_uniform(),
        }
    }
}

/// How a `for` loop counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopShape {
    /// `iK = start; iK < bound; iK += step`.
    Up,
    /// `iK = start; iK < bound; iK *= 2` (`start` at least 1).
    Double,
    /// `iK = start; iK > 0; iK >>= 1`.
    Halve,
    /// `iK = start; iK != 0; iK /= 2`.
    HalveToZero,
    /// `iK = start;; iK += step` with `eK = iK * 4 / 2; if (eK >= 2 *
    /// bound) break;` at the top of the body (the exit `iK >= bound`,
    /// written as the persistent-block GEMMs write theirs).
    TopExit,
    /// `iK = start; iK > 0; iK--`.
    Down,
}

/// How a statement changes a loop-carried variable `cK`.
#[derive(Clone, Debug)]
pub enum Update {
    /// `cK = C - cK` (alternates between two values).
    Flip(u32),
    /// `cK ^= C` (alternates).
    Xor(u32),
    /// `{ unsigned t = cK; cK = cL; cL = t; }` (alternates, with `cL`).
    Swap(usize),
    /// `cK = e`.
    Set(Expr),
    /// `cK += C` (a new value in every iteration).
    Add(u32),
}

/// The `__device__` helpers a statement can call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Helper {
    /// `put(int *p, unsigned i, int v)`: `p[i % N] = v`.
    Put,
    /// `bump(int *p, unsigned i, int v)`: `atomicAdd(&p[i % N], v)`.
    Bump,
    /// `get(int *p, unsigned i)`: returns `p[i % N]`.
    Get,
    /// `put_b(Pair *p, unsigned i, int v)`: `p[i % N].b = v`.
    PutPair,
    /// `sync_put(int *p, unsigned i, int v)`: `__syncthreads()`, then
    /// `p[i % N] = v`.
    SyncPut,
}

#[derive(Clone, Debug)]
pub enum Stmt {
    /// `arr[idx % N] = val;`, or `+=` when `compound`.
    Store {
        arr: Arr,
        idx: Expr,
        val: Expr,
        compound: bool,
    },
    /// `int vK = arr[idx % N];`
    Load { local: usize, arr: Arr, idx: Expr },
    /// `atomicAdd(&arr[idx % N], val);`
    Atomic { arr: Arr, idx: Expr, val: Expr },
    /// A helper call on an `int` array (`Get` declares `vK`), or `PutPair`
    /// on a pair array.
    Call {
        helper: Helper,
        arr: Arr,
        idx: Expr,
        val: Expr,
        local: usize,
    },
    If {
        cond: Cond,
        then: Vec<Stmt>,
        els: Vec<Stmt>,
    },
    /// `for (unsigned iK = start; iK < bound; iK += step) { body }`
    /// (`bound` a constant or a parameter of at most 4), or another
    /// [`LoopShape`].
    For {
        var: usize,
        shape: LoopShape,
        start: Expr,
        bound: Expr,
        step: Expr,
        /// A further conjunct of the test (`iK < bound && (extra)`), which
        /// may read `iK` and the thread: a loop that may stop early.
        extra: Option<Cond>,
        body: Vec<Stmt>,
    },
    /// `unsigned iK = 0u; while (true) { if (threadIdx.x == 0u) fK =
    /// (int)(iK >= limit || (exit) == 0u); __syncthreads(); if (fK) break;
    /// body; __syncthreads(); iK++; }` with `__shared__ int fK` declared
    /// at the top: a loop left on a shared flag that one thread sets.
    /// Without `quiet` the barrier between the flag's write and its read
    /// is left out (the threads may disagree about leaving), without
    /// `close` the one before the next write.
    Until {
        var: usize,
        limit: u32,
        exit: Expr,
        quiet: bool,
        close: bool,
        body: Vec<Stmt>,
    },
    /// An update of the loop-carried variable `cK`.
    Update { var: usize, update: Update },
    /// `__syncthreads();`
    Sync,
    /// `__syncwarp();` (every generated block is within one warp).
    WarpSync,
    /// The `sync()` of the block's `tiled_partition<2>` tile.
    TileSync,
    /// `return;`
    Return,
}

/// One generated kernel, `__global__ void k(...)`.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// Elements of every array.
    pub len: u32,
    /// Pointer parameters `int *g0, ...`.
    pub globals: usize,
    /// `__shared__ int s0[N], ...`.
    pub shared: usize,
    /// Whether `struct Pair`, `__shared__ Pair sp[N]` and `Pair *gp` exist.
    pub pairs: bool,
    /// Scalar parameters `int n0, ...` with their launch values.
    pub params: Vec<i64>,
    /// Loop-carried variables `unsigned c0 = V, ...` with their first values.
    pub carried: Vec<u32>,
    pub body: Vec<Stmt>,
}

/// The concrete launch a case runs on.
#[derive(Clone, Copy, Debug)]
pub struct Launch {
    pub grid: u32,
    pub block: u32,
}
