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
//! Invariants: the result over-approximates liveness (a variable read on
//! any path counts), which only makes states compare unequal more often.
//! The walk recurses over statement nesting only, at most [`MAX_DEPTH`]
//! deep; deeper IR, or a jump to a loop that does not enclose it, gives no
//! facts at all ([`Liveness::analyse`] returns `None`), and spin-assume is
//! then off for the kernel.

use std::collections::{BTreeMap, BTreeSet};
use warpsafe_ir::{
    BarrierKind, Block, Expr, Kernel, LoopCheck, LoopId, MemRef, Stmt, StmtKind, VarId,
};

/// Deepest statement nesting the analysis follows.
pub(crate) const MAX_DEPTH: usize = 256;

type Live = BTreeSet<VarId>;

/// The variables live at the start of every iteration of every loop.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Liveness {
    at_iteration: BTreeMap<LoopId, Vec<VarId>>,
}

impl Liveness {
    /// Liveness for `kernel`, or `None` when the IR is too deep or has a
    /// jump to a loop that does not enclose it.
    pub fn analyse(kernel: &Kernel) -> Option<Liveness> {
        let mut a = Analysis {
            out: Liveness::default(),
            targets: Vec::new(),
        };
        a.block(&kernel.body, Live::new(), 0)?;
        Some(a.out)
    }

    /// The variables live where an iteration of `id` starts (sorted); empty
    /// for a loop the analysis did not see.
    pub fn at_iteration(&self, id: LoopId) -> &[VarId] {
        self.at_iteration.get(&id).map_or(&[], Vec::as_slice)
    }
}

/// Where `break` and `continue` of an enclosing loop go.
struct Targets {
    id: LoopId,
    after: Live,
    step: Live,
}

struct Analysis {
    out: Liveness,
    targets: Vec<Targets>,
}

fn uses(live: &mut Live, e: &Expr) {
    live.extend(e.vars());
}

fn uses_mem(live: &mut Live, mem: &MemRef) {
    uses(live, &mem.index);
}

impl Analysis {
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
        let mut x = Live::new();
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
        let mut a = Analysis {
            out: Liveness::default(),
            targets: Vec::new(),
        };
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
        let mut a = Analysis {
            out: Liveness::default(),
            targets: Vec::new(),
        };
        assert!(a
            .block(&vec![stmt(StmtKind::Break(LoopId(3)))], Live::new(), 0)
            .is_none());
    }
}
