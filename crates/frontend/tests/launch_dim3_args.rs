//! A `dim3` component passed as a kernel argument
//! (`launch_relation/dim3_arg.rs`): the launch's own block or grid
//! component is that dimension, whatever its value; another `dim3`'s
//! component has that `dim3`'s value where it is unchanged.

mod common;

use common::first_relation;

const KERNEL: &str = "__global__ void k(float *out, int w) { out[threadIdx.x] = w; }\n";

/// The relation of `k` launched from `body` (in `void run(float *d, int
/// n)`).
fn relation(body: &str) -> Option<String> {
    first_relation(&format!("{KERNEL}void run(float *d, int n) {{ {body} }}\n"))
}

#[test]
fn the_launchs_own_component_is_its_dimension() {
    // dwtHaar1D: the block's width is chosen in branches.
    let rel = relation("dim3 b; if (n > 10) b.x = 512; else b.x = n; k<<<4, b>>>(d, b.x);");
    assert_eq!(rel.as_deref(), Some("w == (i32)blockDim.x"));
    let rel = relation("dim3 g; g.x = n; g.y = 2; k<<<g, 64>>>(d, g.y);");
    assert!(rel.unwrap().contains("w == (i32)gridDim.y"));
}

#[test]
fn a_launch_that_may_write_the_dim3_gives_no_equality() {
    for body in [
        "dim3 b; b.x = n; k<<<4, b>>>(d, b.x++);",
        "dim3 b; b.x = n; void f(dim3 &); k<<<4, b>>>(d + (f(b), 0), b.x);",
        // Another `dim3`'s component, or a computed one.
        "dim3 b, c; b.x = n; c.x = n; k<<<4, b>>>(d, c.x);",
        "dim3 b; b.x = n; k<<<4, b>>>(d, b.x / 2);",
    ] {
        let rel = relation(body);
        assert!(
            !rel.as_deref().unwrap_or("").contains("blockDim.x"),
            "{body}: {rel:?}"
        );
    }
}

#[test]
fn another_dim3s_component_has_its_value() {
    // Mandelbrot: `grid.x` is passed, with the width it is computed from;
    // the launch uses other dimensions. The `dim3` converts `n / 16` to
    // unsigned: as in a launch, it is taken not to be negative.
    let text = "__global__ void k(float *out, int w, int m) { out[threadIdx.x] = w; }\n\
                void run(float *d, int n) { BODY }\n";
    let with = |body: &str| first_relation(&text.replace("BODY", body));
    let rel = with("dim3 grid(n / 16, n / 8); k<<<20, 256>>>(d, grid.x, n);");
    assert_eq!(
        rel.as_deref(),
        Some("m / 16 >= 0 && w == (i32)(u32)(m / 16)")
    );
    // Changed after its declaration: nothing known of it.
    let rel = with("dim3 grid(n / 16); grid.x += 1; k<<<20, 256>>>(d, grid.x, n);");
    assert_eq!(rel, None);
}
