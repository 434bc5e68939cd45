//! A counting semaphore that caps how many solver processes run at once.
//!
//! Every [`Solver`](crate::Solver) takes a [`Permit`] *before* it spawns its
//! process and gives it back only *after* the process has been killed and
//! reaped, so the number of live solver processes started through one
//! [`ProcessLimit`] never exceeds its maximum. The process-wide default,
//! [`ProcessLimit::global`], allows one solver per CPU; the CLI may change
//! it with [`ProcessLimit::set_max`].
//!
//! Deadlock rule: a thread must not wait for a second solver while it holds
//! one, unless the limit is larger than the number of such threads.

use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError};

/// A cap on concurrently running solver processes.
#[derive(Debug)]
pub struct ProcessLimit {
    state: Mutex<State>,
    freed: Condvar,
}

#[derive(Debug)]
struct State {
    max: usize,
    in_use: usize,
    peak: usize,
}

/// One slot of a [`ProcessLimit`], given back when dropped.
#[derive(Debug)]
pub struct Permit {
    limit: Arc<ProcessLimit>,
}

impl ProcessLimit {
    /// A new limit allowing `max` processes at once (at least one).
    pub fn new(max: usize) -> Arc<ProcessLimit> {
        Arc::new(ProcessLimit {
            state: Mutex::new(State {
                max: max.max(1),
                in_use: 0,
                peak: 0,
            }),
            freed: Condvar::new(),
        })
    }

    /// The process-wide limit, initially the number of CPUs.
    pub fn global() -> Arc<ProcessLimit> {
        static GLOBAL: OnceLock<Arc<ProcessLimit>> = OnceLock::new();
        GLOBAL
            .get_or_init(|| {
                let cpus = std::thread::available_parallelism().map_or(1, usize::from);
                ProcessLimit::new(cpus)
            })
            .clone()
    }

    /// Changes the maximum (at least one). Lowering it does not stop running
    /// solvers; new ones wait until fewer than `max` run.
    pub fn set_max(&self, max: usize) {
        self.lock().max = max.max(1);
        self.freed.notify_all();
    }

    /// The current maximum.
    pub fn max(&self) -> usize {
        self.lock().max
    }

    /// How many permits are held now.
    pub fn in_use(&self) -> usize {
        self.lock().in_use
    }

    /// The most permits ever held at the same time.
    pub fn peak(&self) -> usize {
        self.lock().peak
    }

    /// Waits for a free slot and takes it.
    pub fn acquire(self: &Arc<Self>) -> Permit {
        let mut state = self.lock();
        while state.in_use >= state.max {
            state = self
                .freed
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        state.in_use += 1;
        state.peak = state.peak.max(state.in_use);
        Permit {
            limit: Arc::clone(self),
        }
    }

    // The state is a few counters updated in single statements, so it is
    // consistent even if a holder of the lock panicked.
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut state = self.limit.lock();
        state.in_use -= 1;
        drop(state);
        self.limit.freed.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    #[test]
    fn never_exceeds_max() {
        let limit = ProcessLimit::new(3);
        let now = Arc::new(AtomicUsize::new(0));
        let seen = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..12)
            .map(|_| {
                let (limit, now, seen) = (limit.clone(), now.clone(), seen.clone());
                std::thread::spawn(move || {
                    let _permit = limit.acquire();
                    let n = now.fetch_add(1, Ordering::SeqCst) + 1;
                    seen.fetch_max(n, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(10));
                    now.fetch_sub(1, Ordering::SeqCst);
                })
            })
            .collect();
        for t in threads {
            t.join().expect("worker thread does not panic");
        }
        assert!(seen.load(Ordering::SeqCst) <= 3);
        assert!(limit.peak() <= 3);
        assert_eq!(limit.in_use(), 0);
    }

    #[test]
    fn zero_means_one() {
        let limit = ProcessLimit::new(0);
        assert_eq!(limit.max(), 1);
        limit.set_max(5);
        assert_eq!(limit.max(), 5);
        assert!(ProcessLimit::global().max() >= 1);
    }
}
