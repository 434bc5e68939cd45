//! Asynchronous copies (`lower::async_copy`): what is modelled lowers with
//! the stated approximation, what is not is refused by name.

mod common;

use common::lower;

/// The messages of a kernel that is expected not to lower.
fn refused(body: &str) -> Vec<String> {
    let (kernels, messages) = lower(&format!(
        "#include <cuda/pipeline>\n#include <cuda/barrier>\n{body}\n"
    ));
    assert!(kernels.is_empty(), "lowered: {body}");
    messages
}

#[test]
fn every_kernel_with_an_async_copy_says_it_is_approximated() {
    let (kernels, messages) = lower(
        "#include <cuda/pipeline>\n__global__ void k(const float *g) { __shared__ float s[64];\n\
         cuda::pipeline<cuda::thread_scope_thread> p = cuda::make_pipeline();\n\
         cuda::memcpy_async(&s[threadIdx.x], &g[threadIdx.x], sizeof(float), p);\n\
         cuda::memcpy_async(&s[threadIdx.x], &g[threadIdx.x], sizeof(float), p);\n\
         p.producer_commit(); p.consumer_wait(); }\n",
    );
    assert_eq!(kernels.len(), 1, "{messages:?}");
    let approximations: Vec<&String> = messages
        .iter()
        .filter(|m| m.contains("modelled as done when issued"))
        .collect();
    assert_eq!(approximations.len(), 1, "{messages:?}");
}

#[test]
fn what_the_model_cannot_express_is_refused_by_name() {
    let split = refused(
        "__global__ void k(float *a) { __shared__ cuda::barrier<cuda::thread_scope_block> b;\n\
         if (threadIdx.x == 0) init(&b, blockDim.x); __syncthreads();\n\
         auto t = b.arrive(); a[threadIdx.x] = 1; b.wait(std::move(t)); }",
    );
    assert!(
        split.iter().any(|m| m.contains("split `bar.arrive()`")),
        "{split:?}"
    );
    let shared_state = refused(
        "__global__ void k(float *a) {\n\
         __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> st;\n\
         a[threadIdx.x] = 1; }",
    );
    assert!(
        shared_state.iter().any(|m| m.contains("shared state")),
        "{shared_state:?}"
    );
    let unknown_length = refused(
        "__global__ void k(const float *g, int n) { __shared__ float s[64];\n\
         cuda::pipeline<cuda::thread_scope_thread> p = cuda::make_pipeline();\n\
         cuda::memcpy_async(s, g, n * sizeof(float), p); }",
    );
    assert!(
        unknown_length
            .iter()
            .any(|m| m.contains("not known at compile time")),
        "{unknown_length:?}"
    );
}

/// A copy whose source is a pointer into one of two arrays (GEMM staging:
/// half the warps copy from A, half from B) reads the array the pointer
/// points into: both arrays are read in the lowered kernel.
#[test]
fn a_copy_from_one_of_two_arrays_reads_both_candidates() {
    let (kernels, messages) = lower(
        "#include <cuda/pipeline>\n__global__ void k(const float4 *a, const float4 *b) {\n\
         __shared__ float4 s[64]; const float4 *src = threadIdx.x < 32 ? a : b;\n\
         cuda::pipeline<cuda::thread_scope_thread> p = cuda::make_pipeline();\n\
         cuda::memcpy_async(&s[threadIdx.x], src + threadIdx.x % 32, sizeof(float4), p);\n\
         p.producer_commit(); p.consumer_wait(); }\n",
    );
    let k = kernels.first().unwrap_or_else(|| panic!("{messages:?}"));
    let mut read = std::collections::BTreeSet::new();
    warpsafe_ir::walk_block(&k.body, &mut |s| {
        if let warpsafe_ir::StmtKind::Load { mem, .. } = &s.kind {
            read.insert(k.array(mem.array).name.clone());
        }
    });
    assert!(read.contains("a") && read.contains("b"), "{read:?}");
}

/// A copy of `float`s through a `float *` over `half` memory (GEMM
/// kernels stage float tiles in a half or bfloat16 buffer) writes each
/// float as its two halves: four `half` slots for two floats.
#[test]
fn a_copy_through_memory_of_another_element_size_writes_its_slots() {
    let (kernels, messages) = lower(
        "#include <cuda/pipeline>\n__global__ void k(const float *g) {\n\
         __shared__ __half s[16]; float *f = (float *)&s[0];\n\
         cuda::pipeline<cuda::thread_scope_thread> p = cuda::make_pipeline();\n\
         cuda::memcpy_async(f + 2, g, 2 * sizeof(float), p); }\n",
    );
    let k = kernels.first().unwrap_or_else(|| panic!("{messages:?}"));
    let mut stores = 0;
    warpsafe_ir::walk_block(&k.body, &mut |s| {
        if let warpsafe_ir::StmtKind::Store { mem, .. } = &s.kind {
            assert_eq!(k.array(mem.array).name, "s");
            stores += 1;
        }
    });
    assert_eq!(stores, 4);
}

/// The block barrier's scope spelt through its enum
/// (`cuda::thread_scope::thread_scope_block`, as SGEMM tutorials write it)
/// and its `arrive_and_wait` called through a pointer (`p->`, `(*p).`)
/// lower to block barriers, as the plain spelling and call do.
#[test]
fn a_block_barrier_spelt_through_its_enum_and_called_through_a_pointer_is_one() {
    for call in [
        "b.arrive_and_wait();",
        "p->arrive_and_wait();",
        "(*p).arrive_and_wait();",
    ] {
        let (kernels, messages) = lower(&format!(
            "#include <cuda/barrier>\n__global__ void k(float *a) {{\n\
             __shared__ cuda::barrier<cuda::thread_scope::thread_scope_block> b;\n\
             auto p = &b;\n\
             if (threadIdx.x == 0) init(&b, blockDim.x); __syncthreads();\n\
             a[threadIdx.x] = 1; {call} }}\n"
        ));
        let k = kernels
            .first()
            .unwrap_or_else(|| panic!("{call}: {messages:?}"));
        let mut barriers = 0;
        warpsafe_ir::walk_block(&k.body, &mut |s| {
            if let warpsafe_ir::StmtKind::Barrier {
                kind: warpsafe_ir::BarrierKind::Block,
                ..
            } = &s.kind
            {
                barriers += 1;
            }
        });
        assert_eq!(barriers, 2, "{call}");
    }
}

/// Any other scope of `cuda::barrier` is refused by name, however spelt.
#[test]
fn a_barrier_of_another_scope_is_refused_however_spelt() {
    let messages = refused(
        "__global__ void k(float *a) {\n\
         __shared__ cuda::barrier<cuda::thread_scope::thread_scope_device> b; }",
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("barriers other than `barrier<thread_scope_block>`")),
        "{messages:?}"
    );
}
