//! Compile-time evaluation of integer constant expressions (array sizes,
//! template arguments, launch configurations, `case` labels).
//!
//! Invariant: returns `None` rather than guessing; division by zero and
//! overflow beyond `i128` give `None`.

use crate::syntax::{named_children, Syntax};
use tree_sitter::Node;

/// Names with a known constant value (template parameters, enumerators,
/// `const` variables with constant initialisers).
pub trait ConstEnv {
    fn constant(&self, name: &str) -> Option<i128>;
}

impl ConstEnv for std::collections::HashMap<String, i128> {
    fn constant(&self, name: &str) -> Option<i128> {
        self.get(name).copied()
    }
}

/// Parses an integer literal (decimal, hex, octal, binary, with suffixes).
pub fn int_literal(text: &str) -> Option<i128> {
    let t = text.trim().replace('\'', "");
    let t = t.trim_end_matches(['u', 'U', 'l', 'L']);
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return i128::from_str_radix(h, 16).ok();
    }
    if let Some(b) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        return i128::from_str_radix(b, 2).ok();
    }
    if t.len() > 1 && t.starts_with('0') && t.bytes().all(|b| b.is_ascii_digit()) {
        return i128::from_str_radix(&t[1..], 8).ok();
    }
    t.parse().ok()
}

pub fn eval(syn: &Syntax, n: Node, env: &dyn ConstEnv) -> Option<i128> {
    eval_depth(syn, n, env, 0)
}

fn eval_depth(syn: &Syntax, n: Node, env: &dyn ConstEnv, depth: u32) -> Option<i128> {
    if depth > 200 {
        return None;
    }
    let ev = |c: Node| eval_depth(syn, c, env, depth + 1);
    match n.kind() {
        "number_literal" => int_literal(syn.text(n)),
        "char_literal" => {
            let t = syn.text(n);
            let inner = t.strip_prefix('\'')?.strip_suffix('\'')?;
            match inner {
                "\\n" => Some(10),
                "\\0" => Some(0),
                "\\t" => Some(9),
                s if s.chars().count() == 1 => s.chars().next().map(|c| c as i128),
                _ => None,
            }
        }
        "true" => Some(1),
        "false" => Some(0),
        // A template argument the grammar read as a type (`f<blockSize>`)
        // may name a constant.
        "identifier" | "type_identifier" => env.constant(syn.text(n)),
        "qualified_identifier" => {
            let name = n.child_by_field_name("name")?;
            ev(name)
        }
        "parenthesized_expression" | "type_descriptor" => ev(*named_children(n).first()?),
        "cast_expression" => ev(n.child_by_field_name("value")?),
        "unary_expression" => {
            let v = ev(n.child_by_field_name("argument")?)?;
            match syn.text(n.child_by_field_name("operator")?) {
                "-" => v.checked_neg(),
                "+" => Some(v),
                "!" => Some(i128::from(v == 0)),
                "~" => Some(!v),
                _ => None,
            }
        }
        "binary_expression" => {
            let a = ev(n.child_by_field_name("left")?)?;
            let b = ev(n.child_by_field_name("right")?)?;
            let op = syn.text(n.child_by_field_name("operator")?);
            Some(match op {
                "+" => a.checked_add(b)?,
                "-" => a.checked_sub(b)?,
                "*" => a.checked_mul(b)?,
                "/" => a.checked_div(b)?,
                "%" => a.checked_rem(b)?,
                "<<" => a.checked_shl(u32::try_from(b).ok()?)?,
                ">>" => a.checked_shr(u32::try_from(b).ok()?)?,
                "&" => a & b,
                "|" => a | b,
                "^" => a ^ b,
                "&&" => i128::from(a != 0 && b != 0),
                "||" => i128::from(a != 0 || b != 0),
                "==" => i128::from(a == b),
                "!=" => i128::from(a != b),
                "<" => i128::from(a < b),
                "<=" => i128::from(a <= b),
                ">" => i128::from(a > b),
                ">=" => i128::from(a >= b),
                _ => return None,
            })
        }
        "conditional_expression" => {
            let c = ev(n.child_by_field_name("condition")?)?;
            if c != 0 {
                ev(n.child_by_field_name("consequence")?)
            } else {
                ev(n.child_by_field_name("alternative")?)
            }
        }
        "sizeof_expression" => {
            let t = n.child_by_field_name("type")?;
            sizeof_simple(syn.text(t))
        }
        _ => None,
    }
}

/// `sizeof` of a scalar type spelled out (`sizeof(float)`); aggregates are
/// handled by the lowering, which knows the type table.
pub fn sizeof_simple(text: &str) -> Option<i128> {
    let t = text
        .trim()
        .trim_start_matches('(')
        .trim_end_matches(')')
        .trim();
    if t.ends_with('*') {
        return Some(8);
    }
    let words: Vec<&str> = t.split_whitespace().collect();
    let ty = crate::types::named_scalar(t).or_else(|| crate::types::sized_scalar(&words))?;
    if !words.iter().all(|w| {
        matches!(
            *w,
            "unsigned" | "signed" | "long" | "short" | "int" | "char" | "double"
        )
    }) && crate::types::named_scalar(t).is_none()
    {
        return None;
    }
    Some(ty.size_bytes() as i128)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals() {
        assert_eq!(int_literal("0x1F"), Some(31));
        assert_eq!(int_literal("017"), Some(15));
        assert_eq!(int_literal("42u"), Some(42));
        assert_eq!(int_literal("0xffffffffULL"), Some(0xffff_ffff));
        assert_eq!(int_literal("0"), Some(0));
        assert_eq!(int_literal("1.5"), None);
    }

    #[test]
    fn sizes() {
        assert_eq!(sizeof_simple("float"), Some(4));
        assert_eq!(sizeof_simple("unsigned long long"), Some(8));
        assert_eq!(sizeof_simple("int*"), Some(8));
        assert_eq!(sizeof_simple("Foo"), None);
    }
}
