//! An approximation is stated once per place in the source: a function
//! inlined at several call sites (here a texture read, an unknown value)
//! warns once per kernel, not once per copy.

use warpsafe_frontend::{compile, Options, SourceLoader};
use warpsafe_source::{SourceFile, SourceMap};

struct NoFiles;

impl SourceLoader for NoFiles {
    fn load(&self, _: &std::path::Path) -> Option<String> {
        None
    }
}

#[test]
fn an_inlined_approximation_warns_once() {
    let src =
        "__device__ float at(cudaTextureObject_t t, int i) { return tex1Dfetch<float>(t, i); }\n\
               __global__ void k(float *out, cudaTextureObject_t t) {\n\
                 out[threadIdx.x] = at(t, 0) + at(t, 1) + at(t, 2);\n\
               }\n";
    let mut sources = SourceMap::new();
    let main = sources.add(SourceFile::new("a.cu", src.to_string(), false));
    let out = compile(main, &mut sources, &Options::default(), &NoFiles);
    assert_eq!(out.module.kernels.len(), 1, "{:?}", out.diagnostics);
    let texture_warnings = out
        .diagnostics
        .iter()
        .filter(|d| d.message.contains("`tex1Dfetch` reads a texture"))
        .count();
    assert_eq!(texture_warnings, 1, "{:?}", out.diagnostics);
}
