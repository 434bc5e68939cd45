//! Measuring one `warpsafe` run as a subprocess: wall time, peak memory
//! and exit status, for the bench binaries (`scaling`, `check_corpus`).
//!
//! Peak memory is the `ru_maxrss` that `wait4` returns for the child:
//! Linux reports the largest resident set of the child and of every
//! descendant it waited for, so it covers the z3 solver processes that
//! `warpsafe check` starts and reaps. It is the peak of the largest
//! single process, not the sum over processes alive at the same time.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The `warpsafe` binary of this build.
pub fn warpsafe() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_warpsafe"))
}

/// One finished (or killed) run.
pub struct Run {
    pub millis: f64,
    /// Peak resident set, in MiB.
    pub max_rss_mb: f64,
    /// `None` when killed (signal or timeout).
    pub exit: Option<i32>,
    pub stdout: String,
    pub timed_out: bool,
}

/// Runs `warpsafe ARGS...`, killing it after `timeout`.
pub fn run(args: &[String], timeout: Duration) -> std::io::Result<Run> {
    let start = Instant::now();
    let mut child = Command::new(warpsafe())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let pid = child.id() as libc::pid_t;
    let mut stdout_pipe = child.stdout.take();
    // Drain stdout on a thread so a chatty run never blocks on the pipe.
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(p) = stdout_pipe.as_mut() {
            let _ = std::io::Read::read_to_string(p, &mut s);
        }
        s
    });
    let mut status: libc::c_int = 0;
    // SAFETY: an all-zero `rusage` is a valid value of this plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut timed_out = false;
    loop {
        // SAFETY: `pid` is our child, not yet reaped (only this loop waits
        // for it); `status` and `usage` are valid for writes.
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            break;
        }
        if r < 0 {
            return Err(std::io::Error::last_os_error());
        }
        if !timed_out && start.elapsed() > timeout {
            timed_out = true;
            let _ = child.kill();
        }
        std::thread::sleep(Duration::from_micros(500));
    }
    let millis = start.elapsed().as_secs_f64() * 1000.0;
    let stdout = reader.join().unwrap_or_default();
    let exit = if libc::WIFEXITED(status) {
        Some(libc::WEXITSTATUS(status))
    } else {
        None
    };
    Ok(Run {
        millis,
        // Linux reports kilobytes.
        max_rss_mb: usage.ru_maxrss as f64 / 1024.0,
        exit,
        stdout,
        timed_out,
    })
}

/// The median of `xs` (0 when empty).
pub fn median(xs: &[f64]) -> f64 {
    percentile(xs, 50.0)
}

/// The `p`-th percentile of `xs` by the nearest-rank method (0 when
/// empty).
pub fn percentile(xs: &[f64], p: f64) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let rank = ((p / 100.0) * v.len() as f64).ceil() as usize;
    v[rank.clamp(1, v.len()) - 1]
}
