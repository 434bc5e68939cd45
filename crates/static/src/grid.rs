//! Grid phases: the accesses that threads of *different* blocks may run
//! between two consecutive grid barriers (`this_grid().sync()`), for the
//! cross-block race queries. Seed 002 §4's splitting, with only grid
//! barriers as cuts: block barriers do not order blocks.
//!
//! `align` has already checked the kernel's shape: grid barriers are never
//! inside loops, and every conditional around one is proved uniform across
//! the grid (all threads of the grid take the same branch). So, as for
//! block barriers, the two branches of such a conditional are alternative
//! protocols; a branch without a grid barrier lets the code around the
//! conditional meet in one grid phase without its condition, which makes
//! that phase `assumed` (a race found only there is *possible*). Every
//! other construct (conditionals and loops without grid barriers) is one
//! open piece.
//!
//! Invariant: every pair of sites that two threads of different blocks may
//! run without a grid barrier between them is in some grid phase. Sites are
//! `align`'s (by access); branches `align` proved dead have none and are
//! skipped.

use std::collections::HashMap;

use crate::align::{dedup, has_grid_sync, seq, union, unsync, Alt, Frag, Inst, Kind, Shape, Site};
use crate::protocol::{Access, Proto, SyncKind};

/// Sites that threads of different blocks may run between two grid
/// barriers.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GridPhase {
    /// Indices into `align`'s sites, sorted.
    pub sites: Vec<usize>,
    /// Formed only on paths that skip grid barriers under a condition the
    /// accesses' guards do not carry.
    pub assumed: bool,
}

/// The grid phases of `body`, over `align`'s `sites`; `dead`: the branches
/// `align` proved dead and the barriers it proved unreachable.
pub(crate) fn phases(body: &Proto, sites: &[Site<'_>], dead: &[*const Proto]) -> Vec<GridPhase> {
    // Each access's own site: the first one (aligning adds copies of
    // sites under the conditions of the paths that skip barriers, see
    // `align::Alt::pending`; those conditions are about block barriers).
    let mut index = HashMap::new();
    for (i, s) in sites.iter().enumerate() {
        index.entry(s.access as *const Access).or_insert(i);
    }
    let walk = Walk { index, dead };
    let mut out: Vec<GridPhase> = Vec::new();
    for alt in walk.frag(body) {
        let pieces = match alt.kind {
            Kind::Unsync(u) => vec![u],
            Kind::Sync(s) => {
                let mut v = vec![s.head];
                v.extend(s.middle);
                v.push(s.tail);
                v
            }
        };
        for piece in pieces {
            let mut sites: Vec<usize> = piece.iter().map(|i| i.site).collect();
            sites.sort_unstable();
            sites.dedup();
            if sites.is_empty() {
                continue;
            }
            match out.iter_mut().find(|p| p.sites == sites) {
                Some(p) => p.assumed &= alt.assumed,
                None => out.push(GridPhase {
                    sites,
                    assumed: alt.assumed,
                }),
            }
        }
    }
    out
}

struct Walk<'a> {
    /// Each access's site.
    index: HashMap<*const Access, usize>,
    dead: &'a [*const Proto],
}

impl Walk<'_> {
    fn frag(&self, p: &Proto) -> Frag {
        match p {
            Proto::Skip => unsync(Vec::new()),
            Proto::Sync { .. } if !is_grid_sync(p) || self.dead.contains(&(p as *const Proto)) => {
                unsync(Vec::new())
            }
            Proto::Sync { .. } => vec![Alt {
                kind: Kind::Sync(Shape::default()),
                assumed: false,
                pending: Vec::new(),
            }],
            Proto::Access(a) => unsync(
                self.index
                    .get(&(a as *const Access))
                    .map(|&site| Inst {
                        site,
                        path: Vec::new(),
                    })
                    .into_iter()
                    .collect(),
            ),
            Proto::Seq(items) => items.iter().fold(unsync(Vec::new()), |acc, q| {
                seq(acc, &self.frag(q), &mut |piece, _| piece)
            }),
            Proto::If { then_, else_, .. } if has_grid_sync(p, self.dead) => {
                let mut out: Frag = Vec::new();
                for branch in [then_, else_] {
                    if self.dead.contains(&(&**branch as *const Proto)) {
                        continue;
                    }
                    for mut alt in self.frag(branch) {
                        if matches!(alt.kind, Kind::Unsync(_)) {
                            alt.assumed = true;
                        }
                        out.push(alt);
                    }
                }
                if out.is_empty() {
                    unsync(Vec::new())
                } else {
                    dedup(out)
                }
            }
            // No grid barrier inside: one open piece.
            Proto::If { .. } | Proto::For(_) | Proto::Loop { .. } => {
                let mut piece = Vec::new();
                let mut assumed = false;
                self.open(p, &mut piece, &mut assumed);
                vec![Alt {
                    kind: Kind::Unsync(piece),
                    assumed,
                    pending: Vec::new(),
                }]
            }
        }
    }

    /// Every site inside `p` (which has no grid barrier), into one piece.
    fn open(&self, p: &Proto, piece: &mut Vec<Inst>, assumed: &mut bool) {
        for alt in match p {
            Proto::For(l) => self.frag(&l.body),
            Proto::Loop { body, .. } => self.frag(body),
            Proto::If { then_, else_, .. } => {
                let mut both = self.frag(then_);
                both.extend(self.frag(else_));
                both
            }
            other => self.frag(other),
        } {
            *assumed |= alt.assumed;
            if let Kind::Unsync(u) = alt.kind {
                *piece = union(std::mem::take(piece), u);
            }
        }
    }
}

fn is_grid_sync(p: &Proto) -> bool {
    matches!(
        p,
        Proto::Sync {
            kind: SyncKind::Grid,
            ..
        }
    )
}
