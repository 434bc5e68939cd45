//! The access-protocol language (seed 002, §2.2 and Fig. 2, with the
//! conditionals and loop forms of §5).
//!
//! A [`Proto`] abstracts one thread's kernel to *where* it touches memory:
//! accesses with symbolic indices, barriers, conditionals and loops. The
//! inference produces one tree over all arrays ([`KernelProtocol::body`]) and
//! slices it into one protocol per array ([`KernelProtocol::arrays`]), as
//! Faial does.
//!
//! Invariants:
//! - Every `Sym` in a protocol is over builtins, parameters, the variables of
//!   *enclosing* `For` loops and unknowns; there are no program variables.
//! - A [`Proto::For`] with `bound_known` runs its body exactly once per value
//!   of its variable (see [`ForLoop`]); without it, for a prefix of them.
//! - A [`Proto::Loop`] runs its body an unknown number of times (zero or
//!   more); values changed by the loop are unknowns inside it.
//! - Barriers are never dropped when slicing per array.

use crate::sym::Sym;
use warpsafe_ir::{ArrayId, AssumeOrigin, BinOp, LoopId, MemSpace, ScalarTy, Scope, Span, VarId};

/// Read or write. Atomic read-modify-writes and compare-and-swaps are writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AccessMode {
    Read,
    Write,
}

/// One access `rd a[i]` / `wr a[i]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Access {
    pub array: ArrayId,
    pub mode: AccessMode,
    /// Index in slots, as in the IR's `MemRef`.
    pub index: Sym,
    /// Atomic accesses (`atomic*`, atomic loads/stores, `cuda::atomic`).
    pub atomic: bool,
    /// The scope of an atomic access.
    pub scope: Option<Scope>,
    /// A `volatile` plain access.
    pub volatile: bool,
    pub span: Span,
}

/// Which threads a barrier synchronises.
#[derive(Clone, Debug, PartialEq)]
pub enum SyncKind {
    /// `__syncthreads()`: the paper's `sync`.
    Block,
    /// `__syncwarp(mask)`.
    Warp { mask: Sym },
    /// A cooperative-groups tile of `size` threads.
    Tile { size: u32 },
    /// `this_grid().sync()`.
    Grid,
}

/// How a `For` loop's variable moves from one iteration to the next
/// (`i = i + k`, `i = i * k`, ...). `k` is loop-invariant.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    Add(Sym),
    Mul(Sym),
    Shl(Sym),
    Sub(Sym),
    Div(Sym),
    Shr(Sym),
}

impl Step {
    /// Add, Mul and Shl loops run upwards from `lo`; Sub, Div and Shr run
    /// downwards from `hi - 1`.
    pub fn increasing(&self) -> bool {
        matches!(self, Step::Add(_) | Step::Mul(_) | Step::Shl(_))
    }

    pub fn amount(&self) -> &Sym {
        match self {
            Step::Add(k)
            | Step::Mul(k)
            | Step::Shl(k)
            | Step::Sub(k)
            | Step::Div(k)
            | Step::Shr(k) => k,
        }
    }

    /// The C operator of the step (`+`, `*`, `<<`, `-`, `/`, `>>`).
    pub fn op(&self) -> BinOp {
        match self {
            Step::Add(_) => BinOp::Add,
            Step::Mul(_) => BinOp::Mul,
            Step::Shl(_) => BinOp::Shl,
            Step::Sub(_) => BinOp::Sub,
            Step::Div(_) => BinOp::Div,
            Step::Shr(_) => BinOp::Shr,
        }
    }

    /// Whether this is `+ 1` or `- 1` (the paper's unit-stride loops).
    pub fn is_unit(&self) -> bool {
        matches!(self, Step::Add(k) | Step::Sub(k) if k.as_int() == Some(1))
    }
}

/// A recognised counting loop.
///
/// The variable takes the values `lo, step(lo), step(step(lo)), ...` while
/// below `hi` for increasing steps, and `hi - 1, step(hi - 1), ...` while at
/// least `lo` for decreasing ones; `lo` is inclusive and `hi` exclusive, as in
/// the paper. `step` records the step faithfully; the race check turns it
/// into constraints on the variable (`stride`, §5's loop normalisation).
/// `lo`/`hi` are computed in the variable's type; the inference only emits a
/// `For` where the variable cannot wrap (or where wrapping would be C
/// undefined behaviour, for signed types).
#[derive(Clone, Debug, PartialEq)]
pub struct ForLoop {
    pub var: VarId,
    pub loop_id: LoopId,
    pub ty: ScalarTy,
    pub lo: Sym,
    pub hi: Sym,
    pub step: Step,
    /// The loop's comparison as written, with the variable on the left
    /// (`i < n` is `Lt`; `i != n` is `Ne`).
    pub test: BinOp,
    pub body: Proto,
    /// False when the loop may stop early (`break`, `return`, or a jump to an
    /// outer loop inside it): the body then runs for a prefix of the values.
    pub bound_known: bool,
    pub span: Span,
}

impl ForLoop {
    /// The loop variable as a symbolic value.
    pub fn var_sym(&self) -> Sym {
        Sym::LoopVar {
            var: self.var,
            loop_id: self.loop_id,
            ty: self.ty,
        }
    }

    /// `hi - 1` in the loop's type.
    pub fn hi_minus_one(&self) -> Sym {
        Sym::binary(BinOp::Sub, self.ty, self.hi.clone(), Sym::int(1, self.ty))
    }

    /// The first value of the loop variable: `lo`, or `hi - 1` for a
    /// decreasing step.
    pub fn first_value(&self) -> Sym {
        if self.step.increasing() {
            self.lo.clone()
        } else {
            self.hi_minus_one()
        }
    }
}

/// An access protocol.
#[derive(Clone, Debug, PartialEq)]
pub enum Proto {
    Skip,
    Access(Access),
    Sync {
        kind: SyncKind,
        span: Span,
    },
    Seq(Vec<Proto>),
    If {
        cond: Sym,
        then_: Box<Proto>,
        else_: Box<Proto>,
    },
    For(Box<ForLoop>),
    /// A loop whose iteration count is unknown (`while` with a data-dependent
    /// condition, loops that are not of a recognised shape).
    Loop {
        id: LoopId,
        body: Box<Proto>,
        /// When a thread that starts an iteration starts the next one, in
        /// the iteration's values (the loop's condition held, no `break`,
        /// `return` or outer jump left it, and its condition holds again
        /// at the next test where that is known in the iteration). Barrier
        /// aligning needs it the same for the threads of a block.
        again: Sym,
        span: Span,
    },
}

impl Proto {
    /// Sequential composition, flattening nested sequences and dropping skips.
    pub fn seq(items: Vec<Proto>) -> Proto {
        let mut out = Vec::new();
        for p in items {
            match p {
                Proto::Skip => {}
                Proto::Seq(inner) => out.extend(inner),
                p => out.push(p),
            }
        }
        match out.len() {
            0 => Proto::Skip,
            1 => out.pop().expect("invariant: one element"),
            _ => Proto::Seq(out),
        }
    }

    /// A conditional, folding constant conditions and empty branches.
    pub fn if_(cond: Sym, then_: Proto, else_: Proto) -> Proto {
        if cond.is_true() {
            return then_;
        }
        if cond.is_false() {
            return else_;
        }
        if then_ == Proto::Skip && else_ == Proto::Skip {
            return Proto::Skip;
        }
        Proto::If {
            cond,
            then_: Box::new(then_),
            else_: Box::new(else_),
        }
    }

    pub fn is_skip(&self) -> bool {
        matches!(self, Proto::Skip)
    }

    /// Whether the protocol contains a barrier (the paper's synchronised
    /// fragments, §2.2).
    pub fn has_sync(&self) -> bool {
        let mut found = false;
        self.walk(&mut |p| found |= matches!(p, Proto::Sync { .. }));
        found
    }

    /// Calls `f` on every node, parents first.
    pub fn walk(&self, f: &mut dyn FnMut(&Proto)) {
        f(self);
        match self {
            Proto::Skip | Proto::Access(_) | Proto::Sync { .. } => {}
            Proto::Seq(items) => items.iter().for_each(|p| p.walk(f)),
            Proto::If { then_, else_, .. } => {
                then_.walk(f);
                else_.walk(f);
            }
            Proto::For(l) => l.body.walk(f),
            Proto::Loop { body, .. } => body.walk(f),
        }
    }

    /// Every access, in program order.
    pub fn accesses(&self) -> Vec<&Access> {
        let mut out = Vec::new();
        collect_accesses(self, &mut out);
        out
    }

    /// Rewrites every symbolic expression (indices, conditions, bounds).
    pub fn map_syms(&self, f: &mut dyn FnMut(&Sym) -> Option<Sym>) -> Proto {
        match self {
            Proto::Skip => Proto::Skip,
            Proto::Access(a) => Proto::Access(Access {
                index: a.index.map(f),
                ..a.clone()
            }),
            Proto::Sync { kind, span } => Proto::Sync {
                kind: match kind {
                    SyncKind::Warp { mask } => SyncKind::Warp { mask: mask.map(f) },
                    k => k.clone(),
                },
                span: *span,
            },
            Proto::Seq(items) => Proto::seq(items.iter().map(|p| p.map_syms(f)).collect()),
            Proto::If { cond, then_, else_ } => {
                Proto::if_(cond.map(f), then_.map_syms(f), else_.map_syms(f))
            }
            Proto::For(l) => Proto::For(Box::new(ForLoop {
                lo: l.lo.map(f),
                hi: l.hi.map(f),
                step: match &l.step {
                    Step::Add(k) => Step::Add(k.map(f)),
                    Step::Mul(k) => Step::Mul(k.map(f)),
                    Step::Shl(k) => Step::Shl(k.map(f)),
                    Step::Sub(k) => Step::Sub(k.map(f)),
                    Step::Div(k) => Step::Div(k.map(f)),
                    Step::Shr(k) => Step::Shr(k.map(f)),
                },
                body: l.body.map_syms(f),
                ..(**l).clone()
            })),
            Proto::Loop {
                id,
                body,
                again,
                span,
            } => Proto::Loop {
                id: *id,
                body: Box::new(body.map_syms(f)),
                again: again.map(f),
                span: *span,
            },
        }
    }

    /// The slice of the protocol that concerns the accesses `keep` selects:
    /// other accesses are dropped, barriers kept, and control structure that
    /// is left empty removed (Faial's slicing, §5).
    pub fn slice(&self, keep: &dyn Fn(&Access) -> bool) -> Proto {
        match self {
            Proto::Skip => Proto::Skip,
            Proto::Access(a) => {
                if keep(a) {
                    self.clone()
                } else {
                    Proto::Skip
                }
            }
            Proto::Sync { .. } => self.clone(),
            Proto::Seq(items) => Proto::seq(items.iter().map(|p| p.slice(keep)).collect()),
            Proto::If { cond, then_, else_ } => {
                Proto::if_(cond.clone(), then_.slice(keep), else_.slice(keep))
            }
            Proto::For(l) => {
                let body = l.body.slice(keep);
                if body.is_skip() {
                    return Proto::Skip;
                }
                Proto::For(Box::new(ForLoop {
                    body,
                    ..(**l).clone()
                }))
            }
            Proto::Loop {
                id,
                body,
                again,
                span,
            } => {
                let body = body.slice(keep);
                if body.is_skip() {
                    return Proto::Skip;
                }
                Proto::Loop {
                    id: *id,
                    body: Box::new(body),
                    again: again.clone(),
                    span: *span,
                }
            }
        }
    }
}

fn collect_accesses<'a>(p: &'a Proto, out: &mut Vec<&'a Access>) {
    match p {
        Proto::Access(a) => out.push(a),
        Proto::Skip | Proto::Sync { .. } => {}
        Proto::Seq(items) => items.iter().for_each(|p| collect_accesses(p, out)),
        Proto::If { then_, else_, .. } => {
            collect_accesses(then_, out);
            collect_accesses(else_, out);
        }
        Proto::For(l) => collect_accesses(&l.body, out),
        Proto::Loop { body, .. } => collect_accesses(body, out),
    }
}

/// The protocol of one array.
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayProtocol {
    pub array: ArrayId,
    pub name: String,
    pub space: MemSpace,
    pub proto: Proto,
}

/// Where a collected condition came from.
#[derive(Clone, Debug, PartialEq)]
pub enum ConditionOrigin {
    Assume(AssumeOrigin),
    /// What the host code's launches establish
    /// ([`warpsafe_ir::LaunchConfig::relation`]).
    Launch,
    Assert {
        message: String,
    },
    /// A 64-bit unsigned loop counter does not wrap around 2^64 (an
    /// assumption of `check` unless `--counter-wrap`; see `loops`).
    CounterNoWrap,
}

impl Condition {
    /// A 64-bit loop counter's no-wrap condition that the check assumes
    /// (unless `--counter-wrap`): at a loop every execution reaches before
    /// any memory access or barrier.
    pub fn is_assumed_counter_bound(&self) -> bool {
        self.origin == ConditionOrigin::CounterNoWrap
            && self.guard.is_true()
            && !self.in_loop
            && !self.after_effects
    }
}

/// An `Assume` (kernel precondition) or `Assert` of the kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    pub cond: Sym,
    /// The path condition under which the statement runs (`true` at the top
    /// level); it may mention the variables of enclosing loops.
    pub guard: Sym,
    /// Inside a loop: `cond` and `guard` may mention loop variables and
    /// per-iteration unknowns.
    pub in_loop: bool,
    /// The enclosing counting loops, outermost first: the variables that
    /// `cond` and `guard` may mention, with their ranges.
    pub loops: Vec<LoopRange>,
    /// A memory access or barrier comes before it in program order: as an
    /// assumption it then holds only from here on, not for the whole kernel.
    pub after_effects: bool,
    /// Position among all `Assume`s and `Assert`s of the kernel, in the
    /// order the inference met them (program order, each loop body once).
    pub seq: usize,
    pub origin: ConditionOrigin,
    pub span: Span,
}

/// The range of a counting loop's variable around a [`Condition`]: when
/// `valid` holds, the variable is in `lo..hi` (see [`ForLoop`]); otherwise
/// it is unconstrained.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopRange {
    pub var: VarId,
    pub loop_id: LoopId,
    pub ty: ScalarTy,
    pub lo: Sym,
    pub hi: Sym,
    pub valid: Sym,
    /// The loop's step (with `lo`/`hi`, the values it takes; see
    /// [`ForLoop`]).
    pub step: Step,
}

/// A place where inference lost precision, for reports and `--dump`.
#[derive(Clone, Debug, PartialEq)]
pub struct Approximation {
    pub span: Span,
    pub what: String,
}

/// Everything inferred from one kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelProtocol {
    pub kernel: String,
    /// The protocol over all arrays.
    pub body: Proto,
    /// One protocol per accessed array (local arrays excluded), in the
    /// kernel's array order.
    pub arrays: Vec<ArrayProtocol>,
    /// `Assume` statements (`__requires`, `__assume`).
    pub preconditions: Vec<Condition>,
    pub asserts: Vec<Condition>,
    pub approximations: Vec<Approximation>,
}

impl KernelProtocol {
    pub fn array(&self, name: &str) -> Option<&ArrayProtocol> {
        self.arrays.iter().find(|a| a.name == name)
    }
}
