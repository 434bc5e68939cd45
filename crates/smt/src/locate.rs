//! Finding the solver binary.
//!
//! Order: an explicit [`SolverConfig::program`](crate::SolverConfig), then
//! the kind's environment variable (`WARPSAFE_Z3`, `WARPSAFE_CVC5`), then
//! the binary's name on `PATH`. A value containing a path separator must name
//! an executable file; a bare name is looked up on `PATH`. Failure is
//! [`SmtError::NotFound`] with an install hint — never a panic.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use crate::config::SolverKind;
use crate::error::SmtError;

/// Finds the binary for `kind`, honouring `explicit`, then the environment.
pub fn locate(kind: SolverKind, explicit: Option<&Path>) -> Result<PathBuf, SmtError> {
    let from_env = std::env::var_os(kind.env_var());
    let path_var = std::env::var_os("PATH");
    let found = locate_in(kind, explicit, from_env.as_deref(), path_var.as_deref())?;
    Ok(through_shim(&found))
}

/// The real binary behind a pyenv shim, when there is one. `pip install
/// z3-solver` under pyenv puts a shell-script shim on PATH that costs about
/// 200 ms per start (a run starts one solver per kernel); the binary it
/// runs is looked up once per process and used directly.
fn through_shim(found: &Path) -> PathBuf {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static CACHE: OnceLock<Mutex<HashMap<PathBuf, PathBuf>>> = OnceLock::new();
    let is_shim = found.parent().and_then(|d| d.file_name()) == Some(OsStr::new("shims"))
        && found
            .components()
            .any(|c| c.as_os_str().to_string_lossy().contains("pyenv"));
    if !is_shim {
        return found.to_owned();
    }
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let Ok(mut cache) = cache.lock() else {
        return found.to_owned();
    };
    cache
        .entry(found.to_owned())
        .or_insert_with(|| {
            let name = found.file_name().unwrap_or_default();
            std::process::Command::new("pyenv")
                .arg("which")
                .arg(name)
                .output()
                .ok()
                .filter(|o| o.status.success())
                .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
                .filter(|p| is_executable(p))
                .unwrap_or_else(|| found.to_owned())
        })
        .clone()
}

/// [`locate`] with the environment passed in (testable without mutating
/// the process environment).
pub(crate) fn locate_in(
    kind: SolverKind,
    explicit: Option<&Path>,
    from_env: Option<&OsStr>,
    path_var: Option<&OsStr>,
) -> Result<PathBuf, SmtError> {
    let not_found = |looked: String| SmtError::NotFound {
        solver: kind.name(),
        message: format!(
            "SMT solver `{}` not found ({looked}); {}, or set {} to the path of a {} binary",
            kind.name(),
            kind.install_hint(),
            kind.env_var(),
            kind.name()
        ),
    };
    let (wanted, source): (OsString, String) = if let Some(p) = explicit {
        (
            p.as_os_str().to_owned(),
            "the configured program".to_owned(),
        )
    } else if let Some(v) = from_env.filter(|v| !v.is_empty()) {
        (v.to_owned(), format!("${}", kind.env_var()))
    } else {
        (OsString::from(kind.name()), "PATH".to_owned())
    };
    let wanted_path = Path::new(&wanted);
    if wanted_path.components().count() > 1 || wanted_path.is_absolute() {
        return if is_executable(wanted_path) {
            Ok(wanted_path.to_owned())
        } else {
            Err(not_found(format!(
                "{source} is `{}`, which is not an executable file",
                wanted_path.display()
            )))
        };
    }
    let found = path_var
        .into_iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join(&wanted))
        .find(|candidate| is_executable(candidate));
    found.ok_or_else(|| {
        not_found(format!(
            "{source} names `{}`, which is not on PATH",
            wanted_path.display()
        ))
    })
}

fn is_executable(path: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(err: SmtError) -> String {
        match err {
            SmtError::NotFound { message, .. } => message,
            other => panic!("expected NotFound, got {other:?}"),
        }
    }

    #[test]
    fn missing_from_path_gives_install_hint() {
        let empty = std::env::temp_dir().join("warpsafe-smt-no-such-dir");
        let err = locate_in(SolverKind::Z3, None, None, Some(empty.as_os_str()))
            .expect_err("z3 is not in a missing directory");
        let msg = message(err);
        assert!(msg.contains("pip install z3-solver"), "{msg}");
        assert!(msg.contains("apt-get install z3"), "{msg}");
        assert!(msg.contains("WARPSAFE_Z3"), "{msg}");

        let err = locate_in(SolverKind::Cvc5, None, None, None).expect_err("no PATH");
        let msg = message(err);
        assert!(msg.contains("apt-get install cvc5"), "{msg}");
        assert!(msg.contains("Python API"), "{msg}");
    }

    #[test]
    fn env_var_path_must_exist() {
        let err = locate_in(
            SolverKind::Z3,
            None,
            Some(OsStr::new("/nonexistent/z3")),
            None,
        )
        .expect_err("nonexistent path");
        let msg = message(err);
        assert!(msg.contains("$WARPSAFE_Z3 is `/nonexistent/z3`"), "{msg}");
    }

    #[cfg(unix)]
    #[test]
    fn finds_on_path_and_prefers_explicit() {
        // `sh` is on every unix PATH; look it up as if it were the solver.
        let path = std::env::var_os("PATH");
        let found = locate_in(
            SolverKind::Z3,
            None,
            Some(OsStr::new("sh")),
            path.as_deref(),
        )
        .expect("sh is on PATH");
        assert!(found.ends_with("sh"));
        let explicit = locate_in(
            SolverKind::Z3,
            Some(Path::new("/bin/sh")),
            Some(OsStr::new("/nonexistent/z3")),
            None,
        )
        .expect("explicit program wins");
        assert_eq!(explicit, Path::new("/bin/sh"));
    }
}

#[cfg(test)]
mod shim_tests {
    use super::through_shim;
    use std::path::Path;

    #[test]
    fn paths_outside_pyenv_shims_are_kept() {
        assert_eq!(
            through_shim(Path::new("/usr/bin/z3")),
            Path::new("/usr/bin/z3")
        );
        assert_eq!(
            through_shim(Path::new("/opt/shims/z3")),
            Path::new("/opt/shims/z3")
        );
    }
}
