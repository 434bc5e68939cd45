//! Pure expressions over thread-local values, parameters and thread builtins.

use crate::{ScalarTy, VarId};
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Dim {
    X,
    Y,
    Z,
}

impl Dim {
    pub const ALL: [Dim; 3] = [Dim::X, Dim::Y, Dim::Z];

    pub fn name(self) -> &'static str {
        match self {
            Dim::X => "x",
            Dim::Y => "y",
            Dim::Z => "z",
        }
    }
}

/// Values that identify a thread or describe the launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Builtin {
    ThreadIdx(Dim),
    BlockIdx(Dim),
    BlockDim(Dim),
    GridDim(Dim),
    /// `warpSize`, 32 on every CUDA device.
    WarpSize,
}

impl Builtin {
    pub fn name(self) -> String {
        match self {
            Builtin::ThreadIdx(d) => format!("threadIdx.{}", d.name()),
            Builtin::BlockIdx(d) => format!("blockIdx.{}", d.name()),
            Builtin::BlockDim(d) => format!("blockDim.{}", d.name()),
            Builtin::GridDim(d) => format!("gridDim.{}", d.name()),
            Builtin::WarpSize => "warpSize".to_string(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum Const {
    Bool(bool),
    /// An integer, already wrapped to its type's range.
    Int(i128),
    Float(f64),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum UnOp {
    /// Arithmetic negation.
    Neg,
    /// Logical not (on `Bool`).
    Not,
    /// Bitwise complement.
    BitNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    /// Logical and on `Bool` (no short circuit needed: expressions are pure).
    And,
    Or,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl BinOp {
    pub const ALL: [BinOp; 18] = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Div,
        BinOp::Rem,
        BinOp::Shl,
        BinOp::Shr,
        BinOp::BitAnd,
        BinOp::BitOr,
        BinOp::BitXor,
        BinOp::And,
        BinOp::Or,
        BinOp::Eq,
        BinOp::Ne,
        BinOp::Lt,
        BinOp::Le,
        BinOp::Gt,
        BinOp::Ge,
    ];

    /// The operator C spells `symbol` (`"<<"`: `Shl`).
    pub fn from_symbol(symbol: &str) -> Option<BinOp> {
        BinOp::ALL.into_iter().find(|op| op.symbol() == symbol)
    }

    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::And => "&&",
            BinOp::Or => "||",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
        }
    }

    /// Comparisons and logical operators yield `Bool`.
    pub fn is_boolean(self) -> bool {
        matches!(
            self,
            BinOp::And
                | BinOp::Or
                | BinOp::Eq
                | BinOp::Ne
                | BinOp::Lt
                | BinOp::Le
                | BinOp::Gt
                | BinOp::Ge
        )
    }

    /// `==`, `!=`, `<`, `<=`, `>`, `>=`.
    pub fn is_comparison(self) -> bool {
        self.is_boolean() && !matches!(self, BinOp::And | BinOp::Or)
    }

    /// Precedence for printing (higher binds tighter), as in C.
    pub fn precedence(self) -> u8 {
        match self {
            BinOp::Mul | BinOp::Div | BinOp::Rem => 10,
            BinOp::Add | BinOp::Sub => 9,
            BinOp::Shl | BinOp::Shr => 8,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 7,
            BinOp::Eq | BinOp::Ne => 6,
            BinOp::BitAnd => 5,
            BinOp::BitXor => 4,
            BinOp::BitOr => 3,
            BinOp::And => 2,
            BinOp::Or => 1,
        }
    }
}

/// A pure expression.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Expr {
    Const(Const, ScalarTy),
    Var(VarId),
    Builtin(Builtin),
    Unary(UnOp, ScalarTy, Box<Expr>),
    /// `ty` is the type of both operands.
    Binary(BinOp, ScalarTy, Box<Expr>, Box<Expr>),
    Select(Box<Expr>, Box<Expr>, Box<Expr>),
    Cast(ScalarTy, Box<Expr>),
    /// A pure function the engines treat as uninterpreted (math library).
    Call(String, ScalarTy, Vec<Expr>),
}

impl Expr {
    pub fn int(value: i128, ty: ScalarTy) -> Expr {
        Expr::Const(Const::Int(value), ty)
    }

    pub fn bool(value: bool) -> Expr {
        Expr::Const(Const::Bool(value), ScalarTy::Bool)
    }

    pub fn binary(op: BinOp, ty: ScalarTy, lhs: Expr, rhs: Expr) -> Expr {
        Expr::Binary(op, ty, Box::new(lhs), Box::new(rhs))
    }

    /// Logical negation, folding constants and double negation.
    pub fn negate(e: Expr) -> Expr {
        match e {
            Expr::Const(Const::Bool(b), _) => Expr::bool(!b),
            Expr::Unary(UnOp::Not, _, inner) => *inner,
            // Integer comparisons flip (not floats: NaN compares false both ways).
            Expr::Binary(op, ty, a, b) if !ty.is_float() && op.is_comparison() => {
                let flipped = match op {
                    BinOp::Eq => BinOp::Ne,
                    BinOp::Ne => BinOp::Eq,
                    BinOp::Lt => BinOp::Ge,
                    BinOp::Le => BinOp::Gt,
                    BinOp::Gt => BinOp::Le,
                    _ => BinOp::Lt,
                };
                Expr::Binary(flipped, ty, a, b)
            }
            e => Expr::Unary(UnOp::Not, ScalarTy::Bool, Box::new(e)),
        }
    }

    pub fn as_const_int(&self) -> Option<i128> {
        match self {
            Expr::Const(Const::Int(v), _) => Some(*v),
            Expr::Const(Const::Bool(b), _) => Some(i128::from(*b)),
            _ => None,
        }
    }

    /// Calls `f` on this expression and every subexpression, parents first.
    pub fn walk(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        match self {
            Expr::Const(..) | Expr::Var(_) | Expr::Builtin(_) => {}
            Expr::Unary(_, _, e) | Expr::Cast(_, e) => e.walk(f),
            Expr::Binary(_, _, a, b) => {
                a.walk(f);
                b.walk(f);
            }
            Expr::Select(c, a, b) => {
                c.walk(f);
                a.walk(f);
                b.walk(f);
            }
            Expr::Call(_, _, args) => args.iter().for_each(|a| a.walk(f)),
        }
    }

    /// The expression with each variable `f` maps replaced by what it
    /// maps to (the others kept).
    pub fn map_vars(self, f: &dyn Fn(VarId) -> Option<Expr>) -> Expr {
        let sub = |x: Box<Expr>| Box::new(x.map_vars(f));
        match self {
            Expr::Var(v) => f(v).unwrap_or(Expr::Var(v)),
            Expr::Unary(op, ty, a) => Expr::Unary(op, ty, sub(a)),
            Expr::Binary(op, ty, a, b) => Expr::Binary(op, ty, sub(a), sub(b)),
            Expr::Select(c, a, b) => Expr::Select(sub(c), sub(a), sub(b)),
            Expr::Cast(ty, a) => Expr::Cast(ty, sub(a)),
            Expr::Call(name, ty, args) => {
                Expr::Call(name, ty, args.into_iter().map(|a| a.map_vars(f)).collect())
            }
            e @ (Expr::Const(..) | Expr::Builtin(_)) => e,
        }
    }

    /// Every variable the expression reads.
    pub fn vars(&self) -> Vec<VarId> {
        let mut out = Vec::new();
        self.walk(&mut |e| {
            if let Expr::Var(v) = e {
                out.push(*v);
            }
        });
        out
    }
}

/// The function `Expr::Call` names for the exponent that C's
/// `frexp(x, &e)` stores (the mantissa is `frexp`).
pub const FREXP_EXPONENT: &str = "frexp.exponent";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negation_flips_integer_comparisons_only() {
        let v = || Box::new(Expr::Var(VarId(0)));
        let lt = |ty| Expr::Binary(BinOp::Lt, ty, v(), v());
        assert_eq!(
            Expr::negate(lt(ScalarTy::I32)),
            Expr::Binary(BinOp::Ge, ScalarTy::I32, v(), v())
        );
        // !(a < b) is not a >= b when a or b is NaN.
        assert!(matches!(
            Expr::negate(lt(ScalarTy::F32)),
            Expr::Unary(UnOp::Not, _, _)
        ));
        assert_eq!(
            Expr::negate(Expr::negate(Expr::Var(VarId(1)))),
            Expr::Var(VarId(1))
        );
        assert_eq!(Expr::negate(Expr::bool(true)), Expr::bool(false));
    }
}
