//! Helpers shared by the integration tests: finding a real solver (or
//! skipping when `WARPSAFE_SKIP_SOLVER_TESTS=1`) and writing fake solvers.

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use warpsafe_smt::{locate, term, Solver, SolverConfig, SolverKind, Sort, Term};

/// The environment variable that lets a machine without z3 skip the tests
/// that need it. Without it, a missing z3 fails those tests.
pub const SKIP_VAR: &str = "WARPSAFE_SKIP_SOLVER_TESTS";

/// A z3 configuration, or `None` (after printing why) when z3 is missing
/// and `WARPSAFE_SKIP_SOLVER_TESTS=1`. Panics with the install hint when z3
/// is missing and skipping was not asked for, so CI notices.
pub fn z3() -> Option<SolverConfig> {
    match locate(SolverKind::Z3, None) {
        Ok(_) => Some(SolverConfig::z3()),
        Err(e) if std::env::var(SKIP_VAR).as_deref() == Ok("1") => {
            eprintln!("skipping: {e} ({SKIP_VAR}=1)");
            None
        }
        Err(e) => panic!(
            "this test needs z3: {e}\n\
             Set {SKIP_VAR}=1 to skip the tests that need a solver."
        ),
    }
}

/// A cvc5 configuration, or `None` (after printing why) when cvc5 is
/// missing: cvc5 is optional, so its tests always skip without it.
pub fn cvc5() -> Option<SolverConfig> {
    match locate(SolverKind::Cvc5, None) {
        Ok(_) => Some(SolverConfig::cvc5()),
        Err(e) => {
            eprintln!("skipping cvc5 test: {e}");
            None
        }
    }
}

/// A fresh directory under Cargo's scratch directory for integration tests
/// (`target/tmp`, removed by `cargo clean`).
pub fn temp_dir(tag: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "warpsafe-smt-test-{}-{tag}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).expect("temp dir can be created");
    dir
}

/// Writes `body` as a shell script and returns a config that runs it as the
/// "z3" binary via `/bin/sh script` (running the interpreter rather than the
/// fresh file avoids ETXTBSY when other test threads fork meanwhile).
pub fn fake_solver(tag: &str, body: &str) -> SolverConfig {
    let script = temp_dir(tag).join("solver.sh");
    std::fs::write(&script, body).expect("script can be written");
    SolverConfig::z3()
        .with_program("/bin/sh")
        .with_args([script.to_string_lossy().into_owned()])
}

/// A fake solver that answers `sat` to every check-sat after `delay` seconds.
pub fn sat_script(delay: &str) -> String {
    format!(
        "while IFS= read -r line; do\n  case \"$line\" in\n    *check-sat*) sleep {delay}; echo sat ;;\n  esac\ndone\n"
    )
}

/// A fake solver that prints `answer` (a shell word, quoted) for check-sat.
pub fn answering_script(answer: &str) -> String {
    format!(
        "while IFS= read -r line; do\n  case \"$line\" in\n    *check-sat*) printf '%s\\n' {answer} ;;\n  esac\ndone\n"
    )
}

/// Asserts pigeonhole: `holes + 1` pigeons, each in some hole, no two in
/// the same hole. Unsatisfiable, and hard for CDCL from about 12 holes.
pub fn pigeonhole(s: &mut Solver, holes: usize) {
    let p: Vec<Vec<Term>> = (0..=holes)
        .map(|i| {
            (0..holes)
                .map(|j| {
                    s.declare_const(&format!("p_{i}_{j}"), &Sort::Bool)
                        .expect("declare")
                })
                .collect()
        })
        .collect();
    for row in &p {
        s.assert(&term::or(row.clone())).expect("assert");
    }
    for j in 0..holes {
        let column: Vec<&Term> = p.iter().map(|row| &row[j]).collect();
        for (a, first) in column.iter().enumerate() {
            for second in &column[a + 1..] {
                let both = term::and([(*first).clone(), (*second).clone()]);
                s.assert(&term::not(both)).expect("assert");
            }
        }
    }
}
