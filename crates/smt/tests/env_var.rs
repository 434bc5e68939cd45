//! `WARPSAFE_Z3` selects the binary, and a binary that cannot be executed
//! is a spawn error. One test only: it changes the process environment,
//! which no other test may read meanwhile, and it executes files it has just
//! written, which fails with ETXTBSY if another test thread forks meanwhile.
#![cfg(unix)]

mod common;

use std::os::unix::fs::PermissionsExt;

use warpsafe_smt::{CheckResult, SmtError, Solver, SolverConfig};

#[test]
fn env_var_selects_the_binary_or_explains() {
    // An executable fake "z3" that answers unsat.
    let fake = common::temp_dir("env").join("fake-z3");
    std::fs::write(
        &fake,
        format!("#!/bin/sh\n{}", common::answering_script("unsat")),
    )
    .expect("write fake z3");
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).expect("chmod");

    std::env::set_var("WARPSAFE_Z3", &fake);
    let mut s = Solver::start(SolverConfig::z3()).expect("starts the fake");
    assert_eq!(s.program(), fake.as_path());
    assert_eq!(s.check().expect("check"), CheckResult::Unsat);
    drop(s);

    std::env::set_var("WARPSAFE_Z3", "/nonexistent/z3");
    let err = Solver::start(SolverConfig::z3()).expect_err("missing binary");
    std::env::remove_var("WARPSAFE_Z3");
    match &err {
        SmtError::NotFound { solver, message } => {
            assert_eq!(*solver, "z3");
            assert!(message.contains("WARPSAFE_Z3"), "{message}");
            assert!(message.contains("pip install z3-solver"), "{message}");
        }
        other => panic!("expected NotFound, got {other:?}"),
    }

    // Executable bits but no valid format: exec fails.
    let bad = common::temp_dir("env").join("bad-z3");
    std::fs::write(&bad, [0x7f, b'E', b'L', b'F', 0, 0, 0, 0]).expect("write bad binary");
    std::fs::set_permissions(&bad, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    match Solver::start(SolverConfig::z3().with_program(&bad)) {
        Err(SmtError::Spawn { program, .. }) => assert_eq!(program, bad),
        other => panic!("expected Spawn, got {other:?}"),
    }
}
