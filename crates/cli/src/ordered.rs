//! Runs a list of jobs on several worker threads and hands each result to
//! an observer in list order, as soon as it and every job before it are
//! done: output streams while it stays deterministic (`check` over many
//! files, `corpus`).
//!
//! Workers take jobs in list order from a shared counter (not rayon's
//! splitting, which would start the middle of the list early and hold the
//! output back). Invariant: `emit` sees indices 0, 1, 2, ... once each.
//! Workers have a large stack: the engines recurse over expressions.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Stack size of each worker thread.
const WORKER_STACK: usize = 64 << 20;

/// `work(i)` for every `i < n` on `workers` threads (at least one); `emit`
/// gets `(i, &result)` in order of `i`. Returns the results in order.
pub fn run<T: Send>(
    n: usize,
    workers: usize,
    work: impl Fn(usize) -> T + Sync,
    emit: impl FnMut(usize, &T) + Send,
) -> Vec<T> {
    struct State<T, E> {
        done: Vec<Option<T>>,
        next: usize,
        emit: E,
    }
    let state = Mutex::new(State {
        done: (0..n).map(|_| None).collect(),
        next: 0,
        emit,
    });
    let counter = AtomicUsize::new(0);
    let worker = || loop {
        let i = counter.fetch_add(1, Ordering::Relaxed);
        if i >= n {
            break;
        }
        let result = work(i);
        let mut s = state.lock().unwrap_or_else(|e| e.into_inner());
        s.done[i] = Some(result);
        while s.next < n {
            let State { done, next, emit } = &mut *s;
            match &done[*next] {
                Some(r) => emit(*next, r),
                None => break,
            }
            s.next += 1;
        }
    };
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers.clamp(1, n.max(1)))
            .map(|_| {
                std::thread::Builder::new()
                    .stack_size(WORKER_STACK)
                    .spawn_scoped(scope, worker)
            })
            .collect();
        let mut started = false;
        for h in handles {
            match h {
                Ok(h) => {
                    started = true;
                    if let Err(panic) = h.join() {
                        std::panic::resume_unwind(panic);
                    }
                }
                Err(_) if started => {}
                // No thread could be started: do the work here.
                Err(_) => worker(),
            }
        }
    });
    state
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .done
        .into_iter()
        .map(|r| r.expect("invariant: every job ran before the workers finished"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_emitted_in_order_whatever_finishes_first() {
        let mut seen = Vec::new();
        let out = run(
            50,
            4,
            |i| {
                // Early jobs are slow: later ones finish first.
                std::thread::sleep(std::time::Duration::from_millis(((50 - i) % 7) as u64));
                i * 2
            },
            |i, r| seen.push((i, *r)),
        );
        assert_eq!(out, (0..50).map(|i| i * 2).collect::<Vec<_>>());
        assert_eq!(seen, (0..50).map(|i| (i, i * 2)).collect::<Vec<_>>());
    }

    #[test]
    fn no_jobs_and_one_worker() {
        assert!(run(0, 8, |i| i, |_, _| panic!("nothing to emit")).is_empty());
        assert_eq!(run(3, 0, |i| i, |_, _| {}), [0, 1, 2]);
    }
}
