//! Surface memory (`surface.rs` in the front end): what both explorers
//! read back from a surface is what a GPU holds (x counts bytes, rows and
//! layers are apart, coordinates beyond the hardware's largest surface
//! touch nothing and read zero), a wrong expectation about it fails, and a
//! surface call on a handle that is not a surface object is refused with a
//! diagnostic that names the construct.

mod common;

use common::Out;
use std::path::Path;

/// One thread writes pixels and reads them back at other sizes and places;
/// every assertion holds on a GPU (for a surface of at least 4 rows of 16
/// bytes and 2 layers).
const VALUES: &str = r#"#include <assert.h>
__global__ void roundTrip(cudaSurfaceObject_t s, cudaSurfaceObject_t l)
{
  surf2Dwrite(0x04030201u, s, 4, 1);
  uchar4 p = surf2Dread<uchar4>(s, 4, 1);
  assert(p.x == 1 && p.w == 4);
  unsigned char b;
  surf2Dread(&b, s, 6, 1);
  assert(b == 3);
  surf2Dwrite(7, s, 4, 2);
  assert(surf2Dread<unsigned int>(s, 4, 1) == 0x04030201u);
  surf2Dwrite(9, s, 1 << 22, 0);
  assert(surf2Dread<int>(s, 1 << 22, 0) == 0);
  surf2DLayeredwrite(1.5f, l, 0, 0, 1);
  surf2DLayeredwrite(2.5f, l, 0, 0, 0);
  assert(surf2DLayeredread<float>(l, 0, 0, 1) == 1.5f);
}
"#;

const ONE: [&str; 4] = ["--grid-dim", "1", "--block-dim", "1"];

fn run(command: &str, path: &Path) -> Out {
    common::run(command, path, &ONE)
}

#[test]
fn explorers_read_back_what_a_gpu_holds() {
    let cu = common::temp_file("surface", "values.cu", VALUES);
    let explored = run("explore", &cu);
    assert!(
        explored.stdout.contains("kernel roundTrip: SAFE"),
        "{}{}",
        explored.stdout,
        explored.stderr
    );
    assert_eq!(explored.code, Some(0), "{}", explored.stdout);
    let ran = run("run", &cu);
    assert!(
        ran.stdout.contains("kernel roundTrip: NO ERROR FOUND"),
        "{}",
        ran.stdout
    );
    // A wrong expectation is caught: the values are really read back.
    for (i, (from, to)) in [
        ("p.x == 1 && p.w == 4", "p.x == 4 && p.w == 1"),
        (
            "surf2Dread<int>(s, 1 << 22, 0) == 0",
            "surf2Dread<int>(s, 1 << 22, 0) == 9",
        ),
        ("== 1.5f", "== 2.5f"),
    ]
    .iter()
    .enumerate()
    {
        let wrong = common::temp_file(
            "surface",
            &format!("values_wrong{i}.cu"),
            &VALUES.replace(from, to),
        );
        for command in ["explore", "run"] {
            let out = run(command, &wrong);
            assert!(
                out.stdout.contains("ERRORS FOUND")
                    && out.stdout.contains("assertion violated: ")
                    && out.stdout.contains(to),
                "{command} {to}: {}",
                out.stdout
            );
        }
    }
}

#[test]
fn a_handle_that_is_not_a_surface_object_is_refused() {
    let cu = common::temp_file(
        "surface",
        "handle.cu",
        "__global__ void k(unsigned long long s)\n{\n  surf2Dwrite(1.0f, s, threadIdx.x * 4, 0);\n}\n",
    );
    let out = common::run("check", &cu, &[]);
    assert!(
        out.stderr.contains("`surf2Dwrite` on a `unsigned long`")
            && out.stderr.contains("`cudaSurfaceObject_t`"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("handle.cu:3:21"), "{}", out.stderr);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
}
