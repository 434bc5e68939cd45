//! Check time per kernel over a folder of annotated kernels: `warpsafe
//! check FILE FLAGS` (flags from line 2 of each header, `${KERNEL_DIR}`
//! substituted) run one at a time as a subprocess, with its wall time and
//! peak memory (solver included, see `measure`). Prints the median, p95 and
//! maximum time, how many kernels finish under one second, the slowest
//! kernels and the verdicts (exit statuses).
//!
//! `cargo bench -p warpsafe-cli --bench check_corpus [-- DIR]`; the folder
//! is the first argument that is not a flag, else `WARPSAFE_BENCH_DIR`,
//! else the repository's `tests/kernels`. `WARPSAFE_BENCH_TIMEOUT`: seconds
//! per kernel (default 60).

#[path = "../measure/mod.rs"]
mod measure;

use std::path::{Path, PathBuf};
use std::time::Duration;

fn kernels(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "cu"))
        .map(|e| e.into_path())
        .collect();
    files.sort();
    files
}

fn main() {
    let dir = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("WARPSAFE_BENCH_DIR").map(PathBuf::from))
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/kernels"));
    let timeout = Duration::from_secs(
        std::env::var("WARPSAFE_BENCH_TIMEOUT")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(60),
    );
    let mut rows: Vec<(String, measure::Run)> = Vec::new();
    for file in kernels(&dir) {
        let Ok(bytes) = std::fs::read(&file) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let header = warpsafe_corpus::parse_header(&text);
        if header.expectation.is_none() {
            continue;
        }
        let kernel_dir = file
            .parent()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        let mut args = vec!["check".to_string(), file.display().to_string()];
        args.extend(
            header
                .flags
                .iter()
                .map(|f| warpsafe_corpus::substitute_kernel_dir(f, &kernel_dir)),
        );
        match measure::run(&args, timeout) {
            Ok(r) => {
                let rel = file
                    .strip_prefix(&dir)
                    .unwrap_or(&file)
                    .display()
                    .to_string();
                rows.push((rel, r));
            }
            Err(e) => {
                eprintln!("cannot run warpsafe: {e}");
                std::process::exit(2);
            }
        }
    }
    if rows.is_empty() {
        eprintln!("no annotated kernels under {}", dir.display());
        std::process::exit(2);
    }
    let times: Vec<f64> = rows.iter().map(|(_, r)| r.millis).collect();
    let peaks: Vec<f64> = rows.iter().map(|(_, r)| r.max_rss_mb).collect();
    let under = times.iter().filter(|&&t| t < 1000.0).count();
    let count = |code: Option<i32>| rows.iter().filter(|(_, r)| r.exit == code).count();
    println!("folder: {}", dir.display());
    println!(
        "kernels: {}  (exit 0 proven: {}, exit 1 errors found: {}, exit 2 unknown/unusable: {}, timed out: {})",
        rows.len(),
        count(Some(0)),
        count(Some(1)),
        count(Some(2)),
        rows.iter().filter(|(_, r)| r.timed_out).count()
    );
    println!(
        "time (ms): median {:.1}  p95 {:.1}  max {:.1}  under 1 s: {under}/{}",
        measure::median(&times),
        measure::percentile(&times, 95.0),
        measure::percentile(&times, 100.0),
        rows.len()
    );
    println!(
        "peak memory (MB): median {:.1}  p95 {:.1}  max {:.1}",
        measure::median(&peaks),
        measure::percentile(&peaks, 95.0),
        measure::percentile(&peaks, 100.0)
    );
    rows.sort_by(|a, b| b.1.millis.total_cmp(&a.1.millis));
    println!("slowest:");
    for (name, r) in rows.iter().take(10) {
        let verdict = r.stdout.lines().next().unwrap_or("").trim();
        println!(
            "  {:>9.1} ms {:>7.1} MB  exit {}  {name}\n      {verdict}",
            r.millis,
            r.max_rss_mb,
            r.exit.map_or("killed".to_string(), |c| c.to_string())
        );
    }
}
