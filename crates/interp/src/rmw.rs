//! The value computations of atomic read-modify-writes, compare-and-swap and
//! barrier reductions, for drivers that own the memory.
//!
//! Seed 000 §3: a successful RMW is a read event and a write event whose
//! written value is a function of the read one; a failed CAS is only a read.
//! The driver picks the value read (the old value) and calls these helpers
//! to compute what is written; the thread itself only learns the old value.
//!
//! CUDA semantics:
//! - `atomicAdd`/`Sub` wrap on integers and round on floats (float add is
//!   an IEEE add at the slot's type).
//! - `atomicMin`/`Max` compare by the slot type's signedness; on floats they
//!   behave as `std::min`/`std::max` (`fetch_min` of `cuda::atomic<float>`).
//! - `atomicInc(p, n)`: `old >= n ? 0 : old + 1`;
//!   `atomicDec(p, n)`: `old == 0 || old > n ? n : old - 1` (unsigned).
//! - `atomicCAS` compares *bit patterns* (`-0.0` and `0.0` differ, a NaN
//!   equals the same NaN), as CUDA and `compare_exchange` do.

use crate::eval::{apply_binary, EvalOptions};
use crate::fault::FaultKind;
use crate::value::Value;
use warpsafe_ir::{BinOp, ReduceOp, RmwOp};

/// The value an atomic `op` with `operand` writes over `old`. The operand
/// is converted to the type of `old` (the slot's type) first.
pub fn apply_rmw(op: RmwOp, old: Value, operand: Value) -> Result<Value, FaultKind> {
    let ty = old.ty();
    let v = operand.convert(ty);
    let wrap = EvalOptions::default();
    let ill = || FaultKind::IllTyped(format!("atomic {} on {ty}", op.name()));
    Ok(match op {
        RmwOp::Exch => v,
        RmwOp::Add | RmwOp::Sub if ty == warpsafe_ir::ScalarTy::Bool => return Err(ill()),
        RmwOp::Add => apply_binary(BinOp::Add, ty, old, v, wrap)?,
        RmwOp::Sub => apply_binary(BinOp::Sub, ty, old, v, wrap)?,
        RmwOp::Min => {
            if lt(v, old) {
                v
            } else {
                old
            }
        }
        RmwOp::Max => {
            if lt(old, v) {
                v
            } else {
                old
            }
        }
        RmwOp::Inc => match (old.as_int(), v.as_int()) {
            (Some(o), Some(n)) if ty.is_integer() => {
                if o >= n {
                    Value::zero(ty)
                } else {
                    Value::from_int(ty, o + 1)
                }
            }
            _ => return Err(ill()),
        },
        RmwOp::Dec => match (old.as_int(), v.as_int()) {
            (Some(o), Some(n)) if ty.is_integer() => {
                if o == 0 || o > n {
                    v
                } else {
                    Value::from_int(ty, o - 1)
                }
            }
            _ => return Err(ill()),
        },
        RmwOp::And | RmwOp::Or | RmwOp::Xor => {
            if ty.is_float() {
                return Err(ill());
            }
            let bop = match op {
                RmwOp::And => BinOp::BitAnd,
                RmwOp::Or => BinOp::BitOr,
                _ => BinOp::BitXor,
            };
            apply_binary(bop, ty, old, v, wrap)?
        }
    })
}

/// `a < b` for two values of one type (floats: IEEE, false with a NaN).
fn lt(a: Value, b: Value) -> bool {
    match (a.as_int(), b.as_int()) {
        (Some(x), Some(y)) => x < y,
        _ => a.to_f64() < b.to_f64(),
    }
}

/// Whether a compare-and-swap that read `old` succeeds: `expected`, at the
/// slot's type, has the same bits.
pub fn cas_succeeds(old: Value, expected: Value) -> bool {
    old.to_bits() == expected.convert(old.ty()).to_bits()
}

/// The value a compare-and-swap leaves in the slot: `desired` (converted to
/// the slot's type) when it succeeds, `old` otherwise.
pub fn cas_result(old: Value, expected: Value, desired: Value) -> Value {
    if cas_succeeds(old, expected) {
        desired.convert(old.ty())
    } else {
        old
    }
}

/// The result of `__syncthreads_count/_and/_or` over the predicates of all
/// participating threads.
pub fn reduce_barrier(op: ReduceOp, preds: impl IntoIterator<Item = bool>) -> i32 {
    let mut preds = preds.into_iter();
    match op {
        ReduceOp::Count => preds.filter(|p| *p).count() as i32,
        ReduceOp::And => i32::from(preds.all(|p| p)),
        ReduceOp::Or => i32::from(preds.any(|p| p)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuda_atomic_semantics() {
        let r = |op, old, v| apply_rmw(op, old, v).expect("well typed");
        assert_eq!(
            r(RmwOp::Add, Value::I32(i32::MAX), Value::I32(1)),
            Value::I32(i32::MIN)
        );
        assert_eq!(
            r(RmwOp::Add, Value::F32(0.5), Value::F32(0.25)),
            Value::F32(0.75)
        );
        assert_eq!(
            r(RmwOp::Sub, Value::U32(0), Value::U32(1)),
            Value::U32(u32::MAX)
        );
        assert_eq!(r(RmwOp::Min, Value::I32(-1), Value::I32(3)), Value::I32(-1));
        assert_eq!(
            r(RmwOp::Min, Value::U32(u32::MAX), Value::U32(3)),
            Value::U32(3)
        );
        assert_eq!(r(RmwOp::Max, Value::I32(-1), Value::I32(3)), Value::I32(3));
        assert_eq!(r(RmwOp::Inc, Value::U32(5), Value::U32(5)), Value::U32(0));
        assert_eq!(r(RmwOp::Inc, Value::U32(4), Value::U32(5)), Value::U32(5));
        assert_eq!(r(RmwOp::Dec, Value::U32(0), Value::U32(7)), Value::U32(7));
        assert_eq!(r(RmwOp::Dec, Value::U32(9), Value::U32(7)), Value::U32(7));
        assert_eq!(r(RmwOp::Dec, Value::U32(3), Value::U32(7)), Value::U32(2));
        assert_eq!(
            r(RmwOp::Exch, Value::I64(1), Value::I32(-2)),
            Value::I64(-2)
        );
        assert_eq!(
            r(RmwOp::Xor, Value::U32(0b1100), Value::U32(0b1010)),
            Value::U32(0b0110)
        );
        assert!(apply_rmw(RmwOp::And, Value::F32(1.0), Value::F32(1.0)).is_err());
        assert!(cas_succeeds(Value::F32(f32::NAN), Value::F32(f32::NAN)));
        assert!(!cas_succeeds(Value::F32(0.0), Value::F32(-0.0)));
        assert_eq!(
            cas_result(Value::I32(1), Value::I32(1), Value::I32(9)),
            Value::I32(9)
        );
        assert_eq!(
            cas_result(Value::I32(2), Value::I32(1), Value::I32(9)),
            Value::I32(2)
        );
        assert_eq!(reduce_barrier(ReduceOp::Count, [true, false, true]), 2);
        assert_eq!(reduce_barrier(ReduceOp::And, [true, false]), 0);
        assert_eq!(reduce_barrier(ReduceOp::Or, [false, true]), 1);
    }
}
