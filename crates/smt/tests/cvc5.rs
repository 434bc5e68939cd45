//! Sessions with a real cvc5. cvc5 is optional: without it these tests print
//! why and pass.

mod common;

use std::time::{Duration, Instant};

use warpsafe_smt::{term, CheckResult, Solver, SolverConfig, Sort, Value};

macro_rules! cvc5_or_skip {
    ($config:expr) => {
        match common::cvc5() {
            Some(base) => Solver::start($config(base)).expect("cvc5 starts"),
            None => return,
        }
    };
}

#[test]
fn sat_unsat_and_values() {
    let mut s = cvc5_or_skip!(|c: SolverConfig| c.with_logic("ALL"));
    let x = s.declare_const("x", &Sort::Int).expect("declare");
    let b = s.declare_const("b", &Sort::BitVec(8)).expect("declare");
    s.assert(&term::eq(x.clone(), term::int(-5)))
        .expect("assert");
    s.assert(&term::eq(b.clone(), term::bv(0x0f, 8)))
        .expect("assert");
    assert_eq!(s.check().expect("check"), CheckResult::Sat);
    let values = s.get_values(&[x.clone(), b]).expect("get-value");
    assert_eq!(values[0], Value::Int(-5));
    assert_eq!(
        values[1],
        Value::BitVec {
            width: 8,
            value: 0x0f
        }
    );
    s.push().expect("push");
    s.assert(&term::gt(x, term::int(0))).expect("assert");
    assert_eq!(s.check().expect("check"), CheckResult::Unsat);
    s.pop().expect("pop");
    assert_eq!(s.check().expect("check"), CheckResult::Sat);
}

#[test]
fn timeout_is_unknown() {
    let mut s = cvc5_or_skip!(|c: SolverConfig| c
        .with_logic("QF_UF")
        .with_timeout(Some(Duration::from_millis(200))));
    common::pigeonhole(&mut s, 15);
    let start = Instant::now();
    let result = s.check().expect("a timeout is not an error");
    assert!(result.is_timeout(), "{result:?}");
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
}
