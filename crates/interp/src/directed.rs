//! Arithmetic with directed rounding: CUDA's `__fadd_ru`, `__dmul_rd`,
//! `__fsqrt_rz` and their kin (interval arithmetic is written with them).
//!
//! The round-to-nearest result `r` and the sign of its exact error `e`
//! (exact = `r + e`) decide the directed result: rounding up steps to the
//! next float when `e > 0`, down when `e < 0`, toward zero when `e` points
//! at zero. The error comes from an error-free transformation: TwoSum for
//! sums and differences, a fused multiply-add for products, quotients
//! (`x - r*y`) and square roots (`x - r*r`).
//!
//! Invariants: the results are exact (IEEE-754 directed rounding) for
//! finite operands whose exact result is normal; an overflow rounds to the
//! largest finite value in the directions that do not reach infinity.
//! Results in the subnormal range of products and quotients may be one ulp
//! off where the fused multiply-add's error underflows.

/// An operation of the family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Sqrt,
}

/// A rounding direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    Up,
    Down,
    Zero,
}

/// The operation and direction of an intrinsic's name (`__dadd_ru`),
/// whether it works on `double`s, and its number of arguments.
pub fn parse(name: &str) -> Option<(Op, Dir, bool)> {
    let rest = name.strip_prefix("__")?;
    let (double, rest) = match rest.as_bytes().first()? {
        b'd' => (true, &rest[1..]),
        b'f' => (false, &rest[1..]),
        _ => return None,
    };
    let (op, dir) = rest.split_once('_')?;
    let op = match op {
        "add" => Op::Add,
        "sub" => Op::Sub,
        "mul" => Op::Mul,
        "div" => Op::Div,
        "sqrt" => Op::Sqrt,
        _ => return None,
    };
    let dir = match dir {
        "ru" => Dir::Up,
        "rd" => Dir::Down,
        "rz" => Dir::Zero,
        _ => return None,
    };
    Some((op, dir, double))
}

/// Every name [`parse`] accepts.
#[cfg(test)]
fn names() -> Vec<String> {
    let mut out = Vec::new();
    for t in ["f", "d"] {
        for op in ["add", "sub", "mul", "div", "sqrt"] {
            for d in ["ru", "rd", "rz"] {
                out.push(format!("__{t}{op}_{d}"));
            }
        }
    }
    out
}

macro_rules! directed {
    ($name:ident, $t:ty) => {
        /// `op(x, y)` (`y` unused by `Sqrt`) rounded in direction `dir`.
        pub fn $name(op: Op, dir: Dir, x: $t, y: $t) -> $t {
            let (r, e) = match op {
                Op::Add | Op::Sub => {
                    let y = if op == Op::Sub { -y } else { y };
                    let r = x + y;
                    // TwoSum (Knuth): r + e == x + y exactly.
                    let yv = r - x;
                    let xv = r - yv;
                    let e = (x - xv) + (y - yv);
                    if r == 0.0 && e == 0.0 && x != 0.0 && dir == Dir::Down {
                        // An exact zero sum of opposite operands is -0
                        // when rounding down.
                        return -0.0;
                    }
                    (r, e)
                }
                Op::Mul => {
                    let r = x * y;
                    (r, x.mul_add(y, -r))
                }
                Op::Div => {
                    let r = x / y;
                    // x/y - r has the sign of (x - r*y)/y.
                    let rem = (-r).mul_add(y, x);
                    (r, if y < 0.0 { -rem } else { rem })
                }
                Op::Sqrt => {
                    let r = x.sqrt();
                    (r, (-r).mul_add(r, x))
                }
            };
            let finite_operands = x.is_finite() && (op == Op::Sqrt || y.is_finite());
            if r.is_infinite() && finite_operands {
                // Overflow: directions that do not reach infinity stop at
                // the largest finite value.
                let toward_inf = match dir {
                    Dir::Up => r > 0.0,
                    Dir::Down => r < 0.0,
                    Dir::Zero => false,
                };
                return if toward_inf { r } else { <$t>::MAX.copysign(r) };
            }
            if !r.is_finite() || e.is_nan() || e == 0.0 {
                return r;
            }
            match dir {
                Dir::Up if e > 0.0 => r.next_up(),
                Dir::Down if e < 0.0 => r.next_down(),
                Dir::Zero if r > 0.0 && e < 0.0 => r.next_down(),
                Dir::Zero if r < 0.0 && e > 0.0 => r.next_up(),
                _ => r,
            }
        }
    };
}

directed!(directed_f64, f64);
directed!(directed_f32, f32);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse() {
        for n in names() {
            assert!(parse(&n).is_some(), "{n}");
        }
        assert_eq!(parse("__dadd_ru"), Some((Op::Add, Dir::Up, true)));
        assert_eq!(parse("__fsqrt_rz"), Some((Op::Sqrt, Dir::Zero, false)));
        assert_eq!(parse("__fadd_rn"), None);
    }

    #[test]
    fn inexact_results_bracket_the_exact_value() {
        // 1 + 2^-60 is not a double: up and down straddle it.
        let tiny = 2f64.powi(-60);
        assert_eq!(directed_f64(Op::Add, Dir::Up, 1.0, tiny), 1f64.next_up());
        assert_eq!(directed_f64(Op::Add, Dir::Down, 1.0, tiny), 1.0);
        assert_eq!(
            directed_f64(Op::Sub, Dir::Down, 1.0, tiny),
            1f64.next_down()
        );
        assert_eq!(
            directed_f64(Op::Sub, Dir::Zero, 1.0, tiny),
            1f64.next_down()
        );
        assert_eq!(directed_f64(Op::Sub, Dir::Up, 1.0, tiny), 1.0);
        // 1/3 is inexact in both precisions.
        let (d, u) = (
            directed_f64(Op::Div, Dir::Down, 1.0, 3.0),
            directed_f64(Op::Div, Dir::Up, 1.0, 3.0),
        );
        assert_eq!(d.next_up(), u);
        assert!(d < 1.0 / 3.0 || u > 1.0 / 3.0);
        assert_eq!(
            directed_f64(Op::Div, Dir::Down, -1.0, 3.0),
            -directed_f64(Op::Div, Dir::Up, 1.0, 3.0)
        );
        assert_eq!(
            directed_f64(Op::Div, Dir::Zero, -1.0, 3.0),
            -directed_f64(Op::Div, Dir::Down, 1.0, 3.0)
        );
        let (d, u) = (
            directed_f32(Op::Sqrt, Dir::Down, 2.0, 0.0),
            directed_f32(Op::Sqrt, Dir::Up, 2.0, 0.0),
        );
        assert_eq!(d.next_up(), u);
        assert!(f64::from(d) < 2f64.sqrt() && 2f64.sqrt() < f64::from(u));
        // f32 products checked against the exact f64 product.
        let (x, y) = (1.1f32, 3.3f32);
        let exact = f64::from(x) * f64::from(y);
        let (d, u) = (
            directed_f32(Op::Mul, Dir::Down, x, y),
            directed_f32(Op::Mul, Dir::Up, x, y),
        );
        assert!(f64::from(d) <= exact && exact <= f64::from(u) && d.next_up() == u);
    }

    #[test]
    fn exact_results_are_unchanged() {
        for dir in [Dir::Up, Dir::Down, Dir::Zero] {
            assert_eq!(directed_f64(Op::Add, dir, 1.5, 2.25), 3.75);
            assert_eq!(directed_f32(Op::Mul, dir, 1.5, -4.0), -6.0);
            assert_eq!(directed_f64(Op::Div, dir, 1.0, 4.0), 0.25);
            assert_eq!(directed_f64(Op::Sqrt, dir, 9.0, 0.0), 3.0);
        }
        assert!(directed_f64(Op::Add, Dir::Down, 1.0, -1.0).is_sign_negative());
        assert!(directed_f64(Op::Add, Dir::Up, 1.0, -1.0).is_sign_positive());
    }

    #[test]
    fn overflow_stops_at_the_largest_finite_value() {
        let m = f64::MAX;
        assert_eq!(directed_f64(Op::Add, Dir::Up, m, m), f64::INFINITY);
        assert_eq!(directed_f64(Op::Add, Dir::Down, m, m), m);
        assert_eq!(directed_f64(Op::Add, Dir::Zero, -m, -m), -m);
        assert_eq!(directed_f64(Op::Mul, Dir::Down, -m, 2.0), f64::NEG_INFINITY);
        assert!(directed_f64(Op::Sqrt, Dir::Up, -1.0, 0.0).is_nan());
    }
}
