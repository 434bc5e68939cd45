//! The progress line of `warpsafe explore` on stderr: executions explored,
//! their rate, errors found and partial states, redrawn a few times a
//! second with `indicatif`.
//!
//! It appears only when stderr is a terminal and the kernel has been
//! running for more than a second (short runs and logs stay clean), and is
//! cleared before the results are printed. Invariant: nothing is written
//! to stdout.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

pub struct Progress {
    kernel: String,
    start: Instant,
    enabled: bool,
    bar: Option<ProgressBar>,
    last_draw: Instant,
}

impl Progress {
    /// A progress line for `kernel`; `wanted` false (or stderr not a
    /// terminal) keeps it silent.
    pub fn new(kernel: &str, wanted: bool) -> Progress {
        let now = Instant::now();
        Progress {
            kernel: kernel.to_string(),
            start: now,
            enabled: wanted && std::io::stderr().is_terminal(),
            bar: None,
            last_draw: now,
        }
    }

    pub fn update(&mut self, executions: usize, errors: usize, states: usize) {
        if !self.enabled {
            return;
        }
        let now = Instant::now();
        let elapsed = now - self.start;
        if elapsed < Duration::from_secs(1) || now - self.last_draw < Duration::from_millis(100) {
            return;
        }
        self.last_draw = now;
        let bar = self.bar.get_or_insert_with(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{spinner} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar
        });
        let rate = executions as f64 / elapsed.as_secs_f64();
        bar.set_message(format!(
            "kernel {}: {executions} executions ({rate:.0}/s), {errors} errors, {states} states, {:.0} s",
            self.kernel,
            elapsed.as_secs_f64()
        ));
        bar.tick();
    }

    /// Removes the line.
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}
