//! Misbehaving solvers (fake ones, shell scripts) must give `SmtError` or a
//! timeout `Unknown` — never `Unsat`, never a panic or a hang. Also the cap
//! on concurrent solver processes. None of these needs a real solver.
#![cfg(unix)]

mod common;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{answering_script, fake_solver, sat_script};
use warpsafe_smt::{term, CheckResult, ProcessLimit, SmtError, Solver, SolverConfig, Sort};

fn check(config: SolverConfig) -> Result<CheckResult, SmtError> {
    let mut s = Solver::start(config).expect("the fake solver starts");
    let x = s.declare_const("x", &Sort::Int).expect("declare");
    s.assert(&term::gt(x, term::int(0))).expect("assert");
    s.check()
}

#[test]
fn crashing_solver_is_an_error_with_status_and_stderr() {
    let script = "read -r line\necho 'fatal: simulated crash' >&2\nkill -SEGV $$\n";
    match check(fake_solver("crash", script)) {
        Err(SmtError::Exited { status, stderr }) => {
            assert!(status.contains("signal"), "{status}");
            assert!(stderr.contains("simulated crash"), "{stderr}");
        }
        other => panic!("expected Exited, got {other:?}"),
    }
}

#[test]
fn solver_that_exits_is_an_error_and_then_dead() {
    let mut s = Solver::start(fake_solver("exit", "exit 3\n")).expect("starts");
    match s.check() {
        Err(SmtError::Exited { status, .. }) => assert!(status.contains('3'), "{status}"),
        other => panic!("expected Exited, got {other:?}"),
    }
    assert!(matches!(s.check(), Err(SmtError::Dead { .. })));
    assert!(matches!(
        s.assert(&term::bool(true)),
        Err(SmtError::Dead { .. })
    ));
}

#[test]
fn garbage_output_is_an_error() {
    let words = fake_solver("garbage", &answering_script("'Segmentation fault'"));
    assert!(matches!(
        check(words),
        Err(SmtError::UnexpectedResponse { .. })
    ));
    let unbalanced = fake_solver("unbalanced", &answering_script("')) sat'"));
    assert!(matches!(
        check(unbalanced),
        Err(SmtError::UnexpectedResponse { .. })
    ));
    let wrong = fake_solver("wrong", &answering_script("'(sat)'"));
    assert!(matches!(
        check(wrong),
        Err(SmtError::UnexpectedResponse { .. })
    ));
}

#[test]
fn error_before_unsat_is_not_unsat() {
    // An earlier command failed, so this `unsat` is about other assertions.
    let body = answering_script("'(error \"line 2: unknown constant y\")' unsat");
    match check(fake_solver("error", &body)) {
        Err(SmtError::Solver { message }) => {
            assert_eq!(message, "line 2: unknown constant y");
        }
        other => panic!("expected a solver error, got {other:?}"),
    }
    let body = answering_script("unsupported unsat");
    assert!(matches!(
        check(fake_solver("unsupported", &body)),
        Err(SmtError::Unsupported { .. })
    ));
}

#[test]
fn hung_solver_is_killed_by_the_watchdog() {
    let config = fake_solver("hang", "exec sleep 600\n")
        .with_timeout(Some(Duration::from_millis(200)))
        .with_grace(Duration::from_millis(300));
    let mut s = Solver::start(config).expect("starts");
    let start = Instant::now();
    let result = s.check().expect("a timeout is not an error");
    let took = start.elapsed();
    assert_eq!(
        result,
        CheckResult::Unknown("timeout after 200 ms".to_owned())
    );
    assert!(took >= Duration::from_millis(500), "{took:?}");
    assert!(took < Duration::from_secs(2), "{took:?}");
    // Restarted after each kill, up to the limit; then dead.
    for _ in 0..warpsafe_smt::MAX_RESTARTS {
        assert_eq!(
            s.check().expect("restarted"),
            CheckResult::Unknown("timeout after 200 ms".to_owned())
        );
    }
    match s.check() {
        Err(SmtError::Dead { reason }) => assert!(reason.contains("watchdog"), "{reason}"),
        other => panic!("expected Dead, got {other:?}"),
    }
}

/// A solver killed by the watchdog is restarted with every declaration,
/// assertion and open scope it had, and the session goes on: the hung
/// query is the only one lost. The fake solver hangs in its first life
/// and logs what each life receives.
#[test]
fn a_killed_solver_is_restarted_with_its_state() {
    let dir = common::temp_dir("restart");
    let log = dir.join("log");
    let count = dir.join("count");
    let script = format!(
        "n=$(cat {count} 2>/dev/null || echo 0); n=$((n+1)); echo $n > {count}\n\
         while IFS= read -r line; do\n  echo \"$n $line\" >> {log}\n  case \"$line\" in\n    \
         *check-sat*) if [ $n = 1 ]; then exec sleep 600; else echo sat; fi ;;\n  esac\ndone\n",
        count = count.display(),
        log = log.display()
    );
    let config = fake_solver("restart", &script)
        .with_timeout(Some(Duration::from_millis(200)))
        .with_grace(Duration::from_millis(200));
    let mut s = Solver::start(config).expect("starts");
    let x = s.declare_const("x", &Sort::Int).expect("declare");
    s.assert(&term::gt(x.clone(), term::int(0)))
        .expect("assert");
    s.push().expect("push");
    s.assert(&term::lt(x.clone(), term::int(9)))
        .expect("assert");
    s.push().expect("push");
    s.assert(&term::eq(x.clone(), term::int(5)))
        .expect("assert");
    s.pop().expect("pop");
    assert!(s.check().expect("killed, not an error").is_timeout());
    assert_eq!(s.check().expect("restarted"), CheckResult::Sat);
    s.pop().expect("pop");
    assert_eq!(s.depth(), 0);
    assert_eq!(s.check().expect("still usable"), CheckResult::Sat);
    let second: Vec<String> = std::fs::read_to_string(&log)
        .expect("the log exists")
        .lines()
        .filter_map(|l| l.strip_prefix("2 ").map(str::to_owned))
        .collect();
    let sent = second.join("\n");
    assert!(sent.contains("(declare-const x Int)"), "{sent}");
    assert!(sent.contains("(assert (> x 0))"), "{sent}");
    assert!(sent.contains("(push 1)"), "{sent}");
    assert!(sent.contains("(assert (< x 9))"), "{sent}");
    // The popped scope is not sent again.
    assert!(!sent.contains("(assert (= x 5))"), "{sent}");
    // The resource limit of the killed try is not part of the state.
    let replay = &second[..=second
        .iter()
        .position(|l| l == "(assert (< x 9))")
        .expect("replayed")];
    assert!(!replay.iter().any(|l| l.contains("rlimit")), "{sent}");
}

#[test]
fn unanswered_get_value_is_an_error() {
    let config = fake_solver("noval", &sat_script("0"))
        .with_timeout(Some(Duration::from_millis(100)))
        .with_grace(Duration::from_millis(100));
    let mut s = Solver::start(config).expect("starts");
    let x = s.declare_const("x", &Sort::Int).expect("declare");
    assert_eq!(s.check().expect("check"), CheckResult::Sat);
    assert!(matches!(
        s.get_values(&[x]),
        Err(SmtError::Unresponsive { .. })
    ));
}

#[test]
fn missing_binary_gives_install_hint() {
    let config = SolverConfig::z3().with_program("/nonexistent/warpsafe/z3");
    match Solver::start(config) {
        Err(e @ SmtError::NotFound { .. }) => {
            let msg = e.to_string();
            assert!(msg.contains("pip install z3-solver"), "{msg}");
            assert!(msg.contains("apt-get install z3"), "{msg}");
        }
        other => panic!("expected NotFound, got {other:?}"),
    }
    let config = SolverConfig::cvc5().with_program("/nonexistent/warpsafe/cvc5");
    let msg = Solver::start(config).expect_err("missing").to_string();
    assert!(msg.contains("Python API"), "{msg}");
}

#[test]
fn non_executable_file_is_not_found() {
    let file = common::temp_dir("notexec").join("z3");
    std::fs::write(&file, "not a program").expect("write");
    match Solver::start(SolverConfig::z3().with_program(&file)) {
        Err(SmtError::NotFound { message, .. }) => {
            assert!(message.contains("not an executable file"), "{message}");
        }
        other => panic!("expected NotFound, got {other:?}"),
    }
}

/// Counts live child processes of this test process whose command line
/// mentions `needle` (Linux; elsewhere 0). Only direct children count: the
/// fake solver's own forks (for `sleep`) briefly share its command line.
fn live_processes(needle: &str) -> usize {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let me = std::process::id().to_string();
    entries
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter(|e| {
            // `pid (comm) state ppid ...`; comm may hold spaces and parens.
            std::fs::read_to_string(e.path().join("stat")).is_ok_and(|stat| {
                stat.rsplit_once(')')
                    .and_then(|(_, rest)| rest.split_whitespace().nth(1))
                    == Some(me.as_str())
            })
        })
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .filter(|cmd| String::from_utf8_lossy(cmd).contains(needle))
        .count()
}

#[test]
fn concurrent_solvers_never_exceed_the_cap() {
    const CAP: usize = 2;
    const THREADS: usize = 8;
    let limit = ProcessLimit::new(CAP);
    let config = fake_solver("cap", &sat_script("0.05")).with_limit(limit.clone());
    let script = config.args.clone().expect("fake solver has args")[0].clone();

    let inside = Arc::new(AtomicUsize::new(0));
    let max_inside = Arc::new(AtomicUsize::new(0));
    let max_live = Arc::new(AtomicUsize::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let monitor = {
        let (max_live, done, script) = (max_live.clone(), done.clone(), script.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::SeqCst) {
                max_live.fetch_max(live_processes(&script), Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(2));
            }
        })
    };
    let workers: Vec<_> = (0..THREADS)
        .map(|_| {
            let (config, inside, max_inside) = (config.clone(), inside.clone(), max_inside.clone());
            std::thread::spawn(move || {
                for _ in 0..2 {
                    let mut s = Solver::start(config.clone()).expect("starts");
                    let n = inside.fetch_add(1, Ordering::SeqCst) + 1;
                    max_inside.fetch_max(n, Ordering::SeqCst);
                    assert_eq!(s.check().expect("check"), CheckResult::Sat);
                    inside.fetch_sub(1, Ordering::SeqCst);
                    drop(s);
                }
            })
        })
        .collect();
    for w in workers {
        w.join().expect("worker does not panic");
    }
    done.store(true, Ordering::SeqCst);
    monitor.join().expect("monitor does not panic");

    let (inside, live) = (
        max_inside.load(Ordering::SeqCst),
        max_live.load(Ordering::SeqCst),
    );
    assert!(inside <= CAP, "{inside} solvers in use at once");
    assert!(live <= CAP, "{live} solver processes alive at once");
    if cfg!(target_os = "linux") {
        assert!(live >= 1, "the monitor saw no solver process");
    }
    assert!(
        limit.peak() <= CAP && limit.peak() >= 1,
        "peak {}",
        limit.peak()
    );
    assert_eq!(limit.in_use(), 0);
    assert_eq!(live_processes(&script), 0, "every solver was reaped");
}

/// z3 answers a `check-sat-using` whose tactic its time limit stopped with
/// `(error "tactic failed: canceled")`: with a time limit set that is a
/// timeout (`Unknown`), and the session stays usable; without one it is
/// the error it says.
#[test]
fn a_tactic_canceled_by_the_time_limit_is_a_timeout() {
    let body = answering_script("'(error \"tactic failed: canceled\")'");
    let config = fake_solver("canceled", &body).with_timeout(Some(Duration::from_millis(500)));
    let mut s = Solver::start(config).expect("starts");
    for _ in 0..2 {
        assert_eq!(
            s.check().expect("a canceled tactic is not an error"),
            CheckResult::Unknown("timeout after 500 ms".to_owned())
        );
    }
    let untimed = fake_solver("canceled-untimed", &body).with_timeout(None);
    assert!(matches!(check(untimed), Err(SmtError::Solver { .. })));
}
