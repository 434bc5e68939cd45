//! The summary of a run over several files: one line of counts, then a
//! table with a row per kernel (file, kernel, verdict, provable and
//! possible findings, time) and a row per file that could not be read.
//! The same counts, computed from the JSON objects of the files, are the
//! `summary` of the many-file JSON output and of `warpsafe merge`.

use super::{KernelResult, Unit};
use serde::Serialize;
use serde_json::Value;
use std::fmt::Write;
use warpsafe_static::{AssertOutcome, Certainty, Verdict};

/// The counts of a run.
#[derive(Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub files: usize,
    pub kernels: usize,
    pub drf: usize,
    pub racy: usize,
    pub divergent: usize,
    pub unknown: usize,
    /// Kernels whose verdict is DRF but an assertion fails.
    pub assertion_failures: usize,
    /// Files the front end could not read or lower at all.
    pub file_errors: usize,
}

impl Counts {
    /// The counts of the JSON objects of files (the `files` array of a
    /// many-file run, or one-file runs).
    pub fn of_json(files: &[Value]) -> Counts {
        let mut c = Counts {
            files: files.len(),
            ..Counts::default()
        };
        for f in files {
            if f.get("error").is_some() {
                c.file_errors += 1;
            }
            for k in f["kernels"].as_array().into_iter().flatten() {
                let fails = k["assertions"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|a| a["outcome"] == "fails");
                c.add(k["verdict"].as_str().unwrap_or("unknown"), fails);
            }
        }
        c
    }

    fn add(&mut self, verdict: &str, assertion_fails: bool) {
        self.kernels += 1;
        match verdict {
            "drf" if assertion_fails => self.assertion_failures += 1,
            "drf" => self.drf += 1,
            "racy" => self.racy += 1,
            "divergent" => self.divergent += 1,
            _ => self.unknown += 1,
        }
    }

    /// `12 kernels in 5 files: 7 DRF, 3 RACY, ...`.
    pub fn line(&self) -> String {
        let mut parts = Vec::new();
        for (n, what) in [
            (self.drf, "DRF"),
            (self.racy, "RACY"),
            (self.divergent, "DIVERGENT"),
            (self.assertion_failures, "with a failing assertion"),
            (self.unknown, "UNKNOWN"),
        ] {
            if n > 0 {
                parts.push(format!("{n} {what}"));
            }
        }
        let mut line = format!(
            "{} kernel{} in {} file{}",
            self.kernels,
            plural(self.kernels),
            self.files,
            plural(self.files)
        );
        if !parts.is_empty() {
            let _ = write!(line, ": {}", parts.join(", "));
        }
        if self.file_errors > 0 {
            let _ = write!(
                line,
                "; {} file{} could not be checked",
                self.file_errors,
                plural(self.file_errors)
            );
        }
        line
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The verdict word of a kernel's report.
pub fn verdict_word(r: &KernelResult<'_>) -> &'static str {
    match &r.report.verdict {
        Verdict::Drf
            if r.report
                .asserts
                .iter()
                .any(|a| matches!(a.outcome, AssertOutcome::Fails { .. })) =>
        {
            "ASSERTION FAILS"
        }
        Verdict::Drf => "DRF",
        Verdict::Racy(_) => "RACY",
        Verdict::Divergent(_) => "DIVERGENT",
        Verdict::Unknown { .. } => "UNKNOWN",
    }
}

/// `(provable, possible)` findings: races, divergent barriers, failing
/// assertions.
pub fn findings(r: &KernelResult<'_>) -> (usize, usize) {
    let mut certainties: Vec<&Certainty> = match &r.report.verdict {
        Verdict::Racy(races) => races.iter().map(|x| &x.certainty).collect(),
        Verdict::Divergent(ds) => ds.iter().map(|d| &d.certainty).collect(),
        _ => Vec::new(),
    };
    certainties.extend(r.report.asserts.iter().filter_map(|a| match &a.outcome {
        AssertOutcome::Fails { certainty, .. } => Some(certainty),
        _ => None,
    }));
    let provable = certainties
        .iter()
        .filter(|c| matches!(c, Certainty::Provable))
        .count();
    (provable, certainties.len() - provable)
}

/// The counts line and table of a run.
pub fn table(units: &[Unit], results: &[Vec<KernelResult<'_>>]) -> String {
    let mut counts = Counts {
        files: units.len(),
        ..Counts::default()
    };
    let mut rows: Vec<[String; 6]> = Vec::new();
    for (u, rs) in units.iter().zip(results) {
        let file = u.path.display().to_string();
        if let Err(e) = &u.loaded {
            counts.file_errors += 1;
            let first = e.lines().next().unwrap_or("");
            rows.push([
                file,
                "-".into(),
                format!("ERROR: {first}"),
                String::new(),
                String::new(),
                String::new(),
            ]);
            continue;
        }
        for r in rs {
            let word = verdict_word(r);
            counts.add(
                super::json::verdict_name(&r.report.verdict),
                word == "ASSERTION FAILS",
            );
            let (provable, possible) = findings(r);
            rows.push([
                file.clone(),
                r.kernel.name.clone(),
                word.to_string(),
                provable.to_string(),
                possible.to_string(),
                format!("{:.2} s", r.seconds),
            ]);
        }
    }
    let header = ["FILE", "KERNEL", "VERDICT", "PROVABLE", "POSSIBLE", "TIME"];
    let mut widths = header.map(str::len);
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let _ = writeln!(out, "\nsummary: {}", counts.line());
    let mut line = |cells: &[String; 6]| {
        let mut l = String::new();
        for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
            // Counts right-aligned; words and the time (last, so that no
            // padding depends on how long a check took) left-aligned.
            let _ = if i == 3 || i == 4 {
                write!(l, "{cell:>w$}  ")
            } else {
                write!(l, "{cell:<w$}  ")
            };
        }
        let _ = writeln!(out, "{}", l.trim_end());
    };
    line(&header.map(String::from));
    for row in &rows {
        line(row);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_from_json() {
        let files: Vec<Value> = serde_json::from_str(
            r#"[{"file":"a.cu","kernels":[{"verdict":"drf","assertions":[]},
                 {"verdict":"drf","assertions":[{"outcome":"fails"}]},
                 {"verdict":"racy","assertions":[]}]},
                {"file":"b.cu","error":"cannot read","diagnostics":[]}]"#,
        )
        .unwrap();
        let c = Counts::of_json(&files);
        assert_eq!(
            c,
            Counts {
                files: 2,
                kernels: 3,
                drf: 1,
                racy: 1,
                assertion_failures: 1,
                file_errors: 1,
                ..Counts::default()
            }
        );
        assert_eq!(
            c.line(),
            "3 kernels in 2 files: 1 DRF, 1 RACY, 1 with a failing assertion; 1 file could not be checked"
        );
    }
}
