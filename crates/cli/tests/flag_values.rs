//! Every numeric flag of every command, given the extremes of each integer
//! type, negatives, fractions, NaN, infinities and random values: warpsafe
//! never panics or hangs. It runs with exit 0 or 1, or refuses with exit 2
//! and a message on stderr.

mod common;

use insta_cmd::get_cargo_bin;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::process::Command;
use std::time::{Duration, Instant};

/// A small kernel that every flag below means something to: a template
/// parameter, a scalar parameter in a division and a macro loop bound.
const KERNEL: &str = "#ifndef N\n#define N 2\n#endif\n\
template <int T> __global__ void k(int *a, int n) {\n\
  for (int i = 0; i < N; i++) a[(threadIdx.x + T) % n + i] = n;\n\
}\n\
template __global__ void k<1>(int *, int);\n";

/// How long one run may take before it counts as a hang.
const HANG: Duration = Duration::from_secs(120);

/// What a flag's value is made of.
#[derive(Clone, Copy, Debug)]
enum Shape {
    /// A number.
    Number,
    /// `X`, `X,Y` or `X,Y,Z`.
    Dims,
    /// `NAME=number`.
    Named(&'static str),
    /// `NAME=[number,number]`.
    Values(&'static str),
}

/// What every `explore` run below is given: the parameter, a launch of two
/// threads and a time limit.
const EXPLORE: &[&str] = &[
    "--param",
    "n=3",
    "--block-dim",
    "2",
    "--grid-dim",
    "1",
    "--timeout",
    "10",
];

/// `(command, flag, shape, flags that keep the run short)`.
const FLAGS: &[(&str, &str, Shape, &[&str])] = &[
    ("check", "--block-dim", Shape::Dims, &["--timeout", "10"]),
    ("check", "--grid-dim", Shape::Dims, &["--timeout", "10"]),
    ("check", "--timeout", Shape::Number, &[]),
    ("check", "--param", Shape::Named("n"), &["--timeout", "10"]),
    (
        "check",
        "--template-args",
        Shape::Number,
        &["--timeout", "10"],
    ),
    ("check", "-D", Shape::Named("N"), &["--timeout", "10"]),
    ("check", "--max-races", Shape::Number, &["--timeout", "10"]),
    ("check", "--jobs", Shape::Number, &["--timeout", "10"]),
    ("check", "--shard", Shape::Number, &["--timeout", "10"]),
    ("ir", "--block-dim", Shape::Dims, &[]),
    ("ir", "--grid-dim", Shape::Dims, &[]),
    ("ir", "--template-args", Shape::Number, &[]),
    ("ir", "-D", Shape::Named("N"), &[]),
    (
        "explore",
        "--block-dim",
        Shape::Dims,
        &["--param", "n=3", "--grid-dim", "1", "--timeout", "10"],
    ),
    (
        "explore",
        "--grid-dim",
        Shape::Dims,
        &["--param", "n=3", "--block-dim", "2", "--timeout", "10"],
    ),
    (
        "explore",
        "--param",
        Shape::Named("n"),
        &["--block-dim", "2", "--grid-dim", "1", "--timeout", "10"],
    ),
    ("explore", "--array", Shape::Named("a"), EXPLORE),
    ("explore", "--array", Shape::Values("a"), EXPLORE),
    ("explore", "--template-args", Shape::Number, EXPLORE),
    ("explore", "-D", Shape::Named("N"), EXPLORE),
    (
        "explore",
        "--timeout",
        Shape::Number,
        &["--param", "n=3", "--block-dim", "2", "--grid-dim", "1"],
    ),
    ("explore", "--max-executions", Shape::Number, EXPLORE),
    ("explore", "--max-states", Shape::Number, EXPLORE),
    ("explore", "--max-memory", Shape::Number, EXPLORE),
    ("explore", "--max-steps", Shape::Number, EXPLORE),
    ("explore", "--max-threads", Shape::Number, EXPLORE),
    ("explore", "--max-active-threads", Shape::Number, EXPLORE),
    ("explore", "--loop-bound", Shape::Number, EXPLORE),
    (
        "explore",
        "--repair-rounds",
        Shape::Number,
        &[
            "--repair",
            "--param",
            "n=3",
            "--block-dim",
            "2",
            "--grid-dim",
            "1",
            "--timeout",
            "10",
        ],
    ),
];

/// The edge cases of every integer and floating-point type, as text.
fn edges() -> Vec<String> {
    let mut v: Vec<String> = [
        "0", "1", "-1", "2", "-0", "0.5", "-0.5", "1e300", "-1e300", "1e-300", "5e-324", "NaN",
        "nan", "inf", "-inf", "infinity", "0x10", "-0x10", "1e19", "1e11", "",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let ints: [i128; 14] = [
        i8::MIN.into(),
        i8::MAX.into(),
        u8::MAX.into(),
        i16::MIN.into(),
        u16::MAX.into(),
        i32::MIN.into(),
        i32::MAX.into(),
        u32::MAX.into(),
        1 << 32,
        i64::MIN.into(),
        i64::MAX.into(),
        u64::MAX.into(),
        i128::from(u64::MAX) + 1,
        i128::MIN,
    ];
    v.extend(ints.iter().map(|i| i.to_string()));
    v.extend(
        [f64::MAX, f64::MIN_POSITIVE, f32::MAX.into()]
            .iter()
            .map(|f| format!("{f:e}")),
    );
    v
}

/// One number as text: an edge case, a random integer or a random float.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(edges()),
        any::<i64>().prop_map(|i| i.to_string()),
        any::<u64>().prop_map(|i| i.to_string()),
        any::<f64>().prop_map(|f| f.to_string()),
        (0u32..2048).prop_map(|i| i.to_string()),
    ]
}

fn value(shape: Shape) -> BoxedStrategy<String> {
    match shape {
        Shape::Number => number().boxed(),
        Shape::Dims => prop::collection::vec(number(), 1..=3)
            .prop_map(|parts| parts.join(","))
            .boxed(),
        Shape::Named(name) => number().prop_map(move |n| format!("{name}={n}")).boxed(),
        Shape::Values(name) => prop::collection::vec(number(), 0..=3)
            .prop_map(move |parts| format!("{name}=[{}]", parts.join(",")))
            .boxed(),
    }
}

/// Runs one command line and checks how it ended: exit 0 or 1, or exit 2
/// with something said; never a panic or a hang.
fn run_once(command: &str, flag: &str, value: &str, rest: &[&str]) -> Result<(), String> {
    let file = common::temp_file("flag-values", "k.cu", KERNEL);
    // `--flag=VALUE` so that a negative value is not read as a flag; `-DX`.
    let arg = if flag.starts_with("--") {
        format!("{flag}={value}")
    } else {
        format!("{flag}{value}")
    };
    let line = format!("warpsafe {command} k.cu {arg:?} {}", rest.join(" "));
    let dir = file.parent().expect("invariant: a temp file has a folder");
    let id =
        format!("{:?}", std::thread::current().id()).replace(|c: char| !c.is_alphanumeric(), "");
    let (out_path, err_path) = (dir.join(format!("{id}.out")), dir.join(format!("{id}.err")));
    let create = |p: &std::path::Path| std::fs::File::create(p).map_err(|e| e.to_string());
    let mut child = Command::new(get_cargo_bin("warpsafe"))
        .arg(command)
        .arg(&file)
        .arg(&arg)
        .args(rest)
        .stdout(create(&out_path)?)
        .stderr(create(&err_path)?)
        .spawn()
        .map_err(|e| format!("{line}: cannot start: {e}"))?;
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if start.elapsed() > HANG {
            let _ = child.kill();
            return Err(format!("{line}: still running after {HANG:?}"));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let read = |p: &std::path::Path| {
        String::from_utf8_lossy(&std::fs::read(p).unwrap_or_default()).into_owned()
    };
    let (stdout, stderr) = (read(&out_path), read(&err_path));
    if stderr.contains("panicked") || stderr.contains("RUST_BACKTRACE") {
        return Err(format!("{line}: panicked\n{stderr}"));
    }
    match status.code() {
        Some(0 | 1) => Ok(()),
        Some(2) if !stderr.trim().is_empty() || !stdout.trim().is_empty() => Ok(()),
        code => Err(format!(
            "{line}: exit {code:?} with nothing said\n{stdout}\n{stderr}"
        )),
    }
}

/// Every edge value at every flag of `command`.
fn edges_of(command: &str) {
    let mut failures = Vec::new();
    for (c, flag, shape, rest) in FLAGS.iter().filter(|f| f.0 == command) {
        for edge in edges() {
            let value = match shape {
                Shape::Number => edge.clone(),
                Shape::Dims => format!("2,{edge}"),
                Shape::Named(name) => format!("{name}={edge}"),
                Shape::Values(name) => format!("{name}=[1,{edge}]"),
            };
            if let Err(e) = run_once(c, flag, &value, rest) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn check_takes_any_value_at_every_numeric_flag() {
    edges_of("check");
}

#[test]
fn explore_takes_any_value_at_every_numeric_flag() {
    edges_of("explore");
}

#[test]
fn ir_takes_any_value_at_every_numeric_flag() {
    edges_of("ir");
}

/// Random values (one to three numbers per flag) at random flags.
#[test]
fn random_values_at_random_flags() {
    let mut runner = TestRunner::new(Config {
        cases: 48,
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = (0..FLAGS.len()).prop_flat_map(|i| (Just(i), value(FLAGS[i].2)));
    runner
        .run(&strategy, |(i, value)| {
            let (command, flag, _, rest) = FLAGS[i];
            run_once(command, flag, &value, rest).map_err(TestCaseError::fail)
        })
        .expect("no panic, hang or silent failure on any value");
}
