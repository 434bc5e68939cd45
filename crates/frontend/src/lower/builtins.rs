//! CUDA built-in functions: barriers, fences, the `atomic*` family,
//! cooperative groups, assertions, GPUVerify annotations, `printf`, math
//! functions, vector constructors and casts; and file-scope globals.
//!
//! Invariant: a built-in is either modelled exactly, modelled as an opaque
//! pure function / unknown value (and then says so in the IR), or rejected.

use super::value::{Place, Value};
use super::{Lowerer, R};
use crate::syntax::named_children;
use crate::types::{vector_type, CType, GroupKind};
use tree_sitter::Node;
use warpsafe_ir::{
    ArrayOrigin, AssumeOrigin, BarrierKind, BinOp, Builtin, Dim, Expr, MemOrder, MemSpace,
    ReduceOp, RmwOp, ScalarTy, Scope, StmtKind,
};

/// Pure math functions kept as uninterpreted calls: name and result type
/// (`None`: the type of the first argument).
pub const MATH: &[(&str, Option<ScalarTy>)] = &[
    ("sqrtf", Some(ScalarTy::F32)),
    ("sqrt", None),
    ("rsqrtf", Some(ScalarTy::F32)),
    ("rsqrt", None),
    ("expf", Some(ScalarTy::F32)),
    ("exp", None),
    ("exp2f", Some(ScalarTy::F32)),
    ("exp2", None),
    ("__expf", Some(ScalarTy::F32)),
    ("__exp10f", Some(ScalarTy::F32)),
    ("exp10f", Some(ScalarTy::F32)),
    ("logf", Some(ScalarTy::F32)),
    ("log", None),
    ("log2f", Some(ScalarTy::F32)),
    ("log2", None),
    ("log10f", Some(ScalarTy::F32)),
    ("log10", None),
    ("__logf", Some(ScalarTy::F32)),
    ("sinf", Some(ScalarTy::F32)),
    ("sin", None),
    ("cosf", Some(ScalarTy::F32)),
    ("cos", None),
    ("tanf", Some(ScalarTy::F32)),
    ("tan", None),
    ("__sinf", Some(ScalarTy::F32)),
    ("__cosf", Some(ScalarTy::F32)),
    ("tanhf", Some(ScalarTy::F32)),
    ("tanh", None),
    ("atanf", Some(ScalarTy::F32)),
    ("atan2f", Some(ScalarTy::F32)),
    ("powf", Some(ScalarTy::F32)),
    ("pow", None),
    ("__powf", Some(ScalarTy::F32)),
    ("fabsf", Some(ScalarTy::F32)),
    ("fabs", None),
    ("floorf", Some(ScalarTy::F32)),
    ("floor", None),
    ("ceilf", Some(ScalarTy::F32)),
    ("ceil", None),
    ("roundf", Some(ScalarTy::F32)),
    ("round", None),
    ("truncf", Some(ScalarTy::F32)),
    ("fminf", Some(ScalarTy::F32)),
    ("fmaxf", Some(ScalarTy::F32)),
    ("fmin", None),
    ("fmax", None),
    ("fmodf", Some(ScalarTy::F32)),
    ("fmod", None),
    ("fmaf", Some(ScalarTy::F32)),
    ("fma", None),
    ("__fdividef", Some(ScalarTy::F32)),
    ("__fmul_rn", Some(ScalarTy::F32)),
    ("__fadd_rn", Some(ScalarTy::F32)),
    ("__frcp_rn", Some(ScalarTy::F32)),
    ("__saturatef", Some(ScalarTy::F32)),
    ("erff", Some(ScalarTy::F32)),
    ("isnan", Some(ScalarTy::Bool)),
    ("isinf", Some(ScalarTy::Bool)),
    ("__float2int_rn", Some(ScalarTy::I32)),
    ("__float2int_rz", Some(ScalarTy::I32)),
    ("__int_as_float", Some(ScalarTy::F32)),
    ("__float_as_int", Some(ScalarTy::I32)),
    ("__half_as_ushort", Some(ScalarTy::U16)),
    ("__ushort_as_half", Some(ScalarTy::F16)),
    ("__half_as_short", Some(ScalarTy::I16)),
    ("__short_as_half", Some(ScalarTy::F16)),
    ("__popc", Some(ScalarTy::I32)),
    ("__popcll", Some(ScalarTy::I32)),
    ("__clz", Some(ScalarTy::I32)),
    ("__clzll", Some(ScalarTy::I32)),
    ("__ffs", Some(ScalarTy::I32)),
    ("__ffsll", Some(ScalarTy::I32)),
    ("__brev", Some(ScalarTy::U32)),
    ("__sad", Some(ScalarTy::U32)),
    ("__usad", Some(ScalarTy::U32)),
    ("__mulhi", Some(ScalarTy::I32)),
    ("__umulhi", Some(ScalarTy::U32)),
    ("__brevll", Some(ScalarTy::U64)),
    ("__mul64hi", Some(ScalarTy::I64)),
    ("__umul64hi", Some(ScalarTy::U64)),
    ("__hadd", Some(ScalarTy::I32)),
    ("__rhadd", Some(ScalarTy::I32)),
    ("__uhadd", Some(ScalarTy::U32)),
    ("__urhadd", Some(ScalarTy::U32)),
    ("__byte_perm", Some(ScalarTy::U32)),
    ("__funnelshift_l", Some(ScalarTy::U32)),
    ("__funnelshift_lc", Some(ScalarTy::U32)),
    ("__funnelshift_r", Some(ScalarTy::U32)),
    ("__funnelshift_rc", Some(ScalarTy::U32)),
    ("__half2float", Some(ScalarTy::F32)),
    ("__float2half", Some(ScalarTy::F16)),
    ("__hfma", Some(ScalarTy::F16)),
    // The rest of the functions the interpreter evaluates (interp's math.rs).
    ("__fsqrt_rn", Some(ScalarTy::F32)),
    ("cbrtf", Some(ScalarTy::F32)),
    ("cbrt", None),
    ("exp10", None),
    ("expm1f", Some(ScalarTy::F32)),
    ("expm1", None),
    ("__log2f", Some(ScalarTy::F32)),
    ("__log10f", Some(ScalarTy::F32)),
    ("log1pf", Some(ScalarTy::F32)),
    ("log1p", None),
    ("__tanf", Some(ScalarTy::F32)),
    ("asinf", Some(ScalarTy::F32)),
    ("asin", None),
    ("acosf", Some(ScalarTy::F32)),
    ("acos", None),
    ("atan", None),
    ("sinhf", Some(ScalarTy::F32)),
    ("sinh", None),
    ("coshf", Some(ScalarTy::F32)),
    ("cosh", None),
    ("trunc", None),
    ("rintf", Some(ScalarTy::F32)),
    ("rint", None),
    ("nearbyintf", Some(ScalarTy::F32)),
    ("nearbyint", None),
    ("erf", None),
    ("atan2", None),
    ("hypotf", Some(ScalarTy::F32)),
    ("hypot", None),
    ("copysignf", Some(ScalarTy::F32)),
    ("copysign", None),
    ("fdimf", Some(ScalarTy::F32)),
    ("fdim", None),
    ("__fdiv_rn", Some(ScalarTy::F32)),
    ("fdividef", Some(ScalarTy::F32)),
    ("__fsub_rn", Some(ScalarTy::F32)),
    ("__dmul_rn", Some(ScalarTy::F64)),
    ("__dadd_rn", Some(ScalarTy::F64)),
    ("__dsub_rn", Some(ScalarTy::F64)),
    ("__ddiv_rn", Some(ScalarTy::F64)),
    ("__fadd_ru", Some(ScalarTy::F32)),
    ("__fadd_rd", Some(ScalarTy::F32)),
    ("__fadd_rz", Some(ScalarTy::F32)),
    ("__fsub_ru", Some(ScalarTy::F32)),
    ("__fsub_rd", Some(ScalarTy::F32)),
    ("__fsub_rz", Some(ScalarTy::F32)),
    ("__fmul_ru", Some(ScalarTy::F32)),
    ("__fmul_rd", Some(ScalarTy::F32)),
    ("__fmul_rz", Some(ScalarTy::F32)),
    ("__fdiv_ru", Some(ScalarTy::F32)),
    ("__fdiv_rd", Some(ScalarTy::F32)),
    ("__fdiv_rz", Some(ScalarTy::F32)),
    ("__fsqrt_ru", Some(ScalarTy::F32)),
    ("__fsqrt_rd", Some(ScalarTy::F32)),
    ("__fsqrt_rz", Some(ScalarTy::F32)),
    ("__dadd_ru", Some(ScalarTy::F64)),
    ("__dadd_rd", Some(ScalarTy::F64)),
    ("__dadd_rz", Some(ScalarTy::F64)),
    ("__dsub_ru", Some(ScalarTy::F64)),
    ("__dsub_rd", Some(ScalarTy::F64)),
    ("__dsub_rz", Some(ScalarTy::F64)),
    ("__dmul_ru", Some(ScalarTy::F64)),
    ("__dmul_rd", Some(ScalarTy::F64)),
    ("__dmul_rz", Some(ScalarTy::F64)),
    ("__ddiv_ru", Some(ScalarTy::F64)),
    ("__ddiv_rd", Some(ScalarTy::F64)),
    ("__ddiv_rz", Some(ScalarTy::F64)),
    ("__dsqrt_ru", Some(ScalarTy::F64)),
    ("__dsqrt_rd", Some(ScalarTy::F64)),
    ("__dsqrt_rz", Some(ScalarTy::F64)),
    ("__float_to_tf32", Some(ScalarTy::F32)),
    ("__fmaf_rn", Some(ScalarTy::F32)),
    ("__fma_rn", Some(ScalarTy::F64)),
    ("isfinite", Some(ScalarTy::Bool)),
    ("signbit", Some(ScalarTy::Bool)),
    ("__isnanf", Some(ScalarTy::Bool)),
    ("__isinff", Some(ScalarTy::Bool)),
    ("__float2int_rd", Some(ScalarTy::I32)),
    ("__float2int_ru", Some(ScalarTy::I32)),
    ("__float2uint_rn", Some(ScalarTy::U32)),
    ("__float2uint_rz", Some(ScalarTy::U32)),
    ("__double2int_rn", Some(ScalarTy::I32)),
    ("__double2int_rz", Some(ScalarTy::I32)),
    ("__int2float_rn", Some(ScalarTy::F32)),
    ("__uint2float_rn", Some(ScalarTy::F32)),
    ("__uint_as_float", Some(ScalarTy::F32)),
    ("__float_as_uint", Some(ScalarTy::U32)),
    ("__longlong_as_double", Some(ScalarTy::F64)),
    ("__double_as_longlong", Some(ScalarTy::I64)),
    ("__float2half_rn", Some(ScalarTy::F16)),
    ("__bfloat16_as_ushort", Some(ScalarTy::U16)),
    ("__bfloat16_as_short", Some(ScalarTy::I16)),
    ("__ushort_as_bfloat16", Some(ScalarTy::Bf16)),
    ("__short_as_bfloat16", Some(ScalarTy::Bf16)),
    ("__bfloat162float", Some(ScalarTy::F32)),
    ("__float2bfloat16", Some(ScalarTy::Bf16)),
    ("__float2bfloat16_rn", Some(ScalarTy::Bf16)),
    ("__double2bfloat16", Some(ScalarTy::Bf16)),
];

/// The type of `cg::block_tile_memory<N>`: opaque scratch of the library.
pub const BLOCK_TILE_MEMORY: &str = "cg::block_tile_memory";

/// The struct modelling a cuRAND MTGP32 state (see `Items::collect`).
pub const CURAND_MTGP32: &str = "curandStateMtgp32";
/// The struct modelling the other cuRAND states.
pub const CURAND_STATE: &str = "curandStateXORWOW";

/// GPUVerify annotations that are hints for its own invariant inference.
const HINTS: &[&str] = &[
    "__invariant",
    "__global_invariant",
    "__function_wide_invariant",
    "__ensures",
    "__global_ensures",
    "__requires_fresh_array",
    "__function_wide_candidate_invariant",
    "__candidate_invariant",
    "__candidate_global_invariant",
    "__non_temporal",
];

impl<'t> Lowerer<'_, 't> {
    /// A built-in call, or `None` when `name` is not a built-in.
    pub fn builtin_call(
        &mut self,
        name: &str,
        targs: Option<Node<'t>>,
        args: &[Node<'t>],
        n: Node<'t>,
    ) -> R<Option<Value>> {
        let span = self.span(n);
        let arg = |i: usize| {
            args.get(i).copied().ok_or_else(|| {
                warpsafe_source::Diagnostic::error(
                    "unsupported",
                    format!("`{name}` needs argument {}", i + 1),
                )
                .at(span)
            })
        };
        if let Some(v) = self.half2_intrinsic(name, args, n)? {
            return Ok(Some(v));
        }
        if let Some(v) = self.wmma_call(name, args, n)? {
            return Ok(Some(v));
        }
        if let Some(v) = self.async_call(name, args, n)? {
            return Ok(Some(v));
        }
        if let Some(v) = self.device_runtime_call(name, args, n)? {
            return Ok(Some(v));
        }
        let v = match name {
            "__syncthreads" => {
                self.block_barrier(n);
                Value::Void
            }
            "__syncthreads_count" | "__syncthreads_and" | "__syncthreads_or" => {
                let op = match name {
                    "__syncthreads_count" => ReduceOp::Count,
                    "__syncthreads_and" => ReduceOp::And,
                    _ => ReduceOp::Or,
                };
                let pred = self.cond(arg(0)?)?;
                let dst = self.temp(ScalarTy::I32, span);
                self.emit(
                    StmtKind::Barrier {
                        kind: BarrierKind::Block,
                        reduce: Some((op, pred, dst)),
                    },
                    span,
                );
                Value::Scalar(Expr::Var(dst), ScalarTy::I32)
            }
            "__syncwarp" => {
                let mask = match args.first() {
                    Some(a) => {
                        let (e, t) = self.scalar(*a)?;
                        self.convert(e, t, ScalarTy::U32)
                    }
                    None => Expr::int(0xffff_ffff, ScalarTy::U32),
                };
                self.emit(
                    StmtKind::Barrier {
                        kind: BarrierKind::Warp { mask },
                        reduce: None,
                    },
                    span,
                );
                Value::Void
            }
            "sync" | "synchronize" => {
                let g = self.value(arg(0)?)?;
                self.group_sync(g, n)?;
                Value::Void
            }
            "reduce" if args.len() == 3 => return self.group_reduce(args, n).map(Some),
            // `nan("")`, `nanf("")`: a quiet NaN (the tag string selects a
            // payload, which no engine distinguishes).
            "nan" | "nanf" if args.len() == 1 => {
                let t = if name == "nanf" {
                    ScalarTy::F32
                } else {
                    ScalarTy::F64
                };
                Value::Scalar(Expr::Const(warpsafe_ir::Const::Float(f64::NAN), t), t)
            }
            // `std::move(x)`, `std::forward<T>(x)`: the value of `x`.
            "move" | "forward" if args.len() == 1 => self.value(args[0])?,
            "this_thread_block" => Value::Group(GroupKind::Block),
            "this_grid" => Value::Group(GroupKind::Grid),
            "coalesced_threads" => Value::Group(GroupKind::Coalesced),
            // The threads of a tile with the same predicate (label): which
            // ones is known only at run time, as for `coalesced_threads()`.
            "binary_partition" | "labeled_partition" if args.len() == 2 => {
                match self.value(arg(0)?)? {
                    Value::Group(GroupKind::Tile(_) | GroupKind::Coalesced) => {}
                    other => {
                        return Err(self.unsupported(
                            n,
                            format!("`{name}` of a `{}` (only of tiles)", other.ty_desc()),
                        ))
                    }
                }
                self.value(arg(1)?)?;
                Value::Group(GroupKind::Coalesced)
            }
            "tiled_partition" => {
                let size = match (targs, args.get(1)) {
                    (Some(t), _) => named_children(t)
                        .first()
                        .and_then(|a| crate::consteval::eval(self.syn, *a, self)),
                    (None, Some(a)) => crate::consteval::eval(self.syn, *a, self),
                    _ => None,
                };
                let size = size.ok_or_else(|| {
                    self.unsupported(n, "a tile size that is not a compile-time constant")
                })?;
                // Tiles wider than a warp (CUDA 11.1 on) synchronise and
                // reduce over several warps; their exchanges do not exist.
                if !(size > 0 && size <= 1024 && (size & (size - 1)) == 0) {
                    return Err(
                        self.unsupported(n, "tile sizes other than powers of two up to 1024")
                    );
                }
                Value::Group(GroupKind::Tile(size as u32))
            }
            "__threadfence" | "__threadfence_block" | "__threadfence_system" => {
                let scope = match name {
                    "__threadfence_block" => Scope::Block,
                    "__threadfence_system" => Scope::System,
                    _ => Scope::Device,
                };
                self.emit(
                    StmtKind::Fence {
                        order: MemOrder::SeqCst,
                        scope,
                    },
                    span,
                );
                Value::Void
            }
            "atomic_thread_fence" => {
                let order = self.memory_order(arg(0)?)?;
                let scope = match args.get(1) {
                    Some(s) => crate::decl::scope_name(self.text(*s))
                        .ok_or_else(|| self.unsupported(*s, "unknown thread scope"))?,
                    None => Scope::System,
                };
                self.emit(StmtKind::Fence { order, scope }, span);
                Value::Void
            }
            "assert" | "__assert" => {
                let a = arg(0)?;
                let message = self.text(a).to_string();
                if name == "__assert" {
                    match self.annotation(a)? {
                        Some(cond) => self.emit(StmtKind::Assert { cond, message }, span),
                        None => self.warn(n, "GPUVerify assertion uses two-thread predicates warpsafe cannot express; it is not checked"),
                    }
                } else {
                    let cond = self.cond(a)?;
                    self.emit(StmtKind::Assert { cond, message }, span);
                }
                Value::Void
            }
            "__requires" | "__axiom" | "__assume" | "__builtin_assume" => {
                let origin = match name {
                    "__requires" => AssumeOrigin::Requires,
                    "__axiom" => AssumeOrigin::Axiom,
                    _ => AssumeOrigin::Assume,
                };
                match self.annotation(arg(0)?)? {
                    Some(cond) => self.emit(StmtKind::Assume { cond, origin }, span),
                    None => self.warn(n, "precondition uses two-thread predicates warpsafe cannot express; it is ignored (sound: fewer assumptions)"),
                }
                Value::Void
            }
            h if HINTS.contains(&h) => Value::Void,
            "__implies" => {
                let a = self.cond(arg(0)?)?;
                let b = self.cond(arg(1)?)?;
                Value::Scalar(
                    Expr::binary(BinOp::Or, ScalarTy::Bool, Expr::negate(a), b),
                    ScalarTy::Bool,
                )
            }
            "printf" => {
                let format = args
                    .first()
                    .map(|a| self.text(*a).to_string())
                    .unwrap_or_default();
                let mut vals = Vec::new();
                for a in args.iter().skip(1) {
                    match self.value(*a)? {
                        Value::Scalar(e, _) => vals.push(e),
                        Value::Ptr(p) => vals.push(p.offset),
                        _ => {}
                    }
                }
                self.emit(StmtKind::Print { format, args: vals }, span);
                Value::Scalar(Expr::int(0, ScalarTy::I32), ScalarTy::I32)
            }
            "clock" | "clock64" | "__clock" | "__globaltimer" => {
                self.havoc(ScalarTy::I64, &format!("`{name}()` returns a time"), span)
            }
            "min" | "max" | "umin" | "umax" | "llmin" | "llmax" | "ullmin" | "ullmax" => {
                let a = self.scalar(arg(0)?)?;
                let b = self.scalar(arg(1)?)?;
                let (x, y, t) = self.unify(a, b);
                if t.is_float() {
                    // CUDA's float `min`/`max` are `fminf`/`fmaxf` (a NaN
                    // operand yields the other one).
                    let f = match (name.ends_with("min"), t) {
                        (true, ScalarTy::F64) => "fmin",
                        (true, _) => "fminf",
                        (false, ScalarTy::F64) => "fmax",
                        (false, _) => "fmaxf",
                    };
                    return Ok(Some(Value::Scalar(
                        Expr::Call(f.to_string(), t, vec![x, y]),
                        t,
                    )));
                }
                let op = if name.ends_with("min") {
                    BinOp::Lt
                } else {
                    BinOp::Gt
                };
                let c = Expr::binary(op, t, x.clone(), y.clone());
                Value::Scalar(Expr::Select(Box::new(c), Box::new(x), Box::new(y)), t)
            }
            "abs" | "labs" | "llabs" => {
                let (x, t) = self.scalar(arg(0)?)?;
                let t2 = crate::types::promote(t);
                let x = self.convert(x, t, t2);
                let neg = Expr::Unary(warpsafe_ir::UnOp::Neg, t2, Box::new(x.clone()));
                let c = Expr::binary(BinOp::Lt, t2, x.clone(), Expr::int(0, t2));
                Value::Scalar(Expr::Select(Box::new(c), Box::new(neg), Box::new(x)), t2)
            }
            "__mul24" | "__umul24" => {
                // The low 32 bits of the product of the operands' low 24
                // bits (sign-extended for `__mul24`), in wrapping unsigned
                // arithmetic.
                let u = ScalarTy::U32;
                let mut ops = Vec::new();
                for i in 0..2 {
                    let (e, t) = self.scalar(arg(i)?)?;
                    let low = Expr::binary(
                        BinOp::BitAnd,
                        u,
                        self.convert(e, t, u),
                        Expr::int(0x00ff_ffff, u),
                    );
                    ops.push(if name == "__mul24" {
                        let flipped =
                            Expr::binary(BinOp::BitXor, u, low, Expr::int(0x0080_0000, u));
                        Expr::binary(BinOp::Sub, u, flipped, Expr::int(0x0080_0000, u))
                    } else {
                        low
                    });
                }
                let y = ops.pop().expect("invariant: two operands were pushed");
                let x = ops.pop().expect("invariant: two operands were pushed");
                let product = Expr::binary(BinOp::Mul, u, x, y);
                if name == "__mul24" {
                    let t = ScalarTy::I32;
                    Value::Scalar(self.convert(product, u, t), t)
                } else {
                    Value::Scalar(product, u)
                }
            }
            // Loads with a cache hint (read-only, cache at all levels or
            // the L2 only, last use, streaming, volatile): a plain read of
            // `*p`; the hint does not change what is read.
            "__ldg" | "__ldca" | "__ldcg" | "__ldlu" | "__ldcs" | "__ldcv" => {
                let p = self.value(arg(0)?)?;
                let ptr = self.as_ptr(p, n)?;
                let place = self.deref(ptr, n)?;
                self.read(&place, n)?
            }
            // Stores with a cache hint (write-back, L2 only, streaming,
            // write-through): a plain `*p = v`.
            "__stwb" | "__stcg" | "__stcs" | "__stwt" => {
                let p = self.value(arg(0)?)?;
                let ptr = self.as_ptr(p, n)?;
                let place = self.deref(ptr, n)?;
                let v = self.value(arg(1)?)?;
                self.write(&place, v, n)?;
                Value::Void
            }
            "static_cast" | "reinterpret_cast" | "const_cast" => {
                let t = targs
                    .and_then(|t| named_children(t).into_iter().next())
                    .ok_or_else(|| self.unsupported(n, "cast without a type"))?;
                let ty = self.type_cx().type_descriptor(t)?;
                let v = self.value(arg(0)?)?;
                self.cast(v, ty, n)?
            }
            "curand"
            | "curand_uniform"
            | "curand_normal"
            | "curand_uniform_double"
            | "curand_normal_double"
            | "curand_poisson"
            | "curand_log_normal"
            | "curand_init" => {
                return self.curand(name, args, n).map(Some);
            }
            "tex1Dfetch" | "tex1D" | "tex2D" | "tex3D" | "tex1DLayered" | "tex2DLayered"
            | "tex2DLod" | "tex3DLod" | "tex1DLod" | "tex2DGrad" | "texCubemap"
            | "texCubemapLayered" => {
                for a in args.iter().skip(1) {
                    self.value(*a)?;
                }
                self.warn(
                    n,
                    format!(
                        "`{name}` reads a texture: the value is unknown (warpsafe does not model texture memory)"
                    ),
                );
                // The element type is the template argument (`tex2D<uchar4>`);
                // the legacy form without one returns `float`.
                let ty = match targs.and_then(|t| named_children(t).first().copied()) {
                    Some(t) => self.type_cx().type_descriptor(t)?,
                    None => CType::Scalar(ScalarTy::F32),
                };
                let reason = format!("value read by `{name}`");
                self.unknown_value(&ty, &reason, n)?
            }
            "frexp" | "frexpf" if args.len() == 2 => {
                // `m = frexp(x, &e)`: two functions of `x`, the exponent
                // stored through the pointer. `frexp(float, int *)` is
                // C++'s float overload.
                let (x, xt) = self.scalar(arg(0)?)?;
                let ty = if name == "frexpf" || xt == ScalarTy::F32 {
                    ScalarTy::F32
                } else {
                    ScalarTy::F64
                };
                return self.frexp(ty, x, arg(1)?, n).map(Some);
            }
            "sincosf" | "__sincosf" | "sincos" if args.len() == 3 => {
                // `sincosf(x, &s, &c)`: the sine and cosine of `x` stored
                // through the pointers.
                let (x, _) = self.scalar(arg(0)?)?;
                let (t, sin, cos) = match name {
                    "sincos" => (ScalarTy::F64, "sin", "cos"),
                    "__sincosf" => (ScalarTy::F32, "__sinf", "__cosf"),
                    _ => (ScalarTy::F32, "sinf", "cosf"),
                };
                let x = Expr::Cast(t, Box::new(x));
                for (f, out) in [(sin, arg(1)?), (cos, arg(2)?)] {
                    let place = self.out_place(out)?;
                    let v = Expr::Call(f.to_string(), t, vec![x.clone()]);
                    self.write(&place, Value::Scalar(v, t), n)?;
                }
                Value::Void
            }
            "cudaGraphSetConditional" if args.len() == 2 => {
                // Sets the condition of a conditional graph node: state of
                // the launching graph, not memory that kernels read.
                for a in args {
                    self.value(*a)?;
                }
                Value::Void
            }
            "__nanosleep" => {
                // A delay: no effect on values or on memory.
                self.value(arg(0)?)?;
                Value::Void
            }
            "memcpy" | "__builtin_memcpy" | "memset" | "__builtin_memset" => {
                self.mem_intrinsic(name.ends_with("memcpy"), args, n)?;
                Value::Void
            }
            _ if name.starts_with("atomic") && !name.starts_with("atomic_") => {
                return self.atomic_builtin(name, args, n).map(Some);
            }
            _ if name.starts_with("make_") => {
                let ty = vector_type(&name["make_".len()..])
                    .ok_or_else(|| self.unsupported(n, format!("`{name}`")))?;
                self.vector_ctor(ty, args, n)?
            }
            _ if vector_type(name).is_some() => {
                let ty = vector_type(name).unwrap_or(CType::Void);
                self.vector_ctor(ty, args, n)?
            }
            _ if crate::types::named_scalar(name).is_some() && args.len() == 1 => {
                // Functional cast `float(x)`.
                let ty = CType::Scalar(crate::types::named_scalar(name).unwrap_or(ScalarTy::I32));
                let v = self.value(args[0])?;
                self.cast(v, ty, n)?
            }
            _ => {
                if let Some((_, ret)) = MATH.iter().find(|(m, _)| *m == name) {
                    return self.math(name, *ret, args, n).map(Some);
                }
                if super::warp_exchange::is_warp_exchange(name)
                    || super::warp_exchange::is_legacy_warp_exchange(name)
                {
                    return self.warp_exchange(name, args, n).map(Some);
                }
                if let Some(shape) = super::surface::shape(name) {
                    return self.surface(name, shape, targs, args, n).map(Some);
                }
                if let Some(why) = unsupported_intrinsic(name) {
                    return Err(self.unsupported(n, format!("the intrinsic `{name}` ({why})")));
                }
                return Ok(None);
            }
        };
        Ok(Some(v))
    }

    /// A GPUVerify annotation's condition, or `None` when it uses
    /// predicates about two threads that the IR cannot state.
    fn annotation(&mut self, a: Node<'t>) -> R<Option<warpsafe_ir::Expr>> {
        let mut uses_two_thread = false;
        let mut stack = vec![a];
        while let Some(x) = stack.pop() {
            if x.kind() == "identifier" {
                let t = self.text(x);
                if t.starts_with("__")
                    && !matches!(t, "__implies")
                    && t != "__mul24"
                    && t != "__umul24"
                {
                    uses_two_thread = true;
                }
            }
            let mut c = x.walk();
            stack.extend(x.named_children(&mut c));
        }
        if uses_two_thread {
            return Ok(None);
        }
        let (block, cond) = self.block(|s| s.cond(a))?;
        if !block.is_empty() {
            // Annotations that read memory are state predicates we keep as
            // reads before the check.
            self.out.extend(block);
        }
        Ok(Some(cond))
    }

    fn math(
        &mut self,
        name: &str,
        ret: Option<ScalarTy>,
        args: &[Node<'t>],
        n: Node<'t>,
    ) -> R<Value> {
        let mut vals = Vec::new();
        let mut first = None;
        for a in args {
            let (e, t) = self.scalar(*a)?;
            first.get_or_insert(t);
            vals.push(e);
        }
        let ty = ret.or(first).unwrap_or(ScalarTy::F64);
        let ty = if ty.is_integer() && ret.is_none() {
            ScalarTy::F64
        } else {
            ty
        };
        let _ = n;
        Ok(Value::Scalar(Expr::Call(name.to_string(), ty, vals), ty))
    }

    /// The object an out-parameter argument points at: `&x` is `x` itself
    /// (also a variable kept in registers, as `getTwiddle(fComplex &t)`
    /// passing `&t.y` to `__sincosf` is), any other pointer is followed.
    pub(super) fn out_place(&mut self, arg: Node<'t>) -> R<Place> {
        let op = arg.child_by_field_name("operator").map(|o| self.text(o));
        if arg.kind() == "pointer_expression" && op == Some("&") {
            if let Some(inner) = arg.child_by_field_name("argument") {
                return self.place(inner);
            }
        }
        self.pointee(arg, arg)
    }

    /// `frexp(x, e)`: the mantissa, with the exponent stored at `*e`.
    fn frexp(&mut self, ty: ScalarTy, x: Expr, e: Node<'t>, n: Node<'t>) -> R<Value> {
        let x = Expr::Cast(ScalarTy::F64, Box::new(x));
        let place = self.out_place(e)?;
        let exponent = Expr::Call(
            warpsafe_ir::FREXP_EXPONENT.to_string(),
            ScalarTy::I32,
            vec![x.clone()],
        );
        self.write(&place, Value::Scalar(exponent, ScalarTy::I32), n)?;
        let m = Expr::Call("frexp".to_string(), ScalarTy::F64, vec![x]);
        self.cast(Value::Scalar(m, ScalarTy::F64), CType::Scalar(ty), n)
    }

    fn vector_ctor(&mut self, ty: CType, args: &[Node<'t>], n: Node<'t>) -> R<Value> {
        let CType::Vector(elem, lanes, ref vname) = ty else {
            return Err(self.unsupported(n, "vector"));
        };
        let mut vals = Vec::new();
        for i in 0..lanes as usize {
            let v = match args.get(i) {
                Some(a) => {
                    let (e, t) = self.scalar(*a)?;
                    self.convert(e, t, elem)
                }
                None if vname == "dim3" => Expr::int(1, elem),
                None if args.len() == 1 => vals.first().cloned().unwrap_or(Expr::int(0, elem)),
                None => {
                    return Err(self.unsupported(n, format!("`{vname}` needs {lanes} components")))
                }
            };
            vals.push(v);
        }
        Ok(Value::Agg(
            ty.clone(),
            vals.into_iter().map(|e| Value::Scalar(e, elem)).collect(),
        ))
    }

    /// `__syncthreads()` (and what is modelled as it) at `n`.
    pub(super) fn block_barrier(&mut self, n: Node) {
        let span = self.span(n);
        self.emit(
            StmtKind::Barrier {
                kind: BarrierKind::Block,
                reduce: None,
            },
            span,
        );
    }

    pub fn group_sync(&mut self, g: Value, n: Node) -> R<()> {
        let kind = match g {
            Value::Group(GroupKind::Block) => BarrierKind::Block,
            Value::Group(GroupKind::Grid) => BarrierKind::Grid,
            Value::Group(GroupKind::Tile(size)) => BarrierKind::Tile { size },
            other => return Err(self.unsupported(n, format!("`sync` on a `{}`", other.ty_desc()))),
        };
        self.emit(StmtKind::Barrier { kind, reduce: None }, self.span(n));
        Ok(())
    }

    /// `g.sync()`, `g.thread_rank()`, `r.fetch_add(1)`, ...
    pub fn method_call(&mut self, f: Node<'t>, args: &[Node<'t>], n: Node<'t>) -> R<Value> {
        let recv = f
            .child_by_field_name("argument")
            .ok_or_else(|| self.unsupported(n, "method"))?;
        let method = f
            .child_by_field_name("field")
            .map(|m| self.text(m))
            .unwrap_or("");
        let arrow = f.child_by_field_name("operator").map(|o| self.text(o)) == Some("->");
        // The receiver as a place (`p->m()`: the object `p` points at),
        // lowered once for the atomic and the class methods below.
        let object = self.block(|s| {
            if recv.kind() == "this" && arrow {
                s.this_place(recv)
            } else if arrow {
                s.pointee(recv, recv)
            } else {
                s.place(recv)
            }
        });
        // Atomic objects and references are places, not values.
        if let Ok((block, place)) = &object {
            let atomic = match place {
                Place::AtomicRef(inner, t, s) => Some(((**inner).clone(), *t, *s)),
                Place::Mem {
                    ty: CType::Atomic(t, s),
                    ..
                } => Some((place.clone(), *t, *s)),
                _ => None,
            };
            if let Some((target, t, s)) = atomic {
                self.out.extend(block.iter().cloned());
                return self.atomic_method(target, t, s, method, args, n);
            }
        }
        // A method of a struct or class, inlined with its fields in scope.
        if let Ok((block, place)) = object {
            let owner = match &place {
                Place::Agg(CType::Struct(s), _)
                | Place::Mem {
                    ty: CType::Struct(s),
                    ..
                } => Some(s.clone()),
                _ => None,
            };
            if let Some(owner) = owner {
                if owner == super::ASYNC_PIPELINE || owner == super::ASYNC_BARRIER {
                    self.out.extend(block);
                    return self.async_method(&owner, method, args, n);
                }
                let defined = self.class_methods(&owner, method);
                if !defined.is_empty() {
                    let Some(m) = self.resolve_overload(&defined, None, args, n)? else {
                        return Err(warpsafe_source::Diagnostic::error(
                            "no-overload",
                            format!(
                                "no overload of `{owner}::{method}` accepts these {} argument(s)",
                                args.len()
                            ),
                        )
                        .at(self.span(n)));
                    };
                    self.out.extend(block);
                    let this = self.freeze(place, recv);
                    return self.inline(&m, None, args, n, Some(this));
                }
            }
        }
        let g = self.value(recv)?;
        let Value::Group(kind) = g else {
            return Err(self.unsupported(
                n,
                format!("method `{method}` on a `{}` (class methods)", g.ty_desc()),
            ));
        };
        let linear = linear_tid();
        let block_size = block_size();
        let u = ScalarTy::U32;
        Ok(match (kind, method) {
            (_, "sync") => {
                self.group_sync(g, n)?;
                Value::Void
            }
            (GroupKind::Block, "thread_rank") => Value::Scalar(linear, u),
            (GroupKind::Block, "size" | "num_threads") => Value::Scalar(block_size, u),
            (GroupKind::Block, "group_index") => dim3(Builtin::BlockIdx),
            (GroupKind::Block, "thread_index") => dim3(Builtin::ThreadIdx),
            (GroupKind::Block, "group_dim" | "dim_threads") => dim3(Builtin::BlockDim),
            (GroupKind::Tile(s), "thread_rank") => Value::Scalar(
                Expr::binary(BinOp::Rem, u, linear, Expr::int(s as i128, u)),
                u,
            ),
            (GroupKind::Tile(s), "meta_group_rank") => Value::Scalar(
                Expr::binary(BinOp::Div, u, linear, Expr::int(s as i128, u)),
                u,
            ),
            (GroupKind::Tile(s), "size" | "num_threads") => {
                Value::Scalar(Expr::int(s as i128, u), u)
            }
            (GroupKind::Tile(s), "meta_group_size") => {
                let k = Expr::int(s as i128, u);
                let up = Expr::binary(BinOp::Add, u, block_size, Expr::int(s as i128 - 1, u));
                Value::Scalar(Expr::binary(BinOp::Div, u, up, k), u)
            }
            (GroupKind::Grid, "thread_rank") => {
                let blocks = linear_block();
                let r = Expr::binary(
                    BinOp::Add,
                    ScalarTy::U64,
                    Expr::binary(
                        BinOp::Mul,
                        ScalarTy::U64,
                        Expr::Cast(ScalarTy::U64, Box::new(blocks)),
                        Expr::Cast(ScalarTy::U64, Box::new(block_size)),
                    ),
                    Expr::Cast(ScalarTy::U64, Box::new(linear)),
                );
                Value::Scalar(r, ScalarTy::U64)
            }
            (GroupKind::Tile(s), m) if super::warp_exchange::is_tile_exchange(m) => {
                return self.tile_exchange(s, m, args, n);
            }
            // Which lanes are active, so the group's size and each
            // thread's rank in it, depends on divergence: unknown values.
            (GroupKind::Coalesced, m @ ("thread_rank" | "size" | "num_threads")) => {
                let what = format!("coalesced_group::{m}");
                return self.active_lanes_value(&what, n);
            }
            (GroupKind::Coalesced, m) if super::warp_exchange::is_tile_exchange(m) => {
                return self.group_exchange("coalesced_group", m, args, n);
            }
            (GroupKind::Grid, "size" | "num_threads") => {
                let u64 = ScalarTy::U64;
                let wide = |e: Expr| Expr::Cast(u64, Box::new(e));
                let r = Expr::binary(BinOp::Mul, u64, grid_size(), wide(block_size));
                Value::Scalar(r, u64)
            }
            (GroupKind::Grid, "num_blocks") => Value::Scalar(grid_size(), ScalarTy::U64),
            (GroupKind::Grid, "group_dim" | "dim_blocks") => dim3(Builtin::GridDim),
            (GroupKind::Grid, "block_index") => dim3(Builtin::BlockIdx),
            (GroupKind::Grid, "is_valid") | (_, "is_valid") => {
                Value::Scalar(Expr::bool(true), ScalarTy::Bool)
            }
            (_, m) => {
                return Err(
                    self.unsupported(n, format!("`{}::{m}()`", CType::Group(kind).describe()))
                )
            }
        })
    }

    /// cuRAND: a generator call reads and updates the state it is given, so
    /// threads sharing a state race. An MTGP32 state is shared by the
    /// threads of one block by design: its update is a block-scoped atomic.
    fn curand(&mut self, name: &str, args: &[Node<'t>], n: Node<'t>) -> R<Value> {
        let span = self.span(n);
        let state_arg = if name == "curand_init" { 3 } else { 0 };
        for (i, a) in args.iter().enumerate() {
            if i != state_arg {
                self.value(*a)?;
            }
        }
        let sa = *args
            .get(state_arg)
            .ok_or_else(|| self.unsupported(n, format!("`{name}` without a state")))?;
        let state = self.out_place(sa)?;
        let mtgp = matches!(self.place_type(&state), CType::Struct(s) if s == CURAND_MTGP32);
        let slot = self.field(state, "state", sa)?;
        let fresh = self.temp(ScalarTy::U32, span);
        self.emit(
            StmtKind::Havoc {
                dst: fresh,
                reason: format!("new generator state from `{name}`"),
            },
            span,
        );
        if mtgp {
            // Up to 256 threads of a block may share an MTGP32 state; beyond
            // that the generator's updates race.
            let fresh_v = Value::Scalar(Expr::Var(fresh), ScalarTy::U32);
            let (shared, ()) = self.block(|s| {
                s.rmw(
                    &slot,
                    RmwOp::Exch,
                    fresh_v.clone(),
                    MemOrder::Relaxed,
                    Scope::Block,
                    n,
                )?;
                Ok(())
            })?;
            let (racing, ()) = self.block(|s| {
                s.read(&slot, n)?;
                s.write(&slot, fresh_v.clone(), n)
            })?;
            let cond = Expr::binary(
                BinOp::Lt,
                ScalarTy::U32,
                linear_tid(),
                Expr::int(256, ScalarTy::U32),
            );
            self.emit(
                StmtKind::If {
                    cond,
                    then_: shared,
                    else_: racing,
                },
                span,
            );
        } else {
            if name != "curand_init" {
                self.read(&slot, n)?;
            }
            self.write(&slot, Value::Scalar(Expr::Var(fresh), ScalarTy::U32), n)?;
        }
        let ty = match name {
            "curand_init" => return Ok(Value::Void),
            "curand" | "curand_poisson" => ScalarTy::U32,
            n if n.ends_with("_double") => ScalarTy::F64,
            _ => ScalarTy::F32,
        };
        let dst = self.temp(ty, span);
        self.emit(
            StmtKind::Havoc {
                dst,
                reason: format!("random number from `{name}`"),
            },
            span,
        );
        Ok(Value::Scalar(Expr::Var(dst), ty))
    }

    /// A file-scope `__device__`, `__constant__` or `__shared__` variable,
    /// created in the kernel on first use.
    /// An unknown value of type `ty` (a scalar, or a vector of scalars).
    pub(super) fn unknown_value(&mut self, ty: &CType, reason: &str, n: Node<'t>) -> R<Value> {
        let span = self.span(n);
        let lanes = match ty {
            CType::Scalar(t) => return Ok(self.havoc(*t, reason, span)),
            CType::Vector(t, k, _) => (0..*k).map(|_| *t).collect::<Vec<_>>(),
            other => {
                return Err(self.unsupported(
                    n,
                    format!("an unknown value of type `{}`", other.describe()),
                ))
            }
        };
        let vals = lanes
            .into_iter()
            .map(|t| self.havoc(t, reason, span))
            .collect();
        Ok(Value::Agg(ty.clone(), vals))
    }

    /// A fresh unknown value of type `t` (a `Havoc` with its reason).
    pub(super) fn havoc(
        &mut self,
        t: ScalarTy,
        reason: &str,
        span: warpsafe_source::Span,
    ) -> Value {
        let dst = self.temp(t, span);
        self.emit(
            StmtKind::Havoc {
                dst,
                reason: reason.to_string(),
            },
            span,
        );
        Value::Scalar(Expr::Var(dst), t)
    }

    /// A variable or constant name declared in several namespaces or scoped
    /// enumerations, used where warpsafe cannot tell which one is meant.
    pub fn ambiguous_name(&self, n: Node<'t>, name: &str) -> warpsafe_source::Diagnostic {
        warpsafe_source::Diagnostic::error(
            "unsupported",
            format!("unsupported: `{name}` is declared in several namespaces or scoped enumerations; warpsafe does not resolve which one a use means"),
        )
        .at(self.span(n))
    }

    pub fn global(&mut self, name: &str, n: Node<'t>) -> R<Option<Place>> {
        if let Some(p) = self.globals.get(name) {
            return Ok(Some(p.clone()));
        }
        if self.items.ambiguous.contains(name) {
            return Err(self.ambiguous_name(n, name));
        }
        // The defining declaration (`extern` ones declare without storage).
        let Some(g) = self
            .items
            .globals
            .iter()
            .filter(|g| g.name == name)
            .min_by_key(|g| g.quals.extern_)
            .cloned()
        else {
            return Ok(None);
        };
        if g.host {
            self.warn(n, format!("`{name}` is a host variable used in device code; it is treated as a `__device__` variable"));
        }
        let ty_node = g
            .decl
            .child_by_field_name("type")
            .ok_or_else(|| self.unsupported(n, "global"))?;
        let base = self.type_cx().base_type(ty_node)?;
        let mut declared = self.type_cx().declarator(base, g.declarator)?;
        // `T a[] = {...}`: the initialiser gives the outermost length
        // (`char s[] = "ab"`: the characters and the terminating zero).
        if let (CType::Array(elem, None), Some(init)) =
            (&declared.ty, g.declarator.child_by_field_name("value"))
        {
            let len = match init.kind() {
                "initializer_list" => Some(named_children(init).len() as u64),
                "string_literal" => Some(self.text(init).len().saturating_sub(1) as u64),
                _ => None,
            };
            if let Some(len) = len {
                declared.ty = CType::Array(elem.clone(), Some(len));
            }
        }
        if g.quals.shared {
            let place = self.make_shared(
                name,
                &declared.ty,
                g.quals.extern_,
                g.quals.volatile,
                g.declarator,
            )?;
            self.globals.insert(name.to_string(), place.clone());
            return Ok(Some(place));
        }
        let (space, origin) = if g.quals.constant {
            (MemSpace::Constant, ArrayOrigin::Constant)
        } else {
            (MemSpace::Global, ArrayOrigin::DeviceGlobal)
        };
        if let CType::Pointer(_) = declared.ty {
            return Err(self.unsupported(n, format!("the `__device__` pointer variable `{name}`")));
        }
        let (elem, dims) = super::stmt::array_shape(&declared.ty);
        let slots = self.slots(&elem, g.declarator)?;
        let dims = if dims.is_empty() { vec![1] } else { dims };
        let span = self.span(g.declarator);
        let id = self.new_array(name, space, origin, &elem, dims, slots.clone(), span);
        if let Some(init) = g.declarator.child_by_field_name("value") {
            // Every slot's initial value, laid out by the declared type; an
            // initialiser warpsafe cannot evaluate makes the variable
            // unusable rather than silently zero.
            let vals = self.const_init(init, &declared.ty)?;
            self.kernel.arrays[id.0 as usize].init = Some(vals);
        }
        let place = Place::Mem {
            array: id,
            index: Expr::int(0, ScalarTy::I64),
            ty: declared.ty,
            volatile: g.quals.volatile,
        };
        self.globals.insert(name.to_string(), place.clone());
        Ok(Some(place))
    }

    /// The slots of an object of type `ty` initialised by `n` at compile
    /// time ([dcl.init.aggr]): braces nest by the type (a partial inner list
    /// leaves the rest of its element zero), elements convert to their
    /// type, a string literal fills a `char` array. Brace elision and
    /// values that are not constant expressions are errors.
    fn const_init(&self, n: Node, ty: &CType) -> R<Vec<warpsafe_ir::Const>> {
        use warpsafe_ir::Const;
        let zero = |s: &Self, ty: &CType| -> R<Vec<Const>> {
            Ok(s.slots(ty, n)?
                .into_iter()
                .map(|t| {
                    if t.is_float() {
                        Const::Float(0.0)
                    } else {
                        Const::Int(0)
                    }
                })
                .collect())
        };
        let elision = || {
            self.unsupported(
                n,
                "an initialiser that leaves out the braces of a nested aggregate (brace elision)",
            )
        };
        match ty {
            CType::Array(elem, len) => {
                let len = len
                    .ok_or_else(|| self.unsupported(n, "an initialised array without a size"))?
                    as usize;
                if n.kind() == "string_literal" && elem.scalar().is_some_and(|t| t.bits() == 8) {
                    let text = self.text(n);
                    let body = text.strip_prefix('"').and_then(|t| t.strip_suffix('"'));
                    let bytes = body
                        .filter(|b| !b.contains('\\'))
                        .ok_or_else(|| self.unsupported(n, "a string literal with escapes"))?
                        .as_bytes();
                    if bytes.len() > len {
                        return Err(self.unsupported(n, "a string literal longer than its array"));
                    }
                    let t = elem.scalar().unwrap_or(ScalarTy::I8);
                    let mut out: Vec<Const> = bytes
                        .iter()
                        .map(|b| Const::Int(crate::consteval::wrap(i128::from(*b), t)))
                        .collect();
                    out.resize(len, Const::Int(0));
                    return Ok(out);
                }
                if n.kind() != "initializer_list" {
                    return Err(elision());
                }
                let items = named_children(n);
                if items.len() > len {
                    return Err(self.unsupported(n, "more initialisers than array elements"));
                }
                let mut out = Vec::new();
                for i in 0..len {
                    match items.get(i) {
                        Some(c) => {
                            if elem.scalar().is_none()
                                && c.kind() != "initializer_list"
                                && c.kind() != "string_literal"
                            {
                                return Err(elision());
                            }
                            out.extend(self.const_init(*c, elem)?);
                        }
                        None => out.extend(zero(self, elem)?),
                    }
                }
                Ok(out)
            }
            CType::Struct(_) | CType::Vector(..) => {
                if n.kind() != "initializer_list" {
                    return Err(elision());
                }
                let fields = self.items.types.fields(ty).ok_or_else(|| {
                    self.unsupported(n, format!("initialising a `{}`", ty.describe()))
                })?;
                let items = named_children(n);
                if items.len() > fields.len() {
                    return Err(self.unsupported(n, "more initialisers than fields"));
                }
                let mut out = Vec::new();
                for (i, (_, fty, _)) in fields.iter().enumerate() {
                    match items.get(i) {
                        Some(c) => {
                            if fty.scalar().is_none() && c.kind() != "initializer_list" {
                                return Err(elision());
                            }
                            out.extend(self.const_init(*c, fty)?);
                        }
                        None => out.extend(zero(self, fty)?),
                    }
                }
                Ok(out)
            }
            CType::Scalar(t) => {
                // `int x = {5};`
                let n = if n.kind() == "initializer_list" {
                    match named_children(n).as_slice() {
                        [one] => *one,
                        [] => return zero(self, ty),
                        _ => return Err(self.unsupported(n, "several initialisers for a scalar")),
                    }
                } else {
                    n
                };
                if let Some((v, vt)) = crate::consteval::eval_typed(self.syn, n, self) {
                    return Ok(vec![if t.is_float() {
                        Const::Float(if vt.is_signed() {
                            v as f64
                        } else {
                            v as u128 as f64
                        })
                    } else {
                        Const::Int(crate::consteval::wrap(v, *t))
                    }]);
                }
                let text = self.text(n).trim().trim_end_matches(['f', 'F']);
                let neg = text.starts_with('-');
                let num = text.trim_start_matches(['-', '+']);
                match num.parse::<f64>() {
                    Ok(f) if t.is_float() => Ok(vec![Const::Float(if neg { -f } else { f })]),
                    _ => Err(self.unsupported(
                        n,
                        format!(
                            "the initialiser `{}`, which warpsafe cannot evaluate at compile time",
                            self.text(n)
                        ),
                    )),
                }
            }
            other => Err(self.unsupported(n, format!("initialising a `{}`", other.describe()))),
        }
    }

    /// `cuda::memory_order_acquire` and friends.
    pub fn memory_order(&self, n: Node) -> R<MemOrder> {
        let text = self.text(n);
        let last = text.rsplit("::").next().unwrap_or(text).trim();
        let last = last.strip_prefix("memory_order_").unwrap_or(last);
        Ok(match last {
            "relaxed" => MemOrder::Relaxed,
            "consume" | "acquire" => MemOrder::Acquire,
            "release" => MemOrder::Release,
            "acq_rel" => MemOrder::AcqRel,
            "seq_cst" => MemOrder::SeqCst,
            _ => return Err(self.unsupported(n, format!("memory order `{text}`"))),
        })
    }

    /// `atomicAdd(&a[i], v)` and the rest of the family.
    fn atomic_builtin(&mut self, name: &str, args: &[Node<'t>], n: Node<'t>) -> R<Value> {
        let (base, scope) = if let Some(b) = name.strip_suffix("_block") {
            (b, Scope::Block)
        } else if let Some(b) = name.strip_suffix("_system") {
            (b, Scope::System)
        } else {
            (name, Scope::Device)
        };
        let op = match &base["atomic".len()..] {
            "Add" => Some(RmwOp::Add),
            "Sub" => Some(RmwOp::Sub),
            "Exch" => Some(RmwOp::Exch),
            "Min" => Some(RmwOp::Min),
            "Max" => Some(RmwOp::Max),
            "Inc" => Some(RmwOp::Inc),
            "Dec" => Some(RmwOp::Dec),
            "And" => Some(RmwOp::And),
            "Or" => Some(RmwOp::Or),
            "Xor" => Some(RmwOp::Xor),
            "CAS" => None,
            _ => return Err(self.unsupported(n, format!("`{name}`"))),
        };
        let want = if op.is_some() { 2 } else { 3 };
        if args.len() != want {
            return Err(self.unsupported(n, format!("`{name}` takes {want} arguments")));
        }
        let place = self.pointee(args[0], args[0])?;
        match op {
            Some(op) => {
                let v = self.value(args[1])?;
                self.rmw(&place, op, v, MemOrder::Relaxed, scope, n)
            }
            None => {
                let cmp = self.value(args[1])?;
                let val = self.value(args[2])?;
                self.cas(
                    &place,
                    cmp,
                    val,
                    MemOrder::Relaxed,
                    MemOrder::Relaxed,
                    scope,
                    n,
                )
            }
        }
    }
}

/// Why a CUDA intrinsic warpsafe does not lower is rejected (the warp
/// exchanges it models, with a mask or without, are lowered before this).
fn unsupported_intrinsic(name: &str) -> Option<&'static str> {
    [
        "__shfl", "__ballot", "__any", "__all", "__match", "__reduce",
    ]
    .iter()
    .any(|p| name.starts_with(p))
    .then_some("a warp exchange warpsafe does not model")
}

fn u(e: Expr) -> Expr {
    e
}

/// `threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)`.
pub fn linear_tid() -> Expr {
    let t = ScalarTy::U32;
    let b = |x| Expr::Builtin(x);
    let yz = Expr::binary(
        BinOp::Add,
        t,
        b(Builtin::ThreadIdx(Dim::Y)),
        Expr::binary(
            BinOp::Mul,
            t,
            b(Builtin::BlockDim(Dim::Y)),
            b(Builtin::ThreadIdx(Dim::Z)),
        ),
    );
    u(Expr::binary(
        BinOp::Add,
        t,
        b(Builtin::ThreadIdx(Dim::X)),
        Expr::binary(BinOp::Mul, t, b(Builtin::BlockDim(Dim::X)), yz),
    ))
}

fn linear_block() -> Expr {
    let t = ScalarTy::U32;
    let b = |x| Expr::Builtin(x);
    let yz = Expr::binary(
        BinOp::Add,
        t,
        b(Builtin::BlockIdx(Dim::Y)),
        Expr::binary(
            BinOp::Mul,
            t,
            b(Builtin::GridDim(Dim::Y)),
            b(Builtin::BlockIdx(Dim::Z)),
        ),
    );
    Expr::binary(
        BinOp::Add,
        t,
        b(Builtin::BlockIdx(Dim::X)),
        Expr::binary(BinOp::Mul, t, b(Builtin::GridDim(Dim::X)), yz),
    )
}

/// `gridDim.x * gridDim.y * gridDim.z` as an `unsigned long long` (up to
/// 2^31 * 2^32 blocks).
fn grid_size() -> Expr {
    let t = ScalarTy::U64;
    let b = |x| Expr::Cast(t, Box::new(Expr::Builtin(x)));
    Expr::binary(
        BinOp::Mul,
        t,
        b(Builtin::GridDim(Dim::X)),
        Expr::binary(
            BinOp::Mul,
            t,
            b(Builtin::GridDim(Dim::Y)),
            b(Builtin::GridDim(Dim::Z)),
        ),
    )
}

pub(super) fn block_size() -> Expr {
    let t = ScalarTy::U32;
    let b = |x| Expr::Builtin(x);
    Expr::binary(
        BinOp::Mul,
        t,
        b(Builtin::BlockDim(Dim::X)),
        Expr::binary(
            BinOp::Mul,
            t,
            b(Builtin::BlockDim(Dim::Y)),
            b(Builtin::BlockDim(Dim::Z)),
        ),
    )
}

fn dim3(f: fn(Dim) -> Builtin) -> Value {
    Value::Agg(
        vector_type("dim3").unwrap_or(CType::Void),
        Dim::ALL
            .iter()
            .map(|d| Value::Scalar(Expr::Builtin(f(*d)), ScalarTy::U32))
            .collect(),
    )
}
