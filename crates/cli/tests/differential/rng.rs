//! A seeded pseudo-random generator (SplitMix64), written out here so a
//! case's kernel depends on its seed alone: no crate upgrade can change
//! the stream and make a reported seed reproduce another kernel.

/// SplitMix64 (Steele, Lea and Flood): one 64-bit state, advanced by a
/// constant and mixed on every draw.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: u32, hi: u32) -> u32 {
        debug_assert!(lo <= hi, "invariant: a non-empty range");
        lo + (self.next_u64() % u64::from(hi - lo + 1)) as u32
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u32) -> bool {
        self.range(0, 99) < percent
    }

    /// An index into a non-empty slice of length `len`.
    pub fn index(&mut self, len: usize) -> usize {
        debug_assert!(len > 0, "invariant: choosing from a non-empty set");
        (self.next_u64() % len as u64) as usize
    }

    /// One of `items`, which must not be empty.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.index(items.len())]
    }
}
