//! The table of recognised flags: each spelling, what it means to warpsafe,
//! and whether it takes a value.
//!
//! Long flags (`--name`) take their value as `--name=VALUE` or as the next
//! argument; the short flags `-D`, `-I` and `-U` take it attached
//! (`-DX=1`) or as the next argument. Spellings are case-sensitive, as in
//! GPUVerify. The GPUVerify options listed here are those of its
//! `argument_parser.py` (2022), plus `--no-benign`, an abbreviation that
//! corpora use.

/// What a recognised flag means to warpsafe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Meaning {
    BlockDim,
    GridDim,
    /// OpenCL's `--global_size`: the whole NDRange, divided by the block size
    /// to get the grid size.
    GlobalSize,
    Kernel,
    TemplateArgs,
    Param,
    WarpSync,
    OnlyIntraGroup,
    Volatile,
    Define,
    Undefine,
    Include,
    /// A GPUVerify option without meaning for warpsafe.
    Ignored,
}

/// One recognised spelling.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Spelling {
    pub name: &'static str,
    pub meaning: Meaning,
    pub takes_value: bool,
}

const fn value(name: &'static str, meaning: Meaning) -> Spelling {
    Spelling {
        name,
        meaning,
        takes_value: true,
    }
}

const fn switch(name: &'static str, meaning: Meaning) -> Spelling {
    Spelling {
        name,
        meaning,
        takes_value: false,
    }
}

use Meaning::*;

/// Long flags, matched on the text before any `=`.
const LONG: &[Spelling] = &[
    // Launch configuration (GPUVerify, warpsafe and OpenCL spellings).
    value("--blockDim", BlockDim),
    value("--block-dim", BlockDim),
    value("--local_size", BlockDim),
    value("--gridDim", GridDim),
    value("--grid-dim", GridDim),
    value("--num_groups", GridDim),
    value("--global_size", GlobalSize),
    // warpsafe's own.
    value("--kernel", Kernel),
    value("--template-args", TemplateArgs),
    value("--param", Param),
    value("--volatile", Volatile),
    // Shared by both tools.
    value("--warp-sync", WarpSync),
    switch("--only-intra-group", OnlyIntraGroup),
    // GPUVerify switches warpsafe ignores.
    switch("--adversarial-abstraction", Ignored),
    switch("--asymmetric-asserts", Ignored),
    switch("--check-all-intercepted", Ignored),
    switch("--check-array-bounds", Ignored),
    switch("--cuda", Ignored),
    switch("--debug", Ignored),
    switch("--equality-abstraction", Ignored),
    switch("--findbugs", Ignored),
    switch("--gen-smt2", Ignored),
    switch("--infer-info", Ignored),
    switch("--invariants-as-candidates", Ignored),
    switch("--json", Ignored),
    switch("--keep-temps", Ignored),
    switch("--list-intercepted", Ignored),
    switch("--math-int", Ignored),
    switch("--no-annotations", Ignored),
    switch("--no-barrier-access-checks", Ignored),
    switch("--no-benign", Ignored),
    switch("--no-benign-tolerance", Ignored),
    switch("--no-infer", Ignored),
    switch("--no-inline", Ignored),
    switch("--only-divergence", Ignored),
    switch("--only-log", Ignored),
    switch("--only-requires", Ignored),
    switch("--opencl", Ignored),
    switch("--show-intercepted", Ignored),
    switch("--silent", Ignored),
    switch("--staged-inference", Ignored),
    switch("--stop-at-bpl", Ignored),
    switch("--stop-at-cbpl", Ignored),
    switch("--stop-at-gbpl", Ignored),
    switch("--stop-at-opt", Ignored),
    switch("--time", Ignored),
    switch("--verbose", Ignored),
    switch("--verify", Ignored),
    switch("--verify-all-intercepted", Ignored),
    switch("--version", Ignored),
    // GPUVerify options with a value that warpsafe ignores.
    value("--boogie-file", Ignored),
    value("--boogie-opt", Ignored),
    value("--bugle-opt", Ignored),
    value("--cache", Ignored),
    value("--check-intercepted", Ignored),
    value("--clang-opt", Ignored),
    value("--cruncher-opt", Ignored),
    value("--error-limit", Ignored),
    value("--global_offset", Ignored),
    value("--k-induction-depth", Ignored),
    value("--kernel-args", Ignored),
    value("--kernel-arrays", Ignored),
    value("--loop-unwind", Ignored),
    value("--omit-infer", Ignored),
    value("--opt-opt", Ignored),
    value("--pointer-bitwidth", Ignored),
    value("--race-instrumenter", Ignored),
    value("--solver", Ignored),
    value("--time-as-csv", Ignored),
    value("--timeout", Ignored),
    value("--vcgen-opt", Ignored),
    value("--verify-intercepted", Ignored),
];

/// Short flags whose value may be attached.
const SHORT: &[Spelling] = &[
    value("-D", Define),
    value("-I", Include),
    value("-U", Undefine),
];

/// A recognised argument, split into its spelling and any value written in
/// the same argument.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Matched<'a> {
    pub spelling: Spelling,
    /// The value after `=` (long flags) or attached (short flags).
    pub inline_value: Option<&'a str>,
}

/// Recognises `arg`, or returns `None` for an unknown argument.
pub(crate) fn lookup(arg: &str) -> Option<Matched<'_>> {
    if arg.starts_with("--") {
        let (name, inline_value) = match arg.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (arg, None),
        };
        let spelling = *LONG.iter().find(|s| s.name == name)?;
        return Some(Matched {
            spelling,
            inline_value,
        });
    }
    SHORT.iter().find_map(|s| {
        let rest = arg.strip_prefix(s.name)?;
        Some(Matched {
            spelling: *s,
            inline_value: (!rest.is_empty()).then_some(rest),
        })
    })
}

/// `true` if `arg` is a recognised flag whose value is the next argument
/// (`-D`, `--kernel`, `--blockDim` without `=`, ...).
pub(crate) fn takes_separate_value(arg: &str) -> bool {
    lookup(arg).is_some_and(|m| m.spelling.takes_value && m.inline_value.is_none())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_are_unique_and_well_formed() {
        for (i, s) in LONG.iter().enumerate() {
            assert!(
                s.name.starts_with("--") && !s.name.contains('='),
                "{}",
                s.name
            );
            assert!(
                LONG[i + 1..].iter().all(|t| t.name != s.name),
                "duplicate {}",
                s.name
            );
        }
    }

    #[test]
    fn lookup_long_and_short() {
        let m = lookup("--blockDim=[2,2]").map(|m| (m.spelling.meaning, m.inline_value));
        assert_eq!(m, Some((BlockDim, Some("[2,2]"))));
        let m = lookup("--kernel").map(|m| (m.spelling.meaning, m.inline_value));
        assert_eq!(m, Some((Kernel, None)));
        let m = lookup("-DX=1").map(|m| (m.spelling.meaning, m.inline_value));
        assert_eq!(m, Some((Define, Some("X=1"))));
        let m = lookup("-I").map(|m| (m.spelling.meaning, m.inline_value));
        assert_eq!(m, Some((Include, None)));
        assert!(lookup("--blockdim=2").is_none());
        assert!(lookup("--nope").is_none());
        assert!(lookup("-x").is_none());
        assert!(lookup("plain").is_none());
    }

    #[test]
    fn separate_values() {
        for arg in [
            "-D",
            "-I",
            "-U",
            "--kernel",
            "--param",
            "--gridDim",
            "--loop-unwind",
        ] {
            assert!(takes_separate_value(arg), "{arg}");
        }
        for arg in [
            "-DX",
            "--kernel=k",
            "--no-inline",
            "--only-intra-group",
            "x",
            "--zzz",
        ] {
            assert!(!takes_separate_value(arg), "{arg}");
        }
    }
}
