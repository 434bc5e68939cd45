//! Evaluation of `#if` / `#elif` integer constant expressions.
//!
//! Invariants:
//! - Input tokens are already macro-expanded and `defined` is resolved;
//!   remaining identifiers evaluate to 0 (`true` to 1, as in C++).
//! - Arithmetic is 64-bit with C's usual arithmetic conversions (`intmax_t`
//!   or `uintmax_t`), wrapping on overflow; errors in branches that are not
//!   evaluated (`0 && 1/0`) are not reported.
//! - Never panics; nesting is bounded by `MAX_DEPTH`.

use crate::token::{Kind, Tok};

const MAX_DEPTH: u32 = 100;

/// A preprocessor value: 64 bits, signed or unsigned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Value {
    pub bits: u64,
    pub unsigned: bool,
}

impl Value {
    fn int(v: i64) -> Value {
        Value {
            bits: v as u64,
            unsigned: false,
        }
    }

    fn bool(b: bool) -> Value {
        Value::int(i64::from(b))
    }

    pub fn is_true(self) -> bool {
        self.bits != 0
    }
}

#[derive(Debug)]
pub(crate) struct ExprError {
    pub message: String,
    /// Index of the offending token, when there is one.
    pub at: Option<usize>,
}

type Res = Result<Value, ExprError>;

/// Evaluate a whole `#if` expression.
pub(crate) fn evaluate(toks: &[Tok]) -> Res {
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
    };
    if toks.is_empty() {
        return Err(p.err("#if with no expression"));
    }
    let v = p.comma(true)?;
    if let Some(t) = toks.get(p.pos) {
        let msg = if t.is_punct(")") {
            "missing '(' in expression".to_string()
        } else {
            format!("missing binary operator before token \"{}\"", t.text)
        };
        return Err(p.err(msg));
    }
    Ok(v)
}

fn precedence(op: &str) -> Option<u8> {
    Some(match op {
        "||" => 1,
        "&&" => 2,
        "|" => 3,
        "^" => 4,
        "&" => 5,
        "==" | "!=" => 6,
        "<" | ">" | "<=" | ">=" => 7,
        "<<" | ">>" => 8,
        "+" | "-" => 9,
        "*" | "/" | "%" => 10,
        _ => return None,
    })
}

struct Parser<'a> {
    toks: &'a [Tok],
    pos: usize,
    depth: u32,
}

impl<'a> Parser<'a> {
    fn err(&self, message: impl Into<String>) -> ExprError {
        let at = (self.pos < self.toks.len()).then_some(self.pos);
        ExprError {
            message: message.into(),
            at,
        }
    }

    fn op(&self) -> Option<&'a str> {
        let t = self.toks.get(self.pos)?;
        (t.kind == Kind::Punct).then_some(&*t.text)
    }

    fn enter(&mut self) -> Result<(), ExprError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err("#if expression nested too deeply"));
        }
        Ok(())
    }

    fn comma(&mut self, live: bool) -> Res {
        let mut v = self.cond(live)?;
        while self.op() == Some(",") {
            self.pos += 1;
            v = self.cond(live)?;
        }
        Ok(v)
    }

    fn cond(&mut self, live: bool) -> Res {
        self.enter()?;
        let c = self.binary(1, live)?;
        let r = if self.op() == Some("?") {
            self.pos += 1;
            let t = c.is_true();
            let a = self.comma(live && t)?;
            if self.op() != Some(":") {
                return Err(self.err("expected ':' in conditional expression"));
            }
            self.pos += 1;
            let b = self.cond(live && !t)?;
            Value {
                bits: if t { a.bits } else { b.bits },
                unsigned: a.unsigned || b.unsigned,
            }
        } else {
            c
        };
        self.depth -= 1;
        Ok(r)
    }

    fn binary(&mut self, min_prec: u8, live: bool) -> Res {
        let mut lhs = self.unary(live)?;
        while let Some(op) = self.op() {
            let Some(prec) = precedence(op) else { break };
            if prec < min_prec {
                break;
            }
            let at = self.pos;
            self.pos += 1;
            let rhs_live = match op {
                "&&" => live && lhs.is_true(),
                "||" => live && !lhs.is_true(),
                _ => live,
            };
            let rhs = self.binary(prec + 1, rhs_live)?;
            lhs = apply(op, lhs, rhs, live).map_err(|message| ExprError {
                message,
                at: Some(at),
            })?;
        }
        Ok(lhs)
    }

    fn unary(&mut self, live: bool) -> Res {
        self.enter()?;
        let r = self.unary_inner(live);
        self.depth -= 1;
        r
    }

    fn unary_inner(&mut self, live: bool) -> Res {
        let Some(t) = self.toks.get(self.pos) else {
            return Err(self.err("expected value in expression"));
        };
        match t.kind {
            Kind::Punct => {
                let op = &*t.text;
                match op {
                    "+" | "-" | "~" | "!" => {
                        self.pos += 1;
                        let v = self.unary(live)?;
                        Ok(match op {
                            "+" => v,
                            "-" => Value {
                                bits: v.bits.wrapping_neg(),
                                ..v
                            },
                            "~" => Value { bits: !v.bits, ..v },
                            _ => Value::bool(!v.is_true()),
                        })
                    }
                    "(" => {
                        self.pos += 1;
                        let v = self.comma(live)?;
                        if self.op() != Some(")") {
                            return Err(self.err("missing ')' in expression"));
                        }
                        self.pos += 1;
                        Ok(v)
                    }
                    _ => Err(self.err(format!(
                        "token \"{op}\" is not valid in preprocessor expressions"
                    ))),
                }
            }
            Kind::Number => {
                let v = parse_number(&t.text).map_err(|m| self.err(m))?;
                self.pos += 1;
                Ok(v)
            }
            Kind::Char => {
                let v = parse_char(&t.text).map_err(|m| self.err(m))?;
                self.pos += 1;
                Ok(v)
            }
            Kind::Ident => {
                self.pos += 1;
                Ok(Value::bool(&*t.text == "true"))
            }
            _ => Err(self.err(format!(
                "token \"{}\" is not valid in preprocessor expressions",
                t.text
            ))),
        }
    }
}

fn shift_left(v: Value, n: i128) -> Value {
    if n < 0 {
        return shift_right(v, -n);
    }
    let bits = if n >= 64 { 0 } else { v.bits << n };
    Value { bits, ..v }
}

fn shift_right(v: Value, n: i128) -> Value {
    if n < 0 {
        return shift_left(v, -n);
    }
    let negative = !v.unsigned && (v.bits as i64) < 0;
    let bits = if n >= 64 {
        if negative {
            u64::MAX
        } else {
            0
        }
    } else if v.unsigned {
        v.bits >> n
    } else {
        ((v.bits as i64) >> n) as u64
    };
    Value { bits, ..v }
}

fn apply(op: &str, a: Value, b: Value, live: bool) -> Result<Value, String> {
    let unsigned = a.unsigned || b.unsigned;
    let (x, y) = (a.bits, b.bits);
    let num = |bits: u64| Value { bits, unsigned };
    let less = |x: u64, y: u64| {
        if unsigned {
            x < y
        } else {
            (x as i64) < (y as i64)
        }
    };
    Ok(match op {
        "*" => num(x.wrapping_mul(y)),
        "/" | "%" => {
            if y == 0 {
                if live {
                    return Err("division by zero in #if".into());
                }
                return Ok(num(0));
            }
            let q = match (op, unsigned) {
                ("/", true) => x / y,
                ("/", false) => (x as i64).wrapping_div(y as i64) as u64,
                (_, true) => x % y,
                _ => (x as i64).wrapping_rem(y as i64) as u64,
            };
            num(q)
        }
        "+" => num(x.wrapping_add(y)),
        "-" => num(x.wrapping_sub(y)),
        "<<" | ">>" => {
            let n = if b.unsigned {
                i128::from(y)
            } else {
                i128::from(y as i64)
            };
            if op == "<<" {
                shift_left(a, n)
            } else {
                shift_right(a, n)
            }
        }
        "<" => Value::bool(less(x, y)),
        ">" => Value::bool(less(y, x)),
        "<=" => Value::bool(!less(y, x)),
        ">=" => Value::bool(!less(x, y)),
        "==" => Value::bool(x == y),
        "!=" => Value::bool(x != y),
        "&" => num(x & y),
        "^" => num(x ^ y),
        "|" => num(x | y),
        "&&" => Value::bool(a.is_true() && b.is_true()),
        _ => Value::bool(a.is_true() || b.is_true()),
    })
}

/// An integer literal (with `u`/`l`/`ll`/`z` suffixes and `'` separators).
pub(crate) fn parse_number(text: &str) -> Result<Value, String> {
    let s: String = text.chars().filter(|&c| c != '\'').collect();
    let lower = s.to_ascii_lowercase();
    let (radix, start) = if lower.starts_with("0x") {
        (16, 2)
    } else if lower.starts_with("0b") {
        (2, 2)
    } else if lower.starts_with('0') {
        (8, 1)
    } else {
        (10, 0)
    };
    let is_float = lower.contains('.')
        || (radix == 16 && lower.contains('p'))
        || (radix != 16 && lower.contains('e'));
    if is_float {
        return Err("floating constant in preprocessor expression".into());
    }
    let bytes = lower.as_bytes();
    let mut i = start;
    let mut value: u64 = 0;
    let too_large = || "integer constant is too large for its type".to_string();
    while let Some(&c) = bytes.get(i) {
        let digit = match c {
            b'0'..=b'9' => u64::from(c - b'0'),
            b'a'..=b'f' if radix == 16 => u64::from(c - b'a' + 10),
            _ => break,
        };
        if digit >= radix {
            return Err(format!(
                "invalid digit \"{}\" in {} constant",
                c as char,
                if radix == 8 { "octal" } else { "binary" }
            ));
        }
        value = value
            .checked_mul(radix)
            .and_then(|v| v.checked_add(digit))
            .ok_or_else(too_large)?;
        i += 1;
    }
    if i == start && radix != 8 {
        return Err(format!("invalid integer constant \"{text}\""));
    }
    let suffix = lower.get(i..).unwrap_or("");
    if !matches!(
        suffix,
        "" | "u" | "l" | "ul" | "lu" | "ll" | "ull" | "llu" | "z" | "uz" | "zu"
    ) {
        return Err(format!(
            "invalid suffix \"{}\" on integer constant",
            s.get(i..).unwrap_or("")
        ));
    }
    Ok(Value {
        bits: value,
        unsigned: suffix.contains('u') || value > i64::MAX as u64,
    })
}

/// The value of one character of a literal body starting at `chars[*i]`.
fn char_unit(chars: &[char], i: &mut usize) -> Option<u32> {
    let c = *chars.get(*i)?;
    *i += 1;
    if c != '\\' {
        return Some(c as u32);
    }
    let e = *chars.get(*i)?;
    *i += 1;
    let hex = |i: &mut usize, max: usize| {
        let mut v: u32 = 0;
        let mut n = 0;
        while let Some(d) = chars.get(*i).and_then(|c| c.to_digit(16)) {
            if n == max {
                break;
            }
            v = v.wrapping_mul(16).wrapping_add(d);
            *i += 1;
            n += 1;
        }
        v
    };
    Some(match e {
        'n' => 10,
        't' => 9,
        'r' => 13,
        'a' => 7,
        'b' => 8,
        'f' => 12,
        'v' => 11,
        'e' | 'E' => 27,
        'x' => hex(i, usize::MAX),
        'u' => hex(i, 4),
        'U' => hex(i, 8),
        '0'..='7' => {
            let mut v = e as u32 - '0' as u32;
            let mut n = 1;
            while let Some(d) = chars.get(*i).and_then(|c| c.to_digit(8)) {
                if n == 3 {
                    break;
                }
                v = v * 8 + d;
                *i += 1;
                n += 1;
            }
            v
        }
        other => other as u32,
    })
}

/// A character literal (`'a'`, `'\n'`, `L'x'`, multi-character `'ab'`).
pub(crate) fn parse_char(text: &str) -> Result<Value, String> {
    let Some(q) = text.find('\'') else {
        return Err("invalid character constant".into());
    };
    let prefix = text.get(..q).unwrap_or("");
    let Some(body) = text.get(q + 1..).and_then(|b| b.strip_suffix('\'')) else {
        return Err("missing terminating ' character".into());
    };
    let chars: Vec<char> = body.chars().collect();
    let mut units = Vec::new();
    let mut i = 0;
    while let Some(u) = char_unit(&chars, &mut i) {
        units.push(u);
    }
    let Some(&last) = units.last() else {
        return Err("empty character constant".into());
    };
    Ok(match prefix {
        "" | "u8" => {
            if units.len() == 1 && last < 0x100 {
                Value::int(i64::from(last as u8 as i8))
            } else {
                let mut v: u32 = 0;
                for u in &units {
                    let mut buf = [0u8; 4];
                    let bytes: &[u8] = match char::from_u32(*u) {
                        Some(c) if *u >= 0x100 => c.encode_utf8(&mut buf).as_bytes(),
                        _ => {
                            buf[0] = *u as u8;
                            &buf[..1]
                        }
                    };
                    for &b in bytes {
                        v = (v << 8) | u32::from(b);
                    }
                }
                Value::int(i64::from(v as i32))
            }
        }
        "L" => Value::int(i64::from(last as i32)),
        _ => Value {
            bits: u64::from(last),
            unsigned: true,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex_str;
    use warpsafe_source::FileId;

    fn eval(s: &str) -> Result<i64, String> {
        let toks = lex_str(s, FileId(0));
        evaluate(&toks)
            .map(|v| v.bits as i64)
            .map_err(|e| e.message)
    }

    #[test]
    fn arithmetic_and_precedence() {
        assert_eq!(eval("1 + 2 * 3"), Ok(7));
        assert_eq!(eval("(1 + 2) * 3"), Ok(9));
        assert_eq!(eval("10 / 3 % 2"), Ok(1));
        assert_eq!(eval("1 << 4 >> 2"), Ok(4));
        assert_eq!(eval("-1 < 0"), Ok(1));
        assert_eq!(eval("-1 < 0u"), Ok(0), "unsigned comparison");
        assert_eq!(eval("~0u == 0xffffffffffffffff"), Ok(1));
        assert_eq!(eval("1 ? 2 : 3"), Ok(2));
        assert_eq!(eval("0 ? 2 : 0 ? 3 : 4"), Ok(4));
        assert_eq!(eval("1 || 1/0"), Ok(1));
        assert_eq!(eval("0 && 1/0"), Ok(0));
        assert_eq!(eval("3 & 5 | 8 ^ 1"), Ok(9));
        assert_eq!(eval("!0 + !5"), Ok(1));
        assert_eq!(eval("2 >= 2 && 3 > 2 && 1 <= 1 && 1 != 2 && 2 == 2"), Ok(1));
        assert_eq!(eval("-8 >> 1"), Ok(-4));
        assert_eq!(eval("1, 2"), Ok(2));
        assert_eq!(eval("unknown_identifier + true"), Ok(1));
    }

    #[test]
    fn literals() {
        assert_eq!(eval("201703L"), Ok(201703));
        assert_eq!(eval("0x10 + 010 + 0b11"), Ok(27));
        assert_eq!(eval("1'000'000"), Ok(1_000_000));
        assert_eq!(eval("18446744073709551615ULL == -1"), Ok(1));
        assert_eq!(eval("'a'"), Ok(97));
        assert_eq!(eval("'\\n'"), Ok(10));
        assert_eq!(eval("'\\377'"), Ok(-1));
        assert_eq!(eval("'\\x41'"), Ok(65));
        assert_eq!(eval("'ab'"), Ok(0x6162));
        assert_eq!(eval("L'a'"), Ok(97));
    }

    #[test]
    fn errors() {
        assert!(eval("1 +").is_err());
        assert!(eval("(1").is_err());
        assert!(eval("1 2").is_err());
        assert!(eval("1/0").is_err());
        assert!(eval("1.0").unwrap_err().contains("floating"));
        assert!(eval("12abc").unwrap_err().contains("suffix"));
        assert!(eval("09").is_err());
        assert!(eval("99999999999999999999").is_err());
        assert!(eval("\"s\"").is_err());
        assert!(eval("''").is_err());
        assert!(eval("1 ? 2").is_err());
        let deep = format!("{}1{}", "(".repeat(10_000), ")".repeat(10_000));
        assert!(eval(&deep).is_err());
        let unary = format!("{}1", "-".repeat(10_000));
        assert!(eval(&unary).is_err());
    }
}
