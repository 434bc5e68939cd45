//! Interpreting GPUVerify-style arguments as [`KernelFlags`].
//!
//! [`parse_flags`] walks the arguments once, left to right. Recognised flags
//! (see `spellings.rs`) set fields; a flag given twice keeps its last value,
//! except the list-valued `-D`, `-U`, `-I` and `--param`, which accumulate in
//! order. Recognised GPUVerify flags without meaning for warpsafe go to
//! [`KernelFlags::ignored`], anything else to [`KernelFlags::unknown`]; only
//! malformed values of recognised flags are errors.
//!
//! Invariants of a successful result: dimensions are positive and the total
//! thread count (block times grid) fits in a `u64`; `warp_sync` is
//! positive; define, undefine and include names are non-empty.

use serde::{Deserialize, Serialize};

use crate::spellings::{lookup, Meaning, Spelling};
use crate::{parse_dims, FlagError};
use warpsafe_ir::VolatileReading;

/// The meaning of a kernel's command-line flags.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelFlags {
    /// `--blockDim` / `--block-dim` / `--local_size`, padded with 1s.
    pub block_dim: Option<[u64; 3]>,
    /// `--gridDim` / `--grid-dim` / `--num_groups`, or `--global_size`
    /// divided by the block size; padded with 1s.
    pub grid_dim: Option<[u64; 3]>,
    /// `-DNAME` (`None`) and `-DNAME=VALUE`, in order. `NAME` may carry a
    /// parameter list, as in `-D'F(x)=x'`.
    pub defines: Vec<(String, Option<String>)>,
    /// `-UNAME`, in order.
    pub undefines: Vec<String>,
    /// `-IDIR`, in order.
    pub include_dirs: Vec<String>,
    /// `--kernel=NAME` (repeatable): the kernels to verify; empty: all.
    pub kernels: Vec<String>,
    /// `--template-args=int,256`: template arguments of the kernel, split at
    /// top-level commas.
    pub template_args: Option<Vec<String>>,
    /// `--param NAME=VALUE`: fixed values of kernel parameters, in order.
    pub params: Vec<(String, String)>,
    /// `--warp-sync=N`: threads run in lock-step warps of `N`.
    pub warp_sync: Option<u32>,
    /// `--only-intra-group`: do not check races between blocks.
    pub only_intra_group: bool,
    /// `--volatile=plain|atomic`: how volatile accesses are read.
    pub volatile: Option<VolatileReading>,
    /// Recognised GPUVerify flags without meaning for warpsafe, as
    /// `--flag` or `--flag=VALUE`.
    pub ignored: Vec<String>,
    /// Arguments this crate does not know, verbatim.
    pub unknown: Vec<String>,
}

impl KernelFlags {
    /// The total number of threads (block size times grid size), when both
    /// are known. Cannot overflow for flags returned by [`parse_flags`].
    pub fn total_threads(&self) -> Option<u64> {
        let block = self.block_dim?;
        let grid = self.grid_dim?;
        block
            .iter()
            .chain(&grid)
            .try_fold(1u64, |acc, &d| acc.checked_mul(d))
    }
}

/// Interprets command-line arguments (for example the tokens of a corpus
/// header's flag lines).
///
/// # Errors
///
/// A [`FlagError`] naming the flag when a recognised flag has a missing,
/// superfluous or malformed value, when `--global_size` conflicts with a
/// grid size or does not divide by the block size, or when the total
/// thread count overflows a `u64`. Unknown arguments are never errors.
///
/// ```
/// use warpsafe_corpus::{parse_flags, split_args};
/// let flags = parse_flags(&split_args("--blockDim=[16,16] --gridDim=4 -DW=32 --no-inline"))?;
/// assert_eq!(flags.block_dim, Some([16, 16, 1]));
/// assert_eq!(flags.grid_dim, Some([4, 1, 1]));
/// assert_eq!(flags.defines, [("W".to_owned(), Some("32".to_owned()))]);
/// assert_eq!(flags.ignored, ["--no-inline"]);
/// # Ok::<(), warpsafe_corpus::FlagError>(())
/// ```
pub fn parse_flags(args: &[String]) -> Result<KernelFlags, FlagError> {
    let mut flags = KernelFlags::default();
    // Which spelling set the grid size, and the pending `--global_size`.
    let mut grid_flag: Option<&str> = None;
    let mut global_size: Option<(&str, &str, [u64; 3])> = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let Some(matched) = lookup(arg) else {
            flags.unknown.push(arg.clone());
            continue;
        };
        let spelling = matched.spelling;
        let flag = spelling.name;
        let value = if spelling.takes_value {
            match matched.inline_value {
                Some(v) => v,
                None => match rest.next() {
                    Some(next) if !next.starts_with('-') => next.as_str(),
                    _ => return Err(FlagError::MissingValue { flag: flag.into() }),
                },
            }
        } else if let Some(v) = matched.inline_value {
            return Err(FlagError::UnexpectedValue {
                flag: flag.into(),
                value: v.into(),
            });
        } else {
            ""
        };
        match spelling.meaning {
            Meaning::BlockDim => flags.block_dim = Some(dims(flag, value)?),
            Meaning::GridDim => {
                if let Some((global, _, _)) = global_size {
                    return Err(conflict(flag, global));
                }
                grid_flag = Some(flag);
                flags.grid_dim = Some(dims(flag, value)?);
            }
            Meaning::GlobalSize => {
                if let Some(grid) = grid_flag {
                    return Err(conflict(flag, grid));
                }
                global_size = Some((flag, value, dims(flag, value)?));
            }
            Meaning::Kernel => flags.kernels.push(kernel_name(flag, value)?),
            Meaning::TemplateArgs => {
                flags.template_args = Some(template_args(flag, value)?);
            }
            Meaning::Param => flags.params.push(param(flag, value)?),
            Meaning::WarpSync => flags.warp_sync = Some(warp_size(flag, value)?),
            Meaning::OnlyIntraGroup => flags.only_intra_group = true,
            Meaning::Volatile => flags.volatile = Some(volatile(flag, value)?),
            Meaning::Define => flags.defines.push(define(flag, value)?),
            Meaning::Undefine => flags.undefines.push(macro_name(flag, value)?.into()),
            Meaning::Include => flags.include_dirs.push(include_dir(flag, value)?),
            Meaning::Ignored => flags.ignored.push(ignored(spelling, value)),
        }
    }
    if let Some((flag, value, global)) = global_size {
        flags.grid_dim = Some(groups_from_global(flag, value, global, flags.block_dim)?);
    }
    if let (Some(block), Some(grid)) = (flags.block_dim, flags.grid_dim) {
        if flags.total_threads().is_none() {
            return Err(FlagError::TooManyThreads { block, grid });
        }
    }
    Ok(flags)
}

fn invalid(flag: &str, value: &str, reason: impl Into<String>) -> FlagError {
    FlagError::InvalidValue {
        flag: flag.into(),
        value: value.into(),
        reason: reason.into(),
    }
}

fn conflict(flag: &str, other: &str) -> FlagError {
    FlagError::Conflict {
        flag: flag.into(),
        other: format!("`{other}`"),
    }
}

fn dims(flag: &str, value: &str) -> Result<[u64; 3], FlagError> {
    parse_dims(value).map_err(|reason| FlagError::Dims {
        flag: flag.into(),
        value: value.into(),
        reason,
    })
}

/// The grid size for OpenCL's `--global_size`: the global size divided,
/// dimension by dimension, by the block size.
fn groups_from_global(
    flag: &str,
    value: &str,
    global: [u64; 3],
    block: Option<[u64; 3]>,
) -> Result<[u64; 3], FlagError> {
    let Some(block) = block else {
        return Err(FlagError::Conflict {
            flag: flag.into(),
            other: "no block size (give `--local_size` or `--blockDim`)".into(),
        });
    };
    let mut grid = [1u64; 3];
    for ((g, &total), &b) in grid.iter_mut().zip(&global).zip(&block) {
        if total % b != 0 {
            return Err(invalid(
                flag,
                value,
                format!("global size {total} is not a multiple of the block size {b}"),
            ));
        }
        *g = total / b;
    }
    Ok(grid)
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A macro name: an identifier, optionally followed by a parameter list.
fn macro_name<'v>(flag: &str, value: &'v str) -> Result<&'v str, FlagError> {
    let ident = match value.split_once('(') {
        Some((ident, params)) if params.ends_with(')') => ident,
        Some(_) => return Err(invalid(flag, value, "unclosed macro parameter list")),
        None => value,
    };
    if is_identifier(ident) {
        Ok(value)
    } else {
        Err(invalid(
            flag,
            value,
            format!("`{ident}` is not a macro name"),
        ))
    }
}

fn define(flag: &str, value: &str) -> Result<(String, Option<String>), FlagError> {
    match value.split_once('=') {
        Some((name, body)) => Ok((macro_name(flag, name)?.into(), Some(body.into()))),
        None => Ok((macro_name(flag, value)?.into(), None)),
    }
}

fn include_dir(flag: &str, value: &str) -> Result<String, FlagError> {
    if value.is_empty() {
        return Err(FlagError::MissingValue { flag: flag.into() });
    }
    Ok(value.into())
}

fn kernel_name(flag: &str, value: &str) -> Result<String, FlagError> {
    if value.is_empty() {
        return Err(invalid(flag, value, "the kernel name is empty"));
    }
    if value.chars().any(char::is_whitespace) {
        return Err(invalid(flag, value, "a kernel name cannot contain spaces"));
    }
    Ok(value.into())
}

/// Splits template arguments at commas outside `()`, `[]`, `{}` and `<>`.
fn template_args(flag: &str, value: &str) -> Result<Vec<String>, FlagError> {
    if value.trim().is_empty() {
        return Ok(Vec::new());
    }
    let mut args = Vec::new();
    let mut closers: Vec<char> = Vec::new();
    let mut start = 0;
    for (i, c) in value.char_indices() {
        match c {
            '(' => closers.push(')'),
            '[' => closers.push(']'),
            '{' => closers.push('}'),
            '<' => closers.push('>'),
            // A `>` that closes no `<` is a comparison, as in `(N>2)`, and
            // falls through to the catch-all arm.
            '>' if closers.last() == Some(&'>') => {
                closers.pop();
            }
            ')' | ']' | '}' => {
                // A `<` still open here was a comparison, not a bracket.
                while closers.last() == Some(&'>') {
                    closers.pop();
                }
                if closers.pop() != Some(c) {
                    return Err(invalid(flag, value, format!("unbalanced `{c}`")));
                }
            }
            ',' if closers.is_empty() => {
                args.push(template_arg(flag, value, &value[start..i])?);
                start = i + 1;
            }
            _ => {}
        }
    }
    if closers.iter().any(|&k| k != '>') {
        return Err(invalid(flag, value, "unclosed bracket"));
    }
    args.push(template_arg(flag, value, &value[start..])?);
    Ok(args)
}

fn template_arg(flag: &str, value: &str, arg: &str) -> Result<String, FlagError> {
    let arg = arg.trim();
    if arg.is_empty() {
        return Err(invalid(flag, value, "empty template argument"));
    }
    Ok(arg.into())
}

fn param(flag: &str, value: &str) -> Result<(String, String), FlagError> {
    let Some((name, val)) = value.split_once('=') else {
        return Err(invalid(flag, value, "expected NAME=VALUE"));
    };
    let (name, val) = (name.trim(), val.trim());
    if name.is_empty() || name.chars().any(char::is_whitespace) {
        return Err(invalid(flag, value, "expected a parameter name before `=`"));
    }
    if val.is_empty() {
        return Err(invalid(flag, value, "expected a value after `=`"));
    }
    Ok((name.into(), val.into()))
}

fn warp_size(flag: &str, value: &str) -> Result<u32, FlagError> {
    match value.trim().parse::<u32>() {
        Ok(0) => Err(invalid(flag, value, "the warp size must be positive")),
        Ok(n) => Ok(n),
        Err(_) => Err(invalid(flag, value, "expected a positive integer")),
    }
}

fn volatile(flag: &str, value: &str) -> Result<VolatileReading, FlagError> {
    VolatileReading::from_name(value.trim())
        .ok_or_else(|| invalid(flag, value, "expected `plain` or `atomic`"))
}

fn ignored(spelling: Spelling, value: &str) -> String {
    if spelling.takes_value {
        format!("{}={value}", spelling.name)
    } else {
        spelling.name.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{split_args, DimError};

    fn parse(line: &str) -> Result<KernelFlags, FlagError> {
        parse_flags(&split_args(line))
    }

    fn ok(line: &str) -> KernelFlags {
        match parse(line) {
            Ok(flags) => flags,
            Err(e) => panic!("`{line}` was rejected: {e}"),
        }
    }

    fn err(line: &str) -> FlagError {
        match parse(line) {
            Ok(flags) => panic!("`{line}` was accepted: {flags:?}"),
            Err(e) => e,
        }
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn empty_command_line() {
        assert_eq!(ok(""), KernelFlags::default());
    }

    #[test]
    fn corpus_style_lines() {
        let f = ok("--blockDim=64 --gridDim=4");
        assert_eq!(f.block_dim, Some([64, 1, 1]));
        assert_eq!(f.grid_dim, Some([4, 1, 1]));
        assert_eq!(f.total_threads(), Some(256));

        let f = ok("--blockDim=[16,16] --gridDim=[2,2] -DWIDTH=32 --no-inline");
        assert_eq!(f.block_dim, Some([16, 16, 1]));
        assert_eq!(f.grid_dim, Some([2, 2, 1]));
        assert_eq!(f.defines, [("WIDTH".to_owned(), Some("32".to_owned()))]);
        assert_eq!(f.ignored, ["--no-inline"]);
        assert!(f.unknown.is_empty());

        let f = ok("--gridDim=1 --blockDim=32 --warp-sync=32");
        assert_eq!(f.warp_sync, Some(32));
        assert_eq!(f.block_dim, Some([32, 1, 1]));
    }

    #[test]
    fn dimension_spellings() {
        for line in [
            "--blockDim=16,16",
            "--blockDim=[16,16]",
            "--blockDim={16,16,1}",
            "--block-dim=16,16",
            "--blockDim [16,16]",
            "--block-dim 16,16",
            "--local_size=[16,16]",
            "--blockDim='[16, 16]'",
        ] {
            assert_eq!(ok(line).block_dim, Some([16, 16, 1]), "{line}");
        }
        for line in [
            "--gridDim=8,2",
            "--grid-dim=[8,2]",
            "--gridDim {8,2}",
            "--grid-dim 8,2,1",
            "--num_groups=[8,2]",
        ] {
            assert_eq!(ok(line).grid_dim, Some([8, 2, 1]), "{line}");
        }
    }

    #[test]
    fn last_dimension_wins() {
        let f = ok("--blockDim=4 --block-dim=8 --gridDim=2 --grid-dim=3");
        assert_eq!(f.block_dim, Some([8, 1, 1]));
        assert_eq!(f.grid_dim, Some([3, 1, 1]));
    }

    #[test]
    fn bad_dimensions() {
        assert_eq!(
            err("--blockDim=0"),
            FlagError::Dims {
                flag: "--blockDim".into(),
                value: "0".into(),
                reason: DimError::NotPositive("0".into()),
            }
        );
        assert!(matches!(
            err("--gridDim=-2"),
            FlagError::Dims {
                reason: DimError::NotPositive(_),
                ..
            }
        ));
        assert!(matches!(
            err("--block-dim=[1,2,3,4]"),
            FlagError::Dims {
                reason: DimError::TooMany(4),
                ..
            }
        ));
        assert!(matches!(
            err("--grid-dim=[2,2"),
            FlagError::Dims {
                reason: DimError::Unbalanced,
                ..
            }
        ));
        assert!(matches!(
            err("--blockDim=abc"),
            FlagError::Dims {
                reason: DimError::NotANumber(_),
                ..
            }
        ));
        assert!(matches!(
            err("--blockDim=*"),
            FlagError::Dims {
                reason: DimError::Unconstrained,
                ..
            }
        ));
        assert!(matches!(
            err("--blockDim="),
            FlagError::Dims {
                reason: DimError::Empty,
                ..
            }
        ));
        assert!(matches!(
            err("--blockDim=[4294967296,4294967296]"),
            FlagError::Dims {
                reason: DimError::ProductOverflow(_),
                ..
            }
        ));
    }

    #[test]
    fn missing_dimension_values() {
        assert_eq!(
            err("--blockDim"),
            FlagError::MissingValue {
                flag: "--blockDim".into()
            }
        );
        assert_eq!(
            err("--gridDim --blockDim=2"),
            FlagError::MissingValue {
                flag: "--gridDim".into()
            }
        );
    }

    #[test]
    fn total_threads_overflow() {
        let e = err("--blockDim=4294967296 --gridDim=4294967296");
        assert_eq!(
            e,
            FlagError::TooManyThreads {
                block: [4294967296, 1, 1],
                grid: [4294967296, 1, 1],
            }
        );
        assert_eq!(
            ok("--blockDim=4294967296 --gridDim=4294967295").total_threads(),
            Some(4294967296 * 4294967295)
        );
    }

    #[test]
    fn global_size_divides_by_block() {
        let f = ok("--local_size=[32,64] --global_size=[64,64]");
        assert_eq!(f.block_dim, Some([32, 64, 1]));
        assert_eq!(f.grid_dim, Some([2, 1, 1]));
        // The block size may come after the global size.
        let f = ok("--global_size=128 --blockDim=32");
        assert_eq!(f.grid_dim, Some([4, 1, 1]));
    }

    #[test]
    fn global_size_errors() {
        assert_eq!(
            err("--local_size=[32,64] --global_size=[64,64] --num_groups=[2,1]"),
            FlagError::Conflict {
                flag: "--num_groups".into(),
                other: "`--global_size`".into(),
            }
        );
        assert!(matches!(
            err("--gridDim=2 --global_size=64 --blockDim=32"),
            FlagError::Conflict { .. }
        ));
        assert!(matches!(
            err("--global_size=64"),
            FlagError::Conflict { .. }
        ));
        assert_eq!(
            err("--local_size=3 --global_size=[64]"),
            FlagError::InvalidValue {
                flag: "--global_size".into(),
                value: "[64]".into(),
                reason: "global size 64 is not a multiple of the block size 3".into(),
            }
        );
    }

    #[test]
    fn defines_attached_and_separate() {
        let f = ok("-DA=1 -D B=2 -DC -D D -DE= -D'F(x)=((x)*2)' -D \"MSG=a b\"");
        assert_eq!(
            f.defines,
            [
                ("A".to_owned(), Some("1".to_owned())),
                ("B".to_owned(), Some("2".to_owned())),
                ("C".to_owned(), None),
                ("D".to_owned(), None),
                ("E".to_owned(), Some(String::new())),
                ("F(x)".to_owned(), Some("((x)*2)".to_owned())),
                ("MSG".to_owned(), Some("a b".to_owned())),
            ]
        );
        // The value may itself contain `=`.
        assert_eq!(
            ok("-DEQ=a=b").defines,
            [("EQ".to_owned(), Some("a=b".to_owned()))]
        );
    }

    #[test]
    fn bad_defines() {
        assert_eq!(err("-D"), FlagError::MissingValue { flag: "-D".into() });
        assert_eq!(err("-D -DX"), FlagError::MissingValue { flag: "-D".into() });
        assert!(matches!(err("-D=1"), FlagError::InvalidValue { .. }));
        assert!(matches!(err("-D1X=1"), FlagError::InvalidValue { .. }));
        assert!(matches!(err("-D'A B=1'"), FlagError::InvalidValue { .. }));
        assert!(matches!(err("-D'F(x=1'"), FlagError::InvalidValue { .. }));
    }

    #[test]
    fn undefines_and_includes() {
        let f = ok("-UA -U B -Iinc -I 'my dir' -I${KERNEL_DIR}");
        assert_eq!(f.undefines, ["A", "B"]);
        assert_eq!(f.include_dirs, ["inc", "my dir", "${KERNEL_DIR}"]);
        assert_eq!(err("-U"), FlagError::MissingValue { flag: "-U".into() });
        assert!(matches!(err("-U9"), FlagError::InvalidValue { .. }));
        assert_eq!(err("-I"), FlagError::MissingValue { flag: "-I".into() });
        assert_eq!(err("-I ''"), FlagError::MissingValue { flag: "-I".into() });
    }

    #[test]
    fn kernel_name() {
        assert_eq!(ok("--kernel=k1").kernels, ["k1"]);
        assert_eq!(ok("--kernel k2").kernels, ["k2"]);
        assert_eq!(ok("--kernel=ns::k").kernels, ["ns::k"]);
        assert_eq!(ok("--kernel=a --kernel=b").kernels, ["a", "b"]);
        assert!(matches!(err("--kernel="), FlagError::InvalidValue { .. }));
        assert!(matches!(
            err("--kernel='a b'"),
            FlagError::InvalidValue { .. }
        ));
        assert_eq!(
            err("--kernel"),
            FlagError::MissingValue {
                flag: "--kernel".into()
            }
        );
    }

    #[test]
    fn template_arguments() {
        assert_eq!(
            ok("--template-args=int,256").template_args,
            Some(strings(&["int", "256"]))
        );
        assert_eq!(
            ok("--template-args 'float, 4'").template_args,
            Some(strings(&["float", "4"]))
        );
        assert_eq!(
            ok("--template-args=Pair<int,float>,(N>2),arr[1,2]").template_args,
            Some(strings(&["Pair<int,float>", "(N>2)", "arr[1,2]"]))
        );
        assert_eq!(
            ok("--template-args=Vec<Pair<int,int>>,8").template_args,
            Some(strings(&["Vec<Pair<int,int>>", "8"]))
        );
        assert_eq!(ok("--template-args=").template_args, Some(Vec::new()));
        assert!(ok("").template_args.is_none());
    }

    #[test]
    fn bad_template_arguments() {
        assert!(matches!(
            err("--template-args=int,"),
            FlagError::InvalidValue { .. }
        ));
        assert!(matches!(
            err("--template-args=,int"),
            FlagError::InvalidValue { .. }
        ));
        assert!(matches!(
            err("--template-args=f(1,2"),
            FlagError::InvalidValue { .. }
        ));
        assert!(matches!(
            err("--template-args=f)1"),
            FlagError::InvalidValue { .. }
        ));
        assert!(matches!(
            err("--template-args=[1)"),
            FlagError::InvalidValue { .. }
        ));
    }

    #[test]
    fn params() {
        let f = ok("--param n=4 --param=m=-1 --param 'x = 2.5'");
        assert_eq!(
            f.params,
            [
                ("n".to_owned(), "4".to_owned()),
                ("m".to_owned(), "-1".to_owned()),
                ("x".to_owned(), "2.5".to_owned()),
            ]
        );
        assert!(matches!(err("--param n"), FlagError::InvalidValue { .. }));
        assert!(matches!(err("--param =4"), FlagError::InvalidValue { .. }));
        assert!(matches!(err("--param n="), FlagError::InvalidValue { .. }));
        assert!(matches!(
            err("--param 'a b=1'"),
            FlagError::InvalidValue { .. }
        ));
        assert_eq!(
            err("--param"),
            FlagError::MissingValue {
                flag: "--param".into()
            }
        );
    }

    #[test]
    fn warp_sync() {
        assert_eq!(ok("--warp-sync=16").warp_sync, Some(16));
        assert_eq!(ok("--warp-sync 32").warp_sync, Some(32));
        for bad in [
            "--warp-sync=0",
            "--warp-sync=x",
            "--warp-sync=",
            "--warp-sync=4294967296",
        ] {
            assert!(matches!(err(bad), FlagError::InvalidValue { .. }), "{bad}");
        }
        assert_eq!(
            err("--warp-sync -1"),
            FlagError::MissingValue {
                flag: "--warp-sync".into()
            }
        );
    }

    #[test]
    fn only_intra_group() {
        assert!(ok("--only-intra-group").only_intra_group);
        assert_eq!(
            ok("--volatile=atomic").volatile,
            Some(VolatileReading::Atomic)
        );
        assert_eq!(
            ok("--volatile plain").volatile,
            Some(VolatileReading::Plain)
        );
        assert!(matches!(
            err("--volatile=relaxed"),
            FlagError::InvalidValue { .. }
        ));
        assert!(!ok("--no-inline").only_intra_group);
        assert_eq!(
            err("--only-intra-group=1"),
            FlagError::UnexpectedValue {
                flag: "--only-intra-group".into(),
                value: "1".into(),
            }
        );
    }

    #[test]
    fn ignored_gpuverify_flags() {
        let f = ok(
            "--no-inline --equality-abstraction --no-benign --only-divergence \
             --asymmetric-asserts --check-array-bounds --no-infer \
             --boogie-file=${KERNEL_DIR}/axioms.bpl --loop-unwind 2 --vcgen-opt=/checkArrays:A",
        );
        assert_eq!(
            f.ignored,
            [
                "--no-inline",
                "--equality-abstraction",
                "--no-benign",
                "--only-divergence",
                "--asymmetric-asserts",
                "--check-array-bounds",
                "--no-infer",
                "--boogie-file=${KERNEL_DIR}/axioms.bpl",
                "--loop-unwind=2",
                "--vcgen-opt=/checkArrays:A",
            ]
        );
        assert!(f.unknown.is_empty());
    }

    #[test]
    fn ignored_flags_are_still_checked() {
        assert_eq!(
            err("--no-inline=yes"),
            FlagError::UnexpectedValue {
                flag: "--no-inline".into(),
                value: "yes".into(),
            }
        );
        assert_eq!(
            err("--loop-unwind"),
            FlagError::MissingValue {
                flag: "--loop-unwind".into()
            }
        );
    }

    #[test]
    fn unknown_arguments_are_kept() {
        let f = ok("--blockDim=2 --frobnicate -x kernel.cu --vcgen-op=/x --BlockDim=3 -");
        assert_eq!(
            f.unknown,
            [
                "--frobnicate",
                "-x",
                "kernel.cu",
                "--vcgen-op=/x",
                "--BlockDim=3",
                "-"
            ]
        );
        assert_eq!(f.block_dim, Some([2, 1, 1]));
    }

    #[test]
    fn unknown_flag_value_is_not_swallowed() {
        // An unknown flag's value stays separate: nothing is known about it.
        let f = ok("--frob 3 --gridDim=2");
        assert_eq!(f.unknown, ["--frob", "3"]);
        assert_eq!(f.grid_dim, Some([2, 1, 1]));
    }

    #[test]
    fn flag_errors_name_the_spelling_used() {
        assert_eq!(err("--block-dim=0").flag(), Some("--block-dim"));
        assert_eq!(err("--local_size=0").flag(), Some("--local_size"));
        assert_eq!(err("-DX -U").flag(), Some("-U"));
    }
}
