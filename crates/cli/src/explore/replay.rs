//! `warpsafe explore FILE --replay TOKEN`: finds the kernel of `FILE` the
//! token was made for (same kernel, launch and parameter values: the
//! token's fingerprint), re-runs that one execution with
//! [`warpsafe_mc::replay`] and reports it like an exploration's witness.
//!
//! A token that is malformed, of another format version, made for another
//! kernel or launch, or that does not fit the kernel is an error (exit 2),
//! never a silently different execution.

use super::inputs::{note_unchecked, Inputs};
use super::result::{KernelResult, Shown, Summary, Verdict};
use super::ExploreArgs;
use anyhow::{anyhow, Result};
use warpsafe_explore::collect::{Reported, Witness};
use warpsafe_ir::Kernel;
use warpsafe_mc::reference::Config;
use warpsafe_mc::replay::fits;
use warpsafe_mc::{findings, replay, ReplayToken};

pub fn run<'k>(
    text: &str,
    kernels: &'k [Kernel],
    inputs: &Inputs,
    args: &ExploreArgs,
) -> Result<KernelResult<'k>> {
    let token = ReplayToken::decode(text)?;
    let found = kernels.iter().find_map(|k| {
        let launch = inputs.launch(k).ok()?;
        fits(k, &launch, &token).then_some((k, launch))
    });
    let Some((kernel, launch)) = found else {
        return Err(anyhow!(
            "{}; replay it with the file, flags, --param, --array and --input values of the run that printed it",
            warpsafe_mc::ReplayError::Mismatch
        ));
    };
    let config = args.config(Config::default().max_executions);
    let execution = replay(kernel, &launch, &config, &token)?;
    let errors: Vec<Reported> = findings(&execution)
        .into_iter()
        .map(|finding| Reported {
            finding,
            witness: 0,
            occurrences: 1,
        })
        .collect();
    let mut r = KernelResult {
        kernel,
        verdict: if errors.is_empty() {
            Verdict::NoErrorInReplay
        } else {
            Verdict::ErrorsFound
        },
        incomplete: None,
        errors,
        witnesses: vec![Shown {
            witness: Witness {
                execution,
                number: 1,
            },
            token: token.encode(),
        }],
        outcomes: None,
        summary: Some(Summary {
            executions: 1,
            ..Summary::default()
        }),
        all: false,
        replay: true,
        unchecked: Vec::new(),
        notes: Vec::new(),
    };
    note_unchecked(&mut r, &launch);
    Ok(r)
}
