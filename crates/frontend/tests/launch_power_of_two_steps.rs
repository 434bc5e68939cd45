//! Host values that only ever hold a power of two or zero
//! (`launch_relation/power_of_two.rs`): a merge network's `size <<= 1`
//! and `stride >>= 1` counters do not hold their initialisers at the
//! launch, but the relation states that the parameters they are passed as
//! have at most one bit set; any write that could break that drops it.

mod common;

use common::first_relation;

const KERNEL: &str = "__global__ void k(unsigned *d, unsigned stride, int half) \
     { d[threadIdx.x & (stride - 1)] = half; }\n";

/// The launch relation of `k` launched as `launch` after `host`'s body,
/// in a host function with parameters `unsigned n, int m`.
fn relation(host: &str, launch: &str) -> Option<String> {
    first_relation(&format!(
        "{KERNEL}int g = 3;\nvoid run(unsigned *d, unsigned n, int m) {{ {host} {launch} }}\n"
    ))
}

const STRIDE: &str = "(stride & stride - 1u) == 0u";
const HALF: &str = "(half >= 0 && (half & half - 1) == 0)";

#[test]
fn counters_that_double_or_halve_a_power_of_two_are_powers_of_two_or_zero() {
    for (host, launch) in [
        // cuda-samples' sorting networks.
        (
            "for (unsigned size = 2048; size <= n; size <<= 1) \
             for (unsigned stride = size / 2; stride > 0; stride >>= 1)",
            "k<<<1, 256>>>(d, stride, 0);",
        ),
        // Other spellings: `/=`, `*=`, `x = x / 2`, a shifted constant, a
        // cast, a counter declared before the loop.
        (
            "unsigned s = 1u << m; while (s > 1) { s /= 2;",
            "k<<<1, 256>>>(d, s, 0); }",
        ),
        (
            "unsigned s = 4; for (; s < n; s *= 2)",
            "k<<<1, 256>>>(d, s, 0);",
        ),
        (
            "unsigned s = (unsigned)64; while (s) { s = s / 2;",
            "k<<<1, 256>>>(d, s >> 1, 0); }",
        ),
        (
            "unsigned s = 1024; if (n > 4) s = 16;",
            "k<<<1, 256>>>(d, s * 4, 0);",
        ),
    ] {
        let rel = relation(host, launch);
        let expected = format!("half == 0 && {STRIDE}");
        assert_eq!(rel.as_deref(), Some(&*expected), "{host} {launch}");
    }
    // A signed counter that only halves is also not negative.
    let rel = relation(
        "for (int h = 512; h > 0; h >>= 1)",
        "k<<<1, 256>>>(d, 1, h);",
    );
    assert_eq!(rel.as_deref(), Some(&*format!("stride == 1u && {HALF}")));
}

#[test]
fn a_write_that_could_break_the_property_drops_it() {
    for (host, launch) in [
        // Steps by one, adds, starts at 3, starts at the parameter n.
        (
            "for (unsigned s = 1024; s > 0; s--)",
            "k<<<1, 256>>>(d, s, 0);",
        ),
        (
            "for (unsigned s = 1024; s > 0; s -= 1)",
            "k<<<1, 256>>>(d, s, 0);",
        ),
        (
            "for (unsigned s = 3; s < n; s <<= 1)",
            "k<<<1, 256>>>(d, s, 0);",
        ),
        (
            "for (unsigned s = n; s > 0; s >>= 1)",
            "k<<<1, 256>>>(d, s, 0);",
        ),
        // Divided by a value that is not a power of two; assigned
        // something else once.
        ("unsigned s = 1024; s /= 3;", "k<<<1, 256>>>(d, s, 0);"),
        (
            "unsigned s = 1024; if (n) s = n;",
            "k<<<1, 256>>>(d, s, 0);",
        ),
        // Its address taken, or passed to a function that may write it.
        (
            "unsigned s = 1024; unsigned *p = &s; *p = 3;",
            "k<<<1, 256>>>(d, s, 0);",
        ),
        (
            "unsigned s = 1024; void f(unsigned &); f(s);",
            "k<<<1, 256>>>(d, s, 0);",
        ),
        // A `goto` may skip anything.
        (
            "unsigned s = 1024; again: s >>= 1; if (s > 4) goto again;",
            "k<<<1, 256>>>(d, s, 0);",
        ),
        // Signed values that double may overflow to a negative value; `1 <<
        // 31` is negative.
        ("for (int h = 1; h < m; h <<= 1)", "k<<<1, 256>>>(d, 1, h);"),
        ("int h = 1 << m;", "k<<<1, 256>>>(d, 1, h);"),
        // A file-scope variable of the name, read outside the local's
        // scope.
        ("{ unsigned g = 8; g >>= 1; }", "k<<<1, 256>>>(d, g, 0);"),
    ] {
        let rel = relation(host, launch);
        let stride_one = launch.contains("(d, 1, h)");
        let expected = if launch.contains("1 << m") || host.contains("1 << m") {
            // The value itself, over the host's `m`, but not that it has
            // one bit set.
            "half == 1 << run::m && stride == 1u"
        } else if stride_one {
            "stride == 1u"
        } else {
            "half == 0"
        };
        assert_eq!(rel.as_deref(), Some(expected), "{host} {launch}");
    }
}

#[test]
fn two_counters_of_one_name_are_each_their_own_variable() {
    // Each loop declares its own `s`; the launch reads the first, whose
    // values are powers of two, though the second starts at 3.
    let rel = relation(
        "for (unsigned s = 3; s < n; s <<= 1) {} for (unsigned s = 4; s < n; s <<= 1)",
        "k<<<1, 256>>>(d, s, 0);",
    );
    assert_eq!(rel.as_deref(), Some(&*format!("half == 0 && {STRIDE}")));
    // The first `s` is assigned the second's value through `t`: not a
    // power of two, whatever the induction assumes of the name.
    let rel = relation(
        "unsigned t = 1; { unsigned s = 3; t = s; } for (unsigned s = 4; s < n; s = t)",
        "k<<<1, 256>>>(d, s, 0);",
    );
    assert_eq!(rel.as_deref(), Some("half == 0"));
}

/// The relation of `k` launched from `step(d, stride)`, which `callers`
/// (the body of `void run(unsigned *d, unsigned n)`) calls.
fn through_step(callers: &str) -> Option<String> {
    first_relation(&format!(
        "{KERNEL}static void step(unsigned *d, unsigned stride) {{ k<<<1, 256>>>(d, stride, 0); }}\n\
         void run(unsigned *d, unsigned n) {{ {callers} }}\n"
    ))
}

#[test]
fn a_parameter_every_caller_passes_a_power_of_two_is_one() {
    // mergeSort's `generateSampleRanks(..., stride, N)`, called from its
    // `stride <<= 1` loop; also from two calls, one with a constant.
    for callers in [
        "for (unsigned s = 1024; s < n; s <<= 1) step(d, s);",
        "for (unsigned s = 1024; s < n; s <<= 1) step(d, s); step(d, 64);",
    ] {
        assert_eq!(
            through_step(callers).as_deref(),
            Some(&*format!("half == 0 && {STRIDE}")),
            "{callers}"
        );
    }
    // A caller that passes something else (an odd step, a constant that
    // is not a power of two, the caller's own unknown `n`) drops it.
    for callers in [
        "for (unsigned s = 1; s < n; s += 2) step(d, s);",
        "for (unsigned s = 1024; s < n; s <<= 1) step(d, s); step(d, 3);",
        "step(d, n);",
    ] {
        assert_eq!(
            through_step(callers).as_deref(),
            Some("half == 0"),
            "{callers}"
        );
    }
}
