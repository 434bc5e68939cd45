//! `warpsafe explore`: verdicts and exit statuses (the scoped
//! message-passing litmus of seed 000, Figure 2, synchronises within one
//! block and fails across two), stopping at the first error or `--all`,
//! limits, `--outcomes`, `--graph`, the JSON shape, and replay tokens that
//! reproduce their witness through the command line.

mod common;

use common::Out;

use serde_json::Value;
use std::path::{Path, PathBuf};

const MP: &str = r#"#include <cuda/atomic>
__global__ void mp(int *data, int *flag)
{
  cuda::atomic_ref<int, cuda::thread_scope_block> f(*flag);
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    data[0] = 42;
    f.store(1, cuda::memory_order_release);
  } else {
    if (f.load(cuda::memory_order_acquire) == 1)
      assert(data[0] == 42);
  }
}
"#;

const SB: &str = r#"#include <cuda/atomic>
__global__ void sb(int *x, int *y, int *r)
{
  cuda::atomic_ref<int, cuda::thread_scope_device> X(*x), Y(*y);
  if (threadIdx.x == 0) { X.store(1, cuda::memory_order_relaxed); r[0] = Y.load(cuda::memory_order_relaxed); }
  else { Y.store(1, cuda::memory_order_relaxed); r[1] = X.load(cuda::memory_order_relaxed); }
}
"#;

const SPIN: &str = r#"#include <cuda/atomic>
__global__ void spin(int *x)
{
  cuda::atomic_ref<int, cuda::thread_scope_device> X(*x);
  while (X.load(cuda::memory_order_relaxed) == 0) {}
}
"#;

const ONE_BLOCK: [&str; 4] = ["--grid-dim", "1", "--block-dim", "2"];
const TWO_BLOCKS: [&str; 4] = ["--grid-dim", "2", "--block-dim", "1"];

/// Writes `text` as `name` in a fresh folder of this test process.
fn file(name: &str, text: &str) -> PathBuf {
    common::temp_file("explore", name, text)
}

/// A kernel of `tests/kernels/constructs`.
fn construct(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/kernels/constructs")
        .join(name)
}

/// `--array` text for `name`: the `count` floats `from.0`, `from+1.0`, ...
fn floats(name: &str, from: usize, count: usize) -> String {
    let list: Vec<String> = (from..from + count).map(|i| format!("{i}.0")).collect();
    format!("{name}=[{}]", list.join(","))
}

fn explore(path: &Path, flags: &[&str]) -> Out {
    common::run("explore", path, flags)
}

fn json(path: &Path, flags: &[&str]) -> (Option<i32>, Value) {
    let mut f = flags.to_vec();
    f.extend(["--format", "json"]);
    let out = explore(path, &f);
    let v = serde_json::from_str(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", out.stdout, out.stderr));
    (out.code, v)
}

#[test]
fn block_scope_synchronises_within_a_block() {
    let out = explore(&file("mp1.cu", MP), &ONE_BLOCK);
    assert!(out.stdout.contains("kernel mp: SAFE"), "{}", out.stdout);
    assert_eq!(out.code, Some(0), "{}", out.stdout);
}

#[test]
fn all_reports_every_distinct_error_once() {
    let mut flags = TWO_BLOCKS.to_vec();
    flags.push("--all");
    let out = explore(&file("mp2.cu", MP), &flags);
    let s = &out.stdout;
    assert_eq!(
        s.matches("error: heterogeneous race on flag[0]").count(),
        1,
        "{s}"
    );
    assert_eq!(s.matches("error: data race on data[0]").count(), 1, "{s}");
    assert_eq!(
        s.matches("error: assertion violated: data[0] == 42")
            .count(),
        1,
        "{s}"
    );
    assert!(!s.contains("exploration incomplete"), "{s}");
    assert_eq!(out.code, Some(1), "{s}");
}

#[test]
fn the_first_error_stops_the_exploration_with_its_witness() {
    let out = explore(&file("mp3.cu", MP), &TWO_BLOCKS);
    let s = &out.stdout;
    assert_eq!(s.matches("  witness").count(), 1, "{s}");
    assert!(s.contains("--replay ws1-"), "{s}");
    assert!(
        s.contains("exploration incomplete: stopped at the first error"),
        "{s}"
    );
    // The witness lists both threads' events with their rf sources.
    assert!(s.contains("T0.0  write  data[0] := 42"), "{s}");
    assert!(s.contains("rf init"), "{s}");
    assert_eq!(out.code, Some(1), "{s}");
}

#[test]
fn symbolic_dimensions_and_missing_parameters_are_unknown() {
    let out = explore(&file("mp4.cu", MP), &[]);
    assert!(out
        .stdout
        .contains("UNKNOWN (kernel `mp`: running it needs concrete dimensions"));
    assert_eq!(out.code, Some(2));
    let k = file(
        "p.cu",
        "__global__ void k(int *a, int n) { a[threadIdx.x] = n; }\n",
    );
    let out = explore(&k, &ONE_BLOCK);
    assert!(
        out.stdout.contains("needs a value for the parameter `n`"),
        "{}",
        out.stdout
    );
    assert_eq!(out.code, Some(2));
    let mut flags = ONE_BLOCK.to_vec();
    flags.extend(["--param", "n=3"]);
    assert_eq!(explore(&k, &flags).code, Some(0));
}

#[test]
fn limits_make_a_clean_kernel_unknown() {
    let sb = file("sb1.cu", SB);
    let mut flags = ONE_BLOCK.to_vec();
    flags.extend(["--max-executions", "2"]);
    let out = explore(&sb, &flags);
    assert!(
        out.stdout
            .contains("UNKNOWN (stopped after 2 executions (--max-executions); more exist)"),
        "{}",
        out.stdout
    );
    assert_eq!(out.code, Some(2));
    // A state limit is its own flag, named when it is reached.
    let mut flags = ONE_BLOCK.to_vec();
    flags.extend(["--max-states", "3"]);
    let out = explore(&sb, &flags);
    assert!(
        out.stdout
            .contains("more than 3 partial executions (states) explored (--max-states)"),
        "{}",
        out.stdout
    );
    assert_eq!(out.code, Some(2));
    // SB has exactly four executions: a limit of four is not reached
    // (with every array's length known, SAFE names none unchecked).
    let mut flags = ONE_BLOCK.to_vec();
    flags.extend(["--max-executions", "4"]);
    flags.extend(["--array", "x=1", "--array", "y=1", "--array", "r=2"]);
    let out = explore(&sb, &flags);
    assert!(
        out.stdout
            .contains("SAFE (no error in any of the 4 executions)\n"),
        "{}",
        out.stdout
    );
    assert_eq!(out.code, Some(0));
    // A spin loop nobody releases is a hang (spin-assume sees the wait
    // can never end) ...
    let spin = file("spin.cu", SPIN);
    let out = explore(&spin, &ONE_BLOCK);
    assert!(
        out.stdout
            .contains("hang: a thread waits forever in an await loop"),
        "{}",
        out.stdout
    );
    assert_eq!(out.code, Some(1));
    // ... and, explored iteration by iteration, runs far longer than the
    // time limit.
    let mut flags = ONE_BLOCK.to_vec();
    flags.extend([
        "--timeout",
        "0.3",
        "--no-spin-assume",
        "--loop-bound",
        "1000000",
        "--max-steps",
        "100000000",
    ]);
    let out = explore(&spin, &flags);
    assert!(
        out.stdout.contains("UNKNOWN (stopped after the time limit"),
        "{}",
        out.stdout
    );
    assert_eq!(out.code, Some(2));
}

#[test]
fn outcomes_count_the_executions_of_each_final_state() {
    let mut flags = ONE_BLOCK.to_vec();
    flags.push("--outcomes");
    let (code, v) = json(&file("sb2.cu", SB), &flags);
    assert_eq!(code, Some(0));
    let k = &v["kernels"][0];
    let outcomes = k["outcomes"].as_array().expect("outcomes");
    let states: Vec<&str> = outcomes
        .iter()
        .map(|o| o["state"].as_str().unwrap_or(""))
        .collect();
    // Relaxed store buffering: every combination, including 0, 0.
    assert_eq!(outcomes.len(), 4, "{states:?}");
    assert!(
        states.contains(&"x[0]=1 y[0]=1 r[0]=0 r[1]=0"),
        "{states:?}"
    );
    let total: u64 = outcomes
        .iter()
        .map(|o| o["executions"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(Some(total), k["summary"]["executions"].as_u64());
}

#[test]
fn the_json_output_has_the_documented_shape() {
    let mut flags = TWO_BLOCKS.to_vec();
    flags.push("--all");
    let (code, v) = json(&file("mp5.cu", MP), &flags);
    assert_eq!(code, Some(1));
    assert_eq!(v["engine"], "dpor");
    assert_eq!(v["replay"], false);
    let k = &v["kernels"][0];
    assert_eq!(k["kernel"], "mp");
    assert_eq!(k["verdict"], "errors-found");
    assert_eq!(k["complete"], true);
    let errors = k["errors"].as_array().expect("errors");
    let kinds: Vec<&str> = errors.iter().filter_map(|e| e["kind"].as_str()).collect();
    assert_eq!(kinds, ["heterogeneous-race", "data-race", "assert"]);
    let witnesses = k["witnesses"].as_array().expect("witnesses");
    for e in errors {
        let w = e["witness"].as_u64().expect("witness index") as usize;
        assert!(w < witnesses.len());
        assert!(e["occurrences"].as_u64() >= Some(1));
        assert!(e["message"].is_string() && e["details"].is_array());
    }
    assert_eq!(errors[1]["location"], "data[0]");
    let w = &witnesses[0];
    assert!(w["replay"].as_str().is_some_and(|t| t.starts_with("ws1-")));
    let t0 = &w["threads"][0];
    assert_eq!(
        (t0["id"].as_str(), t0["block"].as_u64()),
        (Some("T0"), Some(0))
    );
    let e = &t0["events"][1];
    assert_eq!(e["id"], "T0.1");
    assert_eq!(e["kind"], "write");
    assert_eq!(e["location"], "flag[0]");
    assert_eq!(e["written_value"], "1");
    assert_eq!(e["order"], "release");
    assert_eq!(e["scope"], "block");
    assert_eq!(e["line"], 7);
    assert!(e["excerpt"].as_str().is_some_and(|x| x.contains("f.store")));
    let read = &w["threads"][1]["events"][0];
    assert_eq!(read["rf"], "init");
    assert_eq!(w["co"][0]["order"][0], "init");
    let s = &k["summary"];
    for field in ["executions", "blocked", "cut", "states", "inconsistent"] {
        assert!(s[field].is_u64(), "{field}");
    }
    assert!(s["seconds"].is_f64());
}

#[test]
fn replay_tokens_reproduce_their_witness() {
    let kernels = [
        ("r_mp.cu", MP, TWO_BLOCKS),
        ("r_sb.cu", SB, ONE_BLOCK),
        (
            "r_div.cu",
            "__global__ void d(int *a) { if (threadIdx.x == 0) __syncthreads(); a[threadIdx.x] = 1; }\n",
            ONE_BLOCK,
        ),
        (
            "r_ww.cu",
            "__global__ void ww(int *a) { a[0] = threadIdx.x; a[1] = a[0]; }\n",
            ONE_BLOCK,
        ),
    ];
    let mut replayed = 0;
    for (name, text, dims) in kernels {
        let path = file(name, text);
        let mut flags = dims.to_vec();
        flags.extend(["--all", "--outcomes"]);
        let (_, v) = json(&path, &flags);
        for w in v["kernels"][0]["witnesses"].as_array().expect("witnesses") {
            let token = w["replay"].as_str().expect("token");
            let mut flags = dims.to_vec();
            flags.extend(["--replay", token]);
            let (code, r) = json(&path, &flags);
            assert_eq!(r["replay"], true);
            let again = &r["kernels"][0]["witnesses"][0];
            assert_eq!(again["threads"], w["threads"], "{name}");
            assert_eq!(again["co"], w["co"], "{name}");
            assert_eq!(again["replay"], w["replay"], "{name}");
            assert_eq!(code, Some(1), "witnesses show errors");
            replayed += 1;
        }
    }
    assert!(replayed >= 4, "{replayed}");
}

#[test]
fn bad_tokens_are_unusable_input() {
    let path = file("mp6.cu", MP);
    let (_, v) = json(&path, &TWO_BLOCKS);
    let token = v["kernels"][0]["witnesses"][0]["replay"]
        .as_str()
        .expect("token")
        .to_string();
    let replay = |dims: &[&str], token: &str| {
        let mut flags = dims.to_vec();
        flags.extend(["--replay", token]);
        explore(&path, &flags)
    };
    assert_eq!(replay(&TWO_BLOCKS, &token).code, Some(1));
    let other = replay(&ONE_BLOCK, &token);
    assert!(
        other.stderr.contains("made for another kernel or launch"),
        "{}",
        other.stderr
    );
    assert_eq!(other.code, Some(2));
    let cut = replay(&TWO_BLOCKS, &token[..token.len() - 3]);
    assert!(cut.stderr.contains("corrupted"), "{}", cut.stderr);
    assert_eq!(cut.code, Some(2));
    let version = replay(&TWO_BLOCKS, &token.replace("ws1-", "ws9-"));
    assert!(
        version.stderr.contains("format `ws9-`"),
        "{}",
        version.stderr
    );
    assert_eq!(version.code, Some(2));
}

#[test]
fn graph_writes_the_witness_as_dot() {
    let dot = std::env::temp_dir().join(format!("warpsafe-witness-{}.dot", std::process::id()));
    let mut flags = TWO_BLOCKS.to_vec();
    let dot_arg = dot.display().to_string();
    flags.extend(["--graph", dot_arg.as_str()]);
    let out = explore(&file("mp7.cu", MP), &flags);
    assert_eq!(out.code, Some(1));
    let text = std::fs::read_to_string(&dot).expect("the DOT file is written");
    let _ = std::fs::remove_file(&dot);
    assert!(text.starts_with("digraph witnesses {"), "{text}");
    assert!(text.contains("label=\"kernel mp, execution 1"), "{text}");
    assert!(text.contains("[label=\"rf\""), "{text}");
    assert!(text.contains("[label=\"co\""), "{text}");
    assert!(text.contains("heterogeneous-race"), "{text}");
    assert_eq!(text.matches('{').count(), text.matches('}').count());
}

#[test]
fn the_report_is_the_same_on_any_number_of_jobs() {
    // The ticket lock on four one-thread blocks (336 executions, many
    // parts) and a racy kernel whose witness and numbering must not
    // depend on which worker found it first.
    let lock =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/kernels/locks/ticketlock.cu");
    let racy = file("sb.cu", SB);
    let runs: [(&Path, &[&str]); 4] = [
        (&lock, &["--grid-dim", "4", "--block-dim", "1", "--all"]),
        (
            &lock,
            &["--grid-dim", "4", "--block-dim", "1", "--outcomes"],
        ),
        (
            &lock,
            &[
                "--grid-dim",
                "4",
                "--block-dim",
                "1",
                "--max-executions",
                "100",
            ],
        ),
        (&racy, &["--grid-dim", "1", "--block-dim", "2", "--all"]),
    ];
    for (path, flags) in runs {
        let report = |jobs: &str| {
            let (code, mut v) = json(path, &[flags, &["-j", jobs]].concat());
            // Time and memory vary from run to run; the counts may not.
            let summary = &mut v["kernels"][0]["summary"];
            for key in ["seconds", "peak_memory_kib"] {
                summary.as_object_mut().map(|o| o.remove(key));
            }
            (code, v)
        };
        let one = report("1");
        assert!(
            one.1["kernels"][0]["summary"]["executions"]
                .as_u64()
                .unwrap_or(0)
                > 0,
            "{flags:?}: {}",
            one.1
        );
        for jobs in ["2", "5"] {
            assert_eq!(one, report(jobs), "{flags:?} on {jobs} jobs");
        }
    }
}

#[test]
fn dpor_and_the_reference_enumerator_agree() {
    for (name, text, dims) in [
        ("a1.cu", MP, ONE_BLOCK),
        ("a2.cu", MP, TWO_BLOCKS),
        ("a3.cu", SB, ONE_BLOCK),
    ] {
        let path = file(name, text);
        let mut flags = dims.to_vec();
        flags.extend(["--all", "--outcomes"]);
        let (c1, dpor) = json(&path, &flags);
        flags.extend(["--explorer", "reference"]);
        let (c2, reference) = json(&path, &flags);
        assert_eq!(dpor["engine"], "dpor");
        assert_eq!(reference["engine"], "reference");
        assert_eq!(c1, c2);
        let (d, r) = (&dpor["kernels"][0], &reference["kernels"][0]);
        assert_eq!(
            d["summary"]["executions"], r["summary"]["executions"],
            "{name}"
        );
        let kinds = |k: &Value| -> Vec<String> {
            let mut v: Vec<String> = k["errors"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|e| e["kind"].to_string())
                .collect();
            v.sort();
            v
        };
        assert_eq!(kinds(d), kinds(r), "{name}");
        let states = |k: &Value| -> Vec<String> {
            let mut v: Vec<String> = k["outcomes"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|o| o.to_string())
                .collect();
            v.sort();
            v
        };
        assert_eq!(states(d), states(r), "{name}");
    }
}

/// `--repair` prints a diff whose paths are relative to the working
/// directory, as `git apply` and `patch -p1` want, even when the file was
/// named by an absolute path.
#[test]
fn repair_diffs_name_the_file_relative_to_the_working_directory() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let file = root
        .join("tests/kernels/repair/plain_counter.cu")
        .canonicalize()
        .expect("invariant: the kernel exists");
    let out = std::process::Command::new(insta_cmd::get_cargo_bin("warpsafe"))
        .current_dir(file.parent().expect("a folder"))
        .args(["explore", "--blockDim=1", "--gridDim=2", "--repair"])
        .arg(&file)
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("\n--- a/plain_counter.cu\n+++ b/plain_counter.cu\n"),
        "{stdout}"
    );
    assert!(!stdout.contains("seed 0"), "{stdout}");
}

/// Zero complete executions is never SAFE: contradictory preconditions
/// cut every execution, so nothing was checked (`check` says UNKNOWN too).
#[test]
fn contradictory_requires_are_unknown_not_safe() {
    let src = "__global__ void k(int *a, int n) {\n  __requires(n > 4);\n  __requires(n < 2);\n  a[threadIdx.x] = n;\n}\n";
    let (code, stdout) = common::run_on(
        "explore",
        "contradictory_requires.cu",
        src,
        &["--block-dim", "2", "--grid-dim", "1", "--param", "n=5"],
    );
    assert_eq!(code, Some(2), "{stdout}");
    assert!(stdout.contains("UNKNOWN"), "{stdout}");
    assert!(stdout.contains("cut by a failed `__requires`"), "{stdout}");
    assert!(!stdout.contains("SAFE"), "{stdout}");
}

/// Long executions fill memory with pending states; `--max-memory` stops
/// the exploration with UNKNOWN and says why, instead of the process being
/// killed (two threads racing through 1,000 writes each reached 2.5 GB,
/// 3,000 each were killed). A limit of 1 MiB is passed at the first check
/// (20 ms in), long before the first execution of 400 writes per thread
/// ends (0.2 s in a release build, far longer in a debug one).
#[cfg(target_os = "linux")]
#[test]
fn the_memory_limit_stops_an_exploration_with_unknown() {
    let src = "__global__ void k(int *a, int *b) {\n  for (int i = 0; i < 400; i++) {\n    a[i % 4] = i;\n  }\n  b[threadIdx.x] = 1;\n}\n";
    let (code, stdout) = common::run_on(
        "explore",
        "long_executions.cu",
        src,
        &[
            "--block-dim",
            "2",
            "--grid-dim",
            "1",
            "--loop-bound",
            "500",
            "--max-memory",
            "1",
        ],
    );
    assert_eq!(code, Some(2), "{stdout}");
    assert!(
        stdout.contains("UNKNOWN (stopped at the memory limit of 1 MiB (--max-memory)"),
        "{stdout}"
    );
}

/// C's `frexp(x, &e)` runs exactly in the interpreter: 8.0 = 0.5 * 2^4 and
/// 3.0 = 0.75 * 2^2, so the threads store 16 + 0 and 4 + 0.
#[test]
fn frexp_splits_a_value_into_mantissa_and_exponent() {
    let src = "__global__ void k(int *out, float *x) {\n  int e;\n  float m = frexp(x[threadIdx.x], &e);\n  out[threadIdx.x] = (1 << e) + (int)(m * 4.0f);\n}\n";
    let path = file("frexp.cu", src);
    let out = explore(
        &path,
        &[
            "--grid-dim",
            "1",
            "--block-dim",
            "2",
            "--array",
            "x=[8.0,3.0]",
            "--array",
            "out=2",
            "--outcomes",
        ],
    );
    assert!(out.stdout.contains("kernel k: SAFE"), "{}", out.stdout);
    assert!(out.stdout.contains("out[0]=18 out[1]=7"), "{}", out.stdout);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
}

/// `sincosf(x, &s, &c)` stores the sine and the cosine of `x`: at x = 0
/// they are 0 and 1.
#[test]
fn sincosf_stores_sine_and_cosine_through_its_pointers() {
    let src = "__global__ void k(float *s, float *c) {\n  sincosf(0.0f, &s[threadIdx.x], &c[threadIdx.x]);\n}\n";
    let path = file("sincos.cu", src);
    let out = explore(
        &path,
        &[
            "--grid-dim",
            "1",
            "--block-dim",
            "1",
            "--array",
            "s=1",
            "--array",
            "c=1",
            "--outcomes",
        ],
    );
    assert!(out.stdout.contains("s[0]=0.0 c[0]=1.0"), "{}", out.stdout);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
}

/// A reduction written for a `thread_group` runs over the group it is
/// passed (the block, then run-time tiles of 16): with both `g.sync()`s no
/// execution races, without the second one the tiles' threads race.
#[test]
fn a_thread_group_is_the_group_it_is_given() {
    let flags = [
        "--grid-dim",
        "1",
        "--block-dim",
        "32",
        "--array",
        "out=64",
        "--max-active-threads",
        "32",
    ];
    let out = explore(&construct("coop_groups_thread_group.cu"), &flags);
    assert!(
        out.stdout.contains("kernel reduce: SAFE"),
        "{}{}",
        out.stdout,
        out.stderr
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let out = explore(&construct("coop_groups_thread_group_racy.cu"), &flags);
    assert!(
        out.stdout.contains("kernel reduce: ERRORS FOUND")
            && out.stdout.contains("error: data race on scratch["),
        "{}",
        out.stdout
    );
    assert_eq!(out.code, Some(1), "{}", out.stderr);
}

/// Inline PTX read exactly (`asm.rs`): the lane and its masks along the
/// block's linear thread index (40 threads in rows of 20: the second warp
/// starts in row 1), `bfind`, `vabsdiff4` and `%tid.x` give what a GPU
/// gives; a wrong expectation fails.
#[test]
fn inline_ptx_lanes_and_bit_operations_are_exact() {
    let src = "#include <assert.h>\n__global__ void k(unsigned *out) {\n  unsigned lane, lt, le, gt, ge, eq, msb, sad, tx;\n  asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(lane));\n  asm(\"mov.u32 %0, %%lanemask_lt;\" : \"=r\"(lt));\n  asm(\"mov.u32 %0, %%lanemask_le;\" : \"=r\"(le));\n  asm(\"mov.u32 %0, %%lanemask_gt;\" : \"=r\"(gt));\n  asm(\"mov.u32 %0, %%lanemask_ge;\" : \"=r\"(ge));\n  asm(\"mov.u32 %0, %%lanemask_eq;\" : \"=r\"(eq));\n  asm volatile(\"bfind.u32 %0, %1;\" : \"=r\"(msb) : \"r\"(lane));\n  asm(\"vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;\" : \"=r\"(sad) : \"r\"(0x01020304u), \"r\"(0x04030201u), \"r\"(lane));\n  asm(\"mov.u32 %0, %%tid.x;\" : \"=r\"(tx));\n  assert(lane == (threadIdx.y * blockDim.x + threadIdx.x) % 32);\n  assert(lt == (1u << lane) - 1u && eq == 1u << lane && le == (lt | eq));\n  assert(gt == ~le && ge == ~lt);\n  assert(lane == 0 ? msb == 0xffffffffu : msb == 31 - __clz(lane));\n  assert(sad == 8 + lane && tx == threadIdx.x);\n  out[threadIdx.y * 20 + threadIdx.x] = lane;\n}\n";
    let path = file("ptx.cu", src);
    let args = [
        "--grid-dim",
        "1",
        "--block-dim",
        "20,2",
        "--array",
        "out=40",
        "--max-active-threads",
        "40",
    ];
    let out = explore(&path, &args);
    assert!(
        out.stdout.contains("kernel k: SAFE"),
        "{}{}",
        out.stdout,
        out.stderr
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let wrong = file(
        "ptx_wrong.cu",
        &src.replace("sad == 8 + lane", "sad == 9 + lane"),
    );
    let out = explore(&wrong, &args);
    assert!(
        out.stdout.contains("assertion violated") && out.stdout.contains("sad == 9 + lane"),
        "{}",
        out.stdout
    );
}

/// A union's members share its bytes (`unions.rs`): a word unpacked into
/// two shorts, swapped and packed again is the word with its halves
/// swapped, as on a GPU.
#[test]
fn union_members_share_their_bytes() {
    let out = explore(
        &construct("union_packed_shorts.cu"),
        &[
            "--grid-dim",
            "1",
            "--block-dim",
            "2",
            "--array",
            "v=[65538,196612]",
            "--outcomes",
        ],
    );
    assert!(
        out.stdout.contains("v[0]=131073 v[1]=262147"),
        "{}{}",
        out.stdout,
        out.stderr
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
}

/// The C and CUDA math functions the interpreter evaluates are all known
/// to the front end (cuda-samples' dxtc calls `rintf`): each assertion
/// holds on a GPU, and a wrong one fails.
#[test]
fn math_functions_are_evaluated() {
    let src = "#include <assert.h>\n__global__ void k(float *x) {\n  float two = x[0];\n  assert(rintf(two + 0.5f) == 2.0f && nearbyintf(3.5f) == 4.0f && trunc(-2.5) == -2.0);\n  assert(acosf(1.0f) == 0.0f && asinf(0.0f) == 0.0f && cbrtf(27.0f) == 3.0f);\n  assert(hypotf(3.0f, 4.0f) == 5.0f && copysignf(two, -1.0f) == -2.0f && fdimf(two, 5.0f) == 0.0f);\n  assert(__float_as_uint(1.0f) == 0x3f800000u && __uint_as_float(0x40000000u) == two);\n  assert(__float2int_rd(-0.5f) == -1 && __float2int_ru(0.5f) == 1 && isfinite(two) && signbit(-two));\n  assert(log1pf(0.0f) == 0.0f && expm1f(0.0f) == 0.0f && sinhf(0.0f) == 0.0f && coshf(0.0f) == 1.0f);\n}\n";
    let path = file("math.cu", src);
    let args = ["--grid-dim", "1", "--block-dim", "1", "--array", "x=[2.0]"];
    let out = explore(&path, &args);
    assert!(
        out.stdout.contains("kernel k: SAFE"),
        "{}{}",
        out.stdout,
        out.stderr
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let wrong = file(
        "math_wrong.cu",
        &src.replace("cbrtf(27.0f) == 3.0f", "cbrtf(27.0f) == 9.0f"),
    );
    let out = explore(&wrong, &args);
    assert!(
        out.stdout.contains("assertion violated") && out.stdout.contains("cbrtf(27.0f) == 9.0f"),
        "{}",
        out.stdout
    );
}

/// A witness of thousands of events is shortened around its errors: ten
/// errors listed, the events near each marked one and each thread's last,
/// the coherence order of marked locations only, and a line saying so;
/// `--full` prints everything (issue 12: one such witness printed 5 MB).
#[test]
fn long_witnesses_are_shortened_unless_full() {
    let f = file(
        "fill.cu",
        r#"__global__ void fill(int *a, int *b)
{
  for (int i = 0; i < 300; i++)
    a[i] = b[i] + 1;
}
"#,
    );
    let flags = [
        "--grid-dim",
        "1",
        "--block-dim",
        "2",
        "--array",
        "a=200",
        "--array",
        "b=400",
        "--loop-bound",
        "1000",
    ];
    let short = explore(&f, &flags);
    assert_eq!(short.code, Some(1), "{}", short.stdout);
    assert!(short.stdout.contains("ERRORS FOUND (201 distinct errors)"));
    assert_eq!(short.stdout.matches("  error: ").count(), 10);
    assert!(short
        .stdout
        .contains("... and 191 more errors in this execution (--full lists them)"));
    assert!(short.stdout.contains("... 378 events (T0.22..T0.399) ..."));
    assert!(short.stdout.contains("T0.400"), "each thread's last event");
    assert!(short
        .stdout
        .contains("out-of-bounds access: index 200 of `a`"));
    assert!(short.stdout.contains(
        "(shortened: 46 of 802 events shown, the coherence order of 190 more locations left out"
    ));
    assert!(short.stdout.len() < 10_000, "{}", short.stdout.len());
    let mut full_flags = flags.to_vec();
    full_flags.push("--full");
    let full = explore(&f, &full_flags);
    assert_eq!(full.stdout.matches("  error: ").count(), 201);
    assert!(full.stdout.contains("T0.200 "));
    assert!(!full.stdout.contains("shortened"));
    assert!(!full.stdout.contains("... and"));
}

/// Objects of class templates run as C++ runs them: the explicit
/// specialisation `Scale<int>` (adds 1) replaces the primary template
/// (doubles) for the `int` instance only, so four zeros sum to 4 in `int`
/// and to 0 in `float`; the method defined outside the class writes it.
#[test]
fn class_template_instances_run_their_own_bodies() {
    let file = construct("class_template_objects.cu");
    for (kernel, sum) in [
        ("columns<int>", "data[0]=4 data[1]=4"),
        ("columns<float>", "data[0]=0.0 data[1]=0.0"),
    ] {
        let out = explore(
            &file,
            &[
                "--kernel",
                kernel,
                "--grid-dim",
                "1",
                "--block-dim",
                "2",
                "--array",
                "data=512",
                "--array",
                "out=2",
                "--outcomes",
            ],
        );
        assert!(
            out.stdout.contains(&format!("kernel {kernel}: SAFE")),
            "{}{}",
            out.stdout,
            out.stderr
        );
        assert!(out.stdout.contains(sum), "{}", out.stdout);
        assert_eq!(out.code, Some(0), "{}", out.stderr);
    }
    let out = explore(
        &construct("class_template_objects_racy.cu"),
        &[
            "--kernel",
            "columns<int>",
            "--grid-dim",
            "1",
            "--block-dim",
            "2",
            "--array",
            "data=8",
            "--array",
            "out=2",
        ],
    );
    assert!(
        out.stdout.contains("kernel columns<int>: ERRORS FOUND"),
        "{}{}",
        out.stdout,
        out.stderr
    );
    assert!(out.stdout.contains("data race"), "{}", out.stdout);
}

/// CUDA's directed-rounding intrinsics round as named: the bounds of
/// 2 + 1e-10 + 2e-10 + sqrt(2) rounded down and up are adjacent floats
/// (3.4142137 and 3.414214), and (2 - 1e-10) / 3 in `double` likewise.
#[test]
fn directed_rounding_intrinsics_enclose_the_exact_result() {
    let mut flags = vec!["--grid-dim", "1", "--block-dim", "1", "--outcomes"];
    for a in ["x=[2.0]", "y=[1e-10]", "lo=1", "hi=1", "dlo=1", "dhi=1"] {
        flags.extend(["--array", a]);
    }
    let out = explore(&construct("math_directed_rounding.cu"), &flags);
    assert!(
        out.stdout.contains("lo[0]=3.4142137 hi[0]=3.414214")
            && out
                .stdout
                .contains("dlo[0]=0.6666666666333333 dhi[0]=0.6666666666333334"),
        "{}{}",
        out.stdout,
        out.stderr
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
}

/// Warp matrix loads and stores move data exactly (each tile element is
/// read by one thread of the warp and written by one): an 8x8 tile loaded
/// row-major into an accumulator fragment and stored column-major comes
/// out transposed. `mma_sync`'s product is an unknown value, which the
/// model checker refuses with its reason rather than guessing.
#[test]
fn warp_matrix_fragments_move_tiles_exactly() {
    let input = floats("in", 0, 64);
    let flags = [
        "--grid-dim",
        "1",
        "--block-dim",
        "32",
        "--array",
        &input,
        "--array",
        "out=64",
        "--outcomes",
    ];
    let out = explore(&construct("wmma_transpose.cu"), &flags);
    assert!(
        out.stdout.contains("kernel transpose: SAFE"),
        "{}{}",
        out.stdout,
        out.stderr
    );
    // out[8r + c] = in[8c + r].
    let cells: Vec<&str> = out.stdout.split_whitespace().collect();
    for r in 0..8 {
        for c in 0..8 {
            let want = format!("out[{}]={}.0", 8 * r + c, 8 * c + r);
            assert!(cells.contains(&want.as_str()), "{want}: {}", out.stdout);
        }
    }
    let out = explore(
        &construct("wmma_tiles.cu"),
        &["--grid-dim", "1", "--block-dim", "64"],
    );
    assert!(
        out.stdout.contains("UNKNOWN") && out.stdout.contains("wmma::mma_sync's product"),
        "{}{}",
        out.stdout,
        out.stderr
    );
}

/// A pointer into one of two `half` arrays read as `int4` (GEMM staging:
/// warp 0 copies from A, warp 1 from B) moves the right bytes: each warp
/// reads back the other warp's staged row, so warp 0 writes B's values and
/// warp 1 A's.
#[test]
fn a_reinterpreting_pointer_into_one_of_two_arrays_moves_the_right_bytes() {
    let (a, b) = (floats("A", 0, 256), floats("B", 1000, 256));
    let flags = [
        "--grid-dim",
        "1",
        "--block-dim",
        "64",
        "--max-active-threads",
        "64",
        "--array",
        &a,
        "--array",
        &b,
        "--array",
        "out=512",
        "--outcomes",
    ];
    let out = explore(&construct("memory_reinterpret_choice.cu"), &flags);
    assert!(
        out.stdout.contains("kernel stage: SAFE"),
        "{}{}",
        out.stdout,
        out.stderr
    );
    let cells: Vec<&str> = out.stdout.split_whitespace().collect();
    for lane in [0, 1, 17, 31] {
        let from_b = format!("out[{lane}]={}.0", 1000 + lane);
        let from_a = format!("out[{}]={lane}.0", 256 + lane);
        assert!(cells.contains(&from_b.as_str()), "{from_b}: {}", out.stdout);
        assert!(cells.contains(&from_a.as_str()), "{from_a}: {}", out.stdout);
    }
}

/// A collective `cg::memcpy_async` over a warp tile moves every element
/// once (element `e` by the lane of rank `e % 32`): each thread then adds
/// one element of each warp's row, and every sum is 127. Waiting on the
/// warp alone instead of the block lets a warp read the other warp's row
/// while it is copied: a race.
#[test]
fn collective_async_copies_move_each_element_once() {
    let input = floats("in", 0, 128);
    let flags = [
        "--grid-dim",
        "1",
        "--block-dim",
        "64",
        "--max-active-threads",
        "64",
        "--array",
        &input,
        "--array",
        "out=64",
        "--outcomes",
    ];
    let out = explore(&construct("async_copy_group.cu"), &flags);
    assert!(
        out.stdout.contains("kernel rows: SAFE"),
        "{}{}",
        out.stdout,
        out.stderr
    );
    let cells: Vec<&str> = out.stdout.split_whitespace().collect();
    for t in 0..64 {
        let want = format!("out[{t}]=127.0");
        assert!(cells.contains(&want.as_str()), "{want}: {}", out.stdout);
    }
    assert!(
        out.stderr.contains("modelled as done when issued"),
        "{}",
        out.stderr
    );
    let out = explore(&construct("async_copy_group_racy.cu"), &flags);
    assert!(
        out.stdout.contains("data race on row"),
        "{}{}",
        out.stdout,
        out.stderr
    );
}

/// `__nv_bfloat16` keeps 8 significant bits, rounded to nearest, ties to
/// even: 1 + 3 * 2^-8 (a tie) becomes 1 + 2^-6, -3e38 the nearest
/// bfloat16, and 3.4e38 (past halfway above the largest finite bfloat16)
/// infinity. Thread t writes its neighbour's rounded input.
#[test]
fn bfloat16_values_round_to_nearest_even() {
    let flags = [
        "--grid-dim",
        "1",
        "--block-dim",
        "4",
        "--array",
        "in=[1.0,1.01171875,-3.0e38,3.4e38]",
        "--array",
        "out=4",
        "--outcomes",
    ];
    let out = explore(&construct("math_bfloat16.cu"), &flags);
    assert!(
        out.stdout.contains("kernel narrow: SAFE")
            && out
                .stdout
                .contains("out[0]=1.015625 out[1]=-3.0040553e38 out[2]=inf"),
        "{}{}",
        out.stdout,
        out.stderr
    );
}

/// A function returning a reference is a place: `p.at(0) = x` writes the
/// field, `SharedMemory<float>`'s `operator[]` the extern shared array, and
/// a `const float &` bound to an accessor follows the field it refers to
/// (thread t writes out[2t + 1] = sdata[t + 1] + 1, with sdata[4] zero).
#[test]
fn reference_returning_functions_are_places() {
    let flags = [
        "--grid-dim",
        "1",
        "--block-dim",
        "4",
        "--array",
        "out=8",
        "--outcomes",
    ];
    let out = explore(&construct("class_reference_returns.cu"), &flags);
    assert!(
        out.stdout
            .contains("out[1]=2.0 out[3]=3.0 out[5]=4.0 out[7]=1.0"),
        "{}{}",
        out.stdout,
        out.stderr
    );
}

/// A lambda called through its name is its body inlined at the call with
/// its captures by reference: `pick` returns one of four values by a
/// switch, `load` reads the staged tile (thread t writes tile[t + 1] plus
/// its input; tile[4] is zero with four threads).
#[test]
fn lambdas_run_where_they_are_called() {
    let flags = [
        "--grid-dim",
        "1",
        "--block-dim",
        "4",
        "--array",
        "in=[10,20,30,40]",
        "--array",
        "out=4",
        "--outcomes",
    ];
    let out = explore(&construct("lambda_by_reference.cu"), &flags);
    assert!(
        out.stdout
            .contains("out[0]=11.0 out[1]=22.0 out[2]=33.0 out[3]=40.0"),
        "{}{}",
        out.stdout,
        out.stderr
    );
}

/// Pointers stored in memory: a local array of pointers into a shared
/// array reads the vertices the kernel pointed it at (thread t wrote
/// vertex t of each row, and edges 1, 2, 3 pick threads 1, 2 and 3), and
/// the host's pointers in `lines` and `rows` each reach an object of their
/// own, named by the slot the pointer is in.
#[test]
fn pointers_in_memory_reach_their_objects() {
    let flags = [
        "--grid-dim",
        "1",
        "--block-dim",
        "4",
        "--array",
        "edges=[1,2,3]",
        "--array",
        "out=4",
        "--outcomes",
    ];
    let out = explore(&construct("pointer_array_local.cu"), &flags);
    assert!(
        out.stdout
            .contains("out[0]=123.0 out[1]=123.0 out[2]=123.0 out[3]=123.0"),
        "{}{}",
        out.stdout,
        out.stderr
    );
    // Line 0's pointer (slot 4) is not null and its count is 4; line 1's
    // pointer (slot 10) is null, so block 1 writes only its row.
    let flags = [
        "--grid-dim",
        "2",
        "--block-dim",
        "4",
        "--array",
        "lines=[0,0,3,6,1,4,0,0,0,0,0,0]",
        "--outcomes",
    ];
    let out = explore(&construct("pointer_in_memory.cu"), &flags);
    assert!(
        out.stdout
            .contains("(*lines[slot 4])[6]=3.0 (*lines[slot 4])[7]=6.0 (*rows[slot 0])[0]=0.0")
            && out.stdout.contains("(*rows[slot 1])[3]=1.0")
            && !out.stdout.contains("lines[slot 10]"),
        "{}{}",
        out.stdout,
        out.stderr
    );
}

/// A kernel that launches kernels runs its own threads (the launch is not
/// followed); its racy twin's race among them is found.
#[test]
fn device_launches_run_the_parent_grid() {
    let flags = [
        "--kernel",
        "parent",
        "--param",
        "n=4",
        "--grid-dim",
        "2",
        "--block-dim",
        "4",
        "--array",
        "seen=10",
        "--outcomes",
    ];
    let out = explore(&construct("device_launch.cu"), &flags);
    assert!(
        out.stdout.contains("kernel parent: SAFE")
            && out
                .stdout
                .contains("seen[0]=1 seen[1]=1 seen[2]=0 seen[3]=1"),
        "{}{}",
        out.stdout,
        out.stderr
    );
    assert!(
        out.stderr
            .contains("kernel launches from device code are not followed"),
        "{}",
        out.stderr
    );
    let out = explore(&construct("device_launch_racy.cu"), &flags);
    assert!(
        out.stdout.contains("data race on seen[0]"),
        "{}{}",
        out.stdout,
        out.stderr
    );
}

/// `c ? in[i] : make_float2(0, 0)` reads `in` only where `c` holds: the
/// inactive threads' writes to the upper half do not race with it, and
/// they get zeros.
#[test]
fn conditional_aggregates_read_only_on_their_branch() {
    let flags = [
        "--grid-dim",
        "1",
        "--block-dim",
        "8",
        "--array",
        "in=[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16]",
        "--array",
        "out=16",
        "--outcomes",
    ];
    let out = explore(&construct("conditional_aggregate_loads.cu"), &flags);
    assert!(
        out.stdout.contains("SAFE") && out.stdout.contains("out[6]=7.0 out[7]=8.0 out[8]=0.0"),
        "{}{}",
        out.stdout,
        out.stderr
    );
}
