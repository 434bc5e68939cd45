//! Lowering one kernel from syntax to the IR: the builder state shared by
//! the expression, place, statement and call lowering files.
//!
//! Invariants:
//! - Lowering a kernel either succeeds completely or fails with one error
//!   diagnostic pointing at the construct it cannot model; it never emits a
//!   kernel with silently missing behaviour.
//! - Every emitted statement carries the span of the syntax node it came from.

mod asm;
mod async_copy;
mod builtins;
mod calls;
mod class_members;
mod ctor;
mod cuda_atomic;
mod device_launch;
mod entry;
mod expr;
mod half;
mod lambda;
mod mem_pointer;
mod memcpy;
mod overload;
mod place;
mod stmt;
mod surface;
mod targets;
mod union_member;
mod value;
mod view;
mod warp_exchange;
mod wmma;

pub use async_copy::{ASYNC_BARRIER, ASYNC_PIPELINE};
pub use builtins::BLOCK_TILE_MEMORY;
pub use builtins::{CURAND_MTGP32, CURAND_STATE, MATH};
pub use value::Place;

use crate::consteval::ConstEnv;
use crate::decl::{TemplateEnv, TypeCx};
use crate::items::{FnItem, Items};
use crate::syntax::Syntax;
use crate::types::{CType, GroupKind};
use std::collections::{HashMap, HashSet};
use tree_sitter::Node;
use warpsafe_ir::{
    Array, ArrayId, ArrayOrigin, Block, Kernel, LoopId, MemSpace, ScalarTy, Stmt, StmtKind, Var,
    VarId, VarKind,
};
use warpsafe_source::{Diagnostic, Span};

pub type R<T> = Result<T, Diagnostic>;

/// What a name stands for while lowering.
#[derive(Clone, Debug)]
pub enum Binding {
    /// A variable: scalar, aggregate, pointer, array, or a reference to memory.
    Place(Place),
    /// A compile-time constant (template argument, `const` local).
    Const(i128, ScalarTy),
    Group(GroupKind),
    /// A kernel parameter of a type warpsafe cannot model: using it is an
    /// error (this one), declaring it is not.
    Unusable(Diagnostic),
    /// A lambda (`auto f = [&](int i) { ... };`): its index in
    /// `Lowerer::lambdas`.
    Lambda(usize),
}

/// The innermost construct that `break`/`continue`/`return` leave.
#[derive(Clone, Debug)]
struct LoopCtx {
    id: LoopId,
    /// `continue` may target it.
    iterates: bool,
    /// A plain `break` may target it (loops and `switch`, not the blocks
    /// made for inlined calls and forward `goto`s).
    breakable: bool,
}

/// Where an inlined function's `return` goes.
#[derive(Clone, Debug)]
struct ReturnCtx {
    target: LoopId,
    slot: Option<Place>,
    /// A deduced return type (`auto f()`, a lambda without `-> T`): the
    /// name of the result's slot, made by the first `return` with a value
    /// with that value's type.
    deduce: Option<String>,
    /// The function returns a reference: its `return` names a place
    /// (see `Lowerer::returning_body`), ...
    by_ref: bool,
    /// ... this one, once its `return` is lowered.
    returned: Option<Place>,
}

pub struct Lowerer<'a, 't> {
    pub syn: &'t Syntax,
    pub items: &'a Items<'t>,
    tenv: TemplateEnv,
    pub kernel: Kernel,
    out: Block,
    scopes: Vec<HashMap<String, Binding>>,
    /// File-scope `__device__`/`__constant__`/`__shared__` variables, by name.
    globals: HashMap<String, Place>,
    /// `__shared__` declarations inside functions, by declaration site.
    shared_sites: HashMap<usize, Place>,
    loops: Vec<LoopCtx>,
    returns: Vec<ReturnCtx>,
    /// The lambda expressions bound to local names (see `lambda`).
    lambdas: Vec<Node<'t>>,
    /// The call (node id) whose reference result is wanted as a place,
    /// and that place once the call is lowered (see `call_place`).
    want_ref: Option<usize>,
    ref_result: Option<Place>,
    /// The definitions being inlined (by syntax node id), each with its
    /// template arguments ([`TemplateEnv::key`]): recursion.
    call_stack: Vec<(usize, String)>,
    /// The object each function on the call stack was called on, with its
    /// class (`None` for free functions): `this`, and member lookup.
    this_stack: Vec<Option<(String, Place)>>,
    /// The type of each expression typed for overload resolution, by syntax
    /// node and inlined instance (see `overload.rs`).
    type_cache: HashMap<(usize, u32), Option<CType>>,
    /// The inlined instance being lowered (0: the kernel body), innermost
    /// last, and the next number to hand out.
    instances: Vec<u32>,
    next_instance: u32,
    /// The namespace of each function on the call stack (name lookup).
    ns_stack: Vec<Vec<String>>,
    /// Using-directives (`true`) and using-declarations in the body of the
    /// function being lowered, as written paths.
    local_usings: Vec<(Vec<String>, bool)>,
    /// Labels of forward `goto`s in scope, and the block each one leaves.
    goto_targets: HashMap<String, LoopId>,
    next_loop: u32,
    /// The array each pointer variable (by its offset variable) points into.
    ptr_targets: targets::Targets,
    /// The byte size of every slot of each array whose element is a run of
    /// equal-size slots without padding (see `view.rs`). Kept for every id
    /// `new_array` hands out, so ids reused after a rollback are right.
    pub(super) slot_bytes: HashMap<ArrayId, u64>,
    /// The base variable of each dynamic pointer variable.
    ptr_base: HashMap<VarId, VarId>,
    /// Variables known to hold a constant at the current point of
    /// straight-line code (`size_t len = 4; memcpy(..., len)`).
    known: HashMap<VarId, i128>,
    /// Syntax nodes whose write to `__constant__` memory was reported.
    constant_writes: HashSet<usize>,
    /// Local names whose address is taken in the function being lowered.
    addr_taken: Vec<HashSet<String>>,
    names: HashMap<String, u32>,
    pub warnings: Vec<Diagnostic>,
    /// The surface layout approximation was stated (once per kernel).
    surface_noted: bool,
    /// The array every pointer stored in a kernel-filled array of pointers
    /// points into (see `mem_pointer.rs`).
    mem_ptr_targets: HashMap<ArrayId, ArrayId>,
    /// The pointee array of each host-filled holder and pointee type.
    pointees: HashMap<(ArrayId, String), ArrayId>,
}

impl<'a, 't> Lowerer<'a, 't> {
    pub fn new(
        syn: &'t Syntax,
        items: &'a Items<'t>,
        f: &FnItem<'t>,
        tenv: TemplateEnv,
        template_args: Vec<String>,
    ) -> Self {
        let span = syn.span(f.def);
        let instance_key = tenv.key();
        Lowerer {
            syn,
            items,
            tenv,
            kernel: Kernel {
                name: f.name.clone(),
                template_args,
                params: Vec::new(),
                vars: Vec::new(),
                arrays: Vec::new(),
                body: Vec::new(),
                launch: Default::default(),
                span,
                volatile_read_as: None,
            },
            out: Vec::new(),
            scopes: vec![HashMap::new()],
            globals: HashMap::new(),
            shared_sites: HashMap::new(),
            loops: Vec::new(),
            returns: Vec::new(),
            lambdas: Vec::new(),
            want_ref: None,
            ref_result: None,
            call_stack: vec![(f.def.id(), instance_key)],
            ns_stack: vec![f.ns.clone()],
            this_stack: vec![None],
            type_cache: HashMap::new(),
            instances: vec![0],
            next_instance: 1,
            local_usings: Vec::new(),
            goto_targets: HashMap::new(),
            next_loop: 0,
            ptr_targets: HashMap::new(),
            slot_bytes: HashMap::new(),
            ptr_base: HashMap::new(),
            known: HashMap::new(),
            constant_writes: HashSet::new(),
            addr_taken: Vec::new(),
            names: HashMap::new(),
            warnings: Vec::new(),
            surface_noted: false,
            mem_ptr_targets: HashMap::new(),
            pointees: HashMap::new(),
        }
    }

    // ----- diagnostics -------------------------------------------------

    pub fn span(&self, n: Node) -> Span {
        self.syn.span(n)
    }

    pub fn text(&self, n: Node) -> &'t str {
        self.syn.text(n)
    }

    pub fn unsupported(&self, n: Node, what: impl Into<String>) -> Diagnostic {
        Diagnostic::error("unsupported", format!("unsupported: {}", what.into())).at(self.span(n))
    }

    /// States a kernel-wide approximation at its first site only (later
    /// sites would repeat the same message at other places).
    pub fn warn_once(&mut self, n: Node, msg: &str) {
        if !self.warnings.iter().any(|w| w.message == msg) {
            self.warn(n, msg);
        }
    }

    /// States an approximation at `n`, once: a function inlined at several
    /// call sites (or a template instantiated several times) states it
    /// once per kernel, not once per copy.
    pub fn warn(&mut self, n: Node, msg: impl Into<String>) {
        let d = Diagnostic::warning("approximation", msg).at(self.span(n));
        if !self.warnings.contains(&d) {
            self.warnings.push(d);
        }
    }

    // ----- types -------------------------------------------------------

    pub fn type_cx(&self) -> TypeCx<'_> {
        TypeCx {
            syn: self.syn,
            types: &self.items.types,
            tenv: &self.tenv,
            consts: self,
            classes: &self.items.class_types,
            depth: 0,
        }
    }

    pub fn slots(&self, ty: &CType, n: Node) -> R<Vec<ScalarTy>> {
        self.items.types.slots(ty).ok_or_else(|| {
            self.unsupported(n, format!("objects of type `{}` in memory", ty.describe()))
        })
    }

    pub fn slot_count(&self, ty: &CType, n: Node) -> R<u64> {
        Ok(self.slots(ty, n)?.len() as u64)
    }

    // ----- building ----------------------------------------------------

    fn unique_name(&mut self, base: &str) -> String {
        let count = self.names.entry(base.to_string()).or_insert(0);
        *count += 1;
        if *count == 1 {
            base.to_string()
        } else {
            format!("{}.{}", base, *count - 1)
        }
    }

    pub fn new_var(&mut self, name: &str, ty: ScalarTy, kind: VarKind, span: Span) -> VarId {
        let id = VarId(self.kernel.vars.len() as u32);
        let name = if kind == VarKind::Temp {
            format!("%{}", id.0)
        } else {
            self.unique_name(name)
        };
        self.kernel.vars.push(Var {
            id,
            name,
            ty,
            kind,
            span,
        });
        id
    }

    pub fn temp(&mut self, ty: ScalarTy, span: Span) -> VarId {
        self.new_var("", ty, VarKind::Temp, span)
    }

    #[allow(clippy::too_many_arguments)]
    pub fn new_array(
        &mut self,
        name: &str,
        space: MemSpace,
        origin: ArrayOrigin,
        elem: &CType,
        dims: Vec<u64>,
        slots: Vec<ScalarTy>,
        span: Span,
    ) -> ArrayId {
        let id = ArrayId(self.kernel.arrays.len() as u32);
        let name = self.unique_name(name);
        let atomic_object = matches!(elem, CType::Atomic(..));
        match self.uniform_slot_bytes(elem) {
            Some(s) if !atomic_object => self.slot_bytes.insert(id, s),
            _ => self.slot_bytes.remove(&id),
        };
        self.kernel.arrays.push(Array {
            id,
            name,
            space,
            origin,
            elem: elem.describe(),
            slots,
            dims,
            init: None,
            atomic_object,
            span,
        });
        id
    }

    pub fn emit(&mut self, kind: StmtKind, span: Span) {
        let stmt = Stmt::new(kind, span);
        self.track_constants(&stmt);
        self.out.push(stmt);
    }

    /// Keeps `known` true after `stmt`: a constant assignment records the
    /// constant; any other write, or any write inside a branch or loop,
    /// forgets the variable.
    fn track_constants(&mut self, stmt: &Stmt) {
        let mut forget = |s: &Stmt| {
            if let Some(dst) = s.assigned_var() {
                self.known.remove(&dst);
            }
        };
        match &stmt.kind {
            StmtKind::Assign { dst, value } => match value.as_const_int() {
                Some(c) => {
                    self.known.insert(*dst, c);
                }
                None => {
                    self.known.remove(dst);
                }
            },
            StmtKind::If { .. } | StmtKind::Loop { .. } => {
                for child in stmt.children() {
                    warpsafe_ir::walk_block(child, &mut forget);
                }
            }
            _ => forget(stmt),
        }
    }

    /// The constant value of an expression, through known variables.
    pub fn known_constant(&self, e: &warpsafe_ir::Expr) -> Option<i128> {
        match e {
            warpsafe_ir::Expr::Var(v) => self.known.get(v).copied(),
            warpsafe_ir::Expr::Cast(t, inner) if t.is_integer() => {
                self.known_constant(inner).map(|v| value::wrap(v, *t))
            }
            e => e.as_const_int(),
        }
    }

    /// Lowers `f` into a fresh block and returns it, restoring the current one.
    pub fn block<T>(&mut self, f: impl FnOnce(&mut Self) -> R<T>) -> R<(Block, T)> {
        let saved = std::mem::take(&mut self.out);
        let result = f(self);
        let block = std::mem::replace(&mut self.out, saved);
        result.map(|v| (block, v))
    }

    pub fn new_loop_id(&mut self) -> LoopId {
        self.next_loop += 1;
        LoopId(self.next_loop - 1)
    }

    // ----- names -------------------------------------------------------

    pub fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
    }

    pub fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    pub fn bind(&mut self, name: &str, b: Binding) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), b);
        }
    }

    pub fn lookup(&self, name: &str) -> Option<Binding> {
        self.scopes.iter().rev().find_map(|s| s.get(name).cloned())
    }

    pub fn is_addr_taken(&self, name: &str) -> bool {
        self.addr_taken.last().is_some_and(|s| s.contains(name))
    }

    /// Finds locals whose address is taken (`&x`) in a function body: they
    /// live in local memory instead of variables.
    pub fn scan_addr_taken(&self, body: Node) -> HashSet<String> {
        let mut set = HashSet::new();
        let mut stack = vec![body];
        while let Some(n) = stack.pop() {
            if n.kind() == "pointer_expression"
                && n.child_by_field_name("operator").map(|o| self.text(o)) == Some("&")
            {
                if let Some(mut arg) = n.child_by_field_name("argument") {
                    while matches!(arg.kind(), "field_expression" | "parenthesized_expression") {
                        match arg
                            .child_by_field_name("argument")
                            .or_else(|| arg.named_child(0))
                        {
                            Some(a) => arg = a,
                            None => break,
                        }
                    }
                    if arg.kind() == "identifier" {
                        set.insert(self.text(arg).to_string());
                    }
                }
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        set
    }
}

impl<'t> Lowerer<'_, 't> {
    /// The inlined instance being lowered (keys of the type cache).
    pub fn instance(&self) -> u32 {
        self.instances.last().copied().unwrap_or(0)
    }

    /// Runs `f` with the local scopes hidden (for a qualified name, which
    /// names a namespace-scope entity even where a local shadows it).
    pub fn without_locals<T>(&mut self, f: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        let saved = std::mem::replace(&mut self.scopes, vec![HashMap::new()]);
        let r = f(self);
        self.scopes = saved;
        r
    }
}

impl ConstEnv for Lowerer<'_, '_> {
    fn constant(&self, name: &str) -> Option<i128> {
        if let Some(Binding::Const(v, _)) = self.lookup(name) {
            return Some(v);
        }
        if self.lookup(name).is_some() {
            return None;
        }
        self.tenv
            .values
            .get(name)
            .copied()
            .or_else(|| self.items.consts.get(name).copied())
    }
    fn constant_type(&self, name: &str) -> Option<ScalarTy> {
        if let Some(Binding::Const(_, t)) = self.lookup(name) {
            return Some(t);
        }
        if self.lookup(name).is_some() || self.tenv.values.contains_key(name) {
            return None;
        }
        self.items.constant_type(name)
    }

    fn scalar_type(&self, name: &str) -> Option<ScalarTy> {
        self.tenv
            .types
            .get(name)
            .and_then(|t| t.scalar())
            .or_else(|| self.items.scalar_type(name))
    }
}
