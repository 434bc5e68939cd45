//! The explicit control stack of a thread: where it is in the statement
//! tree, without recursion on the Rust stack.
//!
//! Each frame is either a sequence of statements with the index of the next
//! one, or a `Loop` with the part (header, body, step) it is running. The
//! IR's loop shapes (`warpsafe_ir::LoopCheck`):
//!
//! - `Before` (for, while): `header; if !cond break; body; step; repeat`
//! - `After` (do-while): `body; step; header; if !cond break; repeat`
//!
//! `continue L` jumps to `L`'s step; `break L` leaves `L`; loops of kinds
//! that do not iterate (`Switch`, `Inline`, `Goto`) end after one pass even
//! if their body does not `break` (the IR invariant says they run at most
//! once). Every loop test is reported as [`Next::Cond`], so a thread spinning
//! in an empty loop still burns fuel.
//!
//! Every iterating loop frame counts the times its body started since the
//! loop was entered; with a bound `K` ([`ControlStack::new`]), starting the
//! body a `K+1`-th time is refused ([`CondOutcome::Bound`]). The start of
//! every iteration (the header of `for`/`while`, the body of `do`-`while`)
//! is reported as [`Next::Iteration`] (for a `do`-`while` back edge, before
//! the test's result is given: [`ControlStack::back_edge_if_true`]) and the
//! frame keeps a snapshot for spin-assume ([`crate::spin`]) until the next.
//!
//! Invariants: a `Loop` frame is on top only between its parts; memory is
//! O(nesting depth), and a finished sequence is replaced rather than kept
//! below a nested block (so `else if` chains do not grow the stack).

use crate::spin::IterSnapshot;
use warpsafe_ir::{Block, Expr, LoopCheck, LoopId, LoopKind, Span, Stmt};

/// What the thread must do next.
#[derive(Debug)]
pub(crate) enum Next<'k> {
    /// Execute this statement.
    Stmt(&'k Stmt),
    /// Evaluate a loop's condition and report it with [`ControlStack::cond`].
    Cond { cond: &'k Expr, span: Span },
    /// An iteration of the loop frame `frame` (its id `id`) starts; a back
    /// edge when it is not the loop's first.
    Iteration {
        frame: usize,
        id: LoopId,
        back_edge: bool,
        span: Span,
    },
    /// Nothing is left: the thread has finished.
    Done,
}

/// What a loop test's result did.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum CondOutcome {
    /// Left the loop, or started its body.
    Proceed,
    /// The body would start more often than the bound allows.
    Bound { bound: u32, span: Span },
}

/// The statements of a `Loop` the stack needs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LoopStmt<'k> {
    pub id: LoopId,
    pub kind: LoopKind,
    pub check: LoopCheck,
    pub header: &'k Block,
    pub cond: &'k Expr,
    pub body: &'k Block,
    pub step: &'k Block,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Just entered.
    Enter,
    /// Running (or finished) the header.
    Header,
    /// The header ran; the condition is being evaluated.
    Cond,
    Body,
    Step,
}

#[derive(Clone, Debug)]
enum Frame<'k> {
    Seq {
        stmts: &'k [Stmt],
        next: usize,
    },
    Loop {
        lp: LoopStmt<'k>,
        phase: Phase,
        /// Times the body started since the loop was entered.
        bodies: u32,
        /// The thread when the current iteration started (spin-assume).
        snap: Option<Box<IterSnapshot>>,
    },
}

/// Where a thread is in its kernel.
#[derive(Clone, Debug)]
pub(crate) struct ControlStack<'k> {
    frames: Vec<Frame<'k>>,
    /// Most body starts per loop entry.
    bound: Option<u32>,
}

impl<'k> ControlStack<'k> {
    pub fn new(body: &'k [Stmt], bound: Option<u32>) -> ControlStack<'k> {
        let mut s = ControlStack {
            frames: Vec::new(),
            bound,
        };
        s.enter_block(body);
        s
    }

    /// The spin-assume snapshot slot of loop frame `frame`.
    pub fn snapshot_mut(&mut self, frame: usize) -> Option<&mut Option<Box<IterSnapshot>>> {
        match self.frames.get_mut(frame) {
            Some(Frame::Loop { snap, .. }) => Some(snap),
            _ => None,
        }
    }

    /// The iteration each enclosing iterating loop is in (its body starts
    /// since the loop was entered), outermost first: with the statement,
    /// what makes one arrival at a barrier the same dynamic barrier as
    /// another thread's.
    pub fn iterations(&self) -> Vec<u32> {
        self.frames
            .iter()
            .filter_map(|f| match f {
                Frame::Loop { lp, bodies, .. } if lp.kind.iterates() => Some(*bodies),
                _ => None,
            })
            .collect()
    }

    /// Nesting depth (frames held).
    pub fn depth(&self) -> usize {
        self.frames.len()
    }

    /// Advances through structure to the next statement or loop test.
    pub fn next(&mut self) -> Next<'k> {
        loop {
            let frame = self.frames.len().saturating_sub(1);
            let Some(top) = self.frames.last_mut() else {
                return Next::Done;
            };
            match top {
                Frame::Seq { stmts, next } => {
                    let stmts: &'k [Stmt] = stmts;
                    match stmts.get(*next) {
                        Some(s) => {
                            *next += 1;
                            return Next::Stmt(s);
                        }
                        None => {
                            self.frames.pop();
                        }
                    }
                }
                Frame::Loop {
                    lp, phase, bodies, ..
                } => {
                    let lp = *lp;
                    let iteration = |back_edge| Next::Iteration {
                        frame,
                        id: lp.id,
                        back_edge,
                        span: lp.span,
                    };
                    match *phase {
                        Phase::Enter => match lp.check {
                            LoopCheck::Before => {
                                *phase = Phase::Header;
                                self.push_part(lp.header);
                                if lp.kind.iterates() {
                                    return iteration(false);
                                }
                            }
                            LoopCheck::After => {
                                *phase = Phase::Body;
                                *bodies = 1;
                                self.push_part(lp.body);
                                if lp.kind.iterates() {
                                    return iteration(false);
                                }
                            }
                        },
                        Phase::Header => {
                            *phase = Phase::Cond;
                            return Next::Cond {
                                cond: lp.cond,
                                span: lp.span,
                            };
                        }
                        Phase::Cond => {
                            // `cond` was not reported: treat as a new test.
                            return Next::Cond {
                                cond: lp.cond,
                                span: lp.span,
                            };
                        }
                        Phase::Body => {
                            *phase = Phase::Step;
                            self.push_part(lp.step);
                        }
                        Phase::Step => {
                            if lp.kind.iterates() {
                                *phase = Phase::Header;
                                self.push_part(lp.header);
                                if lp.check == LoopCheck::Before {
                                    return iteration(true);
                                }
                            } else {
                                self.frames.pop();
                            }
                        }
                    }
                }
            }
        }
    }

    /// The value of the condition asked for by the last [`Next::Cond`].
    pub fn cond(&mut self, holds: bool) -> CondOutcome {
        let bound = self.bound;
        let Some(Frame::Loop {
            lp, phase, bodies, ..
        }) = self.frames.last_mut()
        else {
            return CondOutcome::Proceed;
        };
        if *phase != Phase::Cond {
            return CondOutcome::Proceed;
        }
        if !holds {
            self.frames.pop();
            return CondOutcome::Proceed;
        }
        let lp = *lp;
        if lp.kind.iterates() {
            if let Some(k) = bound.filter(|k| *bodies >= *k) {
                return CondOutcome::Bound {
                    bound: k,
                    span: lp.span,
                };
            }
            *bodies += 1;
        }
        *phase = Phase::Body;
        self.push_part(lp.body);
        CondOutcome::Proceed
    }

    /// When the pending loop test is a `do`-`while` loop's, the iteration a
    /// true result starts (a back edge): the frame, the loop and its span.
    pub fn back_edge_if_true(&self) -> Option<(usize, LoopId, Span)> {
        match self.frames.last() {
            Some(Frame::Loop { lp, phase, .. })
                if *phase == Phase::Cond && lp.check == LoopCheck::After && lp.kind.iterates() =>
            {
                Some((self.frames.len() - 1, lp.id, lp.span))
            }
            _ => None,
        }
    }

    /// Runs `stmts` next (the chosen branch of an `If`).
    pub fn enter_block(&mut self, stmts: &'k [Stmt]) {
        if stmts.is_empty() {
            return;
        }
        self.drop_finished_seq();
        self.frames.push(Frame::Seq { stmts, next: 0 });
    }

    /// Starts a loop.
    pub fn enter_loop(&mut self, lp: LoopStmt<'k>) {
        self.drop_finished_seq();
        self.frames.push(Frame::Loop {
            lp,
            phase: Phase::Enter,
            bodies: 0,
            snap: None,
        });
    }

    /// `break id`: leaves the loop `id`. `Err` when no enclosing loop has
    /// that id (the stack is then empty).
    pub fn break_(&mut self, id: LoopId) -> Result<(), ()> {
        while let Some(f) = self.frames.pop() {
            if matches!(f, Frame::Loop { lp, .. } if lp.id == id) {
                return Ok(());
            }
        }
        Err(())
    }

    /// `continue id`: runs the step of loop `id`, then its next test.
    pub fn continue_(&mut self, id: LoopId) -> Result<(), ()> {
        loop {
            match self.frames.last_mut() {
                None => return Err(()),
                Some(Frame::Loop { lp, phase, .. }) if lp.id == id => {
                    *phase = Phase::Step;
                    let step = lp.step;
                    self.push_part(step);
                    return Ok(());
                }
                Some(_) => {
                    self.frames.pop();
                }
            }
        }
    }

    /// `return`: nothing is left to run.
    pub fn clear(&mut self) {
        self.frames.clear();
    }

    /// Pushes one part of the loop on top (never replaces the loop frame).
    fn push_part(&mut self, stmts: &'k [Stmt]) {
        if !stmts.is_empty() {
            self.frames.push(Frame::Seq { stmts, next: 0 });
        }
    }

    /// Pops the top sequence if it has nothing left: whatever is pushed next
    /// runs in its place (a tail position).
    fn drop_finished_seq(&mut self) {
        if let Some(Frame::Seq { stmts, next }) = self.frames.last() {
            if *next >= stmts.len() {
                self.frames.pop();
            }
        }
    }
}
