//! The pitch `cudaMallocPitch` returns (issue 9). cuda-samples'
//! simplePitchLinearTexture allocates with
//!
//! ```c
//! size_t d_pitchBytes;
//! cudaMallocPitch((void **)&d_odata, &d_pitchBytes, nx * sizeof(float), ny);
//! shiftPitchLinear<<<grid, block>>>(d_odata, (int)(d_pitchBytes / sizeof(float)), nx, ny, ...);
//! ```
//!
//! and the kernel writes `odata[yid * pitch + xid]` for `xid < nx`: rows
//! do not overlap because a pitch is at least the row's width in bytes
//! (CUDA's documentation: the pitch is "the width in bytes of the
//! allocation", and element `(row, col)` is at `base + row * pitch` plus
//! `col` elements). The launch relation reads such a variable as a host
//! value (`host_unknowns.rs`) with the facts `pitch >= width` and `pitch
//! <= 2^40 / height`: the allocation of `pitch * height` bytes is at most
//! 1 TiB (the README lists this as an assumption), which keeps the
//! element pitch `(int)(pitch / 4)` from wrapping.
//!
//! **Invariant:** the facts hold at a read of the variable only when its
//! value there is one of those calls' results: every write of the
//! variable is its address passed as `cudaMallocPitch`'s second argument
//! (nothing else writes it, no pointer to it is kept); every such call
//! comes before the read and is in no loop, so it runs at most once and
//! the last one that ran wrote the value read; and each call's width and
//! height translate at the call. With several calls the facts are their
//! disjunction. A call that fails leaves the pitch unwritten: the facts
//! assume the allocations succeeded (cuda-samples check every call).

use super::{convert, Cx};
use crate::syntax::{callee_name, named_children, strip_parens};
use tree_sitter::Node;
use warpsafe_ir::{BinOp, Expr, ScalarTy};

/// The largest allocation assumed: 1 TiB.
const MAX_ALLOCATION: i128 = 1 << 40;

impl<'t> Cx<'_, 't> {
    /// The value of the pitch variable `name` (declared at `decl`, of type
    /// `ty`) read at `read`, with its facts recorded, when the module's
    /// invariant holds.
    pub(super) fn pitch(
        &self,
        name: &str,
        decl: usize,
        ty: ScalarTy,
        read: usize,
        depth: u32,
    ) -> Option<(Expr, ScalarTy)> {
        let unknowns = self.unknowns.as_ref()?;
        if ty.is_signed() || ty.bits() < 32 {
            return None;
        }
        let calls = pitch_calls(self, unknowns.def, name);
        let writes = self.host.writes_of(name);
        if calls.is_empty()
            || writes.len() != calls.len()
            || !writes.iter().all(|w| calls.iter().any(|(_, at)| at == w))
            || calls
                .iter()
                .any(|(_, at)| *at >= read || self.host.in_loop(*at))
        {
            return None;
        }
        let value = unknowns
            .reg
            .var(format!("{}::{name}", unknowns.function), decl, ty);
        let mut cases = Vec::new();
        for (call, _) in &calls {
            let args = named_children(call.child_by_field_name("arguments")?);
            let (width, wty) = self.tr(*args.get(2)?, depth + 1)?;
            let (height, hty) = self.tr(*args.get(3)?, depth + 1)?;
            let (width, height) = (convert(width, wty, ty), convert(height, hty, ty));
            let at_least = Expr::binary(BinOp::Ge, ty, value.clone(), width);
            let at_most = |limit| Expr::binary(BinOp::Le, ty, value.clone(), limit);
            let case = match height.as_const_int() {
                Some(0) => at_least,
                Some(h) => Expr::binary(
                    BinOp::And,
                    ScalarTy::Bool,
                    at_least,
                    at_most(Expr::int(MAX_ALLOCATION / h.max(1), ty)),
                ),
                None => Expr::binary(
                    BinOp::And,
                    ScalarTy::Bool,
                    at_least,
                    Expr::Select(
                        Box::new(Expr::binary(
                            BinOp::Eq,
                            ty,
                            height.clone(),
                            Expr::int(0, ty),
                        )),
                        Box::new(Expr::bool(true)),
                        Box::new(at_most(Expr::binary(
                            BinOp::Div,
                            ty,
                            Expr::int(MAX_ALLOCATION, ty),
                            height,
                        ))),
                    ),
                ),
            };
            if !cases.contains(&case) {
                cases.push(case);
            }
        }
        let fact = cases
            .into_iter()
            .reduce(|a, b| Expr::binary(BinOp::Or, ScalarTy::Bool, a, b))?;
        let mut pitches = self.pitches.borrow_mut();
        if !pitches.iter().any(|(n, _, _)| n == name) {
            let at = calls[0].0;
            pitches.push((name.to_string(), fact, at));
        }
        Some((value, ty))
    }
}

/// The `cudaMallocPitch` calls of `def` that take `&name` as their pitch,
/// each with where that `&name` starts (where `host_writes.rs` counts the
/// write).
fn pitch_calls<'t>(cx: &Cx<'_, 't>, def: Node<'t>, name: &str) -> Vec<(Node<'t>, usize)> {
    let mut out = Vec::new();
    let mut stack = vec![def];
    while let Some(n) = stack.pop() {
        if callee_name(cx.syn, n) == Some("cudaMallocPitch") {
            let arg = n
                .child_by_field_name("arguments")
                .and_then(|a| named_children(a).get(1).copied())
                .map(strip_parens);
            if let Some(amp) = arg.filter(|a| {
                a.kind() == "pointer_expression"
                    && cx.syn.text(*a).starts_with('&')
                    && a.child_by_field_name("argument")
                        .is_some_and(|x| x.kind() == "identifier" && cx.syn.text(x) == name)
            }) {
                out.push((n, amp.start_byte()));
            }
        }
        stack.extend(named_children(n));
    }
    out.sort_by_key(|(_, at)| *at);
    out
}
