//! Macro definitions: the table entry type and parsing of `#define` lines.
//!
//! Invariants:
//! - `body_params[i]` is `Some(k)` exactly when `body[i]` names parameter `k`
//!   of a function-like macro (`__VA_ARGS__` names the `...` parameter).
//! - A parsed body never starts or ends with `##`, and in a function-like
//!   macro every `#` is followed by a parameter.
//! - `disabled` counts the expansion contexts of this macro currently on the
//!   expander's stack (the "painted blue" rule).

use crate::token::{Kind, Tok};
use std::cell::Cell;
use std::rc::Rc;
use warpsafe_source::Span;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum MacroKind {
    Object,
    Function {
        params: Vec<Rc<str>>,
        variadic: bool,
    },
    /// `__LINE__`
    Line,
    /// `__FILE__`
    File,
    /// `__BASE_FILE__`
    BaseFile,
    /// `__COUNTER__`
    Counter,
    /// `__INCLUDE_LEVEL__`
    IncludeLevel,
}

#[derive(Debug)]
pub(crate) struct Macro {
    pub name: Rc<str>,
    pub kind: MacroKind,
    pub body: Vec<Tok>,
    pub body_params: Vec<Option<usize>>,
    /// Where the macro was defined (`None` for predefined and `-D` macros).
    pub def: Option<Span>,
    pub disabled: Cell<u32>,
}

impl Macro {
    pub fn new(name: Rc<str>, kind: MacroKind, body: Vec<Tok>, def: Option<Span>) -> Macro {
        let body_params = match &kind {
            MacroKind::Function { params, .. } => body
                .iter()
                .map(|t| {
                    if t.kind == Kind::Ident {
                        params.iter().position(|p| **p == *t.text)
                    } else {
                        None
                    }
                })
                .collect(),
            _ => vec![None; body.len()],
        };
        Macro {
            name,
            kind,
            body,
            body_params,
            def,
            disabled: Cell::new(0),
        }
    }

    pub fn builtin(name: &str, kind: MacroKind) -> Macro {
        Macro::new(Rc::from(name), kind, Vec::new(), None)
    }

    pub fn is_function_like(&self) -> bool {
        matches!(self.kind, MacroKind::Function { .. })
    }

    pub fn is_dynamic(&self) -> bool {
        !matches!(self.kind, MacroKind::Object | MacroKind::Function { .. })
    }

    pub fn params(&self) -> &[Rc<str>] {
        match &self.kind {
            MacroKind::Function { params, .. } => params,
            _ => &[],
        }
    }

    pub fn variadic(&self) -> bool {
        matches!(self.kind, MacroKind::Function { variadic: true, .. })
    }

    /// Whether `other` is the same definition (redefinition is then allowed).
    pub fn same_definition(&self, other: &Macro) -> bool {
        self.kind == other.kind
            && self.body.len() == other.body.len()
            && self
                .body
                .iter()
                .zip(&other.body)
                .enumerate()
                .all(|(i, (a, b))| {
                    a.kind == b.kind && a.text == b.text && (i == 0 || a.space == b.space)
                })
    }

    /// The body spelled with single spaces.
    pub fn body_text(&self) -> String {
        let mut s = String::new();
        for (i, t) in self.body.iter().enumerate() {
            if i > 0 && t.space {
                s.push(' ');
            }
            s.push_str(&t.text);
        }
        s
    }
}

pub(crate) type DefineError = (String, Option<Span>);

/// Parse the tokens after `#define` (the first one is the name).
pub(crate) fn parse_define(toks: &[Tok], def: Option<Span>) -> Result<Macro, DefineError> {
    let Some(name) = toks.first() else {
        return Err(("no macro name given in #define directive".into(), None));
    };
    if name.kind != Kind::Ident {
        return Err(("macro names must be identifiers".into(), Some(name.span())));
    }
    if &*name.text == "defined" {
        return Err((
            "\"defined\" cannot be used as a macro name".into(),
            Some(name.span()),
        ));
    }
    let mut i = 1;
    let mut kind = MacroKind::Object;
    if toks.get(1).is_some_and(|t| t.is_punct("(") && !t.space) {
        let (params, variadic, next) = parse_params(toks, name)?;
        kind = MacroKind::Function { params, variadic };
        i = next;
    }
    let mut body: Vec<Tok> = toks.get(i..).unwrap_or(&[]).to_vec();
    for t in &mut body {
        t.bol = false;
        t.noexpand = false;
    }
    if let Some(first) = body.first_mut() {
        first.space = false;
    }
    let paste_at_end = body.first().is_some_and(|t| t.is_punct("##"))
        || body.last().is_some_and(|t| t.is_punct("##"));
    if paste_at_end {
        return Err((
            "'##' cannot appear at either end of a macro expansion".into(),
            Some(name.span()),
        ));
    }
    let m = Macro::new(Rc::clone(&name.text), kind, body, def);
    if m.is_function_like() {
        for (k, t) in m.body.iter().enumerate() {
            if t.is_punct("#") && m.body_params.get(k + 1).copied().flatten().is_none() {
                return Err((
                    "'#' is not followed by a macro parameter".into(),
                    Some(t.span()),
                ));
            }
        }
    }
    Ok(m)
}

/// Parse `( params )` starting at `toks[1]`; returns the index after `)`.
fn parse_params(toks: &[Tok], name: &Tok) -> Result<(Vec<Rc<str>>, bool, usize), DefineError> {
    let missing = || {
        (
            "missing ')' in macro parameter list".to_string(),
            Some(name.span()),
        )
    };
    let mut params: Vec<Rc<str>> = Vec::new();
    let mut variadic = false;
    let mut i = 2;
    if toks.get(i).is_some_and(|t| t.is_punct(")")) {
        return Ok((params, false, i + 1));
    }
    loop {
        let t = toks.get(i).ok_or_else(missing)?;
        if t.is_punct("...") {
            variadic = true;
            params.push(Rc::from("__VA_ARGS__"));
            i += 1;
        } else if t.kind == Kind::Ident {
            if &*t.text == "__VA_ARGS__" {
                return Err((
                    "__VA_ARGS__ can not be used as a parameter name".into(),
                    Some(t.span()),
                ));
            }
            if params.contains(&t.text) {
                return Err((
                    format!("duplicate macro parameter \"{}\"", t.text),
                    Some(t.span()),
                ));
            }
            params.push(Rc::clone(&t.text));
            i += 1;
            if toks.get(i).is_some_and(|t| t.is_punct("...")) {
                variadic = true;
                i += 1;
            }
        } else {
            return Err((
                format!("expected parameter name, found \"{}\"", t.text),
                Some(t.span()),
            ));
        }
        let t = toks.get(i).ok_or_else(missing)?;
        if t.is_punct(")") {
            return Ok((params, variadic, i + 1));
        }
        if !t.is_punct(",") || variadic {
            return Err((
                format!("expected ',' or ')', found \"{}\"", t.text),
                Some(t.span()),
            ));
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex_str;
    use warpsafe_source::FileId;

    fn define(s: &str) -> Result<Macro, DefineError> {
        parse_define(&lex_str(s, FileId(0)), None)
    }

    #[test]
    fn parses_object_and_function_macros() {
        let m = define("N 42").expect("valid");
        assert_eq!(m.kind, MacroKind::Object);
        assert_eq!(m.body_text(), "42");
        let f = define("F(a, b) a + b").expect("valid");
        assert_eq!(f.params().len(), 2);
        assert_eq!(f.body_params, vec![Some(0), None, Some(1)]);
        let v = define("V(fmt, ...) f(fmt, __VA_ARGS__)").expect("valid");
        assert!(v.variadic());
        assert_eq!(v.body_params[4], Some(1));
        let g = define("G(args...) g(args)").expect("valid");
        assert!(g.variadic());
        let o = define("O (x) x").expect("valid");
        assert_eq!(
            o.kind,
            MacroKind::Object,
            "space before ( makes it object-like"
        );
    }

    #[test]
    fn rejects_bad_definitions() {
        assert!(define("1X 2").is_err());
        assert!(define("F(a, a) a").is_err());
        assert!(define("F(a) # b").is_err());
        assert!(define("F(a) ## a").is_err());
        assert!(define("F(a").is_err());
        assert!(define("defined 1").is_err());
        assert!(define("").is_err());
    }
}
