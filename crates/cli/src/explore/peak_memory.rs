//! The process's peak resident memory (`getrusage`'s `ru_maxrss`), for the
//! summary of `warpsafe explore`. `None` where the platform does not say.

/// Peak resident set size in KiB.
#[cfg(unix)]
pub fn peak_kib() -> Option<u64> {
    // SAFETY: `rusage` is plain data for which all-zero bytes are valid, and
    // getrusage only writes into the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: RUSAGE_SELF is a valid target and `usage` a valid pointer.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    if rc != 0 {
        return None;
    }
    let max = u64::try_from(usage.ru_maxrss).ok()?;
    // Linux reports KiB, macOS bytes.
    Some(if cfg!(target_os = "macos") {
        max / 1024
    } else {
        max
    })
}

#[cfg(not(unix))]
pub fn peak_kib() -> Option<u64> {
    None
}
