//! Which pairs of accesses the race check asks about: candidate pairs
//! per phase (same block) and grid phase (across blocks), in the order
//! races are reported, and whether two accesses may conflict at all.

use super::*;

/// Whether an atomic access is atomic with respect to every thread of
/// `scope` (a block, or the whole device).
pub(crate) fn atomic_at(a: &Access, cross_block: bool) -> bool {
    a.atomic
        && match a.scope {
            Some(Scope::Device | Scope::System) => true,
            Some(Scope::Block | Scope::Cluster) => !cross_block,
            Some(Scope::Thread) | None => false,
        }
}

/// A pair of accesses to check.
#[derive(Clone, Debug)]
pub(super) enum Pair {
    /// Two threads of one block, both in one phase. `assumed`: every phase
    /// holding the pair is only formed on a path whose feasibility the
    /// query does not check (`align::Phase::assumed`).
    SameBlock { a: Inst, b: Inst, assumed: bool },
    /// Two threads of different blocks, both sites in one grid phase;
    /// `assumed` as for `SameBlock` (`grid::GridPhase::assumed`).
    CrossBlock { a: usize, b: usize, assumed: bool },
}

impl Pair {
    pub(super) fn sites(&self) -> (usize, usize) {
        match self {
            Pair::SameBlock { a, b, .. } => (a.site, b.site),
            Pair::CrossBlock { a, b, .. } => (*a, *b),
        }
    }
}

/// Whether two accesses of a pair may race at all: same array, not both
/// reads, an array threads share.
pub(super) fn may_conflict(kernel: &Kernel, a: &Access, b: &Access) -> bool {
    a.array == b.array
        && !(a.mode == AccessMode::Read && b.mode == AccessMode::Read)
        && !matches!(
            kernel.array(a.array).space,
            MemSpace::Local | MemSpace::Constant
        )
}

/// Where a pair is reported among the others: by its sites, same-block
/// before cross-block, and pairs of phases that are not `assumed` first
/// (so that the race reported for a pair of sites is the most certain one
/// found), then by the instances' iteration roles. Unique per pair.
pub(super) type PairOrder = (usize, usize, u8, Vec<Role>, Vec<Role>);

pub(super) fn pair_order(p: &Pair) -> PairOrder {
    let (a, b) = p.sites();
    match p {
        Pair::SameBlock {
            a: x,
            b: y,
            assumed,
        } => (
            a.min(b),
            a.max(b),
            u8::from(*assumed),
            x.path.clone(),
            y.path.clone(),
        ),
        Pair::CrossBlock { assumed, .. } => (
            a.min(b),
            a.max(b),
            2 + u8::from(*assumed),
            Vec::new(),
            Vec::new(),
        ),
    }
}

/// The pairs that may conflict among the pairs of sites `keep` accepts:
/// same-block pairs of instances per phase, cross-block pairs of sites per
/// grid phase, in [`pair_order`]. Quadratic in a phase's accesses, so
/// asked only for the pairs a race or an inconclusive batch concerns.
pub(super) fn candidate_pairs(
    kernel: &Kernel,
    aligned: &crate::align::Aligned<'_>,
    keep: &dyn Fn(usize, usize) -> bool,
) -> Vec<Pair> {
    let sites = &aligned.sites;
    let mut same: HashMap<(Inst, Inst), bool> = HashMap::new();
    for phase in &aligned.phases {
        let insts = &phase.insts;
        for i in 0..insts.len() {
            for j in i..insts.len() {
                let (x, y) = (&insts[i], &insts[j]);
                if !keep(x.site, y.site) {
                    continue;
                }
                let (a, b) = (sites[x.site].access, sites[y.site].access);
                if !may_conflict(kernel, a, b) || (atomic_at(a, false) && atomic_at(b, false)) {
                    continue;
                }
                let key = if x <= y {
                    (x.clone(), y.clone())
                } else {
                    (y.clone(), x.clone())
                };
                let e = same.entry(key).or_insert(true);
                *e &= phase.assumed;
            }
        }
    }
    let mut pairs: Vec<Pair> = same
        .into_iter()
        .map(|((a, b), assumed)| Pair::SameBlock { a, b, assumed })
        .collect();
    let mut cross: HashMap<(usize, usize), bool> = HashMap::new();
    for phase in &aligned.grid_phases {
        let s = &phase.sites;
        for (k, &i) in s.iter().enumerate() {
            for &j in &s[k..] {
                if !keep(i, j) {
                    continue;
                }
                let (a, b) = (sites[i].access, sites[j].access);
                if may_conflict(kernel, a, b)
                    && kernel.array(a.array).space == MemSpace::Global
                    && !(atomic_at(a, true) && atomic_at(b, true))
                {
                    *cross.entry((i, j)).or_insert(true) &= phase.assumed;
                }
            }
        }
    }
    pairs.extend(
        cross
            .into_iter()
            .map(|((a, b), assumed)| Pair::CrossBlock { a, b, assumed }),
    );
    pairs.sort_by_key(pair_order);
    pairs
}

/// The most pairs of one batched group asked one by one when its batch
/// query gives up; a larger group is reported inconclusive as a whole.
pub(super) const MAX_PAIRWISE_FALLBACK: usize = 20_000;

/// Whether a candidate pair is one of `group`'s pairs.
pub(super) fn in_group(group: &batch::Group, pair: &Pair) -> bool {
    match (pair, group.scope) {
        (Pair::SameBlock { a, b, .. }, RaceScope::SameBlock) => {
            group.members.contains(a) && group.members.contains(b)
        }
        (Pair::CrossBlock { a, b, .. }, RaceScope::CrossBlock) => {
            let has = |s: usize| group.members.iter().any(|m| m.site == s);
            has(*a) && has(*b)
        }
        _ => false,
    }
}
