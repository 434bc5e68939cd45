//! GenMC as a peer for unscoped programs: GPUMC (seed 000) extends GenMC's
//! TruSt, so where every scope includes every thread the two count the same
//! executions, up to the models' differences listed in [`Cause`]. Every
//! kernel of `tests/kernels/genmc-litmus` is a CUDA version, written for
//! warpsafe, of a litmus test of GenMC's `tests/correct/litmus` (one GPU
//! thread per C thread, all in one block, device-scope `cuda::atomic_ref`
//! accesses with the C test's memory orders, so SRC11 is RC11). Line 3 of
//! each kernel states the number of complete executions GenMC v0.11.0
//! explores under RC11 with explicit `co` (`--rc11`, its default), which
//! GenMC's test suite expects and which we confirmed by running GenMC on
//! the C original.
//!
//! The DPOR explorer must find the same number of executions, and a
//! `//pass` kernel must have no race and no failed assertion in any of them
//! (an `//xfail:data-race` kernel a data race), except for the kernels in
//! [`KNOWN`], where the count differs for a stated reason: there the test
//! asserts warpsafe's current count, so that a change (a fix, or a new
//! difference) shows up as a failure to look at.
//!
//! Invariant: every kernel of the folder is checked; a kernel whose header
//! lacks the count, or a [`KNOWN`] entry with no kernel, fails the test.

mod common;

use std::path::{Path, PathBuf};
use warpsafe_interp::Launch;
use warpsafe_mc::{dpor, reference, Config, Execution, Flow, RaceKind};

/// Why warpsafe's count differs from GenMC's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cause {
    /// A modelling difference, not a bug: warpsafe's release sequence is
    /// RC11's (Lahav et al. 2017, which seed 000's SRC11 extends),
    /// `[W]; po|loc?; [W⊒rlx]; (rf; rmw)*`, so a relaxed store `po`-after a
    /// release store to the same location continues its release sequence;
    /// GenMC v0.11.0 uses C++20's (P0982R1: `[W]; (rf; rmw)*`), where it
    /// does not. Reading the relaxed store (or an update of it) therefore
    /// synchronises in warpsafe and not in GenMC, and GenMC has the extra
    /// executions where the reader does not see the writer's earlier
    /// accesses (and the plain accesses race, hence GenMC's
    /// `-disable-race-detection` for the `+rels` tests).
    ReleaseSequence,
    /// A modelling difference, not a bug: GenMC's RC11 (Kater's
    /// `rc11-genmc.kat`) orders SC events by `[SC]; po; hb; po; [SC]`,
    /// where RC11 (and seed 000's SRC11) has only `po|≠loc; hb; po|≠loc`
    /// and `hb|loc` in `scb`. GenMC therefore forbids executions where an
    /// SC write is `po|loc`-before the start of an `hb` path to an SC
    /// event of another location (WWmerge1: `Wx1; Wx2` read by an acquire
    /// load followed by an SC load of y; Z6.U: a release store read by an
    /// SC update, whose read and write parts GenMC splits, `po|loc`).
    ScOrder,
}

/// Kernels whose warpsafe count differs from GenMC's: file stem, warpsafe's
/// current DPOR count, and why.
const KNOWN: &[(&str, usize, Cause)] = &[
    ("mp_rels_acq", 3, Cause::ReleaseSequence),
    ("mp_rels_acqf", 3, Cause::ReleaseSequence),
    ("mpu_rels_acq", 12, Cause::ReleaseSequence),
    ("mpu_rels_acqf", 12, Cause::ReleaseSequence),
    ("mpu2_rels_acq", 35, Cause::ReleaseSequence),
    ("mpu2_rels_acqf", 35, Cause::ReleaseSequence),
    ("s_rels_acq", 3, Cause::ReleaseSequence),
    ("s_rels_acqf", 3, Cause::ReleaseSequence),
    ("relseq", 16, Cause::ReleaseSequence),
    ("wwmerge1", 18, Cause::ScOrder),
    ("z6_u", 24, Cause::ScOrder),
];

fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/kernels/genmc-litmus")
}

/// A kernel file and what its header says.
struct Litmus {
    stem: String,
    text: String,
    threads: u32,
    genmc: usize,
    expects_race: bool,
}

fn parse(path: &Path) -> Litmus {
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .expect("invariant: kernel files have UTF-8 names")
        .to_string();
    let text = std::fs::read_to_string(path).expect("invariant: kernels are readable UTF-8");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 3, "{stem}: header too short");
    let expects_race = match lines[0] {
        "//pass" => false,
        "//xfail:data-race" => true,
        other => panic!("{stem}: unexpected verdict line {other:?}"),
    };
    let flag = |name: &str| -> u32 {
        lines[1]
            .trim_start_matches('/')
            .split_whitespace()
            .find_map(|f| f.strip_prefix(name))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{stem}: line 2 lacks {name}N"))
    };
    assert_eq!(flag("--gridDim="), 1, "{stem}: one block");
    let threads = flag("--blockDim=");
    let genmc = lines[2]
        .strip_prefix("// executions: ")
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{stem}: line 3 is not `// executions: N (...)`"));
    Litmus {
        stem,
        text,
        threads,
        genmc,
        expects_race,
    }
}

/// What one DPOR exploration found.
#[derive(Debug, Default)]
struct Found {
    executions: usize,
    data_race: bool,
    assertion_failed: bool,
}

fn explore(l: &Litmus) -> Found {
    let k = common::kernel(&l.text);
    let launch = Launch::new([1, 1, 1], [l.threads, 1, 1]);
    let mut found = Found::default();
    let mut see = |e: Execution| {
        found.data_race |= e.races.iter().any(|r| r.kind == RaceKind::Data);
        found.assertion_failed |= !e.assertion_failures.is_empty();
        Flow::Continue
    };
    let stats = dpor::explore_with(&k, &launch, &Config::default(), &mut see)
        .unwrap_or_else(|e| panic!("{}: {e}", l.stem));
    found.executions = stats.executions;
    found
}

fn kernels() -> Vec<Litmus> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(folder())
        .expect("invariant: the genmc-litmus folder exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "cu"))
        .collect();
    paths.sort();
    paths.iter().map(|p| parse(p)).collect()
}

#[test]
fn dpor_counts_match_genmc() {
    let all = kernels();
    assert!(all.len() >= 60, "the folder holds its kernels");
    let mut failures = Vec::new();
    for l in &all {
        let found = explore(l);
        let known = KNOWN.iter().find(|(stem, _, _)| *stem == l.stem);
        let expected = known.map_or(l.genmc, |(_, count, _)| *count);
        if found.executions != expected {
            failures.push(format!(
                "{}: {} executions, expected {expected} (GenMC {}, known: {:?})",
                l.stem,
                found.executions,
                l.genmc,
                known.map(|k| k.2)
            ));
        }
        if found.data_race != l.expects_race {
            failures.push(format!("{}: data race {}", l.stem, found.data_race));
        }
        if found.assertion_failed {
            failures.push(format!("{}: an assertion failed", l.stem));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_known_difference_names_a_kernel_and_differs() {
    let all = kernels();
    for (stem, count, _) in KNOWN {
        let l = all
            .iter()
            .find(|l| l.stem == *stem)
            .unwrap_or_else(|| panic!("no kernel {stem}"));
        assert_ne!(l.genmc, *count, "{stem} agrees with GenMC now: drop it");
    }
}

/// Kernels whose `__assume` reads memory: DPOR keeps a thread whose
/// assumption failed in the graph, still revisitable (as GenMC blocks it),
/// so a later write can make the assumption hold; DPOR and the reference
/// enumerator both find GenMC's count.
#[test]
fn assumptions_on_memory_wait_for_revisits_as_in_genmc() {
    let all = kernels();
    for stem in ["assume_ctrl", "psc_ar", "psc_base_notin_ar"] {
        let l = all
            .iter()
            .find(|l| l.stem == stem)
            .unwrap_or_else(|| panic!("no kernel {stem}"));
        let k = common::kernel(&l.text);
        let launch = Launch::new([1, 1, 1], [l.threads, 1, 1]);
        let r = reference::explore(&k, &launch, &Config::default())
            .unwrap_or_else(|e| panic!("{stem}: {e}"));
        let d = dpor::explore(&k, &launch, &Config::default())
            .unwrap_or_else(|e| panic!("{stem}: {e}"));
        assert_eq!(r.complete().count(), l.genmc, "{stem}: reference");
        assert_eq!(d.complete().count(), l.genmc, "{stem}: dpor");
    }
}
