//! Sessions with a real z3. These fail when z3 is missing unless
//! `WARPSAFE_SKIP_SOLVER_TESTS=1` (then they print why and pass).

mod common;

use std::time::{Duration, Instant};

use warpsafe_smt::term;
use warpsafe_smt::{CheckResult, Sexp, SmtError, Solver, SolverConfig, Sort, Transcript, Value};

/// A `Solver` for z3, or return from the test when skipping.
macro_rules! z3_or_skip {
    ($config:expr) => {
        match common::z3() {
            Some(base) => Solver::start($config(base)).expect("z3 starts"),
            None => return,
        }
    };
}

#[test]
fn sat_with_model_values() {
    let mut s = z3_or_skip!(|c: SolverConfig| c.with_logic("ALL"));
    let x = s.declare_const("x", &Sort::Int).expect("declare x");
    let b = s.declare_const("b", &Sort::BitVec(32)).expect("declare b");
    let small = s
        .declare_const("small", &Sort::BitVec(3))
        .expect("declare small");
    let p = s.declare_const("p flag", &Sort::Bool).expect("declare p");
    s.assert(&term::eq(
        term::mul(term::int(2), x.clone()),
        term::int(-10),
    ))
    .expect("assert");
    s.assert(&term::eq(
        term::bvadd(b.clone(), term::bv(1, 32)),
        term::bv(0, 32),
    ))
    .expect("assert");
    s.assert(&term::eq(small.clone(), term::bv(5, 3)))
        .expect("assert");
    s.assert(&p).expect("assert");
    assert_eq!(s.check().expect("check"), CheckResult::Sat);

    let x_plus_1 = term::add(x.clone(), term::int(1));
    let values = s
        .get_values(&[x.clone(), b.clone(), small, p, x_plus_1])
        .expect("get-value");
    assert_eq!(values[0], Value::Int(-5));
    assert_eq!(
        values[1],
        Value::BitVec {
            width: 32,
            value: 0xffff_ffff
        }
    );
    assert_eq!(values[1].as_signed(), Some(-1));
    assert_eq!(values[2], Value::BitVec { width: 3, value: 5 });
    assert_eq!(values[3], Value::Bool(true));
    assert_eq!(values[4], Value::Int(-4));

    let model = s.get_model().expect("get-model");
    assert!(
        model.contains(&("x".to_owned(), Value::Int(-5))),
        "{model:?}"
    );
    assert!(
        model.contains(&("p flag".to_owned(), Value::Bool(true))),
        "{model:?}"
    );
}

#[test]
fn unsat_and_push_pop() {
    let mut s = z3_or_skip!(|c: SolverConfig| c.with_logic("QF_LIA"));
    let x = s.declare_const("x", &Sort::Int).expect("declare");
    s.assert(&term::gt(x.clone(), term::int(0)))
        .expect("assert");
    s.push().expect("push");
    s.assert(&term::lt(x.clone(), term::int(0)))
        .expect("assert");
    assert_eq!(s.check().expect("check"), CheckResult::Unsat);
    s.pop().expect("pop");
    assert_eq!(s.depth(), 0);
    assert_eq!(s.check().expect("check"), CheckResult::Sat);
    let v = s.get_values(&[x]).expect("get-value");
    assert!(matches!(v[0], Value::Int(n) if n > 0), "{v:?}");
    assert!(matches!(s.pop(), Err(SmtError::Usage(_))));
}

#[test]
fn check_assuming_and_functions() {
    let mut s = z3_or_skip!(|c: SolverConfig| c.with_logic("QF_UFBV"));
    let a = s.declare_const("a", &Sort::Bool).expect("declare");
    let f = s
        .declare_fun("f", &[Sort::BitVec(8)], &Sort::BitVec(8))
        .expect("declare-fun");
    let fx = |v: u128| term::app(f.as_atom().expect("symbol"), [term::bv(v, 8)]);
    s.assert(&term::implies(a.clone(), term::distinct([fx(1), fx(1)])))
        .expect("assert");
    assert_eq!(
        s.check_assuming(std::slice::from_ref(&a)).expect("check"),
        CheckResult::Unsat
    );
    assert_eq!(
        s.check_assuming(&[term::not(a)]).expect("check"),
        CheckResult::Sat
    );
}

#[test]
fn hard_query_times_out_as_unknown() {
    let mut s = z3_or_skip!(|c: SolverConfig| c
        .with_logic("QF_UF")
        .with_timeout(Some(Duration::from_millis(200))));
    s.push().expect("push");
    common::pigeonhole(&mut s, 15);
    let start = Instant::now();
    let result = s.check().expect("a timeout is not an error");
    let took = start.elapsed();
    assert_eq!(
        result,
        CheckResult::Unknown("timeout after 200 ms".to_owned())
    );
    assert!(result.is_timeout());
    assert!(took < Duration::from_secs(2), "check took {took:?}");
    // z3's own limit fired, so the session goes on.
    s.pop().expect("pop");
    assert_eq!(s.check().expect("check"), CheckResult::Sat);
}

#[test]
fn solver_error_is_an_error_not_a_verdict() {
    let mut s = z3_or_skip!(|c: SolverConfig| c);
    s.assert(&term::eq(Sexp::atom("undeclared"), term::int(1)))
        .expect("buffered");
    s.assert(&term::bool(false)).expect("buffered");
    match s.check() {
        Err(SmtError::Solver { message }) => assert!(message.contains("undeclared"), "{message}"),
        other => panic!("expected a solver error, got {other:?}"),
    }
    assert!(matches!(s.check(), Err(SmtError::Dead { .. })));
}

#[test]
fn transcript_replays_with_z3() {
    let transcript = Transcript::new();
    let t = transcript.clone();
    let mut s = z3_or_skip!(|c: SolverConfig| c.with_logic("QF_BV").with_transcript(t));
    let b = s.declare_const("b", &Sort::BitVec(8)).expect("declare");
    s.assert(&term::bvult(b.clone(), term::bv(3, 8)))
        .expect("assert");
    s.push().expect("push");
    s.assert(&term::bvugt(b.clone(), term::bv(7, 8)))
        .expect("assert");
    assert_eq!(s.check().expect("check"), CheckResult::Unsat);
    s.pop().expect("pop");
    assert_eq!(s.check().expect("check"), CheckResult::Sat);
    s.get_values(&[b]).expect("get-value");
    let program = s.program().to_owned();
    drop(s);

    let commands = transcript.commands();
    assert_eq!(commands[0], "(set-option :produce-models true)");
    assert_eq!(commands[1], "(set-option :timeout 10000)");
    assert_eq!(commands[2], "(set-logic QF_BV)");
    assert!(commands.contains(&"(declare-const b (_ BitVec 8))".to_owned()));

    let file = common::temp_dir("replay").join("dump.smt2");
    std::fs::write(&file, transcript.to_string()).expect("write dump");
    let out = std::process::Command::new(program)
        .arg(&file)
        .output()
        .expect("z3 runs the dump");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(&lines[..2], ["unsat", "sat"], "{stdout}");
    assert!(lines[2].starts_with("((b #x0"), "{stdout}");
}

#[test]
fn bad_symbol_is_a_usage_error() {
    let mut s = z3_or_skip!(|c: SolverConfig| c);
    assert!(matches!(
        s.declare_const("a|b", &Sort::Int),
        Err(SmtError::Usage(_))
    ));
    assert_eq!(s.check().expect("check"), CheckResult::Sat);
}

/// A limit too large for an `Instant` or for the solver's 32-bit
/// millisecond option is no deadline and the solver's largest limit: the
/// query is answered, nothing panics.
#[test]
fn huge_timeouts_neither_panic_nor_confuse_the_solver() {
    for limit in [Duration::MAX, Duration::from_secs(100_000_000_000)] {
        let mut s = z3_or_skip!(|c: SolverConfig| c.with_logic("QF_LIA").with_timeout(Some(limit)));
        let x = s.declare_const("x", &Sort::Int).expect("declare");
        s.assert(&term::gt(x, term::int(0))).expect("assert");
        assert_eq!(s.check().expect("check"), CheckResult::Sat, "{limit:?}");
    }
}

/// Two threads of one block with one `blockIdx.x * blockDim.x +
/// threadIdx.x` at one index, in a `push` scope: a query z3's incremental
/// solver does not answer within its resource limit, and its transcript.
fn same_global_index_of_two_threads() -> Option<(Solver, Transcript)> {
    let transcript = Transcript::new();
    let t = transcript.clone();
    let base = common::z3()?;
    let mut s = Solver::start(base.with_logic("QF_BV").with_transcript(t)).expect("z3 starts");
    let bv = Sort::BitVec(32);
    let [bd, n, b1, b2, t1, t2] = ["bd", "n", "b1", "b2", "t1", "t2"]
        .map(|name| s.declare_const(name, &bv).expect("declare"));
    let sel = s.declare_const("sel", &Sort::Bool).expect("declare");
    let idx = [1, 2].map(|k| {
        s.declare_const(&format!("idx{k}"), &Sort::BitVec(64))
            .expect("declare")
    });
    s.assert(&term::bvult(t1.clone(), bd.clone()))
        .expect("assert");
    s.assert(&term::bvult(t2.clone(), bd.clone()))
        .expect("assert");
    s.push().expect("push");
    let global = |b: &Sexp, t: &Sexp| term::bvadd(term::bvmul(b.clone(), bd.clone()), t.clone());
    for (k, (b, t)) in [(&b1, &t1), (&b2, &t2)].into_iter().enumerate() {
        let g = global(b, t);
        s.assert(&term::implies(
            sel.clone(),
            term::and([
                term::bvslt(g.clone(), n.clone()),
                term::eq(idx[k].clone(), term::sign_extend(32, g)),
            ]),
        ))
        .expect("assert");
    }
    s.assert(&sel).expect("assert");
    s.assert(&term::eq(idx[0].clone(), idx[1].clone()))
        .expect("assert");
    s.assert(&term::eq(b1, b2)).expect("assert");
    s.assert(&term::not(term::eq(t1, t2))).expect("assert");
    Some((s, transcript))
}

/// A query z3's incremental solver does not answer within its resource
/// limit (two threads of one block with one `blockIdx.x * blockDim.x +
/// threadIdx.x`: minutes of bit-blasted multipliers) is asked again with
/// preprocessing, which substitutes the equal block indices away and
/// answers at once. The transcript shows both tries.
#[test]
fn a_check_that_runs_out_of_resources_is_asked_again_with_preprocessing() {
    let Some((mut s, transcript)) = same_global_index_of_two_threads() else {
        return;
    };
    let started = Instant::now();
    assert_eq!(s.check().expect("check"), CheckResult::Unsat);
    assert!(started.elapsed() < Duration::from_secs(5));
    let commands = transcript.commands();
    assert!(
        commands.iter().any(|c| c.starts_with("(check-sat-using")),
        "{commands:?}"
    );
}

/// A bounded check never makes the last try, which has no resource limit:
/// the incremental try runs out and the answer is `unknown` (the same on
/// a loaded machine); with the bit-blasted try, z3's `qfbv` tactic
/// answers within its own limit.
#[test]
fn a_bounded_check_gives_up_where_its_resource_limits_do() {
    let Some((mut s, transcript)) = same_global_index_of_two_threads() else {
        return;
    };
    match s.check_bounded(false).expect("check") {
        CheckResult::Unknown(_) => {}
        other => panic!("expected unknown, got {other:?}"),
    }
    assert_eq!(s.check_bounded(true).expect("check"), CheckResult::Unsat);
    let commands = transcript.commands();
    let tactics: Vec<&String> = commands
        .iter()
        .filter(|c| c.starts_with("(check-sat-using"))
        .collect();
    assert_eq!(tactics.len(), 1, "{commands:?}");
    assert!(tactics[0].contains("qfbv"), "{commands:?}");
}
