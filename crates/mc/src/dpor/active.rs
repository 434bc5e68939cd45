//! Which threads of a launch interact, for `--max-active-threads`.
//!
//! DPOR's cost is exponential in the threads whose events can be ordered
//! in more than one way, not in the grid: a thread that only touches its
//! own locations, or reads what nobody writes, adds its events once to
//! every execution. So the explorer accepts large grids
//! ([`crate::Config::max_threads`]) and counts, over the whole exploration,
//! the *active* threads: those that performed an atomic access or a fence,
//! or accessed a location that another thread writes (or wrote one that
//! another thread accesses). Barriers alone do not make a thread active
//! (they order, they do not branch). When more than
//! [`crate::Config::max_active_threads`] threads are active the exploration
//! stops with [`crate::McError::TooManyActiveThreads`].
//!
//! Invariant: the count only grows, and is a function of the events the
//! exploration has performed so far (not of the order it met them).

use crate::graph::{Event, Kind};

/// Who touched each interned location.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Users {
    Nobody,
    /// One thread so far, and whether it wrote.
    One {
        thread: usize,
        wrote: bool,
    },
    /// Two threads or more, none wrote so far (they are in `readers`).
    Readers,
    /// Two threads or more, one of them a writer: every user is active.
    Shared,
}

/// The active threads seen so far.
#[derive(Clone, Debug)]
pub(super) struct Active {
    users: Vec<Users>,
    /// Per thread, whether it is active.
    active: Vec<bool>,
    /// Per location in [`Users::Readers`], its readers (activated when
    /// someone writes there).
    readers: Vec<Vec<usize>>,
    count: usize,
}

impl Active {
    pub fn new(threads: usize) -> Active {
        Active {
            users: Vec::new(),
            active: vec![false; threads],
            readers: Vec::new(),
            count: 0,
        }
    }

    /// The number of active threads.
    pub fn count(&self) -> usize {
        self.count
    }

    fn activate(&mut self, t: usize) {
        if let Some(a) = self.active.get_mut(t) {
            if !*a {
                *a = true;
                self.count += 1;
            }
        }
    }

    /// Records event `e` at interned location `loc` (if any).
    pub fn note(&mut self, e: &Event, loc: Option<usize>) {
        let t = e.id.thread;
        // Barrier events carry an acquire-release order but do not branch.
        if e.kind != Kind::Barrier && (e.is_atomic() || e.kind == Kind::Fence) {
            self.activate(t);
        }
        let Some(loc) = loc else {
            return;
        };
        while self.users.len() <= loc {
            self.users.push(Users::Nobody);
            self.readers.push(Vec::new());
        }
        let writes = e.is_write();
        let users = match self.users[loc] {
            Users::Nobody => Users::One {
                thread: t,
                wrote: writes,
            },
            Users::One { thread, wrote } if thread == t => Users::One {
                thread,
                wrote: wrote || writes,
            },
            Users::One { thread, wrote } if wrote || writes => {
                self.activate(thread);
                self.activate(t);
                Users::Shared
            }
            Users::One { thread, .. } => {
                self.readers[loc] = vec![thread, t];
                Users::Readers
            }
            Users::Readers if writes => {
                for r in std::mem::take(&mut self.readers[loc]) {
                    self.activate(r);
                }
                self.activate(t);
                Users::Shared
            }
            Users::Readers => {
                if !self.readers[loc].contains(&t) {
                    self.readers[loc].push(t);
                }
                Users::Readers
            }
            Users::Shared => {
                self.activate(t);
                Users::Shared
            }
        };
        self.users[loc] = users;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{EventId, Order, ThreadId};

    fn ev(thread: usize, kind: Kind) -> Event {
        Event {
            id: EventId { thread, index: 0 },
            thread: ThreadId {
                block: 0,
                thread: thread as u32,
            },
            kind,
            loc: None,
            read_value: None,
            written_value: None,
            order: if kind == Kind::Fence {
                Order::SeqCst
            } else {
                Order::NonAtomic
            },
            scope: None,
            span: warpsafe_ir::Span::new(warpsafe_source::FileId(0), 0, 0),
            barrier: None,
        }
    }

    #[test]
    fn sharing_with_a_writer_or_atomics_make_threads_active() {
        let mut a = Active::new(4);
        // Private writes, and reads that nobody writes: inactive.
        a.note(&ev(0, Kind::Write), Some(0));
        a.note(&ev(1, Kind::Write), Some(1));
        a.note(&ev(0, Kind::Read), Some(2));
        a.note(&ev(1, Kind::Read), Some(2));
        a.note(&ev(2, Kind::Read), Some(2));
        assert_eq!(a.count(), 0);
        // A write to the read-only location activates its readers.
        a.note(&ev(3, Kind::Write), Some(2));
        assert_eq!(a.count(), 4);
        let mut b = Active::new(3);
        b.note(&ev(0, Kind::Write), Some(0));
        b.note(&ev(1, Kind::Read), Some(0));
        assert_eq!(b.count(), 2);
        let mut bar = ev(2, Kind::Barrier);
        bar.order = Order::AcqRel;
        b.note(&bar, None);
        assert_eq!(b.count(), 2, "barriers do not activate");
        b.note(&ev(2, Kind::Fence), None);
        assert_eq!(b.count(), 3);
    }
}
