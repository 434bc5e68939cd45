//! Scalar types of IR values and memory slots.

use serde::Serialize;
use std::fmt;

/// The type of a value. Aggregates (vectors, structs, arrays) do not exist in
/// the IR: the front end flattens them into scalar variables and slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ScalarTy {
    Bool,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F16,
    /// bfloat16 (`__nv_bfloat16`): `f32`'s exponent, 7 fraction bits.
    Bf16,
    F32,
    F64,
}

impl ScalarTy {
    pub fn is_float(self) -> bool {
        matches!(
            self,
            ScalarTy::F16 | ScalarTy::Bf16 | ScalarTy::F32 | ScalarTy::F64
        )
    }

    pub fn is_integer(self) -> bool {
        !self.is_float() && self != ScalarTy::Bool
    }

    pub fn is_signed(self) -> bool {
        matches!(
            self,
            ScalarTy::I8 | ScalarTy::I16 | ScalarTy::I32 | ScalarTy::I64
        ) || self.is_float()
    }

    /// Width in bits (1 for `Bool`).
    pub fn bits(self) -> u32 {
        match self {
            ScalarTy::Bool => 1,
            ScalarTy::I8 | ScalarTy::U8 => 8,
            ScalarTy::I16 | ScalarTy::U16 | ScalarTy::F16 | ScalarTy::Bf16 => 16,
            ScalarTy::I32 | ScalarTy::U32 | ScalarTy::F32 => 32,
            ScalarTy::I64 | ScalarTy::U64 | ScalarTy::F64 => 64,
        }
    }

    /// `v` converted to this integer type as C does: modulo 2^N, in two's
    /// complement for signed types; `Bool` is `v != 0`.
    pub fn wrap(self, v: i128) -> i128 {
        if self == ScalarTy::Bool {
            return i128::from(v != 0);
        }
        let bits = self.bits();
        if bits >= 128 {
            return v;
        }
        let m = 1i128 << bits;
        let u = v.rem_euclid(m);
        if self.is_signed() && u >= m / 2 {
            u - m
        } else {
            u
        }
    }

    /// Size in bytes as CUDA lays it out (`Bool` is one byte).
    pub fn size_bytes(self) -> u64 {
        (u64::from(self.bits()) / 8).max(1)
    }

    pub fn name(self) -> &'static str {
        match self {
            ScalarTy::Bool => "bool",
            ScalarTy::I8 => "i8",
            ScalarTy::U8 => "u8",
            ScalarTy::I16 => "i16",
            ScalarTy::U16 => "u16",
            ScalarTy::I32 => "i32",
            ScalarTy::U32 => "u32",
            ScalarTy::I64 => "i64",
            ScalarTy::U64 => "u64",
            ScalarTy::F16 => "f16",
            ScalarTy::Bf16 => "bf16",
            ScalarTy::F32 => "f32",
            ScalarTy::F64 => "f64",
        }
    }
}

impl fmt::Display for ScalarTy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
