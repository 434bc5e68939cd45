//! Batched race queries: one SMT query per phase and array (seed 002 §4,
//! as Faial encodes a whole phase at once), instead of one per pair of
//! access instances.
//!
//! A [`Group`] is the access instances of one array in one phase (for two
//! threads of one block), or the access sites of one global array in one
//! grid phase (for two threads of different blocks). The query lets each
//! thread *choose* a member with a selector constant: member `x` chosen by
//! thread `k` implies that member's path guards, loop ranges and index for
//! that thread (`sel_k = x ⟹ C_k(x) ∧ idx_k = index_k(x)`); both indices
//! are equal, at least one chosen member writes, not both are atomic at the
//! scope, the threads are distinct. Constants are shared, so the formula
//! stays linear in the group even for deeply nested loops: the shared
//! constants of synchronized loops (see `align`) are declared once, and
//! each thread's variable of an unsynchronized loop once per loop (and
//! synchronized context); each comes with a boolean flag that asserts its
//! range (pinned value, link), and a chosen member sets the flags of the
//! loops around it. With both selectors fixed, the constraints that must
//! hold are exactly those of the pairwise query of `race` (free constants
//! and flags add no constraint) before its refinement with symbolic
//! strides, so the batch is satisfiable iff some pair's query is (or, with
//! a symbolic stride, if: the pairwise query decides). (Unknown leaves in a loop's bounds get their own
//! constants, independent of the same leaf in an index: an
//! over-approximation, see `sym`.)
//!
//! The formula grows linearly with the group, where pairs grow
//! quadratically. A `Sat` answer names one racy pair of source locations;
//! the caller reports it with the precise pairwise query and asks again
//! with that pair of locations *blocked*, until `unsat`. An inconclusive
//! answer (timeout, encoding failure) makes the caller fall back to the
//! pairwise queries of the group, so the batch never loses a verdict.

use std::collections::{HashMap, HashSet};

use crate::align::{Aligned, Inst, Site};
use crate::encode::{resize, sort_of, Encoder};
use crate::protocol::{AccessMode, ForLoop};
use crate::race::{atomic_at, domain, inst_key, BinderKey, Check, Fatal};
use crate::verdict::RaceScope;
use warpsafe_ir::{ArrayId, Kernel, LoopId, MemSpace, ScalarTy, Span};
use warpsafe_smt::{term, CheckResult, Sort, Term};

/// Members of one batched query.
pub(crate) struct Group {
    pub scope: RaceScope,
    /// Same-block: instances of one phase; cross-block: sites of one grid
    /// phase (with an empty role path).
    pub members: Vec<Inst>,
}

/// One thread's unsynchronized loop constants in a batched query: per loop
/// node (by address) and synchronized context, the variable and the flag
/// that asserts its range.
type OwnLoops = HashMap<(*const ForLoop, BinderKey), (Term, Term)>;

/// What a batched query found.
pub(crate) enum Outcome {
    /// No pair of members races (a clean `unsat`).
    Clear,
    /// A pair of members races; their array and source locations.
    Racy(ArrayId, Span, Span),
    /// The solver gave up, or a member could not be encoded.
    Inconclusive,
}

/// The arrays threads share (neither local nor constant).
/// The most row lemmas (see `rows`) one batched query states.
const MAX_LEMMAS: usize = 64;

fn shared_array(kernel: &Kernel, a: ArrayId) -> bool {
    !matches!(kernel.array(a).space, MemSpace::Local | MemSpace::Constant)
}

/// Whether some pair of members may race at all (a write, not all atomic).
fn worth_checking(sites: &[Site<'_>], members: &[Inst], cross_block: bool) -> bool {
    let any_write = members
        .iter()
        .any(|m| sites[m.site].access.mode == AccessMode::Write);
    let all_atomic = members
        .iter()
        .all(|m| atomic_at(sites[m.site].access, cross_block));
    any_write && !all_atomic
}

/// The groups of a kernel: per phase and shared array (same-block), per
/// grid phase and global array (cross-block; none when the grid is known
/// to have one block).
pub(crate) fn groups(kernel: &Kernel, aligned: &Aligned<'_>) -> Vec<Group> {
    let sites = &aligned.sites;
    let mut out = Vec::new();
    let mut seen: HashSet<Vec<Inst>> = HashSet::new();
    for phase in &aligned.phases {
        let mut by_array: Vec<(ArrayId, Vec<Inst>)> = Vec::new();
        for inst in &phase.insts {
            let array = sites[inst.site].access.array;
            if !shared_array(kernel, array) {
                continue;
            }
            match by_array.iter_mut().find(|(a, _)| *a == array) {
                Some((_, v)) => v.push(inst.clone()),
                None => by_array.push((array, vec![inst.clone()])),
            }
        }
        for (_, members) in by_array {
            if worth_checking(sites, &members, false) && seen.insert(members.clone()) {
                out.push(Group {
                    scope: RaceScope::SameBlock,
                    members,
                });
            }
        }
    }
    let one_block = kernel.launch.grid == Some([1, 1, 1]);
    if !one_block {
        let mut seen: HashSet<Vec<Inst>> = HashSet::new();
        for phase in &aligned.grid_phases {
            let mut by_array: Vec<(ArrayId, Vec<Inst>)> = Vec::new();
            for &i in &phase.sites {
                let array = sites[i].access.array;
                if kernel.array(array).space != MemSpace::Global {
                    continue;
                }
                let inst = Inst {
                    site: i,
                    path: Vec::new(),
                };
                match by_array.iter_mut().find(|(a, _)| *a == array) {
                    Some((_, v)) => v.push(inst),
                    None => by_array.push((array, vec![inst])),
                }
            }
            for (_, members) in by_array {
                if worth_checking(sites, &members, true) && seen.insert(members.clone()) {
                    out.push(Group {
                        scope: RaceScope::CrossBlock,
                        members,
                    });
                }
            }
        }
    }
    out
}

/// Racy pairs of locations already reported, per array: one helper
/// inlined at several call sites gives accesses to different arrays one
/// pair of locations, and each array's race is reported.
pub(crate) type Blocked = HashSet<(ArrayId, Span, Span)>;

/// Whether pair `(a, b)` of locations on `array` is in `blocked` (either
/// order).
pub(crate) fn is_blocked(blocked: &Blocked, array: ArrayId, a: Span, b: Span) -> bool {
    blocked.contains(&(array, a, b)) || blocked.contains(&(array, b, a))
}

impl Check<'_> {
    /// One batched query over `group`, with the pairs of locations in
    /// `blocked` excluded.
    pub(crate) fn batch_query(
        &mut self,
        sites: &[Site<'_>],
        group: &Group,
        blocked: &Blocked,
    ) -> Result<Outcome, Fatal> {
        let n = self.queries;
        self.queries += 1;
        self.session()?;
        let mut s = self.session.take().expect("invariant: started");
        let r = self.batch_in(&mut s, n, sites, group, blocked);
        self.session = Some(s);
        r
    }

    fn batch_in(
        &mut self,
        s: &mut crate::race::Session,
        n: usize,
        sites: &[Site<'_>],
        group: &Group,
        blocked: &Blocked,
    ) -> Result<Outcome, Fatal> {
        let cross = group.scope == RaceScope::CrossBlock;
        let members = &group.members;
        let m = members.len();
        let globals = &s.globals;
        // Dimensions the launch fixes as literals: z3 then folds `k * T`
        // in each member's index instead of bit-blasting a multiplier it
        // learns only through an equality (a phase of a thousand
        // `a[tid + k * T]` is decided in a second, not given up on). Only
        // here: in the pairwise queries the same literals make some
        // nonlinear queries slower.
        let mut literal = globals.shared.clone();
        let launch = &self.kernel.launch;
        for d in 0..3 {
            if let Some(b) = launch.block_dim(d) {
                literal.block_dim[d] = term::bv(u128::from(b), 32);
            }
            if let Some(g) = launch.grid_dim(d) {
                literal.grid_dim[d] = term::bv(u128::from(g), 32);
            }
        }
        let sel_bits = usize::BITS - m.saturating_sub(1).leading_zeros();
        let sel_bits = sel_bits.max(1);
        let mut decls: Vec<(String, Sort)> = Vec::new();
        let mut asserts: Vec<Term> = Vec::new();
        let sel: [Term; 2] = [1, 2].map(|k| {
            let name = format!("q{n}_sel{k}");
            decls.push((name.clone(), Sort::BitVec(sel_bits)));
            Term::atom(name)
        });
        let is = |k: usize, x: usize| term::eq(sel[k].clone(), term::bv(x as u128, sel_bits));
        if (1usize << sel_bits) != m {
            for t in &sel {
                asserts.push(term::bvult(t.clone(), term::bv(m as u128, sel_bits)));
            }
        }
        // Shared synchronized-loop constants (one per iteration role), each
        // with a flag that asserts its range, pinned value and link; a
        // chosen member sets the flags of the constants it mentions
        // (directly or through the bounds of loops it mentions). Constants
        // it does not mention are left out: that only drops constraints
        // (an over-approximation, confirmed pairwise), and keeps the query
        // small for deeply nested synchronized loops.
        let mut bound: Vec<HashMap<LoopId, Term>> = vec![HashMap::new(); m];
        if !cross {
            let insts: Vec<(&Site<'_>, &Inst)> =
                members.iter().map(|x| (&sites[x.site], x)).collect();
            let Ok(binders) = Check::binders(globals, &format!("q{n}"), &insts, true) else {
                return Ok(Outcome::Inconclusive);
            };
            for (i, (constraints, users)) in binders.constraints.iter().enumerate() {
                let flag = Term::atom(format!("q{n}_b{i}"));
                decls.push((format!("q{n}_b{i}"), Sort::Bool));
                asserts.push(term::implies(flag.clone(), term::and(constraints.clone())));
                for &u in users {
                    for k in 0..2 {
                        asserts.push(term::implies(is(k, u), flag.clone()));
                    }
                }
            }
            for (x, inst) in members.iter().enumerate() {
                bound[x] = binders.loop_vars(&inst_key(&sites[inst.site], inst));
            }
            decls.extend(binders.decls);
        }
        let width = members
            .iter()
            .map(|x| index_bits(sites[x.site].access.index.ty()))
            .max()
            .unwrap_or(32)
            + 1;
        let idx: [Term; 2] = [1, 2].map(|k| {
            let name = format!("q{n}_idx{k}");
            decls.push((name.clone(), Sort::BitVec(width)));
            Term::atom(name)
        });
        // Each thread's own loop variables: one constant per loop node and
        // synchronized context, shared by the members inside it, with a
        // flag that asserts its range (set by the members inside, and by
        // the flags of the loops nested in it).
        let mut own: [OwnLoops; 2] = [HashMap::new(), HashMap::new()];
        // Each member's index read as rows (see `rows`), per thread.
        let mut rows: [Vec<Vec<crate::rows::Row>>; 2] = [Vec::new(), Vec::new()];
        for (x, inst) in members.iter().enumerate() {
            let site = &sites[inst.site];
            let context = if cross {
                Vec::new()
            } else {
                inst_key(site, inst)
            };
            let loops: Vec<&ForLoop> = if cross {
                site.sync_loops.iter().chain(&site.loops).copied().collect()
            } else {
                site.loops.clone()
            };
            for k in 0..2 {
                let mut vars = bound[x].clone();
                let mut parent: Option<Term> = None;
                for l in &loops {
                    let id = (*l as *const ForLoop, context.clone());
                    let (v, f) = match own[k].get(&id) {
                        Some(e) => e.clone(),
                        None => {
                            let at = own[k].len();
                            let prefix = format!("q{n}t{k}l{at}");
                            let mut e = Encoder::new(&literal, &globals.threads[k], &prefix);
                            e.loop_vars = vars.clone();
                            let Ok(sort) = sort_of(l.ty) else {
                                return Ok(Outcome::Inconclusive);
                            };
                            let v = e.fresh("loop", sort);
                            let range = match (e.encode_as(&l.lo, l.ty), e.encode_as(&l.hi, l.ty)) {
                                (Ok(lo), Ok(hi)) => {
                                    match domain(&mut e, &globals.constants, l, lo, v.clone(), hi) {
                                        // Symbolic strides are left out: the
                                        // pairwise query refines with them.
                                        Ok((d, _)) => d,
                                        Err(_) => return Ok(Outcome::Inconclusive),
                                    }
                                }
                                _ => return Ok(Outcome::Inconclusive),
                            };
                            let f = Term::atom(format!("{prefix}_in"));
                            decls.extend(e.decls);
                            decls.push((format!("{prefix}_in"), Sort::Bool));
                            asserts.push(term::implies(f.clone(), term::and(range)));
                            if let Some(p) = &parent {
                                asserts.push(term::implies(f.clone(), p.clone()));
                            }
                            own[k].insert(id, (v.clone(), f.clone()));
                            (v, f)
                        }
                    };
                    vars.insert(l.loop_id, v);
                    parent = Some(f);
                }
                let mut e = Encoder::new(&literal, &globals.threads[k], &format!("q{n}m{x}t{k}"));
                e.loop_vars = vars;
                let mut c: Vec<Term> = parent.into_iter().collect();
                for g in &site.guards {
                    match e.encode_program(g, ScalarTy::Bool) {
                        Ok(t) => c.push(t),
                        Err(_) => return Ok(Outcome::Inconclusive),
                    }
                }
                let ity = site.access.index.ty();
                let ity = if ity == ScalarTy::Bool {
                    ScalarTy::U8
                } else {
                    ity
                };
                let Ok(index) = e.encode_program(&site.access.index, ity) else {
                    return Ok(Outcome::Inconclusive);
                };
                c.push(term::eq(idx[k].clone(), resize(index, ity, width)));
                c.append(&mut e.facts);
                rows[k].push(
                    crate::rows::rows(&mut e, &site.access.index, globals.constants.aliases())
                        .unwrap_or_default(),
                );
                decls.extend(e.decls);
                asserts.push(term::implies(is(k, x), term::and(c)));
            }
        }
        let chosen_where = |k: usize, p: &dyn Fn(&Inst) -> bool| {
            term::or(
                members
                    .iter()
                    .enumerate()
                    .filter(|(_, i)| p(i))
                    .map(|(x, _)| is(k, x)),
            )
        };
        let writes = |i: &Inst| sites[i.site].access.mode == AccessMode::Write;
        let atomic = |i: &Inst| atomic_at(sites[i.site].access, cross);
        asserts.push(term::or([
            chosen_where(0, &writes),
            chosen_where(1, &writes),
        ]));
        if members.iter().any(atomic) {
            asserts.push(term::not(term::and([
                chosen_where(0, &atomic),
                chosen_where(1, &atomic),
            ])));
        }
        // Pairs of locations already reported on this group's array.
        let array = sites[members[0].site].access.array;
        let spans: Vec<Span> = members.iter().map(|i| sites[i.site].access.span).collect();
        let mut distinct: Vec<Span> = spans.clone();
        distinct.sort();
        distinct.dedup();
        for (a, &sa) in distinct.iter().enumerate() {
            for &sb in &distinct[a..] {
                if !is_blocked(blocked, array, sa, sb) {
                    continue;
                }
                for (x, y) in [(sa, sb), (sb, sa)] {
                    asserts.push(term::not(term::and([
                        chosen_where(0, &|i| sites[i.site].access.span == x),
                        chosen_where(1, &|i| sites[i.site].access.span == y),
                    ])));
                }
            }
        }
        // The lemmas are valid whichever members are chosen.
        let lemmas = rows[0]
            .iter()
            .flat_map(|r1| rows[1].iter().map(move |r2| (r1, r2)))
            .flat_map(|(r1, r2)| crate::rows::lemmas(r1, r2))
            .take(MAX_LEMMAS);
        asserts.extend(lemmas);
        asserts.push(term::eq(idx[0].clone(), idx[1].clone()));
        asserts.extend(s.scope_constraints(group.scope));
        // A query asked before with another number (the same accesses,
        // guards and loops in another phase) has the same answer.
        let key = cache_key(n, &decls, &asserts);
        if key.as_ref().is_some_and(|k| self.clear_batches.contains(k)) {
            return Ok(Outcome::Clear);
        }
        let solver = &mut s.solver;
        solver.push()?;
        for (name, sort) in &decls {
            solver.declare_const(name, sort)?;
        }
        for a in &asserts {
            solver.assert(a)?;
        }
        // Bit-blasting decides large case splits over linear indices fast,
        // and, within its resource limit, many queries over products of
        // two unknowns (a transpose's `x + (y + i) * height` across blocks)
        // that the SMT core gives up on.
        let result = solver.check_bit_blasting()?;
        let out = match result {
            CheckResult::Unsat => Outcome::Clear,
            CheckResult::Unknown(_) => Outcome::Inconclusive,
            CheckResult::Sat => {
                let values = solver.get_values(&sel)?;
                let pick = |k: usize| match values.get(k) {
                    Some(warpsafe_smt::Value::BitVec { value, .. }) => Some(*value as usize),
                    _ => None,
                };
                match (pick(0), pick(1)) {
                    (Some(x), Some(y)) if x < m && y < m => {
                        Outcome::Racy(array, spans[x], spans[y])
                    }
                    _ => Outcome::Inconclusive,
                }
            }
        };
        solver.pop()?;
        if let (Outcome::Clear, Some(key)) = (&out, key) {
            self.clear_batches.insert(key);
        }
        Ok(out)
    }
}

/// The largest query text remembered by [`cache_key`].
const MAX_CACHED_QUERY: usize = 1 << 16;

/// The text of query `n` (declarations and assertions) with every name of
/// its own (`q{n}...`) written `q#...`, when it is small enough to keep.
fn cache_key(n: usize, decls: &[(String, Sort)], asserts: &[Term]) -> Option<String> {
    use std::fmt::Write;
    let mut text = String::new();
    for (name, sort) in decls {
        let _ = write!(text, "{name}:{sort};");
        if text.len() > MAX_CACHED_QUERY {
            return None;
        }
    }
    for a in asserts {
        let _ = write!(text, "{a};");
        if text.len() > MAX_CACHED_QUERY {
            return None;
        }
    }
    // `q{n}` not followed by a digit (so `q1` does not match `q12`).
    let own = format!("q{n}");
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find(&own) {
        let after = &rest[at + own.len()..];
        out.push_str(&rest[..at]);
        if after.starts_with(|c: char| c.is_ascii_digit()) {
            out.push_str(&own);
        } else {
            out.push_str("q#");
        }
        rest = after;
    }
    out.push_str(rest);
    Some(out)
}

/// The width of an index of type `ty` in the encoding (`Bool` as `u8`).
fn index_bits(ty: warpsafe_ir::ScalarTy) -> u32 {
    if ty == warpsafe_ir::ScalarTy::Bool {
        8
    } else {
        ty.bits()
    }
}
