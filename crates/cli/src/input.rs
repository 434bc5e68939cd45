//! Input flags shared by every command that reads a kernel (`-D`, `-I`,
//! `--blockDim`, ...), in warpsafe's and GPUVerify's spellings, and loading
//! a file through the front end.

use anyhow::{Context, Result};
use clap::Args;
use std::path::{Path, PathBuf};
use warpsafe_corpus::{parse_dims, KernelFlags};
use warpsafe_frontend::{Options, Output, PreprocOptions, SourceLoader};
use warpsafe_ir::VolatileReading;
use warpsafe_source::{SourceFile, SourceMap};

#[derive(Args, Clone, Debug, Default)]
pub struct InputArgs {
    /// Threads per block: `64`, `16,16` or `[16,16]` (GPUVerify: --blockDim).
    #[arg(long = "block-dim", alias = "blockDim", value_name = "DIMS", value_parser = dims)]
    pub block_dim: Option<[u64; 3]>,
    /// Blocks per grid: `4`, `2,2` or `[2,2]` (GPUVerify: --gridDim).
    #[arg(long = "grid-dim", alias = "gridDim", value_name = "DIMS", value_parser = dims)]
    pub grid_dim: Option<[u64; 3]>,
    /// Define a macro, as nvcc: -D NAME or -D NAME=VALUE.
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
    /// Undefine a macro.
    #[arg(short = 'U', value_name = "NAME")]
    pub undefine: Vec<String>,
    /// Add a folder to the `#include "..."` search path.
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// Only this kernel (repeatable: these kernels).
    #[arg(long, value_name = "NAME")]
    pub kernel: Vec<String>,
    /// Template arguments for a template kernel, comma separated: `float,256`.
    #[arg(long = "template-args", value_name = "ARGS", value_delimiter = ',')]
    pub template_args: Option<Vec<String>>,
    /// How volatile accesses are read: `plain` accesses that race like any
    /// other (the default, as GPUVerify and Faial read them), or `atomic`,
    /// relaxed system-scope atomics (PTX's reading). Both engines use it.
    #[arg(long, value_enum, value_name = "READING")]
    pub volatile: Option<VolatileArg>,
}

/// `--volatile`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum VolatileArg {
    Plain,
    Atomic,
}

impl From<VolatileArg> for VolatileReading {
    fn from(v: VolatileArg) -> VolatileReading {
        match v {
            VolatileArg::Plain => VolatileReading::Plain,
            VolatileArg::Atomic => VolatileReading::Atomic,
        }
    }
}

fn dims(s: &str) -> Result<[u64; 3], String> {
    parse_dims(s).map_err(|e| e.to_string())
}

impl InputArgs {
    /// The same settings as a [`KernelFlags`], the form corpus headers use.
    pub fn to_flags(&self) -> KernelFlags {
        KernelFlags {
            block_dim: self.block_dim,
            grid_dim: self.grid_dim,
            defines: self.define.iter().map(|d| define(d)).collect(),
            undefines: self.undefine.clone(),
            include_dirs: self
                .include
                .iter()
                .map(|p| p.display().to_string())
                .collect(),
            kernels: self.kernel.clone(),
            template_args: self.template_args.clone(),
            volatile: self.volatile.map(VolatileReading::from),
            ..KernelFlags::default()
        }
    }
}

/// `NAME=VALUE` or `NAME`, as `-D` takes it.
pub fn define(d: &str) -> (String, Option<String>) {
    match d.split_once('=') {
        Some((n, v)) => (n.to_string(), Some(v.to_string())),
        None => (d.to_string(), None),
    }
}

/// Replaces the block (`grid` false) or grid dimensions of `launch` with
/// `dims`, and what its notes said of them with `note`.
pub fn set_dims(launch: &mut warpsafe_ir::LaunchConfig, grid: bool, dims: [u64; 3], note: String) {
    let prefix = if grid { "gridDim" } else { "blockDim" };
    if grid {
        launch.grid = Some(dims);
    } else {
        launch.block = Some(dims);
    }
    // What the host code's launches say no longer describes this launch.
    launch.relation = None;
    launch
        .notes
        .retain(|(n, _)| !n.starts_with(prefix) && !n.starts_with(warpsafe_ir::RELATION_NOTE));
    launch.notes.push((note, None));
}

/// Stack size of the front-end thread.
const FRONTEND_STACK: usize = 64 << 20;

/// The largest source or included file read (16 MiB; CUDA's own headers
/// are well under 1 MiB). A larger file, or one that is not a regular file
/// (`/dev/zero`, a pipe), is refused with a message naming the limit.
pub const MAX_SOURCE_BYTES: u64 = 16 << 20;

/// Why `path` must not be read as a file of at most `limit` bytes, if it
/// must not.
fn refusal(path: &Path, limit: u64) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() {
        return Some("not a regular file (a device, a pipe or a directory)".into());
    }
    (meta.len() > limit).then(|| {
        format!(
            "{} bytes, over the limit of {} MiB",
            meta.len(),
            limit >> 20
        )
    })
}

/// At most `limit` bytes (and one more, to tell) of `path`.
fn read_bounded(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(limit + 1)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The bytes of `path`, a regular file of at most `limit` bytes read as
/// `what` ("the source file", "the input file"); otherwise an error that
/// names the reason or the limit.
pub fn read_limited(path: &Path, limit: u64, what: &str) -> Result<Vec<u8>> {
    let shown = path.display();
    if let Some(why) = refusal(path, limit) {
        anyhow::bail!("cannot read {what} `{shown}`: {why}");
    }
    let bytes =
        read_bounded(path, limit).with_context(|| format!("cannot read {what} `{shown}`"))?;
    if bytes.len() as u64 > limit {
        anyhow::bail!(
            "cannot read {what} `{shown}`: over the limit of {} MiB",
            limit >> 20
        );
    }
    Ok(bytes)
}

/// Reads `#include`d files from the file system.
pub struct FsLoader;

impl SourceLoader for FsLoader {
    fn load(&self, path: &Path) -> Option<String> {
        let bytes = read_bounded(path, MAX_SOURCE_BYTES).ok()?;
        // A file that grew past the limit since `refuse` looked is cut.
        Some(String::from_utf8_lossy(&bytes).into_owned())
    }

    fn refuse(&self, path: &Path) -> Option<String> {
        refusal(path, MAX_SOURCE_BYTES)
    }
}

/// A front-end run over one file.
pub struct Loaded {
    pub sources: SourceMap,
    pub output: Output,
}

/// Prints `loaded`'s diagnostics on stderr; whether it has kernels and no
/// error, so that an engine can run (otherwise the input is unusable).
pub fn report_usable(loaded: &Loaded) -> bool {
    let out = &loaded.output;
    if !out.diagnostics.is_empty() {
        eprint!(
            "{}",
            warpsafe_report::render_diagnostics(&loaded.sources, &out.diagnostics)
        );
    }
    !out.has_errors() && !out.module.kernels.is_empty()
}

/// The most other source files a directory may hold for them to be read
/// as one program with the file (a directory of many is a collection of
/// programs, such as a test suite's).
const MAX_COMPANIONS: usize = 16;

/// The other source files of `path`'s directory (`.cu`, `.cpp`, `.cc`,
/// `.cxx`, `.c`), sorted, when there are at most [`MAX_COMPANIONS`]: the
/// rest of its program, whose calls of the file's functions the launch
/// relations read. None when the directory cannot be listed.
fn companions(path: &Path) -> Vec<PathBuf> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let own = path.file_name();
    let mut out = Vec::new();
    for e in entries.flatten() {
        let p = e.path();
        let source = p
            .extension()
            .and_then(|x| x.to_str())
            .is_some_and(|x| matches!(x, "cu" | "cpp" | "cc" | "cxx" | "c"));
        if source && p.file_name() != own && e.file_type().is_ok_and(|t| t.is_file()) {
            out.push(p);
            if out.len() > MAX_COMPANIONS {
                return Vec::new();
            }
        }
    }
    out.sort();
    out
}

/// Reads `path` and runs the front end with `flags`; dimensions from flags
/// override those of launches found in the file.
pub fn load(path: &Path, flags: &KernelFlags) -> Result<Loaded> {
    let bytes = read_limited(path, MAX_SOURCE_BYTES, "the source file")?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    load_text(path, text, flags)
}

/// Runs the front end on `text` as the contents of `path` (includes are
/// found relative to it), with `flags` as [`load`] does.
pub fn load_text(path: &Path, text: String, flags: &KernelFlags) -> Result<Loaded> {
    let mut sources = SourceMap::new();
    let main = sources.add(SourceFile::new(path.display().to_string(), text, false));
    let opts = Options {
        preproc: PreprocOptions {
            include_dirs: flags.include_dirs.iter().map(PathBuf::from).collect(),
            defines: flags.defines.clone(),
            undefines: flags.undefines.clone(),
        },
        kernels: flags.kernels.clone(),
        template_args: flags.template_args.clone(),
        companions: companions(path),
    };
    // The front end limits nesting depth; a large stack gives its recursive
    // lowering a wide margin on every platform.
    let mut output = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("frontend".into())
            .stack_size(FRONTEND_STACK)
            .spawn_scoped(scope, || {
                warpsafe_frontend::compile(main, &mut sources, &opts, &FsLoader)
            })
            .map(|h| h.join())
    })
    .context("cannot start the front-end thread")?
    .map_err(|_| {
        anyhow::anyhow!(
            "the front end crashed on `{}` (please report this)",
            path.display()
        )
    })?;
    let reading = flags.volatile.unwrap_or_default();
    for k in &mut output.module.kernels {
        // Every engine sees one reading of `volatile`.
        k.read_volatile_as(reading);
        // Dimensions given as flags replace those of the file and what was
        // inferred about them.
        if let Some(b) = flags.block_dim {
            set_dims(&mut k.launch, false, b, "blockDim from --block-dim".into());
        }
        if let Some(g) = flags.grid_dim {
            set_dims(&mut k.launch, true, g, "gridDim from --grid-dim".into());
        }
    }
    Ok(Loaded { sources, output })
}
