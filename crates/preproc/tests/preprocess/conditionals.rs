//! Conditional compilation: `#if` arithmetic, `defined`, `#elif` chains,
//! nesting, skipped blocks, and diagnostics for unbalanced conditionals.

use crate::common::{run, run_files};

fn kept(src: &str) -> String {
    run(src)
        .text()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn if_arithmetic_and_defined() {
    let src = "#define A 3\n#define B\n\
               #if A * 2 + 1 == 7 && defined A && defined(B) && !defined C\nyes1\n#endif\n\
               #if (A << 2) > 10 ? 1 : 0\nyes2\n#endif\n\
               #if -1 > 0u\nyes3\n#endif\n\
               #if 'a' == 97 && 0x10 == 16 && 010 == 8\nyes4\n#endif\n\
               #if UNDEFINED_THING == 0 && true\nyes5\n#endif\n\
               #if 1 / 2\nno\n#endif\n";
    assert_eq!(kept(src), "yes1 yes2 yes3 yes4 yes5");
}

#[test]
fn defined_inside_macros_and_function_macros_in_if() {
    let src =
        "#define HAS_ONE defined(ONE) && defined ONE\n#define ONE 1\n#define TWICE(x) ((x) * 2)\n\
               #if HAS_ONE && TWICE(ONE) == 2\nok\n#endif\n\
               #if defined ONE && ONE\nok2\n#endif\n";
    assert_eq!(kept(src), "ok ok2");
}

#[test]
fn elif_chains_and_nesting() {
    let src = "#define V 2\n\
               #if V == 1\none\n#elif V == 2\ntwo\n#elif V == 2\ntwo_again\n#else\nother\n#endif\n\
               #ifdef V\n#ifndef W\nnested\n#else\nbad\n#endif\n#else\nbad2\n#endif\n\
               #if 0\n#if 1\nskipped\n#else\nskipped2\n#endif\n#elif 1\nlate\n#endif\n";
    assert_eq!(kept(src), "two nested late");
}

#[test]
fn skipped_blocks_ignore_garbage_and_keep_lines() {
    let src = "a\n#if 0\ndon't \"unterminated\n#error not reached\n#include <nope.h>\n#bogus\n/* #endif */\n#endif\nb\n";
    let r = run(src);
    assert!(r.out.diagnostics.is_empty(), "{:?}", r.out.diagnostics);
    let lines: Vec<&str> = r.text().lines().collect();
    assert_eq!(lines[0], "a");
    assert_eq!(lines[8], "b");
}

#[test]
fn elifdef_and_elifndef() {
    let src = "#define X\n#ifdef NOPE\na\n#elifdef X\nb\n#endif\n#ifdef NOPE\nc\n#elifndef NOPE2\nd\n#endif\n";
    assert_eq!(kept(src), "b d");
}

#[test]
fn errors_in_if_expressions() {
    let r = run("#if 1 +\na\n#endif\n#if\nb\n#endif\n#if 1.5\nc\n#endif\n#if 1/0\nd\n#endif\n#if defined\ne\n#endif\nz\n");
    assert_eq!(r.errors().len(), 5, "{:?}", r.out.diagnostics);
    assert_eq!(r.text().trim(), "z");
    // Errors point into the directive line.
    let first = r.errors()[0].span.expect("has a span");
    assert_eq!(r.sources.location(first).map(|l| l.line), Some(1));
}

#[test]
fn unbalanced_conditionals_are_reported_at_the_directive() {
    let r = run("#if 1\na\n#else\nb\n#else\nc\n#endif\n#endif\n#elif 1\n#else\n#ifdef X\n");
    let msgs: Vec<String> = r.errors().iter().map(|d| d.message.clone()).collect();
    assert_eq!(
        msgs,
        vec![
            "#else after #else",
            "#endif without #if",
            "#elif without #if",
            "#else without #if",
            "unterminated #ifdef"
        ],
    );
    let lines: Vec<u32> = r
        .errors()
        .iter()
        .map(|d| {
            r.sources
                .location(d.span.expect("span"))
                .map_or(0, |l| l.line)
        })
        .collect();
    assert_eq!(lines, vec![5, 8, 9, 10, 11]);
    assert_eq!(r.text().split_whitespace().collect::<Vec<_>>(), vec!["a"]);
}

#[test]
fn conditionals_do_not_leak_out_of_included_files() {
    let r = run_files(
        "#include \"open.h\"\nafter\n",
        &[("open.h", "#if 1\ninside\n")],
    );
    assert_eq!(r.errors().len(), 1);
    assert_eq!(r.errors()[0].message, "unterminated #if");
    assert_eq!(
        r.sources.describe(r.errors()[0].span.expect("span")),
        "open.h:1:1"
    );
    assert!(r.text().contains("after"));
}

#[test]
fn has_include_and_feature_tests() {
    let src = "#if __has_include(<cuda_runtime.h>) && __has_include(\"here.h\") && !__has_include(<nope.h>)\nyes\n#endif\n\
               #if defined(__has_builtin) && __has_builtin(__builtin_expect)\nno\n#else\nfallback\n#endif\n";
    let r = run_files(src, &[("here.h", "")]);
    assert_eq!(
        r.text().split_whitespace().collect::<Vec<_>>(),
        vec!["yes", "fallback"]
    );
    assert!(r.out.diagnostics.is_empty(), "{:?}", r.out.diagnostics);
}

#[test]
fn error_warning_pragma_line_and_unknown_directives() {
    let src = "#error Unsupported   architecture\n#warning check this\n#pragma unroll\n#pragma unroll 4\n#line 100 \"x.cu\"\n#frobnicate\n#\n# 7 \"m.cu\"\nfor (;;) {}\n";
    let r = run(src);
    assert_eq!(r.errors().len(), 1);
    assert_eq!(r.errors()[0].message, "#error Unsupported architecture");
    assert_eq!(r.errors()[0].code, "preproc");
    let w: Vec<String> = r.warnings().iter().map(|d| d.message.clone()).collect();
    assert_eq!(
        w,
        vec![
            "#warning check this".to_string(),
            "unknown preprocessing directive \"#frobnicate\"".to_string()
        ]
    );
    let lines: Vec<&str> = r.text().lines().collect();
    assert_eq!(lines.len(), 9);
    assert_eq!(lines[8], "for (;;) {}");
    assert!(lines[..8].iter().all(|l| l.is_empty()));
}
