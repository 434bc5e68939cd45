//! Every math function the front end emits has a concrete implementation.
//!
//! Takes the front end's list of math functions, so a function added there
//! without an interpreter counterpart fails here.

use warpsafe_interp::math::{call, FUNCTIONS};
use warpsafe_interp::{EvalOptions, FaultKind, Value};
use warpsafe_ir::ScalarTy;

fn frontend_math_names() -> Vec<String> {
    warpsafe_frontend::math_functions()
        .map(str::to_string)
        .collect()
}

#[test]
fn every_frontend_math_function_is_implemented() {
    let names = frontend_math_names();
    assert!(names.len() > 50, "parsed only {names:?}");
    for name in &names {
        assert!(
            FUNCTIONS.contains(&name.as_str()),
            "`{name}` is not in FUNCTIONS"
        );
    }
}

#[test]
fn every_listed_function_evaluates() {
    let opts = EvalOptions::default();
    for name in FUNCTIONS {
        let mut ok = false;
        for arity in 1..=3 {
            let args = vec![Value::F32(0.75); arity];
            for ty in [ScalarTy::F32, ScalarTy::F64, ScalarTy::I32, ScalarTy::Bool] {
                match call(name, ty, &args, opts) {
                    Ok(_) => ok = true,
                    Err(FaultKind::UnknownFunction(_)) => panic!("`{name}` is listed but unknown"),
                    Err(_) => {}
                }
            }
        }
        assert!(ok, "`{name}` never evaluated");
    }
}
