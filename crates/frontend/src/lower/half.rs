//! Pairs of half-precision floats (`half2`, `__half2`): the operators
//! `cuda_fp16.hpp` defines for them and the `__h*2` intrinsics, lane by
//! lane on `f16` values.
//!
//! Invariant: every result is computed as CUDA rounds it: one rounding to
//! `f16` per operation, also for the fused `__hfma2` (the interpreter's
//! `__hfma`), never a value made up for an operation it does not know
//! (those are refused as unknown functions).

use super::value::Value;
use super::{Lowerer, R};
use crate::types::CType;
use tree_sitter::Node;
use warpsafe_ir::{BinOp, Expr, ScalarTy};

const H: ScalarTy = ScalarTy::F16;

fn half2() -> CType {
    CType::Vector(H, 2, "half2".into())
}

fn is_half2(v: &Value) -> bool {
    matches!(v, Value::Agg(CType::Vector(ScalarTy::F16, 2, _), _))
}

impl<'t> Lowerer<'_, 't> {
    /// The two lanes of a `half2` value, as `f16` expressions.
    fn lanes(&self, v: Value, n: Node) -> R<[Expr; 2]> {
        match v {
            Value::Agg(CType::Vector(ScalarTy::F16, 2, _), vals) => {
                let mut out = Vec::new();
                for x in vals {
                    out.push(self.coerce(x, H, n)?);
                }
                <[Expr; 2]>::try_from(out)
                    .map_err(|_| self.unsupported(n, "a `half2` without two lanes"))
            }
            other => Err(self.unsupported(
                n,
                format!("a `{}` where a `half2` is expected", other.ty_desc()),
            )),
        }
    }

    /// A `half2` of two lanes, each held in a temporary: an assignment
    /// of the pair to a variable its lanes read (`v = __lowhigh2highlow(v)`)
    /// writes one lane before reading the other.
    fn pair(&mut self, lo: Expr, hi: Expr, n: Node) -> Value {
        let lo = self.hold(lo, H, n);
        let hi = self.hold(hi, H, n);
        Value::Agg(half2(), vec![Value::Scalar(lo, H), Value::Scalar(hi, H)])
    }

    /// `a op b` on two `half2` values (`+`, `-`, `*`, `/`), or `None` when
    /// the operands are not both `half2`.
    pub fn half2_binop(&mut self, op: &str, a: &Value, b: &Value, n: Node) -> R<Option<Value>> {
        if !is_half2(a) || !is_half2(b) {
            return Ok(None);
        }
        let bop = match op {
            "+" => BinOp::Add,
            "-" => BinOp::Sub,
            "*" => BinOp::Mul,
            "/" => BinOp::Div,
            _ => return Err(self.unsupported(n, format!("operator `{op}` on `half2` values"))),
        };
        let [a0, a1] = self.lanes(a.clone(), n)?;
        let [b0, b1] = self.lanes(b.clone(), n)?;
        Ok(Some(self.pair(
            Expr::binary(bop, H, a0, b0),
            Expr::binary(bop, H, a1, b1),
            n,
        )))
    }

    /// A `half2` intrinsic, or `None` when `name` is not one.
    pub fn half2_intrinsic(
        &mut self,
        name: &str,
        args: &[Node<'t>],
        n: Node<'t>,
    ) -> R<Option<Value>> {
        let arity = match name {
            "__float2half2_rn" | "__low2float" | "__high2float" | "__low2half" | "__high2half"
            | "__half22float2" | "__float22half2_rn" | "__lowhigh2highlow" => 1,
            "__hadd2" | "__hsub2" | "__hmul2" | "__h2div" | "__floats2half2_rn"
            | "__halves2half2" => 2,
            "__hfma2" => 3,
            _ => return Ok(None),
        };
        if args.len() != arity {
            return Err(self.unsupported(n, format!("`{name}` takes {arity} argument(s)")));
        }
        let mut vals = Vec::new();
        for a in args {
            vals.push(self.value(*a)?);
        }
        let to_half = |s: &Self, v: Value, n: Node| -> R<Expr> { s.coerce(v, H, n) };
        let v = match name {
            "__float2half2_rn" => {
                let h = self.hold(to_half(self, vals.remove(0), n)?, H, n);
                self.pair(h.clone(), h, n)
            }
            "__floats2half2_rn" | "__halves2half2" => {
                let lo = to_half(self, vals.remove(0), n)?;
                let hi = to_half(self, vals.remove(0), n)?;
                self.pair(lo, hi, n)
            }
            "__low2float" | "__high2float" | "__low2half" | "__high2half" => {
                let [lo, hi] = self.lanes(vals.remove(0), n)?;
                let lane = if name.starts_with("__low") { lo } else { hi };
                if name.ends_with("float") {
                    Value::Scalar(Expr::Cast(ScalarTy::F32, Box::new(lane)), ScalarTy::F32)
                } else {
                    Value::Scalar(lane, H)
                }
            }
            "__lowhigh2highlow" => {
                let [lo, hi] = self.lanes(vals.remove(0), n)?;
                self.pair(hi, lo, n)
            }
            "__half22float2" => {
                let [lo, hi] = self.lanes(vals.remove(0), n)?;
                let f = |e| Value::Scalar(Expr::Cast(ScalarTy::F32, Box::new(e)), ScalarTy::F32);
                Value::Agg(
                    CType::Vector(ScalarTy::F32, 2, "float2".into()),
                    vec![f(lo), f(hi)],
                )
            }
            "__float22half2_rn" => match vals.remove(0) {
                Value::Agg(CType::Vector(ScalarTy::F32, 2, _), mut lanes) if lanes.len() == 2 => {
                    let lo = to_half(self, lanes.remove(0), n)?;
                    let hi = to_half(self, lanes.remove(0), n)?;
                    self.pair(lo, hi, n)
                }
                other => {
                    return Err(self.unsupported(
                        n,
                        format!(
                            "`{name}` of a `{}` (a `float2` is expected)",
                            other.ty_desc()
                        ),
                    ))
                }
            },
            "__hfma2" => {
                let [a0, a1] = self.lanes(vals.remove(0), n)?;
                let [b0, b1] = self.lanes(vals.remove(0), n)?;
                let [c0, c1] = self.lanes(vals.remove(0), n)?;
                let fma = |a, b, c| Expr::Call("__hfma".into(), H, vec![a, b, c]);
                self.pair(fma(a0, b0, c0), fma(a1, b1, c1), n)
            }
            _ => {
                let op = match name {
                    "__hadd2" => "+",
                    "__hsub2" => "-",
                    "__hmul2" => "*",
                    _ => "/",
                };
                let b = vals.remove(1);
                let a = vals.remove(0);
                self.half2_binop(op, &a, &b, n)?.ok_or_else(|| {
                    self.unsupported(n, format!("`{name}` of values that are not `half2`"))
                })?
            }
        };
        Ok(Some(v))
    }
}
