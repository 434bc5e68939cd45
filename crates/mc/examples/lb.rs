//! LB-n (a ring of n threads, each reading its slot and writing the next)
//! explored by the DPOR explorer or the reference enumerator, timed:
//! `cargo run --release -p warpsafe-mc --example lb -- dpor 8`.

use std::time::Instant;
use warpsafe_frontend::{compile, Options, SourceLoader};
use warpsafe_interp::Launch;
use warpsafe_mc::{dpor, reference, Config};
use warpsafe_source::{SourceFile, SourceMap};

struct NoFiles;

impl SourceLoader for NoFiles {
    fn load(&self, _: &std::path::Path) -> Option<String> {
        None
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let engine = args.get(1).map_or("dpor", String::as_str);
    let n: u32 = args.get(2).and_then(|v| v.parse().ok()).unwrap_or(6);
    let src = format!(
        r#"#include <cuda/atomic>
__global__ void lb(int *x, int *r) {{
    int t = threadIdx.x;
    cuda::atomic_ref<int, cuda::thread_scope_device> A(x[t]), B(x[(t + 1) % {n}]);
    r[t] = A.load(cuda::memory_order_relaxed);
    B.store(1, cuda::memory_order_relaxed);
}}"#
    );
    let mut sources = SourceMap::new();
    let main = sources.add(SourceFile::new("lb.cu", src, false));
    let out = compile(main, &mut sources, &Options::default(), &NoFiles);
    let kernel = &out.module.kernels[0];
    let launch = Launch::new([1, 1, 1], [n, 1, 1]);
    let config = Config {
        max_executions: 1 << 20,
        max_states: 1 << 26,
        ..Config::default()
    };
    let start = Instant::now();
    let ex = match engine {
        "reference" => reference::explore(kernel, &launch, &config),
        _ => dpor::explore(kernel, &launch, &config),
    }
    .expect("explores");
    println!(
        "{engine} LB-{n}: {} executions, {} states, {:?}",
        ex.executions.len(),
        ex.states,
        start.elapsed()
    );
}
