//! Inline PTX (`asm("mov.u32 %0, %%laneid;" : "=r"(lane))`).
//!
//! A few forms real kernels use are lowered exactly: reads of the special
//! registers that name the thread (`%laneid`, `%lanemask_lt` and its
//! siblings, `%tid.x`, `%ntid.x`, `%ctaid.x`, `%nctaid.x`), `bfind.u32`
//! and `vabsdiff4.u32.u32.u32.add` (the byte-wise sum of absolute
//! differences behind `__usad4`). Any other template whose instructions
//! all only compute on registers (`add`, `prmt`, `cvt`, `setp`, `selp`,
//! ...; the list is [`REGISTER_ONLY`]) gives its outputs unknown values,
//! stated as an approximation; reading `%clock`, `%clock64` or
//! `%globaltimer` is a time, unknown too.
//!
//! Invariants:
//! - Nothing that touches memory or synchronises is let through: an
//!   instruction outside [`REGISTER_ONLY`] (`ld`, `st`, `atom`, `bar`,
//!   `membar`, `fence`, `shfl`, `vote`, ...), a memory operand (`"m"`) or a
//!   jump refuses the kernel, naming the instruction.
//! - An empty template (`asm volatile("" ::: "memory")`, a compiler
//!   barrier) is no statement: it orders nothing between threads.

use super::{Lowerer, R};
use crate::syntax::named_children;
use crate::types::CType;
use tree_sitter::Node;
use warpsafe_ir::{BinOp, Builtin, Dim, Expr, ScalarTy, UnOp};

/// PTX instructions (the part of the opcode before the first `.`) that
/// read and write registers only.
const REGISTER_ONLY: &[&str] = &[
    "mov",
    "add",
    "sub",
    "mul",
    "mad",
    "mul24",
    "mad24",
    "sad",
    "div",
    "rem",
    "abs",
    "neg",
    "min",
    "max",
    "popc",
    "clz",
    "bfind",
    "fns",
    "brev",
    "bfe",
    "bfi",
    "prmt",
    "and",
    "or",
    "xor",
    "not",
    "cnot",
    "lop3",
    "shf",
    "shl",
    "shr",
    "cvt",
    "cvta",
    "set",
    "setp",
    "selp",
    "slct",
    "testp",
    "copysign",
    "fma",
    "rcp",
    "sqrt",
    "rsqrt",
    "sin",
    "cos",
    "lg2",
    "ex2",
    "tanh",
    "vadd",
    "vsub",
    "vabsdiff",
    "vmin",
    "vmax",
    "vshl",
    "vshr",
    "vmad",
    "vset",
    "vadd2",
    "vadd4",
    "vsub2",
    "vsub4",
    "vavrg2",
    "vavrg4",
    "vabsdiff2",
    "vabsdiff4",
    "vmin2",
    "vmin4",
    "vmax2",
    "vmax4",
    "vset2",
    "vset4",
    "dp4a",
    "dp2a",
];

/// One `"constraint"(expression)` operand.
struct Operand<'t> {
    constraint: String,
    value: Node<'t>,
}

impl<'t> Lowerer<'_, 't> {
    /// Lowers one `asm(...)` statement (see the module comment).
    pub(super) fn inline_asm(&mut self, n: Node<'t>) -> R<()> {
        let code = n
            .child_by_field_name("assembly_code")
            .map(|c| string_contents(self.text(c)))
            .unwrap_or_default();
        let outputs = operands(self, n.child_by_field_name("output_operands"));
        let inputs = operands(self, n.child_by_field_name("input_operands"));
        let instructions = instructions(&code);
        for i in &instructions {
            let op = opcode(i);
            if !REGISTER_ONLY.contains(&op) {
                return Err(self.unsupported(
                    n,
                    format!(
                        "inline assembly with `{}` (warpsafe lowers PTX that only computes on registers)",
                        i.split_whitespace().next().unwrap_or(i)
                    ),
                ));
            }
        }
        for o in outputs.iter().chain(&inputs) {
            if o.constraint.contains('m') {
                return Err(self.unsupported(
                    o.value,
                    format!(
                        "an inline assembly operand in memory (`\"{}\"`)",
                        o.constraint
                    ),
                ));
            }
        }
        // Inputs are evaluated in order, before the outputs are written.
        let mut args = Vec::new();
        for i in &inputs {
            args.push(self.scalar(i.value)?);
        }
        let exact = exact_result(&instructions, &args);
        let span = self.span(n);
        for (k, o) in outputs.iter().enumerate() {
            let place = self.place(o.value)?;
            let ty = match self.place_type(&place) {
                CType::Scalar(t) => t,
                other => {
                    return Err(self.unsupported(
                        o.value,
                        format!("an inline assembly output of type `{}`", other.describe()),
                    ))
                }
            };
            let value = match (&exact, k) {
                (Some(e), 0) => super::value::Value::Scalar(e.clone(), ScalarTy::U32),
                _ => {
                    let why = match reads_time(&code) {
                        true => "inline assembly reads a clock: a time".to_string(),
                        false => format!(
                            "the result of inline assembly `{}`, which warpsafe does not interpret",
                            code.trim()
                        ),
                    };
                    self.warn(n, format!("{why}: an unknown value"));
                    self.havoc(ty, &why, span)
                }
            };
            self.write(&place, value, n)?;
        }
        Ok(())
    }
}

/// The operands of an operand list node.
fn operands<'t>(l: &Lowerer<'_, 't>, list: Option<Node<'t>>) -> Vec<Operand<'t>> {
    let Some(list) = list else { return Vec::new() };
    named_children(list)
        .into_iter()
        .filter_map(|o| {
            let constraint = string_contents(l.text(o.child_by_field_name("constraint")?));
            Some(Operand {
                constraint,
                value: o.child_by_field_name("value")?,
            })
        })
        .collect()
}

/// The text of one or more adjacent C string literals, escapes resolved.
fn string_contents(text: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (inside, c) {
            (false, '"') => inside = true,
            (true, '"') => inside = false,
            (true, '\\') => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => {}
            },
            (true, c) => out.push(c),
            (false, _) => {}
        }
    }
    out
}

/// The instructions of a template: statements split at `;` and newlines,
/// without braces, register declarations and guard predicates.
fn instructions(code: &str) -> Vec<String> {
    code.split([';', '\n'])
        .map(|s| s.trim().trim_matches(['{', '}']).trim())
        .filter(|s| !s.is_empty() && !s.starts_with(".reg") && !s.starts_with("//"))
        .map(|s| match s.strip_prefix('@') {
            // `@p add.s32 ...`: the guard predicate is a register.
            Some(rest) => rest
                .split_once(char::is_whitespace)
                .map(|(_, i)| i.trim().to_string())
                .unwrap_or_default(),
            None => s.split_whitespace().collect::<Vec<_>>().join(" "),
        })
        .filter(|s| !s.is_empty())
        .collect()
}

/// `add.s32 %0, %1, %2` -> `add`.
fn opcode(instruction: &str) -> &str {
    let op = instruction.split_whitespace().next().unwrap_or("");
    op.split('.').next().unwrap_or(op)
}

fn reads_time(code: &str) -> bool {
    ["%clock", "%globaltimer"].iter().any(|r| code.contains(r))
}

/// The value of the first output for the forms lowered exactly.
fn exact_result(instructions: &[String], args: &[(Expr, ScalarTy)]) -> Option<Expr> {
    let [one] = instructions else { return None };
    let u = ScalarTy::U32;
    let arg = |k: usize| args.get(k).map(|(e, _)| Expr::Cast(u, Box::new(e.clone())));
    let (op, operands) = one.split_once(' ')?;
    let operands: Vec<&str> = operands.split(',').map(str::trim).collect();
    match (op, operands.as_slice()) {
        ("mov.u32" | "mov.b32" | "mov.s32", ["%0", reg]) => {
            special_register(reg.strip_prefix("%%")?)
        }
        // `bfind.u32 d, a`: the position of the most significant set bit,
        // 0xffffffff for 0.
        ("bfind.u32", ["%0", "%1"]) => {
            let a = arg(0)?;
            let msb = Expr::binary(
                BinOp::Sub,
                u,
                Expr::int(31, u),
                Expr::Cast(
                    u,
                    Box::new(Expr::Call("__clz".into(), ScalarTy::I32, vec![a.clone()])),
                ),
            );
            Some(Expr::Select(
                Box::new(Expr::binary(BinOp::Eq, u, a, Expr::int(0, u))),
                Box::new(Expr::int(0xffff_ffff, u)),
                Box::new(msb),
            ))
        }
        // `vabsdiff4.u32.u32.u32.add d, a, b, c`: c plus the absolute
        // differences of the four byte pairs.
        ("vabsdiff4.u32.u32.u32.add", ["%0", "%1", "%2", "%3"]) => {
            let (a, b, c) = (arg(0)?, arg(1)?, arg(2)?);
            let byte = |x: &Expr, k: i128| {
                Expr::binary(
                    BinOp::BitAnd,
                    u,
                    Expr::binary(BinOp::Shr, u, x.clone(), Expr::int(8 * k, u)),
                    Expr::int(0xff, u),
                )
            };
            let mut sum = c;
            for k in 0..4 {
                let (x, y) = (byte(&a, k), byte(&b, k));
                let diff = Expr::Select(
                    Box::new(Expr::binary(BinOp::Ge, u, x.clone(), y.clone())),
                    Box::new(Expr::binary(BinOp::Sub, u, x.clone(), y.clone())),
                    Box::new(Expr::binary(BinOp::Sub, u, y, x)),
                );
                sum = Expr::binary(BinOp::Add, u, sum, diff);
            }
            Some(sum)
        }
        _ => None,
    }
}

/// A special register that names the thread, as a `u32`.
fn special_register(name: &str) -> Option<Expr> {
    let u = ScalarTy::U32;
    let dim = |s: &str| match s {
        "x" => Some(Dim::X),
        "y" => Some(Dim::Y),
        "z" => Some(Dim::Z),
        _ => None,
    };
    if let Some((reg, d)) = name.split_once('.') {
        let d = dim(d)?;
        return Some(Expr::Builtin(match reg {
            "tid" => Builtin::ThreadIdx(d),
            "ntid" => Builtin::BlockDim(d),
            "ctaid" => Builtin::BlockIdx(d),
            "nctaid" => Builtin::GridDim(d),
            _ => return None,
        }));
    }
    // Lanes are numbered along the block's linear thread index.
    let lane = Expr::binary(
        BinOp::Rem,
        u,
        super::builtins::linear_tid(),
        Expr::int(32, u),
    );
    let bit = |e: Expr| Expr::binary(BinOp::Shl, u, Expr::int(1, u), e);
    let below = |e: Expr| Expr::binary(BinOp::Sub, u, bit(e), Expr::int(1, u));
    let not = |e: Expr| Expr::Unary(UnOp::BitNot, u, Box::new(e));
    // `2u << 31` is 0 in 32-bit unsigned arithmetic (a shift below the
    // width), so `(2 << lane) - 1` is every lane up to 31.
    let up_to = |e: Expr| {
        Expr::binary(
            BinOp::Sub,
            u,
            Expr::binary(BinOp::Shl, u, Expr::int(2, u), e),
            Expr::int(1, u),
        )
    };
    Some(match name {
        "laneid" => lane,
        "lanemask_eq" => bit(lane),
        "lanemask_lt" => below(lane),
        "lanemask_le" => up_to(lane),
        "lanemask_gt" => not(up_to(lane)),
        "lanemask_ge" => not(below(lane)),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_split_into_instructions() {
        assert_eq!(
            instructions("{\n .reg .pred p;\n setp.eq.u32 p, %1, 0;\n @p add.s32 %0, %1, 1;\n}"),
            vec!["setp.eq.u32 p, %1, 0", "add.s32 %0, %1, 1"]
        );
        assert_eq!(opcode("vabsdiff4.u32.u32.u32.add %0, %1"), "vabsdiff4");
        assert_eq!(
            string_contents("\"mov.u32 %0, \"\n \"%%laneid;\""),
            "mov.u32 %0, %%laneid;"
        );
        assert!(instructions("").is_empty());
    }
}
