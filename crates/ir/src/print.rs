//! The readable text form of the IR (`warpsafe ir FILE`).
//!
//! Every statement line ends with the source position it came from, so a
//! reader can match IR to code. The format is for people and snapshot tests,
//! not for parsing back.

use crate::{
    AccessKind, Array, BarrierKind, Block, Const, Expr, Kernel, LoopCheck, MemRef, ParamKind,
    StmtKind, UnOp, VarId,
};
use std::fmt::Write;
use warpsafe_source::{SourceMap, Span};

/// Prints a kernel. `sources` turns spans into `file:line:col`.
pub fn print_kernel(kernel: &Kernel, sources: &SourceMap) -> String {
    let mut p = Printer {
        kernel,
        sources,
        out: String::new(),
        main_file: kernel.span.file,
    };
    p.kernel();
    p.out
}

/// An expression of `kernel` as the IR text writes it.
pub fn print_expr(kernel: &Kernel, e: &Expr) -> String {
    let sources = SourceMap::default();
    let p = Printer {
        kernel,
        sources: &sources,
        out: String::new(),
        main_file: kernel.span.file,
    };
    p.expr(e)
}

struct Printer<'a> {
    kernel: &'a Kernel,
    sources: &'a SourceMap,
    out: String,
    main_file: warpsafe_source::FileId,
}

impl Printer<'_> {
    fn pos(&self, span: Span) -> String {
        match self.sources.get(span.file) {
            Some(f) => {
                let loc = f.location(span.lo);
                if span.file == self.main_file {
                    format!("{}:{}", loc.line, loc.col)
                } else {
                    format!("{}:{}:{}", f.name, loc.line, loc.col)
                }
            }
            None => "?".to_string(),
        }
    }

    fn line(&mut self, depth: usize, text: &str, span: Span) {
        let indent = "  ".repeat(depth);
        let body = format!("{indent}{text}");
        let pos = self.pos(span);
        let _ = writeln!(self.out, "{body:<60} // {pos}");
    }

    fn kernel(&mut self) {
        let k = self.kernel;
        // An instantiation's name already carries its arguments (`k<32>`).
        let targs = if k.template_args.is_empty() || k.name.ends_with('>') {
            String::new()
        } else {
            format!("<{}>", k.template_args.join(", "))
        };
        let params: Vec<String> = k
            .params
            .iter()
            .map(|p| match &p.kind {
                ParamKind::Scalar(v) => format!("{}: {}", self.var(*v), k.var(*v).ty),
                ParamKind::Array(a) => format!("{}: {}", p.name, self.array_type(k.array(*a))),
                ParamKind::Unmodelled(_) => format!("{}: unused {}", p.name, p.c_type),
                ParamKind::Aggregate(vs) => {
                    let fields: Vec<String> = vs.iter().map(|v| self.var(*v)).collect();
                    format!("{}: {} {{{}}}", p.name, p.c_type, fields.join(", "))
                }
            })
            .collect();
        self.line(
            0,
            &format!("kernel {}{}({})", k.name, targs, params.join(", ")),
            k.span,
        );
        if let Some(r) = k.volatile_read_as {
            self.line(
                0,
                &format!("  volatile accesses read as {} (--volatile)", r.name()),
                k.span,
            );
        }
        let l = &k.launch;
        if l.grid.is_some() || l.block.is_some() {
            let dims = |d: Option<[u64; 3]>| match d {
                Some(d) => format!("({}, {}, {})", d[0], d[1], d[2]),
                None => "symbolic".to_string(),
            };
            let mut text = format!("  launch grid={} block={}", dims(l.grid), dims(l.block));
            if let Some(b) = l.dynamic_shared {
                let _ = write!(text, " dynamic_shared={b}");
            }
            match l.span {
                Some(s) => self.line(0, &text, s),
                None => {
                    let _ = writeln!(self.out, "{text}");
                }
            }
        }
        if let Some(r) = &l.relation {
            let text = format!("  launch relation {}", self.expr(r));
            match l.span {
                Some(s) => self.line(0, &text, s),
                None => self.plain(0, &text),
            }
        }
        for a in &k.arrays {
            if a.origin == crate::ArrayOrigin::Param {
                continue;
            }
            let mut text = format!("  {} {}: {}", a.origin_name(), a.name, self.array_type(a));
            if a.atomic_object {
                text.push_str(" atomic");
            }
            if let Some(init) = &a.init {
                let vals: Vec<String> = init.iter().take(8).map(const_text).collect();
                let more = if init.len() > 8 { ", ..." } else { "" };
                let _ = write!(text, " = {{{}{}}}", vals.join(", "), more);
            }
            self.line(0, &text, a.span);
        }
        let _ = writeln!(self.out, "{{");
        self.block(&k.body, 1);
        let _ = writeln!(self.out, "}}");
    }

    fn array_type(&self, a: &Array) -> String {
        let dims: String = if a.dims.is_empty() {
            "[]".to_string()
        } else {
            a.dims.iter().map(|d| format!("[{d}]")).collect()
        };
        let slots = if a.slots.len() == 1 {
            a.slots[0].to_string()
        } else {
            let s: Vec<&str> = a.slots.iter().map(|t| t.name()).collect();
            format!("{}{{{}}}", a.elem, s.join(","))
        };
        format!("{} {}{}", a.space.name(), slots, dims)
    }

    fn var(&self, v: VarId) -> String {
        self.kernel
            .vars
            .get(v.0 as usize)
            .map(|var| var.name.clone())
            .unwrap_or_else(|| format!("?v{}", v.0))
    }

    fn mem(&self, m: &MemRef) -> String {
        let name = self
            .kernel
            .arrays
            .get(m.array.0 as usize)
            .map(|a| a.name.clone())
            .unwrap_or_else(|| format!("?a{}", m.array.0));
        format!("{}[{}]", name, self.expr(&m.index))
    }

    fn access(&self, a: &AccessKind) -> String {
        match a {
            AccessKind::Plain => String::new(),
            AccessKind::Volatile => ".volatile".to_string(),
            AccessKind::Atomic { order, scope } => {
                format!(".atomic.{}.{}", order.name(), scope.name())
            }
        }
    }

    fn space(&self, m: &MemRef) -> &'static str {
        self.kernel
            .arrays
            .get(m.array.0 as usize)
            .map(|a| a.space.name())
            .unwrap_or("?")
    }

    fn block(&mut self, block: &Block, depth: usize) {
        for stmt in block {
            let span = stmt.span;
            match &stmt.kind {
                StmtKind::Assign { dst, value } => {
                    let t = format!("{} = {}", self.var(*dst), self.expr(value));
                    self.line(depth, &t, span)
                }
                StmtKind::Havoc { dst, reason } => {
                    let t = format!("{} = havoc  ; {}", self.var(*dst), reason);
                    self.line(depth, &t, span)
                }
                StmtKind::Load { dst, mem, access } => {
                    let t = format!(
                        "{} = load.{}{} {}: {}",
                        self.var(*dst),
                        self.space(mem),
                        self.access(access),
                        self.mem(mem),
                        mem.ty
                    );
                    self.line(depth, &t, span)
                }
                StmtKind::Store { mem, value, access } => {
                    let t = format!(
                        "store.{}{} {}: {} = {}",
                        self.space(mem),
                        self.access(access),
                        self.mem(mem),
                        mem.ty,
                        self.expr(value)
                    );
                    self.line(depth, &t, span)
                }
                StmtKind::Rmw {
                    dst,
                    op,
                    mem,
                    operand,
                    order,
                    scope,
                } => {
                    let lhs = dst
                        .map(|d| format!("{} = ", self.var(d)))
                        .unwrap_or_default();
                    let t = format!(
                        "{}atomic.{}.{}.{}.{} {}: {}, {}",
                        lhs,
                        op.name(),
                        self.space(mem),
                        order.name(),
                        scope.name(),
                        self.mem(mem),
                        mem.ty,
                        self.expr(operand)
                    );
                    self.line(depth, &t, span)
                }
                StmtKind::Cas {
                    dst,
                    mem,
                    expected,
                    desired,
                    order,
                    failure_order,
                    scope,
                } => {
                    let lhs = dst
                        .map(|d| format!("{} = ", self.var(d)))
                        .unwrap_or_default();
                    let t = format!(
                        "{}atomic.cas.{}.{}/{}.{} {}: {}, {}, {}",
                        lhs,
                        self.space(mem),
                        order.name(),
                        failure_order.name(),
                        scope.name(),
                        self.mem(mem),
                        mem.ty,
                        self.expr(expected),
                        self.expr(desired)
                    );
                    self.line(depth, &t, span)
                }
                StmtKind::Barrier { kind, reduce } => {
                    let mut t = match kind {
                        BarrierKind::Block => "barrier.block".to_string(),
                        BarrierKind::Warp { mask } => {
                            format!("barrier.warp mask={}", self.expr(mask))
                        }
                        BarrierKind::Tile { size } => format!("barrier.tile size={size}"),
                        BarrierKind::Grid => "barrier.grid".to_string(),
                    };
                    if let Some((op, pred, dst)) = reduce {
                        t = format!("{} = {}.{:?}({})", self.var(*dst), t, op, self.expr(pred))
                            .replace("Count", "count")
                            .replace("And", "and")
                            .replace("Or", "or");
                    }
                    self.line(depth, &t, span)
                }
                StmtKind::Fence { order, scope } => {
                    let t = format!("fence.{}.{}", order.name(), scope.name());
                    self.line(depth, &t, span)
                }
                StmtKind::Assert { cond, message } => {
                    let t = format!("assert {}  ; {:?}", self.expr(cond), message);
                    self.line(depth, &t, span)
                }
                StmtKind::Assume { cond, origin } => {
                    let t = format!("assume {}  ; {:?}", self.expr(cond), origin);
                    self.line(depth, &t, span)
                }
                StmtKind::Print { format, args } => {
                    let args: Vec<String> = args.iter().map(|a| self.expr(a)).collect();
                    let t = format!("printf {:?}({})", format, args.join(", "));
                    self.line(depth, &t, span)
                }
                StmtKind::If { cond, then_, else_ } => {
                    let t = format!("if {} {{", self.expr(cond));
                    self.line(depth, &t, span);
                    self.block(then_, depth + 1);
                    if !else_.is_empty() {
                        self.plain(depth, "} else {");
                        self.block(else_, depth + 1);
                    }
                    self.plain(depth, "}");
                }
                StmtKind::Loop {
                    id,
                    kind,
                    header,
                    cond,
                    check,
                    body,
                    step,
                } => {
                    let kind = format!("{kind:?}").to_lowercase();
                    let t = format!("loop L{} ({}) {{", id.0, kind);
                    self.line(depth, &t, span);
                    let test = format!(
                        "if {} break L{}",
                        self.expr(&Expr::negate(cond.clone())),
                        id.0
                    );
                    let trivial = matches!(cond, Expr::Const(Const::Bool(true), _));
                    if *check == LoopCheck::Before {
                        self.block(header, depth + 1);
                        if !trivial {
                            self.plain(depth + 1, &test);
                        }
                    }
                    self.block(body, depth + 1);
                    if !step.is_empty() {
                        self.plain(depth + 1, &format!("continue L{}:", id.0));
                        self.block(step, depth + 1);
                    }
                    if *check == LoopCheck::After {
                        self.block(header, depth + 1);
                        if !trivial {
                            self.plain(depth + 1, &test);
                        }
                    }
                    self.plain(depth, "}");
                }
                StmtKind::Break(l) => self.line(depth, &format!("break L{}", l.0), span),
                StmtKind::Continue(l) => self.line(depth, &format!("continue L{}", l.0), span),
                StmtKind::Return => self.line(depth, "return", span),
            }
        }
    }

    fn plain(&mut self, depth: usize, text: &str) {
        let _ = writeln!(self.out, "{}{}", "  ".repeat(depth), text);
    }

    fn expr(&self, e: &Expr) -> String {
        self.expr_prec(e, 0)
    }

    fn expr_prec(&self, e: &Expr, outer: u8) -> String {
        match e {
            Expr::Const(c, ty) => match c {
                Const::Int(v) if ty.is_signed() || *v < 0 => format!("{v}"),
                Const::Int(v) => format!("{v}u"),
                c => const_text(c),
            },
            Expr::Var(v) => self.var(*v),
            Expr::Builtin(b) => b.name(),
            Expr::Unary(op, _, inner) => {
                let sym = match op {
                    UnOp::Neg => "-",
                    UnOp::Not => "!",
                    UnOp::BitNot => "~",
                };
                format!("{}{}", sym, self.expr_prec(inner, 11))
            }
            Expr::Binary(op, _, a, b) => {
                let p = op.precedence();
                let text = format!(
                    "{} {} {}",
                    self.expr_prec(a, p),
                    op.symbol(),
                    self.expr_prec(b, p + 1)
                );
                if p < outer {
                    format!("({text})")
                } else {
                    text
                }
            }
            Expr::Select(c, a, b) => {
                let text = format!(
                    "{} ? {} : {}",
                    self.expr_prec(c, 1),
                    self.expr_prec(a, 1),
                    self.expr_prec(b, 1)
                );
                if outer > 0 {
                    format!("({text})")
                } else {
                    text
                }
            }
            Expr::Cast(ty, inner) => format!("({}){}", ty, self.expr_prec(inner, 11)),
            Expr::Call(name, _, args) => {
                let args: Vec<String> = args.iter().map(|a| self.expr(a)).collect();
                format!("{}({})", name, args.join(", "))
            }
        }
    }
}

fn const_text(c: &Const) -> String {
    match c {
        Const::Bool(b) => b.to_string(),
        Const::Int(v) => v.to_string(),
        Const::Float(f) => {
            if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e15 {
                format!("{f:.1}")
            } else {
                format!("{f}")
            }
        }
    }
}

impl Array {
    fn origin_name(&self) -> &'static str {
        match self.origin {
            crate::ArrayOrigin::Param => "param",
            crate::ArrayOrigin::Shared => "shared",
            crate::ArrayOrigin::DynamicShared => "extern shared",
            crate::ArrayOrigin::DeviceGlobal => "device",
            crate::ArrayOrigin::Constant => "constant",
            crate::ArrayOrigin::Local => "local",
            crate::ArrayOrigin::Pointee => "pointee",
        }
    }
}
