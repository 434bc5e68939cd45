//! Events reach the driver in program order, resumed values flow into later
//! computations, and the resume protocol is checked.

mod common;

use common::*;
use warpsafe_interp::{
    Awaiting, Barrier, Event, EventKind, FaultKind, Launch, Location, ResumeError, Step, Value,
};
use warpsafe_ir::{AccessKind, BarrierKind, BinOp, MemOrder, ReduceOp, RmwOp, Scope, StmtKind};

fn next_event(th: &mut warpsafe_interp::Thread) -> Event {
    match th.step() {
        Ok(Step::Event(e)) => e,
        other => panic!("expected an event, got {other:?}"),
    }
}

/// A kernel touching shared, global memory, atomics, a CAS, a barrier and a
/// fence, driven by hand: the driver sees each event in order, and the
/// values it supplies decide what the thread computes and writes.
#[test]
fn events_in_program_order_with_resumed_values() {
    let mut kb = Kb::new();
    let s = kb.shared("s", I32, 64);
    let g = kb.ptr("g", I32);
    let cnt = kb.global("cnt", U32, 1);
    let a = kb.var("a", I32);
    let old = kb.var("old", U32);
    let seen = kb.var("seen", I32);
    let k = kb.finish(vec![
        at(1, store(s, cast(I64, tid()), I32, cast(I32, tid()))),
        at(2, barrier()),
        at(3, load(a, s, cast(I64, add(U32, tid(), u32c(1))), I32)),
        at(
            4,
            atomic(Some(old), RmwOp::Inc, cnt, i64c(0), U32, u32c(1023)),
        ),
        at(5, fence()),
        at(
            6,
            cas(
                Some(seen),
                g,
                i64c(7),
                I32,
                v(a),
                add(I32, v(a), cast(I32, v(old))),
            ),
        ),
        at(
            7,
            store(g, cast(I64, tid()), I32, add(I32, v(seen), i32c(1000))),
        ),
    ]);
    let mut th = thread(&k, launch(64), 5);
    let loc = |array, index| Location { array, index };

    let e = next_event(&mut th);
    assert_eq!(e.span, sp(1));
    assert_eq!(
        e.kind,
        EventKind::Store {
            loc: loc(s, 5),
            value: Value::I32(5),
            access: AccessKind::Plain
        }
    );
    assert_eq!(th.awaiting(), None);

    let e = next_event(&mut th);
    assert_eq!(
        (e.span, e.kind),
        (
            sp(2),
            EventKind::Barrier {
                barrier: Barrier::Block,
                reduce: None,
                iterations: vec![],
            }
        )
    );

    let e = next_event(&mut th);
    assert_eq!(e.span, sp(3));
    assert_eq!(
        e.kind,
        EventKind::Load {
            loc: loc(s, 6),
            ty: I32,
            access: AccessKind::Plain
        }
    );
    assert_eq!(th.awaiting(), Some(Awaiting::Load { ty: I32 }));
    // Stepping without resuming is refused (and does not end the thread).
    assert!(matches!(th.step(), Err(f) if matches!(f.kind, FaultKind::MissingResume(_))));
    assert_eq!(
        th.resume_load(Value::U32(1)),
        Err(ResumeError::TypeMismatch {
            expected: I32,
            got: U32
        })
    );
    assert!(matches!(
        th.resume_rmw(Value::I32(1)),
        Err(ResumeError::WrongResume { .. })
    ));
    th.resume_load(Value::I32(40)).expect("resumes");
    assert_eq!(th.resume_load(Value::I32(40)), Err(ResumeError::NotWaiting));

    let e = next_event(&mut th);
    assert_eq!(
        e.kind,
        EventKind::Rmw {
            loc: loc(cnt, 0),
            op: RmwOp::Inc,
            operand: Value::U32(1023),
            order: MemOrder::Relaxed,
            scope: Scope::Device
        }
    );
    th.resume_rmw(Value::U32(2)).expect("resumes");

    let e = next_event(&mut th);
    assert_eq!(
        e.kind,
        EventKind::Fence {
            order: MemOrder::SeqCst,
            scope: Scope::Device
        }
    );

    let e = next_event(&mut th);
    assert_eq!(
        e.kind,
        EventKind::Cas {
            loc: loc(g, 7),
            expected: Value::I32(40),
            desired: Value::I32(42),
            order: MemOrder::SeqCst,
            failure_order: MemOrder::Relaxed,
            scope: Scope::Block
        }
    );
    th.resume_cas(Value::I32(40)).expect("resumes");

    let e = next_event(&mut th);
    assert_eq!(e.span, sp(7));
    assert_eq!(
        e.kind,
        EventKind::Store {
            loc: loc(g, 5),
            value: Value::I32(1040),
            access: AccessKind::Plain
        }
    );
    assert_eq!(th.step(), Ok(Step::Done));
    assert_eq!(th.step(), Ok(Step::Done), "the end is sticky");
    assert_eq!(th.var(old), Some(Value::U32(2)));
}

/// The classic CAS loop (an atomic add built from atomicCAS) under the
/// sequential driver: a stale first guess fails, the retry succeeds; and
/// RMWs whose old value is discarded.
#[test]
fn cas_loop_and_atomics_with_sequential_memory() {
    let mut kb = Kb::new();
    let h = kb.global("h", I32, 2);
    let assumed = kb.var("assumed", I32);
    let seen = kb.var("seen", I32);
    let tries = kb.var("tries", I32);
    let l = kb.loop_id();
    let k = kb.finish(vec![
        atomic(None, RmwOp::Add, h, i64c(0), I32, i32c(5)),
        atomic(None, RmwOp::Max, h, i64c(1), I32, i32c(-3)),
        assign(seen, i32c(100)),
        assign(tries, i32c(0)),
        do_while(
            l,
            vec![
                assign(tries, add(I32, v(tries), i32c(1))),
                assign(assumed, v(seen)),
                cas(
                    Some(seen),
                    h,
                    i64c(0),
                    I32,
                    v(assumed),
                    add(I32, v(assumed), i32c(7)),
                ),
            ],
            bin(BinOp::Ne, I32, v(seen), v(assumed)),
        ),
    ]);
    let (out, m, th) = run(&k, launch(1), 0);
    assert_eq!(out, Outcome::Done);
    assert_eq!(m.get(h, 0), Some(Value::I32(12)));
    assert_eq!(m.get(h, 1), Some(Value::I32(0)));
    assert_eq!(th.var(tries), Some(Value::I32(2)));
}

#[test]
fn barrier_reductions_warp_masks_and_havoc() {
    let mut kb = Kb::new();
    let cnt = kb.var("cnt", I32);
    let clk = kb.var("clk", I64);
    let k = kb.finish(vec![
        st(StmtKind::Barrier {
            kind: BarrierKind::Block,
            reduce: Some((ReduceOp::Count, lt(U32, tid(), u32c(10)), cnt)),
        }),
        st(StmtKind::Barrier {
            kind: BarrierKind::Warp {
                mask: c(0xffff_ffff, I64),
            },
            reduce: None,
        }),
        st(StmtKind::Barrier {
            kind: BarrierKind::Tile { size: 16 },
            reduce: None,
        }),
        havoc(clk),
    ]);
    let mut th = thread(&k, launch(32), 3);
    let e = next_event(&mut th);
    assert_eq!(
        e.kind,
        EventKind::Barrier {
            barrier: Barrier::Block,
            reduce: Some((ReduceOp::Count, true)),
            iterations: vec![],
        }
    );
    assert_eq!(th.awaiting(), Some(Awaiting::BarrierReduction));
    th.resume_barrier(10).expect("resumes");
    assert_eq!(th.var(cnt), Some(Value::I32(10)));
    let e = next_event(&mut th);
    assert_eq!(
        e.kind,
        EventKind::Barrier {
            barrier: Barrier::Warp { mask: 0xffff_ffff },
            reduce: None,
            iterations: vec![],
        }
    );
    let e = next_event(&mut th);
    assert_eq!(
        e.kind,
        EventKind::Barrier {
            barrier: Barrier::Tile { size: 16 },
            reduce: None,
            iterations: vec![],
        }
    );
    let e = next_event(&mut th);
    assert!(matches!(e.kind, EventKind::Havoc { var, ty: I64, .. } if var == clk));
    th.resume_havoc(Value::I64(123_456)).expect("resumes");
    assert_eq!(th.step(), Ok(Step::Done));
    assert_eq!(th.var(clk), Some(Value::I64(123_456)));
}

#[test]
fn shared_and_global_bounds() {
    let mut kb = Kb::new();
    let s = kb.shared("s", F32, 16);
    let p = kb.ptr("p", F32);
    let d = kb.extern_shared("buf", F32);
    let x = kb.var("x", F32);
    let k = kb.finish(vec![
        at(1, load(x, p, i64c(1_000_000), F32)),
        at(2, load(x, s, i64c(15), F32)),
        at(3, store(d, i64c(7), F32, f32c(1.0))),
        at(4, load(x, s, cast(I64, add(U32, tid(), u32c(16))), F32)),
    ]);
    // Unknown-size arrays are not checked; s[16 + tid] is out of bounds.
    let (out, m, _) = run(&k, launch(1), 0);
    assert_eq!(m.log.len(), 3);
    match out {
        Outcome::Fault(f) => {
            assert_eq!(f.span, sp(4));
            assert_eq!(
                f.kind,
                FaultKind::OutOfBounds {
                    array: s,
                    index: 16,
                    len: 16
                }
            );
        }
        other => panic!("{other:?}"),
    }
    // With sizes from the driver, pointer and dynamic shared arrays are
    // checked too.
    let sized = launch(1).with_array_len(p, 1000);
    let (out, _, _) = run(&k, sized, 0);
    assert!(
        matches!(out, Outcome::Fault(f) if f.span == sp(1) && matches!(f.kind, FaultKind::OutOfBounds { index: 1_000_000, len: 1000, .. }))
    );
    let mut kb = Kb::new();
    let d = kb.extern_shared("buf", F32);
    let k = kb.finish(vec![at(3, store(d, i64c(7), F32, f32c(1.0)))]);
    let small = Launch::new([1, 1, 1], [1, 1, 1]).with_dynamic_shared_bytes(16);
    let (out, _, _) = run(&k, small, 0);
    assert!(
        matches!(out, Outcome::Fault(f) if matches!(f.kind, FaultKind::OutOfBounds { index: 7, len: 4, .. }))
    );
}

#[test]
fn negative_indices_fault() {
    let mut kb = Kb::new();
    let p = kb.ptr("p", I32);
    let k = kb.finish(vec![at(
        9,
        store(p, add(I64, i64c(2), i64c(-3)), I32, i32c(0)),
    )]);
    let (out, m, _) = run(&k, launch(1), 0);
    assert!(m.log.is_empty());
    assert_eq!(
        out,
        Outcome::Fault(warpsafe_interp::Fault::new(
            FaultKind::NegativeIndex {
                array: p,
                index: -1
            },
            sp(9)
        ))
    );
}

/// Forking a thread at an event gives two independent continuations, as a
/// stateless explorer needs when it tries both values of a read.
#[test]
fn forked_threads_continue_independently() {
    let mut kb = Kb::new();
    let flag = kb.global("flag", I32, 1);
    let out_arr = kb.global("out", I32, 1);
    let f = kb.var("f", I32);
    let k = kb.finish(vec![
        load(f, flag, i64c(0), I32),
        if_(
            eq(I32, v(f), i32c(1)),
            vec![store(out_arr, i64c(0), I32, i32c(10))],
            vec![store(out_arr, i64c(0), I32, i32c(20))],
        ),
    ]);
    let mut th = thread(&k, launch(1), 0);
    next_event(&mut th);
    let mut fork = th.clone();
    th.resume_load(Value::I32(1)).expect("resumes");
    fork.resume_load(Value::I32(0)).expect("resumes");
    let stored = |e: Event| match e.kind {
        EventKind::Store { value, .. } => value,
        other => panic!("{other:?}"),
    };
    assert_eq!(stored(next_event(&mut th)), Value::I32(10));
    assert_eq!(stored(next_event(&mut fork)), Value::I32(20));
}

/// `for (i = 0; i < 2; i++) { for (j = 0; j < 2; j++) __syncthreads(); }
/// __syncthreads();`: each arrival names the iteration of every enclosing
/// loop (outermost first, counted from 1 per loop entry), so the explorers
/// can tell one barrier passed in different iterations.
#[test]
fn barrier_events_carry_their_loop_iterations() {
    let mut kb = Kb::new();
    let i = kb.var("i", I32);
    let j = kb.var("j", I32);
    let (outer, inner) = (kb.loop_id(), kb.loop_id());
    let k = kb.finish(vec![
        assign(i, i32c(0)),
        for_(
            outer,
            lt(I32, v(i), i32c(2)),
            vec![
                assign(j, i32c(0)),
                for_(
                    inner,
                    lt(I32, v(j), i32c(2)),
                    vec![barrier()],
                    vec![assign(j, add(I32, v(j), i32c(1)))],
                ),
            ],
            vec![assign(i, add(I32, v(i), i32c(1)))],
        ),
        barrier(),
    ]);
    let mut th = thread(&k, launch(1), 0);
    let mut seen = Vec::new();
    for _ in 0..5 {
        match next_event(&mut th).kind {
            EventKind::Barrier { iterations, .. } => seen.push(iterations),
            other => panic!("expected a barrier, got {other:?}"),
        }
    }
    assert_eq!(
        seen,
        vec![vec![1, 1], vec![1, 2], vec![2, 1], vec![2, 2], vec![]]
    );
    assert_eq!(th.step(), Ok(Step::Done));
}
