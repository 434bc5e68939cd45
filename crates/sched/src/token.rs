//! Replay tokens of schedules: a schedule is its delay list, so a token is
//! that list with a fingerprint of the kernel and launch it belongs to
//! (the model checker's, [`warpsafe_mc::fingerprint`]), as text:
//! `sched1.<fingerprint>.<thread>:<op>,...` (`-` for no delays).

use crate::delay::DelayPoint;
use thiserror::Error;
use warpsafe_interp::Launch;
use warpsafe_ir::Kernel;

const PREFIX: &str = "sched1";

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TokenError {
    #[error("not a schedule replay token (expected `{PREFIX}.<fingerprint>.<delays>`)")]
    Malformed,
    #[error("the token belongs to another kernel or launch (the source, dimensions, parameters or arrays changed)")]
    OtherLaunch,
}

/// The token of the schedule of `delays`.
pub fn encode(kernel: &Kernel, launch: &Launch, delays: &[DelayPoint]) -> String {
    let list = if delays.is_empty() {
        "-".to_string()
    } else {
        delays
            .iter()
            .map(|p| format!("{}:{}", p.thread, p.op))
            .collect::<Vec<_>>()
            .join(",")
    };
    format!(
        "{PREFIX}.{:016x}.{list}",
        warpsafe_mc::fingerprint(kernel, launch)
    )
}

/// Whether `token` looks like a schedule token (rather than one of the
/// model checker's).
pub fn is_schedule_token(token: &str) -> bool {
    token.starts_with(&format!("{PREFIX}."))
}

/// The delay list of `token`, which must belong to `kernel` and `launch`.
pub fn decode(
    kernel: &Kernel,
    launch: &Launch,
    token: &str,
) -> Result<Vec<DelayPoint>, TokenError> {
    let mut parts = token.trim().splitn(3, '.');
    let (Some(PREFIX), Some(fp), Some(list)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(TokenError::Malformed);
    };
    let fp = u64::from_str_radix(fp, 16).map_err(|_| TokenError::Malformed)?;
    if fp != warpsafe_mc::fingerprint(kernel, launch) {
        return Err(TokenError::OtherLaunch);
    }
    if list == "-" {
        return Ok(Vec::new());
    }
    list.split(',')
        .map(|p| {
            let (t, op) = p.split_once(':').ok_or(TokenError::Malformed)?;
            Ok(DelayPoint {
                thread: t.parse().map_err(|_| TokenError::Malformed)?,
                op: op.parse().map_err(|_| TokenError::Malformed)?,
            })
        })
        .collect()
}
