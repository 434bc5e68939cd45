//! Random kernels and launches from a seed. Every index is reduced
//! `% N` in unsigned arithmetic (N the array length), so accesses stay in
//! bounds whatever the thread ids; loops have constant bounds, so the
//! explorer's loop bound is never reached; kernels are 5 to 15 statements.

use super::ast::{Arr, Cmp, Cond, Expr, Helper, Kernel, Launch, LoopShape, Op, Stmt, Update};
use super::rng::Rng;

/// Which constructs the generator may use (a construct with a known,
/// unfixed disagreement is turned off here; see the test's doc comment).
#[derive(Clone, Copy, Debug)]
pub struct Features {
    /// `__syncthreads()` under conditions that depend on the thread.
    pub divergent_barriers: bool,
    /// `return;` inside conditionals.
    pub returns: bool,
    /// `__device__` helper calls.
    pub helpers: bool,
    /// `struct Pair` arrays.
    pub pairs: bool,
    /// Values read from memory used in indices and conditions.
    pub data_dependence: bool,
    /// Loop-carried variables (`c = 1 - c`, swaps, `^=`) and loops that
    /// double, halve or count down.
    pub carried: bool,
    /// `__syncwarp()` and a 2-thread tile's `sync()` in uniform code.
    pub group_barriers: bool,
}

impl Features {
    pub const ALL: Features = Features {
        divergent_barriers: true,
        returns: true,
        helpers: true,
        pairs: true,
        data_dependence: true,
        carried: true,
        group_barriers: true,
    };
}

/// The kernel and launch of case `seed`: 1–2 blocks of 2–4 threads, at
/// most `max_threads` in all (the explorer's work grows steeply with
/// threads, and the debug build's far more).
pub fn case(seed: u64, features: Features, max_threads: u32) -> (Kernel, Launch) {
    let mut rng = Rng::new(seed);
    let grid = rng.range(1, 2);
    let block = rng.range(2, 4).min((max_threads / grid).max(2));
    let launch = Launch { grid, block };
    let len = rng.pick(&[4, 4, 8, 6]);
    let mut globals = rng.range(0, 2) as usize;
    let shared = rng.range(0, 2) as usize;
    let pairs = features.pairs && rng.chance(20);
    if globals + shared == 0 && !pairs {
        globals = 1;
    }
    let params = (0..rng.range(0, 2))
        .map(|_| i64::from(rng.range(0, 4)))
        .collect();
    let carried = if features.carried && rng.chance(40) {
        (0..rng.range(1, 2)).map(|_| rng.range(0, 3)).collect()
    } else {
        Vec::new()
    };
    let mut kernel = Kernel {
        len,
        globals,
        shared,
        pairs,
        params,
        carried,
        body: Vec::new(),
    };
    let mut g = Gen {
        rng,
        features,
        kernel: &kernel,
        budget: 0,
        locals: Vec::new(),
        loops: Vec::new(),
        next_local: 0,
        next_loop: 0,
    };
    g.budget = g.rng.range(5, 15);
    let mut body = Vec::new();
    while g.budget > 0 {
        body.extend(g.block(0, true, 3));
    }
    kernel.body = body;
    (kernel, launch)
}

struct Gen<'k> {
    rng: Rng,
    features: Features,
    kernel: &'k Kernel,
    /// Statements left to generate.
    budget: u32,
    /// Locals `vK` in scope.
    locals: Vec<usize>,
    /// Loop variables `iK` in scope, with whether they are block-uniform.
    loops: Vec<(usize, bool)>,
    next_local: usize,
    next_loop: usize,
}

impl Gen<'_> {
    /// Up to `max` statements of one block; `uniform`: every enclosing
    /// condition is the same for all threads of a block.
    fn block(&mut self, depth: u32, uniform: bool, max: u32) -> Vec<Stmt> {
        let (locals, loops) = (self.locals.len(), self.loops.len());
        let mut out = Vec::new();
        let n = self.rng.range(1, max);
        for _ in 0..n {
            if self.budget == 0 {
                break;
            }
            self.budget -= 1;
            let s = self.stmt(depth, uniform);
            let ends = matches!(s, Stmt::Return);
            out.push(s);
            if ends {
                break;
            }
        }
        self.locals.truncate(locals);
        self.loops.truncate(loops);
        out
    }

    fn stmt(&mut self, depth: u32, uniform: bool) -> Stmt {
        loop {
            let roll = self.rng.range(0, 99);
            match roll {
                0..=24 => {
                    let arr = self.arr();
                    return Stmt::Store {
                        arr,
                        idx: self.index(),
                        val: self.value(),
                        compound: self.rng.chance(15),
                    };
                }
                25..=36 => {
                    let arr = self.arr();
                    let idx = self.index();
                    let local = self.declare();
                    return Stmt::Load { local, arr, idx };
                }
                37..=46 => {
                    let arr = self.arr();
                    return Stmt::Atomic {
                        arr,
                        idx: self.index(),
                        val: self.value(),
                    };
                }
                47..=56 if self.features.helpers => {
                    let arr = self.arr();
                    let helper = if arr.is_pair() {
                        Helper::PutPair
                    } else if self.rng.chance(15) && (uniform || self.features.divergent_barriers) {
                        Helper::SyncPut
                    } else {
                        self.rng.pick(&[Helper::Put, Helper::Bump, Helper::Get])
                    };
                    let (idx, val) = (self.index(), self.value());
                    let local = if helper == Helper::Get {
                        self.declare()
                    } else {
                        0
                    };
                    return Stmt::Call {
                        helper,
                        arr,
                        idx,
                        val,
                        local,
                    };
                }
                57..=72 if depth < 3 => {
                    let cond = self.cond();
                    let inner = uniform && cond.block_uniform();
                    let then = self.block(depth + 1, inner, 3);
                    let els = if self.rng.chance(30) {
                        self.block(depth + 1, inner, 2)
                    } else {
                        Vec::new()
                    };
                    return Stmt::If { cond, then, els };
                }
                73..=82 if depth < 3 => {
                    let var = self.next_loop;
                    self.next_loop += 1;
                    // Mostly `0..B` by 1 (B a constant or a parameter,
                    // at most 4); sometimes a thread's own start (a
                    // block-stride loop) or a constant stride.
                    let params = self.kernel.params.len();
                    let (start, step, bound) = match self.rng.range(0, 9) {
                        0..=4 => (
                            Expr::Const(0),
                            Expr::Const(1),
                            Expr::Const(self.rng.range(1, 3)),
                        ),
                        5 if params > 0 => (
                            Expr::Const(0),
                            Expr::Const(1),
                            Expr::Param(self.rng.index(params)),
                        ),
                        5..=7 => (
                            Expr::ThreadIdx,
                            Expr::BlockDim,
                            Expr::Const(self.rng.range(2, 8)),
                        ),
                        _ => (
                            Expr::Const(self.rng.range(0, 2)),
                            Expr::Const(self.rng.range(2, 3)),
                            Expr::Const(self.rng.range(2, 6)),
                        ),
                    };
                    let mut shape = LoopShape::Up;
                    let (start, step, bound) = if self.features.carried && self.rng.chance(30) {
                        shape = self.rng.pick(&[
                            LoopShape::Double,
                            LoopShape::Halve,
                            LoopShape::HalveToZero,
                            LoopShape::Down,
                        ]);
                        let (start, bound) = match shape {
                            LoopShape::Double => (self.rng.range(1, 2), self.rng.range(2, 9)),
                            LoopShape::Halve | LoopShape::HalveToZero => (self.rng.range(1, 8), 0),
                            _ => (self.rng.range(1, 3), 0),
                        };
                        (Expr::Const(start), Expr::Const(1), Expr::Const(bound))
                    } else {
                        if matches!(bound, Expr::Const(_)) && self.rng.chance(25) {
                            shape = LoopShape::TopExit;
                        }
                        (start, step, bound)
                    };
                    let same = start.block_uniform() && step.block_uniform();
                    self.loops.push((var, same));
                    // Sometimes a conjunctive test (jacobiCudaGraphs' row
                    // loops), whose further conjunct may end it early.
                    let extra =
                        (shape != LoopShape::TopExit && self.rng.chance(20)).then(|| self.cond());
                    // The block's threads run the same iterations.
                    let together = same && extra.as_ref().is_none_or(Cond::block_uniform);
                    let mut body = self.block(depth + 1, uniform && together, 3);
                    // Loop-carried updates, mostly at the end of the body.
                    if !self.kernel.carried.is_empty() && self.rng.chance(60) {
                        let update = self.update();
                        let at = if self.rng.chance(70) { body.len() } else { 0 };
                        body.insert(at, update);
                    }
                    self.loops.retain(|(v, _)| *v != var);
                    return Stmt::For {
                        var,
                        shape,
                        start,
                        bound,
                        step,
                        extra,
                        body,
                    };
                }
                // Loops left on a shared flag, mostly well synchronized.
                98 | 99 if depth < 3 && (uniform || self.features.divergent_barriers) => {
                    let var = self.next_loop;
                    self.next_loop += 1;
                    let limit = self.rng.range(1, 2);
                    let exit = self.expr(1, true);
                    let quiet = self.rng.chance(80);
                    let close = self.rng.chance(80);
                    self.loops.push((var, true));
                    let body = self.block(depth + 1, uniform && quiet && close, 3);
                    self.loops.retain(|(v, _)| *v != var);
                    return Stmt::Until {
                        var,
                        limit,
                        exit,
                        quiet,
                        close,
                        body,
                    };
                }
                83..=94 if uniform => {
                    // Warp and tile barriers in uniform code, a quarter of
                    // the time: a tile of 2 orders half a 4-thread block.
                    return match self.rng.range(0, 7) {
                        0 if self.features.group_barriers => Stmt::WarpSync,
                        1 if self.features.group_barriers => Stmt::TileSync,
                        _ => Stmt::Sync,
                    };
                }
                83..=86 if self.features.divergent_barriers => return Stmt::Sync,
                95..=97 if depth > 0 && self.features.returns => return Stmt::Return,
                _ => {}
            }
        }
    }

    /// An update of a loop-carried variable.
    fn update(&mut self) -> Stmt {
        let n = self.kernel.carried.len();
        let var = self.rng.index(n);
        let update = match self.rng.range(0, 9) {
            0..=3 => Update::Flip(self.rng.range(1, 3)),
            4 | 5 => Update::Xor(self.rng.range(1, 2)),
            6 if n > 1 => Update::Swap(1 - var),
            6 | 7 => {
                let thread = self.rng.chance(30);
                Update::Set(self.expr(1, thread))
            }
            _ => Update::Add(self.rng.range(1, 2)),
        };
        Stmt::Update { var, update }
    }

    fn declare(&mut self) -> usize {
        let v = self.next_local;
        self.next_local += 1;
        self.locals.push(v);
        v
    }

    fn arr(&mut self) -> Arr {
        let k = self.kernel;
        let mut choices = Vec::new();
        choices.extend((0..k.globals).map(Arr::Global));
        choices.extend((0..k.shared).map(Arr::Shared));
        if k.pairs {
            choices.extend([
                Arr::SharedPair(false),
                Arr::SharedPair(true),
                Arr::GlobalPair(false),
                Arr::GlobalPair(true),
            ]);
        }
        self.rng.pick(&choices)
    }

    /// An index: half the time one of the shapes race-free kernels use
    /// (a thread's own slot, shifted, strided or per block), else any
    /// expression.
    fn index(&mut self) -> Expr {
        if !self.rng.chance(50) {
            return self.expr(0, true);
        }
        let bin = |op, a, b| Expr::Bin(op, Box::new(a), Box::new(b));
        let c = Expr::Const(self.rng.range(0, 3));
        let tid = Expr::ThreadIdx;
        match self.rng.range(0, 5) {
            0 => tid,
            1 => bin(Op::Add, tid, c),
            2 => bin(Op::Xor, tid, c),
            3 => bin(Op::Add, bin(Op::Mul, Expr::BlockIdx, Expr::BlockDim), tid),
            4 if !self.loops.is_empty() => {
                let (v, same) = self.rng.pick(&self.loops.clone());
                let i = Expr::Loop(v, same);
                bin(Op::Add, bin(Op::Mul, i, Expr::BlockDim), tid)
            }
            4 if !self.kernel.carried.is_empty() => {
                // A ping-pong row: `c * blockDim.x + threadIdx.x`.
                let c = Expr::Carried(self.rng.index(self.kernel.carried.len()));
                bin(Op::Add, bin(Op::Mul, c, Expr::BlockDim), tid)
            }
            _ => bin(Op::Add, bin(Op::Mul, tid, Expr::Const(2)), c),
        }
    }

    /// A value to store or add.
    fn value(&mut self) -> Expr {
        self.expr(1, true)
    }

    fn cond(&mut self) -> Cond {
        if self.rng.chance(15) {
            let and = self.rng.chance(50);
            let (a, b) = (self.cmp(), self.cmp());
            return Cond::Join(and, Box::new(a), Box::new(b));
        }
        self.cmp()
    }

    fn cmp(&mut self) -> Cond {
        let thread = self.rng.chance(50);
        self.cmp_over(thread)
    }

    /// A comparison; `thread`: it may depend on the thread.
    fn cmp_over(&mut self, thread: bool) -> Cond {
        let lhs = self.expr(1, thread);
        let rhs = if self.rng.chance(80) {
            Expr::Const(self.rng.range(0, 4))
        } else {
            self.expr(2, thread)
        };
        let cmp = self.rng.pick(&[Cmp::Lt, Cmp::Le, Cmp::Eq, Cmp::Ne]);
        Cond::Cmp { cmp, lhs, rhs }
    }

    /// An unsigned expression; `thread`: it may read the thread index and
    /// locals (else it is uniform within a block).
    fn expr(&mut self, depth: u32, thread: bool) -> Expr {
        if depth < 2 && self.rng.chance(5) {
            let c = self.cmp_over(thread);
            let (a, b) = (self.expr(depth + 1, thread), self.expr(depth + 1, thread));
            return Expr::Select(Box::new(c), Box::new(a), Box::new(b));
        }
        if depth < 3 && self.rng.chance(55 - 15 * depth) {
            let op = self.rng.pick(&[
                Op::Add,
                Op::Add,
                Op::Sub,
                Op::Mul,
                Op::Xor,
                Op::And,
                Op::Shl,
                Op::Shr,
                Op::Rem,
            ]);
            let a = self.expr(depth + 1, thread);
            let b = match op {
                Op::Mul => Expr::Const(self.rng.range(1, 5)),
                Op::Shl => Expr::Const(self.rng.range(0, 3)),
                Op::Shr => Expr::Const(self.rng.range(0, 2)),
                Op::Rem => Expr::Const(self.rng.range(1, 5)),
                _ => self.expr(depth + 1, thread),
            };
            return Expr::Bin(op, Box::new(a), Box::new(b));
        }
        loop {
            match self.rng.range(0, 99) {
                0..=7 if thread && !self.kernel.carried.is_empty() => {
                    return Expr::Carried(self.rng.index(self.kernel.carried.len()))
                }
                0..=34 if thread => return Expr::ThreadIdx,
                35..=44 => return Expr::BlockIdx,
                45..=49 => return Expr::BlockDim,
                50..=69 => return Expr::Const(self.rng.range(0, 4)),
                70..=79 if !self.kernel.params.is_empty() => {
                    return Expr::Param(self.rng.index(self.kernel.params.len()))
                }
                80..=94 => {
                    let uniform: Vec<(usize, bool)> = self
                        .loops
                        .iter()
                        .copied()
                        .filter(|(_, same)| thread || *same)
                        .collect();
                    if !uniform.is_empty() {
                        let (v, same) = self.rng.pick(&uniform);
                        return Expr::Loop(v, same);
                    }
                }
                95..=99 if thread && self.features.data_dependence && !self.locals.is_empty() => {
                    return Expr::Local(self.rng.pick(&self.locals.clone()))
                }

                _ => {}
            }
        }
    }
}
