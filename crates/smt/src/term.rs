//! Building SMT-LIB2 sorts and terms as [`Sexp`]s.
//!
//! A term is a plain [`Sexp`] ([`Term`] is an alias); the functions here only
//! spell SMT-LIB2 syntax and do no sort checking — a badly sorted term is
//! reported by the solver as `SmtError::Solver`. Literals are always
//! printed in a form both z3 and cvc5 accept: negative integers as `(- 5)`,
//! bit-vectors as `(_ bvN W)`.

use std::fmt;

use crate::sexp::Sexp;

/// A term: an s-expression in SMT-LIB2 term syntax.
pub type Term = Sexp;

/// The sorts warpsafe uses.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Sort {
    /// `Bool`.
    Bool,
    /// `Int` (unbounded integers).
    Int,
    /// `(_ BitVec W)`.
    BitVec(u32),
    /// `(Array Index Element)`.
    Array(Box<Sort>, Box<Sort>),
}

impl Sort {
    /// The sort as an s-expression.
    pub fn to_sexp(&self) -> Sexp {
        match self {
            Sort::Bool => Sexp::atom("Bool"),
            Sort::Int => Sexp::atom("Int"),
            Sort::BitVec(w) => Sexp::list([
                Sexp::atom("_"),
                Sexp::atom("BitVec"),
                Sexp::atom(w.to_string()),
            ]),
            Sort::Array(index, elem) => {
                Sexp::list([Sexp::atom("Array"), index.to_sexp(), elem.to_sexp()])
            }
        }
    }
}

impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_sexp().fmt(f)
    }
}

/// `true` or `false`.
pub fn bool(value: bool) -> Term {
    Sexp::atom(if value { "true" } else { "false" })
}

/// An integer literal; negative values are written `(- n)`.
pub fn int(value: i128) -> Term {
    if value < 0 {
        app("-", [Sexp::atom(value.unsigned_abs().to_string())])
    } else {
        Sexp::atom(value.to_string())
    }
}

/// A bit-vector literal of `width` bits holding `value` modulo `2^width`
/// (so `bv(-1i64 as u128, 32)` is all ones), written `(_ bvN W)`.
pub fn bv(value: u128, width: u32) -> Term {
    let value = if width >= 128 {
        value
    } else {
        value & ((1u128 << width) - 1)
    };
    Sexp::list([
        Sexp::atom("_"),
        Sexp::atom(format!("bv{value}")),
        Sexp::atom(width.to_string()),
    ])
}

/// `(op args...)`, or the bare `op` when `args` is empty.
pub fn app(op: &str, args: impl IntoIterator<Item = Term>) -> Term {
    let mut items = vec![Sexp::atom(op)];
    items.extend(args);
    if items.len() == 1 {
        items.pop().expect("invariant: one element")
    } else {
        Sexp::List(items)
    }
}

/// An indexed operator application `((_ op i...) args...)`, e.g. `extract`.
pub fn indexed(op: &str, indices: &[u32], args: impl IntoIterator<Item = Term>) -> Term {
    let mut head = vec![Sexp::atom("_"), Sexp::atom(op)];
    head.extend(indices.iter().map(|i| Sexp::atom(i.to_string())));
    let mut items = vec![Sexp::List(head)];
    items.extend(args);
    Sexp::List(items)
}

/// `(not a)`.
pub fn not(a: Term) -> Term {
    app("not", [a])
}

/// `(and ...)`; `true` when empty, the term itself when single.
pub fn and(terms: impl IntoIterator<Item = Term>) -> Term {
    nary("and", terms, true)
}

/// `(or ...)`; `false` when empty, the term itself when single.
pub fn or(terms: impl IntoIterator<Item = Term>) -> Term {
    nary("or", terms, false)
}

fn nary(op: &str, terms: impl IntoIterator<Item = Term>, empty: bool) -> Term {
    let mut terms: Vec<Term> = terms.into_iter().collect();
    match terms.len() {
        0 => bool(empty),
        1 => terms.pop().expect("invariant: one element"),
        _ => app(op, terms),
    }
}

/// `(=> a b)`.
pub fn implies(a: Term, b: Term) -> Term {
    app("=>", [a, b])
}

/// `(= a b)`.
pub fn eq(a: Term, b: Term) -> Term {
    app("=", [a, b])
}

/// `(distinct ...)`.
pub fn distinct(terms: impl IntoIterator<Item = Term>) -> Term {
    app("distinct", terms)
}

/// `(ite c t e)`.
pub fn ite(c: Term, t: Term, e: Term) -> Term {
    app("ite", [c, t, e])
}

/// `(select array index)`.
pub fn select(array: Term, index: Term) -> Term {
    app("select", [array, index])
}

/// `(store array index value)`.
pub fn store(array: Term, index: Term, value: Term) -> Term {
    app("store", [array, index, value])
}

/// `((_ extract hi lo) a)`.
pub fn extract(hi: u32, lo: u32, a: Term) -> Term {
    indexed("extract", &[hi, lo], [a])
}

/// `((_ zero_extend n) a)`.
pub fn zero_extend(n: u32, a: Term) -> Term {
    indexed("zero_extend", &[n], [a])
}

/// `((_ sign_extend n) a)`.
pub fn sign_extend(n: u32, a: Term) -> Term {
    indexed("sign_extend", &[n], [a])
}

macro_rules! binary_ops {
    ($($name:ident => $op:literal),* $(,)?) => {
        $(
            #[doc = concat!("`(", $op, " a b)`.")]
            pub fn $name(a: Term, b: Term) -> Term {
                app($op, [a, b])
            }
        )*
    };
}

binary_ops! {
    add => "+", sub => "-", mul => "*", div => "div", modulo => "mod",
    lt => "<", le => "<=", gt => ">", ge => ">=",
    bvadd => "bvadd", bvsub => "bvsub", bvmul => "bvmul",
    bvudiv => "bvudiv", bvurem => "bvurem", bvsdiv => "bvsdiv", bvsrem => "bvsrem",
    bvand => "bvand", bvor => "bvor", bvxor => "bvxor",
    bvshl => "bvshl", bvlshr => "bvlshr", bvashr => "bvashr",
    bvult => "bvult", bvule => "bvule", bvugt => "bvugt", bvuge => "bvuge",
    bvslt => "bvslt", bvsle => "bvsle", bvsgt => "bvsgt", bvsge => "bvsge",
    concat => "concat",
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals() {
        assert_eq!(int(5).to_string(), "5");
        assert_eq!(int(-5).to_string(), "(- 5)");
        assert_eq!(int(i128::MIN).to_string(), format!("(- {})", 1u128 << 127));
        assert_eq!(bv(15, 8).to_string(), "(_ bv15 8)");
        assert_eq!(bv(-1i64 as u128, 32).to_string(), "(_ bv4294967295 32)");
        assert_eq!(
            bv(u128::MAX, 128).to_string(),
            format!("(_ bv{} 128)", u128::MAX)
        );
        assert_eq!(bool(true).to_string(), "true");
    }

    #[test]
    fn sorts_and_applications() {
        let arr = Sort::Array(Box::new(Sort::BitVec(32)), Box::new(Sort::Int));
        assert_eq!(arr.to_string(), "(Array (_ BitVec 32) Int)");
        let x = Sexp::atom("x");
        assert_eq!(
            and([lt(x.clone(), int(3)), not(eq(x.clone(), int(-1)))]).to_string(),
            "(and (< x 3) (not (= x (- 1))))"
        );
        assert_eq!(and([]).to_string(), "true");
        assert_eq!(or([x.clone()]).to_string(), "x");
        assert_eq!(extract(7, 0, x.clone()).to_string(), "((_ extract 7 0) x)");
        assert_eq!(app("f", []).to_string(), "f");
    }
}
