//! Robustness: garbage input never panics or hangs, runaway expansion is
//! cut off with a diagnostic, and a large kernel preprocesses quickly.

use crate::common::{run, run_files};
use std::time::{Duration, Instant};

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const PIECES: &[&str] = &[
    "#",
    "#define",
    "#define F(a, ...) a ## __VA_ARGS__ #a",
    "#undef",
    "#if",
    "#ifdef",
    "#ifndef",
    "#elif",
    "#else",
    "#endif",
    "#include",
    "#include \"x.h\"",
    "#include <",
    "<stdint.h>",
    "#pragma",
    "#error",
    "#line",
    "defined",
    "(",
    ")",
    ",",
    "...",
    "__VA_ARGS__",
    "__VA_OPT__",
    "##",
    "\\",
    "\\\n",
    "\n",
    " ",
    "/*",
    "*/",
    "//",
    "\"",
    "'",
    "R\"x(",
    ")x\"",
    "F",
    "F(",
    "G",
    "1",
    "0x",
    "1.5e+",
    "'\\",
    "\u{e9}",
    "\u{feff}",
    "\r\n",
    "\0",
    "_Pragma",
    "__LINE__",
    "__COUNTER__",
    "__has_include(",
    "?",
    ":",
    "-",
    "<<",
    ">>>",
    "@",
    "`",
    "$",
    "{",
    "}",
    "%:",
    "??=",
];

fn garbage(rng: &mut Rng) -> String {
    let mut s = String::new();
    for _ in 0..rng.below(80) {
        if rng.below(5) == 0 {
            // Random characters, including multi-byte ones.
            let c = char::from_u32(rng.below(0x3000) as u32).unwrap_or('?');
            s.push(c);
        } else {
            s.push_str(PIECES[rng.below(PIECES.len())]);
        }
    }
    s
}

#[test]
fn garbage_never_panics() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..3000 {
        let main = garbage(&mut rng);
        let header = garbage(&mut rng);
        let r = run_files(&main, &[("x.h", &header)]);
        // The map answers for every offset.
        let n = r.text().len() as u32;
        for lo in (0..=n).step_by(7) {
            let _ = r.out.map.span(lo, (lo + 5).min(n));
        }
    }
}

#[test]
fn random_bytes_as_lossy_utf8_never_panic() {
    let mut rng = Rng(12345);
    for _ in 0..500 {
        let bytes: Vec<u8> = (0..rng.below(300)).map(|_| rng.next() as u8).collect();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let _ = run(&text);
    }
}

#[test]
fn exponential_expansion_is_cut_off() {
    let mut src = String::from("#define A0 x x\n");
    for i in 1..40 {
        src.push_str(&format!("#define A{i} A{} A{}\n", i - 1, i - 1));
    }
    src.push_str("A39\n");
    cut_off_within(&src, Duration::from_secs(60));
}

/// Runs `src`, which must stop at the expansion limit with its error
/// within `limit`.
fn cut_off_within(src: &str, limit: Duration) -> crate::common::Run {
    let start = Instant::now();
    let r = run(src);
    assert!(start.elapsed() < limit);
    assert!(
        r.errors()
            .iter()
            .any(|d| d.code == "macro" && d.message.contains("too large")),
        "{:?}",
        r.out.diagnostics
    );
    r
}

/// A body that copies its argument many times, nested: the last
/// substitution alone would copy millions of tokens tenfold (gigabytes,
/// found by the front end's fuzz target) before the work limit between
/// expansions is checked; substitution stops at the limit itself.
#[test]
fn one_substitution_of_a_huge_argument_is_cut_off() {
    let src = "#define A(x) x x x x x x x x x x\n#define B(x) A(A(A(A(A(A(x))))))\n\
               B(B(a[threadIdx.x] = 1; b[threadIdx.y] = 2; c = d + e * f;))\n";
    let r = cut_off_within(src, Duration::from_secs(30));
    // Bounded output: the work limit, not tenfold copies of it.
    assert!(r.out.text.len() < 64 << 20, "{} bytes", r.out.text.len());
}

#[test]
fn doubling_pastes_and_stringification_are_cut_off() {
    let src = "#define CAT(a, b) a ## b\n#define D(x) CAT(x, x)\n#define S(x) #x\n#define XS(x) S(x)\n\
               #define D4(x) D(D(D(D(x))))\n#define D16(x) D4(D4(D4(D4(x))))\nD16(D16(D16(ab)))\n\
               #define X4(x) XS(XS(XS(XS(x))))\n#define X16(x) X4(X4(X4(X4(x))))\nX16(X16(X16(q)))\n";
    let start = Instant::now();
    let r = run(src);
    assert!(start.elapsed() < Duration::from_secs(60));
    assert!(!r.errors().is_empty());
    assert!(r.text().len() < 64 << 20);
}

#[test]
fn deep_nesting_is_bounded() {
    let deep_args = format!(
        "#define f(x) x\n{}1{}\n",
        "f(".repeat(5000),
        ")".repeat(5000)
    );
    let r = run(&deep_args);
    assert!(!r.errors().is_empty());
    let deep_if = format!(
        "#if {}1{}\nx\n#endif\n",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let r = run(&deep_if);
    assert_eq!(r.errors().len(), 1);
    let pragmas = "_Pragma(\"x\") ".repeat(50_000);
    let r = run(&pragmas);
    assert!(r.text().trim().is_empty());
    let unterminated = "#define f(x) x\n".to_string() + &"f(".repeat(20_000);
    let _ = run(&unterminated);
}

/// A realistic 2,000-line kernel file with macros and includes.
fn big_kernel() -> String {
    let mut s = String::from(
        "#include <cuda_runtime.h>\n#include <stdint.h>\n#define BLOCK 256\n#define IDX(i, j, n) ((i) * (n) + (j))\n\
         #define CHECK(x) do { if (!(x)) { return; } } while (0)\n#define MAX(a, b) ((a) > (b) ? (a) : (b))\n",
    );
    for k in 0..200 {
        s.push_str(&format!(
            "__global__ void kernel_{k}(float *out, const float *in, int n) {{\n\
             \x20   int i = blockIdx.x * BLOCK + threadIdx.x; // index\n\
             \x20   __shared__ float tile[BLOCK];\n\
             \x20   CHECK(i < n);\n\
             \x20   tile[threadIdx.x] = in[IDX(i, 0, n)];\n\
             \x20   __syncthreads();\n\
             \x20   #pragma unroll\n\
             \x20   for (int s = 1; s < BLOCK; s <<= 1) {{ out[i] = MAX(tile[threadIdx.x], out[i]) + s; }}\n\
             }}\n\n"
        ));
    }
    s
}

#[test]
fn large_kernel_is_fast_and_exact() {
    let src = big_kernel();
    assert!(src.lines().count() >= 2000);
    let start = Instant::now();
    let r = run(&src);
    let elapsed = start.elapsed();
    assert!(r.out.diagnostics.is_empty(), "{:?}", r.out.diagnostics);
    // Generous bound: debug builds on a loaded machine; release is ~ms.
    assert!(elapsed < Duration::from_secs(5), "took {elapsed:?}");
    let (lo, hi) = r.find("kernel_199", 0);
    assert_eq!(r.origin(lo, hi).1, "kernel_199");
}
