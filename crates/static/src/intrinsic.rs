//! CUDA's integer intrinsics with their exact bit-vector meaning, so that
//! an index or a condition built from them (`__popc(mask)`, `__ffs(bits)
//! - 1`, `__umulhi(i, m)`) is as precise as one built from `+` and `*`.
//!
//! Each [`Intrinsic`] names its argument and result types as the CUDA Math
//! API declares them; [`Sym::Intrinsic`](crate::Sym) holds the arguments
//! already converted to those types, and [`encode`] gives the SMT term.
//! The meaning is the interpreter's (`warpsafe_interp::math`), which a
//! property test checks on random values.
//!
//! Invariant: `encode` gets exactly `args().len()` terms of the sorts of
//! `args()`.

use warpsafe_ir::ScalarTy::{self, I32, I64, U32, U64};
use warpsafe_smt::{term, Sexp, Term};

/// An integer intrinsic with an exact encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Intrinsic {
    Popc,
    Popcll,
    Clz,
    Clzll,
    Ffs,
    Ffsll,
    Brev,
    Brevll,
    Sad,
    Usad,
    Mulhi,
    Umulhi,
    Mul64hi,
    Umul64hi,
    Hadd,
    Rhadd,
    Uhadd,
    Urhadd,
}

use Intrinsic::*;

impl Intrinsic {
    /// Every intrinsic, for tests.
    pub const ALL: [Intrinsic; 18] = [
        Popc, Popcll, Clz, Clzll, Ffs, Ffsll, Brev, Brevll, Sad, Usad, Mulhi, Umulhi, Mul64hi,
        Umul64hi, Hadd, Rhadd, Uhadd, Urhadd,
    ];

    /// The intrinsic called `name`.
    pub fn from_name(name: &str) -> Option<Intrinsic> {
        Intrinsic::ALL.into_iter().find(|i| i.name() == name)
    }

    pub fn name(self) -> &'static str {
        match self {
            Popc => "__popc",
            Popcll => "__popcll",
            Clz => "__clz",
            Clzll => "__clzll",
            Ffs => "__ffs",
            Ffsll => "__ffsll",
            Brev => "__brev",
            Brevll => "__brevll",
            Sad => "__sad",
            Usad => "__usad",
            Mulhi => "__mulhi",
            Umulhi => "__umulhi",
            Mul64hi => "__mul64hi",
            Umul64hi => "__umul64hi",
            Hadd => "__hadd",
            Rhadd => "__rhadd",
            Uhadd => "__uhadd",
            Urhadd => "__urhadd",
        }
    }

    /// The parameter types (arguments are converted to them, as C does).
    pub fn args(self) -> &'static [ScalarTy] {
        match self {
            Popc | Clz | Brev => &[U32],
            Ffs => &[I32],
            Popcll | Clzll | Brevll => &[U64],
            Ffsll => &[I64],
            Sad => &[I32, I32, U32],
            Usad => &[U32, U32, U32],
            Mulhi | Hadd | Rhadd => &[I32, I32],
            Umulhi | Uhadd | Urhadd => &[U32, U32],
            Mul64hi => &[I64, I64],
            Umul64hi => &[U64, U64],
        }
    }

    /// The result type.
    pub fn result(self) -> ScalarTy {
        match self {
            Popc | Popcll | Clz | Clzll | Ffs | Ffsll | Mulhi | Hadd | Rhadd => I32,
            Brev | Sad | Usad | Umulhi | Uhadd | Urhadd => U32,
            Brevll | Umul64hi => U64,
            Mul64hi => I64,
        }
    }
}

/// `i(args)` as a term of sort `i.result()`.
pub fn encode(i: Intrinsic, args: &[Term]) -> Term {
    let arg = |k: usize| args[k].clone();
    let width = |k: usize| i.args()[k].bits();
    let bit = |t: &Term, b: u32| term::eq(term::extract(b, b, t.clone()), term::bv(1, 1));
    let int = |v: u32| term::bv(u128::from(v), 32);
    match i {
        // The sum of the bits, each zero-extended to 32.
        Popc | Popcll => {
            let x = arg(0);
            let bits = (0..width(0)).map(|b| term::zero_extend(31, term::extract(b, b, x.clone())));
            bits.reduce(term::bvadd)
                .expect("invariant: a non-empty width")
        }
        // The first set bit from the top decides.
        Clz | Clzll => {
            let (x, w) = (arg(0), width(0));
            (0..w).fold(int(w), |rest, b| {
                term::ite(bit(&x, b), int(w - 1 - b), rest)
            })
        }
        // The lowest set bit, counted from 1; 0 when none is.
        Ffs | Ffsll => {
            let (x, w) = (arg(0), width(0));
            (0..w)
                .rev()
                .fold(int(0), |rest, b| term::ite(bit(&x, b), int(b + 1), rest))
        }
        Brev | Brevll => {
            let x = arg(0);
            let bits = (0..width(0)).map(|b| term::extract(b, b, x.clone()));
            Sexp::list(std::iter::once(Sexp::atom("concat")).chain(bits))
        }
        // |a - b| + c, the difference taken exactly (mod 2^32 it is the
        // wrapped difference either way round).
        Sad | Usad => {
            let (a, b, c) = (arg(0), arg(1), arg(2));
            let greater = if i == Sad {
                term::bvsgt(a.clone(), b.clone())
            } else {
                term::bvugt(a.clone(), b.clone())
            };
            let d = term::ite(
                greater,
                term::bvsub(a.clone(), b.clone()),
                term::bvsub(b, a),
            );
            term::bvadd(d, c)
        }
        // The high half of the double-width product.
        Mulhi | Umulhi | Mul64hi | Umul64hi => {
            let w = width(0);
            let extend = |t: Term| {
                if matches!(i, Mulhi | Mul64hi) {
                    term::sign_extend(w, t)
                } else {
                    term::zero_extend(w, t)
                }
            };
            let product = term::bvmul(extend(arg(0)), extend(arg(1)));
            term::extract(2 * w - 1, w, product)
        }
        // (a + b [+ 1]) >> 1 without intermediate overflow.
        Hadd | Rhadd | Uhadd | Urhadd => {
            let signed = matches!(i, Hadd | Rhadd);
            let extend = |t: Term| {
                if signed {
                    term::sign_extend(1, t)
                } else {
                    term::zero_extend(1, t)
                }
            };
            let mut sum = term::bvadd(extend(arg(0)), extend(arg(1)));
            if matches!(i, Rhadd | Urhadd) {
                sum = term::bvadd(sum, term::bv(1, 33));
            }
            let shifted = if signed {
                term::bvashr(sum, term::bv(1, 33))
            } else {
                term::bvlshr(sum, term::bv(1, 33))
            };
            term::extract(31, 0, shifted)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use warpsafe_interp::Value;

    fn value(ty: ScalarTy, bits: u64) -> Value {
        Value::from_bits(ty, bits)
    }

    /// Arguments with many edge cases: zero, all ones, single bits, the
    /// signed extremes.
    fn bits() -> impl Strategy<Value = u64> {
        prop_oneof![
            any::<u64>(),
            Just(0u64),
            Just(u64::MAX),
            (0u32..64).prop_map(|b| 1u64 << b),
            Just(0x8000_0000u64),
            Just(0x7fff_ffffu64),
            Just(i64::MIN as u64),
            0u64..64,
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// Every intrinsic's encoding, evaluated by z3 on literals, equals
        /// the interpreter's value.
        #[test]
        fn encodings_match_the_interpreter(
            which in 0usize..Intrinsic::ALL.len(),
            a in bits(), b in bits(), c in bits(),
        ) {
            if warpsafe_smt::locate(warpsafe_smt::SolverKind::Z3, None).is_err() {
                return Ok(());
            }
            let i = Intrinsic::ALL[which];
            let raw = [a, b, c];
            let values: Vec<Value> = i
                .args()
                .iter()
                .zip(raw)
                .map(|(ty, v)| value(*ty, v))
                .collect();
            let expected = warpsafe_interp::math::call(
                i.name(),
                i.result(),
                &values,
                warpsafe_interp::EvalOptions::default(),
            )
            .expect("the interpreter knows every intrinsic");
            let terms: Vec<Term> = values
                .iter()
                .map(|v| term::bv(u128::from(v.to_bits()), v.ty().bits()))
                .collect();
            let bits = i.result().bits();
            let want = term::bv(u128::from(expected.to_bits()), bits);
            let mut solver = warpsafe_smt::Solver::start(warpsafe_smt::SolverConfig::z3())
                .expect("z3 starts");
            solver.assert(&term::eq(encode(i, &terms), want)).expect("asserted");
            let equal = solver.check().expect("z3 answers") == warpsafe_smt::CheckResult::Sat;
            prop_assert!(equal, "{} {:?} -> {:?}", i.name(), values, expected);
        }
    }
}
