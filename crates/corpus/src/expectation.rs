//! The expected outcome on a corpus kernel's first line: `//pass` or
//! `//xfail:REASON`.
//!
//! The reason is kept exactly as written; [`Expectation::failure_kind`]
//! classifies it case-insensitively, treating `-` and `_` alike (so
//! `front-end`, `FRONT_END` and `Front-End` are the same reason).
//! GPUVerify's codes and warpsafe's own (`data-race`, `heterogeneous-race`,
//! `barrier-divergence`, `assert`, `front-end`) are both understood.

use serde::{Deserialize, Serialize};

/// What a corpus kernel is expected to produce.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Expectation {
    /// `//pass`: the kernel must verify.
    Pass,
    /// `//xfail:REASON`: the kernel must fail, for the given reason (as
    /// written; empty for a bare `//xfail`).
    Xfail(String),
}

/// The broad class of an xfail reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FailureKind {
    /// The kernel or its command line must be rejected before verification:
    /// `CLANG_ERROR`, `COMMAND_LINE_ERROR`, `BUGLE_ERROR`, `OPT_ERROR`
    /// (GPUVerify) and `front-end` (warpsafe).
    FrontEnd,
    /// Verification must report a defect: `NOT_ALL_VERIFIED` and the older
    /// `BOOGIE_ERROR` (GPUVerify), `data-race`, `heterogeneous-race`,
    /// `barrier-divergence` and `assert` (warpsafe).
    Verification,
    /// The tool itself must fail or give up, whatever the kernel's
    /// correctness: `TIMEOUT`, `CTRL_C`, `CONFIGURATION_ERROR`, `JSON_ERROR`,
    /// `GPUVERIFY_ERROR`, `GPUVERIFYVCGEN_ERROR`, `BOOGIE_INTERNAL_ERROR`,
    /// `BOOGIE_OTHER_ERROR`.
    Tool,
    /// A reason this crate does not know, or none (a bare `//xfail`).
    Unknown,
}

const FRONT_END: &[&str] = &[
    "CLANG_ERROR",
    "COMMAND_LINE_ERROR",
    "BUGLE_ERROR",
    "OPT_ERROR",
    "FRONT_END",
];
const VERIFICATION: &[&str] = &[
    "NOT_ALL_VERIFIED",
    "BOOGIE_ERROR",
    "DATA_RACE",
    "HETEROGENEOUS_RACE",
    "BARRIER_DIVERGENCE",
    "ASSERT",
];
const TOOL: &[&str] = &[
    "TIMEOUT",
    "CTRL_C",
    "CONFIGURATION_ERROR",
    "JSON_ERROR",
    "GPUVERIFY_ERROR",
    "GPUVERIFYVCGEN_ERROR",
    "BOOGIE_INTERNAL_ERROR",
    "BOOGIE_OTHER_ERROR",
];

impl Expectation {
    /// `true` for [`Expectation::Pass`].
    pub fn is_pass(&self) -> bool {
        matches!(self, Expectation::Pass)
    }

    /// The xfail reason as written, or `None` for `Pass`.
    pub fn reason(&self) -> Option<&str> {
        match self {
            Expectation::Pass => None,
            Expectation::Xfail(reason) => Some(reason),
        }
    }

    /// The xfail reason upper-cased with `-` turned into `_`
    /// (`front-end` → `FRONT_END`), or `None` for `Pass`.
    pub fn normalized_reason(&self) -> Option<String> {
        self.reason()
            .map(|r| r.to_ascii_uppercase().replace('-', "_"))
    }

    /// The class of the xfail reason, or `None` for `Pass`.
    pub fn failure_kind(&self) -> Option<FailureKind> {
        let reason = self.normalized_reason()?;
        let kind = if FRONT_END.contains(&reason.as_str()) {
            FailureKind::FrontEnd
        } else if VERIFICATION.contains(&reason.as_str()) {
            FailureKind::Verification
        } else if TOOL.contains(&reason.as_str()) {
            FailureKind::Tool
        } else {
            FailureKind::Unknown
        };
        Some(kind)
    }

    /// `true` if the kernel is expected to be rejected by the front end or
    /// command-line parsing (`CLANG_ERROR`, `COMMAND_LINE_ERROR`,
    /// `BUGLE_ERROR`, `OPT_ERROR`, `front-end`).
    pub fn is_front_end_error(&self) -> bool {
        self.failure_kind() == Some(FailureKind::FrontEnd)
    }

    /// `true` if verification is expected to report a defect
    /// (`NOT_ALL_VERIFIED`, `BOOGIE_ERROR`, `data-race`, ...).
    pub fn is_verification_failure(&self) -> bool {
        self.failure_kind() == Some(FailureKind::Verification)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xfail(reason: &str) -> Expectation {
        Expectation::Xfail(reason.to_owned())
    }

    #[test]
    fn pass_has_no_reason() {
        assert!(Expectation::Pass.is_pass());
        assert_eq!(Expectation::Pass.reason(), None);
        assert_eq!(Expectation::Pass.failure_kind(), None);
        assert!(!Expectation::Pass.is_front_end_error());
        assert!(!Expectation::Pass.is_verification_failure());
    }

    #[test]
    fn front_end_reasons() {
        for r in [
            "CLANG_ERROR",
            "COMMAND_LINE_ERROR",
            "BUGLE_ERROR",
            "OPT_ERROR",
            "front-end",
            "FRONT_END",
            "clang_error",
        ] {
            assert!(xfail(r).is_front_end_error(), "{r}");
            assert!(!xfail(r).is_verification_failure(), "{r}");
        }
    }

    #[test]
    fn verification_reasons() {
        for r in [
            "NOT_ALL_VERIFIED",
            "not_all_verified",
            "BOOGIE_ERROR",
            "data-race",
            "heterogeneous-race",
            "barrier-divergence",
            "assert",
        ] {
            assert!(xfail(r).is_verification_failure(), "{r}");
            assert!(!xfail(r).is_front_end_error(), "{r}");
        }
    }

    #[test]
    fn tool_and_unknown_reasons() {
        for r in [
            "TIMEOUT",
            "GPUVERIFY_ERROR",
            "BOOGIE_INTERNAL_ERROR",
            "CTRL_C",
        ] {
            assert_eq!(xfail(r).failure_kind(), Some(FailureKind::Tool), "{r}");
        }
        for r in ["", "SOMETHING_ELSE", "data race"] {
            assert_eq!(xfail(r).failure_kind(), Some(FailureKind::Unknown), "{r}");
        }
    }

    #[test]
    fn reason_kept_as_written() {
        let e = xfail("Data-Race");
        assert_eq!(e.reason(), Some("Data-Race"));
        assert_eq!(e.normalized_reason().as_deref(), Some("DATA_RACE"));
        assert!(e.is_verification_failure());
    }
}
