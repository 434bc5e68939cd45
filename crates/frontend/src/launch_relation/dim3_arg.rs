//! A `dim3` component passed as a kernel parameter (issue 9). Two
//! cuda-samples shapes:
//!
//! ```c
//! dim3 grid(iDivUp(imageW, 16), iDivUp(imageH, 16));      // Mandelbrot
//! Mandelbrot0<<<numSMs, threads>>>(dst, imageW, imageH, ..., grid.x, ...);
//!
//! dim3 block_size;                                         // dwtHaar1D
//! if (levels <= 10) block_size.x = n; else block_size.x = 512;
//! dwtHaar1D<<<grid_size, block_size, shared>>>(..., block_size.x);
//! ```
//!
//! In the first, the parameter (`gridWidth`) gets the component's value
//! (`iDivUp(imageW, 16)` over the parameter `imageW`), read as any other
//! translation is: only where `grid` is unchanged since its declaration.
//! In the second, the value is not known, but the parameter (`bdim`) is
//! the launch's own `blockDim.x`: the launch reads `block_size` for its
//! configuration and `block_size.x` for the argument in one statement.
//!
//! **Invariant:** the second fact needs the argument to be exactly
//! `X.c` for the `dim3` local `X` that is the launch's grid or block, and
//! no argument or configuration of the launch may write to `X` (an
//! assignment, an increment, a call or `&X`): then both reads see one
//! value. A parameter narrower than 32 bits gets no fact.

use super::{convert, Cx, Fact, Key};
use crate::launch::{dim3_component, Launch};
use crate::syntax::{strip_parens, Syntax};
use tree_sitter::Node;
use warpsafe_ir::{BinOp, Builtin, Dim, Expr, ScalarTy, VarId};

impl<'t> Cx<'_, 't> {
    /// The value of the `dim3` component `name` (`grid.x`) passed as a
    /// parameter at `arg`, translated without the parameter itself
    /// standing for it.
    pub(super) fn passed_component(
        &mut self,
        name: &str,
        arg: Node<'t>,
    ) -> Option<(Expr, ScalarTy)> {
        let saved = self.passed.remove(name)?;
        let value = self.tr(arg, 0);
        self.passed.insert(name.to_string(), saved);
        value
    }
}

/// `param == gridDim.c` (or `blockDim.c`) where the argument is the
/// launch's own grid (block) component (see the module's invariant).
pub(super) fn config_component_fact(
    syn: &Syntax,
    launch: &Launch<'_>,
    arg: Node<'_>,
    param: VarId,
    pty: ScalarTy,
) -> Option<Fact> {
    if pty.bits() < 32 {
        return None;
    }
    let (base, d) = dim3_component(syn, strip_parens(arg))?;
    let name = syn.text(base);
    let which = launch.config.iter().take(2).position(|c| {
        strip_parens(*c).kind() == "identifier" && syn.text(strip_parens(*c)) == name
    })?;
    let args = launch.args.as_deref().unwrap_or_default();
    if launch
        .config
        .iter()
        .chain(args)
        .any(|n| may_write(syn, *n, name))
    {
        return None;
    }
    const DIMS: [Dim; 3] = [Dim::X, Dim::Y, Dim::Z];
    let builtin = Expr::Builtin(if which == 0 {
        Builtin::GridDim(DIMS[d])
    } else {
        Builtin::BlockDim(DIMS[d])
    });
    let (key, value) = (Key::Path, convert(builtin, ScalarTy::U32, pty));
    Some(Fact {
        key,
        cond: Expr::binary(BinOp::Eq, pty, Expr::Var(param), value),
    })
}

/// Whether evaluating `n` may write the local `name`.
fn may_write(syn: &Syntax, n: Node<'_>, name: &str) -> bool {
    match n.kind() {
        "assignment_expression" | "update_expression" | "call_expression" => {
            return syn.text(n).contains(name)
        }
        "pointer_expression" if syn.text(n).starts_with('&') && syn.text(n).contains(name) => {
            return true
        }
        _ => {}
    }
    let mut cursor = n.walk();
    let children: Vec<Node<'_>> = n.named_children(&mut cursor).collect();
    children.into_iter().any(|c| may_write(syn, c, name))
}
