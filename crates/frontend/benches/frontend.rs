//! Front-end throughput: preprocessing, parsing and lowering a generated
//! 2,000-line CUDA file (many kernels and device functions, loops, shared
//! memory, atomics, macros). Run with `cargo bench -p warpsafe-frontend`.

use warpsafe_frontend::{compile, Options, SourceLoader};
use warpsafe_source::{SourceFile, SourceMap};

struct NoFiles;

impl SourceLoader for NoFiles {
    fn load(&self, _: &std::path::Path) -> Option<String> {
        None
    }
}

/// A file of `kernels` kernels, each about 40 lines with a helper.
fn generate(kernels: usize) -> String {
    let mut s = String::from(
        "#include <cuda_runtime.h>\n#define TILE 32\n#define IDX(r, c, w) ((r) * (w) + (c))\n\n",
    );
    for k in 0..kernels {
        s.push_str(&format!(
            r#"__device__ float helper{k}(const float *a, int i, int n)
{{
    float acc = 0.0f;
    for (int j = 0; j < 4; ++j) {{
        int idx = i + j * n;
        if (idx < n)
            acc += a[idx] * (float)j;
    }}
    return acc;
}}

__global__ void kernel{k}(const float *in, float *out, int *count, int n, int w)
{{
    __shared__ float tile[TILE][TILE + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    if (row < n && col < w)
        tile[ty][tx] = in[IDX(row, col, w)];
    __syncthreads();
    float v = tile[tx][ty];
    for (int s = TILE / 2; s > 0; s >>= 1) {{
        if (tx < s)
            v += helper{k}(in, s + tx, n);
        __syncthreads();
    }}
    switch (tx % 3) {{
    case 0: v *= 2.0f; break;
    case 1: v -= 1.0f;
    default: v += 0.5f;
    }}
    if (tx == 0)
        atomicAdd(&count[blockIdx.x], 1);
    int t = row;
    while (t > 0) {{
        t /= 2;
    }}
    out[IDX(col, row, n)] = v + (float)t;
}}

"#
        ));
    }
    s
}

fn main() {
    divan::main();
}

#[divan::bench(args = [50])]
fn compile_2000_lines(bencher: divan::Bencher, kernels: usize) {
    let text = generate(kernels);
    assert!(
        text.lines().count() >= 2000,
        "the generated file has {} lines",
        text.lines().count()
    );
    bencher.bench(|| {
        let mut sources = SourceMap::new();
        let main = sources.add(SourceFile::new("bench.cu", text.clone(), false));
        let out = compile(main, &mut sources, &Options::default(), &NoFiles);
        assert_eq!(
            out.module.kernels.len(),
            kernels,
            "{:?}",
            out.diagnostics.first()
        );
        out
    });
}
