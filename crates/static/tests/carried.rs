//! Loop-carried state in closed form (`carried.rs`): ping-pong buffers
//! proven race-free, and every update that is not a clean cycle left as
//! unknown as before. Needs z3 on PATH.

mod common;

use common::kernels;
use warpsafe_static::{check_kernel, Certainty, RaceConfig, Verdict};

/// The verdict on the first kernel of `text`, on one block of 64 threads.
fn verdict(text: &str) -> Verdict {
    let mut k = kernels(text)
        .into_iter()
        .next()
        .expect("test kernel lowers");
    k.launch.block = Some([64, 1, 1]);
    k.launch.grid = Some([1, 1, 1]);
    let v = check_kernel(&k, &RaceConfig::default()).verdict;
    println!("{v:#?}");
    v
}

fn is_drf(v: &Verdict) -> bool {
    matches!(v, Verdict::Drf)
}

fn provable(v: &Verdict) -> bool {
    v.races().iter().any(|r| r.certainty == Certainty::Provable)
}

/// Reads row `r`, writes the other row `w`; `UPDATE` swaps them.
fn ping_pong(init: &str, loop_head: &str, update: &str, read: &str, write: &str) -> String {
    format!(
        "__global__ void k(int *out, int n) {{\n\
           __shared__ int s[2 * 64];\n\
           unsigned t = threadIdx.x;\n\
           {init}\n\
           for ({loop_head}) {{\n\
             int v = s[{read} * 64 + (t + 1) % 64];\n\
             s[{write} * 64 + t] = v;\n\
             __syncthreads();\n\
             {update}\n\
           }}\n\
           out[t] = s[t];\n\
         }}\n"
    )
}

#[test]
fn alternating_rows_are_drf_in_every_loop_shape() {
    let heads = [
        "int i = 0; i < n; i++",
        "int i = 3; i < n; i += 2",
        "unsigned i = 1; i < 1024; i *= 2",
        "int i = 1; i < n; i <<= 1",
        "unsigned i = 512; i > 0; i >>= 1",
        "int i = 100; i > 0; i /= 2",
        "int i = 9; i > 0; i--",
    ];
    let updates = [
        ("unsigned cur = 0;", "cur = 1 - cur;", "cur", "(1 - cur)"),
        ("unsigned cur = 1;", "cur ^= 1;", "cur", "(cur ^ 1)"),
        (
            "unsigned r = 0, w = 1;",
            "unsigned x = r; r = w; w = x;",
            "r",
            "w",
        ),
    ];
    for head in heads {
        for (init, update, read, write) in updates {
            let text = ping_pong(init, head, update, read, write);
            assert!(is_drf(&verdict(&text)), "{text}");
        }
    }
}

#[test]
fn writing_the_row_being_read_is_a_provable_race() {
    let text = ping_pong(
        "unsigned cur = 0;",
        "int i = 0; i < 4; i++",
        "cur = 1 - cur;",
        "cur",
        "cur",
    );
    let v = verdict(&text);
    assert!(provable(&v), "{text}");
}

/// Updates that are no clean cycle keep the variable unknown: no DRF.
#[test]
fn other_updates_are_not_closed() {
    let cases = [
        // A new value in every iteration, not a constant step (`cur += 1`
        // is a derived induction variable, exactly `i` here: see
        // `induction.rs`).
        ("unsigned cur = 0;", "cur = cur * 3 + 1;"),
        // Toggled by some threads only.
        ("unsigned cur = 0;", "if (t < 32) cur = 1 - cur;"),
        // Depends on memory.
        ("unsigned cur = 0;", "cur = s[0] & 1;"),
    ];
    for (init, update) in cases {
        // `write` is `cur + 1` mod 2 only when cur stays in {0, 1}; with
        // cur unknown the rows may meet.
        let text = ping_pong(
            init,
            "int i = 0; i < n; i++",
            update,
            "cur",
            "((cur + 1) % 2)",
        );
        assert!(!is_drf(&verdict(&text)), "{text}");
    }
}

/// A variable set once in the loop (the first iteration sees the value
/// before it) is exact in every iteration.
#[test]
fn a_value_set_once_settles() {
    let text = "__global__ void k(int *out, int n) {\n\
        __shared__ int s[2 * 64];\n\
        unsigned t = threadIdx.x;\n\
        unsigned row = 0;\n\
        for (int i = 0; i < n; i++) {\n\
          s[row * 64 + t] = i;\n\
          __syncthreads();\n\
          out[t] = s[(1 - row) * 64 + (t + 1) % 64];\n\
          __syncthreads();\n\
          row = 1;\n\
        }\n\
      }\n";
    // Iteration 0 writes row 0 and reads row 1, later ones the other way
    // round, each behind a barrier: DRF.
    assert!(is_drf(&verdict(text)), "{text}");
}

/// A loop that may stop mid-iteration (`break`) leaves the variable
/// unknown after it: the row read after the loop is not assumed.
#[test]
fn after_a_break_the_variable_is_unknown() {
    let text = "__global__ void k(int *out, int n) {\n\
        __shared__ int s[4 * 64];\n\
        unsigned t = threadIdx.x;\n\
        unsigned cur = 0;\n\
        for (int i = 0; i < 8; i++) {\n\
          cur = 3;\n\
          if (i == n) break;\n\
          cur = 1;\n\
        }\n\
        s[cur * 64 + t] = 1;\n\
        s[3 * 64 + (t + 1) % 64] = 2;\n\
      }\n";
    assert!(!is_drf(&verdict(text)), "{text}");
}
