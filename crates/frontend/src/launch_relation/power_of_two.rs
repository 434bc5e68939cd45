//! Host values that are a power of two or zero at every point (issue 9):
//! cuda-samples' sorting networks launch one merge kernel per step of
//!
//! ```c
//! for (uint size = 2 * SHARED_SIZE_LIMIT; size <= arrayLength; size <<= 1)
//!     for (unsigned stride = size / 2; stride > 0; stride >>= 1)
//!         bitonicMergeGlobal<<<...>>>(..., arrayLength, size, stride, dir);
//! ```
//!
//! and the kernel indexes with `pos & (stride - 1)`, which is race free
//! only when `stride` has one bit set. Neither counter holds its
//! initialiser at the launch, so the relation cannot give their values,
//! but every value they ever hold has at most one bit set: the launch
//! relation states `(stride & stride - 1u) == 0u` for the parameter.
//!
//! **Invariant:** [`Cx::power_of_two_or_zero`] answers a type only when
//! the expression's value is not negative and has at most one bit set at
//! every evaluation. For a local this is an induction over all its
//! writes, wherever they are (no control flow is followed): the
//! declaration the read sees has an initialiser with the property (or it is a parameter
//! of the launching function that every call in the file passes a value
//! with the property, `callers.rs`, which the report states), and each of its
//! writes is an assignment that keeps it (`x = e` with `e` a power of two
//! or zero, `x >>= k`, `x /= 2^j`, and for unsigned `x`, `x <<= k` and
//! `x *= 2^j`, which may wrap to 0 but to nothing else). A variable the
//! induction is proving is assumed while its writes are checked. Any
//! other write (an increment, its address taken, a call that may take it
//! by reference, a `goto`) makes the answer `None`. Writes are counted
//! by name, over every variable of the name (two loops that each declare
//! `stride`), so each variable's writes are among those checked; the
//! induction's hypothesis is kept per declaration.

use super::Cx;
use crate::consteval::eval_typed;
use crate::host_writes::scalar_of_type;
use crate::syntax::named_children;
use crate::types::{common_type, promote};
use tree_sitter::Node;
use warpsafe_ir::ScalarTy;

/// How deep the induction goes through initialisers and assignments.
const MAX_DEPTH: u32 = 12;

/// Whether `v` is not negative and has at most one bit set.
fn power_of_two_or_zero_value(v: i128) -> bool {
    v >= 0 && v & (v - 1) == 0
}

/// Whether converting a value with the property from `from` to `to`
/// keeps it: to an unsigned type a power of two truncates to itself or 0;
/// to a signed type it must stay below the sign bit.
pub(super) fn converts(from: ScalarTy, to: ScalarTy) -> bool {
    if !(from.is_integer() && to.is_integer()) {
        return false;
    }
    if !to.is_signed() {
        return true;
    }
    if from.is_signed() {
        from.bits() <= to.bits()
    } else {
        from.bits() < to.bits()
    }
}

impl<'t> Cx<'_, 't> {
    /// The type of `n` when it is a constant power of two (a divisor or
    /// factor that keeps the property).
    fn power_of_two_constant(&self, n: Node<'t>) -> Option<ScalarTy> {
        eval_typed(self.syn, n, self)
            .filter(|(v, ty)| ty.is_integer() && *v != 0 && power_of_two_or_zero_value(*v))
            .map(|(_, ty)| ty)
    }

    /// The type of `n` when its value is surely a power of two or zero,
    /// and not negative (see the module's invariant).
    pub(super) fn power_of_two_or_zero(&self, n: Node<'t>, depth: u32) -> Option<ScalarTy> {
        if depth > MAX_DEPTH {
            return None;
        }
        if let Some((v, ty)) = eval_typed(self.syn, n, self) {
            return (ty.is_integer() && power_of_two_or_zero_value(v)).then_some(ty);
        }
        let syn = self.syn;
        let child = |f: &str| n.child_by_field_name(f);
        match n.kind() {
            "parenthesized_expression" => {
                self.power_of_two_or_zero(*named_children(n).first()?, depth + 1)
            }
            "cast_expression" => {
                let to = scalar_of_type(syn, self.items, child("type")?)?;
                let from = self.power_of_two_or_zero(child("value")?, depth + 1)?;
                converts(from, to).then_some(to)
            }
            "binary_expression" => {
                let op = syn.text(child("operator")?);
                let (left, right) = (child("left")?, child("right")?);
                let constant = |m: Node<'t>| self.power_of_two_constant(m);
                match op {
                    // `x >> k` of a value that is not negative is `x /
                    // 2^k`; the shift amount is any value.
                    ">>" => Some(promote(self.power_of_two_or_zero(left, depth + 1)?)),
                    "/" => {
                        let a = self.power_of_two_or_zero(left, depth + 1)?;
                        Some(common_type(promote(a), promote(constant(right)?)))
                    }
                    "<<" => {
                        let a = promote(self.power_of_two_or_zero(left, depth + 1)?);
                        (!a.is_signed()).then_some(a)
                    }
                    "*" => {
                        let (a, b) = match self.power_of_two_or_zero(left, depth + 1) {
                            Some(a) => (a, constant(right)?),
                            None => (
                                self.power_of_two_or_zero(right, depth + 1)?,
                                constant(left)?,
                            ),
                        };
                        let ty = common_type(promote(a), promote(b));
                        (!ty.is_signed()).then_some(ty)
                    }
                    _ => None,
                }
            }
            "identifier" => self.local_power_of_two_or_zero(n, depth),
            _ => None,
        }
    }

    /// The induction over all the writes of the local that `read` names.
    fn local_power_of_two_or_zero(&self, read: Node<'t>, depth: u32) -> Option<ScalarTy> {
        if self.helper {
            return None;
        }
        let name = self.syn.text(read);
        // The declaration the read sees (not a file-scope variable); the
        // writes below are those of every variable of the name, which
        // include this one's.
        let var = self.host.var_at(name, read.start_byte())?;
        let ty = var.scalar.filter(|t| t.is_integer())?;
        if self
            .inducting
            .borrow()
            .iter()
            .any(|(v, d)| v == name && *d == var.decl)
        {
            return Some(ty);
        }
        let assigns = self.host.only_assignments(name)?;
        self.inducting
            .borrow_mut()
            .push((name.to_string(), var.decl));
        let keeps = |e: Node<'t>| {
            self.power_of_two_or_zero(e, depth + 1)
                .is_some_and(|from| converts(from, ty))
        };
        let initially = match var.init {
            Some(init) => keeps(init),
            // A parameter every call passes a power of two or zero
            // (`callers.rs`).
            None => self.powers.get(name) == Some(&var.decl),
        };
        let holds = initially
            && assigns.iter().all(|a| {
                let Some(right) = a.child_by_field_name("right") else {
                    return false;
                };
                let op = a
                    .child_by_field_name("operator")
                    .map_or("", |o| self.syn.text(o));
                let power = || self.power_of_two_constant(right).is_some();
                match op {
                    "=" => keeps(right),
                    ">>=" => true,
                    "/=" => power(),
                    "<<=" => !ty.is_signed(),
                    "*=" => !ty.is_signed() && power(),
                    _ => false,
                }
            });
        self.inducting.borrow_mut().pop();
        if holds && var.init.is_none() {
            self.used_powers.borrow_mut().push(name.to_string());
        }
        holds.then_some(ty)
    }
}
