//! Argument substitution for one macro invocation: `#` stringification,
//! `##` pasting (with placemarkers), `__VA_ARGS__`, `__VA_OPT__` and the GNU
//! `, ## __VA_ARGS__` comma elision.
//!
//! Invariants:
//! - Pure: it never looks at the macro table. Arguments arrive raw and, for
//!   parameters that `needs_expansion` marks, already fully macro-expanded.
//! - The result never contains placemarkers.
//! - An invalid paste keeps both tokens and reports an error string.

use crate::lexer::lex_single;
use crate::macros::Macro;
use crate::token::{quote_string, Kind, Tok};

pub(crate) struct Substituted {
    pub tokens: Vec<Tok>,
    pub errors: Vec<String>,
    /// Bytes of new spellings made by `#` and `##` (counted as work, so that
    /// doubling tricks cannot exhaust memory).
    pub bytes: usize,
    /// The substitution stopped at `budget` tokens: the expansion is too
    /// large (`tokens` is cut there).
    pub too_large: bool,
}

/// Which parameters appear outside `#`/`##` (their arguments must be
/// macro-expanded before substitution).
pub(crate) fn needs_expansion(m: &Macro) -> Vec<bool> {
    let n = m.params().len();
    if m.body.iter().any(|t| t.is_ident("__VA_OPT__")) {
        return vec![true; n];
    }
    let mut need = vec![false; n];
    for (i, p) in m.body_params.iter().enumerate() {
        let Some(p) = *p else { continue };
        let prev = i.checked_sub(1).and_then(|k| m.body.get(k));
        let operand = prev.is_some_and(|t| t.is_punct("#") || t.is_punct("##"))
            || m.body.get(i + 1).is_some_and(|t| t.is_punct("##"));
        if !operand {
            if let Some(x) = need.get_mut(p) {
                *x = true;
            }
        }
    }
    need
}

fn placemarker(at: &Tok) -> Tok {
    Tok::synthetic(Kind::Placemarker, "", at.origin, at.space)
}

fn stringify(arg: &[Tok], hash: &Tok) -> Tok {
    let mut s = String::from("\"");
    let mut first = true;
    for t in arg.iter().filter(|t| t.kind != Kind::Placemarker) {
        if !first && t.space {
            s.push(' ');
        }
        first = false;
        if matches!(t.kind, Kind::Str | Kind::Char) {
            let quoted = quote_string(&t.text);
            s.push_str(quoted.get(1..quoted.len() - 1).unwrap_or(""));
        } else {
            s.push_str(&t.text);
        }
    }
    s.push('"');
    Tok::synthetic(Kind::Str, &s, hash.origin, hash.space)
}

fn paste(lhs: Tok, rhs: &Tok, errors: &mut Vec<String>) -> Vec<Tok> {
    if lhs.kind == Kind::Placemarker {
        let mut r = rhs.clone();
        r.space = lhs.space;
        return vec![r];
    }
    if rhs.kind == Kind::Placemarker {
        return vec![lhs];
    }
    let joined = format!("{}{}", lhs.text, rhs.text);
    match lex_single(&joined) {
        Some(kind) => {
            vec![Tok::synthetic(kind, &joined, lhs.origin, lhs.space)]
        }
        None => {
            errors.push(format!(
                "pasting \"{}\" and \"{}\" does not give a valid preprocessing token",
                lhs.text, rhs.text
            ));
            let mut r = rhs.clone();
            r.space = false;
            vec![lhs, r]
        }
    }
}

/// The body with `__VA_OPT__(...)` replaced by its content or a placemarker.
fn apply_va_opt(
    m: &Macro,
    raw: &[Vec<Tok>],
    errors: &mut Vec<String>,
) -> (Vec<Tok>, Vec<Option<usize>>) {
    let va = m.params().len().saturating_sub(1);
    let present = raw.get(va).is_some_and(|a| !a.is_empty());
    let mut body = Vec::with_capacity(m.body.len());
    let mut params = Vec::with_capacity(m.body.len());
    let mut i = 0;
    while let Some(t) = m.body.get(i) {
        if t.is_ident("__VA_OPT__") && m.body.get(i + 1).is_some_and(|n| n.is_punct("(")) {
            let mut depth = 0usize;
            let mut close = None;
            for (j, u) in m.body.iter().enumerate().skip(i + 1) {
                if u.is_punct("(") {
                    depth += 1;
                } else if u.is_punct(")") {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(j);
                        break;
                    }
                }
            }
            if let Some(c) = close {
                if present {
                    let start = body.len();
                    for k in i + 2..c {
                        if let Some(u) = m.body.get(k) {
                            body.push(u.clone());
                            params.push(m.body_params.get(k).copied().flatten());
                        }
                    }
                    if let Some(f) = body.get_mut(start) {
                        f.space = t.space;
                    }
                } else {
                    body.push(placemarker(t));
                    params.push(None);
                }
                i = c + 1;
                continue;
            }
            errors.push("unterminated __VA_OPT__".into());
        }
        body.push(t.clone());
        params.push(m.body_params.get(i).copied().flatten());
        i += 1;
    }
    (body, params)
}

/// Substitute `raw` (and `expanded`) arguments into the body of `m`, making
/// at most `budget` tokens (a body that copies a large argument many times,
/// `A(A(A(...)))` with `#define A(x) x x x x`, would otherwise allocate
/// without bound before the caller's work limit is checked).
pub(crate) fn substitute(
    m: &Macro,
    raw: &[Vec<Tok>],
    expanded: &[Vec<Tok>],
    budget: usize,
) -> Substituted {
    let mut errors = Vec::new();
    let owned;
    let (body, params): (&[Tok], &[Option<usize>]) =
        if m.variadic() && m.body.iter().any(|t| t.is_ident("__VA_OPT__")) {
            owned = apply_va_opt(m, raw, &mut errors);
            (&owned.0, &owned.1)
        } else {
            (&m.body, &m.body_params)
        };
    let function_like = m.is_function_like();
    let va_index = if m.variadic() {
        m.params().len().checked_sub(1)
    } else {
        None
    };
    let raw_arg = |p: usize| raw.get(p).map_or(&[][..], Vec::as_slice);
    let exp_arg = |p: usize| expanded.get(p).map_or(&[][..], Vec::as_slice);
    let param_at = |k: usize| params.get(k).copied().flatten();

    let mut out: Vec<Tok> = Vec::with_capacity(body.len());
    let mut bytes = 0usize;
    let mut i = 0;
    let mut too_large = false;
    while let Some(t) = body.get(i) {
        if out.len() > budget {
            too_large = true;
            out.truncate(budget);
            break;
        }
        if function_like && t.is_punct("#") {
            if let Some(p) = param_at(i + 1) {
                out.push(stringify(raw_arg(p), t));
                bytes += out.last().map_or(0, |s| s.text.len());
                i += 2;
                continue;
            }
        }
        if t.is_punct("##") && !out.is_empty() {
            if let Some(next) = body.get(i + 1) {
                let next_param = param_at(i + 1);
                if next_param.is_some()
                    && next_param == va_index
                    && out.last().is_some_and(|l| l.is_punct(","))
                {
                    // GNU: `, ## __VA_ARGS__` drops the comma when there are
                    // no variable arguments.
                    let arg = raw_arg(next_param.unwrap_or(0));
                    if arg.is_empty() {
                        out.pop();
                    } else {
                        let start = out.len();
                        out.extend(arg.iter().cloned());
                        if let Some(f) = out.get_mut(start) {
                            f.space = next.space;
                        }
                    }
                    i += 2;
                    continue;
                }
                let (rhs, adv): (Vec<Tok>, usize) = match (next_param, param_at(i + 2)) {
                    (None, Some(q)) if function_like && next.is_punct("#") => {
                        let s = stringify(raw_arg(q), next);
                        bytes += s.text.len();
                        (vec![s], 3)
                    }
                    (Some(p), _) => (raw_arg(p).to_vec(), 2),
                    _ => (vec![next.clone()], 2),
                };
                if let Some(lhs) = out.pop() {
                    match rhs.split_first() {
                        None => out.push(lhs),
                        Some((first, rest)) => {
                            bytes += lhs.text.len() + first.text.len();
                            out.extend(paste(lhs, first, &mut errors));
                            out.extend(rest.iter().cloned());
                        }
                    }
                }
                i += adv;
                continue;
            }
        }
        if let Some(p) = param_at(i) {
            let before_paste = body.get(i + 1).is_some_and(|n| n.is_punct("##"));
            let src = if before_paste { raw_arg(p) } else { exp_arg(p) };
            if out.len().saturating_add(src.len()) > budget {
                too_large = true;
                break;
            }
            if src.is_empty() {
                out.push(placemarker(t));
            } else {
                let start = out.len();
                out.extend(src.iter().cloned());
                if let Some(f) = out.get_mut(start) {
                    f.space = t.space;
                }
            }
            i += 1;
            continue;
        }
        out.push(t.clone());
        i += 1;
    }
    out.retain(|t| t.kind != Kind::Placemarker);
    Substituted {
        tokens: out,
        errors,
        bytes,
        too_large,
    }
}
