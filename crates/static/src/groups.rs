//! Warp and tile barriers (`__syncwarp()`, a `tiled_partition<N>` tile's
//! `sync()`), issue 9 item 5: they order the accesses of two threads of one
//! group (a warp: 32 consecutive linear thread ranks of a block; a tile: N
//! of them), not of any two threads of a block.
//!
//! The two threads of a same-block query fall into *pair classes* by the
//! smallest group they share. With the group sizes `G1 < G2 < ... < Gm` the
//! kernel synchronises (powers of two, each dividing the next):
//! - **outside**: different `Gm` groups; only block barriers order them.
//!   The usual check (warp and tile barriers order nothing) restricted to
//!   such pairs, cross-block pairs included;
//! - **class `j`**: one `Gj` group but different `G(j-1)` groups (for `j =
//!   1`, any two threads of one `G1` group): every barrier of a group of at
//!   least `Gj` threads orders them, as a block barrier does. The check runs
//!   on the protocol with those barriers turned into block barriers,
//!   restricted to such pairs (no cross-block pairs).
//!
//! Each class is the whole two-thread analysis (barrier aligning with its
//! uniformity questions, seed 002 §4, and the race queries) for the pairs of
//! that class, under the assumption that restricts the two threads to it;
//! every same-block pair is in exactly one class, so the union of the
//! classes' races and divergences is the kernel's. A `__syncwarp` must be
//! reached by all the warp's threads its mask names: with the full mask,
//! two threads of one warp that disagree on reaching it are barrier
//! divergence, as for `__syncthreads` in a block.
//!
//! A constant partial mask (`__syncwarp(0x0000ffff)`) orders two lanes
//! only when it names both: the classes of two threads of one warp are
//! split further by which of the kernel's partial masks name both lanes
//! (the mask's barriers are barriers of the class exactly when it does),
//! so a divergence under such a mask is one between two lanes it names.
//! Modelled only when every warp barrier's mask is a constant (at most
//! [`MAX_MASKS`] distinct partial ones) and every tile size is a power of
//! two; other kernels keep the old reading (warp and tile barriers order
//! nothing, races only *possible*). Not checked: that a lane calling
//! `__syncwarp(mask)` is in `mask`.

use crate::protocol::{ForLoop, Proto, SyncKind};
use crate::sym::Sym;
use warpsafe_smt::{term, Term};

/// Lanes of a warp.
const WARP: u32 = 32;

/// The most distinct partial warp masks modelled (the classes double with
/// each).
const MAX_MASKS: usize = 3;

/// The full warp mask.
const FULL: u32 = 0xffff_ffff;

/// The two threads of a same-block query: in one group of `same` threads
/// (if any), in different groups of `differ` threads (if any), both lanes
/// named by each mask of `masks_in` and not both by any of `masks_out`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PairClass {
    pub same: Option<u32>,
    pub differ: Option<u32>,
    pub masks_in: Vec<u32>,
    pub masks_out: Vec<u32>,
}

/// What the kernel's warp and tile barriers synchronise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Groups {
    /// Group sizes, ascending (32 for a warp barrier).
    pub sizes: Vec<u32>,
    /// The distinct partial warp masks.
    pub masks: Vec<u32>,
}

impl PairClass {
    /// The class's condition over the two threads' linear ranks in their
    /// block (32-bit).
    pub(crate) fn condition(&self, rank1: &Term, rank2: &Term) -> Term {
        let group = |rank: &Term, size: u32| term::bvudiv(rank.clone(), term::bv(size.into(), 32));
        let mut parts = Vec::new();
        if let Some(g) = self.same {
            parts.push(term::eq(group(rank1, g), group(rank2, g)));
        }
        if let Some(g) = self.differ {
            parts.push(term::not(term::eq(group(rank1, g), group(rank2, g))));
        }
        let named = |rank: &Term, mask: u32| {
            let lane = term::bvurem(rank.clone(), term::bv(WARP.into(), 32));
            let bit = term::bvand(
                term::bvlshr(term::bv(mask.into(), 32), lane),
                term::bv(1, 32),
            );
            term::eq(bit, term::bv(1, 32))
        };
        let both = |m: u32| term::and([named(rank1, m), named(rank2, m)]);
        parts.extend(self.masks_in.iter().map(|m| both(*m)));
        parts.extend(self.masks_out.iter().map(|m| term::not(both(*m))));
        term::and(parts)
    }

    /// Whether this is a class of pairs inside one group (no cross-block
    /// pairs belong to it).
    pub(crate) fn inside(&self) -> bool {
        self.same.is_some()
    }
}

/// A warp barrier's mask when it is a constant (its low 32 bits).
fn constant_mask(mask: &Sym) -> Option<u32> {
    mask.as_int().map(|m| (m & i128::from(FULL)) as u32)
}

/// The groups `body` synchronises when every warp and tile barrier can be
/// modelled (`None` when one cannot: a mask that is not a constant, too
/// many partial masks, a tile size that is not a power of two); no sizes
/// when there are none.
pub(crate) fn groups(body: &Proto) -> Option<Groups> {
    let mut g = Groups {
        sizes: Vec::new(),
        masks: Vec::new(),
    };
    let mut ok = true;
    body.walk(&mut |p| {
        if let Proto::Sync { kind, .. } = p {
            match kind {
                SyncKind::Warp { mask } => {
                    match constant_mask(mask) {
                        Some(FULL) => {}
                        Some(m) => g.masks.push(m),
                        None => ok = false,
                    }
                    g.sizes.push(WARP);
                }
                SyncKind::Tile { size } => {
                    ok &= size.is_power_of_two();
                    g.sizes.push(*size);
                }
                SyncKind::Block | SyncKind::Grid => {}
            }
        }
    });
    g.sizes.sort_unstable();
    g.sizes.dedup();
    g.masks.sort_unstable();
    g.masks.dedup();
    (ok && g.masks.len() <= MAX_MASKS).then_some(g)
}

/// The pair classes of `g`: outside the largest group first, then each
/// group from the largest down; a class of two lanes of one warp once per
/// subset of the partial masks that name both.
pub(crate) fn classes(g: &Groups) -> Vec<PairClass> {
    let mut out = vec![PairClass {
        same: None,
        differ: g.sizes.last().copied(),
        masks_in: Vec::new(),
        masks_out: Vec::new(),
    }];
    for j in (0..g.sizes.len()).rev() {
        let (same, differ) = (Some(g.sizes[j]), j.checked_sub(1).map(|k| g.sizes[k]));
        if g.sizes[j] > WARP || g.masks.is_empty() {
            out.push(PairClass {
                same,
                differ,
                masks_in: Vec::new(),
                masks_out: Vec::new(),
            });
            continue;
        }
        for subset in 0..1u32 << g.masks.len() {
            let (masks_in, masks_out) = g
                .masks
                .iter()
                .enumerate()
                .partition::<Vec<_>, _>(|(k, _)| subset & (1 << k) != 0);
            out.push(PairClass {
                same,
                differ,
                masks_in: masks_in.into_iter().map(|(_, m)| *m).collect(),
                masks_out: masks_out.into_iter().map(|(_, m)| *m).collect(),
            });
        }
    }
    out
}

/// `body` with every barrier that orders the pairs of `class` (a class
/// inside a group) turned into a block barrier: a tile of at least its
/// group's size, a warp barrier (when the group is at most a warp) whose
/// mask is full or names both lanes; the others are left as they are
/// (ordering nothing).
pub(crate) fn as_block_barriers(body: &Proto, class: &PairClass) -> Proto {
    let min = class.same.unwrap_or(u32::MAX);
    let rec = |p: &Proto| as_block_barriers(p, class);
    match body {
        Proto::Sync { kind, span } => {
            let size = match kind {
                SyncKind::Warp { mask } => {
                    let m = constant_mask(mask);
                    let orders = m == Some(FULL) || m.is_some_and(|m| class.masks_in.contains(&m));
                    orders.then_some(WARP)
                }
                SyncKind::Tile { size } => Some(*size),
                SyncKind::Block | SyncKind::Grid => None,
            };
            match size {
                Some(s) if s >= min => Proto::Sync {
                    kind: SyncKind::Block,
                    span: *span,
                },
                _ => body.clone(),
            }
        }
        Proto::Skip | Proto::Access(_) => body.clone(),
        Proto::Seq(items) => Proto::Seq(items.iter().map(rec).collect()),
        Proto::If { cond, then_, else_ } => Proto::If {
            cond: cond.clone(),
            then_: Box::new(rec(then_)),
            else_: Box::new(rec(else_)),
        },
        Proto::For(l) => Proto::For(Box::new(ForLoop {
            body: rec(&l.body),
            ..(**l).clone()
        })),
        Proto::Loop {
            id,
            body,
            again,
            span,
        } => Proto::Loop {
            id: *id,
            body: Box::new(rec(body)),
            again: again.clone(),
            span: *span,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(c: &PairClass, a: u32, b: u32) -> bool {
        let named = |m: u32, r: u32| (m >> (r % 32)) & 1 == 1;
        c.same.is_none_or(|g| a / g == b / g)
            && c.differ.is_none_or(|g| a / g != b / g)
            && c.masks_in.iter().all(|m| named(*m, a) && named(*m, b))
            && c.masks_out.iter().all(|m| !(named(*m, a) && named(*m, b)))
    }

    #[test]
    fn classes_cover_every_pair_once() {
        // Tiles of 8 inside warps: outside warps, one warp but different
        // tiles, one tile.
        let g = Groups {
            sizes: vec![8, 32],
            masks: Vec::new(),
        };
        let c = classes(&g);
        let sizes: Vec<_> = c.iter().map(|k| (k.same, k.differ)).collect();
        assert_eq!(
            sizes,
            vec![(None, Some(32)), (Some(32), Some(8)), (Some(8), None)]
        );
        // With two partial masks, each class inside a warp splits in four.
        let g = Groups {
            sizes: vec![8, 32],
            masks: vec![0x0000_ffff, 0x0f0f_0f0f],
        };
        let c = classes(&g);
        assert_eq!(c.len(), 1 + 4 + 4);
        // Brute force over ranks 0..128: each pair of distinct ranks is in
        // exactly one class.
        for a in 0..128 {
            for b in 0..128 {
                if a != b {
                    assert_eq!(c.iter().filter(|k| member(k, a, b)).count(), 1, "{a} {b}");
                }
            }
        }
    }
}
