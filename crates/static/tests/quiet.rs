//! Quiet reads of shared memory (`quiet.rs`): a flag no thread writes in
//! the barrier interval of its read is read alike by a block, so a barrier
//! under it aligns; a write anywhere in that interval (before the read,
//! after it, or on a sibling path) keeps the barrier divergent. Needs z3.

mod common;

use common::kernels;
use warpsafe_static::{check_kernel, RaceConfig, Verdict};

fn verdict(body: &str) -> Verdict {
    let text = format!(
        "__global__ void k(int *out, int n) {{ __shared__ int flag; __shared__ int s[64]; {body} }}"
    );
    let mut k = kernels(&text)
        .into_iter()
        .next()
        .expect("test kernel lowers");
    k.launch.block = Some([64, 1, 1]);
    k.launch.grid = Some([4, 1, 1]);
    let r = check_kernel(&k, &RaceConfig::default());
    println!("{body}\n{:#?}", r.verdict);
    r.verdict
}

fn divergent(body: &str) -> bool {
    matches!(verdict(body), Verdict::Divergent(_))
}

#[test]
fn a_flag_set_before_a_barrier_is_uniform_after_it() {
    let v = verdict(
        "if (threadIdx.x == 0) flag = out[blockIdx.x * 64]; __syncthreads();
         if (flag) { s[threadIdx.x] = 1; __syncthreads(); out[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x]; }",
    );
    assert_eq!(v, Verdict::Drf);
}

#[test]
fn a_flag_read_after_a_write_in_its_interval_diverges() {
    assert!(divergent(
        "if (threadIdx.x == 0) flag = out[blockIdx.x]; if (flag) { __syncthreads(); }"
    ));
}

#[test]
fn a_flag_written_after_its_read_in_the_interval_diverges() {
    assert!(divergent(
        "if (threadIdx.x == 0) flag = out[blockIdx.x * 64]; __syncthreads();
         int f = flag; if (threadIdx.x == 1) flag = 0; if (f) { __syncthreads(); }"
    ));
}

#[test]
fn a_write_on_a_sibling_path_of_the_read_diverges() {
    assert!(divergent(
        "__syncthreads(); int f = 0; if (threadIdx.x == 5) flag = out[0]; else f = flag;
         if (threadIdx.x != 5 && f) { __syncthreads(); }"
    ));
}

#[test]
fn a_write_reached_around_a_loop_diverges() {
    assert!(divergent(
        "for (int i = 0; i < n; i++) { __syncthreads(); if (flag) { __syncthreads(); }
         if (threadIdx.x == 0) flag = out[i]; }"
    ));
}

#[test]
fn a_flag_rewritten_each_iteration_behind_barriers_is_uniform() {
    assert!(!divergent(
        "for (int i = 0; i < n; i++) { if (threadIdx.x == 0) flag = out[i]; __syncthreads();
         if (flag) { __syncthreads(); } __syncthreads(); }"
    ));
}

#[test]
fn a_per_thread_slot_is_not_uniform() {
    assert!(divergent(
        "s[threadIdx.x] = out[threadIdx.x]; __syncthreads(); if (s[threadIdx.x]) { __syncthreads(); }"
    ));
}

#[test]
fn a_global_flag_is_not_uniform() {
    assert!(divergent(
        "__syncthreads(); if (out[0]) { __syncthreads(); }"
    ));
}
