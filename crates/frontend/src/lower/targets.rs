//! Which array each pointer variable points into, flow-sensitively, and
//! pointers whose array depends on the path taken (`p = c ? a : b`, or an
//! assignment in one branch): they get a *base* variable holding the chosen
//! array's id, and every access through them becomes a choice among the
//! candidate arrays.
//!
//! Invariants:
//! - A pointer variable is `Static` (its array is known at this point of the
//!   lowering, or it is null) or `Dynamic`: its base variable holds the id of
//!   one of `arrays` on every path that reaches here.
//! - Where paths meet, base assignments are added at the end of the branches
//!   that need them; a loop whose body changes a pointer's array is lowered
//!   again with the pointer dynamic from its entry, so no access inside the
//!   loop misses a candidate.

use super::value::{Choice, Place, Ptr, Value};
use super::{Lowerer, R};
use crate::types::CType;
use std::collections::HashMap;
use tree_sitter::Node;
use warpsafe_ir::{ArrayId, BinOp, Block, Expr, ScalarTy, Stmt, StmtKind, VarId, VarKind};
use warpsafe_source::Span;

/// What a pointer variable (named by its offset variable) points into.
#[derive(Clone, Debug, PartialEq)]
pub enum PtrState {
    Static(Option<ArrayId>),
    Dynamic { base: VarId, arrays: Vec<ArrayId> },
}

/// The state of every pointer variable at one program point.
pub type Targets = HashMap<VarId, PtrState>;

/// A point of the lowering that a loop's retry returns to.
pub struct Checkpoint {
    out: usize,
    vars: usize,
    arrays: usize,
    warnings: usize,
    names: HashMap<String, u32>,
}

/// The `u32` id of an array, as base variables hold it.
pub fn array_id(a: ArrayId) -> Expr {
    Expr::int(i128::from(a.0), ScalarTy::U32)
}

fn union(a: &[ArrayId], b: &[ArrayId]) -> Vec<ArrayId> {
    let mut out = a.to_vec();
    for x in b {
        if !out.contains(x) {
            out.push(*x);
        }
    }
    out.sort();
    out
}

fn assign(dst: VarId, value: Expr, span: Span) -> Stmt {
    Stmt::new(StmtKind::Assign { dst, value }, span)
}

impl<'t> Lowerer<'_, 't> {
    pub fn targets(&self) -> Targets {
        self.ptr_targets.clone()
    }

    fn state(&self, off: VarId) -> PtrState {
        self.ptr_targets
            .get(&off)
            .cloned()
            .unwrap_or(PtrState::Static(None))
    }

    /// The target and choice a read of the pointer variable yields.
    pub fn ptr_state(&self, off: VarId) -> (Option<ArrayId>, Option<Choice>) {
        match self.state(off) {
            PtrState::Static(t) => (t, None),
            PtrState::Dynamic { base, arrays } => (
                None,
                Some(Choice {
                    base: Expr::Var(base),
                    arrays,
                }),
            ),
        }
    }

    /// The base variable of a pointer variable (one per variable).
    fn base_var(&mut self, off: VarId, span: Span) -> VarId {
        if let Some(b) = self.ptr_base.get(&off) {
            return *b;
        }
        let name = format!("{}.base", self.kernel.var(off).name);
        let b = self.new_var(&name, ScalarTy::U32, VarKind::Local, span);
        self.ptr_base.insert(off, b);
        b
    }

    /// Records that the pointer variable now holds `ptr`'s array.
    pub fn assign_target(&mut self, off: VarId, ptr: &Ptr, span: Span) {
        let state = self.state(off);
        match (&ptr.choice, state) {
            (None, PtrState::Static(_)) => {
                if ptr.target.is_some() {
                    self.ptr_targets.insert(off, PtrState::Static(ptr.target));
                }
            }
            (None, PtrState::Dynamic { base, arrays }) => {
                if let Some(a) = ptr.target {
                    self.emit(
                        StmtKind::Assign {
                            dst: base,
                            value: array_id(a),
                        },
                        span,
                    );
                    let arrays = union(&arrays, &[a]);
                    self.ptr_targets
                        .insert(off, PtrState::Dynamic { base, arrays });
                }
            }
            (Some(c), state) => {
                let base = self.base_var(off, span);
                self.emit(
                    StmtKind::Assign {
                        dst: base,
                        value: c.base.clone(),
                    },
                    span,
                );
                let old = match state {
                    PtrState::Dynamic { arrays, .. } => arrays,
                    PtrState::Static(_) => Vec::new(),
                };
                let arrays = union(&old, &c.arrays);
                self.ptr_targets
                    .insert(off, PtrState::Dynamic { base, arrays });
            }
        }
    }

    /// The state after two branches meet: where they disagree the pointer
    /// becomes dynamic, and each branch sets the base at its end.
    pub fn merge_branches(
        &mut self,
        a: &Targets,
        then_: &mut Block,
        b: &Targets,
        else_: &mut Block,
        span: Span,
    ) {
        let mut vars: Vec<VarId> = a.keys().chain(b.keys()).copied().collect();
        vars.sort();
        vars.dedup();
        let mut merged = Targets::new();
        for v in vars {
            let sa = a.get(&v).cloned().unwrap_or(PtrState::Static(None));
            let sb = b.get(&v).cloned().unwrap_or(PtrState::Static(None));
            let state = match (sa, sb) {
                (x, y) if x == y => x,
                (PtrState::Static(None), s) | (s, PtrState::Static(None)) => s,
                (PtrState::Static(Some(x)), PtrState::Static(Some(y))) => {
                    let base = self.base_var(v, span);
                    then_.push(assign(base, array_id(x), span));
                    else_.push(assign(base, array_id(y), span));
                    PtrState::Dynamic {
                        base,
                        arrays: union(&[x], &[y]),
                    }
                }
                (PtrState::Static(Some(x)), PtrState::Dynamic { base, arrays }) => {
                    then_.push(assign(base, array_id(x), span));
                    PtrState::Dynamic {
                        base,
                        arrays: union(&arrays, &[x]),
                    }
                }
                (PtrState::Dynamic { base, arrays }, PtrState::Static(Some(y))) => {
                    else_.push(assign(base, array_id(y), span));
                    PtrState::Dynamic {
                        base,
                        arrays: union(&arrays, &[y]),
                    }
                }
                (PtrState::Dynamic { base, arrays: x }, PtrState::Dynamic { arrays: y, .. }) => {
                    PtrState::Dynamic {
                        base,
                        arrays: union(&x, &y),
                    }
                }
            };
            merged.insert(v, state);
        }
        self.ptr_targets = merged;
    }

    /// Lowers a loop with `lower` (which emits it), again and again while
    /// its body changes what a pointer points into: each time, the pointers
    /// that changed are made dynamic from the loop's entry.
    pub fn with_stable_targets(
        &mut self,
        n: Node,
        mut lower: impl FnMut(&mut Self) -> R<()>,
    ) -> R<()> {
        let span = self.span(n);
        for _ in 0..16 {
            let before = self.targets();
            let mark = self.checkpoint();
            lower(self)?;
            let after = self.targets();
            let unstable: Vec<VarId> = after
                .iter()
                .filter(|(v, s_after)| {
                    match (
                        before.get(v).cloned().unwrap_or(PtrState::Static(None)),
                        s_after,
                    ) {
                        (PtrState::Static(None), _) => false,
                        (PtrState::Static(Some(x)), PtrState::Static(Some(y))) => x != *y,
                        (PtrState::Static(Some(_)), PtrState::Static(None)) => false,
                        (PtrState::Static(Some(_)), PtrState::Dynamic { .. }) => true,
                        (
                            PtrState::Dynamic { arrays: a, .. },
                            PtrState::Dynamic { arrays: b, .. },
                        ) => b.iter().any(|x| !a.contains(x)),
                        (PtrState::Dynamic { arrays: a, .. }, PtrState::Static(Some(y))) => {
                            !a.contains(y)
                        }
                        (PtrState::Dynamic { .. }, PtrState::Static(None)) => false,
                    }
                })
                .map(|(v, _)| *v)
                .collect();
            if unstable.is_empty() {
                return Ok(());
            }
            // A deterministic order (the map's is not) keeps the IR stable.
            let mut unstable = unstable;
            unstable.sort();
            // Undo this attempt and make the pointers dynamic at the entry.
            self.rollback(mark);
            self.ptr_targets = before;
            for v in unstable {
                let grown = match after.get(&v) {
                    Some(PtrState::Dynamic { arrays, .. }) => arrays.clone(),
                    Some(PtrState::Static(Some(y))) => vec![*y],
                    _ => Vec::new(),
                };
                let base = self.base_var(v, span);
                let arrays = match self.state(v) {
                    PtrState::Static(Some(x)) => {
                        self.emit(
                            StmtKind::Assign {
                                dst: base,
                                value: array_id(x),
                            },
                            span,
                        );
                        union(&[x], &grown)
                    }
                    PtrState::Dynamic { arrays, .. } => union(&arrays, &grown),
                    PtrState::Static(None) => grown,
                };
                self.ptr_targets
                    .insert(v, PtrState::Dynamic { base, arrays });
            }
        }
        Err(self.unsupported(n, "pointers whose arrays keep changing in this loop"))
    }

    /// Where the lowering stands, to undo a loop's discarded attempt.
    fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            out: self.out.len(),
            vars: self.kernel.vars.len(),
            arrays: self.kernel.arrays.len(),
            warnings: self.warnings.len(),
            names: self.names.clone(),
        }
    }

    /// Forgets everything lowered since the checkpoint: statements,
    /// variables, arrays, warnings and the names they took.
    fn rollback(&mut self, cp: Checkpoint) {
        self.out.truncate(cp.out);
        self.kernel.vars.truncate(cp.vars);
        self.kernel.arrays.truncate(cp.arrays);
        self.warnings.truncate(cp.warnings);
        self.names = cp.names;
        let (nv, na) = (cp.vars as u32, cp.arrays as u32);
        let live_place = |p: &Place| match p {
            Place::Mem { array, .. } => array.0 < na,
            _ => true,
        };
        self.ptr_base.retain(|k, v| k.0 < nv && v.0 < nv);
        // Ids of discarded variables will be reused: forget what was known.
        self.known.retain(|k, _| k.0 < nv);
        self.globals.retain(|_, p| live_place(p));
        self.mem_ptr_targets.retain(|h, t| h.0 < na && t.0 < na);
        self.pointees.retain(|(h, _), a| h.0 < na && a.0 < na);
        self.shared_sites.retain(|_, p| live_place(p));
    }

    /// `c ? p : q` for pointers into different arrays.
    pub fn select_ptr(&self, c: Expr, p: Ptr, q: Ptr) -> Option<Ptr> {
        // One offset for both arms: only where it counts slots in both.
        if !self.matches_slots(&p) || !self.matches_slots(&q) {
            return None;
        }
        let parts = |x: &Ptr| -> Option<(Expr, Vec<ArrayId>)> {
            match (&x.choice, x.target) {
                (Some(ch), _) => Some((ch.base.clone(), ch.arrays.clone())),
                (None, Some(a)) => Some((array_id(a), vec![a])),
                (None, None) => None,
            }
        };
        let (bp, ap) = parts(&p)?;
        let (bq, aq) = parts(&q)?;
        let base = Expr::Select(Box::new(c.clone()), Box::new(bp), Box::new(bq));
        let offset = if p.offset == q.offset {
            p.offset
        } else {
            Expr::Select(Box::new(c), Box::new(p.offset), Box::new(q.offset))
        };
        Some(Ptr {
            target: None,
            choice: Some(Choice {
                base,
                arrays: union(&ap, &aq),
            }),
            offset,
            pointee: p.pointee,
            volatile: p.volatile || q.volatile,
            null_if: None,
        })
    }

    /// The place a pointer with a choice of arrays points at.
    pub fn choice_place(&self, c: &Choice, ptr: &Ptr) -> Place {
        let arms = c
            .arrays
            .iter()
            .map(|a| {
                let place = Place::Mem {
                    array: *a,
                    index: ptr.offset.clone(),
                    ty: ptr.pointee.clone(),
                    volatile: ptr.volatile,
                };
                (*a, place)
            })
            .collect();
        Place::Choice {
            base: c.base.clone(),
            arms,
        }
    }

    /// Runs `each` on every arm, under `base == id` (the last arm is the
    /// default: base holds one of the ids on every path).
    pub fn on_each_arm(
        &mut self,
        base: &Expr,
        arms: &[(ArrayId, Place)],
        n: Node,
        mut each: impl FnMut(&mut Self, &Place) -> R<()>,
    ) -> R<()> {
        let span = self.span(n);
        let Some(((_, last), rest)) = arms.split_last() else {
            return Err(self.unsupported(n, "a pointer into no array"));
        };
        let (mut chain, ()) = self.block(|s| each(s, last))?;
        for (a, p) in rest.iter().rev() {
            let (then_, ()) = self.block(|s| each(s, p))?;
            let cond = Expr::binary(BinOp::Eq, ScalarTy::U32, base.clone(), array_id(*a));
            chain = vec![Stmt::new(
                StmtKind::If {
                    cond,
                    then_,
                    else_: chain,
                },
                span,
            )];
        }
        for s in chain {
            self.emit(s.kind, s.span);
        }
        Ok(())
    }

    /// Reads through a pointer into one of several arrays.
    pub fn read_choice(&mut self, base: &Expr, arms: &[(ArrayId, Place)], n: Node) -> R<Value> {
        // An aggregate (`int4` through a pointer into one of two arrays),
        // or a value through a view in each: read into a local of its type
        // on every arm.
        let ty = arms
            .first()
            .map(|(_, p)| self.place_type(p))
            .ok_or_else(|| self.unsupported(n, "a pointer into no array"))?;
        let in_views = arms.iter().any(|(_, p)| matches!(p, Place::View(_)));
        if matches!(ty, CType::Vector(..) | CType::Struct(_))
            || (in_views && matches!(ty, CType::Scalar(_)))
        {
            let tmp = self.local_place("choice.tmp", &ty, false, n)?;
            self.on_each_arm(base, arms, n, |s, p| {
                let v = s.read(p, n)?;
                s.write(&tmp, v, n)
            })?;
            return self.read(&tmp, n);
        }
        let first = match arms.first() {
            Some((
                _,
                Place::Mem {
                    index,
                    ty,
                    volatile,
                    ..
                },
            )) => (index.clone(), ty.clone(), *volatile),
            _ => return Err(self.unsupported(n, "a pointer into no array")),
        };
        let (index, ty, volatile) = first;
        if let CType::Array(elem, _) = &ty {
            let arrays = arms.iter().map(|(a, _)| *a).collect();
            return Ok(Value::Ptr(Ptr {
                target: None,
                choice: Some(Choice {
                    base: base.clone(),
                    arrays,
                }),
                offset: index,
                pointee: (**elem).clone(),
                volatile,
                null_if: None,
            }));
        }
        let scalar = match &ty {
            CType::Scalar(t) | CType::Atomic(t, _) => *t,
            CType::FnPtr => ScalarTy::U32,
            other => {
                return Err(self.unsupported(
                    n,
                    format!(
                        "reading a `{}` through a pointer into several arrays",
                        other.describe()
                    ),
                ))
            }
        };
        let span = self.span(n);
        let tmp = self.temp(scalar, span);
        self.on_each_arm(base, arms, n, |s, p| {
            let v = s.read(p, n)?;
            s.write(&Place::Var(tmp, scalar), v, n)
        })?;
        Ok(match ty {
            CType::FnPtr => Value::FnPtr(Expr::Var(tmp)),
            _ => Value::Scalar(Expr::Var(tmp), scalar),
        })
    }
}
