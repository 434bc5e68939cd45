//! Numbers as the user writes them in `--param`, `--array` and the JSON
//! input file, and their conversion to a value of a kernel's type.
//!
//! Invariant: a conversion never changes a value silently: a float for an
//! integer type and an integer outside its type's range are errors (with
//! `wrap`, an integer in the other signedness's range is converted as C
//! converts it, so `-1` is an `unsigned`'s largest value).

use std::fmt;
use warpsafe_interp::value::int_range;
use warpsafe_interp::Value;
use warpsafe_ir::ScalarTy;

/// A number as the user wrote it, before it meets a type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    Int(i128),
    Float(f64),
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Number::Int(v) => write!(f, "{v}"),
            Number::Float(v) => write!(f, "{v:?}"),
        }
    }
}

impl Number {
    /// `42`, `-3`, `0x1f`, `1.5`, `-2e3`.
    pub fn parse(text: &str) -> Result<Number, String> {
        let t = text.trim();
        let (neg, digits) = match t.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, t),
        };
        let int = match digits
            .strip_prefix("0x")
            .or_else(|| digits.strip_prefix("0X"))
        {
            Some(h) => i128::from_str_radix(h, 16).ok(),
            None => digits
                .bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| digits.parse::<i128>().ok())
                .flatten(),
        };
        if let Some(v) = int {
            return Ok(Number::Int(if neg { -v } else { v }));
        }
        match t.parse::<f64>() {
            Ok(v) if v.is_finite() && digits.as_bytes().first().is_some_and(u8::is_ascii_digit) => {
                Ok(Number::Float(v))
            }
            _ => Err(format!("`{t}` is not a number")),
        }
    }

    /// A JSON number (integers beyond 64 bits arrive as floats).
    pub fn from_json(n: &serde_json::Number) -> Number {
        if let Some(v) = n.as_i64() {
            Number::Int(v.into())
        } else if let Some(v) = n.as_u64() {
            Number::Int(v.into())
        } else {
            Number::Float(n.as_f64().unwrap_or(f64::NAN))
        }
    }

    /// This number as a value of `ty`, or why it is not one. Integers must
    /// lie in the type's range; with `wrap`, also in the range of the other
    /// signedness (`-1` for an `unsigned`, as C converts it).
    pub fn to_value(self, ty: ScalarTy, wrap: bool) -> Result<Value, String> {
        match self {
            Number::Float(v) if ty.is_float() => Ok(Value::from_f64(ty, v)),
            Number::Float(v) => Err(format!("{v:?} is not an integer (the type is {ty})")),
            Number::Int(v) if ty.is_float() => Ok(Value::from_int(ty, v)),
            Number::Int(v) => {
                let (lo, hi) = int_range(ty);
                let in_other = wrap
                    && ty != ScalarTy::Bool
                    && if ty.is_signed() {
                        v >= 0 && v <= 2 * hi + 1
                    } else {
                        v < 0 && v >= -(hi / 2) - 1
                    };
                if (lo..=hi).contains(&v) || in_other {
                    Ok(Value::from_int(ty, v))
                } else {
                    Err(format!("{v} does not fit in {ty} ({lo} to {hi})"))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_parse_as_c_literals() {
        assert_eq!(Number::parse("42"), Ok(Number::Int(42)));
        assert_eq!(Number::parse(" -0x10 "), Ok(Number::Int(-16)));
        assert_eq!(Number::parse("1.5"), Ok(Number::Float(1.5)));
        assert_eq!(Number::parse("-2e3"), Ok(Number::Float(-2000.0)));
        assert!(Number::parse("abc").is_err());
        assert!(Number::parse("inf").is_err());
        assert!(Number::parse("").is_err());
    }

    #[test]
    fn integers_must_fit_their_type() {
        assert_eq!(
            Number::Int(255).to_value(ScalarTy::U8, false),
            Ok(Value::U8(255))
        );
        assert!(Number::Int(256).to_value(ScalarTy::U8, false).is_err());
        assert!(Number::Int(-1).to_value(ScalarTy::U32, false).is_err());
        assert_eq!(
            Number::Int(-1).to_value(ScalarTy::U32, true),
            Ok(Value::U32(u32::MAX))
        );
        assert_eq!(
            Number::Int(0xffff_ffff).to_value(ScalarTy::I32, true),
            Ok(Value::I32(-1))
        );
        assert!(Number::Int(1 << 32).to_value(ScalarTy::I32, true).is_err());
        assert!(Number::Float(0.5).to_value(ScalarTy::I32, true).is_err());
        assert_eq!(
            Number::Int(3).to_value(ScalarTy::F32, false),
            Ok(Value::F32(3.0))
        );
    }
}
