//! Assertions and assumptions end the thread as outcomes, not faults.

mod common;

use common::*;
use warpsafe_interp::{Step, Value};

#[test]
fn failing_assert_is_an_outcome_with_its_span() {
    let mut kb = Kb::new();
    let x = kb.var("x", I32);
    let out_arr = kb.global("out", I32, 1);
    let k = kb.finish(vec![
        assign(x, add(I32, cast(I32, tid()), i32c(1))),
        at(4, assert_(lt(I32, v(x), i32c(3)), "x < 3")),
        store(out_arr, i64c(0), I32, v(x)),
    ]);
    let (out, m, _) = run(&k, launch(8), 1);
    assert_eq!(out, Outcome::Done);
    assert_eq!(m.get(out_arr, 0), Some(Value::I32(2)));
    let (out, m, _) = run(&k, launch(8), 2);
    assert_eq!(out, Outcome::Assertion("x < 3".into(), sp(4)));
    assert!(m.log.is_empty(), "nothing after the failed assertion runs");
    let mut th = thread(&k, launch(8), 5);
    let first = th.step();
    assert!(matches!(first, Ok(Step::AssertionFailed { .. })));
    assert_eq!(th.step(), first, "the outcome is sticky");
    assert!(th.is_finished());
}

#[test]
fn false_assume_makes_the_execution_infeasible() {
    let mut kb = Kb::new();
    let n = kb.param("n", I32);
    let out_arr = kb.global("out", I32, 1);
    let k = kb.finish(vec![
        at(2, assume(lt(I32, i32c(0), v(n)))),
        store(out_arr, i64c(0), I32, v(n)),
    ]);
    let ok = launch(1).with_param(n, Value::I32(4));
    let (out, m, _) = run(&k, ok, 0);
    assert_eq!(out, Outcome::Done);
    assert_eq!(m.get(out_arr, 0), Some(Value::I32(4)));
    let bad = launch(1).with_param(n, Value::I32(0));
    let (out, m, _) = run(&k, bad, 0);
    assert_eq!(out, Outcome::Infeasible(sp(2)));
    assert!(m.log.is_empty());
}

#[test]
fn print_evaluates_its_arguments_only() {
    let mut kb = Kb::new();
    let x = kb.var("x", I32);
    let k = kb.finish(vec![
        assign(x, i32c(1)),
        st(warpsafe_ir::StmtKind::Print {
            format: "\"%d\\n\"".into(),
            args: vec![v(x)],
        }),
    ]);
    let (out, m, _) = run(&k, launch(1), 0);
    assert_eq!(out, Outcome::Done);
    assert!(m.log.is_empty());
}
