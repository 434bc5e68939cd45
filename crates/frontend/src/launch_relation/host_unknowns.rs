//! Host values a launch relation names without knowing them (issue 9).
//! cuda-samples' scan passes its array length only divided:
//!
//! ```c
//! extern "C" size_t scanExclusiveLarge(uint *d_Dst, uint *d_Src, uint batchSize, uint arrayLength) {
//!     assert(factorRadix2(log2L, arrayLength) == 1);
//!     scanExclusiveShared2<<<...>>>(..., arrayLength / (4 * THREADBLOCK_SIZE));
//! ```
//!
//! The host's `arrayLength` is no kernel parameter, so the assertion that
//! it is a power of two could not be stated, and with it the fact that the
//! kernel's `arrayLength` is one too. Such a value now becomes a variable
//! of its own, `scanExclusiveLarge::arrayLength` (a [`VarKind::Host`]
//! var of the kernel), and the relation states
//! `arrayLength == scanExclusiveLarge::arrayLength / 1024u` with the
//! assertion's fact over it.
//!
//! **Invariant:** a host value gets a variable only where its reads in one
//! launch's facts all see one value: a by-value scalar local or parameter
//! of the launching function, declared once and unchanged between its
//! declaration and every read (the same test as for reading its
//! initialiser, `HostFn::unchanged`). Launches share a variable when they
//! read one host variable: the relation is a disjunction of launches over
//! variables that stand for any value, and `(R1 || R2)` for some `h` is
//! `R1` for some `h` or `R2` for some `h`. A variable stands for any value of its type, so it only ever lets the
//! relation say more about the kernel's parameters through the facts that
//! read it; facts over host variables alone, that no fact links to the
//! kernel, are dropped.

use super::{Fact, Key};
use std::cell::RefCell;
use warpsafe_ir::{BinOp, Expr, ScalarTy, Var, VarId, VarKind};
use warpsafe_source::Span;

/// The host variables the relations of one kernel name, numbered after
/// the kernel's own variables.
pub(crate) struct HostUnknowns {
    base: usize,
    vars: RefCell<Vec<Unknown>>,
}

struct Unknown {
    name: String,
    ty: ScalarTy,
    /// Where the host variable is declared.
    decl: usize,
}

impl HostUnknowns {
    /// Numbering after the `first` variables the kernel has.
    pub(crate) fn after(first: usize) -> Self {
        HostUnknowns {
            base: first,
            vars: RefCell::new(Vec::new()),
        }
    }

    /// The variable of `name` (`function::name`), declared at `decl`.
    pub(crate) fn var(&self, name: String, decl: usize, ty: ScalarTy) -> Expr {
        let mut vars = self.vars.borrow_mut();
        let i = match vars.iter().position(|u| u.decl == decl && u.name == name) {
            Some(i) => i,
            None => {
                vars.push(Unknown { name, ty, decl });
                vars.len() - 1
            }
        };
        Expr::Var(VarId((self.base + i) as u32))
    }

    /// The type of `v` when it is one of these variables.
    pub(crate) fn ty(&self, v: VarId) -> Option<ScalarTy> {
        let i = (v.0 as usize).checked_sub(self.base)?;
        self.vars.borrow().get(i).map(|u| u.ty)
    }

    /// Whether `v` is one of these variables.
    pub(crate) fn is_host(&self, v: VarId) -> bool {
        self.ty(v).is_some()
    }

    /// One launch's `facts` without those that divide by a host value and
    /// those that say nothing about the kernel: facts over host variables
    /// alone that no fact reading a kernel parameter or a dimension links
    /// to through shared host variables, and then (`free_unknowns`) those
    /// whose only link is a host variable that stands for a kernel value
    /// alone. Dropping a fact only assumes less.
    pub(super) fn prune(&self, facts: Vec<Fact>) -> Vec<Fact> {
        // A division by a host value (`width / nthreads` for the grid
        // and `nthreads` for the block) leaves the solver a division by
        // an unknown: boxFilter's queries all ran out of time on it.
        let facts: Vec<Fact> = facts
            .into_iter()
            .filter(|f| !self.divides_by_host(&f.cond))
            .collect();
        let hosts_of = |e: &Expr| {
            let mut hosts = Vec::new();
            let mut kernel = false;
            e.walk(&mut |x| match x {
                Expr::Var(v) if self.is_host(*v) => hosts.push(*v),
                Expr::Var(_) | Expr::Builtin(_) => kernel = true,
                _ => {}
            });
            (hosts, kernel)
        };
        let read: Vec<(Vec<VarId>, bool)> = facts.iter().map(|f| hosts_of(&f.cond)).collect();
        let mut keep: Vec<bool> = read.iter().map(|(_, kernel)| *kernel).collect();
        loop {
            let reached: Vec<VarId> = read
                .iter()
                .zip(&keep)
                .filter(|(_, k)| **k)
                .flat_map(|((h, _), _)| h.iter().copied())
                .collect();
            let mut grew = false;
            for (i, (hosts, _)) in read.iter().enumerate() {
                if !keep[i] && hosts.iter().any(|h| reached.contains(h)) {
                    keep[i] = true;
                    grew = true;
                }
            }
            if !grew {
                break;
            }
        }
        let linked = facts
            .into_iter()
            .zip(keep)
            .filter_map(|(f, k)| k.then_some(f))
            .collect();
        self.free_unknowns(linked)
    }

    /// Whether `e` divides by (or takes the remainder of) an expression
    /// that reads a host variable.
    fn divides_by_host(&self, e: &Expr) -> bool {
        let mut found = false;
        e.walk(&mut |x| {
            if let Expr::Binary(BinOp::Div | BinOp::Rem, _, _, by) = x {
                found |= by.vars().iter().any(|v| self.is_host(*v));
            }
        });
        found
    }

    /// `facts` without the host values that only name a kernel value:
    /// `gridDim.x == (u32)main::blocks / 16` where nothing else reads
    /// `main::blocks` (but for its `main::blocks >= 0`) says little more
    /// than a launch does (a bound on the grid), and costs the solver a
    /// variable; with `blockDim.x == (u32)run::side && blockDim.y ==
    /// (u32)run::side` what remains is `blockDim.x == blockDim.y`. A
    /// product or a sum over the value is kept (`n == main::argc * 4096`
    /// says that `n` is a multiple of 4096).
    fn free_unknowns(&self, mut facts: Vec<Fact>) -> Vec<Fact> {
        // The host variable one side of `a == b` is, through conversions,
        // with that side.
        let bare = |f: &Fact| {
            let Expr::Binary(BinOp::Eq, _, a, b) = &f.cond else {
                return None;
            };
            [b, a].into_iter().find_map(|side| {
                let mut e: &Expr = side;
                loop {
                    match e {
                        Expr::Cast(_, inner) => e = inner,
                        Expr::Binary(BinOp::Div | BinOp::Shr, _, inner, by)
                            if by.as_const_int().is_some() =>
                        {
                            e = inner
                        }
                        _ => break,
                    }
                }
                match e {
                    Expr::Var(v) if self.is_host(*v) => Some((*v, side.as_ref().clone())),
                    _ => None,
                }
            })
        };
        // The other side of `f` when it is an equality with `side`.
        let other = |f: &Fact, side: &Expr| match &f.cond {
            Expr::Binary(BinOp::Eq, ty, a, b) if **b == *side => Some((*ty, a.as_ref().clone())),
            Expr::Binary(BinOp::Eq, ty, a, b) if **a == *side => Some((*ty, b.as_ref().clone())),
            _ => None,
        };
        let reads = |f: &Fact, v: VarId| f.cond.vars().contains(&v);
        loop {
            // A host variable whose every read, but in facts that it is
            // not negative, is one side of an equality.
            let free = facts.iter().find_map(|f| {
                let (h, side) = bare(f)?;
                facts
                    .iter()
                    .filter(|g| reads(g, h) && g.key != Key::NotNegative)
                    .all(|g| other(g, &side).is_some())
                    .then_some((h, side))
            });
            let Some((h, side)) = free else {
                return facts;
            };
            let mut first: Option<Expr> = None;
            facts = facts
                .into_iter()
                .filter_map(|f| {
                    if !reads(&f, h) {
                        return Some(f);
                    }
                    let (ty, e) = other(&f, &side)?;
                    match &first {
                        None => {
                            first = Some(e);
                            None
                        }
                        Some(x) => Some(Fact {
                            key: f.key,
                            cond: Expr::binary(BinOp::Eq, ty, x.clone(), e),
                        }),
                    }
                })
                .collect();
        }
    }

    /// The relation with the host variables it reads numbered from the
    /// first free id, and those variables, in order, to append to the
    /// kernel (each with the span of the launch).
    pub(crate) fn finish(self, cond: Expr, span: Span) -> (Expr, Vec<Var>) {
        let mut used: Vec<VarId> = Vec::new();
        cond.walk(&mut |x| {
            if let Expr::Var(v) = x {
                if self.is_host(*v) && !used.contains(v) {
                    used.push(*v);
                }
            }
        });
        let new_id = |v: VarId| {
            used.iter()
                .position(|u| *u == v)
                .map(|i| VarId((self.base + i) as u32))
        };
        let cond = cond.map_vars(&|v| new_id(v).map(Expr::Var));
        let vars = self.vars.into_inner();
        let out = used
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let u = &vars[v.0 as usize - self.base];
                Var {
                    id: VarId((self.base + i) as u32),
                    name: u.name.clone(),
                    ty: u.ty,
                    kind: VarKind::Host,
                    span,
                }
            })
            .collect();
        (cond, out)
    }
}
