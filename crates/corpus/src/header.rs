//! Reading a corpus kernel's header comment into a [`Header`].
//!
//! Layout (GPUVerify's `gvtester` conventions, tolerating whitespace,
//! letter case, CRLF line endings and a UTF-8 byte-order mark):
//! 1. Line 1 is `//pass`, `//xfail:REASON` or a bare `//xfail`; anything
//!    else means the file has no expectation.
//! 2. Line 2 holds flags if it is a `//` comment whose text starts with `-`
//!    (e.g. `//--blockDim=64 --gridDim=4`); otherwise there are no flags.
//! 3. After a flags line 2, each following `//` comment whose every word is
//!    a flag (or the value of a preceding flag such as `-D NAME`) adds more
//!    flags. The first other line ends the flags.
//! 4. Then, only for files with an expectation, each following non-empty
//!    `//` comment is a regular expression that `gvtester` requires in
//!    GPUVerify's output (collected in [`Header::expected_output`]). As in
//!    `gvtester`, line 2 counts as the flags line even when it holds none.
//!
//! The strict test in step 3 keeps expected-output lines such as
//! `//--num_groups=: not allowed with argument --global_size=` out of the
//! flags. Parsing never fails; malformed flag values are reported later by
//! [`parse_flags`](crate::parse_flags).

use serde::{Deserialize, Serialize};

use crate::spellings::takes_separate_value;
use crate::{split_args, Expectation};

/// The annotations at the top of a corpus kernel.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// Line 1's `//pass` / `//xfail:REASON`, or `None` if absent.
    pub expectation: Option<Expectation>,
    /// The arguments of the flag lines, tokenized with
    /// [`split_args`](crate::split_args); `${KERNEL_DIR}` is not substituted.
    pub flags: Vec<String>,
    /// The 1-based line of the first flags line (always 2), or `None` if
    /// there is none.
    pub flag_line: Option<u32>,
    /// The expected-output regular expressions that follow the flags,
    /// without their `//` and trailing whitespace.
    pub expected_output: Vec<String>,
}

/// Reads the header of a corpus kernel from the file's text.
///
/// ```
/// use warpsafe_corpus::{parse_header, Expectation};
/// let h = parse_header("//xfail:data-race\r\n//--blockDim=64 --gridDim=4\r\n__global__ void k() {}\r\n");
/// assert_eq!(h.expectation, Some(Expectation::Xfail("data-race".into())));
/// assert_eq!(h.flags, ["--blockDim=64", "--gridDim=4"]);
/// assert_eq!(h.flag_line, Some(2));
/// ```
pub fn parse_header(text: &str) -> Header {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.lines().peekable();
    let mut header = Header {
        expectation: lines.next().and_then(parse_expectation),
        ..Header::default()
    };

    let line2 = lines.next();
    if let Some(args) = line2.and_then(comment_text).and_then(flag_text) {
        header.flag_line = Some(2);
        header.flags = split_args(args);
        while let Some(more) = lines
            .peek()
            .and_then(|line| comment_text(line))
            .and_then(flag_text)
            .map(split_args)
            .filter(|args| all_flags(args))
        {
            header.flags.extend(more);
            lines.next();
        }
    }

    if header.expectation.is_some() && line2.is_some() {
        header.expected_output = lines
            .map_while(|line| comment_text(line).map(str::trim_end))
            .take_while(|regex| !regex.is_empty())
            .map(str::to_owned)
            .collect();
    }
    header
}

/// Parses line 1: `//pass` (followed by anything but an identifier
/// character), `//xfail:REASON` or `//xfail`; case-insensitive.
fn parse_expectation(line: &str) -> Option<Expectation> {
    let text = comment_text(line)?.trim_start();
    let word_end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    let (word, rest) = text.split_at(word_end);
    if word.eq_ignore_ascii_case("pass") {
        return Some(Expectation::Pass);
    }
    if !word.eq_ignore_ascii_case("xfail") {
        return None;
    }
    let reason = match rest.trim_start().strip_prefix(':') {
        Some(after) => after
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_owned(),
        None => String::new(),
    };
    Some(Expectation::Xfail(reason))
}

/// The text after `//` of a line-comment line (leading whitespace allowed).
fn comment_text(line: &str) -> Option<&str> {
    line.trim_start().strip_prefix("//")
}

/// The comment text, if it starts (after whitespace) with a flag's `-`.
fn flag_text(text: &str) -> Option<&str> {
    let text = text.trim_start();
    text.starts_with('-').then_some(text)
}

/// `true` if every argument is a flag or the separate value of the flag
/// before it.
fn all_flags(args: &[String]) -> bool {
    let mut value_expected = false;
    for arg in args {
        if value_expected {
            value_expected = false;
        } else if arg.len() > 1 && arg.starts_with('-') {
            value_expected = takes_separate_value(arg);
        } else {
            return false;
        }
    }
    !args.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xfail(reason: &str) -> Option<Expectation> {
        Some(Expectation::Xfail(reason.to_owned()))
    }

    #[test]
    fn pass_and_flags() {
        let h = parse_header("//pass\n//--blockDim=64 --gridDim=4\n\n__global__ void k() {}\n");
        assert_eq!(h.expectation, Some(Expectation::Pass));
        assert_eq!(h.flags, ["--blockDim=64", "--gridDim=4"]);
        assert_eq!(h.flag_line, Some(2));
        assert!(h.expected_output.is_empty());
    }

    #[test]
    fn expectation_spellings() {
        for line in [
            "//pass",
            "// pass",
            "//pass   ",
            "//PASS",
            "  //Pass\t",
            "//pass // ok",
        ] {
            assert_eq!(
                parse_header(line).expectation,
                Some(Expectation::Pass),
                "{line:?}"
            );
        }
        for (line, reason) in [
            ("//xfail:NOT_ALL_VERIFIED", "NOT_ALL_VERIFIED"),
            ("//XFAIL:NOT_ALL_VERIFIED", "NOT_ALL_VERIFIED"),
            ("// xfail : data-race  ", "data-race"),
            ("//xfail:BOOGIE_ERROR more words", "BOOGIE_ERROR"),
            ("//xfail:front-end", "front-end"),
            ("//xfail", ""),
            ("//xfail:", ""),
            ("//xfail   ", ""),
        ] {
            assert_eq!(parse_header(line).expectation, xfail(reason), "{line:?}");
        }
    }

    #[test]
    fn not_an_expectation() {
        for text in [
            "",
            "\n",
            "__global__ void k() {}",
            "// This kernel passes",
            "//passes",
            "//pass_through",
            "//xfailing",
            "/*pass*/",
            "pass",
            "\n//pass",
        ] {
            assert_eq!(parse_header(text).expectation, None, "{text:?}");
        }
    }

    #[test]
    fn no_header_at_all() {
        let h = parse_header("#include <cuda.h>\n__global__ void k(int *p) { p[0] = 1; }\n");
        assert_eq!(h, Header::default());
        assert_eq!(parse_header(""), Header::default());
    }

    #[test]
    fn flags_without_expectation() {
        let h = parse_header("// some kernel\n//--blockDim=32\n// comment\n");
        assert_eq!(h.expectation, None);
        assert_eq!(h.flags, ["--blockDim=32"]);
        assert_eq!(h.flag_line, Some(2));
        assert!(h.expected_output.is_empty());
    }

    #[test]
    fn line_two_not_flags() {
        for line2 in ["// Tests a race", "//", "int x;", "", "   "] {
            let h = parse_header(&format!("//pass\n{line2}\n//--blockDim=2\n"));
            assert!(h.flags.is_empty(), "{line2:?}");
            assert_eq!(h.flag_line, None, "{line2:?}");
        }
    }

    #[test]
    fn spaced_flag_line() {
        let h = parse_header("//pass\n//   --blockDim=64   --gridDim=4   \n");
        assert_eq!(h.flags, ["--blockDim=64", "--gridDim=4"]);
        let h = parse_header("//pass\n  // -DX=1\n");
        assert_eq!(h.flags, ["-DX=1"]);
    }

    #[test]
    fn quoted_flags() {
        let h = parse_header("//pass\n//--blockDim=8 -D'MSG=a b' \"-I my dir\"\n");
        assert_eq!(h.flags, ["--blockDim=8", "-DMSG=a b", "-I my dir"]);
    }

    #[test]
    fn multi_line_flags() {
        let text = "//pass\n//--blockDim=[16,16] --gridDim=[2,2]\n//-DWIDTH=32 --no-inline\n\
                    // --warp-sync=32\n//-D N -I inc --kernel k\nint x;\n";
        let h = parse_header(text);
        assert_eq!(
            h.flags,
            [
                "--blockDim=[16,16]",
                "--gridDim=[2,2]",
                "-DWIDTH=32",
                "--no-inline",
                "--warp-sync=32",
                "-D",
                "N",
                "-I",
                "inc",
                "--kernel",
                "k",
            ]
        );
        assert_eq!(h.flag_line, Some(2));
    }

    #[test]
    fn flags_stop_at_first_other_line() {
        let text = "//pass\n//--blockDim=2\n//--gridDim=2\n\n//--no-inline\n";
        assert_eq!(parse_header(text).flags, ["--blockDim=2", "--gridDim=2"]);
        let text = "//pass\n//--blockDim=2\n// note\n//--gridDim=2\n";
        assert_eq!(parse_header(text).flags, ["--blockDim=2"]);
    }

    #[test]
    fn continuation_needs_flag_line_two() {
        let h = parse_header("//pass\n// Tests\n//--blockDim=2\n");
        assert!(h.flags.is_empty());
    }

    #[test]
    fn regex_line_is_not_a_continuation() {
        let text = "//xfail:COMMAND_LINE_ERROR\n\
                    //--local_size=[32,64] --global_size=[64,64] --num_groups=[2,1]\n\
                    //--num_groups=: not allowed with argument --global_size=\n\nvoid k() {}\n";
        let h = parse_header(text);
        assert_eq!(h.flags.len(), 3);
        assert_eq!(
            h.expected_output,
            ["--num_groups=: not allowed with argument --global_size="]
        );
    }

    #[test]
    fn expected_output_lines() {
        let text = "//xfail:NOT_ALL_VERIFIED\n//--blockDim=2 --gridDim=1\n\
                    //possible write-write race on q.p\\[4\\]\\[0\\]\n//Write by thread 200  \n\
                    //\n//not collected\n";
        let h = parse_header(text);
        assert_eq!(
            h.expected_output,
            [
                r"possible write-write race on q.p\[4\]\[0\]",
                "Write by thread 200"
            ]
        );
    }

    #[test]
    fn expected_output_after_empty_flag_line() {
        let h = parse_header("//pass\n//\n//error: oops\n");
        assert_eq!(h.flag_line, None);
        assert_eq!(h.expected_output, ["error: oops"]);
    }

    #[test]
    fn expected_output_needs_expectation() {
        let h = parse_header("// Copyright\n//--blockDim=2\n// Licensed under MIT\n");
        assert!(h.expected_output.is_empty());
    }

    #[test]
    fn crlf_line_endings() {
        let text = "//xfail:barrier-divergence\r\n//--blockDim=[4,4]\r\n//--gridDim=2 -DW=1\r\n\
                    //error: barrier\r\n\r\nint x;\r\n";
        let h = parse_header(text);
        assert_eq!(h.expectation, xfail("barrier-divergence"));
        assert_eq!(h.flags, ["--blockDim=[4,4]", "--gridDim=2", "-DW=1"]);
        assert_eq!(h.expected_output, ["error: barrier"]);
        assert_eq!(
            parse_header("//pass\r\n").expectation,
            Some(Expectation::Pass)
        );
    }

    #[test]
    fn byte_order_mark() {
        let h = parse_header("\u{feff}//pass\n//--blockDim=2\n");
        assert_eq!(h.expectation, Some(Expectation::Pass));
        assert_eq!(h.flags, ["--blockDim=2"]);
    }

    #[test]
    fn all_flags_rule() {
        let args = |s: &str| split_args(s);
        assert!(all_flags(&args("--no-inline -DX=1")));
        assert!(all_flags(&args("-D X --kernel k --param n=1 --blockDim 2")));
        assert!(!all_flags(&args("--no-inline not a flag")));
        assert!(!all_flags(&args("--no-inline=x words here")));
        assert!(!all_flags(&args("- x")));
        assert!(!all_flags(&[]));
    }
}
