//! The readable text form of protocols, in the notation of seed 002
//! (`for i in lo..hi { rd s[tid + i]; sync; wr s[tid] }`), one protocol per
//! array: what `--dump protocol` shows. For people and snapshot tests, not
//! for parsing back.
//!
//! Casts that cannot change a value are omitted; unknowns print as
//! `?what#id` (`?rd(a)#3` is a value loaded from `a`).

use crate::protocol::{Access, AccessMode, Condition, KernelProtocol, Proto, Step, SyncKind};
use crate::sym::{Sym, UnknownReason};
use std::fmt::Write;
use warpsafe_ir::{Kernel, UnOp};

/// Prints every array's protocol, preconditions and assertions.
pub fn print_protocol(kp: &KernelProtocol, kernel: &Kernel) -> String {
    let mut out = format!("kernel {}\n", kp.kernel);
    for c in &kp.preconditions {
        let _ = writeln!(out, "  requires {}", condition(c, kernel));
    }
    for c in &kp.asserts {
        let _ = writeln!(out, "  assert {}", condition(c, kernel));
    }
    for a in &kp.approximations {
        let _ = writeln!(out, "  // approximated: {}", a.what);
    }
    for a in &kp.arrays {
        let _ = writeln!(out, "array {} ({}) {{", a.name, a.space.name());
        block(&mut out, &a.proto, kernel, 1);
        let _ = writeln!(out, "}}");
    }
    out
}

/// Prints one protocol tree.
pub fn print_proto(p: &Proto, kernel: &Kernel) -> String {
    let mut out = String::new();
    block(&mut out, p, kernel, 0);
    out
}

/// Prints a symbolic expression.
pub fn print_sym(s: &Sym, kernel: &Kernel) -> String {
    expr(s, kernel, 0)
}

fn condition(c: &Condition, kernel: &Kernel) -> String {
    let cond = print_sym(&c.cond, kernel);
    if c.guard.is_true() {
        cond
    } else {
        format!("{} => {}", print_sym(&c.guard, kernel), cond)
    }
}

fn block(out: &mut String, p: &Proto, kernel: &Kernel, depth: usize) {
    match p {
        Proto::Skip => {}
        Proto::Seq(items) => items.iter().for_each(|p| block(out, p, kernel, depth)),
        p => node(out, p, kernel, depth),
    }
}

fn line(out: &mut String, depth: usize, text: &str) {
    let _ = writeln!(out, "{}{}", "  ".repeat(depth), text);
}

fn access(a: &Access, kernel: &Kernel) -> String {
    let mut text = String::new();
    if a.atomic {
        text.push_str("atomic ");
    } else if a.volatile {
        text.push_str("volatile ");
    }
    text.push_str(match a.mode {
        AccessMode::Read => "rd ",
        AccessMode::Write => "wr ",
    });
    let name = kernel
        .arrays
        .get(a.array.0 as usize)
        .map_or("?", |arr| arr.name.as_str());
    let _ = write!(text, "{}[{}];", name, print_sym(&a.index, kernel));
    text
}

fn node(out: &mut String, p: &Proto, kernel: &Kernel, depth: usize) {
    match p {
        Proto::Skip | Proto::Seq(_) => block(out, p, kernel, depth),
        Proto::Access(a) => line(out, depth, &access(a, kernel)),
        Proto::Sync { kind, .. } => {
            let text = match kind {
                SyncKind::Block => "sync;".to_string(),
                SyncKind::Warp { mask } => format!("syncwarp({});", print_sym(mask, kernel)),
                SyncKind::Tile { size } => format!("sync tile({size});"),
                SyncKind::Grid => "sync grid;".to_string(),
            };
            line(out, depth, &text);
        }
        Proto::If { cond, then_, else_ } => {
            line(out, depth, &format!("if {} {{", print_sym(cond, kernel)));
            block(out, then_, kernel, depth + 1);
            if !else_.is_skip() {
                line(out, depth, "} else {");
                block(out, else_, kernel, depth + 1);
            }
            line(out, depth, "}");
        }
        Proto::For(l) => {
            let name = var_name(kernel, l.var);
            let mut text = format!(
                "for {} in {}..{}",
                name,
                print_sym(&l.lo, kernel),
                print_sym(&l.hi, kernel)
            );
            if !(matches!(l.step, Step::Add(_)) && l.step.is_unit()) {
                let _ = write!(
                    text,
                    " step {}{}",
                    l.step.op().symbol(),
                    expr(l.step.amount(), kernel, 11)
                );
            }
            if !l.step.increasing() {
                text.push_str(" down");
            }
            if !l.bound_known {
                text.push_str(" (may exit early)");
            }
            text.push_str(" {");
            line(out, depth, &text);
            block(out, &l.body, kernel, depth + 1);
            line(out, depth, "}");
        }
        Proto::Loop { id, body, .. } => {
            line(out, depth, &format!("loop L{} {{", id.0));
            block(out, body, kernel, depth + 1);
            line(out, depth, "}");
        }
    }
}

fn var_name(kernel: &Kernel, v: warpsafe_ir::VarId) -> String {
    kernel
        .vars
        .get(v.0 as usize)
        .map_or_else(|| format!("v{}", v.0), |var| var.name.clone())
}

fn unknown_text(u: &crate::sym::Unknown, kernel: &Kernel) -> String {
    let array = |a: warpsafe_ir::ArrayId| {
        kernel
            .arrays
            .get(a.0 as usize)
            .map_or_else(|| format!("a{}", a.0), |arr| arr.name.clone())
    };
    let what = match &u.reason {
        UnknownReason::Load { array: a } => format!("rd({})", array(*a)),
        UnknownReason::Atomic { array: a } => format!("atomic({})", array(*a)),
        UnknownReason::Havoc(_) => "havoc".to_string(),
        UnknownReason::Call(name) => format!("{name}()"),
        UnknownReason::Float => "float".to_string(),
        UnknownReason::ModifiedInLoop { var } => var_name(kernel, *var),
        UnknownReason::AfterLoop { var } => format!("{}.after", var_name(kernel, *var)),
        UnknownReason::CounterMayWrap { var } => format!("{}.wrap", var_name(kernel, *var)),
        UnknownReason::BarrierReduce => "reduce".to_string(),
        UnknownReason::Uninitialised { var } => format!("uninit({})", var_name(kernel, *var)),
        UnknownReason::LoopExit => "exited".to_string(),
        UnknownReason::TooLarge { var } => format!("large({})", var_name(kernel, *var)),
    };
    format!("?{}#{}", what, u.id)
}

/// Prints `s` in a context of precedence `prec` (parenthesised if looser).
fn expr(s: &Sym, kernel: &Kernel, prec: u8) -> String {
    let (text, mine) = match s {
        Sym::Int(v, _) => (v.to_string(), 100),
        Sym::Bool(b) => (b.to_string(), 100),
        Sym::Builtin(b) => (b.name(), 100),
        Sym::Param { var, .. } | Sym::LoopVar { var, .. } => (var_name(kernel, *var), 100),
        Sym::Unknown(u) => (unknown_text(u, kernel), 100),
        Sym::Unary(op, _, e) => {
            let sym = match op {
                UnOp::Neg => "-",
                UnOp::Not => "!",
                UnOp::BitNot => "~",
            };
            (format!("{}{}", sym, expr(e, kernel, 11)), 11)
        }
        Sym::Binary(op, _, a, b) => {
            let p = op.precedence();
            (
                format!(
                    "{} {} {}",
                    expr(a, kernel, p),
                    op.symbol(),
                    expr(b, kernel, p + 1)
                ),
                p,
            )
        }
        Sym::Select(c, a, b) => (
            format!(
                "{} ? {} : {}",
                expr(c, kernel, 1),
                expr(a, kernel, 1),
                expr(b, kernel, 0)
            ),
            0,
        ),
        Sym::Min(_, a, b) => (
            format!("min({}, {})", print_sym(a, kernel), print_sym(b, kernel)),
            100,
        ),
        Sym::Max(_, a, b) => (
            format!("max({}, {})", print_sym(a, kernel), print_sym(b, kernel)),
            100,
        ),
        Sym::Intrinsic(i, args) => (
            format!(
                "{}({})",
                i.name(),
                args.iter()
                    .map(|a| print_sym(a, kernel))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            100,
        ),
        Sym::Cast(ty, e) => {
            if Sym::is_lossless_cast(*ty, e) {
                return expr(e, kernel, prec);
            }
            (format!("({}){}", ty, expr(e, kernel, 11)), 11)
        }
    };
    if mine < prec {
        format!("({text})")
    } else {
        text
    }
}
