//! Throughput and peak memory of the DPOR explorer on the load-buffering
//! ring LB-n and the store-buffering ring SB-n (seed 000 §4's benchmark
//! families; the anchors are GPUMC's and GenMC's times on LB-n).
//!
//! `cargo bench -p warpsafe-mc --bench lb -- [FAMILY] [FROM] [TO] [JOBS]`
//! runs, for every `n` in `FROM..=TO`, one fresh child process (so that
//! peak memory does not carry over from a smaller `n`) that explores the
//! family's kernel with a counting observer on `JOBS` cores (default 1),
//! and prints executions, CPU seconds (all threads), wall-clock seconds,
//! executions per wall-clock second and peak resident memory (`VmHWM`).
//!
//! Families (every thread reads one slot and writes another, relaxed):
//!
//! - `lb`: LB-n, one block of `n` threads, device-scope atomics
//!   (every scope includes every thread: RC11's LB-n, `2^n - 1` executions);
//! - `lb-scoped`: LB-n with `n` blocks of one thread and block-scope
//!   atomics (no two accesses are scope-inclusive: every conflicting pair
//!   is a heterogeneous race, which every execution reports);
//! - `sb`: SB-n, thread `t` writes `x[t]` then reads `x[t+1]`, relaxed
//!   (`2^n` executions);
//! - `sb-sc`: SB-n with `seq_cst` accesses (`2^n - 1` executions: not all
//!   reads can miss);
//! - `lb-sc`: LB-n with `seq_cst` accesses.
//!
//! `... --bench lb -- --one FAMILY N [JOBS]` measures one point in this
//! process.

// The allocator the warpsafe binary uses, so the bench measures it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::process::Command;
use std::time::Instant;
use warpsafe_frontend::{compile, Options, SourceLoader};
use warpsafe_interp::Launch;
use warpsafe_mc::{dpor, Config, Ending, Execution, Flow, Forkable, Join, Observer, Stats};
use warpsafe_source::{SourceFile, SourceMap};

struct NoFiles;

impl SourceLoader for NoFiles {
    fn load(&self, _: &std::path::Path) -> Option<String> {
        None
    }
}

/// The kernel source and launch of one point of a family.
fn program(family: &str, n: u32) -> Option<(String, Launch)> {
    let (scope, order, lb, blocks) = match family {
        "lb" => ("device", "relaxed", true, false),
        "lb-scoped" => ("block", "relaxed", true, true),
        "sb" => ("device", "relaxed", false, false),
        "sb-sc" => ("device", "seq_cst", false, false),
        "lb-sc" => ("device", "seq_cst", true, false),
        _ => return None,
    };
    let t = if blocks { "blockIdx.x" } else { "threadIdx.x" };
    let body = if lb {
        format!(
            "    r[t] = A.load(cuda::memory_order_{order});\n    B.store(1, cuda::memory_order_{order});"
        )
    } else {
        format!(
            "    A.store(1, cuda::memory_order_{order});\n    r[t] = B.load(cuda::memory_order_{order});"
        )
    };
    let src = format!(
        "#include <cuda/atomic>\n__global__ void ring(int *x, int *r) {{\n    int t = {t};\n    \
         cuda::atomic_ref<int, cuda::thread_scope_{scope}> A(x[t]), B(x[(t + 1) % {n}]);\n{body}\n}}\n"
    );
    let launch = if blocks {
        Launch::new([n, 1, 1], [1, 1, 1])
    } else {
        Launch::new([1, 1, 1], [n, 1, 1])
    };
    Some((src, launch))
}

/// CPU time of this process, all its threads, in seconds (`utime` +
/// `stime` of `/proc/self/stat`, in clock ticks of 10 ms).
fn cpu_secs() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name, which is in parentheses.
    let rest = &stat[stat.rfind(')')? + 2..];
    let mut fields = rest.split_whitespace().skip(11);
    let utime: f64 = fields.next()?.parse().ok()?;
    let stime: f64 = fields.next()?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

/// Peak resident memory of this process in KiB (`VmHWM`), if known.
fn peak_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn one(family: &str, n: u32, jobs: usize) {
    let Some((src, launch)) = program(family, n) else {
        eprintln!("unknown family {family}");
        std::process::exit(2);
    };
    let mut sources = SourceMap::new();
    let main = sources.add(SourceFile::new("ring.cu", src, false));
    let out = compile(main, &mut sources, &Options::default(), &NoFiles);
    let kernel = &out.module.kernels[0];
    let config = Config {
        max_executions: usize::MAX,
        max_states: usize::MAX,
        max_threads: 64,
        // Every thread of these rings interacts.
        max_active_threads: 64,
        jobs,
        ..Config::default()
    };
    let mut count = Count::default();
    let start = Instant::now();
    let cpu0 = cpu_secs();
    let stats = dpor::explore_forked(kernel, &launch, &config, &mut count).expect("explores");
    let wall = start.elapsed().as_secs_f64();
    let secs = match (cpu0, cpu_secs()) {
        (Some(a), Some(b)) => b - a,
        _ => wall,
    };
    println!(
        "{family:<9} {n:>3} {:>10} {:>10} {secs:>10.3} {wall:>10.3} {:>12.0} {:>8.1} {:>10}",
        count.executions,
        stats.states,
        count.executions as f64 / wall,
        peak_kib().map_or(f64::NAN, |k| k as f64 / 1024.0),
        count.races,
    );
}

/// Counts executions and races; on several jobs, per worker, summed.
#[derive(Default)]
struct Count {
    executions: u64,
    races: u64,
}

impl Observer for Count {
    fn execution(&mut self, e: Execution) -> Flow {
        self.executions += 1;
        self.races += e.races.len() as u64;
        Flow::Continue
    }

    fn needs_clean(&self) -> bool {
        false
    }

    fn clean(&mut self, _: Ending) -> Flow {
        self.executions += 1;
        Flow::Continue
    }
}

impl Forkable for Count {
    type Part = Count;
    type Factory = ();
    fn factory(&self) {}
    fn part(_: &()) -> Count {
        Count::default()
    }
    fn join(&mut self, part: Count, _: &Stats) -> Join {
        self.executions += part.executions;
        self.races += part.races;
        Join::Continue
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if args.first().map(String::as_str) == Some("--one") {
        let n = args.get(2).and_then(|v| v.parse().ok()).unwrap_or(4);
        let jobs = args.get(3).and_then(|v| v.parse().ok()).unwrap_or(1);
        one(&args[1], n, jobs);
        return;
    }
    let family = args.first().cloned().unwrap_or_else(|| "lb".into());
    let from: u32 = args.get(1).and_then(|v| v.parse().ok()).unwrap_or(2);
    let to: u32 = args.get(2).and_then(|v| v.parse().ok()).unwrap_or(12);
    let jobs: usize = args.get(3).and_then(|v| v.parse().ok()).unwrap_or(1);
    println!(
        "{:<9} {:>3} {:>10} {:>10} {:>10} {:>10} {:>12} {:>8} {:>10}",
        "family", "n", "execs", "states", "cpu s", "wall s", "execs/wall s", "peak MB", "races"
    );
    let exe = std::env::current_exe().expect("the benchmark knows its own path");
    for n in from..=to {
        let status = Command::new(&exe)
            .args(["--one", &family, &n.to_string(), &jobs.to_string()])
            .status();
        if !status.is_ok_and(|s| s.success()) {
            eprintln!("{family} {n}: the child failed");
            break;
        }
    }
}
