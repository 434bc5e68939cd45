//! GPUVerify's file-scope `__axiom(e)`: lowered as an assumption at the
//! start of every kernel of the file; one that cannot be lowered is dropped
//! with a warning (fewer assumptions, never a rejected kernel).

use warpsafe_frontend::{compile, Options, SourceLoader};
use warpsafe_ir::{AssumeOrigin, Kernel, StmtKind};
use warpsafe_source::{SourceFile, SourceMap};

struct NoFiles;

impl SourceLoader for NoFiles {
    fn load(&self, _: &std::path::Path) -> Option<String> {
        None
    }
}

fn lower(text: &str) -> (Vec<Kernel>, Vec<String>) {
    let mut sources = SourceMap::new();
    let main = sources.add(SourceFile::new("a.cu", text.to_string(), false));
    let out = compile(main, &mut sources, &Options::default(), &NoFiles);
    let messages = out.diagnostics.iter().map(|d| d.message.clone()).collect();
    (out.module.kernels, messages)
}

fn axioms(k: &Kernel) -> usize {
    k.body
        .iter()
        .take_while(|s| matches!(s.kind, StmtKind::Assume { .. }))
        .filter(|s| {
            matches!(
                s.kind,
                StmtKind::Assume {
                    origin: AssumeOrigin::Axiom,
                    ..
                }
            )
        })
        .count()
}

#[test]
fn file_scope_axioms_start_every_kernel() {
    let (kernels, messages) = lower(
        "__axiom(blockDim.x == 64);\n\
         __global__ void a(int *p) { p[threadIdx.x] = 1; }\n\
         __axiom(gridDim.x == 2);\n\
         __global__ void b(int *p) { p[0] = 1; }\n",
    );
    assert_eq!(kernels.len(), 2, "{messages:?}");
    for k in &kernels {
        assert_eq!(axioms(k), 2, "{}: {:?}", k.name, k.body);
    }
    assert!(messages.is_empty(), "{messages:?}");
}

#[test]
fn an_axiom_that_cannot_be_lowered_is_dropped_with_a_warning() {
    let (kernels, messages) = lower(
        "__axiom(no_such_name == 3);\n\
         __global__ void a(int *p) { p[threadIdx.x] = 1; }\n",
    );
    assert_eq!(kernels.len(), 1, "{messages:?}");
    assert_eq!(axioms(&kernels[0]), 0);
    assert!(
        messages.iter().any(|m| m.starts_with("axiom ignored")),
        "{messages:?}"
    );
}
