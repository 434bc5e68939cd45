//! [`FlagError`]: why [`parse_flags`](crate::parse_flags) rejected a
//! command line.
//!
//! Every variant names the flag as it was written (e.g. `--blockDim` or
//! `-D`), so that messages point at what the user typed. Unknown flags are
//! never errors; only recognised flags with a missing, superfluous or
//! malformed value are, and launch sizes whose thread count overflows.

use thiserror::Error;

use crate::DimError;

/// A recognised flag whose value is missing or malformed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FlagError {
    /// The flag needs a value but none follows it.
    #[error("`{flag}` expects a value")]
    MissingValue {
        /// The flag as written.
        flag: String,
    },
    /// A switch was given a value, as in `--no-inline=1`.
    #[error("`{flag}` takes no value, but was given `{value}`")]
    UnexpectedValue {
        /// The flag as written, without the value.
        flag: String,
        /// The value given to it.
        value: String,
    },
    /// The value does not have the form the flag needs.
    #[error("invalid value `{value}` for `{flag}`: {reason}")]
    InvalidValue {
        /// The flag as written.
        flag: String,
        /// The value given to it.
        value: String,
        /// What is wrong with the value.
        reason: String,
    },
    /// A launch-size flag (`--blockDim`, `--gridDim`, ...) with bad dimensions.
    #[error("invalid dimensions `{value}` for `{flag}`: {reason}")]
    Dims {
        /// The flag as written.
        flag: String,
        /// The value given to it.
        value: String,
        /// What is wrong with the dimensions.
        reason: DimError,
    },
    /// Two flags that cannot be used together, such as `--gridDim` and
    /// `--global_size`, or `--global_size` without a block size.
    #[error("`{flag}` cannot be used with {other}")]
    Conflict {
        /// The later flag.
        flag: String,
        /// What it conflicts with (a flag, or a description).
        other: String,
    },
    /// The block size times the grid size overflows 64 bits.
    #[error("{block:?} threads per block times {grid:?} blocks overflows 64 bits")]
    TooManyThreads {
        /// The block dimensions.
        block: [u64; 3],
        /// The grid dimensions.
        grid: [u64; 3],
    },
}

impl FlagError {
    /// The flag the error is about, as written (e.g. `--blockDim`, `-D`).
    /// `None` for [`FlagError::TooManyThreads`], which concerns two flags.
    pub fn flag(&self) -> Option<&str> {
        match self {
            FlagError::MissingValue { flag }
            | FlagError::UnexpectedValue { flag, .. }
            | FlagError::InvalidValue { flag, .. }
            | FlagError::Dims { flag, .. }
            | FlagError::Conflict { flag, .. } => Some(flag),
            FlagError::TooManyThreads { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_flag() {
        let e = FlagError::Dims {
            flag: "--blockDim".into(),
            value: "0".into(),
            reason: DimError::NotPositive("0".into()),
        };
        assert_eq!(
            e.to_string(),
            "invalid dimensions `0` for `--blockDim`: dimension `0` must be a positive integer"
        );
        assert_eq!(e.flag(), Some("--blockDim"));
        let e = FlagError::MissingValue { flag: "-D".into() };
        assert_eq!(e.to_string(), "`-D` expects a value");
        let e = FlagError::TooManyThreads {
            block: [1 << 32, 1, 1],
            grid: [1 << 32, 1, 1],
        };
        assert_eq!(e.flag(), None);
        assert!(e.to_string().contains("overflows"));
    }
}
