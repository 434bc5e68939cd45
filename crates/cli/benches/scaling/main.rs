//! Seed 002 Claim 2 (Fig. 7 and 8): `warpsafe check` on the five synthetic
//! scaling families, sizes 1..50, with wall time and peak memory (solver
//! included) per size. Every generated kernel is DRF; a run that does not
//! prove it is reported as such.
//!
//! `cargo bench -p warpsafe-cli --bench scaling`. Environment:
//! `WARPSAFE_SCALING_SIZES` (default `1,5,10,20,30,40,50`),
//! `WARPSAFE_SCALING_RUNS` (runs per size, default 3; the median time and
//! the largest peak memory are shown), `WARPSAFE_SCALING_FAMILIES`
//! (comma-separated names, default all), `WARPSAFE_SCALING_TIMEOUT` (seconds
//! per run, default 90 as in the paper).

mod families;
#[path = "../measure/mod.rs"]
mod measure;

use families::Family;
use std::time::Duration;

fn env_list(name: &str, default: &str) -> Vec<String> {
    std::env::var(name)
        .unwrap_or_else(|_| default.to_string())
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

fn main() {
    let sizes: Vec<usize> = env_list("WARPSAFE_SCALING_SIZES", "1,5,10,20,30,40,50")
        .iter()
        .filter_map(|s| s.parse().ok())
        .filter(|&s| s >= 1)
        .collect();
    let runs: usize = std::env::var("WARPSAFE_SCALING_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3)
        .max(1);
    let timeout = Duration::from_secs(
        std::env::var("WARPSAFE_SCALING_TIMEOUT")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(90),
    );
    let wanted = env_list("WARPSAFE_SCALING_FAMILIES", "");
    let dir = std::env::temp_dir().join(format!("warpsafe-scaling-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("cannot create {}: {e}", dir.display());
        std::process::exit(2);
    }
    println!("family        size   time(ms)   peak(MB)  verdict");
    let mut all_drf = true;
    for family in Family::ALL {
        if !wanted.is_empty() && !wanted.iter().any(|w| w == family.name()) {
            continue;
        }
        for &size in &sizes {
            let text = families::kernel(family, size);
            let file = dir.join(format!("{}-{size}.cu", family.name()));
            if let Err(e) = std::fs::write(&file, &text) {
                eprintln!("cannot write {}: {e}", file.display());
                std::process::exit(2);
            }
            let header = warpsafe_corpus::parse_header(&text);
            let mut args = vec!["check".to_string(), file.display().to_string()];
            args.extend(header.flags.iter().cloned());
            let (mut times, mut peak, mut verdict) = (Vec::new(), 0.0f64, "DRF");
            for _ in 0..runs {
                match measure::run(&args, timeout) {
                    Ok(r) => {
                        times.push(r.millis);
                        peak = peak.max(r.max_rss_mb);
                        if r.timed_out {
                            // Killed at the timeout (the paper's cutoff).
                            verdict = "TIMEOUT";
                        } else if r.exit != Some(0) || !r.stdout.contains(": DRF") {
                            verdict = "NOT PROVEN";
                        }
                    }
                    Err(e) => {
                        eprintln!("cannot run warpsafe: {e}");
                        std::process::exit(2);
                    }
                }
            }
            all_drf &= verdict == "DRF";
            println!(
                "{:<12} {:>5} {:>10.1} {:>10.1}  {verdict}",
                family.name(),
                size,
                measure::median(&times),
                peak
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    if !all_drf {
        std::process::exit(1);
    }
}
