//! `#include`: search order, include dirs, built-in headers, guards,
//! `#pragma once`, recursion limits and missing-file diagnostics.

use crate::common::{run, run_files, run_full};
use std::path::PathBuf;
use warpsafe_preproc::Options;

#[test]
fn quoted_includes_search_the_including_directory_first() {
    let files = [
        ("src/a.h", "int from_src_a;\n#include \"sub/b.h\"\n"),
        ("src/sub/b.h", "int from_sub_b;\n#include \"../c.h\"\n"),
        ("src/c.h", "int from_src_c;\n"),
        ("inc/a.h", "int wrong;\n"),
    ];
    let opts = Options {
        include_dirs: vec![PathBuf::from("inc")],
        ..Options::default()
    };
    let r = run_full(
        "src/main.cu",
        "#include \"a.h\"\nint main_body;\n",
        &files,
        &opts,
    );
    assert!(r.out.diagnostics.is_empty(), "{:?}", r.out.diagnostics);
    let words: Vec<&str> = r.text().split_whitespace().collect();
    assert_eq!(
        words,
        vec![
            "int",
            "from_src_a;",
            "int",
            "from_sub_b;",
            "int",
            "from_src_c;",
            "int",
            "main_body;"
        ]
    );
    assert!(r.sources.find("src/sub/b.h").is_some());
    assert!(r.sources.find("src/c.h").is_some());
}

#[test]
fn include_dirs_serve_both_forms_in_order() {
    let files = [
        ("first/x.h", "int first_x;\n"),
        ("second/x.h", "int second_x;\n"),
        ("second/y.h", "int second_y;\n"),
    ];
    let opts = Options {
        include_dirs: vec![PathBuf::from("first"), PathBuf::from("second")],
        ..Options::default()
    };
    let r = run_full(
        "main.cu",
        "#include <x.h>\n#include \"y.h\"\n",
        &files,
        &opts,
    );
    assert!(r.out.diagnostics.is_empty(), "{:?}", r.out.diagnostics);
    assert_eq!(
        r.text().split_whitespace().collect::<Vec<_>>(),
        vec!["int", "first_x;", "int", "second_y;"]
    );
}

#[test]
fn builtin_headers_resolve_and_are_registered() {
    let src = "#include <cuda_runtime.h>\n#include <stdint.h>\n#include <cstdint>\n#include \"cuda/atomic\"\n\
               #include <cooperative_groups.h>\n#include <cassert>\n#include <climits>\n#include <sm_60_atomic_functions.h>\n\
               uint32_t x = INT_MAX; size_t n = UINT_MAX;\n";
    let r = run(src);
    assert!(r.out.diagnostics.is_empty(), "{:?}", r.out.diagnostics);
    assert!(r.text().contains("typedef unsigned int uint32_t;"));
    assert!(r.text().contains("typedef unsigned long size_t;"));
    assert!(
        r.text()
            .contains("uint32_t x = 2147483647; size_t n = 4294967295U;"),
        "{}",
        r.text()
    );
    let stdint = r.sources.find("<builtin>/stdint.h").expect("registered");
    assert!(r.sources.file(stdint).builtin);
    assert!(r.sources.find("<builtin>/cuda/atomic").is_some());
    assert!(r
        .sources
        .find("<builtin>/sm_60_atomic_functions.h")
        .is_some());
    // The typedef maps into the built-in header.
    let (lo, hi) = r.find("typedef unsigned int uint32_t;", 0);
    let span = r.out.map.span(lo, hi);
    assert_eq!(span.file, stdint);
    assert_eq!(r.sources.snippet(span), "typedef unsigned int uint32_t;");
}

#[test]
fn builtin_headers_do_not_define_kernel_builtins() {
    let src = "#include <cuda_runtime.h>\n#include <assert.h>\n#include <stdio.h>\n#include <cooperative_groups.h>\n";
    let r = run(src);
    for name in [
        "threadIdx",
        "blockIdx",
        "atomicAdd",
        "__syncthreads",
        "assert",
        "printf",
    ] {
        assert!(!r.out.is_macro(name), "{name} must not be a macro");
    }
    assert!(!r.out.is_macro("EXIT_SUCCESS"));
    let all = run("#include <stdlib.h>\n#include <float.h>\n#include <math.h>\n#include <helper_cuda.h>\nEXIT_SUCCESS FLT_MAX NULL M_PI checkCudaErrors(f(x))\n");
    let last = all.text().lines().last().unwrap_or_default();
    assert_eq!(last, "0 3.40282347e+38F 0 3.14159265358979323846 (f(x))");
}

#[test]
fn real_file_wins_for_quotes_builtin_wins_for_angles() {
    let files = [
        ("cuda_runtime.h", "int user_runtime;\n"),
        ("inc/stdint.h", "int user_stdint;\n"),
    ];
    let opts = Options {
        include_dirs: vec![PathBuf::from("inc")],
        ..Options::default()
    };
    let r = run_full(
        "main.cu",
        "#include \"cuda_runtime.h\"\n#include <stdint.h>\n",
        &files,
        &opts,
    );
    assert!(r.text().contains("int user_runtime;"));
    assert!(!r.text().contains("user_stdint"));
    assert!(r.text().contains("uint32_t"));
}

#[test]
fn missing_quoted_includes_are_errors_missing_system_headers_warnings() {
    let r = run("int a;\n#include <no_such_header.h>\n#include \"nope.h\"\nint b;\n");
    // A quoted include names the project's own file: an error.
    assert_eq!(r.errors().len(), 1, "{:?}", r.out.diagnostics);
    let d = &r.errors()[0];
    assert_eq!(d.code, "include");
    assert!(
        d.message.contains("cannot find include file \"nope.h\""),
        "{}",
        d.message
    );
    assert_eq!(
        r.sources.location(d.span.expect("span")).map(|l| l.line),
        Some(3)
    );
    // A system header warpsafe has no copy of: a warning that says what is
    // assumed.
    let warned: Vec<_> = r
        .out
        .diagnostics
        .iter()
        .filter(|d| d.severity == warpsafe_source::Severity::Warning && d.code == "include")
        .collect();
    assert_eq!(warned.len(), 1, "{:?}", r.out.diagnostics);
    assert!(
        warned[0].message.contains("<no_such_header.h>"),
        "{}",
        warned[0].message
    );
    assert!(
        warned[0].message.contains("host code"),
        "{}",
        warned[0].message
    );
    assert_eq!(
        r.sources.snippet(warned[0].span.expect("span")),
        "#include <no_such_header.h>"
    );
    assert!(r.text().contains("int b;"));
}

#[test]
fn malformed_includes_are_reported() {
    let r = run("#include\n#include foo\n#include <unterminated\n#include \"\"\n");
    assert_eq!(r.errors().len(), 4, "{:?}", r.out.diagnostics);
    assert!(r.errors().iter().all(|d| d.code == "include"));
}

#[test]
fn computed_includes() {
    let r = run_files(
        "#define HDR \"conf.h\"\n#include HDR\n#define SYS <stdint.h>\n#include SYS\nv\n",
        &[("conf.h", "#define v 5\n")],
    );
    assert!(r.out.diagnostics.is_empty(), "{:?}", r.out.diagnostics);
    assert!(r.text().trim_end().ends_with('5'));
    assert!(r.text().contains("uint64_t"));
}

#[test]
fn include_guards_and_pragma_once_prevent_repeats() {
    let files = [
        (
            "g.h",
            "// guarded\n#ifndef G_H\n#define G_H\nint guarded;\n#endif\n",
        ),
        ("o.h", "#pragma once\nint once;\n"),
        ("n.h", "int unguarded;\n"),
    ];
    let r = run_files("#include \"g.h\"\n#include \"g.h\"\n#include \"o.h\"\n#include \"o.h\"\n#include \"n.h\"\n#include \"n.h\"\n", &files);
    assert!(r.out.diagnostics.is_empty(), "{:?}", r.out.diagnostics);
    assert_eq!(r.text().matches("int guarded;").count(), 1);
    assert_eq!(r.text().matches("int once;").count(), 1);
    assert_eq!(r.text().matches("int unguarded;").count(), 2);
    // Each file is registered once.
    assert_eq!(
        r.sources.files().filter(|(_, f)| f.name == "g.h").count(),
        1
    );
}

#[test]
fn recursive_includes_terminate() {
    let files = [
        ("self.h", "x\n#include \"self.h\"\n"),
        ("a.h", "#include \"b.h\"\na\n"),
        ("b.h", "#include \"a.h\"\nb\n"),
    ];
    let r = run_files("#include \"self.h\"\n#include \"a.h\"\n", &files);
    let depth_errors = r
        .errors()
        .iter()
        .filter(|d| d.message.contains("nested too deeply"))
        .count();
    assert!(depth_errors >= 1, "{:?}", r.out.diagnostics);
    assert!(r.errors().iter().all(|d| d.code == "include"));
    // Exponential fan-out is cut off too.
    let fan = [("f.h", "#include \"f.h\"\n#include \"f.h\"\n")];
    let r = run_files("#include \"f.h\"\nend\n", &fan);
    assert!(r.text().contains("end"));
    assert!(!r.errors().is_empty());
    assert!(r.out.diagnostics.len() <= 1001);
}

#[test]
fn included_text_keeps_line_structure() {
    let files = [("h.h", "int h1;\n\nint h3;\n")];
    let r = run_files("int m1;\n#include \"h.h\"\nint m3;\n", &files);
    assert_eq!(r.text(), "int m1;\nint h1;\n\nint h3;\n\nint m3;\n");
}

#[test]
fn files_registered_by_the_caller_are_reused() {
    use crate::common::MapLoader;
    use warpsafe_preproc::preprocess;
    use warpsafe_source::{SourceFile, SourceMap};
    let mut sources = SourceMap::new();
    let main = sources.add(SourceFile::new("k/main.cu", "#include \"h.h\"\n", false));
    let h = sources.add(SourceFile::new("k/h.h", "int pre_registered;\n", false));
    let out = preprocess(
        main,
        &mut sources,
        &Options::default(),
        &MapLoader::default(),
    );
    assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
    assert_eq!(out.text, "int pre_registered;\n");
    assert_eq!(sources.files().count(), 2);
    let lo = out.text.find("pre_registered").unwrap_or(0) as u32;
    assert_eq!(out.map.span(lo, lo + 3).file, h);
}
