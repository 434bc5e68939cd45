//! `warpsafe explore --repair FILE`: repairs races by rewriting the source
//! (seed 000 §4.1 CHECKANDREPAIRRACE, §5.3 and Table 4).
//!
//! Each round explores the current text (DPOR, as `explore`) until the
//! first execution with races, turns every race of it into fixes, and
//! applies them with `warpsafe-repair`:
//!
//! - a **heterogeneous race** widens both atomics to the narrowest scope
//!   that includes both threads (block within one block, else device);
//! - a **data race** makes each plain access atomic at that scope
//!   (`atomicExch` for a write, `atomicAdd` of zero for a read), and
//!   widens an atomic side that is narrower.
//!
//! Rounds go on until an exploration finds no race, no fix applies, or
//! `--repair-rounds` is reached. The report gives, per round, the races
//! (#Race) and the lines changed (#Fix); then the repaired source as a
//! unified diff of the original, and a full exploration of it. An access
//! outside the kernel's own text (an inlined `__device__` helper, an
//! included file) or whose text is not an access expression (a macro) is
//! left as it is, with the reason.
//!
//! Exit status: 0 when the original had no race, 1 when it had races
//! (repaired or not), 2 when a program could not be explored.

use crate::exit;
use crate::explore::{ExploreArgs, Inputs};
use crate::input::{load_text, Loaded};
use anyhow::{Context, Result};
use std::collections::BTreeSet;
use std::path::Path;
use warpsafe_ir::{Kernel, Scope};
use warpsafe_mc::races::RaceKind;
use warpsafe_mc::reference::{Config, Execution};
use warpsafe_mc::{Flow, ThreadId};
use warpsafe_repair::{Action, Fix};
use warpsafe_source::{FileId, Span};

/// One side of a race, with what a fix needs.
struct Side {
    thread: ThreadId,
    span: Span,
    write: bool,
    atomic: bool,
    scope: Option<Scope>,
    ty: Option<warpsafe_ir::ScalarTy>,
}

struct FoundRace {
    kernel: String,
    what: String,
    sides: [Side; 2],
}

pub fn run(args: &ExploreArgs, inputs: &Inputs) -> Result<u8> {
    let path = args.file.as_path();
    let original = std::fs::read(path)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .with_context(|| format!("cannot read `{}`", path.display()))?;
    let flags = crate::explore::inputs::front_end_flags(inputs, &args.input);
    let config = args.config(args.max_executions);
    println!("engine: DPOR under scoped RC11, repairing races");
    let mut text = original.clone();
    let mut total_races = 0;
    let mut total_lines = 0;
    let mut rounds = 0;
    for round in 1..=args.repair_rounds {
        let loaded = load_text(path, text.clone(), &flags)?;
        let Some(main) = usable(&loaded, path) else {
            return Ok(exit::UNUSABLE);
        };
        inputs.validate(&loaded.output.module.kernels)?;
        let found = match first_racy_execution(&loaded, inputs, &config) {
            Ok(f) => f,
            Err(e) => {
                println!("round {round}: UNKNOWN: {e:#}");
                return Ok(exit::UNUSABLE);
            }
        };
        if found.is_empty() {
            println!("round {round}: no race");
            break;
        }
        rounds = round;
        total_races += found.len();
        let mut fixes = Vec::new();
        let mut left = Vec::new();
        for r in &found {
            let kernel = kernel_of(&loaded, r);
            fixes_for(r, main, kernel, &mut fixes, &mut left);
        }
        let repaired = warpsafe_repair::repair(&text, &fixes);
        let lines = changed_lines(&text, &repaired.text);
        total_lines += lines;
        println!(
            "round {round}: {} race(s), {lines} line(s) changed",
            found.len()
        );
        for r in &found {
            println!("  {}", r.what);
        }
        let src = &loaded.sources;
        for f in &repaired.applied {
            println!("  fixed: {}", describe_fix(src, main, f));
        }
        for s in &repaired.skipped {
            println!(
                "  left: {} (would be: {}; {})",
                src.describe(Span::new(main, s.fix.lo, s.fix.hi)),
                describe_action(&s.fix.action),
                s.reason
            );
        }
        left.dedup();
        for (span, why) in &left {
            println!("  left: {} ({why})", src.describe(*span));
        }
        if repaired.applied.is_empty() {
            println!("  no fix applies: repair stops");
            break;
        }
        text = repaired.text;
        if round == args.repair_rounds {
            println!("repair stops after {round} round(s) (--repair-rounds)");
        }
    }
    if total_races == 0 {
        println!("no race: nothing to repair");
        return Ok(exit::OK);
    }
    let name = diff_path(path);
    let diff = similar::TextDiff::from_lines(&original, &text);
    print!(
        "{}",
        diff.unified_diff()
            .context_radius(2)
            .header(&format!("a/{name}"), &format!("b/{name}"))
    );
    println!("repair: {total_races} race(s) in {rounds} round(s), {total_lines} line(s) changed");
    let loaded = load_text(path, text, &flags)?;
    if usable(&loaded, path).is_none() {
        return Ok(exit::UNUSABLE);
    }
    for k in &loaded.output.module.kernels {
        let launch = inputs.launch(k)?;
        let x = match warpsafe_mc::dpor::explore(k, &launch, &config) {
            Err(e) => {
                println!("repaired kernel {}: UNKNOWN: {e}", k.name);
                continue;
            }
            Ok(x) => x,
        };
        let mut kinds: Vec<&str> = Vec::new();
        for f in x.executions.iter().flat_map(warpsafe_mc::findings) {
            let name = f.kind().name();
            if !kinds.contains(&name) {
                kinds.push(name);
            }
        }
        let verdict = if !kinds.is_empty() {
            format!("still {}", kinds.join(", "))
        } else if x.bounded() > 0 {
            format!("no error within loop bound {}", args.loop_bound)
        } else {
            "no error in any execution".into()
        };
        println!(
            "repaired kernel {}: {} execution(s), {verdict}",
            k.name,
            x.complete().count()
        );
    }
    Ok(exit::FOUND)
}

/// The main file's id when the front end lowered a kernel without errors
/// (diagnostics are printed).
fn usable(loaded: &Loaded, path: &Path) -> Option<FileId> {
    if !crate::input::report_usable(loaded) {
        return None;
    }
    loaded.sources.find(&path.display().to_string())
}

/// The races of the first execution (of the first kernel) that has any.
fn first_racy_execution(
    loaded: &Loaded,
    inputs: &Inputs,
    config: &Config,
) -> Result<Vec<FoundRace>> {
    for k in &loaded.output.module.kernels {
        let launch = inputs.launch(k)?;
        let mut found = Vec::new();
        let mut observer = |exec: Execution| {
            if exec.races.is_empty() {
                return Flow::Continue;
            }
            found = races_of(k, &exec, &loaded.sources);
            Flow::Stop
        };
        warpsafe_mc::dpor::explore_with(k, &launch, config, &mut observer)
            .map_err(|e| anyhow::anyhow!("kernel {}: {e}", k.name))?;
        if !found.is_empty() {
            return Ok(found);
        }
    }
    Ok(Vec::new())
}

/// The races of `exec`, one per pair of source locations and kind.
fn races_of(k: &Kernel, exec: &Execution, src: &warpsafe_source::SourceMap) -> Vec<FoundRace> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for r in &exec.races {
        let key = (r.kind == RaceKind::Data, r.first.span, r.second.span);
        if !seen.insert(key) {
            continue;
        }
        let side = |a: &warpsafe_mc::races::RaceAccess| {
            let e = exec.graph.event(a.event);
            Side {
                thread: a.thread,
                span: a.span,
                write: a.is_write,
                atomic: a.is_atomic,
                scope: e.scope,
                ty: e.read_value.or(e.written_value).map(|v| v.ty()),
            }
        };
        let kind = match r.kind {
            RaceKind::Data => "data race",
            RaceKind::Heterogeneous => "heterogeneous race",
        };
        let what = format!(
            "{kind} on `{}[{}]` in {}: {} at {} and {} at {}",
            k.array(r.loc.array).name,
            r.loc.index,
            k.name,
            r.first.thread,
            src.describe(r.first.span),
            r.second.thread,
            src.describe(r.second.span)
        );
        out.push(FoundRace {
            kernel: k.name.clone(),
            what,
            sides: [side(&r.first), side(&r.second)],
        });
    }
    out
}

fn kernel_of<'a>(loaded: &'a Loaded, r: &FoundRace) -> Option<&'a Kernel> {
    loaded
        .output
        .module
        .kernels
        .iter()
        .find(|k| k.name == r.kernel)
}

/// The fixes of race `r` (accesses that cannot be edited go to `left`).
fn fixes_for(
    r: &FoundRace,
    main: FileId,
    kernel: Option<&Kernel>,
    fixes: &mut Vec<Fix>,
    left: &mut Vec<(Span, String)>,
) {
    let [a, b] = &r.sides;
    let target = if a.thread.block == b.thread.block {
        Scope::Block
    } else {
        Scope::Device
    };
    for s in [a, b] {
        let action = if !s.atomic {
            let Some(ty) = s.ty else {
                left.push((s.span, "the access's type is unknown".into()));
                continue;
            };
            if s.write {
                Action::AtomicStore { ty, scope: target }
            } else {
                Action::AtomicLoad { ty, scope: target }
            }
        } else if s
            .scope
            .is_some_and(|sc| sc < target || sc == Scope::Cluster)
        {
            Action::Widen { scope: target }
        } else {
            // Already wide enough (the other side is the narrow one).
            continue;
        };
        if s.span.file != main {
            left.push((s.span, "in an included file; not rewritten".into()));
            continue;
        }
        let inside = kernel.is_some_and(|k| s.span.lo >= k.span.lo && s.span.hi <= k.span.hi);
        if !inside {
            left.push((
                s.span,
                "inside an inlined __device__ helper, not the kernel's own text; not rewritten"
                    .into(),
            ));
            continue;
        }
        fixes.push(Fix {
            lo: s.span.lo,
            hi: s.span.hi,
            action,
        });
    }
}

fn describe_fix(src: &warpsafe_source::SourceMap, main: FileId, f: &Fix) -> String {
    let at = src.describe(Span::new(main, f.lo, f.hi));
    format!("{at}: {}", describe_action(&f.action))
}

fn describe_action(a: &Action) -> String {
    let scope = |s: Scope| format!("{s:?}").to_lowercase();
    match *a {
        Action::AtomicLoad { scope: s, .. } => {
            format!(
                "plain read made atomic (atomicAdd of zero), {} scope",
                scope(s)
            )
        }
        Action::AtomicStore { scope: s, .. } => {
            format!("plain write made atomic (atomicExch), {} scope", scope(s))
        }
        Action::Widen { scope: s } => format!("scope widened to {}", scope(s)),
    }
}

/// Lines of the new text that differ from the old.
fn changed_lines(old: &str, new: &str) -> usize {
    similar::TextDiff::from_lines(old, new)
        .iter_all_changes()
        .filter(|c| c.tag() == similar::ChangeTag::Insert)
        .count()
}

/// The path a diff names: relative to the working directory, so that `git
/// apply` (which strips `a/` and `b/` and refuses absolute paths) and
/// `patch -p1` take the diff from where warpsafe ran. A file outside the
/// working directory keeps its path as given.
fn diff_path(path: &std::path::Path) -> String {
    let relative = std::env::current_dir().ok().and_then(|cwd| {
        let abs = if path.is_absolute() {
            path.to_path_buf()
        } else {
            cwd.join(path)
        };
        let abs = abs.canonicalize().ok()?;
        let cwd = cwd.canonicalize().ok()?;
        abs.strip_prefix(&cwd).ok().map(|p| p.display().to_string())
    });
    relative.unwrap_or_else(|| path.display().to_string())
}
