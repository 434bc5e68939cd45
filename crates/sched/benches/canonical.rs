//! Throughput and peak memory of the schedule explorer's canonical run
//! (issue 11's benchmark): a kernel with a 100-iteration arithmetic loop
//! per thread, a shared array and a barrier, on grids from 1x32 to
//! 256x256 threads, with race detection; and the seed-003 bug patterns
//! (as one thread per block acts in them: lane 0 of each block) on 2 and 3
//! blocks of one thread and on a 64x256 grid.
//!
//! `cargo bench -p warpsafe-sched --bench canonical` runs every point in a
//! fresh child process (peak memory does not carry over) and prints thread
//! events (interpreter steps) per second, wall-clock seconds and peak
//! resident memory (`VmHWM`). `... -- --one GRID BLOCK` measures one point
//! in this process.

use std::process::Command;
use std::time::Instant;
use warpsafe_frontend::{compile, Options, SourceLoader};
use warpsafe_interp::Launch;
use warpsafe_ir::Kernel;
use warpsafe_sched::{search, Flow, Launched, RunConfig, SearchConfig};
use warpsafe_source::{SourceFile, SourceMap};

struct NoFiles;

impl SourceLoader for NoFiles {
    fn load(&self, _: &std::path::Path) -> Option<String> {
        None
    }
}

const LOOP: &str = r#"
__global__ void smooth(float *a, float *b) {
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < 100; k++) acc += a[i] * k;
    s[threadIdx.x] = acc;
    __syncthreads();
    b[i] = s[(threadIdx.x + 1) % blockDim.x];
}"#;

/// A check-then-act minimum update (seed 003's aMinUpdate pattern): the
/// block that lowers the minimum records itself, but the record and the
/// minimum are two separate atomics. The last block checks them.
const MIN_UPDATE: &str = r#"
#include <assert.h>
__global__ void minUpdate(int *best, int *who, int *done) {
    if (threadIdx.x == 0) {
        int mine = 1000 - blockIdx.x;
        int old = atomicMin(best, mine);
        if (mine < old) atomicExch(who, blockIdx.x);
        __threadfence();
        if (atomicAdd(done, 1) == gridDim.x - 1) {
            __threadfence();
            assert(1000 - atomicAdd(who, 0) == atomicAdd(best, 0));
        }
    }
}"#;

/// Seed 003's N-body tree insertion (lost atomicity, Fig. 3/4): a cell is
/// read twice, and the second read, which may see the lock, is what the
/// CAS expects, so a block can "take" a locked cell.
const TREE_INSERT: &str = r#"
#include <assert.h>
#define LOCK -2
__global__ void insertBody(int *child) {
    if (threadIdx.x != 0) return;
    int node = atomicAdd(&child[0], 0);
    if (node != LOCK) {
        node = atomicAdd(&child[0], 0);
        if (node == atomicCAS(&child[0], node, LOCK)) {
            assert(node != LOCK);
            __threadfence();
            atomicExch(&child[0], blockIdx.x + 1);
        }
    }
}"#;

/// A minimum built from one CAS instead of a CAS loop (seed 003's
/// double-precision atomicMin): a CAS that fails is not retried. Block 0
/// holds the minimum; a block that lowers the value between its read and
/// its CAS makes block 0's CAS fail (one delay, at any grid size).
const CAS_MIN: &str = r#"
#include <assert.h>
__global__ void casMin(int *best) {
    if (threadIdx.x != 0) return;
    int mine = 1000 + blockIdx.x;
    int old = atomicAdd(best, 0);
    if (mine < old) atomicCAS(best, old, mine);
    assert(atomicAdd(best, 0) <= mine);
}"#;

/// An insertion that links its node with an exchange instead of a CAS on
/// the value it read (seed 003's binary-tree insertion with a missing CAS,
/// as a list): two blocks that read the same head lose one node.
const PUSH_NO_CAS: &str = r#"
#include <assert.h>
__global__ void push(int *head, int *next, int *done) {
    if (threadIdx.x != 0) return;
    int me = blockIdx.x + 1;
    next[me] = atomicAdd(head, 0);
    __threadfence();
    atomicExch(head, me);
    __threadfence();
    if (atomicAdd(done, 1) == gridDim.x - 1) {
        __threadfence();
        int n = 0;
        for (int p = atomicAdd(head, 0); p != 0 && n <= gridDim.x; p = next[p]) n++;
        assert(n == gridDim.x);
    }
}"#;

/// Seed 003's TSP best-tour update: the score is tested before the lock is
/// taken and not again under it, so a worse tour can overwrite a better.
const BEST_TOUR: &str = r#"
#include <assert.h>
__global__ void bestTour(int *best, int *lock, int *done) {
    if (threadIdx.x != 0) return;
    int score = 10 + blockIdx.x;
    if (score > atomicAdd(best, 0)) {
        while (atomicCAS(lock, 0, 1) != 0) {}
        __threadfence();
        atomicExch(best, score);
        __threadfence();
        atomicExch(lock, 0);
    }
    __threadfence();
    if (atomicAdd(done, 1) == gridDim.x - 1) {
        __threadfence();
        assert(atomicAdd(best, 0) == 10 + gridDim.x - 1);
    }
}"#;

fn kernel(src: &str) -> Kernel {
    let mut sources = SourceMap::new();
    let main = sources.add(SourceFile::new("bench.cu", src.to_string(), false));
    let out = compile(main, &mut sources, &Options::default(), &NoFiles);
    assert!(!out.has_errors(), "{:?}", out.diagnostics);
    out.module.kernels.into_iter().next().expect("one kernel")
}

fn peak_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// One point: the kernel `which` on `grid` x `block`.
fn one(which: &str, grid: u32, block: u32) {
    let (src, delays) = match which {
        "loop" => (LOOP, 0),
        "min-update" => (MIN_UPDATE, 2),
        "tree-insert" => (TREE_INSERT, 2),
        "cas-min" => (CAS_MIN, 2),
        "push-no-cas" => (PUSH_NO_CAS, 2),
        "best-tour" => (BEST_TOUR, 2),
        other => panic!("no benchmark kernel `{other}`"),
    };
    let k = kernel(src);
    let mut launch = Launch::new([grid, 1, 1], [block, 1, 1]);
    if matches!(which, "min-update" | "cas-min") {
        // The minimum starts at INT_MAX.
        launch =
            launch.with_array_init(k.arrays[0].id, vec![warpsafe_interp::Value::I32(i32::MAX)]);
    }
    let start = Instant::now();
    let launched = Launched::new(&k, &launch, RunConfig::default()).expect("launches");
    let config = SearchConfig {
        delays,
        ..SearchConfig::default()
    };
    let (mut steps, mut events, mut found) = (0u64, 0u64, false);
    let s = search(&launched, &config, &mut |r| {
        steps += r.steps;
        events += r.events;
        found |= !r.findings.is_empty();
        if found {
            Flow::Stop
        } else {
            Flow::Continue
        }
    })
    .expect("searches");
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{which:>10} {:>9} {:>10} {:>10} {:>12} {:>8.3} {:>14.0} {:>10} {}",
        format!("{grid}x{block}"),
        s.schedules,
        steps,
        events,
        secs,
        steps as f64 / secs,
        peak_kib().map_or("?".into(), |k| format!("{:.1} MiB", k as f64 / 1024.0)),
        if which == "loop" {
            ""
        } else if found {
            "bug found"
        } else {
            "no bug"
        }
    );
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if args.first().map(String::as_str) == Some("--one") {
        let n = |i: usize| args[i].parse::<u32>().expect("a number");
        one(&args[1], n(2), n(3));
        return;
    }
    println!(
        "{:>10} {:>9} {:>10} {:>10} {:>12} {:>8} {:>14} {:>10}",
        "kernel", "grid", "schedules", "steps", "mem events", "seconds", "steps/s", "peak"
    );
    let exe = std::env::current_exe().expect("the benchmark knows its own path");
    let points: &[(&str, u32, u32)] = &[
        ("loop", 1, 32),
        ("loop", 4, 256),
        ("loop", 16, 256),
        ("loop", 64, 256),
        ("loop", 256, 256),
    ];
    let patterns = [
        "min-update",
        "tree-insert",
        "cas-min",
        "push-no-cas",
        "best-tour",
    ];
    let points: Vec<(&str, u32, u32)> = points
        .iter()
        .copied()
        .chain(
            patterns
                .iter()
                .flat_map(|p| [(*p, 2, 1), (*p, 3, 1), (*p, 64, 256)]),
        )
        .collect();
    for (which, grid, block) in &points {
        let status = Command::new(&exe)
            .args(["--one", which, &grid.to_string(), &block.to_string()])
            .status()
            .expect("runs a point");
        assert!(status.success());
    }
}
