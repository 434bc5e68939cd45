//! `--color auto|always|never`: whether text reports colour their verdicts
//! (DRF green; RACY, DIVERGENT and *provable* red; UNKNOWN and *possible*
//! yellow). `auto` colours only a terminal, and honours the `NO_COLOR`
//! and `CLICOLOR_FORCE` conventions. Styles are `anstyle`'s (the crate
//! clap already uses), so no escape code is written by hand.

use anstyle::{AnsiColor, Style};
use std::io::IsTerminal;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether output to stdout gets colour.
    pub fn enabled_on_stdout(self) -> bool {
        let var = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto if var("NO_COLOR") => false,
            ColorChoice::Auto if var("CLICOLOR_FORCE") => true,
            ColorChoice::Auto => std::io::stdout().is_terminal(),
        }
    }
}

/// The meaning a coloured word carries.
#[derive(Clone, Copy, Debug)]
pub enum Tone {
    Good,
    Bad,
    Unsure,
}

/// `text` in the colour of `tone` when `on`, as it is otherwise.
pub fn paint(text: &str, tone: Tone, on: bool) -> String {
    if !on {
        return text.to_string();
    }
    let color = match tone {
        Tone::Good => AnsiColor::Green,
        Tone::Bad => AnsiColor::Red,
        Tone::Unsure => AnsiColor::Yellow,
    };
    let style = Style::new().fg_color(Some(color.into())).bold();
    format!("{style}{text}{style:#}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paint_only_when_on() {
        assert_eq!(paint("DRF", Tone::Good, false), "DRF");
        let on = paint("RACY", Tone::Bad, true);
        assert!(on.starts_with("\u{1b}[") && on.contains("RACY") && on.ends_with("\u{1b}[0m"));
    }
}
