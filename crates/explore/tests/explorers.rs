//! Every registered explorer through the one trait, on kernels compiled
//! by the front end: the same errors where every execution is an
//! interleaving, and the verdict each one's coverage allows.

use warpsafe_explore::{decide, explorers, Coverage, Evidence, Limits, Run, Verdict};
use warpsafe_frontend::{compile, Options, SourceLoader};
use warpsafe_interp::Launch;
use warpsafe_ir::Kernel;
use warpsafe_mc::{ErrorKind, Flow};
use warpsafe_source::{SourceFile, SourceMap};

struct NoFiles;

impl SourceLoader for NoFiles {
    fn load(&self, _: &std::path::Path) -> Option<String> {
        None
    }
}

fn kernel(src: &str) -> Kernel {
    let mut sources = SourceMap::new();
    let main = sources.add(SourceFile::new("k.cu", src.to_string(), false));
    let out = compile(main, &mut sources, &Options::default(), &NoFiles);
    assert!(!out.has_errors(), "{:?}", out.diagnostics);
    out.module.kernels.into_iter().next().expect("one kernel")
}

/// Each explorer's verdict and the error kinds its runs showed.
fn explore_all(src: &str, grid: u32, block: u32) -> Vec<(&'static str, Verdict, Vec<ErrorKind>)> {
    let k = kernel(src);
    let launch = Launch::new([grid, 1, 1], [block, 1, 1]);
    explorers()
        .iter()
        .map(|e| {
            let (mut kinds, mut complete) = (Vec::new(), 0);
            let limits = match e.coverage() {
                Coverage::Exhaustive => Limits::default(),
                Coverage::Bounded => Limits::schedules(),
            };
            let summary = e
                .explore(&k, &launch, &limits, &mut |run: Run<'_>| {
                    complete += usize::from(run.is_complete());
                    for kind in run.error_kinds() {
                        if !kinds.contains(&kind) {
                            kinds.push(kind);
                        }
                    }
                    Flow::Continue
                })
                .expect("explores");
            assert!(summary.finished(), "{}: {summary:?}", e.name());
            assert!(summary.runs() >= 1, "{}", e.name());
            let verdict = decide(
                e.coverage(),
                Evidence {
                    errors: !kinds.is_empty(),
                    complete_runs: complete,
                    none_complete: "no run ended".into(),
                    ..Evidence::default()
                },
            );
            (e.name(), verdict, kinds)
        })
        .collect()
}

const RACY: &str = r#"
__global__ void shift(int *a) {
    a[threadIdx.x] = a[threadIdx.x + 1];
}"#;

const CLEAN: &str = r#"
__global__ void shift(int *a) {
    __shared__ int s[4];
    s[threadIdx.x] = a[threadIdx.x];
    __syncthreads();
    a[threadIdx.x] = s[(threadIdx.x + 1) % 4];
}"#;

#[test]
fn every_explorer_finds_a_race_of_every_interleaving() {
    for (name, verdict, kinds) in explore_all(RACY, 1, 2) {
        assert_eq!(verdict, Verdict::ErrorsFound, "{name}");
        assert_eq!(kinds, [ErrorKind::DataRace], "{name}");
    }
}

#[test]
fn only_an_exhaustive_explorer_calls_a_clean_kernel_safe() {
    for (name, verdict, kinds) in explore_all(CLEAN, 1, 4) {
        assert!(kinds.is_empty(), "{name}: {kinds:?}");
        let coverage = warpsafe_explore::by_name(name)
            .expect("registered")
            .coverage();
        let expected = match coverage {
            Coverage::Exhaustive => Verdict::Safe,
            Coverage::Bounded => Verdict::NoErrorFound,
        };
        assert_eq!(verdict, expected, "{name}");
    }
}
