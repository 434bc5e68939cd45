//! Runs every kernel of `tests/kernels/constructs` through the front end and
//! then the interpreter, with a small round-robin driver (one block at a
//! time, threads interleaved one event at a time, block barriers waited
//! for). This checks the interpreter against real front-end IR: no kernel
//! may hit a malformed-IR fault or an unknown function, and no `//pass`
//! kernel may fail an assertion.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use warpsafe_interp::{
    apply_rmw, cas_result, reduce_barrier, Barrier, EventKind, Fault, Launch, Location, Step,
    Thread, ThreadConfig, ThreadCtx, Value,
};
use warpsafe_ir::{Kernel, MemSpace, ParamKind, ScalarTy};

struct FsLoader;

impl warpsafe_frontend::SourceLoader for FsLoader {
    fn load(&self, path: &Path) -> Option<String> {
        std::fs::read_to_string(path).ok()
    }
}

fn kernels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/kernels/constructs")
}

/// The kernels of one file with the header's flags applied, and whether
/// the header says `//pass`.
fn lower(path: &Path) -> (Vec<Kernel>, bool) {
    let text = std::fs::read_to_string(path).expect("readable kernel");
    let header = warpsafe_corpus::parse_header(&text);
    let flags = warpsafe_corpus::parse_flags(&header.flags).expect("valid header flags");
    let pass = header.expectation.as_ref().is_some_and(|e| e.is_pass());
    let mut sources = warpsafe_source::SourceMap::new();
    let main = sources.add(warpsafe_source::SourceFile::new(
        path.display().to_string(),
        text,
        false,
    ));
    let opts = warpsafe_frontend::Options {
        preproc: warpsafe_frontend::PreprocOptions {
            include_dirs: flags.include_dirs.iter().map(PathBuf::from).collect(),
            defines: flags.defines.clone(),
            undefines: flags.undefines.clone(),
        },
        kernels: flags.kernels.clone(),
        template_args: flags.template_args.clone(),
        ..Default::default()
    };
    // The front end recurses over syntax; give it the stack the CLI gives.
    let out = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || warpsafe_frontend::compile(main, &mut sources, &opts, &FsLoader))
        .expect("front-end thread starts")
        .join()
        .expect("front end does not panic");
    let mut kernels = out.module.kernels;
    for k in &mut kernels {
        if flags.block_dim.is_some() {
            k.launch.block = flags.block_dim;
        }
        if flags.grid_dim.is_some() {
            k.launch.grid = flags.grid_dim;
        }
    }
    (kernels, pass)
}

/// An input value for a slot nobody wrote: small, nonzero, deterministic.
fn input(loc: Location, ty: ScalarTy) -> Value {
    let n = (loc.index % 7 + 1) as i128;
    match ty {
        ScalarTy::Bool => Value::Bool(true),
        ScalarTy::F16 | ScalarTy::F32 | ScalarTy::F64 => Value::from_f64(ty, n as f64 * 0.5),
        _ => Value::from_int(ty, n),
    }
}

#[derive(Default)]
struct Report {
    done: usize,
    assertions: Vec<String>,
    infeasible: usize,
    faults: Vec<Fault>,
}

/// Runs every thread of block `block`; shared memory is per block.
fn run_block(
    kernel: &Kernel,
    launch: &Arc<Launch>,
    block: [u32; 3],
    global: &mut HashMap<Location, Value>,
    report: &mut Report,
) {
    let config = ThreadConfig {
        max_steps: 20_000,
        ..ThreadConfig::default()
    };
    let [bx, by, bz] = launch.block_dim;
    let mut threads: Vec<Thread> = Vec::new();
    for z in 0..bz {
        for y in 0..by {
            for x in 0..bx {
                let ctx = ThreadCtx::new(launch.clone(), block, [x, y, z]);
                threads.push(Thread::new(kernel, ctx, config).expect("valid launch"));
            }
        }
    }
    let mut shared: HashMap<Location, Value> = HashMap::new();
    // Per thread: `Some(pred)` while it waits at a block barrier.
    let mut at_barrier: Vec<Option<Option<(warpsafe_ir::ReduceOp, bool)>>> =
        vec![None; threads.len()];
    let mut live: Vec<bool> = vec![true; threads.len()];
    while live.iter().any(|l| *l) {
        let mut progressed = false;
        for i in 0..threads.len() {
            if !live[i] || at_barrier[i].is_some() {
                continue;
            }
            progressed = true;
            let th = &mut threads[i];
            match th.step() {
                Ok(Step::Event(e)) => {
                    let mem = |loc: Location| kernel.array(loc.array).space == MemSpace::Shared;
                    match e.kind {
                        EventKind::Load { loc, ty, .. } => {
                            let m = if mem(loc) { &mut shared } else { &mut *global };
                            let v = m.get(&loc).copied().unwrap_or_else(|| input(loc, ty));
                            let v = if v.ty() == ty {
                                v
                            } else {
                                Value::from_bits(ty, v.to_bits())
                            };
                            th.resume_load(v).expect("load resumes");
                        }
                        EventKind::Store { loc, value, .. } => {
                            let m = if mem(loc) { &mut shared } else { &mut *global };
                            m.insert(loc, value);
                        }
                        EventKind::Rmw {
                            loc, op, operand, ..
                        } => {
                            let m = if mem(loc) { &mut shared } else { &mut *global };
                            let ty = operand.ty();
                            let old = m.get(&loc).copied().unwrap_or_else(|| input(loc, ty));
                            let old = if old.ty() == ty {
                                old
                            } else {
                                Value::from_bits(ty, old.to_bits())
                            };
                            match apply_rmw(op, old, operand) {
                                Ok(new) => {
                                    m.insert(loc, new);
                                }
                                Err(k) => report.faults.push(Fault::new(k, e.span)),
                            }
                            th.resume_rmw(old).expect("rmw resumes");
                        }
                        EventKind::Cas {
                            loc,
                            expected,
                            desired,
                            ..
                        } => {
                            let m = if mem(loc) { &mut shared } else { &mut *global };
                            let ty = expected.ty();
                            let old = m.get(&loc).copied().unwrap_or_else(|| input(loc, ty));
                            let old = if old.ty() == ty {
                                old
                            } else {
                                Value::from_bits(ty, old.to_bits())
                            };
                            m.insert(loc, cas_result(old, expected, desired));
                            th.resume_cas(old).expect("cas resumes");
                        }
                        EventKind::Barrier {
                            barrier: Barrier::Block,
                            reduce,
                            ..
                        } => {
                            at_barrier[i] = Some(reduce);
                        }
                        // Warp, tile and grid barriers pass at once here.
                        EventKind::Barrier { reduce, .. } => {
                            if let Some((op, p)) = reduce {
                                th.resume_barrier(reduce_barrier(op, [p])).expect("resumes");
                            }
                        }
                        EventKind::Fence { .. } => {}
                        EventKind::Havoc { ty, .. } => {
                            th.resume_havoc(Value::zero(ty)).expect("havoc resumes");
                        }
                    }
                }
                Ok(Step::Done) => {
                    live[i] = false;
                    report.done += 1;
                }
                Ok(Step::AssertionFailed { message, .. }) => {
                    live[i] = false;
                    report.assertions.push(message);
                }
                Ok(Step::Infeasible { .. } | Step::Blocked { .. } | Step::Yield { .. }) => {
                    live[i] = false;
                    report.infeasible += 1;
                }
                Err(f) => {
                    live[i] = false;
                    report.faults.push(f);
                }
            }
        }
        if !progressed {
            // Every live thread waits at the block barrier: release it.
            let waiting: Vec<usize> = (0..threads.len()).filter(|&i| live[i]).collect();
            let reduce = waiting
                .iter()
                .find_map(|&i| at_barrier[i].flatten().map(|r| r.0));
            let preds: Vec<bool> = waiting
                .iter()
                .filter_map(|&i| at_barrier[i].flatten().map(|r| r.1))
                .collect();
            for &i in &waiting {
                if let (Some(Some(_)), Some(op)) = (at_barrier[i], reduce) {
                    threads[i]
                        .resume_barrier(reduce_barrier(op, preds.iter().copied()))
                        .expect("barrier resumes");
                }
                at_barrier[i] = None;
            }
        }
    }
}

fn launch_for(kernel: &Kernel) -> Arc<Launch> {
    let mut launch =
        Launch::from_kernel(kernel).unwrap_or_else(|| Launch::new([2, 1, 1], [64, 1, 1]));
    // Keep the test fast: at most 2 blocks are run (see below), and the
    // sizes the kernels assume are kept.
    launch.dynamic_shared_bytes.get_or_insert(4096);
    for p in &kernel.params {
        if let ParamKind::Scalar(v) = p.kind {
            let ty = kernel.var(v).ty;
            launch.params.insert(v, Value::from_int(ty, 4).convert(ty));
        }
        if let ParamKind::Aggregate(vs) = &p.kind {
            for v in vs {
                let ty = kernel.var(*v).ty;
                launch.params.insert(*v, Value::from_int(ty, 4));
            }
        }
    }
    Arc::new(launch)
}

/// Runs the first two blocks of `kernel`; returns what happened and the
/// final global memory.
fn run_kernel(kernel: &Kernel) -> (Report, HashMap<Location, Value>) {
    let launch = launch_for(kernel);
    let mut global = HashMap::new();
    let mut report = Report::default();
    let [gx, gy, gz] = launch.grid_dim;
    let blocks: Vec<[u32; 3]> = (0..gz)
        .flat_map(|z| (0..gy).flat_map(move |y| (0..gx).map(move |x| [x, y, z])))
        .take(2)
        .collect();
    for b in blocks {
        run_block(kernel, &launch, b, &mut global, &mut report);
    }
    (report, global)
}

#[test]
fn construct_kernels_run_without_malformed_ir() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(kernels_dir())
        .expect("kernel directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cu"))
        .collect();
    files.sort();
    assert!(files.len() > 30, "found {} kernels", files.len());
    let mut kernels_run = 0;
    let mut problems = Vec::new();
    for file in &files {
        let (kernels, pass) = lower(file);
        for kernel in &kernels {
            let (report, _) = run_kernel(kernel);
            kernels_run += 1;
            let file_name = file.file_name().and_then(|f| f.to_str()).unwrap_or("?");
            let name = format!("{file_name}::{}", kernel.name);
            let faults: std::collections::BTreeSet<String> =
                report.faults.iter().map(|f| f.kind.to_string()).collect();
            eprintln!(
                "{name}: {} done, {} assertion failures, {} infeasible, faults: {faults:?}",
                report.done,
                report.assertions.len(),
                report.infeasible,
            );
            for f in &report.faults {
                if f.is_malformed_ir() {
                    problems.push(format!("{name}: {f}"));
                }
            }
            if pass && !report.assertions.is_empty() {
                problems.push(format!(
                    "{name}: //pass kernel failed {:?}",
                    report.assertions[0]
                ));
            }
        }
    }
    assert!(kernels_run > 30, "ran {kernels_run} kernels");
    assert!(problems.is_empty(), "{problems:#?}");
}

/// The shared-memory tree reduction computes the block's sum: barriers,
/// per-block shared memory and loop-carried values all work end to end.
#[test]
fn block_sum_reduces_correctly() {
    let (kernels, _) = lower(&kernels_dir().join("shared_1d_reduction.cu"));
    let kernel = &kernels[0];
    let (report, global) = run_kernel(kernel);
    assert_eq!(report.done, 512);
    assert!(report.faults.is_empty(), "{:?}", report.faults);
    let input_arr = kernel
        .arrays
        .iter()
        .find(|a| a.name == "in")
        .expect("in")
        .id;
    let partial = kernel
        .arrays
        .iter()
        .find(|a| a.name == "partial")
        .expect("partial")
        .id;
    for block in 0..2u64 {
        let want: f32 = (block * 256..(block + 1) * 256)
            .map(|i| {
                match input(
                    Location {
                        array: input_arr,
                        index: i,
                    },
                    ScalarTy::F32,
                ) {
                    Value::F32(x) => x,
                    other => panic!("{other:?}"),
                }
            })
            .sum();
        assert_eq!(
            global.get(&Location {
                array: partial,
                index: block
            }),
            Some(&Value::F32(want)),
            "block {block}"
        );
    }
}
