//! Every control-flow form, the step limit, and deep nesting.

mod common;

use common::*;
use warpsafe_interp::{FaultKind, ThreadConfig, Value};
use warpsafe_ir::{BinOp, LoopKind};

/// `for (i = 0; i < 10; i++) { if (i == 3) continue; if (i == 7) break; sum += i; }`
#[test]
fn for_with_continue_and_break() {
    let mut kb = Kb::new();
    let i = kb.var("i", I32);
    let sum = kb.var("sum", I32);
    let l = kb.loop_id();
    let k = kb.finish(vec![
        assign(sum, i32c(0)),
        assign(i, i32c(0)),
        for_(
            l,
            lt(I32, v(i), i32c(10)),
            vec![
                if_(eq(I32, v(i), i32c(3)), vec![cont(l)], vec![]),
                if_(eq(I32, v(i), i32c(7)), vec![brk(l)], vec![]),
                assign(sum, add(I32, v(sum), v(i))),
            ],
            vec![assign(i, add(I32, v(i), i32c(1)))],
        ),
    ]);
    let (out, _, th) = run(&k, launch(1), 0);
    assert_eq!(out, Outcome::Done);
    assert_eq!(th.var(sum), Some(Value::I32(1 + 2 + 4 + 5 + 6)));
    assert_eq!(th.var(i), Some(Value::I32(7)));
}

/// `k = 0; n = 0; do { k++; if (k % 2) continue; n++; } while (k < 5);`
/// and a do-while whose condition is false at once still runs once.
#[test]
fn do_while_with_continue() {
    let mut kb = Kb::new();
    let kk = kb.var("k", I32);
    let n = kb.var("n", I32);
    let once_ran = kb.var("once", I32);
    let l = kb.loop_id();
    let l2 = kb.loop_id();
    let k = kb.finish(vec![
        assign(kk, i32c(0)),
        assign(n, i32c(0)),
        do_while(
            l,
            vec![
                assign(kk, add(I32, v(kk), i32c(1))),
                if_(
                    bin(
                        BinOp::Ne,
                        I32,
                        bin(BinOp::Rem, I32, v(kk), i32c(2)),
                        i32c(0),
                    ),
                    vec![cont(l)],
                    vec![],
                ),
                assign(n, add(I32, v(n), i32c(1))),
            ],
            lt(I32, v(kk), i32c(5)),
        ),
        assign(once_ran, i32c(0)),
        do_while(
            l2,
            vec![assign(once_ran, add(I32, v(once_ran), i32c(1)))],
            Expr::bool(false),
        ),
    ]);
    let (out, _, th) = run(&k, launch(1), 0);
    assert_eq!(out, Outcome::Done);
    assert_eq!(th.var(kk), Some(Value::I32(5)));
    assert_eq!(th.var(n), Some(Value::I32(2)));
    assert_eq!(th.var(once_ran), Some(Value::I32(1)));
}

use warpsafe_ir::Expr;

/// `switch (c) { case 0: r = 10; /* fall through */ case 1: r += 1; break; default: r = 99; }`
/// lowered as the front end does: a single-pass loop with a fall-through flag.
#[test]
fn switch_like_single_pass_loop() {
    for (input, want) in [(0, 11), (1, 1), (5, 99)] {
        let mut kb = Kb::new();
        let cv = kb.var("c", I32);
        let r = kb.var("r", I32);
        let fall = kb.var("fall", Bool);
        let l = kb.loop_id();
        let case = |n: i32| bin(BinOp::Or, Bool, v(fall), eq(I32, v(cv), i32c(n)));
        let k = kb.finish(vec![
            assign(cv, i32c(input)),
            assign(r, i32c(0)),
            assign(fall, Expr::bool(false)),
            once(
                l,
                LoopKind::Switch,
                vec![
                    if_(
                        case(0),
                        vec![assign(fall, t()), assign(r, i32c(10))],
                        vec![],
                    ),
                    if_(
                        case(1),
                        vec![
                            assign(fall, t()),
                            assign(r, add(I32, v(r), i32c(1))),
                            brk(l),
                        ],
                        vec![],
                    ),
                    assign(r, i32c(99)),
                    brk(l),
                ],
            ),
        ]);
        let (out, _, th) = run(&k, launch(1), 0);
        assert_eq!(out, Outcome::Done);
        assert_eq!(th.var(r), Some(Value::I32(want)), "case {input}");
    }
}

/// An inlined function body whose `return` became `break`, and a
/// single-pass loop whose body falls off its end (it must not repeat).
#[test]
fn inline_loop_with_break_as_return() {
    let mut kb = Kb::new();
    let x = kb.var("x", I32);
    let ret_v = kb.var("clamp.ret", I32);
    let count = kb.var("count", I32);
    let l = kb.loop_id();
    let g = kb.loop_id();
    let k = kb.finish(vec![
        assign(x, i32c(-5)),
        once(
            l,
            LoopKind::Inline,
            vec![
                if_(
                    lt(I32, v(x), i32c(0)),
                    vec![assign(ret_v, i32c(0)), brk(l)],
                    vec![],
                ),
                assign(ret_v, v(x)),
                brk(l),
            ],
        ),
        assign(count, i32c(0)),
        once(
            g,
            LoopKind::Goto,
            vec![assign(count, add(I32, v(count), i32c(1)))],
        ),
    ]);
    let (out, _, th) = run(&k, launch(1), 0);
    assert_eq!(out, Outcome::Done);
    assert_eq!(th.var(ret_v), Some(Value::I32(0)));
    assert_eq!(th.var(count), Some(Value::I32(1)));
}

/// `if (tid != 0) return;` then a store only thread 0 performs; a return
/// from inside nested loops ends the thread.
#[test]
fn early_return() {
    let mut kb = Kb::new();
    let out_arr = kb.global("out", I32, 4);
    let i = kb.var("i", I32);
    let l1 = kb.loop_id();
    let l2 = kb.loop_id();
    let k = kb.finish(vec![
        if_(bin(BinOp::Ne, U32, tid(), u32c(0)), vec![ret()], vec![]),
        store(out_arr, i64c(0), I32, i32c(1)),
        assign(i, i32c(0)),
        for_(
            l1,
            t(),
            vec![for_(
                l2,
                t(),
                vec![if_(eq(I32, v(i), i32c(3)), vec![ret()], vec![])],
                vec![assign(i, add(I32, v(i), i32c(1)))],
            )],
            vec![],
        ),
        store(out_arr, i64c(1), I32, i32c(1)),
    ]);
    let (out, m, th) = run(&k, launch(2), 0);
    assert_eq!(out, Outcome::Done);
    assert_eq!(m.get(out_arr, 0), Some(Value::I32(1)));
    assert_eq!(m.get(out_arr, 1), None);
    assert_eq!(th.var(i), Some(Value::I32(3)));
    let (out, m, _) = run(&k, launch(2), 1);
    assert_eq!(out, Outcome::Done);
    assert!(m.log.is_empty());
}

/// A while loop with a header (the condition's load runs every iteration).
#[test]
fn while_with_header_loads() {
    let mut kb = Kb::new();
    let a = kb.global("a", I32, 8);
    let j = kb.var("j", I32);
    let x = kb.var("x", I32);
    let l = kb.loop_id();
    let k = kb.finish(vec![
        assign(j, i32c(0)),
        st(warpsafe_ir::StmtKind::Loop {
            id: l,
            kind: LoopKind::While,
            header: vec![load(x, a, cast(I64, v(j)), I32)],
            cond: eq(I32, v(x), i32c(0)),
            check: warpsafe_ir::LoopCheck::Before,
            body: vec![assign(j, add(I32, v(j), i32c(1)))],
            step: vec![],
        }),
    ]);
    let mut th = thread(&k, launch(1), 0);
    let mut m = Mem::default();
    m.set(a, 3, Value::I32(9));
    assert_eq!(m.run(&mut th), Outcome::Done);
    assert_eq!(th.var(j), Some(Value::I32(3)));
    assert_eq!(m.log.len(), 4, "four header loads: a[0..=3]");
}

#[test]
fn step_limit_stops_infinite_loops() {
    let mut kb = Kb::new();
    let l = kb.loop_id();
    let l2 = kb.loop_id();
    // An empty infinite loop still burns fuel on its tests.
    let k = kb.finish(vec![at(5, for_(l, t(), vec![], vec![]))]);
    let config = ThreadConfig {
        max_steps: 1000,
        ..ThreadConfig::default()
    };
    let mut th = thread_with(&k, launch(1), 0, config);
    let f = th.step().expect_err("runs out of fuel");
    assert_eq!(f.kind, FaultKind::StepLimit { limit: 1000 });
    assert_eq!(f.span, sp(5));
    assert_eq!(th.steps(), 1000);
    // The fault is sticky.
    assert_eq!(th.step(), Err(f));
    // A do-while spinning on `true` too.
    let mut kb = Kb::new();
    let x = kb.var("x", I32);
    let k2 = kb.finish(vec![
        assign(x, i32c(0)),
        do_while(l2, vec![assign(x, add(I32, v(x), i32c(1)))], t()),
    ]);
    let mut th = thread_with(&k2, launch(1), 0, config);
    assert!(matches!(th.step(), Err(f) if matches!(f.kind, FaultKind::StepLimit { .. })));
}

#[test]
fn bad_jumps_are_faults_not_panics() {
    let mut kb = Kb::new();
    let l = kb.loop_id();
    let k = kb.finish(vec![at(2, brk(l))]);
    let (out, _, _) = run(&k, launch(1), 0);
    assert!(matches!(out, Outcome::Fault(f) if f.kind == FaultKind::BadJump(l) && f.span == sp(2)));
}

/// 10,000 nested `if`s (each followed by a statement, so every level keeps
/// a frame) and 10,000 nested loops left by `break`s: no stack overflow.
#[test]
fn deep_nesting_does_not_overflow() {
    const DEPTH: usize = 10_000;
    let mut kb = Kb::new();
    let x = kb.var("x", I32);
    let mut block = vec![assign(x, i32c(0))];
    for _ in 0..DEPTH {
        block = vec![if_(t(), block, vec![]), assign(x, add(I32, v(x), i32c(1)))];
    }
    let k = kb.finish(block);
    let mut th = thread(&k, launch(1), 0);
    // A clone taken before running is independent of the original.
    let fork = th.clone();
    assert_eq!(Mem::default().run(&mut th), Outcome::Done);
    assert_eq!(th.var(x), Some(Value::I32(DEPTH as i32)));
    assert_eq!(fork.var(x), None);
    // Stop just after the innermost assignment to see the stack's depth.
    let mut limited = thread_with(
        &k,
        launch(1),
        0,
        ThreadConfig {
            max_steps: DEPTH as u64 + 1,
            ..ThreadConfig::default()
        },
    );
    assert!(limited.step().is_err());
    assert!(limited.depth() >= DEPTH, "depth {}", limited.depth());
    assert_eq!(limited.var(x), Some(Value::I32(0)));
    drop((th, fork, limited));
    dismantle(k.body);

    let mut kb = Kb::new();
    let y = kb.var("y", I32);
    let ids: Vec<_> = (0..DEPTH).map(|_| kb.loop_id()).collect();
    // The innermost loop breaks out of the outermost one.
    let mut block = vec![assign(y, i32c(1)), brk(ids[0])];
    for id in ids.iter().rev() {
        block = vec![for_(*id, t(), block, vec![])];
    }
    block.push(assign(y, add(I32, v(y), i32c(1))));
    let k = kb.finish(block);
    let (out, _, th) = run(&k, launch(1), 0);
    assert_eq!(out, Outcome::Done);
    assert_eq!(th.var(y), Some(Value::I32(2)));
    drop(th);
    dismantle(k.body);
}
