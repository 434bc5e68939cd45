//! Member types of class templates (`member_types.rs`): the specialisation
//! for the arguments written wins over the primary template, a partial
//! specialisation is refused with its name rather than guessed past, and a
//! template whose member type names its next instance without end is an
//! error, not a stack overflow.

use warpsafe_frontend::{compile, Options, SourceLoader};
use warpsafe_ir::Kernel;
use warpsafe_source::{SourceFile, SourceMap};

struct NoFiles;

impl SourceLoader for NoFiles {
    fn load(&self, _: &std::path::Path) -> Option<String> {
        None
    }
}

fn lower(text: &str) -> (Vec<Kernel>, Vec<String>) {
    let (kernels, messages, _) = lower_with_sources(text);
    (kernels, messages)
}

fn lower_with_sources(text: &str) -> (Vec<Kernel>, Vec<String>, SourceMap) {
    let mut sources = SourceMap::new();
    let main = sources.add(SourceFile::new("a.cu", text.to_string(), false));
    let out = compile(main, &mut sources, &Options::default(), &NoFiles);
    let messages = out.diagnostics.iter().map(|d| d.message.clone()).collect();
    (out.module.kernels, messages, sources)
}

/// The element type of the kernel's first parameter, as the IR prints it.
fn first_param(k: &Kernel, sources: &SourceMap) -> String {
    let printed = warpsafe_ir::print_kernel(k, sources);
    let head = printed.lines().next().unwrap_or_default().to_string();
    head.split_once('(')
        .and_then(|(_, rest)| rest.split(',').next())
        .unwrap_or_default()
        .to_string()
}

#[test]
fn the_specialisation_for_the_arguments_wins() {
    let src = "template <typename T, int N> struct S { typedef T Type; };\n\
               template <> struct S<float, 4> { typedef double Type; };\n\
               __global__ void a(S<float, 4>::Type *x) { x[threadIdx.x] = 1; }\n\
               __global__ void b(S<float, 3>::Type *x) { x[threadIdx.x] = 1; }\n";
    let (kernels, messages, sources) = lower_with_sources(src);
    assert_eq!(kernels.len(), 2, "{messages:?}");
    let (a, b) = (
        first_param(&kernels[0], &sources),
        first_param(&kernels[1], &sources),
    );
    assert!(a.contains("f64"), "{a}");
    assert!(b.contains("f32"), "{b}");
}

#[test]
fn a_partial_specialisation_is_refused() {
    let src = "template <typename T, int N> struct S { typedef T Type; };\n\
               template <int N> struct S<int, N> { typedef char Type; };\n\
               __global__ void a(S<int, 4>::Type *x) { x[threadIdx.x] = 1; }\n";
    let (kernels, messages) = lower(src);
    assert!(kernels.is_empty(), "{messages:?}");
    assert!(
        messages
            .iter()
            .any(|m| m.contains("`S` has partial specialisations")),
        "{messages:?}"
    );
}

#[test]
fn an_endless_member_type_is_an_error() {
    let src = "template <int N> struct Deep { typedef typename Deep<N + 1>::Type Type; };\n\
               __global__ void a(Deep<0>::Type *x) { x[threadIdx.x] = 1; }\n";
    let (kernels, messages) = lower(src);
    assert!(kernels.is_empty(), "{messages:?}");
    assert!(
        messages
            .iter()
            .any(|m| m.contains("nested more than 32 deep")),
        "{messages:?}"
    );
}
