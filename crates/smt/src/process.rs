//! The solver subprocess and the threads that talk to it.
//!
//! The caller's thread never blocks on a pipe: a writer thread feeds stdin,
//! a reader thread splits stdout into s-expressions and sends them over a
//! channel, and a third thread keeps the tail of stderr for error messages.
//! Waiting for an answer is `recv_timeout` on that channel, which is the
//! wall-clock watchdog: when it expires the caller kills the child.
//!
//! Invariants:
//! - The child is killed and reaped when the [`SolverProcess`] is dropped,
//!   so no solver outlives it (a wrapper script must `exec` the solver).
//! - The helper threads hold no reference to the child; they end on their
//!   own when the pipes close, and nobody joins them, so a grandchild that
//!   keeps a pipe open cannot hang the caller.
//! - Output that is not an s-expression, or a stdout that closes, becomes an
//!   [`Event`] the caller turns into an `SmtError`; it is never dropped.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use crate::error::SmtError;
use crate::sexp::{parse_prefix, Sexp};
use crate::value::truncate;

/// Solver output larger than this without completing an s-expression is
/// treated as garbage.
const MAX_PENDING_OUTPUT: usize = 256 << 20;
/// How much of stderr is kept for error messages.
const STDERR_TAIL: usize = 8 << 10;
/// How long to wait for a process whose stdout closed to exit, and for its
/// stderr to be drained, before reporting.
const REAP_WAIT: Duration = Duration::from_millis(500);

/// What the reader thread saw on stdout.
#[derive(Debug)]
pub(crate) enum Event {
    /// One complete s-expression.
    Answer(Sexp),
    /// Text that does not parse; the reader stops after it.
    Garbage(String),
    /// stdout closed (or could not be read).
    Eof,
}

/// Why no answer came.
#[derive(Debug)]
pub(crate) enum WaitError {
    /// The deadline passed; the process is still running.
    Deadline,
    /// stdout closed; the reader has nothing more.
    Eof,
}

/// A running solver process.
#[derive(Debug)]
pub(crate) struct SolverProcess {
    child: Child,
    program: PathBuf,
    stdin: Option<Sender<Vec<u8>>>,
    stdout: Receiver<Event>,
    stderr: Arc<Mutex<String>>,
    stderr_done: Receiver<()>,
    reaped: Option<String>,
}

impl SolverProcess {
    /// Starts `program args...` with piped stdin, stdout and stderr.
    pub(crate) fn spawn(program: &Path, args: &[String]) -> Result<SolverProcess, SmtError> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|source| SmtError::Spawn {
                program: program.to_owned(),
                source,
            })?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            // Unreachable with Stdio::piped(), but a failure is not a panic.
            let _ = child.kill();
            let _ = child.wait();
            return Err(SmtError::Spawn {
                program: program.to_owned(),
                source: std::io::Error::other("solver pipes were not created"),
            });
        };

        let (to_writer, from_caller) = mpsc::channel();
        let (to_caller, from_reader) = mpsc::channel();
        let stderr_tail = Arc::new(Mutex::new(String::new()));
        let (stderr_finished, stderr_done) = mpsc::channel();
        let spawned = spawn_thread("smt-stdin", move || write_loop(stdin, from_caller))
            .and_then(|()| spawn_thread("smt-stdout", move || read_loop(stdout, to_caller)))
            .and_then(|()| {
                let tail = Arc::clone(&stderr_tail);
                spawn_thread("smt-stderr", move || {
                    stderr_loop(stderr, &tail);
                    let _ = stderr_finished.send(());
                })
            });
        if let Err(source) = spawned {
            let _ = child.kill();
            let _ = child.wait();
            return Err(SmtError::Spawn {
                program: program.to_owned(),
                source,
            });
        }
        Ok(SolverProcess {
            child,
            program: program.to_owned(),
            stdin: Some(to_writer),
            stdout: from_reader,
            stderr: stderr_tail,
            stderr_done,
            reaped: None,
        })
    }

    /// The program that was started.
    pub(crate) fn program(&self) -> &Path {
        &self.program
    }

    /// Queues `bytes` for the solver's stdin. A solver that has exited is
    /// noticed by the next [`SolverProcess::recv`] (as `Eof`), not here.
    pub(crate) fn send(&mut self, bytes: Vec<u8>) {
        if let Some(stdin) = &self.stdin {
            if stdin.send(bytes).is_err() {
                // The writer stopped (broken pipe): the solver is gone.
                self.stdin = None;
            }
        }
    }

    /// The next answer, waiting until `deadline` (for ever if `None`).
    pub(crate) fn recv(&mut self, deadline: Option<Instant>) -> Result<Event, WaitError> {
        let event = match deadline {
            None => self.stdout.recv().map_err(|_| WaitError::Eof),
            Some(d) => {
                let left = d.saturating_duration_since(Instant::now());
                self.stdout.recv_timeout(left).map_err(|e| match e {
                    RecvTimeoutError::Timeout => WaitError::Deadline,
                    RecvTimeoutError::Disconnected => WaitError::Eof,
                })
            }
        }?;
        match event {
            Event::Eof => Err(WaitError::Eof),
            other => Ok(other),
        }
    }

    /// Kills the process (if still running) and reaps it. Idempotent.
    pub(crate) fn kill(&mut self) {
        if self.reaped.is_none() {
            self.stdin = None;
            let _ = self.child.kill();
            let status = self.child.wait();
            self.reaped = Some(match status {
                Ok(s) => s.to_string(),
                Err(e) => format!("wait failed: {e}"),
            });
        }
    }

    /// After stdout closed: waits briefly for the process to exit, kills
    /// it if it does not, and returns an `Exited` error with its status and
    /// stderr tail.
    pub(crate) fn exited_error(&mut self) -> SmtError {
        if self.reaped.is_none() {
            let start = Instant::now();
            loop {
                match self.child.try_wait() {
                    Ok(Some(s)) => {
                        self.reaped = Some(s.to_string());
                        break;
                    }
                    Ok(None) if start.elapsed() < REAP_WAIT => {
                        thread::sleep(Duration::from_millis(5));
                    }
                    _ => {
                        self.kill();
                        if let Some(r) = &mut self.reaped {
                            r.insert_str(0, "closed its output; killed, ");
                        }
                        break;
                    }
                }
            }
        }
        let _ = self.stderr_done.recv_timeout(REAP_WAIT);
        SmtError::Exited {
            status: self.reaped.clone().unwrap_or_default(),
            stderr: self.stderr_tail(),
        }
    }

    /// The last few KiB the solver wrote on stderr.
    pub(crate) fn stderr_tail(&self) -> String {
        self.stderr
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl Drop for SolverProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

fn spawn_thread(name: &str, body: impl FnOnce() + Send + 'static) -> std::io::Result<()> {
    thread::Builder::new()
        .name(name.to_owned())
        .spawn(body)
        .map(drop)
}

fn write_loop(mut stdin: ChildStdin, chunks: Receiver<Vec<u8>>) {
    #[cfg(unix)]
    block_sigpipe();
    for chunk in chunks {
        if stdin
            .write_all(&chunk)
            .and_then(|()| stdin.flush())
            .is_err()
        {
            return;
        }
    }
    // The caller hung up: dropping stdin closes the pipe, so the solver sees
    // end of input.
}

/// Makes a write to a solver that has exited fail with `EPIPE` in this
/// thread (the writer's error path) instead of raising `SIGPIPE`. A
/// command-line program restores `SIGPIPE`'s default action so that
/// `warpsafe ... | head` ends quietly; without this, a solver that crashes
/// or is killed would kill the whole program with it. A `SIGPIPE` raised
/// while blocked stays pending on this thread and is discarded when it ends.
#[cfg(unix)]
fn block_sigpipe() {
    // SAFETY: `set` is a local `sigset_t`, initialised by `sigemptyset`
    // before use; `pthread_sigmask` changes only the calling thread's mask
    // and accepts a null pointer for the old mask.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGPIPE);
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
    }
}

fn read_loop(mut stdout: impl Read, answers: Sender<Event>) {
    let mut pending: Vec<u8> = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        let (n, at_eof) = match stdout.read(&mut chunk) {
            Ok(0) | Err(_) => (0, true),
            Ok(n) => (n, false),
        };
        pending.extend_from_slice(&chunk[..n]);
        loop {
            match parse_prefix(&pending, at_eof) {
                Ok(Some((sexp, used))) => {
                    pending.drain(..used);
                    if answers.send(Event::Answer(sexp)).is_err() {
                        return;
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    let text = String::from_utf8_lossy(&pending);
                    let _ = answers.send(Event::Garbage(format!("{}: {e}", truncate(&text))));
                    return;
                }
            }
        }
        if at_eof {
            // Only whitespace or comments can be left here.
            let _ = answers.send(Event::Eof);
            return;
        }
        if pending.len() > MAX_PENDING_OUTPUT {
            let text = String::from_utf8_lossy(&pending[..500]);
            let _ = answers.send(Event::Garbage(format!(
                "{text}... (over {MAX_PENDING_OUTPUT} bytes without a complete answer)"
            )));
            return;
        }
    }
}

fn stderr_loop(mut stderr: impl Read, tail: &Mutex<String>) {
    let mut chunk = [0u8; 4096];
    while let Ok(n @ 1..) = stderr.read(&mut chunk) {
        let mut text = tail.lock().unwrap_or_else(PoisonError::into_inner);
        text.push_str(&String::from_utf8_lossy(&chunk[..n]));
        if text.len() > STDERR_TAIL {
            let mut cut = text.len() - STDERR_TAIL;
            while !text.is_char_boundary(cut) {
                cut += 1;
            }
            text.drain(..cut);
        }
    }
}
