//! `warpsafe check` over a folder: as one command on all cores, as one
//! command on one core (`-j 1`), and as one `warpsafe check FILE` per file
//! one after the other (what a script did before a run could name many
//! files). Every run has the same flags (`--timeout`, nothing else), so
//! all three check the same kernels; prints the wall times, the
//! speed-ups, and the verdict counts of each (they differ only where a
//! solver query's timeout fell differently under load).
//!
//! `cargo bench -p warpsafe-cli --bench check_many [-- DIR]`; the folder
//! is the first argument that is not a flag, else `WARPSAFE_BENCH_DIR`,
//! else the repository's `tests/kernels`. `WARPSAFE_BENCH_TIMEOUT`: the
//! solver timeout per query (default 5 s).

#[path = "../measure/mod.rs"]
mod measure;

use std::path::{Path, PathBuf};
use std::time::Duration;

/// A whole run may take this long before it is cut.
const RUN_LIMIT: Duration = Duration::from_secs(3600);

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_type().is_file()
                && e.path()
                    .extension()
                    .is_some_and(|x| x == "cu" || x == "cuh")
        })
        .map(|e| e.into_path())
        .collect();
    files.sort();
    files
}

/// How many kernel lines of a text report have each verdict.
fn verdicts(stdout: &str) -> [usize; 4] {
    let mut n = [0; 4];
    for l in stdout.lines().filter(|l| l.starts_with("kernel ")) {
        for (i, w) in [": DRF", ": RACY", ": DIVERGENT", ": UNKNOWN"]
            .iter()
            .enumerate()
        {
            if l.contains(w) {
                n[i] += 1;
            }
        }
    }
    n
}

fn main() {
    let dir = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("WARPSAFE_BENCH_DIR").map(PathBuf::from))
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/kernels"));
    let timeout = std::env::var("WARPSAFE_BENCH_TIMEOUT").unwrap_or_else(|_| "5".into());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let run = |args: Vec<String>| {
        measure::run(&args, RUN_LIMIT).unwrap_or_else(|e| {
            eprintln!("cannot run warpsafe: {e}");
            std::process::exit(2)
        })
    };
    let command = |target: &Path, extra: &[&str]| {
        let mut a = vec![
            "check".to_string(),
            target.display().to_string(),
            "--timeout".to_string(),
            timeout.clone(),
        ];
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let all = run(command(&dir, &[]));
    let one = run(command(&dir, &["-j", "1"]));
    let mut each_ms = Vec::new();
    let mut each_verdicts = [0; 4];
    let list = files(&dir);
    for f in &list {
        let r = run(command(f, &[]));
        if r.timed_out {
            eprintln!("{} ran past {} s", f.display(), RUN_LIMIT.as_secs());
        }
        each_ms.push(r.millis);
        for (a, b) in each_verdicts.iter_mut().zip(verdicts(&r.stdout)) {
            *a += b;
        }
    }
    let each_total: f64 = each_ms.iter().sum();
    println!(
        "folder: {} ({} files, {cores} cores)",
        dir.display(),
        list.len()
    );
    println!("verdicts [DRF, RACY, DIVERGENT, UNKNOWN]:");
    println!("  one command, all cores: {:?}", verdicts(&all.stdout));
    println!("  one command, -j 1:      {:?}", verdicts(&one.stdout));
    println!("  one command per file:   {each_verdicts:?}");
    println!("wall time:");
    println!("  one command, all cores: {:>9.1} s", all.millis / 1000.0);
    println!("  one command, -j 1:      {:>9.1} s", one.millis / 1000.0);
    println!(
        "  one command per file:   {:>9.1} s (median {:.0} ms, p95 {:.0} ms per file)",
        each_total / 1000.0,
        measure::median(&each_ms),
        measure::percentile(&each_ms, 95.0)
    );
    println!(
        "speed-up of one command on all cores: {:.2}x over -j 1, {:.2}x over one command per file",
        one.millis / all.millis,
        each_total / all.millis
    );
    println!(
        "peak memory (MB, solver included): all cores {:.1}, -j 1 {:.1}; exit statuses {:?} / {:?}",
        all.max_rss_mb, one.max_rss_mb, all.exit, one.exit
    );
}
