//! Concrete scalar values and C's conversions between scalar types.
//!
//! A [`Value`] is one IR scalar tagged with its [`ScalarTy`]; the variant *is*
//! the tag, so a value can never disagree with its type. Conversions follow
//! C/CUDA (seed 000 §3 treats every read or written value as such a scalar):
//!
//! - integer → integer: two's-complement wrap-around to the target width
//!   (sign- or zero-extension by the *source* signedness, truncation when
//!   narrowing). Narrowing to a signed type is implementation-defined in C;
//!   nvcc wraps, and so do we.
//! - `bool` → number: `0`/`1`; number → `bool`: `!= 0` (NaN is true).
//! - integer → float: round to nearest, ties to even (as PTX `cvt.rn`).
//! - float → integer: truncation toward zero. Out-of-range values and NaN are
//!   undefined behaviour in C; [`Value::convert`] saturates (NaN → 0), which
//!   is what PTX `cvt.rzi` does on hardware, and [`Value::convert_checked`]
//!   reports them instead.
//! - float → float: round to nearest, ties to even.
//!
//! `f16` is exact IEEE binary16: an `F16` payload is an `f32` that is always
//! representable in binary16 (every constructor rounds). Arithmetic on `f16`
//! is done wider and rounded once, which is correctly rounded for `+ - * /`.
//!
//! Equality and hashing of values are *identity of representation* (same
//! type, same bits: `NaN == NaN`, `0.0 != -0.0`), so explorers can hash
//! states; C's `==` lives in [`mod@crate::eval`].

use crate::fault::FaultKind;
use std::fmt;
use std::hash::{Hash, Hasher};
use warpsafe_ir::{Const, ScalarTy};

/// A concrete scalar of one of the IR's types.
#[derive(Clone, Copy, Debug)]
pub enum Value {
    Bool(bool),
    I8(i8),
    U8(u8),
    I16(i16),
    U16(u16),
    I32(i32),
    U32(u32),
    I64(i64),
    U64(u64),
    /// A binary16 number, held as the `f32` of the same value. Build it with
    /// [`Value::from_f64`] (or a conversion), which rounds to binary16; a
    /// payload that is not a binary16 number is rounded when compared,
    /// hashed or stored (`to_bits`).
    F16(f32),
    /// A bfloat16 number, held as the `f32` of the same value (its low 16
    /// bits are zero); built like `F16`, rounding to bfloat16.
    Bf16(f32),
    F32(f32),
    F64(f64),
}

impl Value {
    /// The type this value has.
    pub fn ty(self) -> ScalarTy {
        match self {
            Value::Bool(_) => ScalarTy::Bool,
            Value::I8(_) => ScalarTy::I8,
            Value::U8(_) => ScalarTy::U8,
            Value::I16(_) => ScalarTy::I16,
            Value::U16(_) => ScalarTy::U16,
            Value::I32(_) => ScalarTy::I32,
            Value::U32(_) => ScalarTy::U32,
            Value::I64(_) => ScalarTy::I64,
            Value::U64(_) => ScalarTy::U64,
            Value::F16(_) => ScalarTy::F16,
            Value::Bf16(_) => ScalarTy::Bf16,
            Value::F32(_) => ScalarTy::F32,
            Value::F64(_) => ScalarTy::F64,
        }
    }

    /// Zero (or `false`) of `ty`: the value of zero-initialised memory.
    pub fn zero(ty: ScalarTy) -> Value {
        Value::from_bits(ty, 0)
    }

    /// The integer `v` converted to `ty` as C converts integers: wrapped
    /// modulo 2^width for integer types, `v != 0` for `bool`, rounded to
    /// nearest for floating-point types.
    pub fn from_int(ty: ScalarTy, v: i128) -> Value {
        match ty {
            ScalarTy::Bool => Value::Bool(v != 0),
            ScalarTy::I8 => Value::I8(v as i8),
            ScalarTy::U8 => Value::U8(v as u8),
            ScalarTy::I16 => Value::I16(v as i16),
            ScalarTy::U16 => Value::U16(v as u16),
            ScalarTy::I32 => Value::I32(v as i32),
            ScalarTy::U32 => Value::U32(v as u32),
            ScalarTy::I64 => Value::I64(v as i64),
            ScalarTy::U64 => Value::U64(v as u64),
            // `i128 as f32` rounds once (no detour through f64).
            ScalarTy::F16 => Value::F16(round_f16(v as f64)),
            ScalarTy::Bf16 => Value::Bf16(round_bf16(v as f64)),
            ScalarTy::F32 => Value::F32(v as f32),
            ScalarTy::F64 => Value::F64(v as f64),
        }
    }

    /// The real number `v` rounded to the floating-point type `ty`; for
    /// other types, the saturating C conversion of [`Value::convert`].
    pub fn from_f64(ty: ScalarTy, v: f64) -> Value {
        match ty {
            ScalarTy::F16 => Value::F16(round_f16(v)),
            ScalarTy::Bf16 => Value::Bf16(round_bf16(v)),
            ScalarTy::F32 => Value::F32(v as f32),
            ScalarTy::F64 => Value::F64(v),
            _ => Value::F64(v).convert(ty),
        }
    }

    /// A constant of the IR as a value of `ty` (the constant's own kind may
    /// differ from `ty`; it is then converted as C would).
    pub fn from_const(c: Const, ty: ScalarTy) -> Value {
        match c {
            Const::Bool(b) => Value::from_int(ty, i128::from(b)),
            Const::Int(v) => Value::from_int(ty, v),
            Const::Float(f) => Value::from_f64(ty, f),
        }
    }

    /// The value of an integer or `bool` (`false` is 0, `true` is 1), or
    /// `None` for floating-point values.
    pub fn as_int(self) -> Option<i128> {
        Some(match self {
            Value::Bool(b) => i128::from(b),
            Value::I8(v) => v.into(),
            Value::U8(v) => v.into(),
            Value::I16(v) => v.into(),
            Value::U16(v) => v.into(),
            Value::I32(v) => v.into(),
            Value::U32(v) => v.into(),
            Value::I64(v) => v.into(),
            Value::U64(v) => v.into(),
            Value::F16(_) | Value::Bf16(_) | Value::F32(_) | Value::F64(_) => return None,
        })
    }

    /// The value of a floating-point number (exactly), or `None`.
    pub fn as_f64(self) -> Option<f64> {
        match self {
            Value::F16(v) | Value::Bf16(v) | Value::F32(v) => Some(f64::from(v)),
            Value::F64(v) => Some(v),
            _ => None,
        }
    }

    /// The number this value denotes, as `f64` (integers rounded).
    pub fn to_f64(self) -> f64 {
        match self.as_f64() {
            Some(f) => f,
            None => self.as_int().unwrap_or(0) as f64,
        }
    }

    /// C truthiness: nonzero (NaN is true).
    pub fn is_true(self) -> bool {
        match self {
            Value::Bool(b) => b,
            Value::F16(v) | Value::Bf16(v) | Value::F32(v) => v != 0.0,
            Value::F64(v) => v != 0.0,
            _ => self.as_int().unwrap_or(0) != 0,
        }
    }

    /// The value's representation in memory, zero-extended to 64 bits
    /// (binary16 bits for `F16`, `0`/`1` for `bool`).
    pub fn to_bits(self) -> u64 {
        match self {
            Value::Bool(b) => u64::from(b),
            Value::I8(v) => u64::from(v as u8),
            Value::U8(v) => u64::from(v),
            Value::I16(v) => u64::from(v as u16),
            Value::U16(v) => u64::from(v),
            Value::I32(v) => u64::from(v as u32),
            Value::U32(v) => u64::from(v),
            Value::I64(v) => v as u64,
            Value::U64(v) => v,
            Value::F16(v) => u64::from(f16_bits(f64::from(v))),
            Value::Bf16(v) => u64::from(bf16_bits(f64::from(v))),
            Value::F32(v) => u64::from(v.to_bits()),
            Value::F64(v) => v.to_bits(),
        }
    }

    /// The value of `ty` whose representation is the low bits of `bits`
    /// (type punning; a `bool` is true when its byte is nonzero).
    pub fn from_bits(ty: ScalarTy, bits: u64) -> Value {
        match ty {
            ScalarTy::Bool => Value::Bool(bits & 0xff != 0),
            ScalarTy::I8 => Value::I8(bits as u8 as i8),
            ScalarTy::U8 => Value::U8(bits as u8),
            ScalarTy::I16 => Value::I16(bits as u16 as i16),
            ScalarTy::U16 => Value::U16(bits as u16),
            ScalarTy::I32 => Value::I32(bits as u32 as i32),
            ScalarTy::U32 => Value::U32(bits as u32),
            ScalarTy::I64 => Value::I64(bits as i64),
            ScalarTy::U64 => Value::U64(bits),
            ScalarTy::F16 => Value::F16(f16_from_bits(bits as u16) as f32),
            ScalarTy::Bf16 => Value::Bf16(bf16_from_bits(bits as u16)),
            ScalarTy::F32 => Value::F32(f32::from_bits(bits as u32)),
            ScalarTy::F64 => Value::F64(f64::from_bits(bits)),
        }
    }

    /// C's conversion to `ty`, saturating out-of-range float → integer
    /// conversions (NaN → 0) as PTX `cvt.rzi` does.
    pub fn convert(self, ty: ScalarTy) -> Value {
        if self.ty() == ty {
            return self;
        }
        // The common integer-to-float conversions directly (the same
        // correctly rounded results; `i128`'s are slow software routines).
        match (self, ty) {
            (Value::I32(x), ScalarTy::F32) => return Value::F32(x as f32),
            (Value::I32(x), ScalarTy::F64) => return Value::F64(f64::from(x)),
            (Value::U32(x), ScalarTy::F32) => return Value::F32(x as f32),
            (Value::U32(x), ScalarTy::F64) => return Value::F64(f64::from(x)),
            (Value::I64(x), ScalarTy::F32) => return Value::F32(x as f32),
            (Value::I64(x), ScalarTy::F64) => return Value::F64(x as f64),
            (Value::U64(x), ScalarTy::F32) => return Value::F32(x as f32),
            (Value::U64(x), ScalarTy::F64) => return Value::F64(x as f64),
            _ => {}
        }
        match (self.as_f64(), ty) {
            (None, _) => Value::from_int(ty, self.as_int().unwrap_or(0)),
            (Some(f), ScalarTy::Bool) => Value::Bool(f != 0.0),
            (Some(f), ScalarTy::F16 | ScalarTy::Bf16 | ScalarTy::F32 | ScalarTy::F64) => {
                Value::from_f64(ty, f)
            }
            // `as` truncates toward zero and saturates, NaN → 0.
            (Some(f), _) => match ty {
                ScalarTy::I8 => Value::I8(f as i8),
                ScalarTy::U8 => Value::U8(f as u8),
                ScalarTy::I16 => Value::I16(f as i16),
                ScalarTy::U16 => Value::U16(f as u16),
                ScalarTy::I32 => Value::I32(f as i32),
                ScalarTy::U32 => Value::U32(f as u32),
                ScalarTy::I64 => Value::I64(f as i64),
                _ => Value::U64(f as u64),
            },
        }
    }

    /// Like [`Value::convert`], but a float → integer conversion whose
    /// truncated value does not fit (or of NaN) is
    /// [`FaultKind::FloatToIntOutOfRange`] (undefined behaviour in C).
    pub fn convert_checked(self, ty: ScalarTy) -> Result<Value, FaultKind> {
        if let (Some(f), true) = (self.as_f64(), ty.is_integer()) {
            let (lo, hi) = int_range(ty);
            let t = f.trunc();
            // `hi + 1` and `lo` are powers of two, exact in f64.
            if f.is_nan() || t < lo as f64 || t >= (hi + 1) as f64 {
                return Err(FaultKind::FloatToIntOutOfRange { value: f, ty });
            }
        }
        Ok(self.convert(ty))
    }
}

/// The smallest and largest value of an integer type (`bool`: 0 and 1).
pub fn int_range(ty: ScalarTy) -> (i128, i128) {
    let bits = ty.bits();
    if ty == ScalarTy::Bool {
        (0, 1)
    } else if ty.is_signed() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

/// `v` rounded to the nearest binary16 number (ties to even), as `f32`.
pub fn round_f16(v: f64) -> f32 {
    f16_from_bits(f16_bits(v)) as f32
}

/// The binary16 encoding of `v`, rounded to nearest, ties to even.
pub fn f16_bits(v: f64) -> u16 {
    let sign: u16 = if v.is_sign_negative() { 0x8000 } else { 0 };
    if v.is_nan() {
        return sign | 0x7e00;
    }
    let a = v.abs();
    // 65504 is the largest finite half; halfway to 2^16 rounds to infinity.
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    const MIN_NORMAL: f64 = 6.103_515_625e-5; // 2^-14
    if a < MIN_NORMAL {
        // Subnormal: multiples of 2^-24; 1024 of them make the smallest
        // normal number, whose encoding is exactly 0x0400.
        let units = (a * 16_777_216.0).round_ties_even();
        return sign | units as u16;
    }
    let exp = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023; // -14..=15
    let quantum = 2f64.powi(exp - 10);
    let mut m = (a / quantum).round_ties_even() as u32; // 1024..=2048
    let mut e = exp;
    if m == 2048 {
        m = 1024;
        e += 1;
    }
    if e > 15 {
        return sign | 0x7c00;
    }
    sign | (((e + 15) as u16) << 10) | (m - 1024) as u16
}

/// `v` rounded to bfloat16 (to nearest, ties to even), as an `f32`.
pub fn round_bf16(v: f64) -> f32 {
    bf16_from_bits(bf16_bits(v))
}

/// The bfloat16 encoding of `v` (the high half of an `f32`'s), rounded to
/// nearest, ties to even, from `v` itself (no double rounding through
/// `f32`).
pub fn bf16_bits(v: f64) -> u16 {
    let sign: u16 = if v.is_sign_negative() { 0x8000 } else { 0 };
    if v.is_nan() {
        return sign | 0x7fc0;
    }
    let a = v.abs();
    // The largest finite bfloat16 is (2 - 2^-7) * 2^127; from halfway to
    // 2^128 on (a tie, whose even neighbour is 2^128) it rounds to infinity.
    if a >= (2.0 - 2f64.powi(-8)) * 2f64.powi(127) {
        return sign | 0x7f80;
    }
    const MIN_NORMAL: f64 = 1.175_494_350_822_287_5e-38; // 2^-126
    if a < MIN_NORMAL {
        // Subnormal: multiples of 2^-133; 128 of them are the smallest
        // normal number, encoded 0x0080.
        let units = (a * 2f64.powi(133)).round_ties_even();
        return sign | units as u16;
    }
    let exp = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023; // -126..=127
    let quantum = 2f64.powi(exp - 7);
    let mut m = (a / quantum).round_ties_even() as u32; // 128..=256
    let mut e = exp;
    if m == 256 {
        m = 128;
        e += 1;
    }
    sign | (((e + 127) as u16) << 7) | (m - 128) as u16
}

/// The number a bfloat16 encoding denotes.
pub fn bf16_from_bits(bits: u16) -> f32 {
    f32::from_bits(u32::from(bits) << 16)
}

/// The number a binary16 encoding denotes.
pub fn f16_from_bits(bits: u16) -> f64 {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((bits >> 10) & 0x1f);
    let man = f64::from(bits & 0x3ff);
    match exp {
        0 => sign * man * 2f64.powi(-24),
        31 if man == 0.0 => sign * f64::INFINITY,
        31 => f64::NAN,
        _ => sign * (man + 1024.0) * 2f64.powi(exp - 25),
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        self.ty() == other.ty() && self.to_bits() == other.to_bits()
    }
}

impl Eq for Value {}

impl Hash for Value {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.ty().hash(state);
        self.to_bits().hash(state);
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::F16(v) | Value::Bf16(v) | Value::F32(v) => write!(f, "{v:?}{}", self.ty()),
            Value::F64(v) => write!(f, "{v:?}{}", self.ty()),
            v => write!(f, "{}{}", v.as_int().unwrap_or(0), v.ty()),
        }
    }
}

#[cfg(test)]
mod tests {
    /// bfloat16 rounds to nearest, ties to even, from the exact value:
    /// ties at 1.0 go to the even neighbour, overflow past the largest
    /// finite value (0x7f7f) becomes infinity, subnormals count 2^-133, and
    /// a value just above a tie rounds up although rounding it to `f32`
    /// first would make it the tie (no double rounding).
    #[test]
    fn bfloat16_rounds_to_nearest_even_once() {
        use super::bf16_bits;
        let p = |e: i32| 2f64.powi(e);
        assert_eq!(bf16_bits(1.0), 0x3f80);
        assert_eq!(bf16_bits(1.0 + p(-8)), 0x3f80);
        assert_eq!(bf16_bits(1.0 + 3.0 * p(-8)), 0x3f82);
        assert_eq!(bf16_bits(-1.0 - p(-8) - p(-30)), 0xbf81);
        assert_eq!(bf16_bits((2.0 - p(-7)) * p(127)), 0x7f7f);
        assert_eq!(bf16_bits(f64::from(f32::MAX)), 0x7f80);
        assert_eq!(bf16_bits(p(-133)), 0x0001);
        assert_eq!(bf16_bits(p(-134)), 0x0000);
        assert_eq!(bf16_bits(p(-126)), 0x0080);
        assert_eq!(bf16_bits(f64::NAN) & 0x7fc0, 0x7fc0);
    }

    use super::*;

    #[test]
    fn f16_round_trips_and_rounds_to_even() {
        for bits in 0..=u16::MAX {
            let v = f16_from_bits(bits);
            if v.is_nan() {
                continue;
            }
            assert_eq!(f16_bits(v), bits, "{bits:#x}");
        }
        // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even (1).
        assert_eq!(round_f16(1.0 + 2f64.powi(-11)), 1.0);
        assert_eq!(round_f16(65519.0), 65504.0);
        assert!(round_f16(65520.0).is_infinite());
        assert_eq!(round_f16(2f64.powi(-25)), 0.0);
        assert_eq!(round_f16(2f64.powi(-25) * 1.5), 2f32.powi(-24));
    }

    #[test]
    fn conversions_follow_c() {
        assert_eq!(Value::I32(-1).convert(ScalarTy::U8), Value::U8(255));
        assert_eq!(Value::U8(200).convert(ScalarTy::I8), Value::I8(-56));
        assert_eq!(Value::I8(-1).convert(ScalarTy::U32), Value::U32(u32::MAX));
        assert_eq!(
            Value::U32(u32::MAX).convert(ScalarTy::I64),
            Value::I64(4294967295)
        );
        assert_eq!(Value::F32(-2.7).convert(ScalarTy::I32), Value::I32(-2));
        assert_eq!(
            Value::F32(1e10).convert(ScalarTy::I32),
            Value::I32(i32::MAX)
        );
        assert_eq!(Value::F32(f32::NAN).convert(ScalarTy::I32), Value::I32(0));
        assert!(Value::F32(1e10).convert_checked(ScalarTy::I32).is_err());
        assert!(Value::F64(4294967295.9)
            .convert_checked(ScalarTy::U32)
            .is_ok());
        assert!(Value::F64(4294967296.0)
            .convert_checked(ScalarTy::U32)
            .is_err());
        assert!(Value::F64(-1.0).convert_checked(ScalarTy::U32).is_err());
        assert!(Value::F64(-0.9).convert_checked(ScalarTy::U32).is_ok());
        assert_eq!(Value::F32(0.5).convert(ScalarTy::Bool), Value::Bool(true));
        assert_eq!(
            Value::F64(f64::NAN).convert(ScalarTy::Bool),
            Value::Bool(true)
        );
        assert_eq!(
            Value::I32(16_777_217).convert(ScalarTy::F32),
            Value::F32(16_777_216.0)
        );
        assert_eq!(Value::F32(1.0).to_bits(), 0x3f80_0000);
        assert_eq!(Value::F16(1.0).to_bits(), 0x3c00);
        assert_eq!(Value::from_bits(ScalarTy::Bf16, 0x3f80), Value::Bf16(1.0));
        assert_eq!(Value::Bf16(-2.0).to_bits(), 0xc000);
        assert_eq!(Value::from_bits(ScalarTy::F16, 0x3c00), Value::F16(1.0));
    }

    proptest::proptest! {
        /// The direct integer-to-float conversions round as the general
        /// one through `i128` does.
        #[test]
        fn direct_int_to_float_conversions_round_as_the_general_one(x in proptest::num::i64::ANY) {
            for v in [
                Value::I32(x as i32),
                Value::U32(x as u32),
                Value::I64(x),
                Value::U64(x as u64),
            ] {
                let wide = v.as_int().expect("an integer");
                for ty in [ScalarTy::F32, ScalarTy::F64] {
                    proptest::prop_assert_eq!(v.convert(ty), Value::from_int(ty, wide));
                }
            }
        }
    }
}
