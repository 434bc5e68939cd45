//! A counting semaphore that caps how many solver processes run at once.
//!
//! Every [`Solver`](crate::Solver) takes a [`Permit`] *before* it spawns its
//! process and gives it back only *after* the process has been killed and
//! reaped, so the number of live solver processes started through one
//! [`ProcessLimit`] never exceeds its maximum. The process-wide default,
//! [`ProcessLimit::global`], allows one solver per CPU; the CLI may change
//! it with [`ProcessLimit::set_max`].
//!
//! No deadlock: a thread that already holds a permit never waits for
//! another (it takes one past the maximum), so threads that each hold a
//! solver and start a second cannot wait for each other forever. The cap
//! is then exceeded by at most the number of such nested starts.

use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError};
use std::thread::ThreadId;

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
    /// Permits held per thread that took them.
    held: HashMap<ThreadId, usize>,
}

/// One slot of a [`ProcessLimit`], given back when dropped.
#[derive(Debug)]
pub struct Permit {
    limit: Arc<ProcessLimit>,
    owner: ThreadId,
}

impl ProcessLimit {
    /// A new limit allowing `max` processes at once (at least one).
    pub fn new(max: usize) -> Arc<ProcessLimit> {
        Arc::new(ProcessLimit {
            state: Mutex::new(State {
                max: max.max(1),
                in_use: 0,
                peak: 0,
                held: HashMap::new(),
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

    /// Waits for a free slot and takes it; a thread that holds a permit
    /// already takes one at once (see the module docs).
    pub fn acquire(self: &Arc<Self>) -> Permit {
        let owner = std::thread::current().id();
        let mut state = self.lock();
        while state.in_use >= state.max && !state.held.contains_key(&owner) {
            state = self
                .freed
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        state.in_use += 1;
        state.peak = state.peak.max(state.in_use);
        *state.held.entry(owner).or_insert(0) += 1;
        Permit {
            limit: Arc::clone(self),
            owner,
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
        if let Some(n) = state.held.get_mut(&self.owner) {
            *n -= 1;
            if *n == 0 {
                state.held.remove(&self.owner);
            }
        }
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

    /// Two threads that each hold the only two permits and each ask for a
    /// second do not wait for each other forever.
    #[test]
    fn a_nested_acquire_never_deadlocks() {
        let limit = ProcessLimit::new(2);
        let barrier = Arc::new(std::sync::Barrier::new(2));
        let threads: Vec<_> = (0..2)
            .map(|_| {
                let (limit, barrier) = (limit.clone(), barrier.clone());
                std::thread::spawn(move || {
                    let _outer = limit.acquire();
                    barrier.wait();
                    let _inner = limit.acquire();
                })
            })
            .collect();
        for t in threads {
            t.join().expect("worker thread does not panic");
        }
        assert_eq!(limit.in_use(), 0);
        // A thread holding nothing still waits for a free slot.
        let a = limit.acquire();
        let b = limit.acquire();
        let (tx, rx) = std::sync::mpsc::channel();
        let waiter = {
            let limit = limit.clone();
            std::thread::spawn(move || {
                let _p = limit.acquire();
                tx.send(()).expect("the test receives");
            })
        };
        assert!(rx.recv_timeout(Duration::from_millis(50)).is_err());
        drop((a, b));
        rx.recv_timeout(Duration::from_secs(10))
            .expect("a freed slot wakes the waiter");
        waiter.join().expect("waiter does not panic");
    }
}
