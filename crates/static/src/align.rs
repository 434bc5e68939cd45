//! Barrier aligning and splitting (seed 002, §4.1 Fig. 3 and §4.2 Fig. 4),
//! fused: a kernel protocol becomes the list of its *phases* (the paper's
//! symbolic traces), each a set of access instances that may run between
//! two consecutive block barriers.
//!
//! An access instance is an access site plus a *role* for every enclosing
//! synchronized loop (a `For` whose body contains a block barrier). The
//! variable of a synchronized loop is shared by the two threads of a
//! same-block query (the paper's `var x in n..m; h` binds it once for both
//! threads); the role says which iteration the instance belongs to:
//!
//! - [`Role::First`]: the first iteration (`x := n` in Fig. 3, `q[x:=n]`);
//! - [`Role::Cur`]: some iteration `x` (the aligned loop's own `q`);
//! - [`Role::Prev`]: the iteration before `Cur` (`u[x:=x-1]`). Aligning
//!   only shifts by one iteration, and for a step other than `+1` the
//!   previous value is not `x-1` (`x+1` for `-1`, one of `2x`/`2x+1` for
//!   `>>1`): the race check therefore gives `Prev` its own shared constant
//!   linked by `Cur = step(Prev)` in the loop's machine arithmetic, which
//!   is exact for every step kind (`+ - * / << >>`);
//! - [`Role::Last`]: the last iteration (`u[x:=m-1]`; pinned for unit
//!   steps, otherwise a value whose step leaves the range).
//!
//! Every role's constant is also constrained to `n <= x < m` and, as for
//! unsynchronized loops, to the values the step reaches (`stride`: exact
//! for additive steps and for geometric steps by a constant; a symbolic
//! stride only refines a race found without it).
//!
//! For `u1; for^S x in n..m { p; u2 }` with the body's shape (head `h`
//! before its first barrier, closed phases `m`, tail `t` after its last
//! barrier), Fig. 3's `q1 ; for^S x in n+1..m { u[x:=x-1] ; q } , u[x:=m-1]`
//! yields the phases `u1 ∪ h[First]`, every `m[Cur]`, `t[Prev] ∪ h[Cur]`,
//! and leaves `t[Last]` open to meet the code after the loop.
//!
//! **Well-formedness (§5), made explicit.** The paper assumes synchronized
//! loops run at least once and conditionals around barriers are uniform.
//! Here:
//! - a conditional whose branches contain a block barrier must be *proved*
//!   thread-uniform within a block by the [`Oracle`] (`c(t1) != c(t2)`
//!   unsat for two threads of one block). When the solver finds two threads
//!   that disagree, each barrier inside is checked on its own (its reach
//!   condition `P_i(t1) != P_i(t2)`, seed 001 §5.2) and every divergent one
//!   is recorded with its witness; aligning then goes on as if the
//!   condition were uniform, to find the divergent barriers further on (the
//!   result is [`AlignError::Divergent`] with all of them). When the solver
//!   gives up, the result is UNKNOWN with [`DIVERGENCE_REASON`]. Its two branches are then alternative
//!   protocols, each under its condition (the guard `c` or `!c` on every
//!   access in it); a branch whose condition is proved unsatisfiable in its
//!   context is dead and dropped (the inference's overflow splits, e.g.
//!   `if n < INT_MAX { for .. } else { loop .. }`, often have one);
//! - a synchronized loop's bounds and step must be proved uniform the same
//!   way (two threads that disagree make every barrier that each iteration
//!   passes divergent; no proof either way: UNKNOWN,
//!   [`LOOP_DIVERGENCE_REASON`]);
//! - when the oracle cannot prove `n < m`, the loop may run zero times: the
//!   loop is then the alternative "no barrier at all", so the code before
//!   and after it also meet in one phase, which is checked too. Nothing is
//!   assumed about non-emptiness that was not proved: the phases of the
//!   non-empty alternative constrain the loop's constants to `n <= x < m`
//!   (so they hold only when the loop runs), and the zero-iteration
//!   alternative covers the rest. That alternative carries the condition
//!   under which the loop runs zero times (its first value out of range)
//!   to the code before it: the copies of those sites in the phase where
//!   they meet the code after the loop are guarded by it (`Alt::pending`),
//!   so that a pair across the skipped loop is asked only where the loop
//!   may really be skipped. A barrier-free branch of a uniform conditional
//!   carries its condition the same way. The condition is dropped (sound,
//!   less precise) where no code precedes the skip in its iteration: at
//!   the top of a synchronized loop's body, of the kernel, or past
//!   [`MAX_ALTERNATIVES`].
//! - every iteration of a synchronized loop must pass a barrier, and the
//!   loop must not stop early (`break`/`return` inside): otherwise UNKNOWN.
//!   With uniform bounds and uniform conditions, the threads of a block
//!   then run the same iterations in lockstep between barriers, which is
//!   what makes sharing the loop variable sound.
//!
//! A fragment is a list of *alternatives*: ways through it that pass at
//! least one barrier (head, closed phases, tail) or none (one open phase).
//! Sequencing takes every combination. Past [`MAX_ALTERNATIVES`] they are
//! merged phase by phase (heads and tails united, every closed phase kept):
//! every real phase stays inside a checked one, so merging only adds pairs
//! (sound, less precise). Inside a synchronized loop each iteration may
//! take a different alternative of the body, so the body's alternatives
//! are always merged there; pairs from two branches of one uniform
//! conditional in one iteration are then ruled out by their guards (the
//! loop variable is shared).
//!
//! Certainty: an alternative that skips barriers under a condition (a
//! branch without a barrier, a loop running zero times) lets code before
//! and after meet in one phase; the condition is on the code before only
//! where it was carried there, so its phases are marked `assumed`, and a
//! race found only there is *possible*, not *provable* (not complete: a
//! race whose skip condition was carried is real, but still reported as
//! possible).
//!
//! **Grid barriers** (`this_grid().sync()`) cut phases like block
//! barriers (they also synchronise the block). A conditional around one
//! must be uniform across the whole grid, not just the block: once proved
//! uniform within the block, the oracle is asked again for any two threads
//! of the grid ([`Oracle::grid_uniform`]); two threads (of different
//! blocks) that disagree make each grid barrier inside divergent
//! ([`GRID_DIVERGENCE_REASON`]), no proof either way is UNKNOWN. The
//! phases that order threads of *different* blocks, cut by grid barriers
//! only, are computed afterwards by `grid`.
//!
//! **Loops of unknown iteration count** (`Loop`: `while (true) { ...;
//! __syncthreads(); if (done) break; }`) with block barriers inside: the
//! condition under which a thread that starts an iteration starts the next
//! must be proved uniform within the block (loop-carried variables that
//! every thread starts and updates alike, and quiet reads of shared flags,
//! count as the same for both threads), otherwise the barriers inside are
//! divergent ([`UNKNOWN_LOOP_DIVERGENCE_REASON`]) or, with no answer, the
//! kernel is UNKNOWN ([`UNKNOWN_LOOP_REASON`]). Without a loop variable
//! the phases take no roles: see `unknown_sync_loop`.
//!
//! Not handled (UNKNOWN): a block barrier inside a `For` that may stop
//! early (inference turns those into `Loop`s); a synchronized `For` an
//! iteration of which may pass no barrier; a grid barrier inside a loop.

use std::collections::HashMap;

use crate::protocol::{Access, ForLoop, Proto, SyncKind};
use crate::sym::Sym;
use crate::verdict::{Certainty, Divergence, DivergenceWitness};
use warpsafe_ir::BinOp;
use warpsafe_ir::Span;

/// The reason given for a barrier under a condition not proved uniform.
pub const DIVERGENCE_REASON: &str =
    "barrier under a condition that may differ between threads of a block (possible barrier divergence)";

/// The reason given for a barrier in a loop whose bounds are not proved
/// uniform.
pub const LOOP_DIVERGENCE_REASON: &str =
    "barrier in a loop whose bounds or step may differ between threads of a block (possible barrier divergence)";

/// A barrier under a condition that differs between threads of a block,
/// which itself is reached by every thread of a block or by none.
pub const UNIFORM_BARRIER_REASON: &str =
    "barrier reached by all threads of a block or by none, under a condition that differs between them: not supported by barrier aligning";

/// A block barrier inside a loop of unknown iteration count, where the
/// solver could neither prove nor refute that the threads of a block go on
/// to the next iteration together.
pub const UNKNOWN_LOOP_REASON: &str =
    "barrier inside a loop whose iteration count is unknown and not proved the same for the threads of a block: not supported by barrier aligning";

/// A barrier in a loop of unknown iteration count where two threads of a
/// block may disagree about going on to the next iteration.
pub const UNKNOWN_LOOP_DIVERGENCE_REASON: &str =
    "barrier in a loop whose iteration count may differ between threads of a block (possible barrier divergence)";

/// The certainty of such a divergence: the threads disagree about one
/// iteration's exit, but an iteration may pass no barrier.
fn exits_may_agree(certainty: Certainty) -> Certainty {
    certainty.weakened(
        "the threads disagree about leaving the loop, but the iterations that follow may pass no barrier".into(),
    )
}

/// A block barrier inside a loop that may stop early.
pub const EARLY_EXIT_REASON: &str =
    "barrier inside a loop that may stop early (`break` or `return`): not supported by barrier aligning";

/// A synchronized loop some iteration of which may pass no barrier.
pub const NO_BARRIER_ITERATION_REASON: &str =
    "an iteration of this loop may pass no barrier (barrier under a condition or in an empty inner loop): not supported by barrier aligning";

/// A grid barrier inside a loop.
pub const NESTED_GRID_REASON: &str =
    "grid barrier inside a loop: not supported by barrier aligning";

/// A grid barrier under a condition not proved uniform across the grid.
pub const GRID_DIVERGENCE_REASON: &str =
    "grid barrier under a condition that may differ between threads of the grid (possible barrier divergence)";

/// Too many phases after aligning.
pub const TOO_LARGE_REASON: &str = "too many phases after barrier aligning";

/// Beyond this many access instances in one fragment, aligning gives up.
const MAX_INSTANCES: usize = 20_000;

/// One access with its context.
pub(crate) struct Site<'p> {
    pub access: &'p Access,
    /// Conditions of the enclosing `If`s (negated in `else` branches).
    pub guards: Vec<Sym>,
    /// Enclosing unsynchronized `For` loops, outermost first: per thread.
    pub loops: Vec<&'p ForLoop>,
    /// Enclosing synchronized `For` loops, outermost first (all of them
    /// enclose every unsynchronized one): shared within a block.
    pub sync_loops: Vec<&'p ForLoop>,
    /// Inside a `Loop` (unknown iteration count).
    pub in_unknown_loop: bool,
}

/// Which iteration of a synchronized loop an instance belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Role {
    First,
    Cur,
    Prev,
    Last,
}

/// A site in a given iteration of each enclosing synchronized loop:
/// `path[k]` is the role of `sites[site].sync_loops[k]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Inst {
    pub site: usize,
    pub path: Vec<Role>,
}

/// The well-formedness questions aligning asks.
pub(crate) trait Oracle {
    type Error;
    /// Whether every value is provably the same for any two threads of one
    /// block, for every value of the enclosing synchronized loop variables
    /// (shared) under the enclosing conditions `guards`.
    fn uniform(
        &mut self,
        sync_loops: &[&ForLoop],
        guards: &[Sym],
        values: &[&Sym],
    ) -> Result<Uniformity, Self::Error>;
    /// Whether `cond` may hold in that context (`false` only when proved
    /// impossible: the branch it guards is dead).
    fn feasible(
        &mut self,
        sync_loops: &[&ForLoop],
        guards: &[Sym],
        cond: &Sym,
    ) -> Result<bool, Self::Error>;
    /// Whether every value is provably the same for any two threads of the
    /// grid (of one block or not) under `guards`. Asked only outside
    /// loops, for the conditions around grid barriers.
    fn grid_uniform(&mut self, guards: &[Sym], values: &[&Sym]) -> Result<Uniformity, Self::Error>;
    /// Whether the loop provably runs at least once in that context.
    fn nonempty(
        &mut self,
        sync_loops: &[&ForLoop],
        guards: &[Sym],
        l: &ForLoop,
    ) -> Result<bool, Self::Error>;
}

/// Why aligning stopped.
pub(crate) enum AlignError<E> {
    Unsupported(String, Span),
    /// Barrier divergence (seed 001 §5.2): every barrier found that two
    /// threads of one block disagree about reaching, each with its own
    /// witness, in program order. Aligning goes on past a divergent
    /// conditional or loop (as if it were uniform) to find the others;
    /// a construct it cannot handle ends the search early.
    Divergent(Vec<Divergence>),
    Oracle(E),
}

/// Whether values are the same for every two threads of one block.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Uniformity {
    /// Proved (a clean `unsat`).
    Uniform,
    /// The solver found two threads that disagree.
    Differs {
        threads: Option<DivergenceWitness>,
        certainty: Certainty,
    },
    /// Neither (timeout, encoding failure).
    Unproved,
}

impl<E> From<E> for AlignError<E> {
    fn from(e: E) -> Self {
        AlignError::Oracle(e)
    }
}

/// A divergent barrier at `span`, reported with `reason` (one of the
/// "may differ" reasons, stated as a fact).
fn divergence(
    span: Span,
    reason: &str,
    witness: Option<DivergenceWitness>,
    certainty: Certainty,
) -> Divergence {
    let (threads, params) = match witness {
        Some(w) => (Some(w.threads), w.params),
        None => (None, Vec::new()),
    };
    Divergence {
        span,
        reason: reason
            .replace("bounds or step may differ", "bounds or step differ")
            .replace("may differ", "differs")
            .replace(" (possible barrier divergence)", ""),
        threads,
        params,
        certainty,
    }
}

/// The certainty of a divergent conditional recorded at its first barrier
/// because no barrier inside was shown to be reached by one thread and not
/// the other: the threads disagree about the condition, but may still
/// agree about every barrier (one under a further condition neither meets).
fn reach_not_shown(certainty: Certainty) -> Certainty {
    certainty.weakened(
        "the threads disagree about the condition, but no barrier inside was shown to be reached by one and not the other".into(),
    )
}

/// The certainty of a loop divergence whose threads have different bounds
/// but were not shown to run different numbers of iterations.
fn counts_may_agree() -> Certainty {
    Certainty::Possible {
        reasons: vec![
            "the loop's bounds or step differ between the two threads, but they may still run the same iterations up to the barrier".into(),
        ],
    }
}

/// The block and grid barriers in `p` with the condition, relative to `p`'s entry,
/// under which each is reached (`cond` for `p` itself): the paper's
/// `P_i` of seed 001 §5.2, for the barriers of one conditional. Barriers
/// inside loops get the condition of reaching the loop. Barriers in
/// `dead` (proved unreachable) are left out; each comes with its node,
/// its identity (one span may be inlined at several call sites).
fn barriers_reached(p: &Proto, cond: Sym, dead: &[*const Proto], out: &mut Vec<Reached>) {
    match p {
        Proto::Sync {
            kind: SyncKind::Block | SyncKind::Grid,
            span,
        } => {
            if !dead.contains(&(p as *const Proto)) {
                out.push((p as *const Proto, *span, cond));
            }
        }
        Proto::Seq(items) => items
            .iter()
            .for_each(|q| barriers_reached(q, cond.clone(), dead, out)),
        Proto::If {
            cond: c,
            then_,
            else_,
        } => {
            barriers_reached(then_, Sym::and(cond.clone(), c.clone()), dead, out);
            barriers_reached(else_, Sym::and(cond, Sym::negate(c.clone())), dead, out);
        }
        // Reached only when the loop runs at least once.
        Proto::For(l) => barriers_reached(&l.body, Sym::and(cond, enters(l)), dead, out),
        Proto::Loop { body, .. } => barriers_reached(body, cond, dead, out),
        Proto::Skip | Proto::Access(_) | Proto::Sync { .. } => {}
    }
}

/// Whether a thread runs at least one iteration of `l` (`lo < hi`).
fn enters(l: &ForLoop) -> Sym {
    Sym::binary(BinOp::Lt, l.ty, l.lo.clone(), l.hi.clone())
}

/// Whether a thread runs no iteration of `l`: its first value (`lo`, or
/// `hi - 1` for a decreasing step) is out of `lo..hi`. Exact: a `For`'s
/// range is exact (inference puts the conditions under which it is on a
/// conditional around it), so a loop runs at least once exactly when its
/// first value is in range, as the non-emptiness question asks.
fn runs_zero_times(l: &ForLoop) -> Sym {
    if l.step.increasing() {
        // `lo <= lo` always holds.
        return Sym::negate(enters(l));
    }
    let first = l.first_value();
    let from = Sym::binary(BinOp::Le, l.ty, l.lo.clone(), first.clone());
    let below = Sym::binary(BinOp::Lt, l.ty, first, l.hi.clone());
    Sym::negate(Sym::and(from, below))
}

/// A barrier's node, span and reach condition (see [`barriers_reached`]).
type Reached = (*const Proto, Span, Sym);

/// The block barriers of a loop body that every iteration passes (not
/// under a conditional or an inner loop).
fn unconditional_barriers(p: &Proto, out: &mut Vec<Span>) {
    match p {
        Proto::Sync {
            kind: SyncKind::Block,
            span,
        } => out.push(*span),
        Proto::Seq(items) => items.iter().for_each(|q| unconditional_barriers(q, out)),
        _ => {}
    }
}

pub(crate) type Piece = Vec<Inst>;

/// A fragment that passes at least one barrier: accesses before its first
/// barrier, closed phases, accesses after its last barrier.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Shape {
    pub(crate) head: Piece,
    pub(crate) middle: Vec<Piece>,
    pub(crate) tail: Piece,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Kind {
    /// Passes at least one barrier.
    Sync(Shape),
    /// Passes no barrier: one open phase.
    Unsync(Piece),
}

/// One way through a fragment.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Alt {
    pub(crate) kind: Kind,
    /// The alternative skips barriers under a condition that its accesses'
    /// guards do not carry (the branch of a uniform conditional without a
    /// barrier, a synchronized loop running zero times, or alternatives
    /// merged past [`MAX_ALTERNATIVES`]): a race found in its phases assumes
    /// that this path is feasible.
    pub(crate) assumed: bool,
    /// Conditions that hold on this alternative's path, to be put on the
    /// open piece of code that precedes it (the condition under which a
    /// synchronized loop runs zero times, or the branch condition of a
    /// barrier-free branch): that code meets the code after the skipped
    /// barriers only when they hold, so their pairs are asked under them.
    /// Relative to the same synchronized loops as the alternative; dropped
    /// (soundly) where no code precedes it at that level.
    pub(crate) pending: Vec<Sym>,
}

/// The alternatives of a fragment (at least one).
pub(crate) type Frag = Vec<Alt>;

/// Beyond this many alternatives, they are merged (soundly, less precisely).
const MAX_ALTERNATIVES: usize = 32;

pub(crate) fn union(mut a: Piece, b: Piece) -> Piece {
    for i in b {
        if !a.contains(&i) {
            a.push(i);
        }
    }
    a
}

/// Both shapes' phases: heads and tails united, middles kept. Every phase
/// of either shape is contained in a phase of the result.
fn merge(a: Option<Shape>, b: Shape) -> Shape {
    match a {
        None => b,
        Some(a) => {
            let mut middle = a.middle;
            for m in b.middle {
                if !middle.contains(&m) {
                    middle.push(m);
                }
            }
            Shape {
                head: union(a.head, b.head),
                middle,
                tail: union(a.tail, b.tail),
            }
        }
    }
}

/// Merges all alternatives into at most one of each kind.
fn collapse(f: Frag) -> Frag {
    let mut sync: Option<Shape> = None;
    let mut unsync: Option<Piece> = None;
    for alt in f {
        match alt.kind {
            Kind::Sync(s) => sync = Some(merge(sync, s)),
            Kind::Unsync(u) => unsync = Some(union(unsync.unwrap_or_default(), u)),
        }
    }
    let mut out = Vec::new();
    // Merged alternatives drop their pending conditions (sound: the code
    // before is then asked without them).
    if let Some(s) = sync {
        out.push(Alt {
            kind: Kind::Sync(s),
            assumed: true,
            pending: Vec::new(),
        });
    }
    if let Some(u) = unsync {
        out.push(Alt {
            kind: Kind::Unsync(u),
            assumed: true,
            pending: Vec::new(),
        });
    }
    out
}

/// `a` then `b`. The two come from different parts of the protocol (the
/// items of a sequence), so their instances are disjoint and pieces are
/// joined without a duplicate check; `a` is consumed, so a long sequence
/// is composed in linear time (its phases are moved, not copied, at each
/// step).
fn seq_kind(a: Kind, b: &Kind) -> Kind {
    let joined = |mut u: Piece, v: &Piece| {
        u.extend(v.iter().cloned());
        u
    };
    match (a, b) {
        (Kind::Unsync(u1), Kind::Unsync(u2)) => Kind::Unsync(joined(u1, u2)),
        (Kind::Unsync(u1), Kind::Sync(s2)) => Kind::Sync(Shape {
            head: joined(u1, &s2.head),
            middle: s2.middle.clone(),
            tail: s2.tail.clone(),
        }),
        (Kind::Sync(mut s1), Kind::Unsync(u2)) => {
            s1.tail = joined(s1.tail, u2);
            Kind::Sync(s1)
        }
        (Kind::Sync(mut s1), Kind::Sync(s2)) => {
            let tail = joined(std::mem::take(&mut s1.tail), &s2.head);
            s1.middle.push(tail);
            s1.middle.extend(s2.middle.iter().cloned());
            s1.tail = s2.tail.clone();
            Kind::Sync(s1)
        }
    }
}

pub(crate) fn dedup(f: Frag) -> Frag {
    let mut out: Frag = Vec::new();
    for alt in f {
        match out.iter_mut().find(|o| o.kind == alt.kind) {
            Some(o) => {
                o.assumed &= alt.assumed;
                // Only the conditions both paths carry.
                o.pending.retain(|c| alt.pending.contains(c));
            }
            None => out.push(alt),
        }
    }
    if out.len() > MAX_ALTERNATIVES {
        collapse(out)
    } else {
        out
    }
}

/// Puts conditions on the instances of a piece (see `Alt::pending`):
/// aligning's own puts them on copies of the sites; a walk that never has
/// pending conditions passes the piece through.
pub(crate) type Put<'a> = dyn FnMut(Piece, &[Sym]) -> Piece + 'a;

/// `kind` with `conds` put on its open trailing piece (the code that meets
/// what follows).
fn before(kind: Kind, conds: &[Sym], put: &mut Put<'_>) -> Kind {
    match kind {
        Kind::Unsync(u) => Kind::Unsync(put(u, conds)),
        Kind::Sync(mut s) => {
            s.tail = put(std::mem::take(&mut s.tail), conds);
            Kind::Sync(s)
        }
    }
}

/// Sequential composition: every alternative of `a` followed by every
/// alternative of `b`. An alternative of `b` with pending conditions puts
/// them on the open end of `a`'s; through an `a` that passes no barrier
/// they stay pending for the code before both.
pub(crate) fn seq(a: Frag, b: &Frag, put: &mut Put<'_>) -> Frag {
    let mut out = Vec::with_capacity(a.len() * b.len());
    for x in a {
        let open = matches!(x.kind, Kind::Unsync(_));
        let mut kind = Some(x.kind);
        for (k, y) in b.iter().enumerate() {
            // Each alternative of `a` is copied for all but the last of `b`.
            let mut xk = if k + 1 == b.len() {
                kind.take()
            } else {
                kind.clone()
            }
            .expect("invariant: taken only for the last alternative of `b`");
            if !y.pending.is_empty() {
                xk = before(xk, &y.pending, put);
            }
            let mut pending = x.pending.clone();
            if open {
                pending.extend(y.pending.iter().filter(|c| !x.pending.contains(c)).cloned());
            }
            out.push(Alt {
                kind: seq_kind(xk, &y.kind),
                assumed: x.assumed || y.assumed,
                pending,
            });
        }
    }
    dedup(out)
}

fn with_role(piece: &Piece, role: Role) -> Piece {
    piece
        .iter()
        .map(|i| {
            let mut path = Vec::with_capacity(i.path.len() + 1);
            path.push(role);
            path.extend_from_slice(&i.path);
            Inst { site: i.site, path }
        })
        .collect()
}

pub(crate) fn unsync(piece: Piece) -> Frag {
    vec![Alt {
        kind: Kind::Unsync(piece),
        assumed: false,
        pending: Vec::new(),
    }]
}

fn size(f: &Frag) -> usize {
    f.iter()
        .map(|a| match &a.kind {
            Kind::Unsync(u) => u.len(),
            Kind::Sync(s) => {
                s.head.len() + s.tail.len() + s.middle.iter().map(Vec::len).sum::<usize>()
            }
        })
        .sum()
}

/// The spans of the block and grid barriers (`grid_only`: grid barriers
/// only) in `p` that are not in `dead` (proved unreachable), in program
/// order.
fn live_barriers(p: &Proto, dead: &[*const Proto], grid_only: bool) -> Vec<Span> {
    let mut out = Vec::new();
    p.walk(&mut |q| {
        if let Proto::Sync { kind, span } = q {
            let counts = match kind {
                SyncKind::Grid => true,
                SyncKind::Block => !grid_only,
                SyncKind::Warp { .. } | SyncKind::Tile { .. } => false,
            };
            if counts && !dead.contains(&(q as *const Proto)) {
                out.push(*span);
            }
        }
    });
    out
}

/// Whether the protocol contains a block or grid barrier not in `dead`.
pub(crate) fn has_block_sync(p: &Proto, dead: &[*const Proto]) -> bool {
    !live_barriers(p, dead, false).is_empty()
}

/// Whether the protocol contains a grid barrier not in `dead`.
pub(crate) fn has_grid_sync(p: &Proto, dead: &[*const Proto]) -> bool {
    !live_barriers(p, dead, true).is_empty()
}

/// Whether the barrier at `at` in `p` is a grid barrier.
fn is_grid_barrier(p: &Proto, at: Span) -> bool {
    let mut found = false;
    p.walk(&mut |q| {
        found |= matches!(q, Proto::Sync { kind: SyncKind::Grid, span } if *span == at)
    });
    found
}

/// The span of the first grid barrier in `p` not in `dead`.
fn first_grid_span(p: &Proto, dead: &[*const Proto]) -> Option<Span> {
    live_barriers(p, dead, true).first().copied()
}

/// The span of the first block or grid barrier in `p` not in `dead`.
fn first_sync_span(p: &Proto, dead: &[*const Proto]) -> Option<Span> {
    live_barriers(p, dead, false).first().copied()
}

/// One phase: instances that may run between two consecutive block
/// barriers.
pub(crate) struct Phase {
    pub insts: Vec<Inst>,
    /// Formed only on paths that skip barriers under a condition the
    /// accesses' guards do not carry (see `Alt::assumed`).
    pub assumed: bool,
}

/// The result of aligning: the sites, the phases, and the grid phases
/// (`grid`: for two threads of different blocks, whom only grid barriers
/// order).
pub(crate) struct Aligned<'p> {
    pub sites: Vec<Site<'p>>,
    pub phases: Vec<Phase>,
    pub grid_phases: Vec<crate::grid::GridPhase>,
}

/// Aligns `body` and splits it into phases.
pub(crate) fn align<'p, O: Oracle>(
    body: &'p Proto,
    oracle: &mut O,
) -> Result<Aligned<'p>, AlignError<O::Error>> {
    let mut a = Aligner {
        oracle,
        sites: Vec::new(),
        guards: Vec::new(),
        loops: Vec::new(),
        sync_loops: Vec::new(),
        in_unknown_loop: false,
        passing: Vec::new(),
        loop_depth: 0,
        dead: Vec::new(),
        divergences: Vec::new(),
        conds: Vec::new(),
        copies: HashMap::new(),
    };
    let frag = match a.frag(body) {
        Ok(f) => f,
        Err(AlignError::Unsupported(..)) if !a.divergences.is_empty() => {
            return Err(AlignError::Divergent(a.divergences))
        }
        Err(e) => return Err(e),
    };
    if !a.divergences.is_empty() {
        return Err(AlignError::Divergent(a.divergences));
    }
    let mut phases: Vec<Phase> = Vec::new();
    for alt in frag {
        let pieces = match alt.kind {
            Kind::Unsync(u) => vec![u],
            Kind::Sync(s) => {
                let mut v = vec![s.head];
                v.extend(s.middle);
                v.push(s.tail);
                v
            }
        };
        for mut insts in pieces {
            if insts.is_empty() {
                continue;
            }
            insts.sort();
            match phases.iter_mut().find(|p| p.insts == insts) {
                Some(p) => p.assumed &= alt.assumed,
                None => phases.push(Phase {
                    insts,
                    assumed: alt.assumed,
                }),
            }
        }
    }
    let grid_phases = crate::grid::phases(body, &a.sites, &a.dead);
    Ok(Aligned {
        sites: a.sites,
        phases,
        grid_phases,
    })
}

struct Aligner<'p, 'o, O: Oracle> {
    oracle: &'o mut O,
    sites: Vec<Site<'p>>,
    guards: Vec<Sym>,
    loops: Vec<&'p ForLoop>,
    sync_loops: Vec<&'p ForLoop>,
    in_unknown_loop: bool,
    /// Conditions that hold on the path being aligned but are not put on
    /// its sites (an unknown loop's `again` in one of its two passes):
    /// they only rule branches out.
    passing: Vec<Sym>,
    /// Nesting depth in `For`/`Loop`.
    loop_depth: usize,
    /// Branches proved dead (never aligned: they have no sites) and
    /// barriers proved unreachable (ordering nothing).
    dead: Vec<*const Proto>,
    /// Divergent barriers found so far, at most one per barrier.
    divergences: Vec<Divergence>,
    /// The lists of conditions put on copies of sites (see [`Self::put`]).
    conds: Vec<Vec<Sym>>,
    /// The copy of a site (by index) under a list of `conds` (by index).
    copies: HashMap<(usize, usize), usize>,
}

impl<'p, O: Oracle> Aligner<'p, '_, O> {
    /// The instances of `piece` on copies of their sites whose guards also
    /// have `conds` (conditions of the path that skips barriers after
    /// them, see `Alt::pending`). The copies keep the access, loops and
    /// roles: a pair with the copy is asked as with the site, under the
    /// further conditions. One copy per site and list of conditions.
    fn put(&mut self, piece: Piece, conds: &[Sym]) -> Piece {
        let conds: Vec<Sym> = conds.iter().filter(|c| !c.is_true()).cloned().collect();
        if piece.is_empty() || conds.is_empty() {
            return piece;
        }
        let id = match self.conds.iter().position(|c| *c == conds) {
            Some(id) => id,
            None => {
                self.conds.push(conds);
                self.conds.len() - 1
            }
        };
        piece
            .into_iter()
            .map(|inst| {
                let site = match self.copies.get(&(inst.site, id)) {
                    Some(&copy) => copy,
                    None => {
                        let s = &self.sites[inst.site];
                        let mut guards = s.guards.clone();
                        guards.extend(self.conds[id].iter().cloned());
                        let copy = Site {
                            access: s.access,
                            guards,
                            loops: s.loops.clone(),
                            sync_loops: s.sync_loops.clone(),
                            in_unknown_loop: s.in_unknown_loop,
                        };
                        self.sites.push(copy);
                        let copy = self.sites.len() - 1;
                        self.copies.insert((inst.site, id), copy);
                        copy
                    }
                };
                Inst {
                    site,
                    path: inst.path,
                }
            })
            .collect()
    }

    fn frag(&mut self, p: &'p Proto) -> Result<Frag, AlignError<O::Error>> {
        Ok(match p {
            Proto::Skip => unsync(Vec::new()),
            Proto::Access(a) => {
                self.sites.push(Site {
                    access: a,
                    guards: self.guards.clone(),
                    loops: self.loops.clone(),
                    sync_loops: self.sync_loops.clone(),
                    in_unknown_loop: self.in_unknown_loop,
                });
                unsync(vec![Inst {
                    site: self.sites.len() - 1,
                    path: Vec::new(),
                }])
            }
            // A barrier proved unreachable (see `divergent_if`) orders
            // nothing.
            Proto::Sync { .. } if self.dead.contains(&(p as *const Proto)) => unsync(Vec::new()),
            Proto::Sync { kind, span } => match kind {
                SyncKind::Block => vec![Alt {
                    kind: Kind::Sync(Shape::default()),
                    assumed: false,
                    pending: Vec::new(),
                }],
                SyncKind::Grid => {
                    // Under conditions proved uniform across the grid
                    // (see `If`); in a loop, not supported.
                    if self.loop_depth > 0 {
                        return Err(AlignError::Unsupported(NESTED_GRID_REASON.into(), *span));
                    }
                    vec![Alt {
                        kind: Kind::Sync(Shape::default()),
                        assumed: false,
                        pending: Vec::new(),
                    }]
                }
                // Orders nothing here: a sound over-approximation.
                SyncKind::Warp { .. } | SyncKind::Tile { .. } => unsync(Vec::new()),
            },
            Proto::Seq(items) => {
                let mut acc = unsync(Vec::new());
                let mut acc_size = 0;
                for item in items {
                    let f = self.frag(item)?;
                    // An upper bound of the composition's size; counted
                    // exactly only when it passes the limit.
                    let bound = f.len() * acc_size + acc.len() * size(&f);
                    acc = seq(acc, &f, &mut |piece, conds| self.put(piece, conds));
                    acc_size = bound;
                    if bound > MAX_INSTANCES {
                        acc_size = size(&acc);
                    }
                    if acc_size > MAX_INSTANCES {
                        let span = self.sites.last().expect("invariant: instances").access.span;
                        return Err(AlignError::Unsupported(TOO_LARGE_REASON.into(), span));
                    }
                }
                acc
            }
            Proto::If { cond, then_, else_ } => {
                let mut synchronized = has_block_sync(p, &self.dead);
                if synchronized {
                    let uniform = self
                        .oracle
                        .uniform(&self.sync_loops, &self.guards, &[cond])?;
                    let span = first_sync_span(p, &self.dead).expect("invariant: a barrier inside");
                    match uniform {
                        Uniformity::Uniform => {
                            // Grid barriers inside: uniform across the grid
                            // too (inside a loop, they are reported when
                            // reached).
                            if self.loop_depth == 0 && has_grid_sync(p, &self.dead) {
                                self.grid_condition(p, cond)?;
                            }
                        }
                        Uniformity::Unproved => {
                            return Err(AlignError::Unsupported(DIVERGENCE_REASON.into(), span))
                        }
                        Uniformity::Differs { .. } => {
                            self.divergent_if(p)?;
                            // Its barriers may all be unreachable: then
                            // the conditional synchronizes nothing.
                            synchronized = has_block_sync(p, &self.dead);
                        }
                    }
                }
                let not_cond = Sym::negate(cond.clone());
                // A branch proved dead (in a synchronized conditional)
                // contributes no alternative.
                let mut live = [true, true];
                if synchronized {
                    for (k, c) in [cond, &not_cond].into_iter().enumerate() {
                        let context: Vec<Sym> =
                            self.guards.iter().chain(&self.passing).cloned().collect();
                        live[k] = self.oracle.feasible(&self.sync_loops, &context, c)?;
                    }
                }
                let mut branches = Vec::new();
                for (k, (c, branch)) in [(cond, then_), (&not_cond, else_)].into_iter().enumerate()
                {
                    if !live[k] {
                        self.dead.push(&**branch as *const Proto);
                        continue;
                    }
                    self.guards.push(c.clone());
                    let f = self.frag(branch);
                    self.guards.pop();
                    branches.push((c, f?));
                }
                if branches.is_empty() {
                    // Both branches dead: the context itself is infeasible.
                    return Ok(unsync(Vec::new()));
                }
                if synchronized {
                    // Two alternative protocols, each under its (uniform)
                    // condition; a branch without a barrier lets the code
                    // around the conditional meet in one phase, only under
                    // that branch's condition: pending for the code before
                    // (the branch's own accesses have it as a guard).
                    let mut out: Frag = Vec::new();
                    for (c, branch) in branches {
                        for mut alt in branch {
                            if matches!(alt.kind, Kind::Unsync(_)) {
                                alt.assumed = true;
                                if !alt.pending.contains(c) {
                                    alt.pending.push(c.clone());
                                }
                            }
                            out.push(alt);
                        }
                    }
                    dedup(out)
                } else {
                    // No barrier inside: both branches are one open phase.
                    let mut piece = Vec::new();
                    let mut assumed = false;
                    for alt in branches.into_iter().flat_map(|(_, f)| f) {
                        assumed |= alt.assumed;
                        if let Kind::Unsync(u) = alt.kind {
                            piece = union(piece, u);
                        }
                    }
                    vec![Alt {
                        kind: Kind::Unsync(piece),
                        assumed,
                        pending: Vec::new(),
                    }]
                }
            }
            Proto::For(l) => {
                self.loop_depth += 1;
                let out = if has_block_sync(&l.body, &self.dead) {
                    self.sync_loop(l)
                } else {
                    self.loops.push(l);
                    let f = self.frag(&l.body);
                    self.loops.pop();
                    f
                };
                self.loop_depth -= 1;
                out?
            }
            Proto::Loop { body, again, .. } => {
                if let Some(span) = first_sync_span(body, &self.dead) {
                    return self.unknown_sync_loop(body, again, span);
                }
                let outer = self.in_unknown_loop;
                self.in_unknown_loop = true;
                self.loop_depth += 1;
                let f = self.frag(body);
                self.loop_depth -= 1;
                self.in_unknown_loop = outer;
                f?
            }
        })
    }

    /// Records a loop's divergence at each of `spans` (its barriers every
    /// iteration passes), or at `first` when there are none.
    fn record_at(
        &mut self,
        mut spans: Vec<Span>,
        first: Span,
        reason: &str,
        threads: Option<DivergenceWitness>,
        certainty: Certainty,
    ) {
        if spans.is_empty() {
            spans.push(first);
        }
        for b in spans {
            self.record(divergence(b, reason, threads.clone(), certainty.clone()));
        }
    }

    /// Records a divergent barrier, once per barrier.
    fn record(&mut self, d: Divergence) {
        if !self.divergences.iter().any(|e| e.span == d.span) {
            self.divergences.push(d);
        }
    }

    /// A conditional around barriers whose condition differs between two
    /// threads of a block: each barrier inside is checked on its own (seed
    /// 001 §5.2): it is divergent when one thread of a block reaches it
    /// and another does not (`P_i(t1) != P_i(t2)` under the enclosing
    /// conditions and the preconditions), recorded with that witness.
    /// When no barrier is divergent and each is proved unreachable, they
    /// all go to `dead` (the conditional then synchronizes nothing); a
    /// barrier neither shown divergent nor unreachable (reached by all the
    /// threads of a block or none, or no answer) makes the kernel UNKNOWN,
    /// since aligning the branches as alternatives needs a uniform
    /// condition.
    fn divergent_if(&mut self, p: &Proto) -> Result<(), AlignError<O::Error>> {
        let mut barriers = Vec::new();
        barriers_reached(p, Sym::Bool(true), &self.dead, &mut barriers);
        let mut divergent = false;
        let mut unreachable = Vec::new();
        let mut unresolved: Option<(&str, Span)> = None;
        for (node, span, reach) in barriers {
            if self.divergences.iter().any(|d| d.span == span) {
                divergent = true;
                continue;
            }
            match self
                .oracle
                .uniform(&self.sync_loops, &self.guards, &[&reach])?
            {
                Uniformity::Differs { threads, certainty } => {
                    divergent = true;
                    self.record(divergence(span, DIVERGENCE_REASON, threads, certainty));
                }
                Uniformity::Uniform => {
                    if self
                        .oracle
                        .feasible(&self.sync_loops, &self.guards, &reach)?
                    {
                        unresolved.get_or_insert((UNIFORM_BARRIER_REASON, span));
                    } else {
                        unreachable.push(node);
                    }
                }
                Uniformity::Unproved => {
                    unresolved.get_or_insert((DIVERGENCE_REASON, span));
                }
            }
        }
        if divergent {
            return Ok(());
        }
        if let Some((reason, span)) = unresolved {
            return Err(AlignError::Unsupported(reason.into(), span));
        }
        self.dead.extend(unreachable);
        Ok(())
    }

    /// A conditional around grid barriers, proved uniform within a block:
    /// it must also be uniform across the grid (every thread of the grid
    /// reaches a grid barrier, or none does). When two threads of
    /// different blocks disagree, each grid barrier inside is checked on
    /// its own, as [`Self::divergent_if`] does for block barriers.
    fn grid_condition(&mut self, p: &Proto, cond: &Sym) -> Result<(), AlignError<O::Error>> {
        let span = first_grid_span(p, &self.dead).expect("invariant: a grid barrier inside");
        match self.oracle.grid_uniform(&self.guards, &[cond])? {
            Uniformity::Uniform => Ok(()),
            Uniformity::Unproved => {
                Err(AlignError::Unsupported(GRID_DIVERGENCE_REASON.into(), span))
            }
            Uniformity::Differs { threads, certainty } => {
                let mut barriers = Vec::new();
                barriers_reached(p, Sym::Bool(true), &self.dead, &mut barriers);
                let before = self.divergences.len();
                for (_, at, reach) in barriers {
                    if !is_grid_barrier(p, at) || self.divergences.iter().any(|d| d.span == at) {
                        continue;
                    }
                    if let Uniformity::Differs { threads, certainty } =
                        self.oracle.grid_uniform(&self.guards, &[&reach])?
                    {
                        self.record(divergence(at, GRID_DIVERGENCE_REASON, threads, certainty));
                    }
                }
                if self.divergences.len() == before {
                    self.record(divergence(
                        span,
                        GRID_DIVERGENCE_REASON,
                        threads,
                        reach_not_shown(certainty),
                    ));
                }
                Ok(())
            }
        }
    }

    /// A loop of unknown iteration count with block barriers inside.
    /// Whether a thread that starts an iteration starts the next (`again`)
    /// must be proved uniform within the block; with the conditions around
    /// its barriers proved uniform too, the threads of a block then run
    /// the same iterations between barriers. There is no loop variable to
    /// share, so the phases take no roles: the body's alternatives are
    /// merged, and the accesses after the last barrier of an iteration,
    /// those of iterations that pass no barrier (exits, or iterations that
    /// skip every barrier) and those before the first barrier of the next
    /// iteration form one phase. Code before the loop meets the heads and
    /// the barrier-free iterations, code after it the tails and those.
    fn unknown_sync_loop(
        &mut self,
        body: &'p Proto,
        again: &Sym,
        span: Span,
    ) -> Result<Frag, AlignError<O::Error>> {
        if let Some(at) = first_grid_span(body, &self.dead) {
            // The loop's exit would have to be uniform across the grid.
            return Err(AlignError::Unsupported(NESTED_GRID_REASON.into(), at));
        }
        match self
            .oracle
            .uniform(&self.sync_loops, &self.guards, &[again])?
        {
            Uniformity::Uniform => {}
            Uniformity::Unproved => {
                return Err(AlignError::Unsupported(UNKNOWN_LOOP_REASON.into(), span))
            }
            Uniformity::Differs { threads, certainty } => {
                let mut spans = Vec::new();
                unconditional_barriers(body, &mut spans);
                self.record_at(
                    spans,
                    span,
                    UNKNOWN_LOOP_DIVERGENCE_REASON,
                    threads,
                    exits_may_agree(certainty),
                );
            }
        }
        // The body twice: iterations that go on (`again` holds for the
        // block) and iterations that leave the loop (it fails for the
        // block). Branches dead in one pass are dead only for it. Inside
        // another unknown loop's pass, once, unguarded, each alternative
        // taken as both (less precise, and the sites do not double at
        // every level of nesting).
        let nested = self.in_unknown_loop;
        let guards: Vec<Option<Sym>> = if nested {
            vec![None]
        } else {
            vec![Some(again.clone()), Some(Sym::negate(again.clone()))]
        };
        let mark = self.dead.len();
        let mut passes: Vec<(bool, bool, Frag)> = Vec::new();
        let mut dead: Option<Vec<*const Proto>> = None;
        for (k, guard) in guards.into_iter().enumerate() {
            self.in_unknown_loop = true;
            self.loop_depth += 1;
            let guarded = guard.is_some();
            if let Some(g) = guard {
                self.passing.push(g);
            }
            let f = self.frag(body);
            if guarded {
                self.passing.pop();
            }
            self.loop_depth -= 1;
            self.in_unknown_loop = nested;
            let now: Vec<*const Proto> = self.dead.drain(mark..).collect();
            dead = Some(match dead {
                None => now,
                Some(before) => before.into_iter().filter(|d| now.contains(d)).collect(),
            });
            // (goes on, leaves, alternatives)
            passes.push((nested || k == 0, nested || k == 1, f?));
        }
        self.dead.extend(dead.unwrap_or_default());
        let mut assumed = false;
        let (mut heads, mut tails, mut middle) = (Piece::new(), Piece::new(), Vec::new());
        // Barrier-free iterations that go on, and those that leave.
        let (mut open_cont, mut open_exit): (Option<Piece>, Option<Piece>) = (None, None);
        let mut tails_cont = Piece::new();
        let mut synced = false;
        for (going_on, leaving, f) in passes {
            for alt in f {
                assumed |= alt.assumed;
                match alt.kind {
                    Kind::Sync(s) => {
                        synced = true;
                        heads = union(heads, s.head);
                        for m in s.middle {
                            if !middle.contains(&m) {
                                middle.push(m);
                            }
                        }
                        if going_on {
                            tails_cont = union(tails_cont, s.tail.clone());
                        }
                        if leaving {
                            tails = union(tails, s.tail);
                        }
                    }
                    Kind::Unsync(u) => {
                        if going_on {
                            open_cont =
                                Some(union(open_cont.take().unwrap_or_default(), u.clone()));
                        }
                        if leaving {
                            open_exit = Some(union(open_exit.take().unwrap_or_default(), u));
                        }
                    }
                }
            }
        }
        let free = open_cont.is_some() || open_exit.is_some();
        let open_cont = open_cont.unwrap_or_default();
        let leaves_free = open_exit.is_some();
        let open_exit = open_exit.unwrap_or_default();
        if !synced {
            // Every barrier inside was proved unreachable: one open phase.
            return Ok(vec![Alt {
                kind: Kind::Unsync(union(open_cont, open_exit)),
                assumed,
                pending: Vec::new(),
            }]);
        }
        // After an iteration that goes on: the next one's head, possibly
        // after iterations that pass no barrier.
        let around = union(union(tails_cont.clone(), open_cont.clone()), heads.clone());
        if !middle.contains(&around) {
            middle.push(around);
        }
        // Before the loop: the first head, possibly after barrier-free
        // iterations; after it: the last tail, or a tail that goes on
        // followed by barrier-free iterations that leave.
        let head = union(heads, open_cont.clone());
        let mut tail = tails;
        if leaves_free {
            tail = union(
                union(tail, tails_cont),
                union(open_cont.clone(), open_exit.clone()),
            );
        }
        let mut out = vec![Alt {
            kind: Kind::Sync(Shape { head, middle, tail }),
            assumed: assumed || free,
            pending: Vec::new(),
        }];
        if leaves_free {
            // The loop may be left before any barrier (its condition false
            // at the first test, or a jump out).
            out.push(Alt {
                kind: Kind::Unsync(union(open_cont, open_exit)),
                assumed: true,
                pending: Vec::new(),
            });
        }
        Ok(out)
    }

    /// A `For` loop whose body contains a block barrier (Fig. 3).
    fn sync_loop(&mut self, l: &'p ForLoop) -> Result<Frag, AlignError<O::Error>> {
        let span = first_sync_span(&l.body, &self.dead).unwrap_or(l.span);
        if !l.bound_known {
            return Err(AlignError::Unsupported(EARLY_EXIT_REASON.into(), span));
        }
        let values = [&l.lo, &l.hi, l.step.amount()];
        let uniform = self
            .oracle
            .uniform(&self.sync_loops, &self.guards, &values)?;
        match uniform {
            Uniformity::Uniform => {}
            Uniformity::Unproved => {
                return Err(AlignError::Unsupported(LOOP_DIVERGENCE_REASON.into(), span))
            }
            Uniformity::Differs { .. }
                if !self
                    .oracle
                    .feasible(&self.sync_loops, &self.guards, &enters(l))? =>
            {
                // No thread runs an iteration: the barriers inside are
                // unreachable, and the loop synchronizes nothing.
                let mut barriers = Vec::new();
                barriers_reached(&l.body, Sym::Bool(true), &self.dead, &mut barriers);
                self.dead
                    .extend(barriers.into_iter().map(|(node, _, _)| node));
                self.loops.push(l);
                let f = self.frag(&l.body);
                self.loops.pop();
                return f;
            }
            Uniformity::Differs { threads, certainty } => {
                // Threads whose bounds differ may still run the same number
                // of iterations (`for (i = t; i < 2; i += blockDim.x)` with
                // two threads: one each). Provable only when one thread
                // enters the loop and the other does not, for a barrier
                // every iteration passes; otherwise possible.
                let mut spans = Vec::new();
                unconditional_barriers(&l.body, &mut spans);
                let (threads, certainty) = match certainty {
                    Certainty::Provable if !spans.is_empty() => {
                        let entry = Sym::binary(BinOp::Lt, l.ty, l.lo.clone(), l.hi.clone());
                        match self
                            .oracle
                            .uniform(&self.sync_loops, &self.guards, &[&entry])?
                        {
                            Uniformity::Differs {
                                threads,
                                certainty: Certainty::Provable,
                            } => (threads, Certainty::Provable),
                            _ => (threads, counts_may_agree()),
                        }
                    }
                    Certainty::Provable => (threads, counts_may_agree()),
                    c => (threads, c),
                };
                self.record_at(spans, span, LOOP_DIVERGENCE_REASON, threads, certainty);
            }
        }
        let nonempty = self.oracle.nonempty(&self.sync_loops, &self.guards, l)?;
        self.sync_loops.push(l);
        let body = self.frag(&l.body);
        self.sync_loops.pop();
        // Each iteration may take a different alternative of the body: the
        // loop's phases are those of their merge (tail of any alternative
        // in iteration `Prev` with the head of any in iteration `Cur`).
        let mut shape: Option<Shape> = None;
        let mut assumed = false;
        for alt in body? {
            match alt.kind {
                Kind::Unsync(_) => {
                    return Err(AlignError::Unsupported(
                        NO_BARRIER_ITERATION_REASON.into(),
                        span,
                    ))
                }
                Kind::Sync(s) => {
                    assumed |= alt.assumed;
                    shape = Some(merge(shape, s));
                }
            }
        }
        let s = shape.expect("invariant: a fragment has an alternative");
        let mut middle: Vec<Piece> = s.middle.iter().map(|m| with_role(m, Role::Cur)).collect();
        middle.push(union(
            with_role(&s.tail, Role::Prev),
            with_role(&s.head, Role::Cur),
        ));
        let mut out = vec![Alt {
            kind: Kind::Sync(Shape {
                head: with_role(&s.head, Role::First),
                middle,
                tail: with_role(&s.tail, Role::Last),
            }),
            assumed,
            pending: Vec::new(),
        }];
        if !nonempty {
            // Zero iterations: the code before and after the loop meet,
            // when the loop's first value is out of its range.
            out.push(Alt {
                kind: Kind::Unsync(Vec::new()),
                assumed: true,
                pending: vec![runs_zero_times(l)],
            });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{AccessMode, Step};
    use warpsafe_ir::{ArrayId, BinOp, Builtin, Dim, LoopId, ScalarTy, VarId};
    use warpsafe_source::FileId;

    struct Always {
        nonempty: bool,
    }

    impl Oracle for Always {
        type Error = ();
        fn uniform(&mut self, _: &[&ForLoop], _: &[Sym], _: &[&Sym]) -> Result<Uniformity, ()> {
            Ok(Uniformity::Uniform)
        }
        fn grid_uniform(&mut self, _: &[Sym], _: &[&Sym]) -> Result<Uniformity, ()> {
            Ok(Uniformity::Uniform)
        }
        fn feasible(&mut self, _: &[&ForLoop], _: &[Sym], _: &Sym) -> Result<bool, ()> {
            Ok(true)
        }
        fn nonempty(&mut self, _: &[&ForLoop], _: &[Sym], _: &ForLoop) -> Result<bool, ()> {
            Ok(self.nonempty)
        }
    }

    fn span(n: u32) -> Span {
        Span::new(FileId(0), n, n + 1)
    }

    fn tid() -> Sym {
        Sym::Builtin(Builtin::ThreadIdx(Dim::X))
    }

    fn access(mode: AccessMode, index: Sym, at: u32) -> Proto {
        Proto::Access(Access {
            array: ArrayId(0),
            mode,
            index,
            atomic: false,
            scope: None,
            volatile: false,
            span: span(at),
        })
    }

    fn for_(var: u32, hi: Sym, body: Proto) -> Proto {
        Proto::For(Box::new(ForLoop {
            var: VarId(var),
            loop_id: LoopId(var),
            ty: ScalarTy::U32,
            lo: Sym::int(0, ScalarTy::U32),
            hi,
            step: Step::Add(Sym::int(1, ScalarTy::U32)),
            test: BinOp::Lt,
            body,
            bound_known: true,
            span: span(100 + var),
        }))
    }

    fn param(v: u32) -> Sym {
        Sym::Param {
            var: VarId(v),
            ty: ScalarTy::U32,
        }
    }

    fn sync() -> Proto {
        Proto::Sync {
            kind: SyncKind::Block,
            span: span(50),
        }
    }

    /// Listing 2.3 (left): `for r in 0..N { for i in 0..M { wr[tid] };
    /// sync; for j in 0..M { rd[tid + j] } }`, preceded by `pre` and
    /// followed by `post`.
    fn listing_2_3(pre: Proto, post: Proto) -> Proto {
        let j = Sym::LoopVar {
            var: VarId(3),
            loop_id: LoopId(3),
            ty: ScalarTy::U32,
        };
        let body = Proto::seq(vec![
            for_(2, param(11), access(AccessMode::Write, tid(), 1)),
            sync(),
            for_(
                3,
                param(11),
                access(
                    AccessMode::Read,
                    Sym::binary(BinOp::Add, ScalarTy::U32, tid(), j),
                    2,
                ),
            ),
        ]);
        Proto::seq(vec![pre, for_(1, param(10), body), post])
    }

    fn phases(p: &Proto, nonempty: bool) -> Vec<(Vec<String>, bool)> {
        let Ok(a) = align(p, &mut Always { nonempty }) else {
            panic!("aligning failed")
        };
        a.phases
            .iter()
            .map(|ph| {
                let mut insts: Vec<String> = ph
                    .insts
                    .iter()
                    .map(|i| {
                        let s = &a.sites[i.site];
                        format!("{}{:?}", s.access.span.lo, i.path)
                    })
                    .collect();
                insts.sort();
                (insts, ph.assumed)
            })
            .collect()
    }

    fn strs(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn listing_2_3_aligns_as_in_the_paper() {
        // q1 = for i { wr[tid] } (first iteration); the aligned loop body
        // u[r:=r-1] ; q = rd of the previous iteration with wr of this
        // one; u[r:=N-1] = the last iteration's reads.
        let p = listing_2_3(Proto::Skip, Proto::Skip);
        assert_eq!(
            phases(&p, true),
            vec![
                (strs(&["1[First]"]), false),
                (strs(&["1[Cur]", "2[Prev]"]), false),
                (strs(&["2[Last]"]), false),
            ]
        );
    }

    #[test]
    fn a_loop_not_proved_non_empty_adds_the_zero_iteration_phase() {
        let pre = access(AccessMode::Read, tid(), 7);
        let post = access(AccessMode::Write, tid(), 8);
        let p = listing_2_3(pre, post);
        assert_eq!(
            phases(&p, true),
            vec![
                (strs(&["1[First]", "7[]"]), false),
                (strs(&["1[Cur]", "2[Prev]"]), false),
                (strs(&["2[Last]", "8[]"]), false),
            ]
        );
        let with_empty = phases(&p, false);
        assert_eq!(with_empty.len(), 4, "{with_empty:?}");
        assert!(with_empty.contains(&(strs(&["7[]", "8[]"]), true)));
    }

    /// The guards of the instances of `p`'s phase that holds the accesses
    /// at `at`, by access.
    fn guards_in_phase(p: &Proto, at: &[u32]) -> Vec<(u32, Vec<Sym>)> {
        let Ok(a) = align(p, &mut Always { nonempty: false }) else {
            panic!("aligning failed")
        };
        let phase = a
            .phases
            .iter()
            .find(|ph| {
                let mut spans: Vec<u32> = ph
                    .insts
                    .iter()
                    .map(|i| a.sites[i.site].access.span.lo)
                    .collect();
                spans.sort_unstable();
                spans == at
            })
            .expect("the phase");
        phase
            .insts
            .iter()
            .map(|i| {
                let s = &a.sites[i.site];
                (s.access.span.lo, s.guards.clone())
            })
            .collect()
    }

    #[test]
    fn code_before_a_loop_running_zero_times_meets_the_code_after_under_that_condition() {
        let pre = access(AccessMode::Read, tid(), 7);
        let post = access(AccessMode::Write, tid(), 8);
        let p = listing_2_3(pre, post);
        // The loop `for r in 0..N` runs zero times: !(0 < N).
        let zero = Sym::int(0, ScalarTy::U32);
        let skips = Sym::negate(Sym::binary(BinOp::Lt, ScalarTy::U32, zero, param(10)));
        assert_eq!(
            guards_in_phase(&p, &[7, 8]),
            vec![(7, vec![skips]), (8, vec![])]
        );
        // Elsewhere the access before the loop has no such guard.
        assert_eq!(guards_in_phase(&p, &[1, 7]), vec![(7, vec![]), (1, vec![])]);
    }

    #[test]
    fn code_before_a_barrier_free_branch_meets_the_code_after_under_its_condition() {
        // rd[tid]; if (N) { sync }; wr[tid]
        let cond = param(10);
        let p = Proto::seq(vec![
            access(AccessMode::Read, tid(), 7),
            Proto::if_(cond.clone(), sync(), Proto::Skip),
            access(AccessMode::Write, tid(), 8),
        ]);
        assert_eq!(
            guards_in_phase(&p, &[7, 8]),
            vec![(7, vec![Sym::negate(cond)]), (8, vec![])]
        );
    }

    #[test]
    fn nested_synchronized_loops_compose_roles() {
        // for a { for b { wr; sync; rd } }: the inner loop's tail in the
        // last inner iteration of the previous outer iteration meets the
        // inner head of the first inner iteration of the current one.
        let inner = for_(
            2,
            param(11),
            Proto::seq(vec![
                access(AccessMode::Write, tid(), 1),
                sync(),
                access(AccessMode::Read, tid(), 2),
            ]),
        );
        let p = for_(1, param(10), inner);
        let got = phases(&p, true);
        assert!(
            got.contains(&(strs(&["1[Cur, First]", "2[Prev, Last]"]), false)),
            "{got:?}"
        );
        assert!(
            got.contains(&(strs(&["1[Cur, Cur]", "2[Cur, Prev]"]), false)),
            "{got:?}"
        );
        assert!(
            got.contains(&(strs(&["1[First, First]"]), false)),
            "{got:?}"
        );
        assert!(got.contains(&(strs(&["2[Last, Last]"]), false)), "{got:?}");
    }

    #[test]
    fn unsupported_shapes_are_reported() {
        // An iteration that may pass no barrier (a possibly empty inner
        // synchronized loop as the whole body).
        let p = for_(1, param(10), for_(2, param(11), sync()));
        assert!(matches!(
            align(&p, &mut Always { nonempty: false }),
            Err(AlignError::Unsupported(r, _)) if r == NO_BARRIER_ITERATION_REASON
        ));
    }
}
