//! Loop bounds and spin-assume (seed 000 §5: loops are bounded; GenMC's
//! spin-assume): a loop body starts at most `loop_bound` times per entry of
//! the loop, and an iteration that read at most once, changed nothing and
//! is about to repeat stops the thread.

mod common;

use common::*;
use warpsafe_interp::{BlockReason, ThreadConfig, Value};
use warpsafe_ir::{LoopCheck, LoopKind, StmtKind};

fn bounded(k: u32) -> ThreadConfig {
    ThreadConfig {
        loop_bound: Some(k),
        ..ThreadConfig::default()
    }
}

fn spinning(k: u32) -> ThreadConfig {
    ThreadConfig {
        spin_assume: true,
        ..bounded(k)
    }
}

fn run_with(k: &warpsafe_ir::Kernel, config: ThreadConfig, mem: &mut Mem) -> Outcome {
    let mut th = thread_with(k, launch(1), 0, config);
    mem.run(&mut th)
}

/// `for (i = 0; i < 10; i++) for (j = 0; j < 5; j++) ;`
#[test]
fn the_bound_counts_body_starts_per_loop_entry() {
    let mut kb = Kb::new();
    let i = kb.var("i", I32);
    let j = kb.var("j", I32);
    let (outer, inner) = (kb.loop_id(), kb.loop_id());
    let k = kb.finish(vec![
        assign(i, i32c(0)),
        at(
            3,
            for_(
                outer,
                lt(I32, v(i), i32c(10)),
                vec![
                    assign(j, i32c(0)),
                    at(
                        4,
                        for_(
                            inner,
                            lt(I32, v(j), i32c(5)),
                            vec![],
                            vec![assign(j, add(I32, v(j), i32c(1)))],
                        ),
                    ),
                ],
                vec![assign(i, add(I32, v(i), i32c(1)))],
            ),
        ),
    ]);
    assert_eq!(
        run_with(&k, bounded(10), &mut Mem::default()),
        Outcome::Done
    );
    assert_eq!(
        run_with(&k, bounded(9), &mut Mem::default()),
        Outcome::Blocked(BlockReason::LoopBound { bound: 9 }, sp(3))
    );
    assert_eq!(
        run_with(&k, bounded(4), &mut Mem::default()),
        Outcome::Blocked(BlockReason::LoopBound { bound: 4 }, sp(4))
    );
}

/// `do { x++; } while (x < 4);` runs its body four times.
#[test]
fn do_while_counts_its_first_body_too() {
    let mut kb = Kb::new();
    let x = kb.var("x", I32);
    let l = kb.loop_id();
    let k = kb.finish(vec![
        assign(x, i32c(0)),
        at(
            2,
            do_while(
                l,
                vec![assign(x, add(I32, v(x), i32c(1)))],
                lt(I32, v(x), i32c(4)),
            ),
        ),
    ]);
    assert_eq!(run_with(&k, bounded(4), &mut Mem::default()), Outcome::Done);
    assert_eq!(
        run_with(&k, bounded(3), &mut Mem::default()),
        Outcome::Blocked(BlockReason::LoopBound { bound: 3 }, sp(2))
    );
}

/// `while (a[0] == 0) { BODY }` with the load in the header.
fn await_loop(
    kb: &mut Kb,
    a: warpsafe_ir::ArrayId,
    body: Vec<warpsafe_ir::Stmt>,
) -> Vec<warpsafe_ir::Stmt> {
    let x = kb.var("x", I32);
    let l = kb.loop_id();
    vec![at(
        7,
        st(StmtKind::Loop {
            id: l,
            kind: LoopKind::While,
            header: vec![load(x, a, i64c(0), I32)],
            cond: eq(I32, v(x), i32c(0)),
            check: LoopCheck::Before,
            body,
            step: vec![],
        }),
    )]
}

#[test]
fn a_wasted_await_iteration_blocks_the_thread() {
    let mut kb = Kb::new();
    let a = kb.global("a", I32, 4);
    let body = await_loop(&mut kb, a, vec![]);
    let k = kb.finish(body);
    let mut mem = Mem::default();
    assert_eq!(
        run_with(&k, spinning(8), &mut mem),
        Outcome::Blocked(BlockReason::SpinLoop { reads: 1 }, sp(7))
    );
    assert_eq!(mem.log.len(), 1, "one read, then the back edge is refused");
    // Without spin-assume the bound stops it, after eight reads and a ninth.
    let mut mem = Mem::default();
    assert_eq!(
        run_with(&k, bounded(8), &mut mem),
        Outcome::Blocked(BlockReason::LoopBound { bound: 8 }, sp(7))
    );
    assert_eq!(mem.log.len(), 9);
    // A value that ends the wait lets it leave normally.
    let mut mem = Mem::default();
    mem.set(a, 0, Value::I32(1));
    assert_eq!(run_with(&k, spinning(8), &mut mem), Outcome::Done);
}

/// With `spin_yield` (the schedule explorer's mode) a wasted iteration
/// yields instead of ending the thread: stepped again, it reads again, and
/// leaves the loop once another thread changed the value.
#[test]
fn a_wasted_iteration_yields_and_the_thread_goes_on() {
    let mut kb = Kb::new();
    let a = kb.global("a", I32, 4);
    let body = await_loop(&mut kb, a, vec![]);
    let k = kb.finish(body);
    let config = ThreadConfig {
        spin_yield: true,
        ..spinning(100)
    };
    let mut th = thread_with(&k, launch(1), 0, config);
    let mut mem = Mem::default();
    assert_eq!(mem.run(&mut th), Outcome::Yield(sp(7)));
    assert_eq!(mem.log.len(), 1);
    // Nothing changed: one more iteration (it may not yield twice in a
    // row), then it yields again.
    assert_eq!(mem.run(&mut th), Outcome::Yield(sp(7)));
    assert_eq!(mem.log.len(), 3);
    mem.set(a, 0, Value::I32(1));
    assert_eq!(mem.run(&mut th), Outcome::Done);
    // A `do`-`while` await loop asks its test again after a yield.
    let mut kb = Kb::new();
    let a = kb.global("a", I32, 4);
    let x = kb.var("x", I32);
    let l = kb.loop_id();
    let k = kb.finish(vec![at(
        9,
        do_while(l, vec![load(x, a, i64c(0), I32)], eq(I32, v(x), i32c(0))),
    )]);
    let mut th = thread_with(&k, launch(1), 0, config);
    let mut mem = Mem::default();
    assert_eq!(mem.run(&mut th), Outcome::Yield(sp(9)));
    mem.set(a, 0, Value::I32(1));
    assert_eq!(mem.run(&mut th), Outcome::Done);
}

#[test]
fn iterations_with_effects_or_changed_state_are_not_wasted() {
    let bound = BlockReason::LoopBound { bound: 5 };
    // A counter that changes and is live: the state differs.
    let mut kb = Kb::new();
    let a = kb.global("a", I32, 4);
    let n = kb.var("n", I32);
    let mut body = vec![assign(n, i32c(0))];
    body.extend(await_loop(
        &mut kb,
        a,
        vec![assign(n, add(I32, v(n), i32c(1)))],
    ));
    body.push(store(a, i64c(1), I32, v(n)));
    let k = kb.finish(body);
    assert_eq!(
        run_with(&k, spinning(5), &mut Mem::default()),
        Outcome::Blocked(bound, sp(7))
    );
    // A store in the body.
    let mut kb = Kb::new();
    let a = kb.global("a", I32, 4);
    let body = await_loop(&mut kb, a, vec![store(a, i64c(1), I32, i32c(1))]);
    let k = kb.finish(body);
    assert_eq!(
        run_with(&k, spinning(5), &mut Mem::default()),
        Outcome::Blocked(bound, sp(7))
    );
    // A second read: the next iteration might not repeat it.
    let mut kb = Kb::new();
    let a = kb.global("a", I32, 4);
    let y = kb.var("y", I32);
    let body = await_loop(&mut kb, a, vec![load(y, a, i64c(2), I32)]);
    let k = kb.finish(body);
    assert_eq!(
        run_with(&k, spinning(5), &mut Mem::default()),
        Outcome::Blocked(bound, sp(7))
    );
    // An RMW writes even when it adds zero.
    let mut kb = Kb::new();
    let a = kb.global("a", I32, 4);
    let body = await_loop(
        &mut kb,
        a,
        vec![atomic(
            None,
            warpsafe_ir::RmwOp::Add,
            a,
            i64c(3),
            I32,
            i32c(0),
        )],
    );
    let k = kb.finish(body);
    assert_eq!(
        run_with(&k, spinning(5), &mut Mem::default()),
        Outcome::Blocked(bound, sp(7))
    );
}

/// `while (atomicCAS(&a[0], 0, 1) != 0) {}`: a failed CAS is a read.
#[test]
fn a_failed_compare_and_swap_is_a_read() {
    let mut kb = Kb::new();
    let a = kb.global("a", I32, 4);
    let old = kb.var("old", I32);
    let l = kb.loop_id();
    let k = kb.finish(vec![at(
        9,
        st(StmtKind::Loop {
            id: l,
            kind: LoopKind::While,
            header: vec![cas(Some(old), a, i64c(0), I32, i32c(0), i32c(1))],
            cond: un(warpsafe_ir::UnOp::Not, Bool, eq(I32, v(old), i32c(0))),
            check: LoopCheck::Before,
            body: vec![],
            step: vec![],
        }),
    )]);
    let mut mem = Mem::default();
    mem.set(a, 0, Value::I32(1));
    assert_eq!(
        run_with(&k, spinning(8), &mut mem),
        Outcome::Blocked(BlockReason::SpinLoop { reads: 1 }, sp(9))
    );
    // When it succeeds the thread goes on.
    let mut mem = Mem::default();
    assert_eq!(run_with(&k, spinning(8), &mut mem), Outcome::Done);
    assert_eq!(mem.get(a, 0), Some(Value::I32(1)));
}
