//! Which variables are live where each loop iteration starts: the facts
//! spin-assume (see [`crate::spin`]) needs to decide that an iteration left
//! the thread where it began.
//!
//! A variable is *live* at a point when some path from there may read it
//! before writing it (classic backward liveness). For a loop, the point is
//! the start of an iteration: the header of a `for`/`while` loop, the body
//! of a `do`-`while` loop (`warpsafe_ir::LoopCheck`). Two thread states that
//! agree on the live variables (and on local memory) behave alike from that
//! point on, whatever the dead variables (temporaries of the last
//! iteration) hold.
//!
//! The analysis walks the structured IR backwards: `break L` continues with
//! what is live after `L`, `continue L` with what is live at `L`'s step,
//! `return` with nothing; loops iterate to a fixpoint (the sets only grow,
//! so it terminates). Loops of kinds that do not iterate (`switch`, inlined
//! calls, forward `goto`) run once.
//!
//! Cost: an enclosing loop's fixpoint walks its body at least twice, so
//! re-solving every nested loop from scratch on each walk would be
//! exponential in the nesting depth. Each iterating loop therefore keeps
//! its last fixpoint with the inputs it was solved for (what is live after
//! it and at every enclosing `break`/`continue` target): the same inputs
//! give the stored result without walking the body, and grown inputs
//! (they only grow while the enclosing fixpoints climb) restart from the
//! stored fixpoint, which lies below the new one. Every walk of a body
//! then either changes some loop's inputs or hits its store, which keeps
//! the analysis polynomial (about quadratic in the nesting depth, linear
//! in the program's length) instead of exponential.
//!
//! Invariants: the result over-approximates liveness (a variable read on
//! any path counts), which only makes states compare unequal more often.
//! The walk recurses over statement nesting only, at most [`MAX_DEPTH`]
//! deep; deeper IR, or a jump to a loop that does not enclose it, gives no
//! facts at all ([`Liveness::analyse`] returns `None`), and spin-assume is
//! then off for the kernel.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;
use warpsafe_ir::{
    BarrierKind, BinOp, Block, Const, Expr, Kernel, LoopCheck, LoopId, MemRef, ScalarTy, Stmt,
    StmtKind, VarId,
};

/// Deepest statement nesting the analysis follows.
pub(crate) const MAX_DEPTH: usize = 256;

type Live = BTreeSet<VarId>;

/// The variables live at the start of every iteration of every loop.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Liveness {
    at_iteration: BTreeMap<LoopId, Vec<VarId>>,
    /// Loops no iteration of which can be wasted ([`Liveness::never_wasted`]).
    counted: BTreeSet<LoopId>,
}

impl Liveness {
    /// Liveness for `kernel`, or `None` when the IR is too deep or has a
    /// jump to a loop that does not enclose it; [`TimedOut`] when
    /// `deadline` passes first.
    pub fn analyse(
        kernel: &Kernel,
        deadline: Option<Instant>,
    ) -> Result<Option<Liveness>, TimedOut> {
        let mut a = Analysis::new();
        a.deadline = deadline;
        let done = a.block(&kernel.body, Live::new(), 0);
        if a.timed_out {
            return Err(TimedOut);
        }
        Ok(done.map(|_| {
            let mut out = a.out;
            out.counted = counted_loops(kernel, &out.at_iteration);
            out
        }))
    }

    /// Whether no iteration of loop `id` can be wasted: its step adds a
    /// non-zero constant to a counter live where an iteration starts, and
    /// nothing else in the loop writes the counter, so every iteration
    /// that reaches the back edge (always through the step) changes a live
    /// variable. Spin-assume then needs no snapshot of it.
    pub fn never_wasted(&self, id: LoopId) -> bool {
        self.counted.contains(&id)
    }

    /// The variables live where an iteration of `id` starts (sorted); empty
    /// for a loop the analysis did not see.
    pub fn at_iteration(&self, id: LoopId) -> &[VarId] {
        self.at_iteration.get(&id).map_or(&[], Vec::as_slice)
    }
}

/// The loops of `kernel` whose step counts a live variable (see
/// [`Liveness::never_wasted`]).
fn counted_loops(kernel: &Kernel, live: &BTreeMap<LoopId, Vec<VarId>>) -> BTreeSet<LoopId> {
    let mut counted = BTreeSet::new();
    kernel.walk(&mut |stmt| {
        let StmtKind::Loop {
            id,
            header,
            body,
            step,
            ..
        } = &stmt.kind
        else {
            return;
        };
        let Some((v, ty)) = step_counter(step) else {
            return;
        };
        // At another type, the assignment could convert `v + c` back to `v`.
        let same_type = kernel
            .vars
            .get(v.0 as usize)
            .is_some_and(|var| var.ty == ty);
        if !same_type || !live.get(id).is_some_and(|l| l.contains(&v)) {
            return;
        }
        // One write of `v` in the whole loop: the step's.
        let mut writes = 0;
        for block in [header, body, step] {
            warpsafe_ir::walk_block(block, &mut |s| {
                writes += usize::from(s.assigned_var() == Some(v));
            });
        }
        if writes == 1 {
            counted.insert(*id);
        }
    });
    counted
}

/// The counter of a step that is exactly `v = v + c` or `v = v - c` (or
/// `c + v`) with `c` a non-zero integer constant of the operation's type,
/// and that type: when it is `v`'s, `v` changes whenever the step runs.
fn step_counter(step: &Block) -> Option<(VarId, ScalarTy)> {
    let [Stmt {
        kind: StmtKind::Assign { dst, value },
        ..
    }] = step.as_slice()
    else {
        return None;
    };
    let Expr::Binary(op @ (BinOp::Add | BinOp::Sub), ty, a, b) = value else {
        return None;
    };
    let nonzero = |e: &Expr| match e {
        Expr::Const(Const::Int(c), t) if t == ty => {
            let bits = ty.bits();
            // `c` is wrapped to the type, so it is non-zero modulo 2^bits
            // when it is non-zero.
            bits > 0 && *c != 0
        }
        _ => false,
    };
    let counts = match (&**a, &**b) {
        (Expr::Var(x), c) if x == dst => nonzero(c),
        (c, Expr::Var(x)) if x == dst && *op == BinOp::Add => nonzero(c),
        _ => false,
    };
    (counts && ty.is_integer() && *ty != ScalarTy::Bool).then_some((*dst, *ty))
}

/// The analysis ran past its deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TimedOut;

/// Statements walked between two looks at the clock.
const CLOCK_EVERY: u64 = 4096;

/// Where `break` and `continue` of an enclosing loop go.
struct Targets {
    id: LoopId,
    after: Live,
    step: Live,
}

/// One iterating loop's last fixpoint and the inputs it was solved for.
struct Solved {
    after: Live,
    /// The `after` and `step` sets of the enclosing loops that `break` or
    /// `continue` inside the loop jump to, innermost last.
    targets: Vec<(Live, Live)>,
    fixpoint: Live,
}

struct Analysis {
    out: Liveness,
    targets: Vec<Targets>,
    /// Per iterating loop, its last fixpoint (see the module docs).
    solved: BTreeMap<LoopId, Solved>,
    /// Per iterating loop, the enclosing loops its body jumps to.
    jumps_out: BTreeMap<LoopId, Vec<LoopId>>,
    /// Whether `solved` is used (off only to test it against the plain
    /// exponential walk).
    memo: bool,
    /// Statements walked so far (the cost, for tests).
    walked: u64,
    /// When to give up (the walk then ends with `None` and `timed_out`).
    deadline: Option<Instant>,
    timed_out: bool,
}

/// The loops other than `id` and those nested in it that a `break` or
/// `continue` in `blocks` (loop `id`'s header, body and step) names: loops
/// enclosing loop `id`. Nesting deeper than [`MAX_DEPTH`] is not followed
/// (the analysis gives no facts there anyway).
fn jumps_out(id: LoopId, blocks: [&Block; 3]) -> Vec<LoopId> {
    fn walk(stmts: &Block, depth: usize, inner: &mut Vec<LoopId>, out: &mut Vec<LoopId>) {
        if depth > MAX_DEPTH {
            return;
        }
        for s in stmts {
            match &s.kind {
                StmtKind::Break(l) | StmtKind::Continue(l)
                    if !inner.contains(l) && !out.contains(l) =>
                {
                    out.push(*l);
                }
                StmtKind::If { then_, else_, .. } => {
                    walk(then_, depth + 1, inner, out);
                    walk(else_, depth + 1, inner, out);
                }
                StmtKind::Loop {
                    id,
                    header,
                    body,
                    step,
                    ..
                } => {
                    inner.push(*id);
                    for b in [header, body, step] {
                        walk(b, depth + 1, inner, out);
                    }
                    inner.pop();
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    let mut inner = vec![id];
    for b in blocks {
        walk(b, 0, &mut inner, &mut out);
    }
    out
}

fn uses(live: &mut Live, e: &Expr) {
    live.extend(e.vars());
}

fn uses_mem(live: &mut Live, mem: &MemRef) {
    uses(live, &mem.index);
}

impl Analysis {
    fn new() -> Analysis {
        Analysis::with_memo(true)
    }

    fn with_memo(memo: bool) -> Analysis {
        Analysis {
            memo,
            walked: 0,
            deadline: None,
            timed_out: false,
            out: Liveness::default(),
            targets: Vec::new(),
            solved: BTreeMap::new(),
            jumps_out: BTreeMap::new(),
        }
    }

    /// Live before `stmts` given `live` after them.
    fn block(&mut self, stmts: &Block, mut live: Live, depth: usize) -> Option<Live> {
        if depth > MAX_DEPTH {
            return None;
        }
        for s in stmts.iter().rev() {
            live = self.stmt(s, live, depth)?;
        }
        Some(live)
    }

    fn stmt(&mut self, s: &Stmt, mut live: Live, depth: usize) -> Option<Live> {
        self.walked += 1;
        if self.walked.is_multiple_of(CLOCK_EVERY) {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.timed_out = true;
                    return None;
                }
            }
        }
        match &s.kind {
            StmtKind::Assign { dst, value } => {
                live.remove(dst);
                uses(&mut live, value);
            }
            StmtKind::Havoc { dst, .. } => {
                live.remove(dst);
            }
            StmtKind::Load { dst, mem, .. } => {
                live.remove(dst);
                uses_mem(&mut live, mem);
            }
            StmtKind::Store { mem, value, .. } => {
                uses_mem(&mut live, mem);
                uses(&mut live, value);
            }
            StmtKind::Rmw {
                dst, mem, operand, ..
            } => {
                if let Some(d) = dst {
                    live.remove(d);
                }
                uses_mem(&mut live, mem);
                uses(&mut live, operand);
            }
            StmtKind::Cas {
                dst,
                mem,
                expected,
                desired,
                ..
            } => {
                if let Some(d) = dst {
                    live.remove(d);
                }
                uses_mem(&mut live, mem);
                uses(&mut live, expected);
                uses(&mut live, desired);
            }
            StmtKind::Barrier { kind, reduce } => {
                if let Some((_, pred, dst)) = reduce {
                    live.remove(dst);
                    uses(&mut live, pred);
                }
                if let BarrierKind::Warp { mask } = kind {
                    uses(&mut live, mask);
                }
            }
            StmtKind::Fence { .. } => {}
            StmtKind::Assert { cond, .. } | StmtKind::Assume { cond, .. } => {
                uses(&mut live, cond);
            }
            StmtKind::Print { args, .. } => {
                for a in args {
                    uses(&mut live, a);
                }
            }
            StmtKind::If { cond, then_, else_ } => {
                let mut l = self.block(then_, live.clone(), depth + 1)?;
                l.extend(self.block(else_, live, depth + 1)?);
                uses(&mut l, cond);
                live = l;
            }
            StmtKind::Loop {
                id,
                kind,
                header,
                cond,
                check,
                body,
                step,
            } => {
                let after = live;
                let l = if kind.iterates() {
                    self.iterating(*id, *check, [header, body, step], cond, after, depth)?
                } else {
                    // One pass: the loop's tail goes to what follows it.
                    let s = self.block(step, after.clone(), depth + 1)?;
                    let b = self.in_loop(*id, body, s.clone(), after.clone(), s, depth)?;
                    match check {
                        LoopCheck::After => b,
                        LoopCheck::Before => {
                            let mut c = b;
                            c.extend(after);
                            uses(&mut c, cond);
                            self.block(header, c, depth + 1)?
                        }
                    }
                };
                live = l;
            }
            StmtKind::Break(id) => {
                live = self
                    .targets
                    .iter()
                    .rev()
                    .find(|t| t.id == *id)?
                    .after
                    .clone();
            }
            StmtKind::Continue(id) => {
                live = self
                    .targets
                    .iter()
                    .rev()
                    .find(|t| t.id == *id)?
                    .step
                    .clone();
            }
            StmtKind::Return => live = Live::new(),
        }
        Some(live)
    }

    /// Live before `body` of loop `id` (live `next` after it), with its
    /// `break` and `continue` targets.
    fn in_loop(
        &mut self,
        id: LoopId,
        body: &Block,
        next: Live,
        after: Live,
        step: Live,
        depth: usize,
    ) -> Option<Live> {
        self.targets.push(Targets { id, after, step });
        let r = self.block(body, next, depth + 1);
        self.targets.pop();
        r
    }

    /// Live at the start of an iterating loop (its fixpoint), recorded as
    /// the loop's iteration-start facts.
    fn iterating(
        &mut self,
        id: LoopId,
        check: LoopCheck,
        [header, body, step]: [&Block; 3],
        cond: &Expr,
        after: Live,
        depth: usize,
    ) -> Option<Live> {
        // The enclosing targets the body jumps to are inputs too.
        let outer = self
            .jumps_out
            .entry(id)
            .or_insert_with(|| jumps_out(id, [header, body, step]))
            .clone();
        let mut targets: Vec<(Live, Live)> = Vec::new();
        for t in self.targets.iter().filter(|t| outer.contains(&t.id)) {
            targets.push((t.after.clone(), t.step.clone()));
        }
        let mut x = Live::new();
        if let Some(prev) = self.solved.get(&id).filter(|_| self.memo) {
            if prev.after == after && prev.targets == targets {
                return Some(prev.fixpoint.clone());
            }
            // Inputs only grow: the old fixpoint is below the new one.
            x = prev.fixpoint.clone();
        }
        loop {
            let next = match check {
                LoopCheck::Before => {
                    let s = self.block(step, x.clone(), depth + 1)?;
                    let mut c = self.in_loop(id, body, s.clone(), after.clone(), s, depth)?;
                    c.extend(after.iter().copied());
                    uses(&mut c, cond);
                    self.block(header, c, depth + 1)?
                }
                LoopCheck::After => {
                    let mut c = x.clone();
                    c.extend(after.iter().copied());
                    uses(&mut c, cond);
                    let h = self.block(header, c, depth + 1)?;
                    let s = self.block(step, h, depth + 1)?;
                    self.in_loop(id, body, s.clone(), after.clone(), s, depth)?
                }
            };
            // The sets only grow: keep what was live before as well.
            let mut next = next;
            next.extend(x.iter().copied());
            if next == x {
                self.out
                    .at_iteration
                    .insert(id, x.iter().copied().collect());
                self.solved.insert(
                    id,
                    Solved {
                        after,
                        targets,
                        fixpoint: x.clone(),
                    },
                );
                return Some(x);
            }
            x = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpsafe_ir::{BinOp, LoopKind, ScalarTy, Span};

    fn span() -> Span {
        Span::new(warpsafe_source::FileId(0), 0, 0)
    }

    fn stmt(kind: StmtKind) -> Stmt {
        Stmt::new(kind, span())
    }

    fn var(i: u32) -> Expr {
        Expr::Var(VarId(i))
    }

    /// `while (t = x[0], t != e) { e = 0; }` then `use(r)`: `e` and `r`
    /// are live at the header, the temporary `t` is not.
    #[test]
    fn temporaries_written_before_read_are_dead_at_the_header() {
        let mem = MemRef {
            array: warpsafe_ir::ArrayId(0),
            index: Expr::int(0, ScalarTy::I32),
            ty: ScalarTy::I32,
        };
        let lp = stmt(StmtKind::Loop {
            id: LoopId(0),
            kind: LoopKind::While,
            header: vec![stmt(StmtKind::Load {
                dst: VarId(0),
                mem,
                access: warpsafe_ir::AccessKind::Plain,
            })],
            cond: Expr::binary(BinOp::Ne, ScalarTy::Bool, var(0), var(1)),
            check: LoopCheck::Before,
            body: vec![stmt(StmtKind::Assign {
                dst: VarId(1),
                value: Expr::int(0, ScalarTy::I32),
            })],
            step: vec![],
        });
        let after = stmt(StmtKind::Assert {
            cond: var(2),
            message: String::new(),
        });
        let mut a = Analysis::new();
        let live = a
            .block(&vec![lp, after], Live::new(), 0)
            .expect("well formed");
        assert_eq!(a.out.at_iteration(LoopId(0)), &[VarId(1), VarId(2)]);
        assert_eq!(
            live.into_iter().collect::<Vec<_>>(),
            vec![VarId(1), VarId(2)]
        );
    }

    #[test]
    fn a_jump_out_of_nowhere_gives_no_facts() {
        let mut a = Analysis::new();
        assert!(a
            .block(&vec![stmt(StmtKind::Break(LoopId(3)))], Live::new(), 0)
            .is_none());
    }
}

#[cfg(test)]
mod nest_tests {
    //! The stored fixpoints: the same facts as the plain walk, at a cost
    //! polynomial in the nesting depth.
    use super::*;
    use warpsafe_ir::{BinOp, LoopKind, ScalarTy, Span};

    fn stmt(kind: StmtKind) -> Stmt {
        Stmt::new(kind, Span::new(warpsafe_source::FileId(0), 0, 0))
    }

    fn var(i: u32) -> Expr {
        Expr::Var(VarId(i))
    }

    /// `for (v_k = 0; v_k < 2; v_k++)` nested `depth` deep around a store
    /// of the sum of every `v_k` (and of the temporary `t`, written first);
    /// the innermost body also `continue`s the outermost loop when
    /// `v_(depth-1) == 1`, and `break`s the middle one.
    fn nest(depth: u32) -> Block {
        let t = depth;
        let sum = (0..depth).fold(Expr::int(0, ScalarTy::I32), |e, k| {
            Expr::binary(BinOp::Add, ScalarTy::I32, e, var(k))
        });
        let mut body: Block = vec![
            stmt(StmtKind::Assign {
                dst: VarId(t),
                value: sum,
            }),
            stmt(StmtKind::Store {
                mem: MemRef {
                    array: warpsafe_ir::ArrayId(0),
                    index: Expr::int(0, ScalarTy::I32),
                    ty: ScalarTy::I32,
                },
                value: var(t),
                access: warpsafe_ir::AccessKind::Plain,
            }),
            stmt(StmtKind::If {
                cond: Expr::binary(BinOp::Eq, ScalarTy::Bool, var(depth - 1), var(0)),
                then_: vec![stmt(StmtKind::Continue(LoopId(0)))],
                else_: vec![stmt(StmtKind::Break(LoopId(depth / 2)))],
            }),
        ];
        for k in (0..depth).rev() {
            let lp = stmt(StmtKind::Loop {
                id: LoopId(k),
                kind: LoopKind::For,
                header: vec![],
                cond: Expr::binary(
                    BinOp::Lt,
                    ScalarTy::Bool,
                    var(k),
                    Expr::int(2, ScalarTy::I32),
                ),
                check: LoopCheck::Before,
                body,
                step: vec![stmt(StmtKind::Assign {
                    dst: VarId(k),
                    value: Expr::binary(
                        BinOp::Add,
                        ScalarTy::I32,
                        var(k),
                        Expr::int(1, ScalarTy::I32),
                    ),
                })],
            });
            body = vec![
                stmt(StmtKind::Assign {
                    dst: VarId(k),
                    value: Expr::int(0, ScalarTy::I32),
                }),
                lp,
            ];
        }
        body
    }

    fn analyse(b: &Block, memo: bool) -> (Liveness, u64) {
        let mut a = Analysis::with_memo(memo);
        a.block(b, Live::new(), 0).expect("well formed");
        (a.out, a.walked)
    }

    #[test]
    fn stored_fixpoints_give_the_plain_walks_facts() {
        for depth in 1..=9 {
            let b = nest(depth);
            let (memo, _) = analyse(&b, true);
            let (plain, _) = analyse(&b, false);
            assert_eq!(memo, plain, "depth {depth}");
            // At loop k's iteration start, its own and the enclosing
            // loops' variables are live; the inner ones (set before their
            // loops) and the temporary are not.
            for k in 0..depth {
                let live = memo.at_iteration(LoopId(k));
                let want: Vec<VarId> = (0..=k).map(VarId).collect();
                assert_eq!(live, want.as_slice(), "depth {depth}, loop {k}");
            }
        }
    }

    #[test]
    fn a_deep_nest_costs_polynomial_not_exponential_walks() {
        // The plain walk doubles per level at least (2^d walks).
        let (_, plain) = analyse(&nest(12), false);
        assert!(plain >= 1 << 12, "{plain}");
        for depth in [26, 60, 100] {
            let (_, walked) = analyse(&nest(depth), true);
            let d = u64::from(depth);
            assert!(
                walked <= 10 * d * d,
                "depth {depth}: {walked} statements walked"
            );
        }
    }

    #[test]
    fn a_passed_deadline_stops_the_analysis() {
        // The plain walk of a 30-deep nest would take hours.
        let mut a = Analysis::with_memo(false);
        a.deadline = Some(Instant::now());
        assert!(a.block(&nest(30), Live::new(), 0).is_none());
        assert!(a.timed_out);
    }
}

#[cfg(test)]
mod counted_tests {
    //! Which loops need no spin-assume snapshot: those whose step counts a
    //! live variable that nothing else in the loop writes.
    use super::*;
    use warpsafe_frontend::{compile, Options, SourceLoader};
    use warpsafe_source::{SourceFile, SourceMap};

    struct NoFiles;

    impl SourceLoader for NoFiles {
        fn load(&self, _: &std::path::Path) -> Option<String> {
            None
        }
    }

    /// Whether each loop of the kernel in `body` (in loop-id order) never
    /// has a wasted iteration.
    fn never_wasted(body: &str) -> Vec<bool> {
        let src = format!("__global__ void k(int *a, int n) {{ {body} }}");
        let mut sources = SourceMap::new();
        let main = sources.add(SourceFile::new("k.cu", src, false));
        let out = compile(main, &mut sources, &Options::default(), &NoFiles);
        assert!(!out.has_errors(), "{:?}", out.diagnostics);
        let k = &out.module.kernels[0];
        let l = Liveness::analyse(k, None)
            .expect("no deadline")
            .expect("well formed");
        let mut ids = Vec::new();
        k.walk(&mut |s| {
            if let StmtKind::Loop { id, .. } = &s.kind {
                ids.push(*id);
            }
        });
        ids.sort();
        ids.into_iter().map(|id| l.never_wasted(id)).collect()
    }

    #[test]
    fn a_for_loop_counting_its_variable_is_never_wasted() {
        assert_eq!(
            never_wasted("for (int i = 0; i < n; i++) a[i] = 0;"),
            [true]
        );
        assert_eq!(
            never_wasted("for (int i = n; i > 0; i -= 2) a[0] = i;"),
            [true]
        );
    }

    #[test]
    fn a_counter_written_elsewhere_or_not_counting_is_not_trusted() {
        // The body may undo the step.
        assert_eq!(
            never_wasted("for (int i = 0; i < n; i++) { if (a[0]) i--; }"),
            [false]
        );
        // Await loops: no step, or a step that changes nothing.
        assert_eq!(never_wasted("while (a[0] == 0) {}"), [false]);
        assert_eq!(
            never_wasted("for (int i = 0; a[0] == 0; i += 0) {}"),
            [false]
        );
    }

    #[test]
    fn a_narrow_counter_stepped_at_a_wider_type_is_not_trusted() {
        // `c += 256` at `int` leaves a `char` counter where it was.
        assert_eq!(
            never_wasted("for (char c = 0; a[0] == 0; c += 256) {}"),
            [false]
        );
    }
}
