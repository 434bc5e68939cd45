//! Compiling litmus kernels through the real front end and exploring them.

#![allow(dead_code)]

use std::collections::BTreeMap;
use warpsafe_frontend::{compile, Options, SourceLoader};
use warpsafe_interp::{Launch, Value};
use warpsafe_ir::Kernel;
use warpsafe_mc::{explore, Config, Exploration, Loc};
use warpsafe_source::{SourceFile, SourceMap};

/// The memory-order macros litmus sources use (`RLX`, `REL`, `ACQ`, `SC`,
/// `ACQREL`), with `<cuda/atomic>` and `<assert.h>`.
pub const HEADER: &str = "#include <cuda/atomic>\n#include <assert.h>\n#define RLX cuda::memory_order_relaxed\n#define REL cuda::memory_order_release\n#define ACQ cuda::memory_order_acquire\n#define SC cuda::memory_order_seq_cst\n#define ACQREL cuda::memory_order_acq_rel\n";

/// Message passing of plain `data` through an atomic flag (release store,
/// acquire load) of scope `SCOPE`, to be replaced.
pub const MP: &str = r#"
__global__ void mp(int *data, int *flag, int *r) {
    cuda::atomic_ref<int, cuda::thread_scope_SCOPE> F(*flag);
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t == 0) {
        data[0] = 1;
        F.store(1, REL);
    } else {
        int a = F.load(ACQ);
        int b = -1;
        if (a == 1) b = data[0];
        r[0] = a;
        r[1] = b;
    }
}"#;

struct NoFiles;

impl SourceLoader for NoFiles {
    fn load(&self, _: &std::path::Path) -> Option<String> {
        None
    }
}

/// The only kernel of `src`.
pub fn kernel(src: &str) -> Kernel {
    let mut sources = SourceMap::new();
    let main = sources.add(SourceFile::new("litmus.cu", src.to_string(), false));
    let out = compile(main, &mut sources, &Options::default(), &NoFiles);
    assert!(!out.has_errors(), "{:?}", out.diagnostics);
    assert_eq!(out.module.kernels.len(), 1, "{:?}", out.diagnostics);
    out.module.kernels.into_iter().next().expect("one kernel")
}

/// Explores `src` on `grid` blocks of `block` threads.
pub fn run(src: &str, grid: u32, block: u32) -> (Kernel, Exploration) {
    let k = kernel(src);
    let launch = Launch::new([grid, 1, 1], [block, 1, 1]);
    let ex = explore(&k, &launch, &Config::default()).expect("exploration succeeds");
    (k, ex)
}

/// The array of `k` named `name`.
pub fn array(k: &Kernel, name: &str) -> warpsafe_ir::ArrayId {
    k.arrays
        .iter()
        .find(|a| a.name == name)
        .unwrap_or_else(|| panic!("no array {name}"))
        .id
}

/// `name[index]` of a final memory (as i32), `None` when untouched.
pub fn slot(k: &Kernel, mem: &BTreeMap<Loc, Value>, name: &str, index: u64) -> Option<i32> {
    let array = array(k, name);
    mem.iter()
        .find(|(l, _)| l.array == array && l.index == index)
        .map(|(_, v)| v.as_int().expect("integer") as i32)
}

/// The final values of `r[0..n]` of every execution, sorted.
pub fn results(k: &Kernel, ex: &Exploration, n: u64) -> Vec<Vec<Option<i32>>> {
    let mut v: Vec<Vec<Option<i32>>> = ex
        .executions
        .iter()
        .map(|e| (0..n).map(|i| slot(k, &e.final_memory, "r", i)).collect())
        .collect();
    v.sort();
    v
}
