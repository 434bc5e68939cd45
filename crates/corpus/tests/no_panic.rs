//! Property tests: the parsers never panic, whatever their input, and the
//! simple cases round-trip.

use proptest::prelude::*;
use warpsafe_corpus::{parse_dims, parse_flags, parse_header, split_args, substitute_kernel_dir};

/// Fragments that steer random input towards the parsers' interesting paths.
fn flaggy_token() -> impl Strategy<Value = String> {
    let prefixes = prop::sample::select(vec![
        "--blockDim=",
        "--block-dim=",
        "--gridDim=",
        "--grid-dim ",
        "--local_size=",
        "--global_size=",
        "--num_groups=",
        "--kernel=",
        "--kernel ",
        "--template-args=",
        "--param ",
        "--param=",
        "--warp-sync=",
        "--only-intra-group",
        "--no-inline",
        "--loop-unwind",
        "-D",
        "-D ",
        "-I",
        "-U",
        "-",
        "",
        "'",
        "\"",
        "\\",
    ]);
    let suffix = "[-\\[\\]{}()<>,=0-9a-zA-Z_*' \"\\\\]{0,12}";
    (prefixes, suffix).prop_map(|(p, s)| format!("{p}{s}"))
}

fn flaggy_line() -> impl Strategy<Value = String> {
    prop::collection::vec(flaggy_token(), 0..8).prop_map(|t| t.join(" "))
}

fn flaggy_file() -> impl Strategy<Value = String> {
    let first = prop::sample::select(vec![
        "//pass",
        "// PASS ",
        "//xfail:",
        "//xfail:data-race",
        "//XFAIL",
        "",
        "int x;",
    ]);
    let line = prop_oneof![
        flaggy_line().prop_map(|l| format!("//{l}")),
        flaggy_line().prop_map(|l| format!("// {l}")),
        "//[ -~]{0,20}",
        "[ -~]{0,20}",
    ];
    let ending = prop::sample::select(vec!["\n", "\r\n", "\r"]);
    (
        first,
        prop::collection::vec((line, ending.clone()), 0..6),
        ending,
    )
        .prop_map(|(first, lines, end)| {
            let mut text = format!("{first}{end}");
            for (line, end) in lines {
                text.push_str(&line);
                text.push_str(end);
            }
            text
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn header_never_panics(text in any::<String>()) {
        let header = parse_header(&text);
        let _ = parse_flags(&header.flags);
    }

    #[test]
    fn structured_header_never_panics(text in flaggy_file()) {
        let header = parse_header(&text);
        if header.flag_line.is_some() {
            prop_assert_eq!(header.flag_line, Some(2));
        } else {
            prop_assert!(header.flags.is_empty());
        }
        let _ = parse_flags(&header.flags);
    }

    #[test]
    fn split_args_never_panics(line in any::<String>()) {
        for arg in split_args(&line) {
            let _ = substitute_kernel_dir(&arg, "dir");
        }
    }

    #[test]
    fn parse_flags_never_panics(args in prop::collection::vec(any::<String>(), 0..8)) {
        let _ = parse_flags(&args);
    }

    #[test]
    fn structured_flags_never_panic(line in flaggy_line()) {
        if let Ok(flags) = parse_flags(&split_args(&line)) {
            // Dimensions of an accepted command line are usable as-is.
            for dims in [flags.block_dim, flags.grid_dim].into_iter().flatten() {
                prop_assert!(dims.iter().all(|&d| d >= 1));
            }
            if flags.block_dim.is_some() && flags.grid_dim.is_some() {
                prop_assert!(flags.total_threads().is_some());
            }
            prop_assert!(flags.warp_sync != Some(0));
        }
    }

    #[test]
    fn parse_dims_never_panics(s in any::<String>()) {
        let _ = parse_dims(&s);
    }

    #[test]
    fn dims_round_trip(dims in prop::collection::vec(1u64..100_000, 1..=3), braces in 0..3usize) {
        let list = dims.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
        let text = match braces {
            0 => list,
            1 => format!("[{list}]"),
            _ => format!("{{{list}}}"),
        };
        let parsed = parse_dims(&text);
        prop_assert!(parsed.is_ok(), "{} rejected: {:?}", text, parsed);
        if let Ok(parsed) = parsed {
            for (i, got) in parsed.iter().enumerate() {
                prop_assert_eq!(*got, dims.get(i).copied().unwrap_or(1));
            }
        }
    }

    #[test]
    fn plain_words_round_trip(words in prop::collection::vec("[a-zA-Z0-9=,_./:\\[\\]-]{1,10}", 0..8)) {
        prop_assert_eq!(split_args(&words.join(" ")), words);
    }
}
