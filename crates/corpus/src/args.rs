//! Splitting a flags line into arguments, and `${KERNEL_DIR}` substitution.
//!
//! [`split_args`] follows a small, shell-like grammar:
//! - Unquoted whitespace separates arguments; runs of it count once.
//! - `'...'` is taken literally; `"..."` is literal except that `\"` and
//!   `\\` stand for `"` and `\`.
//! - Outside quotes, a backslash escapes a following whitespace, quote or
//!   backslash; before any other character it is kept as written (so
//!   Windows paths and regex-like values survive).
//! - Quoted and unquoted pieces that touch form one argument
//!   (`-D'X=a b'` gives `-DX=a b`); `''` or `""` alone gives an empty one.
//! - An unterminated quote runs to the end of the line. Splitting never
//!   fails.

/// Splits a flags line into arguments, honouring single and double quotes.
///
/// ```
/// use warpsafe_corpus::split_args;
/// assert_eq!(
///     split_args(r#"--blockDim=64 -D"MSG=a b" '-I my dir'"#),
///     ["--blockDim=64", "-DMSG=a b", "-I my dir"],
/// );
/// ```
pub fn split_args(line: &str) -> Vec<String> {
    let mut args = Vec::new();
    // The argument being built; `None` between arguments, so that `""`
    // still yields an (empty) argument.
    let mut current: Option<String> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if let Some(arg) = current.take() {
                    args.push(arg);
                }
            }
            '\'' => {
                let arg = current.get_or_insert_with(String::new);
                for q in chars.by_ref() {
                    if q == '\'' {
                        break;
                    }
                    arg.push(q);
                }
            }
            '"' => {
                let arg = current.get_or_insert_with(String::new);
                while let Some(q) = chars.next() {
                    match q {
                        '"' => break,
                        '\\' => match chars.peek() {
                            Some(&e @ ('"' | '\\')) => {
                                arg.push(e);
                                chars.next();
                            }
                            _ => arg.push('\\'),
                        },
                        q => arg.push(q),
                    }
                }
            }
            '\\' => {
                let arg = current.get_or_insert_with(String::new);
                match chars.peek() {
                    Some(&e) if e.is_whitespace() || matches!(e, '\'' | '"' | '\\') => {
                        arg.push(e);
                        chars.next();
                    }
                    _ => arg.push('\\'),
                }
            }
            c => current.get_or_insert_with(String::new).push(c),
        }
    }
    if let Some(arg) = current {
        args.push(arg);
    }
    args
}

/// Replaces GPUVerify's `${KERNEL_DIR}` (or `$KERNEL_DIR` not followed by an
/// identifier character) in `arg` with `kernel_dir`, the directory holding
/// the kernel file. Other `$` text is left alone.
///
/// ```
/// use warpsafe_corpus::substitute_kernel_dir;
/// assert_eq!(
///     substitute_kernel_dir("--boogie-file=${KERNEL_DIR}/axioms.bpl", "t/k"),
///     "--boogie-file=t/k/axioms.bpl",
/// );
/// ```
pub fn substitute_kernel_dir(arg: &str, kernel_dir: &str) -> String {
    const BRACED: &str = "${KERNEL_DIR}";
    const BARE: &str = "$KERNEL_DIR";
    let mut out = String::with_capacity(arg.len());
    let mut rest = arg;
    while let Some(pos) = rest.find('$') {
        out.push_str(&rest[..pos]);
        let tail = &rest[pos..];
        if let Some(after) = tail.strip_prefix(BRACED) {
            out.push_str(kernel_dir);
            rest = after;
        } else if let Some(after) = tail
            .strip_prefix(BARE)
            .filter(|after| !after.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
        {
            out.push_str(kernel_dir);
            rest = after;
        } else {
            out.push('$');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(line: &str) -> Vec<String> {
        split_args(line)
    }

    #[test]
    fn plain_whitespace() {
        assert_eq!(
            split("--blockDim=64   --gridDim=4\t-DW=1"),
            ["--blockDim=64", "--gridDim=4", "-DW=1"]
        );
        assert_eq!(split("  lead and trail  "), ["lead", "and", "trail"]);
    }

    #[test]
    fn empty_and_blank_lines() {
        assert!(split("").is_empty());
        assert!(split(" \t \r").is_empty());
    }

    #[test]
    fn single_quotes_are_literal() {
        assert_eq!(split(r"'a b' 'c\d' 'e\'"), ["a b", r"c\d", r"e\"]);
    }

    #[test]
    fn double_quotes_with_escapes() {
        assert_eq!(
            split(r#""a b" "say \"hi\"" "back\\slash" "keep\n""#),
            ["a b", r#"say "hi""#, r"back\slash", r"keep\n"]
        );
    }

    #[test]
    fn adjacent_pieces_join() {
        assert_eq!(split(r#"-D'X=a b'"tail"x"#), ["-DX=a btailx"]);
        assert_eq!(split(r#"--param "n=1 2""#), ["--param", "n=1 2"]);
    }

    #[test]
    fn empty_quotes_give_empty_argument() {
        assert_eq!(split(r#"a '' "" b"#), ["a", "", "", "b"]);
    }

    #[test]
    fn backslash_outside_quotes() {
        assert_eq!(split(r"a\ b c\'d"), ["a b", "c'd"]);
        assert_eq!(split(r"C:\dir\x \\"), [r"C:\dir\x", r"\"]);
        assert_eq!(split(r"end\"), [r"end\"]);
    }

    #[test]
    fn unterminated_quotes_run_to_end() {
        assert_eq!(split("a 'b c"), ["a", "b c"]);
        assert_eq!(split(r#"a "b \"c"#), ["a", r#"b "c"#]);
    }

    #[test]
    fn unicode_is_preserved() {
        assert_eq!(split("-DNAME=é\u{a0}ß 'λ x'"), ["-DNAME=é", "ß", "λ x"]);
    }

    #[test]
    fn kernel_dir_braced_and_bare() {
        assert_eq!(
            substitute_kernel_dir("${KERNEL_DIR}/a.bpl", "/k"),
            "/k/a.bpl"
        );
        assert_eq!(substitute_kernel_dir("$KERNEL_DIR/a", "d"), "d/a");
        assert_eq!(
            substitute_kernel_dir("${KERNEL_DIR}:${KERNEL_DIR}", "d"),
            "d:d"
        );
    }

    #[test]
    fn kernel_dir_leaves_other_dollars() {
        assert_eq!(substitute_kernel_dir("$KERNEL_DIRX", "d"), "$KERNEL_DIRX");
        assert_eq!(substitute_kernel_dir("$HOME $ ${X}", "d"), "$HOME $ ${X}");
        assert_eq!(substitute_kernel_dir("cost$", "d"), "cost$");
        assert_eq!(substitute_kernel_dir("€$€", "d"), "€$€");
    }
}
