//! The process's peak resident memory (`getrusage`'s `ru_maxrss`), for the
//! summary of `warpsafe explore`; its current resident memory
//! (`/proc/self/statm`) and the machine's memory, for `--max-memory`.
//! `None` where the platform does not say.

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

/// Bytes of one memory page.
#[cfg(unix)]
fn page_bytes() -> Option<u64> {
    // SAFETY: sysconf only reads a configuration value.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    u64::try_from(page).ok().filter(|p| *p > 0)
}

/// Current resident set size in KiB (Linux: `/proc/self/statm`).
#[cfg(target_os = "linux")]
pub fn current_kib() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let resident: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(resident * page_bytes()? / 1024)
}

#[cfg(not(target_os = "linux"))]
pub fn current_kib() -> Option<u64> {
    None
}

/// Physical memory of the machine in MiB.
#[cfg(target_os = "linux")]
pub fn physical_mib() -> Option<u64> {
    // SAFETY: sysconf only reads a configuration value.
    let pages = unsafe { libc::sysconf(libc::_SC_PHYS_PAGES) };
    Some(u64::try_from(pages).ok()? * page_bytes()? / (1 << 20))
}

#[cfg(not(target_os = "linux"))]
pub fn physical_mib() -> Option<u64> {
    None
}
