//! Local arrays: private to the thread (no events), initial values, bounds.

mod common;

use common::*;
use warpsafe_interp::{FaultKind, Value};
use warpsafe_ir::{Const, RmwOp};

#[test]
fn local_arrays_are_private_and_initialised() {
    let mut kb = Kb::new();
    let w = kb.local(
        "w",
        F32,
        4,
        Some(vec![Const::Float(1.5), Const::Float(2.5)]),
    );
    let counts = kb.local("counts", I32, 8, None);
    let x = kb.var("x", F32);
    let y = kb.var("y", F32);
    let n = kb.var("n", I32);
    let old = kb.var("old", I32);
    let b = kb.var("b", I32);
    let l = kb.loop_id();
    let k = kb.finish(vec![
        load(x, w, i64c(1), F32),
        // Slots past the initialiser are zero.
        load(y, w, i64c(3), F32),
        assign(b, i32c(0)),
        for_(
            l,
            lt(I32, v(b), i32c(8)),
            vec![store(counts, cast(I64, v(b)), I32, v(b))],
            vec![assign(b, add(I32, v(b), i32c(1)))],
        ),
        atomic(Some(old), RmwOp::Add, counts, i64c(2), I32, i32c(40)),
        load(n, counts, i64c(2), I32),
        store(w, i64c(0), F32, add(F32, v(x), v(y))),
    ]);
    let (out, m, th) = run(&k, launch(1), 0);
    assert_eq!(out, Outcome::Done);
    assert!(
        m.log.is_empty(),
        "local memory makes no events: {:?}",
        m.log
    );
    assert_eq!(th.var(x), Some(Value::F32(2.5)));
    assert_eq!(th.var(y), Some(Value::F32(0.0)));
    assert_eq!(th.var(old), Some(Value::I32(2)));
    assert_eq!(th.var(n), Some(Value::I32(42)));
    assert_eq!(th.local(w, 0), Some(Value::F32(2.5)));
    assert_eq!(th.local(counts, 7), Some(Value::I32(7)));
}

#[test]
fn local_bounds_and_uninitialised_slots_fault() {
    let mut kb = Kb::new();
    let a = kb.local("a", I32, 4, None);
    let x = kb.var("x", I32);
    let oob = kb.finish(vec![at(5, store(a, i64c(4), I32, i32c(1)))]);
    let (out, _, _) = run(&oob, launch(1), 0);
    assert_eq!(
        out,
        Outcome::Fault(warpsafe_interp::Fault::new(
            FaultKind::OutOfBounds {
                array: a,
                index: 4,
                len: 4
            },
            sp(5)
        ))
    );

    let mut kb = Kb::new();
    let a = kb.local("a", I32, 4, None);
    let x2 = kb.var("x", I32);
    assert_eq!(x, x2);
    let uninit = kb.finish(vec![
        store(a, i64c(0), I32, i32c(1)),
        at(6, load(x2, a, i64c(1), I32)),
    ]);
    let (out, _, _) = run(&uninit, launch(1), 0);
    assert!(matches!(out, Outcome::Fault(f) if f.span == sp(6)
        && f.kind == FaultKind::UninitialisedMemory { array: a, index: 1 }));

    let mut kb = Kb::new();
    let a = kb.local("a", I32, 4, None);
    let neg = kb.finish(vec![at(8, store(a, i64c(-1), I32, i32c(1)))]);
    let (out, _, _) = run(&neg, launch(1), 0);
    assert!(
        matches!(out, Outcome::Fault(f) if f.kind == FaultKind::NegativeIndex { array: a, index: -1 })
    );
}

/// Forks share local arrays until one of them writes.
#[test]
fn forks_copy_local_arrays_on_write() {
    let mut kb = Kb::new();
    let a = kb.local("a", I32, 2, Some(vec![Const::Int(1), Const::Int(2)]));
    let g = kb.global("g", I32, 1);
    let f = kb.var("f", I32);
    let k = kb.finish(vec![
        store(a, i64c(0), I32, i32c(5)),
        load(f, g, i64c(0), I32),
        store(a, i64c(1), I32, v(f)),
    ]);
    let mut th = thread(&k, launch(1), 0);
    assert!(matches!(th.step(), Ok(warpsafe_interp::Step::Event(_))));
    let mut fork = th.clone();
    th.resume_load(Value::I32(10)).expect("resumes");
    fork.resume_load(Value::I32(20)).expect("resumes");
    assert_eq!(th.step(), Ok(warpsafe_interp::Step::Done));
    assert_eq!(fork.step(), Ok(warpsafe_interp::Step::Done));
    assert_eq!(th.local(a, 1), Some(Value::I32(10)));
    assert_eq!(fork.local(a, 1), Some(Value::I32(20)));
    assert_eq!(fork.local(a, 0), Some(Value::I32(5)));
}
