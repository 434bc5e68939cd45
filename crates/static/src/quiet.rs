//! Quiet reads: loads of `__shared__` memory in a barrier interval where no
//! thread of the block writes that array. Every thread of a block that reads
//! one location at such a load sees the same value, so a condition built
//! from it (`if (amLast)` after `if (tid == 0) amLast = ...;
//! __syncthreads();`) is the same for the whole block. Barrier aligning
//! (seed 002 §4) needs that to see that a barrier under such a condition is
//! not divergent.
//!
//! The analysis is a forward data flow over the structured IR. An
//! *interval start* is the kernel's entry or a block or grid barrier. At each
//! point it keeps the starts that reach the point without passing another
//! barrier, and it records for each start every array written on such a
//! barrier-free path from it (loops are followed around their back edges
//! until nothing changes; `break`, `continue` and `return` go where they
//! jump). A load of a shared array is quiet when no start that reaches it
//! reaches a write to that array.
//!
//! Why that is enough: the threads of a block that read at the load in one
//! dynamic interval all entered it through the same barrier (every earlier
//! barrier is aligned, or the kernel is reported divergent), and every write
//! a thread makes in that interval lies on a barrier-free path from that
//! barrier. So no thread writes the array in the interval, and every read
//! returns what the writes before the barrier left there.
//!
//! Invariant: over-approximate. More paths than the IR has (a loop's
//! condition may be true or false at each test) only make fewer loads
//! quiet. Whether the *location* is the same for the threads is the
//! caller's question (`infer` asks that the index not depend on the thread).

use std::collections::{BTreeSet, HashMap, HashSet};
use warpsafe_ir::{
    ArrayId, BarrierKind, Block, Kernel, LoopCheck, LoopId, MemSpace, Stmt, StmtKind,
};

/// The loads of `kernel` that are quiet, by address of their statement.
pub(crate) fn quiet_loads(kernel: &Kernel) -> HashSet<*const Stmt> {
    let mut flow = Flow {
        kernel,
        starts: HashMap::new(),
        written: HashMap::new(),
        loads: HashMap::new(),
        breaks: HashMap::new(),
        continues: HashMap::new(),
    };
    let entry: Starts = BTreeSet::from([ENTRY]);
    flow.block(&kernel.body, entry);
    flow.loads
        .into_iter()
        .filter(|(_, (array, starts))| {
            starts
                .iter()
                .all(|s| !flow.written.get(s).is_some_and(|w| w.contains(array)))
        })
        .map(|(stmt, _)| stmt)
        .collect()
}

/// The kernel's entry as an interval start; barriers are numbered from 1.
const ENTRY: usize = 0;

/// The interval starts that reach a point without passing a barrier.
type Starts = BTreeSet<usize>;

struct Flow<'k> {
    kernel: &'k Kernel,
    /// Each barrier's number as an interval start.
    starts: HashMap<*const Stmt, usize>,
    /// The arrays written on barrier-free paths from each start.
    written: HashMap<usize, HashSet<ArrayId>>,
    /// Each load of shared memory: its array and the starts reaching it.
    loads: HashMap<*const Stmt, (ArrayId, Starts)>,
    /// What reaches each loop's exit by `break`, and its step by `continue`.
    breaks: HashMap<LoopId, Starts>,
    continues: HashMap<LoopId, Starts>,
}

impl Flow<'_> {
    /// The starts reaching the end of `block` from `at` its beginning.
    fn block(&mut self, block: &Block, mut at: Starts) -> Starts {
        for stmt in block {
            at = self.stmt(stmt, at);
        }
        at
    }

    fn stmt(&mut self, stmt: &Stmt, at: Starts) -> Starts {
        match &stmt.kind {
            StmtKind::Load { mem, .. } => {
                if self.kernel.array(mem.array).space == MemSpace::Shared {
                    let (_, starts) = self
                        .loads
                        .entry(stmt as *const Stmt)
                        .or_insert_with(|| (mem.array, Starts::new()));
                    starts.extend(at.iter().copied());
                }
                at
            }
            StmtKind::Store { mem, .. } | StmtKind::Rmw { mem, .. } | StmtKind::Cas { mem, .. } => {
                for s in &at {
                    self.written.entry(*s).or_default().insert(mem.array);
                }
                at
            }
            StmtKind::Barrier {
                kind: BarrierKind::Block | BarrierKind::Grid,
                ..
            } => {
                let next = self.starts.len() + 1;
                let id = *self.starts.entry(stmt as *const Stmt).or_insert(next);
                BTreeSet::from([id])
            }
            StmtKind::If { then_, else_, .. } => {
                let mut out = self.block(then_, at.clone());
                out.extend(self.block(else_, at));
                out
            }
            StmtKind::Loop {
                id,
                kind,
                header,
                check,
                body,
                step,
                ..
            } => self.loop_(*id, kind.iterates(), *check, header, body, step, at),
            StmtKind::Break(id) => {
                self.breaks.entry(*id).or_default().extend(at);
                Starts::new()
            }
            StmtKind::Continue(id) => {
                self.continues.entry(*id).or_default().extend(at);
                Starts::new()
            }
            StmtKind::Return => Starts::new(),
            _ => at,
        }
    }

    /// A loop, over-approximated: each test of its condition may go either
    /// way, and a do-while may also test before its first pass.
    #[allow(clippy::too_many_arguments)]
    fn loop_(
        &mut self,
        id: LoopId,
        iterates: bool,
        check: LoopCheck,
        header: &Block,
        body: &Block,
        step: &Block,
        entry: Starts,
    ) -> Starts {
        let mut top = entry.clone();
        loop {
            let tested = self.block(header, top.clone());
            let mut into_body = tested.clone();
            if check == LoopCheck::After {
                into_body.extend(top.iter().copied());
            }
            let mut after_body = self.block(body, into_body);
            after_body.extend(self.continues.get(&id).into_iter().flatten().copied());
            let stepped = self.block(step, after_body);
            let mut next = entry.clone();
            if iterates {
                next.extend(stepped.iter().copied());
            }
            if next == top {
                let mut out = tested;
                out.extend(self.breaks.get(&id).into_iter().flatten().copied());
                if !iterates {
                    out.extend(stepped);
                }
                return out;
            }
            top = next;
        }
    }
}
