//! Concrete values of the math functions the front end keeps as `Expr::Call`.
//!
//! The front end (`crates/frontend/src/lower/builtins.rs`, `MATH`) lowers
//! CUDA math calls to uninterpreted calls whose type is the result type and
//! whose arguments keep their own types; [`call`] converts the arguments as
//! C would and computes the function with Rust's `f32`/`f64`/integer
//! operations. Every name in the front end's list is supported (a test reads
//! that list), plus a few common extras; [`FUNCTIONS`] lists them all.
//!
//! Precision: functions of the generic names (`sqrt`, `pow`, ...) compute in
//! the call's type (the front end picks `f32` for `float` arguments).
//! Transcendental `f32` functions are computed in `f64` and rounded once,
//! so they are within one ulp of the true value; CUDA's own implementations
//! have documented errors of a few ulps, and the fast intrinsics (`__expf`,
//! `__sinf`, `__fdividef`, `__powf`, ...) are modelled by the accurate
//! functions. Concrete results may therefore differ from a GPU's in the last
//! bits; exact operations (`sqrt`, `fma`, `floor`, `fmin`, division, bit
//! manipulation) agree exactly. `f16` results are computed in `f32`/`f64`
//! and rounded to binary16. Conversions in intrinsics (`__float2int_rn`)
//! saturate as PTX does. Unknown names are [`FaultKind::UnknownFunction`].

use crate::eval::EvalOptions;
use crate::fault::FaultKind;
use crate::value::Value;
use warpsafe_ir::{ScalarTy, FREXP_EXPONENT};

/// Every function name [`call`] knows.
#[rustfmt::skip]
pub const FUNCTIONS: &[&str] = &[
    // One floating-point argument.
    "sqrtf", "sqrt", "__fsqrt_rn", "rsqrtf", "rsqrt", "cbrtf", "cbrt", "expf", "exp", "__expf",
    "exp2f", "exp2", "exp10f", "exp10", "__exp10f", "expm1f", "expm1", "logf", "log", "__logf",
    "log2f", "log2", "__log2f", "log10f", "log10", "__log10f", "log1pf", "log1p", "sinf", "sin",
    "__sinf", "cosf", "cos", "__cosf", "tanf", "tan", "__tanf", "asinf", "asin", "acosf", "acos",
    "atanf", "atan", "sinhf", "sinh", "coshf", "cosh", "tanhf", "tanh", "fabsf", "fabs", "floorf",
    "floor", "ceilf", "ceil", "roundf", "round", "truncf", "trunc", "rintf", "rint", "nearbyintf",
    "nearbyint", "erff", "erf", "__frcp_rn", "__saturatef",
    "__float_to_tf32",
    // Two floating-point arguments.
    "powf", "pow", "__powf", "atan2f", "atan2", "fminf", "fmin", "fmaxf", "fmax", "fmodf", "fmod",
    "hypotf", "hypot", "copysignf", "copysign", "fdimf", "fdim", "__fdividef", "__fdiv_rn",
    "fdividef", "__fmul_rn", "__fadd_rn", "__fsub_rn", "__dmul_rn", "__dadd_rn", "__dsub_rn",
    "__ddiv_rn",
    // Directed rounding (`directed.rs`).
    "__fadd_ru", "__fadd_rd", "__fadd_rz", "__fsub_ru", "__fsub_rd", "__fsub_rz", "__fmul_ru",
    "__fmul_rd", "__fmul_rz", "__fdiv_ru", "__fdiv_rd", "__fdiv_rz", "__fsqrt_ru", "__fsqrt_rd",
    "__fsqrt_rz", "__dadd_ru", "__dadd_rd", "__dadd_rz", "__dsub_ru", "__dsub_rd", "__dsub_rz",
    "__dmul_ru", "__dmul_rd", "__dmul_rz", "__ddiv_ru", "__ddiv_rd", "__ddiv_rz", "__dsqrt_ru",
    "__dsqrt_rd", "__dsqrt_rz",
    // Three.
    "fmaf", "fma", "__fmaf_rn", "__fma_rn", "__hfma",
    // Classification.
    "isnan", "isinf", "isfinite", "signbit", "__isnanf", "__isinff",
    // Conversions and reinterpretations.
    "__float2int_rn", "__float2int_rz", "__float2int_rd", "__float2int_ru", "__float2uint_rn",
    "__float2uint_rz", "__double2int_rn", "__double2int_rz", "__int2float_rn", "__uint2float_rn",
    "__int_as_float", "__float_as_int", "__uint_as_float", "__float_as_uint",
    "__longlong_as_double", "__double_as_longlong", "__half_as_ushort", "__ushort_as_half",
    "__half_as_short", "__short_as_half", "__half2float", "__float2half",
    "__float2half_rn", "__bfloat16_as_ushort", "__bfloat16_as_short", "__ushort_as_bfloat16",
    "__short_as_bfloat16", "__bfloat162float", "__float2bfloat16", "__float2bfloat16_rn",
    "__double2bfloat16",
    // `frexp(x, &e)`: the front end calls one for each result.
    "frexp", "frexpf", FREXP_EXPONENT,
    // Integer intrinsics.
    "__popc", "__popcll", "__clz", "__clzll", "__ffs", "__ffsll", "__brev", "__brevll", "__sad",
    "__usad", "__mulhi", "__umulhi", "__mul64hi", "__umul64hi", "__hadd", "__uhadd", "__rhadd",
    "__urhadd", "__byte_perm", "__funnelshift_l", "__funnelshift_lc", "__funnelshift_r",
    "__funnelshift_rc",
];

/// The value of `name(args)`, a call of result type `ty`.
pub fn call(
    name: &str,
    ty: ScalarTy,
    args: &[Value],
    opts: EvalOptions,
) -> Result<Value, FaultKind> {
    let _ = opts; // Conversions inside intrinsics saturate, as PTX's do.
    let arity = |n: usize| {
        if args.len() == n {
            Ok(())
        } else {
            Err(FaultKind::BadArguments {
                name: name.to_string(),
                expected: n,
                got: args.len(),
            })
        }
    };
    if let Some((op, dir, _)) = crate::directed::parse(name) {
        arity(if op == crate::directed::Op::Sqrt {
            1
        } else {
            2
        })?;
        let second = |x: &[f64]| x.get(1).copied().unwrap_or(0.0);
        return float_op(
            name,
            ty,
            args,
            |x| crate::directed::directed_f64(op, dir, x[0], second(x)),
            |x| crate::directed::directed_f32(op, dir, x[0], x.get(1).copied().unwrap_or(0.0)),
        );
    }
    if let Some(f) = unary_float(name) {
        arity(1)?;
        return float_op(name, ty, args, |x| f(x[0]), |x| f(f64::from(x[0])) as f32);
    }
    if let Some((f, g)) = binary_float(name) {
        arity(2)?;
        return float_op(name, ty, args, |x| f(x[0], x[1]), |x| g(x[0], x[1]));
    }
    let out = match name {
        "fmaf" | "fma" | "__fmaf_rn" | "__fma_rn" => {
            arity(3)?;
            return float_op(
                name,
                ty,
                args,
                |x| x[0].mul_add(x[1], x[2]),
                |x| x[0].mul_add(x[1], x[2]),
            );
        }
        "isnan" | "isinf" | "isfinite" | "signbit" | "__isnanf" | "__isinff" => {
            arity(1)?;
            let x = args[0].to_f64();
            Value::Bool(match name {
                "isnan" | "__isnanf" => x.is_nan(),
                "isinf" | "__isinff" => x.is_infinite(),
                "isfinite" => x.is_finite(),
                _ => x.is_sign_negative(),
            })
        }
        "__float2int_rn" | "__float2int_rz" | "__float2int_rd" | "__float2int_ru"
        | "__float2uint_rn" | "__float2uint_rz" | "__double2int_rn" | "__double2int_rz" => {
            arity(1)?;
            let x = args[0].to_f64();
            let r = match &name[name.len() - 2..] {
                "rn" => x.round_ties_even(),
                "rd" => x.floor(),
                "ru" => x.ceil(),
                _ => x.trunc(),
            };
            let target = if name.contains("uint") {
                ScalarTy::U32
            } else {
                ScalarTy::I32
            };
            Value::F64(r).convert(target)
        }
        "__int2float_rn" | "__uint2float_rn" => {
            arity(1)?;
            let src = if name.starts_with("__u") {
                ScalarTy::U32
            } else {
                ScalarTy::I32
            };
            args[0].convert(src).convert(ScalarTy::F32)
        }
        "__int_as_float" | "__uint_as_float" => {
            arity(1)?;
            Value::from_bits(ScalarTy::F32, args[0].convert(ScalarTy::U32).to_bits())
        }
        "__float_as_int" | "__float_as_uint" => {
            arity(1)?;
            let target = if name.contains("uint") {
                ScalarTy::U32
            } else {
                ScalarTy::I32
            };
            Value::from_bits(target, args[0].convert(ScalarTy::F32).to_bits())
        }
        "__longlong_as_double" => {
            arity(1)?;
            Value::from_bits(ScalarTy::F64, args[0].convert(ScalarTy::U64).to_bits())
        }
        "__double_as_longlong" => {
            arity(1)?;
            Value::from_bits(ScalarTy::I64, args[0].convert(ScalarTy::F64).to_bits())
        }
        "frexp" | "frexpf" => {
            arity(1)?;
            Value::F64(frexp(args[0].to_f64()).0)
        }
        FREXP_EXPONENT => {
            arity(1)?;
            Value::I32(frexp(args[0].to_f64()).1)
        }
        "__half_as_ushort" | "__half_as_short" => {
            arity(1)?;
            let target = if name.contains("ushort") {
                ScalarTy::U16
            } else {
                ScalarTy::I16
            };
            Value::from_bits(target, args[0].convert(ScalarTy::F16).to_bits())
        }
        "__ushort_as_half" | "__short_as_half" => {
            arity(1)?;
            Value::from_bits(ScalarTy::F16, args[0].convert(ScalarTy::U16).to_bits())
        }
        "__hfma" => {
            arity(3)?;
            // Exact in f64 (f16 products and sums fit), rounded once.
            let [a, b, c] = [&args[0], &args[1], &args[2]].map(|v| v.to_f64());
            Value::F64(a * b + c).convert(ScalarTy::F16)
        }
        "__half2float" => {
            arity(1)?;
            args[0].convert(ScalarTy::F16).convert(ScalarTy::F32)
        }
        "__float2half" | "__float2half_rn" => {
            arity(1)?;
            args[0].convert(ScalarTy::F32).convert(ScalarTy::F16)
        }
        "__bfloat16_as_ushort" | "__bfloat16_as_short" => {
            arity(1)?;
            let target = if name.contains("ushort") {
                ScalarTy::U16
            } else {
                ScalarTy::I16
            };
            Value::from_bits(target, args[0].convert(ScalarTy::Bf16).to_bits())
        }
        "__ushort_as_bfloat16" | "__short_as_bfloat16" => {
            arity(1)?;
            Value::from_bits(ScalarTy::Bf16, args[0].convert(ScalarTy::U16).to_bits())
        }
        "__bfloat162float" => {
            arity(1)?;
            args[0].convert(ScalarTy::Bf16).convert(ScalarTy::F32)
        }
        "__float2bfloat16" | "__float2bfloat16_rn" => {
            arity(1)?;
            args[0].convert(ScalarTy::F32).convert(ScalarTy::Bf16)
        }
        "__double2bfloat16" => {
            arity(1)?;
            args[0].convert(ScalarTy::F64).convert(ScalarTy::Bf16)
        }
        _ => integer(name, args, arity)?,
    };
    Ok(out.convert(ty))
}

/// C's `frexp`: `x = m * 2^e` with `0.5 <= |m| < 1` (`(x, 0)` for zero,
/// infinities and NaN).
fn frexp(x: f64) -> (f64, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    // Subnormals: scale into the normal range first.
    let (x, adjust) = if x.abs() < f64::MIN_POSITIVE {
        (x * 2f64.powi(54), -54)
    } else {
        (x, 0)
    };
    let bits = x.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i32 - 1022;
    let m = f64::from_bits((bits & !(0x7ff << 52)) | (1022u64 << 52));
    (m, e + adjust)
}

/// Integer intrinsics.
fn integer(
    name: &str,
    args: &[Value],
    arity: impl Fn(usize) -> Result<(), FaultKind>,
) -> Result<Value, FaultKind> {
    let u32_arg = |i: usize| args[i].convert(ScalarTy::U32).as_int().unwrap_or(0) as u32;
    let i32_arg = |i: usize| args[i].convert(ScalarTy::I32).as_int().unwrap_or(0) as i32;
    let u64_arg = |i: usize| args[i].convert(ScalarTy::U64).as_int().unwrap_or(0) as u64;
    let i64_arg = |i: usize| args[i].convert(ScalarTy::I64).as_int().unwrap_or(0) as i64;
    let one = || arity(1);
    let two = || arity(2);
    Ok(match name {
        "__popc" => {
            one()?;
            Value::I32(u32_arg(0).count_ones() as i32)
        }
        "__popcll" => {
            one()?;
            Value::I32(u64_arg(0).count_ones() as i32)
        }
        "__clz" => {
            one()?;
            Value::I32(u32_arg(0).leading_zeros() as i32)
        }
        "__clzll" => {
            one()?;
            Value::I32(u64_arg(0).leading_zeros() as i32)
        }
        "__ffs" => {
            one()?;
            let x = u32_arg(0);
            Value::I32(if x == 0 {
                0
            } else {
                x.trailing_zeros() as i32 + 1
            })
        }
        "__ffsll" => {
            one()?;
            let x = u64_arg(0);
            Value::I32(if x == 0 {
                0
            } else {
                x.trailing_zeros() as i32 + 1
            })
        }
        "__brev" => {
            one()?;
            Value::U32(u32_arg(0).reverse_bits())
        }
        "__brevll" => {
            one()?;
            Value::U64(u64_arg(0).reverse_bits())
        }
        "__sad" => {
            arity(3)?;
            let d = (i64::from(i32_arg(0)) - i64::from(i32_arg(1))).unsigned_abs() as u32;
            Value::U32(d.wrapping_add(u32_arg(2)))
        }
        "__usad" => {
            arity(3)?;
            Value::U32(u32_arg(0).abs_diff(u32_arg(1)).wrapping_add(u32_arg(2)))
        }
        "__mulhi" => {
            two()?;
            Value::I32(((i64::from(i32_arg(0)) * i64::from(i32_arg(1))) >> 32) as i32)
        }
        "__umulhi" => {
            two()?;
            Value::U32(((u64::from(u32_arg(0)) * u64::from(u32_arg(1))) >> 32) as u32)
        }
        "__mul64hi" => {
            two()?;
            Value::I64(((i128::from(i64_arg(0)) * i128::from(i64_arg(1))) >> 64) as i64)
        }
        "__umul64hi" => {
            two()?;
            Value::U64(((u128::from(u64_arg(0)) * u128::from(u64_arg(1))) >> 64) as u64)
        }
        // Halving adds without intermediate overflow (`r`: rounding up).
        "__hadd" | "__rhadd" => {
            two()?;
            let s = i64::from(i32_arg(0)) + i64::from(i32_arg(1)) + i64::from(name == "__rhadd");
            Value::I32((s >> 1) as i32)
        }
        "__uhadd" | "__urhadd" => {
            two()?;
            let s = u64::from(u32_arg(0)) + u64::from(u32_arg(1)) + u64::from(name == "__urhadd");
            Value::U32((s >> 1) as u32)
        }
        // Byte `n` of the result is byte `(s >> 4n) & 7` of `y:x` (x the
        // low word), the default mode of PTX's `prmt`.
        "__byte_perm" => {
            arity(3)?;
            let pool = (u64::from(u32_arg(1)) << 32) | u64::from(u32_arg(0));
            let s = u32_arg(2);
            let byte = |n: u32| ((pool >> (8 * ((s >> (4 * n)) & 7))) & 0xff) as u32;
            Value::U32((0..4).fold(0, |acc, n| acc | (byte(n) << (8 * n))))
        }
        // `hi:lo` shifted by `shift & 31` (`c`: by `min(shift, 32)`); the
        // high word for a left shift, the low word for a right shift.
        "__funnelshift_l" | "__funnelshift_lc" | "__funnelshift_r" | "__funnelshift_rc" => {
            arity(3)?;
            let pool = (u64::from(u32_arg(1)) << 32) | u64::from(u32_arg(0));
            let shift = if name.ends_with('c') {
                u32_arg(2).min(32)
            } else {
                u32_arg(2) & 31
            };
            Value::U32(if name.starts_with("__funnelshift_l") {
                ((pool << shift) >> 32) as u32
            } else {
                (pool >> shift) as u32
            })
        }
        _ => return Err(FaultKind::UnknownFunction(name.to_string())),
    })
}

/// A floating-point function computed at the call's type: `f64` for
/// `F64`, `f32` for `F32`, `f32` then rounded to binary16 for `F16`.
fn float_op(
    name: &str,
    ty: ScalarTy,
    args: &[Value],
    f64_op: impl Fn(&[f64]) -> f64,
    f32_op: impl Fn(&[f32]) -> f32,
) -> Result<Value, FaultKind> {
    match ty {
        ScalarTy::F64 => {
            let xs: Vec<f64> = args.iter().map(|a| a.to_f64()).collect();
            Ok(Value::F64(f64_op(&xs)))
        }
        ScalarTy::F32 | ScalarTy::F16 => {
            let xs: Vec<f32> = args
                .iter()
                .map(|a| match a.convert(ScalarTy::F32) {
                    Value::F32(x) => x,
                    other => other.to_f64() as f32,
                })
                .collect();
            Ok(Value::F32(f32_op(&xs)).convert(ty))
        }
        _ => Err(FaultKind::IllTyped(format!(
            "`{name}` returns a floating-point value, not {ty}"
        ))),
    }
}

/// Functions of one argument, as `f64 -> f64` (applied to `f32` arguments
/// exactly widened, then rounded once).
fn unary_float(name: &str) -> Option<fn(f64) -> f64> {
    Some(match name {
        "sqrtf" | "sqrt" | "__fsqrt_rn" => f64::sqrt,
        "rsqrtf" | "rsqrt" => |x| 1.0 / x.sqrt(),
        "cbrtf" | "cbrt" => f64::cbrt,
        "expf" | "exp" | "__expf" => f64::exp,
        "exp2f" | "exp2" => f64::exp2,
        "exp10f" | "exp10" | "__exp10f" => |x| 10f64.powf(x),
        "expm1f" | "expm1" => f64::exp_m1,
        "logf" | "log" | "__logf" => f64::ln,
        "log2f" | "log2" | "__log2f" => f64::log2,
        "log10f" | "log10" | "__log10f" => f64::log10,
        "log1pf" | "log1p" => f64::ln_1p,
        "sinf" | "sin" | "__sinf" => f64::sin,
        "cosf" | "cos" | "__cosf" => f64::cos,
        "tanf" | "tan" | "__tanf" => f64::tan,
        "asinf" | "asin" => f64::asin,
        "acosf" | "acos" => f64::acos,
        "atanf" | "atan" => f64::atan,
        "sinhf" | "sinh" => f64::sinh,
        "coshf" | "cosh" => f64::cosh,
        "tanhf" | "tanh" => f64::tanh,
        "fabsf" | "fabs" => f64::abs,
        "floorf" | "floor" => f64::floor,
        "ceilf" | "ceil" => f64::ceil,
        // C's round: halfway cases away from zero.
        "roundf" | "round" => f64::round,
        "truncf" | "trunc" => f64::trunc,
        "rintf" | "rint" | "nearbyintf" | "nearbyint" => f64::round_ties_even,
        "erff" | "erf" => erf,
        "__frcp_rn" => |x| 1.0 / x,
        // Clamp to [0, 1]; NaN gives 0.
        // Round to TensorFloat-32 (10 explicit mantissa bits), to nearest
        // with ties away from zero (PTX `cvt.rna.tf32.f32`); the result is
        // still a `float`.
        "__float_to_tf32" => |x| {
            let f = x as f32;
            if !f.is_finite() {
                return x;
            }
            let rounded = f.to_bits().wrapping_add(0x1000) & !0x1fff;
            f64::from(f32::from_bits(rounded))
        },
        "__saturatef" => |x| {
            if x >= 1.0 {
                1.0
            } else if x > 0.0 {
                x
            } else {
                0.0
            }
        },
        _ => return None,
    })
}

/// Functions of two arguments: the `f64` version and the `f32` one (exact
/// operations are done in `f32` to avoid double rounding).
type Bin = (fn(f64, f64) -> f64, fn(f32, f32) -> f32);

fn binary_float(name: &str) -> Option<Bin> {
    Some(match name {
        "powf" | "pow" | "__powf" => (f64::powf, |x, y| f64::from(x).powf(f64::from(y)) as f32),
        "atan2f" | "atan2" => (f64::atan2, |x, y| f64::from(x).atan2(f64::from(y)) as f32),
        "hypotf" | "hypot" => (f64::hypot, |x, y| f64::from(x).hypot(f64::from(y)) as f32),
        // C's fmin/fmax: a NaN operand yields the other one.
        "fminf" | "fmin" => (f64::min, f32::min),
        "fmaxf" | "fmax" => (f64::max, f32::max),
        "fmodf" | "fmod" => (|x, y| x % y, |x, y| x % y),
        "copysignf" | "copysign" => (f64::copysign, f32::copysign),
        "fdimf" | "fdim" => (
            |x, y| {
                if x > y {
                    x - y
                } else if x.is_nan() || y.is_nan() {
                    f64::NAN
                } else {
                    0.0
                }
            },
            |x, y| {
                if x > y {
                    x - y
                } else if x.is_nan() || y.is_nan() {
                    f32::NAN
                } else {
                    0.0
                }
            },
        ),
        "__fdividef" | "__fdiv_rn" | "fdividef" | "__ddiv_rn" => (|x, y| x / y, |x, y| x / y),
        "__fmul_rn" | "__dmul_rn" => (|x, y| x * y, |x, y| x * y),
        "__fadd_rn" | "__dadd_rn" => (|x, y| x + y, |x, y| x + y),
        "__fsub_rn" | "__dsub_rn" => (|x, y| x - y, |x, y| x - y),
        _ => return None,
    })
}

/// The error function, to about 1e-15 relative error: its Maclaurin series
/// below 2.5, the continued fraction of `erfc` above.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let a = x.abs();
    let r = if a < 2.5 {
        // erf(a) = 2/sqrt(pi) * sum (-1)^n a^(2n+1) / (n! (2n+1))
        let a2 = a * a;
        let mut term = a; // (-1)^n a^(2n+1) / n!
        let mut sum = a;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= -a2 / n;
            sum += term / (2.0 * n + 1.0);
        }
        sum * std::f64::consts::FRAC_2_SQRT_PI
    } else if a < 6.0 {
        // erfc(a) = exp(-a^2)/sqrt(pi) * 1/(a + (1/2)/(a + 1/(a + (3/2)/(a + ...))))
        let mut frac = a;
        for k in (1..=60).rev() {
            frac = a + f64::from(k) * 0.5 / frac;
        }
        1.0 - (-a * a).exp() / (frac * std::f64::consts::PI.sqrt())
    } else {
        1.0
    };
    r.copysign(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(name: &str, ty: ScalarTy, args: &[Value]) -> Value {
        call(name, ty, args, EvalOptions::default()).expect("known function")
    }

    #[test]
    fn erf_matches_known_values() {
        let cases = [
            (0.0, 0.0),
            (0.5, 0.520_499_877_813_046_5),
            (1.0, 0.842_700_792_949_714_9),
            (2.0, 0.995_322_265_018_952_7),
            (2.5, 0.999_593_047_982_555),
            (3.0, 0.999_977_909_503_001_4),
            (-1.0, -0.842_700_792_949_714_9),
        ];
        for (x, want) in cases {
            assert!((erf(x) - want).abs() < 1e-14, "erf({x}) = {}", erf(x));
        }
    }

    #[test]
    fn intrinsics() {
        let i = ScalarTy::I32;
        assert_eq!(f("__popc", i, &[Value::U32(0xf0f0)]), Value::I32(8));
        assert_eq!(f("__clz", i, &[Value::I32(1)]), Value::I32(31));
        assert_eq!(f("__clz", i, &[Value::I32(0)]), Value::I32(32));
        assert_eq!(f("__ffs", i, &[Value::I32(0b1000)]), Value::I32(4));
        assert_eq!(f("__ffs", i, &[Value::I32(0)]), Value::I32(0));
        assert_eq!(
            f("__brev", ScalarTy::U32, &[Value::U32(1)]),
            Value::U32(0x8000_0000)
        );
        assert_eq!(
            f("__mulhi", i, &[Value::I32(-1), Value::I32(1)]),
            Value::I32(-1)
        );
        assert_eq!(
            f(
                "__umulhi",
                ScalarTy::U32,
                &[Value::U32(u32::MAX), Value::U32(2)]
            ),
            Value::U32(1)
        );
        assert_eq!(
            f(
                "__sad",
                ScalarTy::U32,
                &[Value::I32(-3), Value::I32(4), Value::U32(1)]
            ),
            Value::U32(8)
        );
        assert_eq!(f("__float2int_rn", i, &[Value::F32(2.5)]), Value::I32(2));
        assert_eq!(f("__float2int_rz", i, &[Value::F32(-2.7)]), Value::I32(-2));
        assert_eq!(
            f("__float2int_rn", i, &[Value::F32(3e9)]),
            Value::I32(i32::MAX)
        );
        assert_eq!(
            f("__float_as_int", i, &[Value::F32(1.0)]),
            Value::I32(0x3f80_0000)
        );
        assert_eq!(
            f("__int_as_float", ScalarTy::F32, &[Value::I32(0x3f80_0000)]),
            Value::F32(1.0)
        );
        assert_eq!(
            f("__half_as_ushort", ScalarTy::U16, &[Value::F16(1.0)]),
            Value::U16(0x3c00)
        );
        assert_eq!(
            f("__ushort_as_half", ScalarTy::F16, &[Value::U16(0xc000)]),
            Value::F16(-2.0)
        );
    }

    #[test]
    fn float_functions_convert_their_arguments() {
        let f32t = ScalarTy::F32;
        assert_eq!(f("sqrtf", f32t, &[Value::I32(16)]), Value::F32(4.0));
        assert_eq!(
            f("sqrt", ScalarTy::F64, &[Value::I32(2)]),
            Value::F64(2f64.sqrt())
        );
        assert_eq!(
            f("fminf", f32t, &[Value::F32(f32::NAN), Value::I32(1)]),
            Value::F32(1.0)
        );
        assert_eq!(
            f("fmaxf", f32t, &[Value::F32(-1.0), Value::F32(2.0)]),
            Value::F32(2.0)
        );
        assert_eq!(f("fabsf", f32t, &[Value::F32(-0.5)]), Value::F32(0.5));
        assert_eq!(f("floorf", f32t, &[Value::F32(-0.5)]), Value::F32(-1.0));
        assert_eq!(f("roundf", f32t, &[Value::F32(2.5)]), Value::F32(3.0));
        assert_eq!(
            f("powf", f32t, &[Value::F32(2.0), Value::F32(10.0)]),
            Value::F32(1024.0)
        );
        assert_eq!(
            f("__fdividef", f32t, &[Value::F32(1.0), Value::F32(4.0)]),
            Value::F32(0.25)
        );
        assert_eq!(
            f("__saturatef", f32t, &[Value::F32(f32::NAN)]),
            Value::F32(0.0)
        );
        // TF32 keeps 10 mantissa bits: 1 + 2^-11 is a tie, rounded away
        // from zero to 1 + 2^-10; 1 + 2^-12 rounds down to 1.
        let tf32 = |x: f32| f("__float_to_tf32", f32t, &[Value::F32(x)]);
        assert_eq!(tf32(1.0 + 2f32.powi(-11)), Value::F32(1.0 + 2f32.powi(-10)));
        assert_eq!(
            tf32(-(1.0 + 2f32.powi(-11))),
            Value::F32(-(1.0 + 2f32.powi(-10)))
        );
        assert_eq!(tf32(1.0 + 2f32.powi(-12)), Value::F32(1.0));
        assert_eq!(tf32(0.75), Value::F32(0.75));
        assert_eq!(
            f("isnan", ScalarTy::Bool, &[Value::F64(f64::NAN)]),
            Value::Bool(true)
        );
        assert_eq!(
            f("isinf", ScalarTy::Bool, &[Value::F32(1.0)]),
            Value::Bool(false)
        );
        assert_eq!(
            f(
                "fmaf",
                f32t,
                &[Value::F32(2.0), Value::F32(3.0), Value::F32(1.0)]
            ),
            Value::F32(7.0)
        );
        assert_eq!(f("expf", f32t, &[Value::F32(0.0)]), Value::F32(1.0));
        assert_eq!(
            f("__float2half", ScalarTy::F16, &[Value::F32(1.0 + 1e-4)]),
            Value::F16(1.0)
        );
        assert!(matches!(
            call("nosuch", f32t, &[], EvalOptions::default()),
            Err(FaultKind::UnknownFunction(_))
        ));
        assert!(matches!(
            call("sqrtf", f32t, &[], EvalOptions::default()),
            Err(FaultKind::BadArguments { .. })
        ));
    }
}

#[cfg(test)]
mod frexp_tests {
    use super::frexp;

    #[test]
    fn frexp_splits_mantissa_and_exponent() {
        assert_eq!(frexp(8.0), (0.5, 4));
        assert_eq!(frexp(-3.0), (-0.75, 2));
        assert_eq!(frexp(0.0), (0.0, 0));
        assert_eq!(frexp(1.0), (0.5, 1));
        let tiny = f64::MIN_POSITIVE / 4.0;
        let (m, e) = frexp(tiny);
        assert_eq!(m * 2f64.powi(e), tiny);
        assert!((0.5..1.0).contains(&m));
    }
}
