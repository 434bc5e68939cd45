//! The progress line of `warpsafe check` on stderr: kernels checked of the
//! run's total, time, and the kernels being checked now.
//!
//! It appears only when stderr is a terminal and the run has taken more
//! than a second (short runs and logs stay clean); reports printed while
//! it shows go through [`Progress::print`], which lifts the line first.
//! Invariant: without a terminal, `print` is a plain `print!`.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub struct Progress {
    bar: ProgressBar,
    /// `file:kernel` of the kernels being checked.
    running: Arc<Mutex<Vec<String>>>,
}

impl Progress {
    /// A progress line for `total` kernels, shown after a second when
    /// stderr is a terminal.
    pub fn start(total: usize) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{spinner} [{elapsed}] {pos}/{len} kernels checked {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        if std::io::stderr().is_terminal() && total > 0 {
            let shown = bar.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_secs(1));
                if !shown.is_finished() {
                    shown.set_draw_target(ProgressDrawTarget::stderr());
                    shown.enable_steady_tick(Duration::from_millis(200));
                }
            });
        }
        Progress {
            bar,
            running: Arc::new(Mutex::new(Vec::new())),
        }
    }

    fn show_running(&self, running: &[String]) {
        let mut msg = running
            .iter()
            .take(3)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ");
        if running.len() > 3 {
            msg.push_str(", ...");
        }
        if !msg.is_empty() {
            msg = format!("(now: {msg})");
        }
        self.bar.set_message(msg);
    }

    /// A kernel starts; returns its name for [`Progress::finished`].
    pub fn started(&self, file: &Path, kernel: &str) -> String {
        let name = format!(
            "{}:{kernel}",
            file.file_name().map_or_else(
                || file.display().to_string(),
                |f| f.to_string_lossy().into_owned()
            )
        );
        let mut r = self.running.lock().unwrap_or_else(|e| e.into_inner());
        r.push(name.clone());
        self.show_running(&r);
        name
    }

    /// The kernel `name` is done.
    pub fn finished(&self, name: &str) {
        let mut r = self.running.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = r.iter().position(|n| n == name) {
            r.remove(i);
        }
        self.show_running(&r);
        self.bar.inc(1);
    }

    /// Prints `text` to stdout above the progress line.
    pub fn print(&self, text: &str) {
        self.bar.suspend(|| {
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(text.as_bytes());
            let _ = out.flush();
        });
    }

    /// Removes the line.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
