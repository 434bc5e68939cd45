//! The `warpsafe` command line. The only crate that does I/O: it reads
//! files, runs the pipeline stages and prints their results.
//!
//! Exit status: 0 when everything asked for succeeded (and, once engines
//! run, was proven), 1 when errors were found (a corpus kernel that did
//! not meet its expectation), 2 for unusable input (a diagnostic error,
//! a bad flag, a missing file).

mod check;
mod color;
mod corpus;
mod explore;
mod input;
mod ir;
mod merge;
mod ordered;
mod repair;
mod run;

/// The model checkers allocate and free many small objects; mimalloc
/// explores the lb bench's rings 20-25% faster than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "warpsafe",
    version,
    about = "Verifier for CUDA GPU kernels: data races, barrier divergence, assertion failures and weak-memory bugs"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the kernel IR of a CUDA file (every kernel, or --kernel NAME).
    Ir(ir::IrArgs),
    /// Check every kernel of files and folders for data races, barrier
    /// divergence and failing assertions with an SMT solver: a proof, or
    /// witnesses.
    Check(check::CheckArgs),
    /// Join the JSON or SARIF outputs of `check --shard` runs into one.
    Merge(merge::MergeArgs),
    /// Run every execution of each kernel on a concrete grid under the
    /// scoped RC11 memory model (small grids: exact, exponential).
    Explore(explore::ExploreArgs),
    /// Run each kernel at its launch size in the canonical schedule and in
    /// schedules delayed where atomics conflict (seed 003): races,
    /// divergence, assertions, undefined behaviour and hangs, dynamically.
    Run(run::RunArgs),
    /// Run every annotated kernel (GPUVerify test-suite format) under a folder.
    Corpus(corpus::CorpusArgs),
}

/// Exit statuses, as documented in the README.
pub mod exit {
    pub const OK: u8 = 0;
    pub const FOUND: u8 = 1;
    pub const UNUSABLE: u8 = 2;
}

/// Drops GPUVerify options that mean nothing to warpsafe (`--no-inline`,
/// `--equality-abstraction`, ...) and `--warp-sync=N` (warpsafe never
/// assumes lock-step warps) so that a corpus flag line can be pasted as it
/// is; each one dropped is mentioned on stderr.
/// A flag that names one of the subcommand's own options (in `--flag` or
/// `--flag=value` form) always keeps its warpsafe meaning, even where
/// GPUVerify has an option of the same name (`--verbose`, `--timeout`).
fn without_gpuverify_options(args: impl Iterator<Item = String>) -> Vec<String> {
    let args: Vec<String> = args.collect();
    let own = own_long_flags(&args);
    args.into_iter()
        .filter(|a| {
            let name = a.split('=').next().unwrap_or(a);
            if name.starts_with("--") && own.iter().any(|o| o == &name[2..]) {
                return true;
            }
            let parsed = a
                .starts_with("--")
                .then(|| warpsafe_corpus::parse_flags(std::slice::from_ref(a)).ok())
                .flatten();
            if parsed.as_ref().is_some_and(|f| f.warp_sync.is_some()) {
                eprintln!(
                    "note: ignoring the GPUVerify option `{a}`: warpsafe assumes no lock-step \
                 between the threads of a warp (independent thread scheduling), so races \
                 that lock-step would hide are reported"
                );
                return false;
            }
            let ignored = parsed.is_some_and(|f| !f.ignored.is_empty());
            if ignored {
                eprintln!(
                    "note: ignoring the GPUVerify option `{a}`, which has no meaning for warpsafe"
                );
            }
            !ignored
        })
        .collect()
}

/// The long options of the subcommand named in `args` (the first argument
/// after the program that is not a flag), plus `help` and `version`.
fn own_long_flags(args: &[String]) -> Vec<String> {
    use clap::CommandFactory;
    let cli = Cli::command();
    let mut own = vec!["help".to_string(), "version".to_string()];
    let sub = args
        .iter()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .and_then(|name| cli.find_subcommand(name));
    if let Some(sub) = sub {
        own.extend(
            sub.get_arguments()
                .filter_map(|a| a.get_long())
                .map(str::to_string),
        );
    }
    own
}

fn main() -> ExitCode {
    // Rust ignores SIGPIPE, which makes println! panic when a reader such
    // as `head` closes the pipe; a command-line tool should just stop.
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any other thread exists;
    // SIG_DFL is a valid action for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse_from(without_gpuverify_options(std::env::args()));
    let result = match cli.command {
        Command::Ir(args) => ir::run(args),
        Command::Check(args) => check::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Corpus(args) => corpus::run(args),
        Command::Explore(args) => explore::run(args),
        Command::Run(args) => run::run(args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(exit::UNUSABLE)
        }
    }
}
