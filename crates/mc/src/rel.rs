//! Binary relations over `0..n` as bit matrices: simple, obviously correct
//! and fast enough for the small graphs the reference enumerator builds.

/// A relation on `0..n`; row `a` holds the `b` with `(a, b)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rel {
    n: usize,
    words: usize,
    bits: Vec<u64>,
}

impl Rel {
    pub fn empty(n: usize) -> Rel {
        let words = n.div_ceil(64).max(1);
        Rel {
            n,
            words,
            bits: vec![0; n * words],
        }
    }

    /// `{(a, b) | pred(a, b)}`.
    pub fn from_fn(n: usize, mut pred: impl FnMut(usize, usize) -> bool) -> Rel {
        let mut r = Rel::empty(n);
        for a in 0..n {
            for b in 0..n {
                if pred(a, b) {
                    r.set(a, b);
                }
            }
        }
        r
    }

    /// `[A]`: the identity on `{a | pred(a)}`.
    pub fn identity(n: usize, mut pred: impl FnMut(usize) -> bool) -> Rel {
        let mut r = Rel::empty(n);
        for a in 0..n {
            if pred(a) {
                r.set(a, a);
            }
        }
        r
    }

    pub fn size(&self) -> usize {
        self.n
    }

    pub fn set(&mut self, a: usize, b: usize) {
        self.bits[a * self.words + b / 64] |= 1 << (b % 64);
    }

    pub fn get(&self, a: usize, b: usize) -> bool {
        self.bits[a * self.words + b / 64] & (1 << (b % 64)) != 0
    }

    fn row(&self, a: usize) -> &[u64] {
        &self.bits[a * self.words..(a + 1) * self.words]
    }

    fn or_row_into(&mut self, dst: usize, src: &[u64]) {
        let w = self.words;
        for (d, s) in self.bits[dst * w..(dst + 1) * w].iter_mut().zip(src) {
            *d |= *s;
        }
    }

    /// The `b` with `(a, b)`.
    pub fn succ(&self, a: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.n).filter(move |b| self.get(a, *b))
    }

    /// `self ∪ other`.
    pub fn union(&self, other: &Rel) -> Rel {
        let mut r = self.clone();
        for (d, s) in r.bits.iter_mut().zip(&other.bits) {
            *d |= *s;
        }
        r
    }

    /// `self ∩ other`.
    pub fn intersect(&self, other: &Rel) -> Rel {
        let mut r = self.clone();
        for (d, s) in r.bits.iter_mut().zip(&other.bits) {
            *d &= *s;
        }
        r
    }

    /// `{(a, b) ∈ self | keep(a, b)}`.
    pub fn filter(&self, mut keep: impl FnMut(usize, usize) -> bool) -> Rel {
        Rel::from_fn(self.n, |a, b| self.get(a, b) && keep(a, b))
    }

    /// `self⁻¹`.
    pub fn inverse(&self) -> Rel {
        Rel::from_fn(self.n, |a, b| self.get(b, a))
    }

    /// `self ; other`.
    pub fn seq(&self, other: &Rel) -> Rel {
        let mut r = Rel::empty(self.n);
        for a in 0..self.n {
            for k in 0..self.n {
                if self.get(a, k) {
                    r.or_row_into(a, other.row(k));
                }
            }
        }
        r
    }

    /// `self?` (reflexive closure).
    pub fn opt(&self) -> Rel {
        self.union(&Rel::identity(self.n, |_| true))
    }

    /// `self⁺` (Warshall).
    pub fn plus(&self) -> Rel {
        let mut r = self.clone();
        for k in 0..self.n {
            let row_k = r.row(k).to_vec();
            for a in 0..self.n {
                if r.get(a, k) {
                    r.or_row_into(a, &row_k);
                }
            }
        }
        r
    }

    /// `self*`.
    pub fn star(&self) -> Rel {
        self.plus().opt()
    }

    /// An `a` with `(a, a)`, if any.
    pub fn reflexive_point(&self) -> Option<usize> {
        (0..self.n).find(|a| self.get(*a, *a))
    }

    pub fn is_irreflexive(&self) -> bool {
        self.reflexive_point().is_none()
    }

    /// A node on a cycle, if any.
    pub fn cycle_point(&self) -> Option<usize> {
        self.plus().reflexive_point()
    }

    pub fn is_acyclic(&self) -> bool {
        self.cycle_point().is_none()
    }

    pub fn is_empty(&self) -> bool {
        self.bits.iter().all(|w| *w == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closure_and_composition() {
        let mut r = Rel::empty(70);
        r.set(0, 1);
        r.set(1, 65);
        r.set(65, 69);
        let p = r.plus();
        assert!(p.get(0, 69) && p.get(1, 69) && !p.get(69, 0));
        assert!(p.is_irreflexive());
        assert!(r.seq(&r).get(0, 65) && !r.seq(&r).get(0, 1));
        r.set(69, 0);
        assert!(!r.is_acyclic());
        assert_eq!(r.inverse().succ(1).collect::<Vec<_>>(), vec![0]);
    }
}
