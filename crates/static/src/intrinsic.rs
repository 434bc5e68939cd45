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
    BytePerm,
    FunnelshiftL,
    FunnelshiftLc,
    FunnelshiftR,
    FunnelshiftRc,
}

use Intrinsic::*;

impl Intrinsic {
    /// Every intrinsic, for tests.
    pub const ALL: [Intrinsic; 23] = [
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
        BytePerm,
        FunnelshiftL,
        FunnelshiftLc,
        FunnelshiftR,
        FunnelshiftRc,
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
            BytePerm => "__byte_perm",
            FunnelshiftL => "__funnelshift_l",
            FunnelshiftLc => "__funnelshift_lc",
            FunnelshiftR => "__funnelshift_r",
            FunnelshiftRc => "__funnelshift_rc",
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
            Usad | BytePerm | FunnelshiftL | FunnelshiftLc | FunnelshiftR | FunnelshiftRc => {
                &[U32, U32, U32]
            }
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
            Brev | Sad | Usad | Umulhi | Uhadd | Urhadd | BytePerm | FunnelshiftL
            | FunnelshiftLc | FunnelshiftR | FunnelshiftRc => U32,
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
        // Byte `n` is byte `(s >> 4n) & 7` of `y:x`: a choice among the
        // eight bytes on the selector's three bits.
        BytePerm => {
            let pool = term::concat(arg(1), arg(0));
            let s = arg(2);
            let byte = |n: u32| {
                let sel = term::extract(4 * n + 2, 4 * n, s.clone());
                (0..7u32)
                    .rev()
                    .fold(term::extract(63, 56, pool.clone()), |rest, k| {
                        term::ite(
                            term::eq(sel.clone(), term::bv(u128::from(k), 3)),
                            term::extract(8 * k + 7, 8 * k, pool.clone()),
                            rest,
                        )
                    })
            };
            Sexp::list(std::iter::once(Sexp::atom("concat")).chain((0..4).rev().map(byte)))
        }
        // `hi:lo` shifted as 64 bits by `shift & 31` (`c`: `min(shift, 32)`).
        FunnelshiftL | FunnelshiftLc | FunnelshiftR | FunnelshiftRc => {
            let pool = term::concat(arg(1), arg(0));
            let s = arg(2);
            let amount = if matches!(i, FunnelshiftLc | FunnelshiftRc) {
                term::ite(term::bvugt(s.clone(), int(32)), int(32), s)
            } else {
                term::bvand(s, int(31))
            };
            let amount = term::zero_extend(32, amount);
            if matches!(i, FunnelshiftL | FunnelshiftLc) {
                term::extract(63, 32, term::bvshl(pool, amount))
            } else {
                term::extract(31, 0, term::bvlshr(pool, amount))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpsafe_interp::Value;
    use warpsafe_smt::{CheckResult, Solver, SolverConfig};

    /// Random inputs per intrinsic.
    const INPUTS: usize = 10_000;
    /// Inputs asserted in one query.
    const BATCH: usize = 2_000;

    /// A deterministic stream of arguments, one in four an edge case
    /// (zero, all ones, a single bit, a signed extreme, a small number).
    struct Args(u64);

    impl Args {
        fn next_raw(&mut self) -> u64 {
            // splitmix64
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }

        fn next(&mut self) -> u64 {
            let r = self.next_raw();
            match r % 16 {
                0 => 0,
                1 => u64::MAX,
                2 => 1 << (self.next_raw() % 64),
                3 => [0x8000_0000, 0x7fff_ffff, i64::MIN as u64, i64::MAX as u64]
                    [(self.next_raw() % 4) as usize],
                4 => self.next_raw() % 70,
                _ => self.next_raw(),
            }
        }
    }

    fn literal(v: &Value) -> Term {
        term::bv(u128::from(v.to_bits()), v.ty().bits())
    }

    /// Every intrinsic's encoding, applied by z3 to literals, equals the
    /// interpreter's value on `INPUTS` arguments each.
    #[test]
    fn encodings_match_the_interpreter() {
        if warpsafe_smt::locate(warpsafe_smt::SolverKind::Z3, None).is_err() {
            eprintln!("skipped: no z3");
            return;
        }
        let mut args = Args(0x5eed);
        let mut solver = Solver::start(SolverConfig::z3()).expect("z3 starts");
        for (n, i) in Intrinsic::ALL.into_iter().enumerate() {
            // The encoding as a function of its parameters.
            let name = format!("f{n}");
            let params: Vec<Term> = (0..i.args().len())
                .map(|k| Sexp::atom(format!("a{k}")))
                .collect();
            let header: String = i
                .args()
                .iter()
                .enumerate()
                .map(|(k, ty)| format!("(a{k} (_ BitVec {}))", ty.bits()))
                .collect();
            let text = format!(
                "(define-fun {name} ({header}) (_ BitVec {}) {})",
                i.result().bits(),
                encode(i, &params)
            );
            let define = Sexp::parse_all(&text).expect("a well-formed definition");
            solver.command(&define[0]).expect("z3 takes the definition");
            let cases: Vec<(Vec<Value>, Value)> = (0..INPUTS)
                .map(|_| {
                    let values: Vec<Value> = i
                        .args()
                        .iter()
                        .map(|ty| Value::from_bits(*ty, args.next()))
                        .collect();
                    let expected = warpsafe_interp::math::call(
                        i.name(),
                        i.result(),
                        &values,
                        warpsafe_interp::EvalOptions::default(),
                    )
                    .expect("the interpreter knows every intrinsic");
                    (values, expected)
                })
                .collect();
            let claim = |(values, expected): &(Vec<Value>, Value)| {
                term::eq(
                    term::app(&name, values.iter().map(literal)),
                    literal(expected),
                )
            };
            for batch in cases.chunks(BATCH) {
                solver.push().expect("push");
                solver
                    .assert(&term::and(batch.iter().map(claim)))
                    .expect("asserted");
                let all_equal = solver.check().expect("z3 answers") == CheckResult::Sat;
                solver.pop().expect("pop");
                if all_equal {
                    continue;
                }
                // Name the first input on which they differ.
                for case in batch {
                    solver.push().expect("push");
                    solver.assert(&claim(case)).expect("asserted");
                    let equal = solver.check().expect("z3 answers") == CheckResult::Sat;
                    solver.pop().expect("pop");
                    assert!(
                        equal,
                        "{}{:?} is {:?} in the interpreter",
                        i.name(),
                        case.0,
                        case.1
                    );
                }
                panic!("{}: a batch disagrees but no single input does", i.name());
            }
        }
    }
}
