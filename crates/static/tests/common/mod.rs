//! Compiling CUDA text with the real front end for protocol tests.

use warpsafe_frontend::{compile, Options, SourceLoader};
use warpsafe_ir::Kernel;
use warpsafe_source::{SourceFile, SourceMap};

struct NoFiles;

impl SourceLoader for NoFiles {
    fn load(&self, _: &std::path::Path) -> Option<String> {
        None
    }
}

/// Every kernel the front end lowers from `text`.
pub fn kernels(text: &str) -> Vec<Kernel> {
    let mut sources = SourceMap::new();
    let main = sources.add(SourceFile::new("test.cu", text.to_string(), false));
    let out = compile(main, &mut sources, &Options::default(), &NoFiles);
    out.module.kernels
}

/// The first kernel and its printed protocol.
#[allow(dead_code)]
pub fn protocol(text: &str) -> (Kernel, warpsafe_static::KernelProtocol, String) {
    let ks = kernels(text);
    let k = ks.into_iter().next().expect("test kernel lowers");
    let kp = warpsafe_static::infer(&k).expect("inference succeeds");
    let printed = warpsafe_static::print_protocol(&kp, &k);
    (k, kp, printed)
}
