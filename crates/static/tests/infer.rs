//! Protocol inference on kernels compiled by the real front end.

mod common;

use common::protocol;
use warpsafe_static::{AccessMode, Proto, Step, Sym, UnknownReason};

#[test]
fn straight_line() {
    let (_, kp, out) = protocol(
        "__global__ void k(float *a) { __shared__ float s[64]; int t = threadIdx.x; s[t] = a[t]; __syncthreads(); a[t] = s[63 - t]; }",
    );
    println!("{out}");
    assert!(
        out.contains(
            "array s (shared) {\n  wr s[threadIdx.x];\n  sync;\n  rd s[63 - threadIdx.x];\n}"
        ),
        "{out}"
    );
    assert_eq!(kp.array("a").expect("a").proto.accesses().len(), 2);
}

#[test]
fn block_reduction_power_of_two_decreasing() {
    let (_, kp, out) = protocol(
        "__global__ void r(int *g) { __shared__ int sdata[256]; unsigned tid = threadIdx.x; sdata[tid] = g[tid]; __syncthreads();
         for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) { if (tid < s) sdata[tid] += sdata[tid + s]; __syncthreads(); } }",
    );
    println!("{out}");
    let p = &kp.array("sdata").expect("sdata").proto;
    let mut found = false;
    p.walk(&mut |n| {
        if let Proto::For(l) = n {
            found = true;
            assert!(matches!(&l.step, Step::Shr(k) if k.as_int() == Some(1)));
            assert!(!l.step.increasing());
            assert!(l.bound_known);
            assert_eq!(l.lo.as_int(), Some(1));
            assert!(l.body.has_sync());
        }
    });
    assert!(found, "{out}");
    assert!(
        out.contains("for s in 1..blockDim.x / 2 + 1 step >>1 down {"),
        "{out}"
    );
    assert!(out.contains("if threadIdx.x < s {\n      rd sdata[threadIdx.x + s];\n      rd sdata[threadIdx.x];\n      wr sdata[threadIdx.x];"), "{out}");
}

#[test]
fn grid_stride_loop() {
    let (_, kp, out) = protocol(
        "__global__ void g(float *d, int n) { int gid = blockIdx.x * blockDim.x + threadIdx.x;
         for (int i = gid; i < n; i += blockDim.x * gridDim.x) d[i] = 0.0f; }",
    );
    println!("{out}");
    let p = &kp.array("d").expect("d").proto;
    let Proto::For(l) = p else { panic!("{out}") };
    assert!(matches!(l.step, Step::Add(_)));
    assert!(l.bound_known);
    assert!(out.contains("for i in "), "{out}");
    assert!(out.contains("wr d[i];"), "{out}");
}

#[test]
fn while_with_data_dependent_condition() {
    let (_, kp, out) = protocol(
        "__global__ void w(int *a) { int j = threadIdx.x; while (a[j] > 0) { a[j] = 0; j = a[j + 1]; } }",
    );
    println!("{out}");
    let p = &kp.array("a").expect("a").proto;
    assert!(matches!(p, Proto::Loop { .. }), "{out}");
    assert!(!kp.approximations.is_empty());
    // j is unknown inside the loop (modified there).
    let idx = &p.accesses()[0].index;
    assert!(idx
        .unknowns()
        .iter()
        .any(|u| matches!(u.reason, UnknownReason::ModifiedInLoop { .. })));
}

#[test]
fn index_through_locals_is_exact() {
    let (_, kp, out) = protocol(
        "__global__ void l(int *a, int w) { int x = threadIdx.x; int y = blockIdx.x; int row = y * w; int idx = row + x; idx = idx * 2; a[idx + 1] = 0; }",
    );
    println!("{out}");
    let acc = kp.body.accesses();
    assert_eq!(acc.len(), 1);
    assert!(acc[0].index.is_exact(), "{out}");
    assert!(
        out.contains("wr a[(blockIdx.x * w + threadIdx.x) * 2 + 1];"),
        "{out}"
    );
}

#[test]
fn index_from_loaded_value_is_unknown() {
    let (_, kp, out) =
        protocol("__global__ void u(int *a, int *idx) { int i = idx[threadIdx.x]; a[i] = 1; }");
    println!("{out}");
    let acc = kp.array("a").expect("a").proto.accesses();
    let us = acc[0].index.unknowns();
    assert_eq!(us.len(), 1);
    assert!(us[0].reason.is_data_dependent());
    assert!(matches!(us[0].reason, UnknownReason::Load { .. }));
    assert!(out.contains("wr a[?rd(idx)#"), "{out}");
}

#[test]
fn if_else_assignment_is_select() {
    let (_, kp, out) = protocol(
        "__global__ void s(int *a, int n) { int i; if (threadIdx.x < n) i = threadIdx.x; else i = n + 1; a[i] = 0; }",
    );
    println!("{out}");
    let acc = kp.body.accesses();
    assert!(
        matches!(acc[0].index, Sym::Select(..) | Sym::Cast(..) | Sym::Min(..)),
        "{out}"
    );
    assert!(acc[0].index.is_exact());
    assert!(out.contains('?') && out.contains(':'), "{out}");
}

#[test]
fn early_return_guards_barrier() {
    let (_, kp, out) = protocol(
        "__global__ void e(const float *in, int n) { __shared__ float s[256]; int tid = threadIdx.x; int gid = blockIdx.x * blockDim.x + tid;
         if (gid >= n) return; s[tid] = in[gid]; __syncthreads(); s[tid] = s[0]; }",
    );
    println!("{out}");
    let p = &kp.array("s").expect("s").proto;
    let Proto::If { cond, then_, .. } = p else {
        panic!("{out}")
    };
    assert!(
        matches!(cond, Sym::Binary(warpsafe_ir::BinOp::Lt, ..)),
        "{out}"
    );
    assert!(then_.has_sync());
}

#[test]
fn atomics_are_atomic_writes() {
    let (_, kp, out) = protocol(
        "__global__ void at(int *c, int *d) { int old = atomicAdd(&c[blockIdx.x], 1); d[threadIdx.x] = old; d[old] = 2; }",
    );
    println!("{out}");
    let acc = kp.array("c").expect("c").proto.accesses();
    assert_eq!(acc.len(), 1);
    assert!(acc[0].atomic && acc[0].mode == AccessMode::Write);
    assert!(out.contains("atomic wr c[blockIdx.x];"), "{out}");
    let d = kp.array("d").expect("d").proto.accesses();
    assert!(d[1]
        .index
        .unknowns()
        .iter()
        .any(|u| matches!(u.reason, UnknownReason::Atomic { .. })));
}

#[test]
fn loop_with_break_is_not_bound_known() {
    let (_, kp, out) = protocol(
        "__global__ void b(int *a, int n) { for (int i = 0; i < n; i++) { if (a[i] == 0) break; a[i + n] = 1; } }",
    );
    println!("{out}");
    let Proto::For(l) = &kp.body else {
        panic!("{out}")
    };
    assert!(!l.bound_known);
    assert!(out.contains("(may exit early)"), "{out}");
}

#[test]
fn unsigned_countdown_to_zero_inclusive_is_not_a_for() {
    let (_, kp, out) = protocol(
        "__global__ void c(int *a, unsigned n) { for (unsigned i = n; i >= 0; i--) a[i] = 0; }",
    );
    println!("{out}");
    assert!(matches!(kp.body, Proto::Loop { .. }), "{out}");
}

#[test]
fn requires_and_asserts_collected() {
    let (_, kp, out) = protocol(
        "__global__ void q(int *a, int n) { __requires(n > 0); __assert(n < 100); a[0] = n; }",
    );
    println!("{out}");
    assert_eq!(kp.preconditions.len(), 1, "{out}");
    assert!(out.contains("requires n > 0"), "{out}");
}
