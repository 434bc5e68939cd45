//! Launch dimensions built field by field in host code (`dim3 b; b.x =
//! 64;`, `launch_fields.rs`): taken when straight-line code before the
//! launch fixes them, unknown as soon as anything may write the variable
//! otherwise.

mod common;

use common::lower;

const KERNEL: &str =
    "__global__ void k(float *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 0; }\n";

fn dims(host: &str) -> (Option<[u64; 3]>, Option<[u64; 3]>) {
    let (kernels, messages) = lower(&format!(
        "{KERNEL}int main() {{ float *a = 0;\n{host}\n}}\n"
    ));
    let k = kernels
        .first()
        .unwrap_or_else(|| panic!("no kernel: {messages:?}"));
    (k.launch.grid, k.launch.block)
}

#[test]
fn straight_line_fields_give_the_dimensions() {
    let (grid, block) = dims(
        "dim3 grid, block; block.x = 128; block.y = 2; grid.x = 4096 / (block.x * block.y);\n\
         printf(\"%u\\n\", grid.x); k<<<grid, block>>>(a);",
    );
    assert_eq!(block, Some([128, 2, 1]));
    assert_eq!(grid, Some([16, 1, 1]));
    // Declared and never written: dim3's default (1, 1, 1); the
    // constructor's arguments are the starting point.
    let (grid, block) = dims("dim3 grid; dim3 block(32, 4); block.z = 2; k<<<grid, block>>>(a);");
    assert_eq!(grid, Some([1, 1, 1]));
    assert_eq!(block, Some([32, 4, 2]));
}

#[test]
fn anything_that_may_write_the_variable_makes_it_unknown() {
    for host in [
        // Passed to a function (perhaps by reference), its address taken,
        // written in a branch or as a whole, or a component not constant.
        "dim3 b; b.x = 64; setup(b); k<<<1, b>>>(a);",
        "dim3 b; b.x = 64; dim3 *p = &b; k<<<1, b>>>(a);",
        "dim3 b; b.x = 64; if (a) { b.x = 32; } k<<<1, b>>>(a);",
        "dim3 b; b.x = 64; b = other(); k<<<1, b>>>(a);",
        "dim3 b; b.x = n; k<<<1, b>>>(a);",
        "dim3 b; b.x = 64; again: b.y = 2; k<<<1, b>>>(a); goto again;",
    ] {
        let (_, block) = dims(host);
        assert_eq!(block, None, "{host}");
    }
}
