//! Launch dimensions a host helper returns through reference parameters
//! (`launch_relation/out_param.rs`): `computeGridSize(n, 256, blocks,
//! threads)` as in cuda-samples' particles. The value is taken only when
//! the call surely ran once on the way to the launch and the helper is a
//! list of assignments to its reference parameters.

mod common;

use common::first_relation;

const KERNEL: &str = "typedef unsigned int uint;\n\
    __global__ void k(float *d, uint n) { uint i = blockIdx.x * 64 + threadIdx.x; if (i < n) d[i] = 0; }\n\
    uint iDivUp(uint a, uint b) { return (a % b != 0) ? (a / b + 1) : (a / b); }\n";

const HELPER: &str = "void grid(uint n, uint bs, uint &blocks, uint &threads) {\n\
    threads = min(bs, n);\n\
    blocks = iDivUp(n, threads);\n}\n";

fn relation(helper: &str, host: &str) -> Option<String> {
    first_relation(&format!("{KERNEL}{helper}{host}\n"))
}

#[test]
fn a_helper_assigning_its_reference_parameters_gives_the_launch() {
    let host = "void run(float *d, uint n) {\n\
        uint blocks, threads;\n\
        grid(n, 64, blocks, threads);\n\
        k<<<blocks, threads>>>(d, n);\n}";
    assert_eq!(
        relation(HELPER, host).as_deref(),
        Some(
            "gridDim.x == (n % (64u < n ? 64u : n) != 0u ? n / (64u < n ? 64u : n) + 1u : \
             n / (64u < n ? 64u : n)) && blockDim.x == (64u < n ? 64u : n)"
        )
    );
}

#[test]
fn a_call_that_may_not_run_or_may_run_again_gives_nothing() {
    // In a branch that does not enclose the launch.
    let branch = "void run(float *d, uint n, bool big) {\n\
        uint blocks, threads;\n\
        if (big) { grid(n, 64, blocks, threads); }\n\
        k<<<blocks, threads>>>(d, n);\n}";
    assert_eq!(relation(HELPER, branch), None);
    // In a loop.
    let looped = "void run(float *d, uint n) {\n\
        uint blocks, threads;\n\
        for (int r = 0; r < 2; r++) { grid(n, 64, blocks, threads); k<<<blocks, threads>>>(d, n); }\n}";
    assert_eq!(relation(HELPER, looped), None);
    // Written again after the call.
    let again = "void run(float *d, uint n) {\n\
        uint blocks, threads;\n\
        grid(n, 64, blocks, threads);\n\
        threads = 128;\n\
        k<<<blocks, threads>>>(d, n);\n}";
    let text = relation(HELPER, again).unwrap_or_default();
    assert!(!text.contains("blockDim.x =="), "{text}");
}

#[test]
fn a_helper_with_more_than_assignments_gives_nothing() {
    let host = "void run(float *d, uint n) {\n\
        uint blocks, threads;\n\
        grid(n, 64, blocks, threads);\n\
        k<<<blocks, threads>>>(d, n);\n}";
    // A branch in the helper.
    let branchy = "void grid(uint n, uint bs, uint &blocks, uint &threads) {\n\
        if (n > bs) { threads = bs; } else { threads = n; }\n\
        blocks = iDivUp(n, threads);\n}\n";
    assert_eq!(relation(branchy, host), None);
    // A reference parameter read before the helper assigns it.
    let early = "void grid(uint n, uint bs, uint &blocks, uint &threads) {\n\
        blocks = iDivUp(n, threads);\n\
        threads = min(bs, n);\n}\n";
    let text = relation(early, host).unwrap_or_default();
    assert!(!text.contains("gridDim.x =="), "{text}");
    // A `min` the file defines for integers may be another function.
    let own_min = "int min(int a, int b) { return a > b ? a : b; }\n";
    let text = relation(&format!("{own_min}{HELPER}"), host).unwrap_or_default();
    assert!(!text.contains("64u < n"), "{text}");
}
