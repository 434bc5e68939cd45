//! `half2` (`half.rs` in the front end): `cuda_fp16.hpp`'s operators and
//! the `__h*2` intrinsics compute lane by lane with one rounding to `f16`
//! per operation, the fused `__hfma2` with one rounding in all, as a GPU
//! does; both explorers run them.

mod common;

/// Every assertion holds on a GPU: `a * a` rounds to `1 + 6/1024` before
/// `c` cancels it, while the fused form keeps the product's last bits
/// (`9 * 2^-20`, a subnormal `f16`).
const LANES: &str = r#"#include <assert.h>
#include <cuda_fp16.h>
__global__ void lanes(float *out)
{
  half2 a = __float2half2_rn(1.0029296875f);
  half2 c = __float2half2_rn(-1.005859375f);
  half2 fused = __hfma2(a, a, c);
  half2 split = a * a + c;
  assert(__low2float(fused) == 9.0f / 1048576.0f);
  assert(__high2float(split) == 0.0f);
  half2 v = __floats2half2_rn(1.5f, -2.0f);
  v = __lowhigh2highlow(v);
  assert(__low2float(v) == -2.0f && __high2float(v) == 1.5f);
  half2 q = __h2div(__hadd2(v, v), __float2half2_rn(4.0f));
  out[threadIdx.x] = __low2float(q) + __high2float(__hsub2(q, __hmul2(q, q)));
  assert(__low2float(q) == -1.0f);
}
"#;

#[test]
fn half2_lanes_round_as_a_gpu_does() {
    let cu = common::temp_file("half2", "lanes.cu", LANES);
    let one = ["--grid-dim", "1", "--block-dim", "1"];
    let explored = common::run("explore", &cu, &one);
    assert!(
        explored.stdout.contains("kernel lanes: SAFE"),
        "{}",
        explored.stdout
    );
    let ran = common::run("run", &cu, &one);
    assert!(
        ran.stdout.contains("kernel lanes: NO ERROR FOUND"),
        "{}",
        ran.stdout
    );
    // Rounding the product first would make the fused result 0.
    let unfused = common::temp_file(
        "half2",
        "unfused.cu",
        &LANES.replace(
            "__low2float(fused) == 9.0f / 1048576.0f",
            "__low2float(fused) == 0.0f",
        ),
    );
    let out = common::run("explore", &unfused, &one);
    assert!(
        out.stdout
            .contains("assertion violated: __low2float(fused) == 0.0f"),
        "{}",
        out.stdout
    );
}
