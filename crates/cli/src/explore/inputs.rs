//! The flags that give a launch its values (`--param`, `--array`,
//! `--input FILE.json`), shared by `explore` and `run`, and the reading of
//! the input file. What the values mean for a kernel, and the launch they
//! make, is `warpsafe_explore::inputs`'s (a library, no I/O).

use super::result::KernelResult;
use crate::input::InputArgs;
use anyhow::{Context, Result};
use std::path::PathBuf;
use warpsafe_corpus::KernelFlags;
pub use warpsafe_explore::inputs::Inputs;
use warpsafe_explore::inputs::{array_flag, json, param_flag, ArraySpec, Number};
use warpsafe_interp::Launch;

/// The largest `--input` file read (64 MiB: `explore` runs small grids).
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// The flags that give a launch its values, shared by `explore` and
/// `run`.
#[derive(clap::Args)]
pub struct LaunchValues {
    /// The value of a scalar kernel parameter (every one needs a value).
    #[arg(long = "param", value_name = "NAME=VALUE", value_parser = param_flag)]
    pub params: Vec<(String, Number)>,
    /// A global array's length in elements (`a=8`, enables bounds checks)
    /// or its initial contents (`a=[1,2,3]`, length and values).
    #[arg(long = "array", value_name = "NAME=LEN|NAME=[V,..]", value_parser = array_flag)]
    pub arrays: Vec<(String, ArraySpec)>,
    /// Dimensions, parameters and arrays as JSON: {"grid": [1], "block":
    /// [4], "params": {"n": 4}, "arrays": {"a": {"len": 4, "init": [..]}}}
    /// (flags override it).
    #[arg(long = "input", value_name = "FILE.json")]
    pub input_file: Option<PathBuf>,
}

impl LaunchValues {
    /// The inputs these flags give (with the `--input` file's, read here: a
    /// regular UTF-8 file of at most [`MAX_INPUT_BYTES`]).
    pub fn gather(&self) -> Result<Inputs> {
        let file = match &self.input_file {
            Some(path) => {
                let bytes = crate::input::read_limited(path, MAX_INPUT_BYTES, "the input file")?;
                let text = String::from_utf8(bytes)
                    .with_context(|| format!("the input file `{}` is not UTF-8", path.display()))?;
                Some((path.as_path(), json::parse(&text, path)?))
            }
            None => None,
        };
        Ok(Inputs::gather(file, &self.params, &self.arrays))
    }
}

/// The front end's flags: `input`'s, with the input file's dimensions
/// where no flag gives them.
pub fn front_end_flags(inputs: &Inputs, input: &InputArgs) -> KernelFlags {
    let mut flags = input.to_flags();
    flags.grid_dim = flags.grid_dim.or(inputs.grid);
    flags.block_dim = flags.block_dim.or(inputs.block);
    flags
}

/// Records in `r` the arrays `r.kernel` accesses whose length `launch`
/// leaves unknown, with the notes that say so
/// ([`warpsafe_explore::inputs::unchecked_arrays`]).
pub fn note_unchecked(r: &mut KernelResult<'_>, launch: &Launch) {
    let (unchecked, notes) = warpsafe_explore::inputs::unchecked_arrays(r.kernel, launch);
    r.notes.extend(notes);
    r.unchecked = unchecked;
}
