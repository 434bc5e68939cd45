//! The JSON form of a launch's inputs (`warpsafe explore --input
//! FILE.json`; the CLI reads the file, this module parses its text):
//!
//! ```json
//! { "grid": [2], "block": [4, 1, 1],
//!   "params": { "n": 4, "scale": 0.5 },
//!   "arrays": { "a": { "len": 8 }, "b": { "init": [1, 2, 3] },
//!               "c": { "len": 2, "init": [7, 8] } } }
//! ```
//!
//! Every field is optional; `grid` and `block` are a number or a list of
//! one to three numbers. Invariant: a field the format does not have, a
//! value of the wrong JSON type or malformed JSON is an error naming the
//! file and the position, never ignored.

use super::number::Number;
use super::spec::ArraySpec;
use super::InputError;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use warpsafe_corpus::parse_dims;

/// The JSON file of `--input`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct InputFile {
    grid: Option<serde_json::Value>,
    block: Option<serde_json::Value>,
    #[serde(default)]
    params: BTreeMap<String, serde_json::Number>,
    #[serde(default)]
    arrays: BTreeMap<String, ArrayJson>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ArrayJson {
    len: Option<u64>,
    init: Option<Vec<serde_json::Number>>,
}

/// What an input file gives.
#[derive(Debug, Default)]
pub struct FileInputs {
    pub grid: Option<[u64; 3]>,
    pub block: Option<[u64; 3]>,
    pub params: BTreeMap<String, Number>,
    pub arrays: BTreeMap<String, ArraySpec>,
}

/// Parses the text of input file `path` (named in messages).
pub fn parse(text: &str, path: &Path) -> Result<FileInputs, InputError> {
    let f: InputFile = serde_json::from_str(text).map_err(|e| {
        InputError(format!(
            "the input file `{}` is not valid: {e}",
            path.display()
        ))
    })?;
    let dims = |what: &str,
                v: &Option<serde_json::Value>|
     -> Result<Option<[u64; 3]>, InputError> {
        let Some(v) = v else { return Ok(None) };
        let text = match v {
            serde_json::Value::Number(n) => n.to_string(),
            serde_json::Value::Array(xs) => xs
                .iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(","),
            other => {
                return Err(InputError(format!(
                    "the input file `{}`: `{what}` must be a number or a list of 1 to 3 numbers, not {other}",
                    path.display()
                )))
            }
        };
        parse_dims(&text).map(Some).map_err(|e| {
            InputError(format!(
                "the input file `{}`: `{what}`: {e}",
                path.display()
            ))
        })
    };
    Ok(FileInputs {
        grid: dims("grid", &f.grid)?,
        block: dims("block", &f.block)?,
        params: f
            .params
            .iter()
            .map(|(n, v)| (n.clone(), Number::from_json(v)))
            .collect(),
        arrays: f
            .arrays
            .into_iter()
            .map(|(n, a)| {
                let spec = ArraySpec {
                    len: a.len,
                    init: a.init.map(|v| v.iter().map(Number::from_json).collect()),
                };
                (n, spec)
            })
            .collect(),
    })
}
