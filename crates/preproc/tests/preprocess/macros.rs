//! Macro definition and expansion: object/function-like, nesting,
//! self-reference, `#`/`##`, variadics, predefined macros, `-D`/`-U`.

use crate::common::{run, run_full, squash};
use warpsafe_preproc::Options;

#[test]
fn object_like_macros_expand_and_keep_lines() {
    let r = run("#define N 10\n#define M (N + 1)\nint a[N];\nint b[M];\n");
    assert_eq!(r.text(), "\n\nint a[10];\nint b[(10 + 1)];\n");
    assert!(r.out.diagnostics.is_empty(), "{:?}", r.out.diagnostics);
}

#[test]
fn function_like_and_nested_expansion() {
    let r = run("#define SQ(x) ((x)*(x))\n#define CUBE(x) (SQ(x)*(x))\ny = CUBE(a+1);\n");
    assert_eq!(r.squashed(), "y=(((a+1)*(a+1))*(a+1));");
}

#[test]
fn function_like_name_without_parens_is_not_expanded() {
    let r = run("#define f(x) x+1\nint f;\nint (*p)(int) = f;\nf (2)\n");
    assert_eq!(r.squashed(), "intf;int(*p)(int)=f;2+1");
}

#[test]
fn self_referential_macros_terminate() {
    let r = run(
        "#define foo foo + 1\n#define a b\n#define b a\nfoo; a; b;\n#define f(x) f(x) x\nf(1)\n",
    );
    assert_eq!(r.squashed(), "foo+1;a;b;f(1)1");
    assert!(r.out.diagnostics.is_empty());
}

/// C11 6.10.3.5, EXAMPLE 3.
#[test]
fn standard_example_rescanning() {
    let src = r#"#define x 3
#define f(a) f(x * (a))
#undef x
#define x 2
#define g f
#define z z[0]
#define h g(~
#define m(a) a(w)
#define w 0,1
#define t(a) a
#define p() int
#define q(x) x
#define r(x,y) x ## y
#define str(x) # x
f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);
g(x+(3,4)-w) | h 5) & m
(f)^m(m);
p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };
char c[2][6] = { str(hello), str() };
"#;
    let r = run(src);
    let want = r#"f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1);
f(2 * (2+(3,4)-0,1)) | f(2 * (~ 5)) & f(2 * (0,1))^m(0,1);
int i[] = { 1, 23, 4, 5, };
char c[2][6] = { "hello", "" };"#;
    assert_eq!(r.squashed(), squash(want));
    assert!(r.errors().is_empty(), "{:?}", r.out.diagnostics);
}

/// C11 6.10.3.5, EXAMPLE 4 (without the `#include`).
#[test]
fn standard_example_stringify_and_paste() {
    let src = r#"#define str(s) # s
#define xstr(s) str(s)
#define debug(s, t) printf("x" # s "= %d, x" # t "= %s", \
 x ## s, x ## t)
#define INCFILE(n) vers ## n
#define glue(a, b) a ## b
#define xglue(a, b) glue(a, b)
#define HIGHLOW "hello"
#define LOW LOW ", world"
debug(1, 2);
fputs(str(strncmp("abc\0d", "abc", '\4') // this goes away
 == 0) str(: @\n), s);
xstr(INCFILE(2).h)
glue(HIGH, LOW);
xglue(HIGH, LOW)
"#;
    let r = run(src);
    assert!(
        r.text()
            .contains(r#"printf("x" "1" "= %d, x" "2" "= %s", x1, x2);"#),
        "{}",
        r.text()
    );
    // The second `str(` sits on the next source line, so a newline separates
    // the two string literals.
    assert!(
        r.text()
            .contains(r#"fputs("strncmp(\"abc\\0d\", \"abc\", '\\4') == 0""#),
        "{}",
        r.text()
    );
    assert!(r.text().contains(r#"": @\n", s);"#), "{}", r.text());
    assert!(r.text().contains(r#""vers2.h""#));
    assert!(r.text().contains(r#""hello";"#));
    assert!(r.text().contains(r#""hello" ", world""#));
    assert!(r.errors().is_empty(), "{:?}", r.out.diagnostics);
}

/// C11 6.10.3.3, EXAMPLE (`# ## #` makes `##`).
#[test]
fn hash_hash_example() {
    let src = "#define hash_hash # ## #\n#define mkstr(a) # a\n#define in_between(a) mkstr(a)\n#define join(c, d) in_between(c hash_hash d)\nchar p[] = join(x, y);\n";
    let r = run(src);
    assert!(r.text().contains(r#"char p[] = "x ## y";"#), "{}", r.text());
}

/// C11 6.10.3.5, EXAMPLE 5 (variadic macros).
#[test]
fn variadic_macros() {
    let src = r#"#define debug(...) fprintf(stderr, __VA_ARGS__)
#define showlist(...) puts(#__VA_ARGS__)
#define report(test, ...) ((test)?puts(#test):\
 printf(__VA_ARGS__))
debug("Flag");
debug("X = %d\n", x);
showlist(The first, second, and third items.);
report(x>y, "x is %d but y is %d", x, y);
"#;
    let r = run(src);
    let want = r#"fprintf(stderr, "Flag");
fprintf(stderr, "X = %d\n", x);
puts("The first, second, and third items.");
((x>y)?puts("x>y"): printf("x is %d but y is %d", x, y));"#;
    assert_eq!(r.squashed(), squash(want));
}

#[test]
fn gnu_comma_paste_named_variadics_and_va_opt() {
    let src = "#define LOG(fmt, ...) printf(fmt, ## __VA_ARGS__)\n\
               #define G(args...) g(args)\n\
               #define O(a, ...) o(a __VA_OPT__(,) __VA_ARGS__)\n\
               LOG(\"a\"); LOG(\"b %d\", 1); G(1, 2); O(1); O(1, 2);\n";
    let r = run(src);
    assert_eq!(
        r.squashed(),
        squash(r#"printf("a"); printf("b %d", 1); g(1, 2); o(1); o(1, 2);"#)
    );
}

#[test]
fn paste_builds_identifiers_that_rescan() {
    let r = run("#define CAT(a, b) a ## b\n#define XY 42\n#define VAR(n) var_ ## n\nCAT(X, Y) VAR(3) CAT(, z) CAT(1, 2.5)\n");
    assert_eq!(r.squashed(), "42var_3z12.5");
    let bad = run("#define CAT(a, b) a ## b\nCAT(+, -)\n");
    assert_eq!(bad.errors().len(), 1);
    assert_eq!(bad.errors()[0].code, "macro");
    assert_eq!(bad.squashed(), "+-");
}

#[test]
fn expansion_output_does_not_paste_tokens_by_accident() {
    let r = run("#define P +\n#define I(x) x\na = b P+c; I(-)-d; I(x)y\n#define L(k) k<<<1, 2>>>(p)\nL(kern);\n");
    let t = r.text();
    assert!(t.contains("a = b + +c;"), "{t}");
    assert!(!t.contains("++"), "{t}");
    assert!(!t.contains("--"), "{t}");
    assert!(t.contains("x y"), "{t}");
    assert!(t.contains("kern<<<1, 2>>>(p);"), "{t}");
}

#[test]
fn multi_line_invocations_collapse_but_keep_following_lines() {
    let src = "#define ADD(a, b) ((a) + (b))\nint x = ADD(1,\n            2);\nint y = 3;\n";
    let r = run(src);
    let lines: Vec<&str> = r.text().lines().collect();
    assert_eq!(squash(lines[1]), "intx=((1)+(2))");
    assert_eq!(lines[3], "int y = 3;", "{:?}", r.text());
}

#[test]
fn arity_errors_and_unterminated_invocations() {
    let r = run("#define F(a, b) a b\nF(1)\nF(1, 2, 3)\n#define Z() z\nZ() Z(1)\n");
    assert_eq!(r.errors().len(), 3, "{:?}", r.out.diagnostics);
    assert!(r.errors().iter().all(|d| d.code == "macro"));
    let u = run("#define F(a) a\nF(1, 2\n");
    assert_eq!(u.errors().len(), 1);
    assert!(u.errors()[0].message.contains("unterminated argument list"));
}

#[test]
fn bad_definitions_are_reported() {
    let r = run("#define\n#define 3 x\n#define F(a, a) a\n#define G(a) #b\n#define H ## x\n#undef\n#define defined\nok\n");
    assert_eq!(r.errors().len(), 7, "{:?}", r.out.diagnostics);
    assert_eq!(r.text().trim(), "ok");
}

#[test]
fn redefinition_warns_only_when_different() {
    let r = run("#define A 1\n#define A 1\n#define A 2\nA\n");
    assert_eq!(r.warnings().len(), 1);
    assert!(r.warnings()[0].message.contains("redefined"));
    assert_eq!(r.warnings()[0].labels.len(), 1);
    assert_eq!(r.text().trim(), "2");
}

#[test]
fn predefined_macros() {
    let src = "__CUDACC__ __CUDA_ARCH__ __NVCC__ __cplusplus\nline __LINE__ __FILE__\n__COUNTER__ __COUNTER__\n#define L __LINE__\nL\n";
    let r = run(src);
    let lines: Vec<&str> = r.text().lines().collect();
    assert_eq!(lines[0], "1 800 1 201703L");
    assert_eq!(lines[1], "line 2 \"main.cu\"");
    assert_eq!(lines[2], "0 1");
    assert_eq!(lines[4], "5");
}

/// Code written for the platform nvcc runs on (`#if defined(__linux__)`,
/// an `#error` otherwise) preprocesses: x86-64 Linux, LP64.
#[test]
fn host_platform_macros() {
    let src = "#if defined(__linux__) && defined(__unix__) && defined(__x86_64__) && __LP64__\nlinux\n#else\n#error Unsupported system\n#endif\n";
    let r = run(src);
    assert!(r.errors().is_empty(), "{:?}", r.errors());
    assert_eq!(r.text().trim(), "linux");
}

#[test]
fn command_line_defines_and_undefines() {
    let opts = Options {
        include_dirs: vec![],
        defines: vec![
            ("FLAG".into(), None),
            ("SIZE".into(), Some("256".into())),
            ("SQR(x)".into(), Some("((x)*(x))".into())),
            ("EQ=7".into(), None),
            ("__CUDA_ARCH__".into(), Some("700".into())),
            ("GONE".into(), None),
        ],
        undefines: vec!["GONE".into(), "__NVCC__".into()],
    };
    let r = run_full(
        "k.cu",
        "FLAG SIZE SQR(2) EQ __CUDA_ARCH__ GONE __NVCC__\n",
        &[],
        &opts,
    );
    assert_eq!(r.squashed(), "1256((2)*(2))7700GONE__NVCC__");
    assert!(r.out.is_macro("FLAG"));
    assert!(!r.out.is_macro("GONE"));
    let sqr = r.out.macro_def("SQR").expect("SQR is defined");
    assert_eq!(sqr.params.as_deref(), Some(&["x".to_string()][..]));
    assert_eq!(sqr.body, "((x)*(x))");
}

#[test]
fn macro_list_reports_definitions() {
    let r = run("#define BLOCK 256\n#define MAX(a, b) ((a) > (b) ? (a) : (b))\n");
    let m = r.out.macro_def("MAX").expect("MAX defined");
    assert_eq!(m.params.as_ref().map(Vec::len), Some(2));
    let span = m.span.expect("defined in the file");
    assert_eq!(r.sources.snippet(span), "MAX");
    assert!(r.out.macro_def("BLOCK").is_some_and(|b| b.body == "256"));
    assert!(r.out.macro_def("__LINE__").is_some_and(|l| l.dynamic));
}

#[test]
fn pragma_operator_and_push_pop_macro() {
    let src = "#define UNROLL _Pragma(\"unroll\")\nUNROLL for(;;) {}\n_Pragma(\"once\") x\n\
               #define V 1\n#pragma push_macro(\"V\")\n#undef V\n#define V 2\nV\n#pragma pop_macro(\"V\")\nV\n";
    let r = run(src);
    let lines: Vec<&str> = r.text().lines().collect();
    assert_eq!(lines[1].trim(), "for(;;) {}");
    assert_eq!(lines[2].trim(), "x");
    assert_eq!(lines[7].trim(), "2");
    assert_eq!(lines[9].trim(), "1");
}

#[test]
fn directives_inside_macro_arguments_are_processed() {
    let src = "#define f(x, y) x + y\nf(1,\n#ifdef Z\n 2\n#else\n 3\n#endif\n)\nnext\n";
    let r = run(src);
    assert!(r.out.diagnostics.is_empty(), "{:?}", r.out.diagnostics);
    let lines: Vec<&str> = r.text().lines().collect();
    assert_eq!(lines[1], "1 + 3");
    assert_eq!(lines[8], "next");
}

#[test]
fn empty_and_whitespace_arguments() {
    let r = run("#define V(...) <__VA_ARGS__>\n#define E\n#define S(x) #x\nV() V( ) V(a,b) a E b E(c) S( a\n  b  \"q\\n\" )\n");
    assert_eq!(r.text().trim(), r#"<> <> <a,b> a b(c) "a b \"q\\n\"""#);
}
