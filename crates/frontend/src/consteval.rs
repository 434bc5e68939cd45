//! Compile-time evaluation of integer constant expressions (array sizes,
//! template arguments, launch configurations, `case` labels, constants'
//! initialisers) with C's types: literals typed by suffix and magnitude,
//! integral promotion and the usual arithmetic conversions, unsigned
//! arithmetic modulo 2^N, conversions that wrap to the target type.
//!
//! Invariant: returns `None` rather than guessing: division by zero, a
//! signed result that overflows its type (undefined behaviour), a shift by
//! the width or more, a cast to a type it cannot name.

use crate::syntax::{named_children, Syntax};
use crate::types::{common_type, promote};
use tree_sitter::Node;
use warpsafe_ir::ScalarTy;

/// Names with a known constant value (template parameters, enumerators,
/// `const` variables with constant initialisers).
pub trait ConstEnv {
    fn constant(&self, name: &str) -> Option<i128>;

    /// The declared type of a named constant, when known (else the value
    /// is taken as an `int`, or a `long long` when it does not fit).
    fn constant_type(&self, _name: &str) -> Option<ScalarTy> {
        None
    }

    /// The scalar type a type name denotes (typedefs included).
    fn scalar_type(&self, name: &str) -> Option<ScalarTy> {
        crate::types::named_scalar(name)
    }
}

impl ConstEnv for std::collections::HashMap<String, i128> {
    fn constant(&self, name: &str) -> Option<i128> {
        self.get(name).copied()
    }
}

/// Evaluates a constant expression given as text (a template argument
/// written `1024 / 2` after substitution), by parsing it on its own.
pub fn eval_text(text: &str, env: &dyn ConstEnv) -> Option<i128> {
    if let Some(v) = int_literal(text) {
        return Some(v);
    }
    let wrapped = format!("int __warpsafe_value = ({text});");
    let syn = Syntax::parse(wrapped, warpsafe_preproc::LineMap::default())?;
    let decl = syn.root().named_child(0)?;
    let value = decl
        .child_by_field_name("declarator")?
        .child_by_field_name("value")?;
    if decl.has_error() {
        return None;
    }
    eval(&syn, value, env)
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
    eval_typed(syn, n, env).map(|(v, _)| v)
}

/// The value of a constant expression and its C type.
pub fn eval_typed(syn: &Syntax, n: Node, env: &dyn ConstEnv) -> Option<(i128, ScalarTy)> {
    eval_depth(syn, n, env, 0)
}

/// The C type of an integer literal ([lex.icon]): the first of int, long
/// long (and their unsigned versions for hexadecimal and octal literals,
/// or with a `u` suffix) that holds its value.
pub fn literal_type(text: &str, v: i128) -> Option<ScalarTy> {
    let lower = text.trim().to_ascii_lowercase();
    let unsigned = lower.trim_end_matches('l').ends_with('u') || lower.contains("ul");
    let long = lower.trim_end_matches('u').ends_with('l');
    let decimal = !(lower.starts_with("0x")
        || lower.starts_with("0b")
        || (lower.len() > 1 && lower.starts_with('0')));
    let fits = |t: ScalarTy| wrap(v, t) == v;
    let order: &[ScalarTy] = match (unsigned, long, decimal) {
        (true, false, _) => &[ScalarTy::U32, ScalarTy::U64],
        (true, true, _) => &[ScalarTy::U64],
        (false, false, true) => &[ScalarTy::I32, ScalarTy::I64],
        (false, false, false) => &[ScalarTy::I32, ScalarTy::U32, ScalarTy::I64, ScalarTy::U64],
        (false, true, true) => &[ScalarTy::I64],
        (false, true, false) => &[ScalarTy::I64, ScalarTy::U64],
    };
    // A literal too large for its list is `unsigned long long` (compilers'
    // extension) when it fits.
    order
        .iter()
        .copied()
        .find(|t| fits(*t))
        .or_else(|| fits(ScalarTy::U64).then_some(ScalarTy::U64))
}

/// `v` converted to `ty` as C does for integers (modulo 2^N).
pub fn wrap(v: i128, ty: ScalarTy) -> i128 {
    ty.wrap(v)
}

/// The result of an arithmetic operation in type `ty`: wrapped when `ty` is
/// unsigned, `None` when a signed result overflows (undefined behaviour).
pub(crate) fn arith(v: i128, ty: ScalarTy) -> Option<(i128, ScalarTy)> {
    let w = wrap(v, ty);
    if ty.is_signed() && w != v {
        return None;
    }
    Some((w, ty))
}

fn eval_depth(syn: &Syntax, n: Node, env: &dyn ConstEnv, depth: u32) -> Option<(i128, ScalarTy)> {
    if depth > 200 {
        return None;
    }
    let ev = |c: Node| eval_depth(syn, c, env, depth + 1);
    let int = ScalarTy::I32;
    let boolean = |b: bool| Some((i128::from(b), int));
    match n.kind() {
        "number_literal" => {
            let text = syn.text(n);
            let v = int_literal(text)?;
            Some((v, literal_type(text, v)?))
        }
        "char_literal" => {
            let t = syn.text(n);
            let inner = t.strip_prefix('\'')?.strip_suffix('\'')?;
            let v = match inner {
                "\\n" => 10,
                "\\0" => 0,
                "\\t" => 9,
                s if s.chars().count() == 1 => s.chars().next()? as i128,
                _ => return None,
            };
            Some((v, ScalarTy::I8))
        }
        "true" => Some((1, ScalarTy::Bool)),
        "false" => Some((0, ScalarTy::Bool)),
        // A template argument the grammar read as a type (`f<blockSize>`)
        // may name a constant.
        "identifier" | "type_identifier" => {
            let name = syn.text(n);
            let v = env.constant(name)?;
            let ty = env.constant_type(name).unwrap_or(if wrap(v, int) == v {
                int
            } else {
                ScalarTy::I64
            });
            Some((v, ty))
        }
        "qualified_identifier" => {
            let name = n.child_by_field_name("name")?;
            ev(name)
        }
        "parenthesized_expression" | "type_descriptor" => ev(*named_children(n).first()?),
        "cast_expression" => {
            let (v, _) = ev(n.child_by_field_name("value")?)?;
            let ty = n.child_by_field_name("type")?;
            let text: String = syn
                .text(ty)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            let words: Vec<&str> = text.split(' ').collect();
            let to = env
                .scalar_type(&text)
                .or_else(|| crate::types::sized_scalar(&words).filter(|_| words.len() > 1))?;
            (!to.is_float()).then_some(())?;
            Some((wrap(v, to), to))
        }
        "unary_expression" => {
            let (v, t) = ev(n.child_by_field_name("argument")?)?;
            let p = promote(t);
            match syn.text(n.child_by_field_name("operator")?) {
                "-" => arith(-v, p),
                "+" => Some((v, p)),
                "!" => boolean(v == 0),
                "~" => Some((wrap(!v, p), p)),
                _ => None,
            }
        }
        "binary_expression" => {
            let (a, ta) = ev(n.child_by_field_name("left")?)?;
            let (b, tb) = ev(n.child_by_field_name("right")?)?;
            let op = syn.text(n.child_by_field_name("operator")?);
            if ta.is_float() || tb.is_float() {
                return None;
            }
            if let "<<" | ">>" = op {
                // The left operand's promoted type; a count of the width or
                // more (or negative) is undefined.
                let t = promote(ta);
                if b < 0 || b >= i128::from(t.bits()) {
                    return None;
                }
                return if op == "<<" {
                    // A non-negative signed value shifted into the sign bit
                    // is that bit pattern ([expr.shift]/2); a negative one
                    // is undefined before C++20.
                    if t.is_signed() && a < 0 {
                        return None;
                    }
                    let v = a.checked_shl(u32::try_from(b).ok()?)?;
                    let unsigned_max = (1i128 << t.bits()) - 1;
                    (v <= unsigned_max).then(|| (wrap(v, t), t))
                } else {
                    Some((a >> b, t))
                };
            }
            if let "&&" | "||" = op {
                return boolean(if op == "&&" {
                    a != 0 && b != 0
                } else {
                    a != 0 || b != 0
                });
            }
            // The usual arithmetic conversions.
            let t = common_type(ta, tb);
            let (a, b) = (wrap(a, t), wrap(b, t));
            match op {
                "+" => arith(a + b, t),
                "-" => arith(a - b, t),
                "*" => arith(a.checked_mul(b)?, t),
                "/" if b != 0 => arith(a / b, t),
                "%" if b != 0 => arith(a % b, t),
                "&" => Some((wrap(a & b, t), t)),
                "|" => Some((wrap(a | b, t), t)),
                "^" => Some((wrap(a ^ b, t), t)),
                "==" => boolean(a == b),
                "!=" => boolean(a != b),
                "<" => boolean(a < b),
                "<=" => boolean(a <= b),
                ">" => boolean(a > b),
                ">=" => boolean(a >= b),
                _ => None,
            }
        }
        "conditional_expression" => {
            let (c, _) = ev(n.child_by_field_name("condition")?)?;
            let (x, tx) = ev(n.child_by_field_name("consequence")?)?;
            let (y, ty) = ev(n.child_by_field_name("alternative")?)?;
            let t = if tx == ty { tx } else { common_type(tx, ty) };
            Some((wrap(if c != 0 { x } else { y }, t), t))
        }
        "sizeof_expression" => {
            // `sizeof(int4)` reads as `sizeof` of a parenthesised name.
            let t = n.child_by_field_name("type").or_else(|| {
                n.child_by_field_name("value")
                    .filter(|v| v.kind() == "parenthesized_expression")
                    .and_then(|v| named_children(v).into_iter().next())
                    .filter(|v| v.kind() == "identifier" && env.constant(syn.text(*v)).is_none())
            })?;
            Some((sizeof_simple(syn.text(t))?, ScalarTy::U64))
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
    // CUDA's vector types: their lanes, unpadded (`float3` is 12 bytes).
    if let Some(crate::types::CType::Vector(elem, lanes, _)) = crate::types::vector_type(t) {
        return Some(elem.size_bytes() as i128 * i128::from(lanes));
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
    fn typed_folding_follows_c() {
        use ScalarTy::*;
        assert_eq!(literal_type("3000000000", 3_000_000_000), Some(I64));
        assert_eq!(literal_type("0xffffffff", 0xffff_ffff), Some(U32));
        assert_eq!(literal_type("1u", 1), Some(U32));
        assert_eq!(literal_type("1ull", 1), Some(U64));
        assert_eq!(wrap(-1, U32), 4_294_967_295);
        assert_eq!(wrap(300, U8), 44);
        assert_eq!(wrap(200, I8), -56);
        assert_eq!(
            arith(i128::from(i32::MAX) + 1, I32),
            None,
            "signed overflow"
        );
        assert_eq!(arith(-1, U32), Some((4_294_967_295, U32)));
    }

    #[test]
    fn sizes() {
        assert_eq!(sizeof_simple("float"), Some(4));
        assert_eq!(sizeof_simple("unsigned long long"), Some(8));
        assert_eq!(sizeof_simple("int*"), Some(8));
        assert_eq!(sizeof_simple("Foo"), None);
        assert_eq!(sizeof_simple("int4"), Some(16));
        assert_eq!(sizeof_simple("float3"), Some(12));
        assert_eq!(sizeof_simple("double2"), Some(16));
    }
}
