//! The front end never panics: arbitrary text, and token soups drawn from
//! CUDA's vocabulary (which reach deep into lowering), give diagnostics or
//! kernels, nothing else. The cargo-fuzz target in `fuzz/` does the same
//! search for longer.

use proptest::prelude::*;
use warpsafe_frontend::{compile, Options, SourceLoader};
use warpsafe_source::{SourceFile, SourceMap};

struct NoFiles;

impl SourceLoader for NoFiles {
    fn load(&self, _: &std::path::Path) -> Option<String> {
        None
    }
}

fn run(text: String) {
    let mut sources = SourceMap::new();
    let main = sources.add(SourceFile::new("p.cu", text, false));
    let out = compile(main, &mut sources, &Options::default(), &NoFiles);
    // Every diagnostic's span lies inside a registered file.
    for d in &out.diagnostics {
        if let Some(s) = d.span {
            let f = sources
                .get(s.file)
                .expect("diagnostic spans name registered files");
            assert!(
                s.lo <= s.hi && s.hi as usize <= f.text.len(),
                "span {s:?} outside {}",
                f.name
            );
        }
    }
}

const WORDS: &[&str] = &[
    "__global__",
    "__device__",
    "__shared__",
    "void",
    "int",
    "float",
    "unsigned",
    "k",
    "f",
    "a",
    "b",
    "i",
    "n",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    "=",
    "+",
    "-",
    "*",
    "&",
    "<",
    ">",
    "<<",
    "?",
    ":",
    "++",
    "+=",
    "if",
    "else",
    "for",
    "while",
    "do",
    "switch",
    "case",
    "default",
    "break",
    "continue",
    "return",
    "goto",
    "threadIdx.x",
    "blockIdx.x",
    "blockDim.x",
    "__syncthreads()",
    "atomicAdd",
    "0",
    "1",
    "32",
    "2.0f",
    "#define",
    "#if",
    "#endif",
    "#include",
    "\n",
    "struct",
    "S",
    ".",
    "->",
    "template",
    "typename",
    "T",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_text(text in "\\PC{0,200}") {
        run(text);
    }

    #[test]
    fn token_soup(tokens in prop::collection::vec(prop::sample::select(WORDS), 0..120)) {
        run(tokens.join(" "));
    }

    #[test]
    fn kernel_with_random_body(tokens in prop::collection::vec(prop::sample::select(WORDS), 0..60)) {
        run(format!("__global__ void k(float *a, int n) {{\n int i = threadIdx.x;\n {} \n}}\n", tokens.join(" ")));
    }
}
