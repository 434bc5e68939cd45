//! Host helpers that strip trailing zero bits (`launch_relation/odd_part.rs`):
//! `assert(factorRadix2(log2L, n) == 1)` says `n` is a power of two, and
//! the launch relation reads the call as `n`'s odd part; a helper that
//! computes anything else is not read at all.

mod common;

use common::first_relation;

const KERNEL: &str =
    "__global__ void k(unsigned *d, unsigned size) { d[threadIdx.x & (size - 1)] = 0; }\n";

/// The launch relation of `k` launched after `helper` and `host`'s body.
fn relation(helper: &str, host: &str) -> Option<String> {
    first_relation(&format!(
        "{KERNEL}{helper}\nvoid run(unsigned *d, unsigned n) {{ {host} k<<<1, 256>>>(d, n); }}\n"
    ))
}

/// `odd(size) == 1` read as the power-of-two test it is.
const ODD: &str = "size != 0u && (size & size - 1u) == 0u";

#[test]
fn a_helper_that_strips_trailing_zeros_is_the_odd_part() {
    for (helper, call) in [
        // cuda-samples' scan and sorting networks.
        (
            "static unsigned f(unsigned &log2L, unsigned L) { if (!L) { log2L = 0; return 0; } \
             else { for (log2L = 0; (L & 1) == 0; L >>= 1, log2L++); return L; } }",
            "unsigned log2L; unsigned r = f(log2L, n);",
        ),
        (
            "unsigned f(unsigned *log2L, unsigned L) { if (!L) { *log2L = 0; return 0; } \
             else { for (*log2L = 0; (L & 1) == 0; L >>= 1, *log2L++); return L; } }",
            "unsigned log2L; unsigned r = f(&log2L, n);",
        ),
        // A while loop, a guard without else, other spellings.
        (
            "unsigned f(unsigned L) { if (L == 0) return 0; while (!(L & 1)) { L = L / 2; } return L; }",
            "unsigned r = f(n);",
        ),
        (
            "unsigned f(unsigned L) { int steps = 0; while (L % 2 == 0) { L /= 2; steps++; } return L; }",
            "unsigned r = f(n);",
        ),
    ] {
        let rel = relation(helper, &format!("{call} if (r != 1) return;"));
        assert_eq!(rel.as_deref(), Some(ODD), "{helper}");
    }
    // Called in the condition itself.
    let helper = "unsigned f(unsigned L) { while ((L & 1) == 0) L >>= 1; return L; }";
    assert_eq!(
        relation(helper, "if (f(n) != 1) return;").as_deref(),
        Some(ODD)
    );
}

#[test]
fn anything_else_is_not_read() {
    for helper in [
        // Halves twice, leaves early, returns early, shifts the wrong way.
        "unsigned f(unsigned L) { while ((L & 1) == 0) { L >>= 1; L >>= 1; } return L; }",
        "unsigned f(unsigned L) { while ((L & 1) == 0) { if (L > 64) break; L >>= 1; } return L; }",
        "int q; unsigned f(unsigned L) { if (q) return 7; while ((L & 1) == 0) L >>= 1; return L; }",
        "unsigned f(unsigned L) { while ((L & 1) == 0) L <<= 1; return L; }",
        // A signed parameter, something else done to it first, another
        // value returned, another bit tested.
        "int f(int L) { while ((L & 1) == 0) L >>= 1; return L; }",
        "unsigned f(unsigned L) { L += 2; while ((L & 1) == 0) L >>= 1; return L; }",
        "unsigned f(unsigned L) { unsigned m = L; while ((L & 1) == 0) L >>= 1; return m; }",
        "unsigned f(unsigned L) { while ((L & 2) == 0) L >>= 1; return L; }",
    ] {
        let rel = relation(helper, "if (f(n) != 1) return;");
        assert_eq!(rel, None, "{helper}");
    }
}
