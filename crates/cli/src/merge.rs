//! `warpsafe merge FILE...`: joins the outputs of `check --format json` or
//! `--format sarif` of several shards (`--shard I/N`) into one, printed on
//! stdout. All inputs must be of one kind; the result has the many-file
//! JSON shape (with its summary recomputed) or is one SARIF run.
//!
//! Exit status: 0 when merged; 2 when an input is missing, not JSON, or
//! not a `check` output.

use crate::exit;
use crate::input::{read_limited, MAX_SOURCE_BYTES};
use anyhow::{bail, Context, Result};
use clap::Args;
use serde_json::Value;
use std::path::PathBuf;

#[derive(Args)]
pub struct MergeArgs {
    /// Outputs of `warpsafe check --format json` or `--format sarif`.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

pub fn run(args: MergeArgs) -> Result<u8> {
    let mut inputs = Vec::new();
    for f in &args.files {
        let bytes = read_limited(f, 16 * MAX_SOURCE_BYTES, "the input")?;
        let v: Value = serde_json::from_slice(&bytes)
            .with_context(|| format!("`{}` is not JSON", f.display()))?;
        inputs.push((f.display().to_string(), v));
    }
    let is_sarif = |v: &Value| v.get("runs").is_some();
    let sarif = inputs.iter().filter(|(_, v)| is_sarif(v)).count();
    let merged = if sarif == inputs.len() {
        crate::check::merge_sarif(&inputs)?
    } else if sarif == 0 {
        crate::check::merge_json(&inputs)?
    } else {
        bail!("the inputs mix SARIF and JSON outputs: merge one kind at a time");
    };
    println!("{merged}");
    Ok(exit::OK)
}
