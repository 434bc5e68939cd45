//! Line-map precision: verbatim tokens map byte-exactly, expansions map to
//! the outermost invocation, included text maps into the included file.

use crate::common::{run, run_files};

#[test]
fn verbatim_tokens_map_exactly() {
    let src = "// header comment\n__global__ void k(int *p) {\n    p[threadIdx.x] = 1; /* c */ int  q;\n}\n";
    let r = run(src);
    let (lo, hi) = r.find("threadIdx", 0);
    assert_eq!(
        r.origin(lo, hi),
        ("main.cu:3:7".to_string(), "threadIdx".to_string())
    );
    let (lo, _) = r.find("p[", 0);
    let (_, hi) = r.find("= 1;", 0);
    assert_eq!(r.origin(lo, hi).1, "p[threadIdx.x] = 1;");
    // Past a comment the tokens still map exactly.
    let (lo, hi) = r.find("q", 0);
    assert_eq!(
        r.origin(lo, hi),
        ("main.cu:3:38".to_string(), "q".to_string())
    );
    // Every output byte of a verbatim token maps to the same byte.
    let (lo, _) = r.find("void", 0);
    for k in 0..4 {
        let span = r.out.map.span(lo + k, lo + k + 1);
        assert_eq!(r.sources.snippet(span), &"void"[k as usize..k as usize + 1]);
    }
    // Output lines equal input lines when nothing is included.
    assert_eq!(
        r.text().lines().nth(2).map(str::trim_start),
        Some("p[threadIdx.x] = 1; int  q;")
    );
}

#[test]
fn expansion_tokens_map_to_the_outermost_invocation() {
    let src =
        "#define INNER(x) (x + 1)\n#define OUTER(y) INNER(y) * 2\nint a = OUTER(b);\nint c = 7;\n";
    let r = run(src);
    let (lo, hi) = r.find("+ 1", 0);
    assert_eq!(
        r.origin(lo, hi),
        ("main.cu:3:9".to_string(), "OUTER(b)".to_string())
    );
    let (lo, hi) = r.find("b", 0);
    assert_eq!(r.origin(lo, hi).1, "OUTER(b)");
    assert!(r.out.map.is_expansion(lo));
    let (lo, hi) = r.find("int a", 0);
    assert_eq!(r.origin(lo, hi).1, "int a");
    assert!(!r.out.map.is_expansion(lo));
    let (lo, hi) = r.find("7", 0);
    assert_eq!(
        r.origin(lo, hi),
        ("main.cu:4:9".to_string(), "7".to_string())
    );
    // A range from verbatim text into an expansion covers both.
    let (lo, _) = r.find("int a", 0);
    let (_, hi) = r.find("* 2", 0);
    assert_eq!(r.origin(lo, hi).1, "int a = OUTER(b)");
}

#[test]
fn object_macros_and_builtins_map_to_their_name() {
    let r = run("#define N 128\nfloat s[N]; int l = __LINE__;\n");
    let (lo, hi) = r.find("128", 0);
    assert_eq!(
        r.origin(lo, hi),
        ("main.cu:2:9".to_string(), "N".to_string())
    );
    let (lo, hi) = r.find("2;", 0);
    assert_eq!(r.origin(lo, hi - 1).1, "__LINE__");
}

#[test]
fn multi_line_invocation_maps_to_the_whole_call() {
    let src = "#define ADD(a, b) ((a) + (b))\nint x = ADD(1,\n            2);\nint y;\n";
    let r = run(src);
    let (lo, hi) = r.find("((1) + (2))", 0);
    assert_eq!(
        r.origin(lo, hi),
        (
            "main.cu:2:9".to_string(),
            "ADD(1,\n            2)".to_string()
        )
    );
    let (lo, hi) = r.find("int y", 0);
    assert_eq!(r.origin(lo, hi).0, "main.cu:4:1");
}

#[test]
fn macro_invoked_in_a_header_maps_into_the_header() {
    let files = [("h.h", "#define TWICE(x) (2 * (x))\nint h = TWICE(3);\n")];
    let r = run_files("#include \"h.h\"\nint m = TWICE(4);\n", &files);
    let (lo, hi) = r.find("(2 * (3))", 0);
    assert_eq!(
        r.origin(lo, hi),
        ("h.h:2:9".to_string(), "TWICE(3)".to_string())
    );
    let (lo, hi) = r.find("(2 * (4))", 0);
    assert_eq!(
        r.origin(lo, hi),
        ("main.cu:2:9".to_string(), "TWICE(4)".to_string())
    );
}

#[test]
fn included_tokens_map_into_the_included_file() {
    let files = [(
        "dir/k.cuh",
        "\n\n__device__ int helper(int v) { return v * 2; }\n",
    )];
    let r = run_files("int before;\n#include \"dir/k.cuh\"\nint after;\n", &files);
    let (lo, hi) = r.find("helper", 0);
    assert_eq!(
        r.origin(lo, hi),
        ("dir/k.cuh:3:16".to_string(), "helper".to_string())
    );
    let (lo, hi) = r.find("after", 0);
    assert_eq!(
        r.origin(lo, hi),
        ("main.cu:3:5".to_string(), "after".to_string())
    );
    let (lo, hi) = r.find("before", 0);
    assert_eq!(
        r.origin(lo, hi),
        ("main.cu:1:5".to_string(), "before".to_string())
    );
}

#[test]
fn spliced_tokens_map_to_their_whole_source() {
    let r = run("int lo\\\nng_name = 1;\n");
    let (lo, hi) = r.find("long_name", 0);
    assert_eq!(r.origin(lo, hi).1, "lo\\\nng_name");
}

#[test]
fn every_output_byte_maps_somewhere_valid() {
    let files = [("h.h", "#define H(x) x##x\nint H(v);\n")];
    let src = "#include \"h.h\"\n#include <stdint.h>\n#define F(a, ...) f(a, ##__VA_ARGS__)\nF(1)\nF(2, 3,\n 4) /* c */ uint8_t q;\n";
    let r = run_files(src, &files);
    let n = r.text().len() as u32;
    for lo in 0..n {
        for hi in [lo, lo + 1, (lo + 7).min(n)] {
            let span = r.out.map.span(lo, hi);
            let file = r
                .sources
                .get(span.file)
                .expect("span names a registered file");
            assert!(
                span.lo <= span.hi && span.hi as usize <= file.text.len(),
                "{span:?} for {lo}..{hi}"
            );
        }
    }
}
