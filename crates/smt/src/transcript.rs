//! A record of a solver session, printable as a replayable `.smt2` file.
//!
//! Every command a [`Solver`](crate::Solver) sends is recorded verbatim, in
//! order, before it is written to the solver; answers, the command line and
//! watchdog events are recorded as `;` comments, which solvers ignore. So
//! `z3 dump.smt2` (or `cvc5 --incremental dump.smt2`) replays the session.
//!
//! A `Transcript` is a cheap handle (`Clone` shares the record) and stays
//! readable after its solver is gone. Give each solver its own transcript:
//! solvers running in parallel on one transcript interleave their commands.

use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// A shared, append-only record of commands and comments.
#[derive(Clone, Debug, Default)]
pub struct Transcript {
    lines: Arc<Mutex<Vec<Line>>>,
}

#[derive(Clone, Debug)]
enum Line {
    Command(String),
    Comment(String),
}

impl Transcript {
    /// An empty transcript.
    pub fn new() -> Transcript {
        Transcript::default()
    }

    /// The commands recorded so far, without comments.
    pub fn commands(&self) -> Vec<String> {
        self.lock()
            .iter()
            .filter_map(|line| match line {
                Line::Command(c) => Some(c.clone()),
                Line::Comment(_) => None,
            })
            .collect()
    }

    /// Whether nothing has been recorded.
    pub fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }

    pub(crate) fn command(&self, text: &str) {
        self.lock().push(Line::Command(text.to_owned()));
    }

    /// Records `text` as comment lines (each line of it prefixed `; `).
    pub(crate) fn comment(&self, text: &str) {
        let mut lines = self.lock();
        for line in text.lines() {
            lines.push(Line::Comment(line.to_owned()));
        }
    }

    // Each push is one statement, so the record stays consistent even if a
    // thread panicked while holding the lock.
    fn lock(&self) -> MutexGuard<'_, Vec<Line>> {
        self.lines.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl fmt::Display for Transcript {
    /// The session as SMT-LIB2 text, one command per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for line in self.lock().iter() {
            match line {
                Line::Command(c) => writeln!(f, "{c}")?,
                Line::Comment(c) => writeln!(f, "; {c}")?,
            }
        }
        Ok(())
    }
}
