//! `--shard I/N`: the deterministic share of a run's kernels that one of N
//! jobs checks (a CI matrix, a Slurm job array). Kernels are numbered in
//! the run's order (files as listed, kernels in source order) and kernel k
//! (from 0) belongs to shard `k % N + 1`, so shards get interleaved,
//! similar mixes of files. Every shard reads every file (the front end is
//! cheap); `warpsafe merge` joins the shards' JSON or SARIF outputs.

use std::str::FromStr;

/// One of `count` shards, numbered from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// Whether kernel number `k` (from 0, in run order) is this shard's.
    pub fn takes(&self, k: usize) -> bool {
        k % self.count + 1 == self.index
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| format!("`{s}`: expected I/N, such as 2/4"))?;
        let number = |t: &str| {
            t.trim()
                .parse::<usize>()
                .map_err(|_| format!("`{s}`: `{t}` is not a whole number"))
        };
        let (index, count) = (number(i)?, number(n)?);
        if count == 0 || index == 0 || index > count {
            return Err(format!(
                "`{s}`: shards are numbered 1 to N, with N at least 1"
            ));
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_kernels() {
        let shards: Vec<Shard> = (1..=3).map(|i| format!("{i}/3").parse().unwrap()).collect();
        for k in 0..100 {
            assert_eq!(shards.iter().filter(|s| s.takes(k)).count(), 1);
        }
        assert!(shards[0].takes(0) && shards[1].takes(1) && shards[0].takes(3));
    }

    #[test]
    fn bad_shards_are_refused() {
        for bad in ["0/3", "4/3", "1/0", "1", "a/b", "-1/2", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert_eq!("1/1".parse(), Ok(Shard { index: 1, count: 1 }));
    }
}
