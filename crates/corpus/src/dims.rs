//! Launch dimensions such as `--blockDim=[16,16]` or `--gridDim=4`.
//!
//! [`parse_dims`] accepts 1 to 3 comma-separated positive decimal integers,
//! optionally wrapped in one pair of `[...]` (GPUVerify) or `{...}` (CUDA's
//! `dim3` initialiser); spaces around numbers are allowed. Missing trailing
//! dimensions are 1.
//!
//! Invariants of a successful result: every entry is at least 1, and the
//! product of the three entries fits in a `u64`.
//! GPUVerify's unconstrained dimension `*` is rejected with its own error,
//! since the result holds concrete numbers.

use std::num::IntErrorKind;

use thiserror::Error;

/// Why a dimension string was rejected.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DimError {
    /// Nothing (or only brackets) was given.
    #[error("no dimensions given (expected 1 to 3 numbers, e.g. `64` or `[16,16]`)")]
    Empty,
    /// An opening bracket without its matching closer, or the reverse.
    #[error("unbalanced brackets (expected `[x,y,z]` or `{{x,y,z}}`)")]
    Unbalanced,
    /// More than three components.
    #[error("{0} dimensions given; at most 3 are allowed")]
    TooMany(usize),
    /// A component between commas is empty, as in `16,,2`.
    #[error("dimension {position} is empty")]
    EmptyComponent {
        /// 1-based position of the empty component.
        position: usize,
    },
    /// A component is zero or negative.
    #[error("dimension `{0}` must be a positive integer")]
    NotPositive(String),
    /// GPUVerify's `*` (an unconstrained size).
    #[error("unconstrained dimension `*` is not supported; give a number")]
    Unconstrained,
    /// A component is not a decimal integer.
    #[error("dimension `{0}` is not a decimal integer")]
    NotANumber(String),
    /// A component does not fit in 64 bits.
    #[error("dimension `{0}` is too large")]
    TooLarge(String),
    /// The product of the components does not fit in 64 bits.
    #[error("the total size {0:?} overflows 64 bits")]
    ProductOverflow([u64; 3]),
}

/// Parses launch dimensions (`64`, `16,16`, `[16,16]`, `{16,16,1}`) into
/// `[x, y, z]`, padding missing dimensions with 1.
///
/// # Errors
///
/// A [`DimError`] for an empty list, unbalanced brackets, more than three
/// dimensions, an empty, zero, negative, `*`, non-decimal or too large
/// component, or a product that overflows a `u64`.
///
/// ```
/// use warpsafe_corpus::parse_dims;
/// assert_eq!(parse_dims("[16,16]"), Ok([16, 16, 1]));
/// assert!(parse_dims("0").is_err());
/// ```
pub fn parse_dims(s: &str) -> Result<[u64; 3], DimError> {
    let inner = strip_brackets(s.trim())?;
    if inner.trim().is_empty() {
        return Err(DimError::Empty);
    }
    let parts: Vec<&str> = inner.split(',').collect();
    if parts.len() > 3 {
        return Err(DimError::TooMany(parts.len()));
    }
    let mut dims = [1u64; 3];
    for (index, (slot, part)) in dims.iter_mut().zip(&parts).enumerate() {
        *slot = parse_component(part.trim(), index + 1)?;
    }
    dims.iter()
        .try_fold(1u64, |acc, &d| acc.checked_mul(d))
        .ok_or(DimError::ProductOverflow(dims))?;
    Ok(dims)
}

/// Removes one pair of matching `[]` or `{}` around `s`.
fn strip_brackets(s: &str) -> Result<&str, DimError> {
    for (open, close) in [('[', ']'), ('{', '}')] {
        if let Some(rest) = s.strip_prefix(open) {
            return rest.strip_suffix(close).ok_or(DimError::Unbalanced);
        }
    }
    if s.ends_with([']', '}']) {
        return Err(DimError::Unbalanced);
    }
    Ok(s)
}

fn parse_component(part: &str, position: usize) -> Result<u64, DimError> {
    if part.is_empty() {
        return Err(DimError::EmptyComponent { position });
    }
    if part == "*" {
        return Err(DimError::Unconstrained);
    }
    if let Some(magnitude) = part.strip_prefix('-') {
        if !magnitude.is_empty() && magnitude.bytes().all(|b| b.is_ascii_digit()) {
            return Err(DimError::NotPositive(part.to_owned()));
        }
    }
    match part.parse::<u64>() {
        Ok(0) => Err(DimError::NotPositive(part.to_owned())),
        Ok(n) => Ok(n),
        Err(e) if *e.kind() == IntErrorKind::PosOverflow => {
            Err(DimError::TooLarge(part.to_owned()))
        }
        Err(_) => Err(DimError::NotANumber(part.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_number() {
        assert_eq!(parse_dims("64"), Ok([64, 1, 1]));
        assert_eq!(parse_dims(" 2048 "), Ok([2048, 1, 1]));
    }

    #[test]
    fn comma_lists() {
        assert_eq!(parse_dims("16,16"), Ok([16, 16, 1]));
        assert_eq!(parse_dims("4,2,8"), Ok([4, 2, 8]));
        assert_eq!(parse_dims("4, 2 ,8"), Ok([4, 2, 8]));
    }

    #[test]
    fn bracketed_and_braced() {
        assert_eq!(parse_dims("[8,8]"), Ok([8, 8, 1]));
        assert_eq!(parse_dims("[64,64,64]"), Ok([64, 64, 64]));
        assert_eq!(parse_dims("{16,16,1}"), Ok([16, 16, 1]));
        assert_eq!(parse_dims("[ 16 , 16 ]"), Ok([16, 16, 1]));
        assert_eq!(parse_dims("[32]"), Ok([32, 1, 1]));
    }

    #[test]
    fn empty_inputs() {
        assert_eq!(parse_dims(""), Err(DimError::Empty));
        assert_eq!(parse_dims("  "), Err(DimError::Empty));
        assert_eq!(parse_dims("[]"), Err(DimError::Empty));
        assert_eq!(parse_dims("{ }"), Err(DimError::Empty));
    }

    #[test]
    fn unbalanced_brackets() {
        assert_eq!(parse_dims("[16,16"), Err(DimError::Unbalanced));
        assert_eq!(parse_dims("16,16]"), Err(DimError::Unbalanced));
        assert_eq!(parse_dims("[16,16}"), Err(DimError::Unbalanced));
        assert_eq!(parse_dims("{16"), Err(DimError::Unbalanced));
        assert_eq!(parse_dims("["), Err(DimError::Unbalanced));
    }

    #[test]
    fn nested_brackets_are_not_numbers() {
        assert_eq!(
            parse_dims("[[2]]"),
            Err(DimError::NotANumber("[2]".to_owned()))
        );
    }

    #[test]
    fn too_many_dimensions() {
        assert_eq!(parse_dims("1,2,3,4"), Err(DimError::TooMany(4)));
        assert_eq!(parse_dims("[1,1,1,1,1]"), Err(DimError::TooMany(5)));
    }

    #[test]
    fn empty_components() {
        assert_eq!(
            parse_dims("16,,2"),
            Err(DimError::EmptyComponent { position: 2 })
        );
        assert_eq!(
            parse_dims("16,16,"),
            Err(DimError::EmptyComponent { position: 3 })
        );
        assert_eq!(
            parse_dims(",4"),
            Err(DimError::EmptyComponent { position: 1 })
        );
    }

    #[test]
    fn zero_and_negative() {
        assert_eq!(parse_dims("0"), Err(DimError::NotPositive("0".into())));
        assert_eq!(
            parse_dims("[16,000]"),
            Err(DimError::NotPositive("000".into()))
        );
        assert_eq!(parse_dims("-4"), Err(DimError::NotPositive("-4".into())));
        assert_eq!(parse_dims("2,-1"), Err(DimError::NotPositive("-1".into())));
    }

    #[test]
    fn star_is_unconstrained() {
        assert_eq!(parse_dims("*"), Err(DimError::Unconstrained));
        assert_eq!(parse_dims("[16,*]"), Err(DimError::Unconstrained));
    }

    #[test]
    fn not_numbers() {
        assert_eq!(parse_dims("x"), Err(DimError::NotANumber("x".into())));
        assert_eq!(parse_dims("0x10"), Err(DimError::NotANumber("0x10".into())));
        assert_eq!(parse_dims("1.5"), Err(DimError::NotANumber("1.5".into())));
        assert_eq!(
            parse_dims("16 16"),
            Err(DimError::NotANumber("16 16".into()))
        );
        assert_eq!(parse_dims("-"), Err(DimError::NotANumber("-".into())));
        assert_eq!(parse_dims("--4"), Err(DimError::NotANumber("--4".into())));
    }

    #[test]
    fn component_too_large() {
        assert_eq!(
            parse_dims("18446744073709551616"),
            Err(DimError::TooLarge("18446744073709551616".into()))
        );
        assert_eq!(parse_dims("18446744073709551615"), Ok([u64::MAX, 1, 1]));
    }

    #[test]
    fn product_overflow() {
        assert_eq!(
            parse_dims("[4294967296,4294967296]"),
            Err(DimError::ProductOverflow([4294967296, 4294967296, 1]))
        );
        assert_eq!(
            parse_dims("[4294967296,4294967295]"),
            Ok([4294967296, 4294967295, 1])
        );
    }

    #[test]
    fn errors_display() {
        assert_eq!(
            DimError::Unbalanced.to_string(),
            "unbalanced brackets (expected `[x,y,z]` or `{x,y,z}`)"
        );
        assert_eq!(
            DimError::TooMany(4).to_string(),
            "4 dimensions given; at most 3 are allowed"
        );
    }
}
