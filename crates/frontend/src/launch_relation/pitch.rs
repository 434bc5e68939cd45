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
//! < 2^31`: a row is less than 2 GiB (the README lists this as an
//! assumption), which keeps the element pitch `(int)(pitch / 4)` from
//! wrapping. dct8x8 divides the pitch in place first (`DstStride /=
//! sizeof(float)`): the value read is then `pitch / 4`.
//!
//! **Invariant:** the facts hold at a read of the variable only when its
//! value there is one of those calls' results, or it divided once by a
//! positive constant: every write of the variable is its address passed
//! as `cudaMallocPitch`'s second argument (nothing else writes it, no
//! pointer to it is kept) but for at most one `name /= c`; every such
//! call comes before the read and is in no loop, so it runs at most once
//! and the last one that ran wrote the value read; the division is a
//! statement of its own after every call, before the read, in no loop,
//! in a block that encloses the read (so it ran, once, on the way to the
//! read); and each call's width translates at the call. With several
//! calls the facts are their disjunction. A call that fails leaves the
//! pitch unwritten: the facts assume the allocations succeeded
//! (cuda-samples check every call).

use super::{convert, node_starting_at, runs_on_the_way, Cx};
use crate::consteval::eval_typed;
use crate::syntax::{callee_name, named_children, strip_parens};
use tree_sitter::Node;
use warpsafe_ir::{BinOp, Expr, ScalarTy};

/// The largest pitch assumed: 2^31 - 1 bytes.
const MAX_PITCH: i128 = (1 << 31) - 1;

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
        if calls.is_empty()
            || calls
                .iter()
                .any(|(_, at)| *at >= read || self.host.in_loop(*at))
        {
            return None;
        }
        // Every write is a call's, but for at most one division after
        // them all.
        let others: Vec<usize> = self
            .host
            .writes_of(name)
            .iter()
            .copied()
            .filter(|w| !calls.iter().any(|(_, at)| at == w))
            .collect();
        let divisor = match others.as_slice() {
            [] => None,
            [at] => Some(self.division(unknowns.def, name, *at, read, &calls)?),
            _ => return None,
        };
        let value = unknowns
            .reg
            .var(format!("{}::{name}", unknowns.function), decl, ty);
        let mut cases = Vec::new();
        for (call, _) in &calls {
            let args = named_children(call.child_by_field_name("arguments")?);
            let (width, wty) = self.tr(*args.get(2)?, depth + 1)?;
            let case = Expr::binary(
                BinOp::And,
                ScalarTy::Bool,
                Expr::binary(BinOp::Ge, ty, value.clone(), convert(width, wty, ty)),
                Expr::binary(BinOp::Le, ty, value.clone(), Expr::int(MAX_PITCH, ty)),
            );
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
        let read_value = match divisor {
            None => value,
            Some(c) => Expr::binary(BinOp::Div, ty, value, Expr::int(c, ty)),
        };
        Some((read_value, ty))
    }

    /// The divisor of `name /= c` written at `at` (`c` a positive
    /// constant), when the division certainly runs once between the
    /// `calls` and `read`: a statement of its own in a block that
    /// encloses the read (not a `case` of a `switch`), after every call,
    /// before the read, in no loop.
    fn division(
        &self,
        def: Node<'t>,
        name: &str,
        at: usize,
        read: usize,
        calls: &[(Node<'t>, usize)],
    ) -> Option<i128> {
        if at >= read || self.host.in_loop(at) || calls.iter().any(|(_, c)| *c >= at) {
            return None;
        }
        let assign = node_starting_at(def, at, "assignment_expression")?;
        let left = assign.child_by_field_name("left")?;
        let op = assign.child_by_field_name("operator")?;
        if left.kind() != "identifier" || self.syn.text(left) != name || self.syn.text(op) != "/=" {
            return None;
        }
        let stmt = assign
            .parent()
            .filter(|s| s.kind() == "expression_statement")?;
        if !runs_on_the_way(stmt, read) {
            return None;
        }
        let (c, _) = eval_typed(self.syn, assign.child_by_field_name("right")?, self)?;
        (c > 0).then_some(c)
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
