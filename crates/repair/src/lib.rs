//! Race repair as edits of CUDA source text (seed 000 §4.1
//! CHECKANDREPAIRRACE and §5.3, Table 4): a heterogeneous race becomes a
//! scope change, an atomic/non-atomic race an atomic access.
//!
//! The model checker finds a racy pair and says, for each side, what to
//! do ([`Fix`]): make a plain read or write atomic at a scope that includes
//! both threads, or widen an atomic's scope to it. This crate turns fixes
//! into text edits at the accesses' byte spans:
//!
//! - a plain write `x[i] = v` becomes `atomicExch(&x[i], v)` (device
//!   scope; `atomicExch_block` for block scope), a relaxed atomic
//!   exchange whose result is dropped;
//! - a plain read `x[i]` becomes `atomicAdd(&x[i], 0)` (`-0.0f` for
//!   floats, which leaves every value, `-0.0` included, unchanged): CUDA's
//!   idiom for an atomic read, a relaxed RMW that writes the value back;
//! - reads inside a fixed write (in `x[i]` or `v`) are rewritten inside;
//! - a scoped intrinsic changes its name (`atomicAdd_block` → `atomicAdd`),
//!   a `cuda::thread_scope_*` inside the access changes, and for
//!   `a.store(...)` on a `cuda::atomic_ref`/`cuda::atomic` variable the
//!   scope of `a`'s declaration changes (so every use of `a` widens).
//!
//! (A `cuda::atomic_ref<T, S>(x).load(...)` temporary would be a true
//! relaxed load, but warpsafe's front end lowers `atomic_ref` only as a
//! named variable, and the repaired program must be explored again.)
//!
//! What cannot be rewritten is left as it is, with the reason
//! ([`Skipped`]): an access whose text is not a plain lvalue or assignment
//! (a macro invocation, a compound assignment, `memcpy`), an atomic whose
//! scope is not written at the access or at a declaration found before it,
//! a type CUDA has no such intrinsic for (`atomicExch` of `double`,
//! 8-bit slots, ...), and edits that overlap without nesting.
//!
//! Invariants: edits never overlap in the output (nested ones are applied
//! inside their parent); text outside edited ranges is copied byte for
//! byte; scopes only widen. The crate does no I/O.

mod render;
mod scan;

use warpsafe_ir::{ScalarTy, Scope};

/// What to do at one access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// A plain read of a slot of `ty`: make it an atomic read at `scope`.
    AtomicLoad { ty: ScalarTy, scope: Scope },
    /// A plain write (`lhs = rhs`): an atomic exchange.
    AtomicStore { ty: ScalarTy, scope: Scope },
    /// An atomic: widen its scope to `scope`.
    Widen { scope: Scope },
}

/// A fix at the access spanning bytes `lo..hi` of the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fix {
    pub lo: u32,
    pub hi: u32,
    pub action: Action,
}

/// A fix that was not applied, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    pub fix: Fix,
    pub reason: String,
}

/// The repaired text and what happened to each fix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repaired {
    pub text: String,
    /// Fixes applied (duplicates merged: one per access).
    pub applied: Vec<Fix>,
    pub skipped: Vec<Skipped>,
}

/// Applies `fixes` to `text` (see the crate docs).
pub fn repair(text: &str, fixes: &[Fix]) -> Repaired {
    let mut edits = Vec::new();
    let mut applied = Vec::new();
    let mut skipped = Vec::new();
    let mut fixes: Vec<Fix> = fixes.to_vec();
    fixes.sort_by_key(|f| (f.lo, f.hi));
    fixes.dedup();
    for fix in fixes {
        match scan::edit_for(text, fix) {
            Ok(e) => {
                edits.push(e);
                applied.push(fix);
            }
            Err(reason) => skipped.push(Skipped { fix, reason }),
        }
    }
    let (out, overlapping) = render::apply(text, edits);
    for fix in overlapping {
        applied.retain(|f| *f != fix);
        skipped.push(Skipped {
            fix,
            reason: "its text overlaps another fix without containing it".into(),
        });
    }
    Repaired {
        text: out,
        applied,
        skipped,
    }
}

/// The zero `atomicAdd` adds to read a slot of `ty` (CUDA has an
/// `atomicAdd` for these types only).
fn add_zero(ty: ScalarTy) -> Option<&'static str> {
    Some(match ty {
        ScalarTy::I32 => "0",
        ScalarTy::U32 => "0u",
        ScalarTy::U64 => "0ull",
        ScalarTy::F32 => "-0.0f",
        ScalarTy::F64 => "-0.0",
        _ => return None,
    })
}

/// Whether CUDA has an `atomicExch` for slots of `ty`.
fn has_exch(ty: ScalarTy) -> bool {
    matches!(
        ty,
        ScalarTy::I32 | ScalarTy::U32 | ScalarTy::U64 | ScalarTy::F32
    )
}

/// `block`, `device`, ... as in `cuda::thread_scope_*`.
fn scope_name(scope: Scope) -> &'static str {
    match scope {
        Scope::Thread => "thread",
        Scope::Block => "block",
        Scope::Cluster => "cluster",
        Scope::Device => "device",
        Scope::System => "system",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fix_at(text: &str, needle: &str, action: Action) -> Fix {
        let lo = text.find(needle).expect("needle in text") as u32;
        Fix {
            lo,
            hi: lo + needle.len() as u32,
            action,
        }
    }

    const DEV: Scope = Scope::Device;

    #[test]
    fn a_plain_write_and_the_read_inside_it_become_atomics() {
        let text = "__global__ void k(int *c, float *f) {\n  c[0] = c[0] + 1;\n  f[1] = 2;\n}\n";
        let int = ScalarTy::I32;
        let store = fix_at(
            text,
            "c[0] = c[0] + 1",
            Action::AtomicStore {
                ty: int,
                scope: DEV,
            },
        );
        let mut load = fix_at(
            text,
            "c[0] + 1",
            Action::AtomicLoad {
                ty: int,
                scope: DEV,
            },
        );
        load.hi = load.lo + 4;
        let float = Action::AtomicStore {
            ty: ScalarTy::F32,
            scope: Scope::Block,
        };
        let r = repair(text, &[store, load, fix_at(text, "f[1] = 2", float)]);
        assert!(r.skipped.is_empty(), "{:?}", r.skipped);
        assert_eq!(
            r.text,
            "__global__ void k(int *c, float *f) {\n  \
             atomicExch(&c[0], atomicAdd(&c[0], 0) + 1);\n  \
             atomicExch_block(&f[1], 2);\n}\n"
        );
    }

    #[test]
    fn scopes_widen_at_intrinsics_and_declarations() {
        let text = "#include <cuda/atomic>\n__global__ void k(int *x, int *f) {\n  \
                    cuda::atomic_ref<int, cuda::thread_scope_block> a(*f), b(*x);\n  \
                    atomicAdd_block(&x[1], 1);\n  a.store(1, cuda::memory_order_release);\n}\n";
        let r = repair(
            text,
            &[
                fix_at(
                    text,
                    "atomicAdd_block(&x[1], 1)",
                    Action::Widen { scope: DEV },
                ),
                fix_at(
                    text,
                    "a.store(1, cuda::memory_order_release)",
                    Action::Widen { scope: DEV },
                ),
            ],
        );
        assert!(r.skipped.is_empty(), "{:?}", r.skipped);
        assert!(r.text.contains("cuda::thread_scope_device> a(*f), b(*x);"));
        assert!(r.text.contains("  atomicAdd(&x[1], 1);"));
        // Block scope from the system variant would narrow it: left alone.
        let text = "__global__ void k(int *x) { atomicAdd_system(&x[1], 1); }";
        let r = repair(
            text,
            &[fix_at(
                text,
                "atomicAdd_system(&x[1], 1)",
                Action::Widen {
                    scope: Scope::Block,
                },
            )],
        );
        assert_eq!(r.text, text);
    }

    #[test]
    fn what_is_not_an_access_expression_is_left_with_a_reason() {
        let text = "#define SET(p) p[0] = 1\n__global__ void k(int *x) { SET(x); x[1] += 2; }";
        let st = Action::AtomicStore {
            ty: ScalarTy::I32,
            scope: DEV,
        };
        let r = repair(
            text,
            &[fix_at(text, "SET(x)", st), fix_at(text, "x[1] += 2", st)],
        );
        assert_eq!(r.text, text);
        assert_eq!(r.skipped.len(), 2);
        assert!(r.applied.is_empty());
    }
}
