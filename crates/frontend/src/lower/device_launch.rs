//! Kernel launches from device code (dynamic parallelism) and the device
//! runtime calls that come with them: `k<<<g, b, shm, s>>>(...)` inside a
//! kernel, `cudaStreamCreate(WithFlags)`, `cudaStreamDestroy`,
//! `cudaGetLastError`, `cudaPeekAtLastError`, `cudaGetErrorString`,
//! `cudaMalloc`, `cudaFree` and the device-side `cudaDeviceSynchronize`.
//!
//! The model: a launch is not followed. Its configuration and arguments
//! are evaluated (they may read memory or have side effects), and the
//! child grid does nothing that this kernel's check sees. The child kernel
//! is a `__global__` function of the file, so it is checked on its own;
//! what is lost is the race between the child grid's accesses and the
//! parent grid's (or another child's), which the kernel's report states in
//! a warning and README lists as not sound.
//!
//! Invariants:
//! - Every kernel with a device-side launch gets the warning; it never
//!   passes silently.
//! - Error codes the device runtime returns are unknown values (a
//!   `Havoc`), so both outcomes of `if (cudaGetLastError() != cudaSuccess)`
//!   are checked; streams are opaque numbers that only launches read.
//! - `cudaMalloc(&l[i].p, n)` only writes a pointer slot of memory the host
//!   fills, whose object `mem_pointer.rs` already gives; `cudaFree` has no
//!   effect and a warning says that its race with other threads' accesses
//!   is not checked.

use super::value::{Place, Value};
use super::{Lowerer, R};
use crate::syntax::named_children;
use crate::types::CType;
use tree_sitter::Node;
use warpsafe_ir::{AccessKind, Expr, MemRef, ScalarTy, StmtKind};

/// The warning every kernel that launches kernels gets.
const NOT_FOLLOWED: &str = "kernel launches from device code are not followed: the child kernel is checked on its own, but its grid's accesses are not checked against this grid's or other child grids' (not sound)";

/// The warning of a kernel that frees memory.
const FREE: &str = "`cudaFree` in device code is not checked against other threads' accesses to the memory it frees (not sound)";

impl<'t> Lowerer<'_, 't> {
    /// `k<<<g, b[, shm[, stream]]>>>(args)` in device code: evaluates the
    /// configuration and the arguments, warns that the launch is not
    /// followed.
    pub(super) fn device_launch(
        &mut self,
        config: Node<'t>,
        args: &[Node<'t>],
        n: Node<'t>,
    ) -> R<Value> {
        let parts = named_children(config);
        if parts.len() < 2 || parts.len() > 4 {
            return Err(self.unsupported(
                n,
                format!(
                    "a kernel launch with {} configuration values (a grid, a block, optionally shared memory bytes and a stream)",
                    parts.len()
                ),
            ));
        }
        for a in parts.iter().chain(args) {
            self.value(*a)?;
        }
        self.warn_once(n, NOT_FOLLOWED);
        Ok(Value::Void)
    }

    /// A device runtime call of the list above, or `None` when `name` is
    /// none of them.
    pub(super) fn device_runtime_call(
        &mut self,
        name: &str,
        args: &[Node<'t>],
        n: Node<'t>,
    ) -> R<Option<Value>> {
        let arity = match name {
            "cudaStreamCreateWithFlags" | "cudaMalloc" => 2,
            "cudaStreamCreate" | "cudaStreamDestroy" | "cudaGetErrorString" | "cudaFree" => 1,
            "cudaGetLastError" | "cudaPeekAtLastError" | "cudaDeviceSynchronize" => 0,
            _ => return Ok(None),
        };
        if args.len() != arity {
            return Err(self.unsupported(
                n,
                format!("`{name}` with {} arguments (it takes {arity})", args.len()),
            ));
        }
        if name == "cudaMalloc" {
            self.device_malloc(args[0], n)?;
        } else if name.starts_with("cudaStreamCreate") {
            // A stream is an opaque number that only launches read (and
            // they are not followed): the new one is 1, not the default 0.
            let Some(place) = self.addressed_place(args[0])? else {
                return Err(self.unsupported(n, format!("`{name}` other than into `&s`")));
            };
            let one = Value::Scalar(Expr::int(1, ScalarTy::U64), ScalarTy::U64);
            self.write(&place, one, n)?;
        } else if name == "cudaFree" {
            self.warn_once(n, FREE);
        }
        let written = usize::from(name.starts_with("cudaStreamCreate") || name == "cudaMalloc");
        for a in &args[written..] {
            self.value(*a)?;
        }
        if name == "cudaGetErrorString" {
            // Only `printf` reads the message, and it prints no strings.
            return Ok(Some(Value::Void));
        }
        if n.parent()
            .is_some_and(|p| p.kind() == "expression_statement")
        {
            // The code is dropped: no unknown value to make.
            return Ok(Some(Value::Void));
        }
        let span = self.span(n);
        let code = self.havoc(
            ScalarTy::I32,
            &format!("`{name}` returns the device runtime's error code"),
            span,
        );
        Ok(Some(code))
    }

    /// `cudaMalloc((void **)&h[i].p, bytes)` in device code: a new object
    /// for a pointer slot of memory the host filled, which `mem_pointer.rs`
    /// already gives one object per slot; the slot is written (with 1, a
    /// pointer that is not null). Other destinations are refused.
    fn device_malloc(&mut self, dst: Node<'t>, n: Node<'t>) -> R<()> {
        let place =
            match self.addressed_place(dst)? {
                Some(p) => p,
                None => return Err(self.unsupported(
                    n,
                    "`cudaMalloc` in device code other than into `&p` for a pointer `p` in memory",
                )),
            };
        match place {
            Place::Mem {
                array,
                index,
                ty: CType::Pointer(_),
                ..
            } if self.host_filled_array(array) => {
                let mem = MemRef {
                    array,
                    index,
                    ty: ScalarTy::U64,
                };
                let value = Expr::int(1, ScalarTy::U64);
                let access = AccessKind::Plain;
                self.emit(StmtKind::Store { mem, value, access }, self.span(n));
                Ok(())
            }
            _ => Err(self.unsupported(
                n,
                "`cudaMalloc` in device code into a pointer other than one in memory the host filled (a parameter's array, a `__device__` variable)",
            )),
        }
    }

    /// The place `&x` (under casts: `(void **)&x`) names, through
    /// [`Self::out_place`]; `None` when `e` is not such an address. Only
    /// the slot is written here, so the cast's type does not matter.
    fn addressed_place(&mut self, e: Node<'t>) -> R<Option<Place>> {
        let mut d = e;
        while matches!(d.kind(), "cast_expression" | "parenthesized_expression") {
            match d
                .child_by_field_name("value")
                .or_else(|| named_children(d).last().copied())
            {
                Some(i) => d = i,
                None => break,
            }
        }
        let is_address = d.kind() == "pointer_expression"
            && d.child_by_field_name("operator").map(|o| self.text(o)) == Some("&");
        if !is_address {
            return Ok(None);
        }
        self.out_place(d).map(Some)
    }
}
