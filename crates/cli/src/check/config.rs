//! The project file of `warpsafe check`: launch dimensions, parameter
//! values and preprocessor settings per kernel, for codebases whose
//! kernels need different launches. TOML (`warpsafe.toml`) or JSON (a
//! `.json` file with the same keys):
//!
//! ```toml
//! include = ["common"]          # -I, for every file
//! define = ["N=1024"]           # -D, for every file
//! block-dim = [256]             # every kernel (unless a table says otherwise)
//!
//! [kernel.reduce]               # the kernels named `reduce`
//! block-dim = [256]
//! grid-dim = [64]
//! params = { n = 4096 }
//!
//! [kernel."scan/scan.cu:scan"]  # `scan` in files whose path ends with scan/scan.cu
//! block-dim = [128, 4]
//! ```
//!
//! Precedence: command-line flags, then the most specific table (a
//! `PATH:NAME` key over a `NAME` key), then a launch the front end found
//! in the source, then the top-level keys (defaults for kernels whose
//! launch the source does not fix). Invariant: unknown keys are errors
//! (a misspelt key must not silently check the wrong launch).

use anyhow::{bail, Context, Result};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The file `check` reads when `--config` is not given and it exists in
/// the current folder.
pub const DEFAULT_NAME: &str = "warpsafe.toml";

/// Dimensions as `[256]`, `[16, 16]` or `"16,16"`.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
enum DimsValue {
    List(Vec<u64>),
    Text(String),
}

impl DimsValue {
    fn parse(&self, key: &str) -> Result<[u64; 3]> {
        let text = match self {
            DimsValue::List(v) => v.iter().map(u64::to_string).collect::<Vec<_>>().join(","),
            DimsValue::Text(t) => t.clone(),
        };
        warpsafe_corpus::parse_dims(&text).with_context(|| format!("`{key}`"))
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct KernelTable {
    block_dim: Option<DimsValue>,
    grid_dim: Option<DimsValue>,
    #[serde(default)]
    params: BTreeMap<String, i64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct ConfigFile {
    #[serde(default)]
    include: Vec<PathBuf>,
    #[serde(default)]
    define: Vec<String>,
    block_dim: Option<DimsValue>,
    grid_dim: Option<DimsValue>,
    #[serde(default)]
    params: BTreeMap<String, i64>,
    #[serde(default)]
    kernel: BTreeMap<String, KernelTable>,
}

/// What the project file sets for one kernel.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KernelSettings {
    pub block_dim: Option<[u64; 3]>,
    pub grid_dim: Option<[u64; 3]>,
    pub params: Vec<(String, i128)>,
    /// The dimensions come from a `[kernel...]` table (they override a
    /// launch in the source), not from the top-level defaults.
    pub block_from_table: bool,
    pub grid_from_table: bool,
}

/// A parsed project file.
#[derive(Debug, Default)]
pub struct Config {
    /// The file, as named (for the notes of the launches it sets).
    pub path: PathBuf,
    /// Include folders, relative to the file's folder.
    pub include: Vec<PathBuf>,
    pub define: Vec<String>,
    defaults: KernelSettings,
    /// `(file suffix, kernel name, settings)`; no suffix for `NAME` keys.
    kernels: Vec<(Option<String>, String, KernelSettings)>,
}

fn settings(
    block: &Option<DimsValue>,
    grid: &Option<DimsValue>,
    params: &BTreeMap<String, i64>,
) -> Result<KernelSettings> {
    Ok(KernelSettings {
        block_dim: block.as_ref().map(|d| d.parse("block-dim")).transpose()?,
        grid_dim: grid.as_ref().map(|d| d.parse("grid-dim")).transpose()?,
        params: params
            .iter()
            .map(|(k, v)| (k.clone(), *v as i128))
            .collect(),
        block_from_table: false,
        grid_from_table: false,
    })
}

impl Config {
    /// Reads `path` (JSON when it ends in `.json`, TOML otherwise).
    pub fn read(path: &Path) -> Result<Config> {
        let bytes =
            crate::input::read_limited(path, crate::input::MAX_SOURCE_BYTES, "the project file")?;
        let text = String::from_utf8_lossy(&bytes);
        Config::parse(path, &text).with_context(|| format!("in `{}`", path.display()))
    }

    /// Parses `text` as the contents of `path`.
    pub fn parse(path: &Path, text: &str) -> Result<Config> {
        let file: ConfigFile = if path.extension().is_some_and(|x| x == "json") {
            serde_json::from_str(text)?
        } else {
            toml::from_str(text)?
        };
        let base = path.parent().unwrap_or(Path::new(""));
        let mut kernels = Vec::new();
        for (key, t) in &file.kernel {
            let (suffix, name) = match key.rsplit_once(':') {
                Some((f, n)) if !f.is_empty() && !f.ends_with(':') => (Some(f.to_string()), n),
                _ => (None, key.as_str()),
            };
            if name.is_empty() {
                bail!("`kernel.\"{key}\"`: no kernel name");
            }
            let s = settings(&t.block_dim, &t.grid_dim, &t.params)
                .with_context(|| format!("in `kernel.\"{key}\"`"))?;
            kernels.push((suffix, name.to_string(), s));
        }
        Ok(Config {
            path: path.to_path_buf(),
            include: file.include.iter().map(|i| base.join(i)).collect(),
            define: file.define,
            defaults: settings(&file.block_dim, &file.grid_dim, &file.params)?,
            kernels,
        })
    }

    /// The settings for kernel `name` of `file`: the top-level keys,
    /// overridden by a `NAME` table, overridden by a `PATH:NAME` table.
    pub fn for_kernel(&self, file: &Path, name: &str) -> KernelSettings {
        let mut out = self.defaults.clone();
        let mut tables: Vec<&(Option<String>, String, KernelSettings)> =
            self.kernels.iter().filter(|(_, n, _)| n == name).collect();
        tables.retain(|(suffix, _, _)| suffix.as_ref().is_none_or(|s| file.ends_with(s)));
        // Name-only tables first, so that path tables override them.
        tables.sort_by_key(|(suffix, _, _)| suffix.is_some());
        for (_, _, t) in tables {
            if t.block_dim.is_some() {
                out.block_dim = t.block_dim;
                out.block_from_table = true;
            }
            if t.grid_dim.is_some() {
                out.grid_dim = t.grid_dim;
                out.grid_from_table = true;
            }
            for (p, v) in &t.params {
                out.params.retain(|(q, _)| q != p);
                out.params.push((p.clone(), *v));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOML: &str = r#"
include = ["common"]
define = ["N=4"]
block-dim = [256]
params = { n = 10 }

[kernel.reduce]
grid-dim = "64"
params = { n = 4096 }

[kernel."scan/scan.cu:scan"]
block-dim = [128, 4]
"#;

    #[test]
    fn tables_override_the_top_level_keys() {
        let c = Config::parse(Path::new("proj/warpsafe.toml"), TOML).unwrap();
        assert_eq!(c.include, [PathBuf::from("proj/common")]);
        assert_eq!(c.define, ["N=4"]);
        let r = c.for_kernel(Path::new("a/red.cu"), "reduce");
        assert_eq!(r.block_dim, Some([256, 1, 1]));
        assert!(!r.block_from_table);
        assert_eq!(r.grid_dim, Some([64, 1, 1]));
        assert!(r.grid_from_table);
        assert_eq!(r.params, [("n".to_string(), 4096)]);
        let s = c.for_kernel(Path::new("src/scan/scan.cu"), "scan");
        assert_eq!(s.block_dim, Some([128, 4, 1]));
        assert_eq!(s.params, [("n".to_string(), 10)]);
        // The path table is for scan.cu only.
        let other = c.for_kernel(Path::new("src/other.cu"), "scan");
        assert_eq!(other.block_dim, Some([256, 1, 1]));
    }

    #[test]
    fn json_has_the_same_keys() {
        let c = Config::parse(
            Path::new("w.json"),
            r#"{"kernel": {"k": {"block-dim": [32, 2], "params": {"m": -1}}}}"#,
        )
        .unwrap();
        let k = c.for_kernel(Path::new("x.cu"), "k");
        assert_eq!(k.block_dim, Some([32, 2, 1]));
        assert_eq!(k.params, [("m".to_string(), -1)]);
    }

    #[test]
    fn mistakes_are_errors() {
        for bad in [
            "blockdim = [4]",
            "block-dim = [0]",
            "block-dim = [1, 2, 3, 4]",
            "[kernel.k]\nblock = [4]",
            "[kernel.\"a.cu:\"]\nblock-dim = [4]",
        ] {
            assert!(Config::parse(Path::new("w.toml"), bad).is_err(), "{bad}");
        }
    }
}
