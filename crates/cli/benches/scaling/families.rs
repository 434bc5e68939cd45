//! The synthetic scaling families of seed 002, Claim 2 (Fig. 7), as CUDA
//! kernels: each family repeats one protocol construct `size` times, and
//! every generated kernel is data-race free and barrier-divergence free.
//!
//! | family | repeated pattern (`T` = `blockDim.x`, one block) |
//! | --- | --- |
//! | accesses | `rd[tid + n_k*T]; wr[tid + k*T]` (`n_k` positive literals, never a write multiplier) |
//! | barriers | `wr[tid]; sync` |
//! | conditionals | `if (tid == k) { wr[tid] }` |
//! | unsync loops | `for (i_k = 0; i_k < n; i_k++) { wr[tid]; <next level> }` |
//! | sync loops | `for (i_k = 0; i_k < n; i_k++) { wr[tid]; sync; <next level> }` |
//!
//! `n` is a kernel parameter (the paper's free thread-global `N`); the
//! launch is one block of 256 threads (line 2 of the header is
//! `//--blockDim=256 --gridDim=1`), so `T` is the paper's thread count. Shared by the `scaling` bench and the
//! correctness test `crates/cli/tests/scaling.rs`.

use std::fmt::Write;

/// One of the five families of Fig. 7.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Accesses,
    Barriers,
    Conditionals,
    UnsyncLoops,
    SyncLoops,
}

impl Family {
    pub const ALL: [Family; 5] = [
        Family::Accesses,
        Family::Barriers,
        Family::Conditionals,
        Family::UnsyncLoops,
        Family::SyncLoops,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Family::Accesses => "accesses",
            Family::Barriers => "barriers",
            Family::Conditionals => "conditionals",
            Family::UnsyncLoops => "unsync-loops",
            Family::SyncLoops => "sync-loops",
        }
    }
}

/// The annotated kernel of `family` with the pattern repeated `size` times
/// (`size >= 1`).
pub fn kernel(family: Family, size: usize) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "//pass\n//--blockDim=256 --gridDim=1");
    let _ = writeln!(
        s,
        "// Seed 002 Fig. 7, family `{}`, size {size} (generated).",
        family.name()
    );
    let _ = writeln!(s, "__global__ void k(int *a, int n) {{");
    let _ = writeln!(s, "  unsigned tid = threadIdx.x;");
    let _ = writeln!(s, "  unsigned T = blockDim.x;");
    match family {
        Family::Accesses => {
            // Reads use multipliers size+1.. and writes 1..=size: no read
            // meets a write, and each thread's writes are its own.
            let _ = writeln!(s, "  int x = 0;");
            for k in 1..=size {
                let _ = writeln!(s, "  x += a[tid + {}u * T];", size + k);
                let _ = writeln!(s, "  a[tid + {k}u * T] = x;");
            }
        }
        Family::Barriers => {
            for _ in 0..size {
                let _ = writeln!(s, "  a[tid] = {size};");
                let _ = writeln!(s, "  __syncthreads();");
            }
        }
        Family::Conditionals => {
            for k in 0..size {
                let _ = writeln!(s, "  if (tid == {k}u) {{ a[tid] = {k}; }}");
            }
        }
        Family::UnsyncLoops | Family::SyncLoops => {
            for k in 1..=size {
                let pad = "  ".repeat(k);
                let _ = writeln!(s, "{pad}for (int i{k} = 0; i{k} < n; i{k}++) {{");
                let _ = writeln!(s, "{pad}  a[tid] = i{k};");
                if family == Family::SyncLoops {
                    let _ = writeln!(s, "{pad}  __syncthreads();");
                }
            }
            for k in (1..=size).rev() {
                let _ = writeln!(s, "{}}}", "  ".repeat(k));
            }
        }
    }
    let _ = writeln!(s, "}}");
    s
}
