//! Memory used at another element size (`view.rs` in the front end): the
//! values both explorers compute through reinterpreting pointers are the
//! bytes a little-endian GPU holds, a wrong expectation about them fails,
//! and a write into part of an element is refused with a diagnostic that
//! names the construct.

mod common;

use common::Out;
use std::path::Path;

/// One thread writes words, floats and shorts and reads them back at other
/// sizes; every assertion holds on a GPU.
const VALUES: &str = r#"#include <assert.h>
__global__ void bytesOfWords(unsigned int *w, float *f, short *s)
{
  unsigned char *b = (unsigned char *)w;
  w[0] = 0x04030201u;
  assert(b[0] == 1 && b[1] == 2 && b[3] == 4);
  f[0] = 1.0f;
  assert(((unsigned char *)f)[3] == 0x3f);
  assert(((unsigned short *)f)[1] == 0x3f80);
  s[0] = -1; s[1] = 2;
  assert(((int *)s)[0] == 0x0002ffff);
  ((int *)s)[1] = 0x00050006;
  assert(s[2] == 6 && s[3] == 5);
  uchar4 p = ((uchar4 *)w)[0];
  assert(p.x == 1 && p.w == 4);
  double *d = (double *)(s + 4);
  d[0] = 2.0;
  assert(((unsigned int *)d)[1] == 0x40000000u && s[7] == 0x4000);
}
"#;

const ONE: [&str; 4] = ["--grid-dim", "1", "--block-dim", "1"];

fn run(command: &str, path: &Path) -> Out {
    common::run(command, path, &ONE)
}

#[test]
fn explorers_read_the_bytes_a_gpu_holds() {
    let cu = common::temp_file("reinterpret", "values.cu", VALUES);
    let explored = run("explore", &cu);
    assert!(
        explored.stdout.contains("kernel bytesOfWords: SAFE"),
        "{}",
        explored.stdout
    );
    assert_eq!(explored.code, Some(0), "{}", explored.stdout);
    let ran = run("run", &cu);
    assert!(
        ran.stdout.contains("kernel bytesOfWords: NO ERROR FOUND"),
        "{}",
        ran.stdout
    );
    // A wrong byte order is caught: the assertions are evaluated.
    let wrong = common::temp_file(
        "reinterpret",
        "values_wrong.cu",
        &VALUES.replace("p.x == 1 && p.w == 4", "p.x == 4 && p.w == 1"),
    );
    for command in ["explore", "run"] {
        let out = run(command, &wrong);
        assert!(
            out.stdout.contains("ERRORS FOUND"),
            "{command}: {}",
            out.stdout
        );
        assert!(
            out.stdout
                .contains("assertion violated: p.x == 4 && p.w == 1"),
            "{command}: {}",
            out.stdout
        );
    }
}

#[test]
fn a_write_into_part_of_an_element_is_refused() {
    let cu = common::temp_file(
        "reinterpret",
        "partial.cu",
        "__global__ void k(unsigned int *w)\n{\n  ((unsigned char *)w)[threadIdx.x] = 1;\n}\n",
    );
    let out = common::run("check", &cu, &[]);
    assert!(
        out.stderr.contains(
            "writing a `unsigned char` into part of a 4-byte element of `w` (`unsigned int` memory)"
        ),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("partial.cu:3:3"), "{}", out.stderr);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
}

/// A row of no bytes (`float s[4][0]`, as `const int N = 08;` makes
/// `float s[N][N]` of an invalid octal literal) has no unit to count
/// bytes in: it is counted in slots, as before, not taken for memory of
/// another element size (the fuzzer found the front end panicking here).
#[test]
fn a_row_of_no_bytes_is_counted_in_slots() {
    let cu = common::temp_file(
        "reinterpret",
        "empty_row.cu",
        "__global__ void k(float *out)\n{\n  __shared__ float s[4][0];\n  s[threadIdx.y][threadIdx.x] = 1.0f;\n  out[threadIdx.x] = 0.0f;\n}\n",
    );
    let out = common::run("ir", &cu, &[]);
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    assert!(
        out.stdout.contains("kernel k("),
        "{}{}",
        out.stdout,
        out.stderr
    );
}
