//! Values in a solver's model: decoding `get-value` and `get-model` answers.
//!
//! z3 prints bit-vectors as `#x0f`, cvc5 as `#b00001111`; both print
//! negative integers as `(- 5)`. Every form decodes to the same [`Value`].
//! Anything this module does not decode (reals, arrays, integers beyond
//! `i128`, bit-vectors wider than 128 bits) is kept as [`Value::Other`],
//! never guessed.

use std::fmt;

use crate::error::SmtError;
use crate::sexp::Sexp;

/// A value the solver assigned to a term.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// `true` / `false`.
    Bool(bool),
    /// An integer.
    Int(i128),
    /// A bit-vector of `width` bits (`value < 2^width`).
    BitVec {
        /// Number of bits.
        width: u32,
        /// The bits, as an unsigned number.
        value: u128,
    },
    /// A value this crate does not decode, verbatim.
    Other(Sexp),
}

impl Value {
    /// Decodes a value printed by a solver.
    pub fn from_sexp(sexp: &Sexp) -> Value {
        decode(sexp).unwrap_or_else(|| Value::Other(sexp.clone()))
    }

    /// The bit-vector value reinterpreted as a signed (two's complement)
    /// number, if this is a bit-vector of 1 to 128 bits.
    pub fn as_signed(&self) -> Option<i128> {
        match *self {
            Value::BitVec { width, value } if (1..=128).contains(&width) => {
                let shift = 128 - width;
                Some(((value << shift) as i128) >> shift)
            }
            _ => None,
        }
    }
}

fn decode(sexp: &Sexp) -> Option<Value> {
    match sexp {
        Sexp::Atom(a) => decode_atom(a),
        Sexp::List(items) => match items.as_slice() {
            [minus, n] if minus.as_atom() == Some("-") => {
                // `(- n)` with n a numeral; n may be 2^127 (i128::MIN).
                let n: u128 = n.as_atom()?.parse().ok()?;
                (n <= 1 << 127).then(|| Value::Int((n as i128).wrapping_neg()))
            }
            [under, bvn, width] if under.as_atom() == Some("_") => {
                let digits = bvn.as_atom()?.strip_prefix("bv")?;
                let width: u32 = width.as_atom()?.parse().ok()?;
                let value: u128 = digits.parse().ok()?;
                bitvec(width, value)
            }
            _ => None,
        },
    }
}

fn decode_atom(a: &str) -> Option<Value> {
    match a {
        "true" => Some(Value::Bool(true)),
        "false" => Some(Value::Bool(false)),
        _ => {
            if let Some(hex) = a.strip_prefix("#x") {
                let width = u32::try_from(hex.len()).ok()?.checked_mul(4)?;
                bitvec(width, u128::from_str_radix(hex, 16).ok()?)
            } else if let Some(bin) = a.strip_prefix("#b") {
                let width = u32::try_from(bin.len()).ok()?;
                bitvec(width, u128::from_str_radix(bin, 2).ok()?)
            } else if a.bytes().all(|b| b.is_ascii_digit()) {
                Some(Value::Int(a.parse().ok()?))
            } else {
                None
            }
        }
    }
}

fn bitvec(width: u32, value: u128) -> Option<Value> {
    let fits = width >= 128 || value >> width == 0;
    (width > 0 && width <= 128 && fits).then_some(Value::BitVec { width, value })
}

impl fmt::Display for Value {
    /// SMT-LIB2 syntax: `true`, `(- 5)`, `#x0f` (or `#b...` for widths that
    /// are not a multiple of 4).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(n) if *n < 0 => write!(f, "(- {})", n.unsigned_abs()),
            Value::Int(n) => write!(f, "{n}"),
            Value::BitVec { width, value } if width % 4 == 0 => {
                write!(f, "#x{value:0w$x}", w = (*width / 4) as usize)
            }
            Value::BitVec { width, value } => write!(f, "#b{value:0w$b}", w = *width as usize),
            Value::Other(s) => write!(f, "{s}"),
        }
    }
}

/// Decodes a `get-value` answer `((t1 v1) (t2 v2) ...)` for `count` terms.
pub(crate) fn decode_get_value(answer: &Sexp, count: usize) -> Result<Vec<Value>, SmtError> {
    let bad = || SmtError::UnexpectedResponse {
        expected: "a get-value answer ((term value) ...)",
        got: truncate(&answer.to_string()),
    };
    let pairs = answer.as_list().ok_or_else(bad)?;
    if pairs.len() != count {
        return Err(bad());
    }
    pairs
        .iter()
        .map(|pair| match pair.as_list() {
            Some([_term, value]) => Ok(Value::from_sexp(value)),
            _ => Err(bad()),
        })
        .collect()
}

/// Decodes a `get-model` answer: `(model (define-fun x () Int 5) ...)` or
/// the newer `((define-fun x () Int 5) ...)`, keeping constants only
/// (functions with parameters are skipped).
pub(crate) fn decode_model(answer: &Sexp) -> Result<Vec<(String, Value)>, SmtError> {
    let bad = || SmtError::UnexpectedResponse {
        expected: "a get-model answer",
        got: truncate(&answer.to_string()),
    };
    let mut items = answer.as_list().ok_or_else(bad)?;
    if items.first().and_then(Sexp::as_atom) == Some("model") {
        items = &items[1..];
    }
    let mut out = Vec::new();
    for item in items {
        match item.as_list() {
            Some([def, name, params, _sort, value]) if def.as_atom() == Some("define-fun") => {
                let name = name.as_symbol().ok_or_else(bad)?;
                if params.as_list().is_some_and(<[Sexp]>::is_empty) {
                    out.push((name.to_owned(), Value::from_sexp(value)));
                }
            }
            // Sort declarations and the like carry no constant's value.
            Some(_) => {}
            None => return Err(bad()),
        }
    }
    Ok(out)
}

/// Shortens solver output quoted in an error message.
pub(crate) fn truncate(text: &str) -> String {
    const LIMIT: usize = 500;
    if text.len() <= LIMIT {
        return text.to_owned();
    }
    let mut end = LIMIT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} bytes)", &text[..end], text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> Value {
        Value::from_sexp(&text.parse().expect("test input parses"))
    }

    #[test]
    fn decodes_solver_values() {
        assert_eq!(v("true"), Value::Bool(true));
        assert_eq!(v("42"), Value::Int(42));
        assert_eq!(v("(- 5)"), Value::Int(-5));
        assert_eq!(v(&format!("(- {})", 1u128 << 127)), Value::Int(i128::MIN));
        assert!(matches!(
            v(&format!("(- {})", (1u128 << 127) + 1)),
            Value::Other(_)
        ));
        assert_eq!(
            v("#x0f"),
            Value::BitVec {
                width: 8,
                value: 15
            }
        );
        assert_eq!(
            v("#b00001111"),
            Value::BitVec {
                width: 8,
                value: 15
            }
        );
        assert_eq!(
            v("(_ bv15 8)"),
            Value::BitVec {
                width: 8,
                value: 15
            }
        );
        assert!(matches!(v("(_ bv256 8)"), Value::Other(_)));
        assert!(matches!(v("1.5"), Value::Other(_)));
        assert!(matches!(
            v("999999999999999999999999999999999999999999"),
            Value::Other(_)
        ));
        assert_eq!(v("#xffffffff").as_signed(), Some(-1));
        assert_eq!(v("#x7f").as_signed(), Some(127));
    }

    #[test]
    fn displays_smt_syntax() {
        assert_eq!(v("(- 5)").to_string(), "(- 5)");
        assert_eq!(v("#b00001111").to_string(), "#x0f");
        assert_eq!(v("#b101").to_string(), "#b101");
    }

    #[test]
    fn decodes_get_value_and_models() {
        let answer = "((x (- 5)) (b #x0f) ((+ x 1) (- 4)))"
            .parse()
            .expect("parses");
        let values = decode_get_value(&answer, 3).expect("decodes");
        assert_eq!(values[0], Value::Int(-5));
        assert_eq!(values[2], Value::Int(-4));
        assert!(decode_get_value(&answer, 2).is_err());
        assert!(decode_get_value(&Sexp::atom("sat"), 1).is_err());

        for text in [
            "((define-fun x () Int (- 5)) (define-fun f ((a Int)) Int a))",
            "(model (define-fun x () Int (- 5)))",
        ] {
            let model = decode_model(&text.parse().expect("parses")).expect("decodes");
            assert_eq!(model, vec![("x".to_owned(), Value::Int(-5))]);
        }
    }
}
