//! CUDA text of a generated kernel: what the real front end reads, and
//! what a failure report shows to reproduce the case.

use super::ast::{Arr, Cond, Expr, Helper, Kernel, LoopShape, Stmt, Update};
use std::collections::BTreeSet;
use std::fmt::Write;

/// The whole `.cu` file: the struct, the helpers the body calls, the kernel.
pub fn file(k: &Kernel) -> String {
    let mut out = String::new();
    let n = k.len;
    if uses_tiles(&k.body) {
        out.push_str("#include <cooperative_groups.h>\n\n");
    }
    if k.pairs {
        out.push_str("struct Pair {\n  int a;\n  int b;\n};\n\n");
    }
    let mut helpers = BTreeSet::new();
    collect_helpers(&k.body, &mut helpers);
    for h in helpers {
        out.push_str(&match h {
            Helper::Put => format!(
                "__device__ void put(int *p, unsigned i, int v) {{\n  p[i % {n}u] = v;\n}}\n\n"
            ),
            Helper::Bump => format!(
                "__device__ void bump(int *p, unsigned i, int v) {{\n  atomicAdd(&p[i % {n}u], v);\n}}\n\n"
            ),
            Helper::Get => format!(
                "__device__ int get(int *p, unsigned i) {{\n  return p[i % {n}u];\n}}\n\n"
            ),
            Helper::PutPair => format!(
                "__device__ void put_b(Pair *p, unsigned i, int v) {{\n  p[i % {n}u].b = v;\n}}\n\n"
            ),
            Helper::SyncPut => format!(
                "__device__ void sync_put(int *p, unsigned i, int v) {{\n  __syncthreads();\n  p[i % {n}u] = v;\n}}\n\n"
            ),
        });
    }
    let mut params: Vec<String> = (0..k.globals).map(|g| format!("int *g{g}")).collect();
    if k.pairs {
        params.push("Pair *gp".to_string());
    }
    params.extend((0..k.params.len()).map(|p| format!("int n{p}")));
    let _ = writeln!(out, "__global__ void k({}) {{", params.join(", "));
    for s in 0..k.shared {
        let _ = writeln!(out, "  __shared__ int s{s}[{n}];");
    }
    if k.pairs {
        let _ = writeln!(out, "  __shared__ Pair sp[{n}];");
    }
    let mut flags = Vec::new();
    collect_flags(&k.body, &mut flags);
    for f in flags {
        let _ = writeln!(out, "  __shared__ int f{f};");
    }
    for (c, v) in k.carried.iter().enumerate() {
        let _ = writeln!(out, "  unsigned c{c} = {v}u;");
    }
    block(&mut out, k, &k.body, 1);
    out.push_str("}\n");
    out
}

/// The flags of the `Until` loops among the statements.
fn collect_flags(body: &[Stmt], out: &mut Vec<usize>) {
    for s in body {
        match s {
            Stmt::Until { var, body, .. } => {
                out.push(*var);
                collect_flags(body, out);
            }
            Stmt::If { then, els, .. } => {
                collect_flags(then, out);
                collect_flags(els, out);
            }
            Stmt::For { body, .. } => collect_flags(body, out),
            _ => {}
        }
    }
}

fn collect_helpers(body: &[Stmt], out: &mut BTreeSet<Helper>) {
    for s in body {
        match s {
            Stmt::Call { helper, .. } => {
                out.insert(*helper);
            }
            Stmt::If { then, els, .. } => {
                collect_helpers(then, out);
                collect_helpers(els, out);
            }
            Stmt::For { body, .. } | Stmt::Until { body, .. } => collect_helpers(body, out),
            _ => {}
        }
    }
}

/// Whether a tile's `sync()` is among the statements.
fn uses_tiles(body: &[Stmt]) -> bool {
    body.iter().any(|s| match s {
        Stmt::TileSync => true,
        Stmt::If { then, els, .. } => uses_tiles(then) || uses_tiles(els),
        Stmt::For { body, .. } | Stmt::Until { body, .. } => uses_tiles(body),
        _ => false,
    })
}

fn block(out: &mut String, k: &Kernel, body: &[Stmt], depth: usize) {
    for s in body {
        stmt(out, k, s, depth);
    }
}

fn stmt(out: &mut String, k: &Kernel, s: &Stmt, depth: usize) {
    let pad = "  ".repeat(depth);
    match s {
        Stmt::Store {
            arr,
            idx,
            val,
            compound,
        } => {
            let op = if *compound { "+=" } else { "=" };
            let _ = writeln!(
                out,
                "{pad}{} {op} (int)({});",
                place(k, *arr, idx),
                expr(val)
            );
        }
        Stmt::Load { local, arr, idx } => {
            let _ = writeln!(out, "{pad}int v{local} = {};", place(k, *arr, idx));
        }
        Stmt::Atomic { arr, idx, val } => {
            let _ = writeln!(
                out,
                "{pad}atomicAdd(&{}, (int)({}));",
                place(k, *arr, idx),
                expr(val)
            );
        }
        Stmt::Call {
            helper,
            arr,
            idx,
            val,
            local,
        } => {
            let p = base(*arr);
            let (i, v) = (expr(idx), expr(val));
            let _ = match helper {
                Helper::Put => writeln!(out, "{pad}put({p}, {i}, (int)({v}));"),
                Helper::Bump => writeln!(out, "{pad}bump({p}, {i}, (int)({v}));"),
                Helper::Get => writeln!(out, "{pad}int v{local} = get({p}, {i});"),
                Helper::PutPair => writeln!(out, "{pad}put_b({p}, {i}, (int)({v}));"),
                Helper::SyncPut => writeln!(out, "{pad}sync_put({p}, {i}, (int)({v}));"),
            };
        }
        Stmt::If { cond, then, els } => {
            let _ = writeln!(out, "{pad}if ({}) {{", condition(cond));
            block(out, k, then, depth + 1);
            if els.is_empty() {
                let _ = writeln!(out, "{pad}}}");
            } else {
                let _ = writeln!(out, "{pad}}} else {{");
                block(out, k, els, depth + 1);
                let _ = writeln!(out, "{pad}}}");
            }
        }
        Stmt::For {
            var,
            shape,
            start,
            bound,
            step,
            extra,
            body,
        } => {
            let i = format!("i{var}");
            let (test, step) = match shape {
                LoopShape::Up => (
                    format!("{i} < {}", expr(bound)),
                    match step {
                        Expr::Const(1) => format!("{i}++"),
                        e => format!("{i} += {}", expr(e)),
                    },
                ),
                LoopShape::Double => (format!("{i} < {}", expr(bound)), format!("{i} *= 2u")),
                LoopShape::Halve => (format!("{i} > 0u"), format!("{i} >>= 1")),
                LoopShape::HalveToZero => (format!("{i} != 0u"), format!("{i} /= 2u")),
                LoopShape::Down => (format!("{i} > 0u"), format!("{i}--")),
                LoopShape::TopExit => (String::new(), format!("{i} += {}", expr(step))),
            };
            let test = match extra {
                Some(c) => format!("{test} && ({})", condition(c)),
                None => test,
            };
            let _ = writeln!(
                out,
                "{pad}for (unsigned {i} = {}; {test}; {step}) {{",
                expr(start)
            );
            if *shape == LoopShape::TopExit {
                let _ = writeln!(out, "{pad}  unsigned e{var} = ({i} * 4u) / 2u;");
                let Expr::Const(b) = bound else {
                    unreachable!("invariant: a top-exit loop has a constant bound")
                };
                let _ = writeln!(out, "{pad}  if (e{var} >= {}u) break;", 2 * b);
            }
            block(out, k, body, depth + 1);
            let _ = writeln!(out, "{pad}}}");
        }
        Stmt::Until {
            var,
            limit,
            exit,
            quiet,
            close,
            body,
        } => {
            let (i, f) = (format!("i{var}"), format!("f{var}"));
            let _ = writeln!(out, "{pad}unsigned {i} = 0u;");
            let _ = writeln!(out, "{pad}while (true) {{");
            let _ = writeln!(
                out,
                "{pad}  if (threadIdx.x == 0u) {f} = (int)({i} >= {limit}u || {} == 0u);",
                expr(exit)
            );
            if *quiet {
                let _ = writeln!(out, "{pad}  __syncthreads();");
            }
            let _ = writeln!(out, "{pad}  if ({f}) break;");
            block(out, k, body, depth + 1);
            if *close {
                let _ = writeln!(out, "{pad}  __syncthreads();");
            }
            let _ = writeln!(out, "{pad}  {i}++;");
            let _ = writeln!(out, "{pad}}}");
        }
        Stmt::Update { var, update } => {
            let c = format!("c{var}");
            let _ = match update {
                Update::Flip(k) => writeln!(out, "{pad}{c} = {k}u - {c};"),
                Update::Xor(k) => writeln!(out, "{pad}{c} ^= {k}u;"),
                Update::Swap(o) => {
                    writeln!(out, "{pad}{{ unsigned t = {c}; {c} = c{o}; c{o} = t; }}")
                }
                Update::Set(e) => writeln!(out, "{pad}{c} = {};", expr(e)),
                Update::Add(k) => writeln!(out, "{pad}{c} += {k}u;"),
            };
        }
        Stmt::Sync => {
            let _ = writeln!(out, "{pad}__syncthreads();");
        }
        Stmt::WarpSync => {
            let _ = writeln!(out, "{pad}__syncwarp();");
        }
        Stmt::TileSync => {
            let _ = writeln!(
                out,
                "{pad}{{ auto tile = cooperative_groups::tiled_partition<2>(cooperative_groups::this_thread_block()); tile.sync(); }}"
            );
        }
        Stmt::Return => {
            let _ = writeln!(out, "{pad}return;");
        }
    }
}

/// The array's name as a pointer (a helper's argument).
fn base(arr: Arr) -> String {
    match arr {
        Arr::Global(g) => format!("g{g}"),
        Arr::Shared(s) => format!("s{s}"),
        Arr::SharedPair(_) => "sp".to_string(),
        Arr::GlobalPair(_) => "gp".to_string(),
    }
}

/// `arr[(idx) % N]`, with the field for pair arrays.
fn place(k: &Kernel, arr: Arr, idx: &Expr) -> String {
    let n = k.len;
    let field = match arr {
        Arr::SharedPair(b) | Arr::GlobalPair(b) => {
            if b {
                ".b"
            } else {
                ".a"
            }
        }
        _ => "",
    };
    format!("{}[({}) % {n}u]{field}", base(arr), expr(idx))
}

fn condition(c: &Cond) -> String {
    match c {
        Cond::Cmp { cmp, lhs, rhs } => format!("{} {} {}", expr(lhs), cmp.text(), expr(rhs)),
        Cond::Join(and, a, b) => format!(
            "({}) {} ({})",
            condition(a),
            if *and { "&&" } else { "||" },
            condition(b)
        ),
    }
}

/// An unsigned expression, every binary operation parenthesised.
pub fn expr(e: &Expr) -> String {
    match e {
        Expr::ThreadIdx => "threadIdx.x".to_string(),
        Expr::BlockIdx => "blockIdx.x".to_string(),
        Expr::BlockDim => "blockDim.x".to_string(),
        Expr::Const(c) => format!("{c}u"),
        Expr::Param(p) => format!("(unsigned)n{p}"),
        Expr::Loop(i, _) => format!("i{i}"),
        Expr::Local(v) => format!("(unsigned)v{v}"),
        Expr::Carried(c) => format!("c{c}"),
        Expr::Bin(op, a, b) => format!("({} {} {})", expr(a), op.text(), expr(b)),
        Expr::Select(c, a, b) => format!("({} ? {} : {})", condition(c), expr(a), expr(b)),
    }
}
