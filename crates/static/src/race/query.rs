//! The race check's main loop and its queries: batched per phase and
//! array, then pairwise for the pairs of a racy group; each pair's SMT
//! query over both threads' encoded sides, its witness and certainty.

use super::*;

impl<'k> Check<'k> {
    pub(crate) fn new(
        kernel: &'k Kernel,
        kp: &'k KernelProtocol,
        config: SolverConfig,
        param_values: &'k [(String, i128)],
        assumptions: Assumptions,
        global_reasons: Vec<String>,
    ) -> Check<'k> {
        Check {
            kernel,
            kp,
            config,
            session: None,
            races: Vec::new(),
            inconclusive: Vec::new(),
            global_reasons,
            queries: 0,
            clear_batches: HashSet::new(),
            param_values,
            divergences: Vec::new(),
            late_assumes: false,
            assumptions,
            max_races: None,
            stopped_early: false,
            class: None,
            dump_aligned: None,
            aligned_text: None,
            tickets: crate::tickets::Tickets::of(kernel),
        }
    }

    /// Aligns, then runs every query. `Ok(Some(..))`: aligning gave up
    /// (UNKNOWN with the reason and span).
    pub(super) fn run(&mut self) -> Result<Option<(String, Span)>, Fatal> {
        let kp = self.kp;
        let result = align(&kp.body, self);
        if let Some(sources) = self.dump_aligned {
            self.aligned_text = Some(crate::print_aligned::aligned_text(
                self.kernel,
                &result,
                sources,
            ));
        }
        let aligned = match result {
            Ok(a) => a,
            Err(AlignError::Unsupported(reason, span)) => return Ok(Some((reason, span))),
            Err(AlignError::Divergent(d)) => {
                self.divergences = d;
                return Ok(None);
            }
            Err(AlignError::Oracle(e)) => return Err(e),
        };
        if let Some(s) = self.session.as_mut() {
            enter_context(s, 0, &[])?;
        }
        let sites = &aligned.sites;
        let (kernel, only_intra_group) = (self.kernel, self.assumptions.only_intra_group);
        // Pairs inside a warp or tile are of one block.
        let inside = self.class.as_ref().is_some_and(|c| c.inside());
        let pairs_where = |keep: &dyn Fn(usize, usize) -> bool| {
            let mut pairs = candidate_pairs(kernel, &aligned, keep);
            if only_intra_group || inside {
                pairs.retain(|p| matches!(p, Pair::SameBlock { .. }));
            }
            pairs
        };
        // Racy pairs of locations per array, and each race with its pair's
        // place in the report.
        let mut racy = batch::Blocked::new();
        let mut found: Vec<(PairOrder, (Race, Option<Question>))> = Vec::new();
        let mut done: HashSet<PairOrder> = HashSet::new();
        for group in batch::groups(self.kernel, &aligned) {
            if inside && group.scope == RaceScope::CrossBlock {
                continue;
            }
            if self.max_races.is_some_and(|m| found.len() >= m) {
                self.stopped_early = true;
                break;
            }
            loop {
                match self.batch_query(sites, &group, &racy)? {
                    Outcome::Clear => break,
                    Outcome::Racy(array, x, y) => {
                        // The most certain race of that pair of locations
                        // on that array, from the pairwise queries in
                        // their order.
                        racy.insert((array, x, y));
                        let at = |i: usize, span: Span| {
                            sites[i].access.array == array && sites[i].access.span == span
                        };
                        let pairs =
                            pairs_where(&|i, j| (at(i, x) && at(j, y)) || (at(i, y) && at(j, x)));
                        for pair in &pairs {
                            if !done.insert(pair_order(pair)) {
                                continue;
                            }
                            if let Some(race) = self.pair_query(sites, pair)? {
                                found.push((pair_order(pair), race));
                                break;
                            }
                        }
                    }
                    Outcome::Inconclusive => {
                        let m = group.members.len();
                        if m * (m + 1) / 2 > MAX_PAIRWISE_FALLBACK {
                            // Too many pairs to ask one by one.
                            let first = sites[group.members[0].site].access;
                            self.inconclusive.push((
                                first.clone(),
                                first.clone(),
                                format!(
                                    "the batched query of {m} accesses gave up, and their {} pairs are too many to ask one by one",
                                    m * (m + 1) / 2
                                ),
                            ));
                            break;
                        }
                        // Every pair of the group, one query each.
                        let members: HashSet<usize> =
                            group.members.iter().map(|i| i.site).collect();
                        let pairs =
                            pairs_where(&|i, j| members.contains(&i) && members.contains(&j));
                        for pair in &pairs {
                            let (i, j) = pair.sites();
                            let (r, a, b) = (
                                sites[i].access.array,
                                sites[i].access.span,
                                sites[j].access.span,
                            );
                            if !in_group(&group, pair)
                                || batch::is_blocked(&racy, r, a, b)
                                || !done.insert(pair_order(pair))
                            {
                                continue;
                            }
                            if let Some(race) = self.pair_query(sites, pair)? {
                                racy.insert((r, a, b));
                                found.push((pair_order(pair), race));
                            }
                        }
                        break;
                    }
                }
            }
        }
        found.sort_by(|a, b| a.0.cmp(&b.0));
        if let Some(m) = self.max_races {
            self.stopped_early |= found.len() > m;
            found.truncate(m);
        }
        let races = found.into_iter().map(|(_, r)| r).collect();
        let races = self.for_every_launch(races);
        self.races.extend(races);
        Ok(None)
    }

    /// Keeps *provable* only the races that happen for every launch and
    /// argument (see `universal`), once the session is over.
    pub(super) fn for_every_launch(&mut self, races: Vec<(Race, Option<Question>)>) -> Vec<Race> {
        if races.iter().all(|(_, q)| q.is_none()) {
            return races.into_iter().map(|(r, _)| r).collect();
        }
        let globals = self
            .end_session()
            .expect("invariant: a race was found in the session");
        let mut universal = universal(&self.config, &globals, &self.kernel.launch);
        let mut out = Vec::new();
        for (mut race, question) in races {
            if let Some(q) = question {
                let answer = universal.ask(&q);
                if let Some(reason) = answer.reason() {
                    race.certainty = Certainty::Possible {
                        reasons: vec![reason],
                    };
                }
            }
            out.push(race);
        }
        out
    }

    /// The pairwise query of one candidate pair.
    pub(super) fn pair_query(
        &mut self,
        sites: &[Site<'_>],
        pair: &Pair,
    ) -> Result<Option<(Race, Option<Question>)>, Fatal> {
        let (i, j) = pair.sites();
        match pair {
            Pair::SameBlock {
                a: x,
                b: y,
                assumed,
            } => self.query(sites, Some((x, y)), *assumed, i, j),
            Pair::CrossBlock { assumed, .. } => self.query(sites, None, *assumed, i, j),
        }
    }

    pub(crate) fn session(&mut self) -> Result<&mut Session, Fatal> {
        if self.session.is_none() {
            let mut solver = Solver::start(self.config.clone())?;
            let globals = self.declare_globals(&mut solver, self.kp)?;
            // Two threads of one block are in the class; asserted with
            // "same block" in the two-thread questions only (a
            // one-thread question, whether a branch is dead, is not about
            // pairs: an empty class must not make every branch dead).
            let class = self.class.as_ref().map(|class| {
                let [t1, t2] = &globals.threads;
                let bd = &globals.shared.block_dim;
                let rank = |t: &[Term; 3]| {
                    term::bvadd(
                        term::bvadd(t[0].clone(), term::bvmul(t[1].clone(), bd[0].clone())),
                        term::bvmul(t[2].clone(), term::bvmul(bd[0].clone(), bd[1].clone())),
                    )
                };
                class.condition(&rank(&t1.thread_idx), &rank(&t2.thread_idx))
            });
            self.session = Some(Session {
                solver,
                globals,
                context: Vec::new(),
                class,
            });
        }
        Ok(self.session.as_mut().expect("invariant: started"))
    }

    pub(super) fn declare_globals(
        &mut self,
        solver: &mut Solver,
        kp: &KernelProtocol,
    ) -> Result<Globals, Fatal> {
        let u32s = Sort::BitVec(32);
        let mut prelude = Prelude::default();
        let mut dims =
            |solver: &mut Solver, name: &str, thread: bool| -> Result<[Term; 3], SmtError> {
                Ok([
                    prelude.declare(solver, &format!("{name}_x"), &u32s, thread)?,
                    prelude.declare(solver, &format!("{name}_y"), &u32s, thread)?,
                    prelude.declare(solver, &format!("{name}_z"), &u32s, thread)?,
                ])
            };
        let mut block_dim = dims(solver, "blockDim", false)?;
        let mut grid_dim = dims(solver, "gridDim", false)?;
        // A dimension the launch fixes is its literal in every term: a
        // product with it stays linear (a named constant made `blockDim.x *
        // threadIdx.y` a product of two unknowns to the solver, slow in
        // the quantified question of `universal`). The named constant is
        // still declared and equal to it (below), for models and replays.
        let launch = &self.kernel.launch;
        let literal = |v: u64| term::bv(u128::from(v), 32);
        let named_block = block_dim.clone();
        let named_grid = grid_dim.clone();
        for d in 0..3 {
            if let Some(b) = launch.block_dim(d) {
                block_dim[d] = literal(b);
            }
            if let Some(g) = launch.grid_dim(d) {
                grid_dim[d] = literal(g);
            }
        }
        let threads = [
            ThreadVars {
                thread_idx: dims(solver, "t1_threadIdx", true)?,
                block_idx: dims(solver, "t1_blockIdx", true)?,
                global_idx: dims(solver, "t1_globalIdx", true)?,
            },
            ThreadVars {
                thread_idx: dims(solver, "t2_threadIdx", true)?,
                block_idx: dims(solver, "t2_blockIdx", true)?,
                global_idx: dims(solver, "t2_globalIdx", true)?,
            },
        ];
        let mut params = Vec::new();
        let mut param_map = std::collections::HashMap::new();
        for v in &self.kernel.vars {
            if !matches!(v.kind, VarKind::Param | VarKind::Host) || v.ty.is_float() {
                continue;
            }
            let c = prelude.declare(solver, &format!("param{}", v.id.0), &sort_of(v.ty)?, false)?;
            if let Some((_, value)) = self.param_values.iter().find(|(n, _)| *n == v.name) {
                let bits = v.ty.bits();
                let mask = if bits >= 128 {
                    u128::MAX
                } else {
                    (1u128 << bits) - 1
                };
                let value = if v.ty == ScalarTy::Bool {
                    term::bool(*value != 0)
                } else {
                    term::bv((*value as u128) & mask, bits)
                };
                prelude.assert(solver, term::eq(c.clone(), value), Fact::Launch)?;
            }
            param_map.insert(v.id, c.clone());
            params.push((v.name.clone(), v.ty, c));
        }
        // Launch dimensions: CUDA's limits, and the concrete values if known.
        let u = literal;
        // Concrete dimensions are taken as given, even beyond CUDA's limits
        // (such a launch fails on a GPU; a note says so); symbolic ones
        // range over what CUDA allows.
        for d in 0..3 {
            prelude.assert(
                solver,
                term::bvuge(block_dim[d].clone(), u(1)),
                Fact::Launch,
            )?;
            prelude.assert(solver, term::bvuge(grid_dim[d].clone(), u(1)), Fact::Launch)?;
            // A full triple, or a part of one (a dimension the kernel never
            // reads, assumed 1).
            match launch.block_dim(d) {
                Some(b) => {
                    prelude.assert(solver, term::eq(named_block[d].clone(), u(b)), Fact::Launch)?
                }
                None => prelude.assert(
                    solver,
                    term::bvule(block_dim[d].clone(), u(BLOCK_LIMITS[d])),
                    Fact::Launch,
                )?,
            }
            match launch.grid_dim(d) {
                Some(g) => {
                    prelude.assert(solver, term::eq(named_grid[d].clone(), u(g)), Fact::Launch)?
                }
                None => prelude.assert(
                    solver,
                    term::bvule(grid_dim[d].clone(), u(GRID_LIMITS[d])),
                    Fact::Launch,
                )?,
            }
            for t in &threads {
                let [id, block] = [
                    term::bvult(t.thread_idx[d].clone(), block_dim[d].clone()),
                    term::bvult(t.block_idx[d].clone(), grid_dim[d].clone()),
                ];
                prelude.assert(solver, id, Fact::Thread)?;
                prelude.assert(solver, block, Fact::Thread)?;
            }
        }
        let wide = |t: &Term| term::zero_extend(32, t.clone());
        let threads_per_block = term::bvmul(
            term::bvmul(wide(&block_dim[0]), wide(&block_dim[1])),
            wide(&block_dim[2]),
        );
        if launch.block.is_none() {
            prelude.assert(
                solver,
                term::bvule(
                    threads_per_block,
                    term::bv(u128::from(max_threads_per_block(launch)), 64),
                ),
                Fact::Launch,
            )?;
        }
        global_index_lemmas(
            solver,
            &mut prelude,
            launch,
            self.assumptions,
            &block_dim,
            &grid_dim,
            &threads,
        )?;
        if bounds_threads_along_x(launch, self.assumptions.huge_grids) {
            prelude.assert(
                solver,
                term::bvule(
                    term::bvmul(wide(&grid_dim[0]), wide(&block_dim[0])),
                    term::bv(u128::from(MAX_THREADS_ALONG_X), 64),
                ),
                Fact::Launch,
            )?;
        }
        let mut globals = Globals {
            prelude,
            constants: Constants::new(self.kernel, self.param_values, &kp.preconditions),
            shared: Shared {
                block_dim,
                grid_dim,
                params: param_map,
                signed_wrap: self.assumptions.signed_wrap,
            },
            threads,
            params,
        };
        // Unconditional preconditions, for both threads.
        let mut dropped = 0;
        let mut dropped_aligned = 0;
        let mut approximate = false;
        let mut late = 0;
        for (k, c) in kp.preconditions.iter().enumerate() {
            // A counter bound is used where it holds for the whole kernel,
            // else left out silently: its loop is then not exact, which
            // the races found in it say.
            if c.origin == crate::ConditionOrigin::CounterNoWrap
                && (self.assumptions.counter_wrap || !c.is_assumed_counter_bound())
            {
                continue;
            }
            if !c.guard.is_true() || c.in_loop {
                if c.origin == crate::ConditionOrigin::Assume(warpsafe_ir::AssumeOrigin::Aligned) {
                    dropped_aligned += 1;
                } else {
                    dropped += 1;
                }
                continue;
            }
            // An `__assume` after accesses constrains only what follows it;
            // assuming it for the whole kernel would hide races before it.
            if c.after_effects
                && !self.late_assumes
                && matches!(
                    c.origin,
                    crate::ConditionOrigin::Assume(
                        warpsafe_ir::AssumeOrigin::Assume | warpsafe_ir::AssumeOrigin::Aligned
                    )
                )
            {
                late += 1;
                continue;
            }
            let mut encoded = Vec::new();
            for (n, t) in globals.threads.iter().enumerate() {
                let mut e = Encoder::new(&globals.shared, t, &format!("pre{k}t{}", n + 1));
                if let Ok(term) = e.encode_program(&c.cond, ScalarTy::Bool) {
                    approximate |= !e.approximations.is_empty();
                    encoded.push((e.decls, term::and(std::iter::once(term).chain(e.facts))));
                }
            }
            if encoded.len() != 2 {
                // Not assuming a precondition over-approximates.
                dropped += 1;
                continue;
            }
            for (decls, cond) in encoded {
                for (name, sort) in &decls {
                    globals.prelude.declare(solver, name, sort, true)?;
                }
                globals.prelude.assert(solver, cond, Fact::Thread)?;
            }
        }
        if dropped > 0 {
            self.global_reasons.push(format!(
                "{dropped} precondition(s) under a condition or in a loop were not assumed"
            ));
        }
        if dropped_aligned > 0 {
            self.global_reasons.push(format!(
                "{dropped_aligned} alignment assumption(s) of pointer casts under a condition or in a loop were not used (a misaligned address would fault)"
            ));
        }
        if late > 0 {
            self.global_reasons.push(format!(
                "{late} `__assume`(s) after memory accesses were not assumed for the whole kernel"
            ));
        }
        if approximate {
            self.global_reasons
                .push("a precondition depends on unknown values".into());
        }
        Ok(globals)
    }

    /// Declares the shared constants of a same-block query for the
    /// instances `insts` and returns them with their constraints, each
    /// entry with the instances (indices into `insts`) that need it.
    ///
    /// With `referenced_only`, an instance needs only the constants its
    /// guards, index and own loops' bounds mention (and, transitively, those
    /// the needed loops' bounds and steps mention): dropping the others'
    /// constraints over-approximates (used by the batched queries, whose
    /// answers are confirmed pairwise).
    pub(crate) fn binders<'p>(
        globals: &Globals,
        prefix: &str,
        insts: &[(&Site<'p>, &Inst)],
        referenced_only: bool,
    ) -> Result<Binders<'p>, EncodeError> {
        let mut wanted: Vec<(BinderKey, &'p ForLoop, Vec<usize>)> = Vec::new();
        let mut want = |k: BinderKey, l: &'p ForLoop, user: usize| match wanted
            .iter_mut()
            .find(|(w, _, _)| *w == k)
        {
            Some((_, _, users)) => {
                if !users.contains(&user) {
                    users.push(user);
                }
            }
            None => wanted.push((k, l, vec![user])),
        };
        for (user, (site, inst)) in insts.iter().enumerate() {
            let key = inst_key(site, inst);
            let needed = if referenced_only {
                referenced_sync_loops(site)
            } else {
                vec![true; key.len()]
            };
            for n in 1..=key.len() {
                if !needed[n - 1] {
                    continue;
                }
                let l = site.sync_loops[n - 1];
                let mut k = key[..n].to_vec();
                want(k.clone(), l, user);
                // The previous iteration is linked to the current one.
                if k[n - 1].1 == Role::Prev {
                    k[n - 1].1 = Role::Cur;
                    want(k, l, user);
                }
            }
        }
        wanted.sort_by_key(|(k, _, _)| k.len());
        let mut binders = Binders {
            entries: Vec::new(),
            constraints: Vec::new(),
            decls: Vec::new(),
            strides: Vec::new(),
        };
        for (idx, (key, l, users)) in wanted.iter().enumerate() {
            let mut e = Encoder::new(
                &globals.shared,
                &globals.threads[0],
                &format!("{prefix}s{idx}"),
            );
            e.loop_vars = binders.loop_vars(&key[..key.len() - 1]);
            let v = e.fresh("sync", sort_of(l.ty)?);
            let lo = e.encode_as(&l.lo, l.ty)?;
            let hi = e.encode_as(&l.hi, l.ty)?;
            let (mut constraints, strided) =
                domain(&mut e, &globals.constants, l, lo, v.clone(), hi)?;
            binders.strides.extend(strided);
            let pinned = match key[key.len() - 1].1 {
                Role::First => Some(l.first_value()),
                Role::Last => last_value(l),
                Role::Cur | Role::Prev => None,
            };
            if let Some(value) = pinned {
                let value = e.encode_as(&value, l.ty)?;
                constraints.push(term::eq(v.clone(), value));
            } else if key[key.len() - 1].1 == Role::Last {
                // A strided last iteration: the step from it leaves the range.
                constraints.extend(stride::last(&mut e, (*l).into(), &v)?);
            }
            binders.decls.extend(e.decls);
            binders.entries.push((key.clone(), *l, v));
            binders.constraints.push((constraints, users.clone()));
        }
        // cur = step(prev), for every previous iteration.
        for k in 0..binders.entries.len() {
            let (key, l, prev) = &binders.entries[k];
            if key[key.len() - 1].1 != Role::Prev {
                continue;
            }
            let mut cur_key = key.clone();
            cur_key.last_mut().expect("invariant: non-empty key").1 = Role::Cur;
            let cur = binders.get(&cur_key).expect("invariant: declared").clone();
            let mut e = Encoder::new(
                &globals.shared,
                &globals.threads[0],
                &format!("{prefix}p{k}"),
            );
            e.loop_vars = binders.loop_vars(&key[..key.len() - 1]);
            e.loop_vars.insert(l.loop_id, prev.clone());
            let next = e.encode_as(&step_sym(l), l.ty)?;
            binders.decls.extend(e.decls);
            binders.constraints[k].0.push(term::eq(cur, next));
        }
        Ok(binders)
    }

    /// Encodes one side: `bound` are the shared synchronized loop
    /// variables, `fresh` the loops whose variables are this thread's own.
    pub(crate) fn encode_side(
        &self,
        globals: &Globals,
        thread: usize,
        prefix: &str,
        site: &Site<'_>,
        bound: HashMap<LoopId, Term>,
        fresh: &[&ForLoop],
    ) -> Result<(Side, Vec<(String, Sort)>), EncodeError> {
        let mut e = Encoder::new(&globals.shared, &globals.threads[thread], prefix);
        e.loop_vars = bound;
        let mut constraints = Vec::new();
        let mut strides = Vec::new();
        let mut progressions = Vec::new();
        let mut loops = Vec::new();
        for l in fresh {
            let lo = e.encode_as(&l.lo, l.ty)?;
            let hi = e.encode_as(&l.hi, l.ty)?;
            let v = e.fresh("loop", sort_of(l.ty)?);
            e.loop_vars.insert(l.loop_id, v.clone());
            let (range, strided) = domain(&mut e, &globals.constants, l, lo, v.clone(), hi)?;
            constraints.extend(range);
            if strided.is_some() {
                progressions.extend(stride::progression(&mut e, (*l).into(), &v)?);
            }
            strides.extend(strided);
            loops.push((self.kernel.var(l.var).name.clone(), l.ty, v));
        }
        for g in &site.guards {
            constraints.push(e.encode_program(g, ScalarTy::Bool)?);
        }
        let mut index_ty = site.access.index.ty();
        if index_ty == ScalarTy::Bool {
            index_ty = ScalarTy::U8;
        }
        let index = e.encode_program(&site.access.index, index_ty)?;
        constraints.append(&mut e.facts);
        let rows = crate::rows::rows(&mut e, &site.access.index, globals.constants.aliases())?;
        let side = Side {
            constraints,
            strides,
            progressions,
            index,
            index_ty,
            loops,
            reasons: e.approximations,
            wrap_facts: e.wrap_facts,
            rows,
            atomic_results: e.atomic_results,
        };
        Ok((side, e.decls))
    }

    /// One query: `same` gives the two instances for a same-block query,
    /// `None` is a cross-block one; `assumed`: every phase holding the pair
    /// is assumed.
    pub(super) fn query(
        &mut self,
        sites: &[Site<'_>],
        same: Option<(&Inst, &Inst)>,
        assumed: bool,
        i: usize,
        j: usize,
    ) -> Result<Option<(Race, Option<Question>)>, Fatal> {
        self.session()?;
        let mut s = self.session.take().expect("invariant: started");
        let r = self.query_in(&mut s, sites, same, assumed, i, j);
        self.session = Some(s);
        r
    }

    pub(super) fn query_in(
        &mut self,
        s: &mut Session,
        sites: &[Site<'_>],
        same: Option<(&Inst, &Inst)>,
        assumed: bool,
        i: usize,
        j: usize,
    ) -> Result<Option<(Race, Option<Question>)>, Fatal> {
        let n = self.queries;
        self.queries += 1;
        let kernel = self.kernel;
        let (a, b) = (&sites[i], &sites[j]);
        let scope = if same.is_some() {
            RaceScope::SameBlock
        } else {
            RaceScope::CrossBlock
        };
        let globals = &s.globals;
        let mut shared_constraints = Vec::new();
        let mut decls = Vec::new();
        let mut shared_vars: Vec<(String, ScalarTy, Term)> = Vec::new();
        let mut strides: Vec<Term> = Vec::new();
        let (s1, s2) = match same {
            Some((x, y)) => {
                let mut binders =
                    Self::binders(globals, &format!("q{n}"), &[(a, x), (b, y)], false)?;
                shared_constraints = std::mem::take(&mut binders.constraints)
                    .into_iter()
                    .flat_map(|(c, _)| c)
                    .collect();
                decls = std::mem::take(&mut binders.decls);
                strides = std::mem::take(&mut binders.strides);
                for (key, l, t) in &binders.entries {
                    let role = key[key.len() - 1].1;
                    let name = role_name(&kernel.var(l.var).name, role);
                    shared_vars.push((name, l.ty, t.clone()));
                }
                let (s1, d1) = self.encode_side(
                    globals,
                    0,
                    &format!("q{n}a"),
                    a,
                    binders.loop_vars(&inst_key(a, x)),
                    &a.loops,
                )?;
                let (s2, d2) = self.encode_side(
                    globals,
                    1,
                    &format!("q{n}b"),
                    b,
                    binders.loop_vars(&inst_key(b, y)),
                    &b.loops,
                )?;
                decls.extend(d1);
                decls.extend(d2);
                (s1, s2)
            }
            None => {
                // Barriers do not order blocks: every loop variable is the
                // thread's own.
                let (s1, d1) =
                    self.encode_side(globals, 0, &format!("q{n}a"), a, HashMap::new(), &all(a))?;
                let (s2, d2) =
                    self.encode_side(globals, 1, &format!("q{n}b"), b, HashMap::new(), &all(b))?;
                decls.extend(d1);
                decls.extend(d2);
                (s1, s2)
            }
        };
        let scope_constraints = s.scope_constraints(scope);
        let solver = &mut s.solver;
        solver.push()?;
        for (name, sort) in &decls {
            solver.declare_const(name, sort)?;
        }
        for c in shared_constraints
            .iter()
            .chain(&s1.constraints)
            .chain(&s2.constraints)
        {
            solver.assert(c)?;
        }
        let mut collide = crate::rows::lemmas(&s1.rows, &s2.rows);
        for lemma in &collide {
            solver.assert(lemma)?;
        }
        let (i1, equal) = same_slot(&s1, &s2);
        collide.push(equal);
        solver.assert(collide.last().expect("invariant: just pushed"))?;
        for c in &scope_constraints {
            solver.assert(c)?;
        }
        if !self.tickets.is_empty() {
            let facts = crate::tickets::distinct(
                &self.tickets,
                &globals.shared,
                scope == RaceScope::SameBlock,
                &s1.atomic_results,
                &s2.atomic_results,
            );
            for fact in &facts {
                solver.assert(fact)?;
            }
        }
        let result = solver.check()?;
        let race = match result {
            CheckResult::Unsat => None,
            CheckResult::Unknown(msg) => {
                self.inconclusive
                    .push((a.access.clone(), b.access.clone(), msg));
                None
            }
            CheckResult::Sat => {
                let rewitness = |solver: &mut Solver| {
                    witness(kernel, solver, globals, &shared_vars, &s1, &s2, i1.clone())
                };
                let mut witness = rewitness(solver)?;
                strides.extend(s1.strides.iter().chain(&s2.strides).cloned());
                // Refine with the symbolic strides, within a short time:
                // first alone (a race is found fastest so), then, if the
                // solver gives up, with the grid-stride lemma (which
                // refutes grid-stride loops, and slows down finding races;
                // z3 also proves more with it after the first try).
                let mut strides_used = true;
                if !strides.is_empty() {
                    let lemmas = stride::congruence(&s1.progressions, &s2.progressions);
                    let stages: [&[Term]; 2] = [&[], &lemmas];
                    for (stage, extra) in stages.into_iter().enumerate() {
                        if stage == 1 && lemmas.is_empty() {
                            break;
                        }
                        solver.push()?;
                        for c in strides.iter().chain(extra) {
                            solver.assert(c)?;
                        }
                        // The lemma's proofs need z3's bit-vector tactic.
                        let bit_blast = !extra.is_empty();
                        let r = check_refinement(solver, self.config.timeout, bit_blast)?;
                        match r {
                            CheckResult::Unsat => {
                                solver.pop()?;
                                solver.pop()?;
                                return Ok(None);
                            }
                            CheckResult::Sat => {
                                witness = rewitness(solver)?;
                                strides_used = true;
                                solver.pop()?;
                                break;
                            }
                            CheckResult::Unknown(_) => strides_used = false,
                        }
                        solver.pop()?;
                    }
                }
                // The loops whose symbolic strides the solver gave up on.
                let unrefined = (!strides_used).then_some(&globals.constants);
                let mut certainty = self.certainty(a, b, &s1, &s2, assumed, unrefined);
                if scope == RaceScope::CrossBlock && certainty == Certainty::Provable {
                    if let Some(reason) = one_block_kernel(kernel) {
                        certainty = Certainty::Possible {
                            reasons: vec![reason.to_string()],
                        };
                    }
                }
                // A race that needs unsigned arithmetic to wrap around is
                // real only for indices past 2^32: provable only with a
                // witness without a wrap (which also reads better).
                let wrap_facts: Vec<&Term> = s1.wrap_facts.iter().chain(&s2.wrap_facts).collect();
                if certainty == Certainty::Provable && !wrap_facts.is_empty() {
                    solver.push()?;
                    for c in &wrap_facts {
                        solver.assert(c)?;
                    }
                    if strides_used {
                        for c in &strides {
                            solver.assert(c)?;
                        }
                    }
                    let r = check_refinement(solver, self.config.timeout, true)?;
                    match r {
                        CheckResult::Unsat => {
                            certainty = Certainty::Possible {
                                reasons: vec![NEEDS_WRAP.to_string()],
                            }
                        }
                        CheckResult::Sat => witness = rewitness(solver)?,
                        CheckResult::Unknown(_) => {
                            certainty = Certainty::Possible {
                                reasons: vec![MAY_NEED_WRAP.to_string()],
                            }
                        }
                    }
                    solver.pop()?;
                }
                // Asked once the session is over (see `universal`).
                let question = if certainty == Certainty::Provable {
                    // Without it (an encoding failure) fewer launches count
                    // as racy: the question errs towards *possible*.
                    let across = match same {
                        Some(_) if self.collides_across_blocks(a.access, b.access) => {
                            self.across(globals, &format!("q{n}x"), a, b).ok()
                        }
                        _ => None,
                    };
                    Some(Question {
                        decls: decls.clone(),
                        reach: shared_constraints
                            .iter()
                            .chain(&s1.constraints)
                            .chain(&s2.constraints)
                            .chain(&scope_constraints)
                            .chain(&strides)
                            .cloned()
                            .collect(),
                        collide: collide
                            .iter()
                            .cloned()
                            .chain(wrap_facts.iter().map(|&c| c.clone()))
                            .collect(),
                        across,
                    })
                } else {
                    None
                };
                let race = Race {
                    array: a.access.array,
                    array_name: kernel.array(a.access.array).name.clone(),
                    space: kernel.array(a.access.array).space,
                    first: race_access(a.access),
                    second: race_access(b.access),
                    scope,
                    certainty,
                    witness: Some(witness),
                };
                Some((race, question))
            }
        };
        solver.pop()?;
        Ok(race)
    }

    /// Whether the check also asks `a` and `b` between blocks (a global
    /// array, not both atomic at device scope, blocks not left out).
    pub(super) fn collides_across_blocks(&self, a: &Access, b: &Access) -> bool {
        let blocks_left_out =
            self.assumptions.only_intra_group || self.class.as_ref().is_some_and(|c| c.inside());
        let both_atomic = atomic_at(a, true) && atomic_at(b, true);
        self.kernel.array(a.array).space == MemSpace::Global && !blocks_left_out && !both_atomic
    }

    /// `a` and `b` by two threads of different blocks, reached and
    /// colliding, over constants named from `prefix` (a disjunct of the
    /// question in `universal`).
    pub(super) fn across(
        &self,
        globals: &Globals,
        prefix: &str,
        a: &Site<'_>,
        b: &Site<'_>,
    ) -> Result<Across, Fatal> {
        let (s1, mut decls) = self.encode_side(
            globals,
            0,
            &format!("{prefix}a"),
            a,
            HashMap::new(),
            &all(a),
        )?;
        let (s2, d2) = self.encode_side(
            globals,
            1,
            &format!("{prefix}b"),
            b,
            HashMap::new(),
            &all(b),
        )?;
        decls.extend(d2);
        let mut conjuncts: Vec<Term> = s1
            .constraints
            .iter()
            .chain(&s2.constraints)
            .chain(&s1.strides)
            .chain(&s2.strides)
            .chain(&s1.wrap_facts)
            .chain(&s2.wrap_facts)
            .cloned()
            .collect();
        conjuncts.extend(crate::rows::lemmas(&s1.rows, &s2.rows));
        conjuncts.push(term::not(globals.same_block()));
        conjuncts.push(same_slot(&s1, &s2).1);
        Ok(Across { decls, conjuncts })
    }

    pub(super) fn certainty(
        &self,
        a: &Site<'_>,
        b: &Site<'_>,
        s1: &Side,
        s2: &Side,
        assumed: bool,
        unrefined: Option<&Constants>,
    ) -> Certainty {
        let mut reasons: Vec<String> = Vec::new();
        let mut add = |r: String| {
            if !reasons.contains(&r) {
                reasons.push(r);
            }
        };
        for r in s1.reasons.iter().chain(&s2.reasons) {
            add(describe_reason(self.kernel, r));
        }
        for site in [a, b] {
            for l in site.sync_loops.iter().chain(&site.loops) {
                let name = &self.kernel.var(l.var).name;
                if !stride::modelled(&l.step) {
                    add(format!(
                        "the step of loop `{name}` is not modelled: it may skip the witness value"
                    ));
                } else if unrefined.is_some_and(|c| !l.step.is_unit() && !c.ground(&l.step)) {
                    add(format!(
                        "the solver gave up on the symbolic step of loop `{name}`: it may skip the witness value"
                    ));
                }
                if !l.bound_known {
                    add(format!("loop `{name}` may stop early"));
                }
            }
            if site.in_unknown_loop {
                add("inside a loop whose iteration count is unknown".into());
            }
        }
        if assumed {
            add("assumes a path that skips barriers (a branch of a uniform condition without a barrier, or a loop with barriers running zero times), not checked to be feasible".into());
        }
        for r in &self.global_reasons {
            add(r.clone());
        }
        if reasons.is_empty() {
            Certainty::Provable
        } else {
            Certainty::Possible { reasons }
        }
    }
}
