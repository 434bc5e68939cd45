//! The inputs of one exploration: grid and block dimensions, scalar
//! parameter values and the length and initial contents of global arrays,
//! from flags (`--param NAME=VALUE`, `--array NAME=LEN`, `--array
//! NAME=[v0,v1,...]`, parsed in `spec`) and from JSON (`--input FILE`,
//! parsed in `json`); numbers meet their types in `number`. Every
//! explorer's launch comes from here (`explore`, `run`, `check --confirm`,
//! `corpus`).
//!
//! Seed 000 explores one program on one concrete input; this module turns
//! what the user gave into that input, a [`Launch`] per kernel: the
//! lengths enable the interpreter's bounds checks on pointer parameters,
//! the contents become the initial values of the explorer's memory.
//!
//! Invariants:
//! - flags override the file, name by name (a `--param n` replaces the
//!   file's `n`, `--grid-dim` its `grid`);
//! - every input is checked against the kernels before anything runs
//!   ([`Inputs::validate`]): a name no kernel has, a value of the wrong kind
//!   (a float for an integer, an integer out of its type's range), an
//!   initial list whose length disagrees with the given length, or a
//!   length over [`MAX_ARRAY_ELEMENTS`] is an error, never silently
//!   ignored or wrapped;
//! - a length is in elements; an initial list holds every slot (an
//!   element of several scalars, such as `float4`, takes one value per
//!   scalar, in order).

pub mod json;
mod number;
mod spec;

pub use json::FileInputs;
pub use number::Number;
pub use spec::{array_flag, param_flag, ArraySpec};

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use thiserror::Error;
use warpsafe_interp::{Launch, Value};
use warpsafe_ir::{Array, ArrayOrigin, Kernel, VarKind};

/// The longest array `--array` accepts, in elements: far beyond what a
/// grid small enough to explore can touch, and small enough that slot
/// counts cannot overflow.
pub const MAX_ARRAY_ELEMENTS: u64 = 1 << 32;

/// Why the inputs do not fit the kernels, or a launch cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct InputError(pub String);

/// `Err(InputError(format!(...)))`.
macro_rules! fail {
    ($($arg:tt)*) => {
        return Err(InputError(format!($($arg)*)))
    };
}

/// Every input of a run, flags and file merged.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    pub grid: Option<[u64; 3]>,
    pub block: Option<[u64; 3]>,
    pub params: BTreeMap<String, Number>,
    pub arrays: BTreeMap<String, ArraySpec>,
    /// The parameters given by `--param`, which accepts an integer in
    /// either signedness's range (C's conversion); the file's values must
    /// fit their type.
    flag_params: BTreeSet<String>,
    /// The `--input` file, for messages.
    file: Option<PathBuf>,
}

impl Inputs {
    /// Scalar parameters only (the form corpus headers give).
    pub fn from_params(params: &[(String, i128)]) -> Inputs {
        Inputs {
            params: params
                .iter()
                .map(|(n, v)| (n.clone(), Number::Int(*v)))
                .collect(),
            flag_params: params.iter().map(|(n, _)| n.clone()).collect(),
            ..Inputs::default()
        }
    }

    /// The inputs of an input file (if any: its path and what it gives)
    /// overridden by the flags.
    pub fn gather(
        file: Option<(&Path, FileInputs)>,
        params: &[(String, Number)],
        arrays: &[(String, ArraySpec)],
    ) -> Inputs {
        let mut inputs = match file {
            Some((path, f)) => Inputs {
                grid: f.grid,
                block: f.block,
                params: f.params,
                arrays: f.arrays,
                flag_params: BTreeSet::new(),
                file: Some(path.to_path_buf()),
            },
            None => Inputs::default(),
        };
        for (name, v) in params {
            inputs.params.insert(name.clone(), *v);
            inputs.flag_params.insert(name.clone());
        }
        for (name, spec) in arrays {
            inputs.arrays.insert(name.clone(), spec.clone());
        }
        inputs
    }

    /// Where an input came from, for messages.
    fn origin(&self, flag: &str) -> String {
        match &self.file {
            Some(f) => format!("{flag} or `{}`", f.display()),
            None => flag.to_string(),
        }
    }

    /// Checks every input against `kernels` (see the module docs): each
    /// name must belong to some kernel, as the right kind of thing, with a
    /// value its type can hold.
    pub fn validate(&self, kernels: &[Kernel]) -> Result<(), InputError> {
        for (name, v) in &self.params {
            let mut found = false;
            for k in kernels {
                if let Some(var) = param_var(k, name) {
                    found = true;
                    v.to_value(var.ty, self.flag_params.contains(name))
                        .map_err(|e| {
                            InputError(format!(
                                "kernel `{}`: parameter `{name}` ({}): {e}",
                                k.name,
                                self.origin("--param")
                            ))
                        })?;
                }
            }
            if !found {
                if kernels.iter().any(|k| input_array(k, name).is_some()) {
                    fail!(
                        "`{name}` is an array, not a scalar parameter; give it with --array {name}=LEN or --array {name}=[v0,...]"
                    );
                }
                fail!(
                    "no kernel has a scalar parameter `{name}` ({}); {}",
                    self.origin("--param"),
                    known_params(kernels)
                );
            }
        }
        for (name, spec) in &self.arrays {
            let mut found = false;
            for k in kernels {
                if let Some(a) = k.arrays.iter().find(|a| a.name == *name) {
                    found = true;
                    resolve_array(a, spec).map_err(|e| {
                        InputError(format!(
                            "kernel `{}`: array `{name}` ({}): {e}",
                            k.name,
                            self.origin("--array")
                        ))
                    })?;
                }
            }
            if !found {
                if kernels.iter().any(|k| param_var(k, name).is_some()) {
                    fail!("`{name}` is a scalar parameter, not an array; give it with --param {name}=VALUE");
                }
                fail!(
                    "no kernel has an array `{name}` ({}); {}",
                    self.origin("--array"),
                    known_arrays(kernels)
                );
            }
        }
        Ok(())
    }

    /// The concrete launch of `k`: dimensions from the kernel (flags, the
    /// file's `grid`/`block`, or the source's launch), parameter values,
    /// array lengths and initial contents.
    pub fn launch(&self, k: &Kernel) -> Result<Launch, InputError> {
        let (Some(grid), Some(block)) = (k.launch.grid, k.launch.block) else {
            fail!(
                "kernel `{}`: running it needs concrete dimensions; pass --grid-dim and --block-dim",
                k.name
            );
        };
        self.launch_with(k, grid, block)
    }

    /// The launch of `k` on `grid` x `block` with these inputs.
    pub fn launch_with(
        &self,
        k: &Kernel,
        grid: [u64; 3],
        block: [u64; 3],
    ) -> Result<Launch, InputError> {
        let dim = |what: &str, d: [u64; 3]| -> Result<[u32; 3], InputError> {
            let mut out = [0u32; 3];
            for (o, x) in out.iter_mut().zip(d) {
                *o = u32::try_from(x).map_err(|_| {
                    InputError(format!(
                        "kernel `{}`: {what} dimension {x} is too large (at most {})",
                        k.name,
                        u32::MAX
                    ))
                })?;
            }
            Ok(out)
        };
        let mut launch = Launch::new(dim("grid", grid)?, dim("block", block)?);
        if let Some(bytes) = k.launch.dynamic_shared {
            launch = launch.with_dynamic_shared_bytes(bytes);
        }
        for v in k.vars.iter().filter(|v| v.kind == VarKind::Param) {
            let Some(value) = self.params.get(&v.name) else {
                fail!(
                    "kernel `{}`: running it needs a value for the parameter `{}` (--param {}=VALUE)",
                    k.name,
                    v.name,
                    v.name
                );
            };
            let value = value
                .to_value(v.ty, self.flag_params.contains(&v.name))
                .map_err(|e| {
                    InputError(format!("kernel `{}`: parameter `{}`: {e}", k.name, v.name))
                })?;
            launch = launch.with_param(v.id, value);
        }
        for (name, spec) in &self.arrays {
            let Some(a) = k.arrays.iter().find(|a| a.name == *name) else {
                continue;
            };
            let r = resolve_array(a, spec)
                .map_err(|e| InputError(format!("kernel `{}`: array `{name}`: {e}", k.name)))?;
            if let Some(len) = r.len_slots.filter(|_| a.len_slots().is_none()) {
                launch = launch.with_array_len(a.id, len);
            }
            if let Some(init) = r.init {
                launch = launch.with_array_init(a.id, init);
            }
        }
        Ok(launch)
    }
}

/// The arrays `k` accesses whose length `launch` leaves unknown (accesses
/// to them are not bounds-checked), and notes that say so: one for those
/// `--array` can size, one per `extern __shared__` array without dynamic
/// shared memory.
pub fn unchecked_arrays(k: &Kernel, launch: &Launch) -> (Vec<String>, Vec<String>) {
    let mut notes = Vec::new();
    let mut used = BTreeSet::new();
    k.walk(&mut |s| {
        if let Some(m) = s.mem() {
            used.insert(m.array);
        }
    });
    let unchecked: Vec<&Array> = k
        .arrays
        .iter()
        .filter(|a| used.contains(&a.id) && launch.array_len(a).is_none())
        .collect();
    let sizable: Vec<&str> = unchecked
        .iter()
        .filter(|a| takes_input(a))
        .map(|a| a.name.as_str())
        .collect();
    match sizable.as_slice() {
        [] => {}
        [a] => notes.push(format!(
            "array `{a}` has no length: accesses to it are not bounds-checked; pass --array {a}=LEN"
        )),
        many => notes.push(format!(
            "arrays {} have no length: accesses to them are not bounds-checked; pass --array NAME=LEN for each",
            many.iter()
                .map(|a| format!("`{a}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
    for a in unchecked.iter().filter(|a| !takes_input(a)) {
        let why = if a.origin == ArrayOrigin::DynamicShared {
            "extern __shared__ array `{}` has no size (the launch gives no dynamic shared memory)"
        } else {
            "array `{}` has no size"
        };
        notes.push(format!(
            "{}: accesses to it are not bounds-checked",
            why.replace("{}", &a.name)
        ));
    }
    (unchecked.iter().map(|a| a.name.clone()).collect(), notes)
}

/// A scalar parameter of `k` named `name`.
fn param_var<'k>(k: &'k Kernel, name: &str) -> Option<&'k warpsafe_ir::Var> {
    k.vars
        .iter()
        .find(|v| v.kind == VarKind::Param && v.name == name)
}

/// An array of `k` named `name` that `--array` can describe.
fn input_array<'k>(k: &'k Kernel, name: &str) -> Option<&'k Array> {
    k.arrays.iter().find(|a| a.name == name && takes_input(a))
}

/// Whether the host can give the array's length or contents: pointer
/// parameters, `__device__`/`__constant__` variables and the objects
/// pointers in host memory point to.
fn takes_input(a: &Array) -> bool {
    matches!(
        a.origin,
        ArrayOrigin::Param
            | ArrayOrigin::DeviceGlobal
            | ArrayOrigin::Constant
            | ArrayOrigin::Pointee
    )
}

fn known_params(kernels: &[Kernel]) -> String {
    let names: Vec<String> = kernels
        .iter()
        .flat_map(|k| k.vars.iter().filter(|v| v.kind == VarKind::Param))
        .map(|v| format!("`{}`", v.name))
        .collect();
    if names.is_empty() {
        "the kernels have none".into()
    } else {
        format!("the kernels have {}", names.join(", "))
    }
}

fn known_arrays(kernels: &[Kernel]) -> String {
    let names: Vec<String> = kernels
        .iter()
        .flat_map(|k| k.arrays.iter().filter(|a| takes_input(a)))
        .map(|a| format!("`{}`", a.name))
        .collect();
    if names.is_empty() {
        "the kernels have no pointer parameter or global array".into()
    } else {
        format!("the kernels have {}", names.join(", "))
    }
}

/// An array input checked against its array.
struct Resolved {
    len_slots: Option<u64>,
    init: Option<Vec<Value>>,
}

/// Checks `spec` against `a` and converts it (see the module docs).
fn resolve_array(a: &Array, spec: &ArraySpec) -> Result<Resolved, String> {
    if !takes_input(a) {
        return Err(format!(
            "only pointer parameters and __device__/__constant__ arrays take inputs; this one is {} memory",
            a.space.name()
        ));
    }
    if a.slots.is_empty() {
        return Err(format!("its element type `{}` has no scalar slots", a.elem));
    }
    let per = a.slots.len() as u64;
    let len = match (spec.len, &spec.init) {
        (Some(n), Some(init)) if init.len() as u64 != n.saturating_mul(per) => {
            let slots = if per == 1 {
                String::new()
            } else {
                format!(" ({} slots)", n.saturating_mul(per))
            };
            return Err(format!(
                "the length is {n} element(s){slots} but the initial list has {} value(s)",
                init.len()
            ));
        }
        (Some(n), _) => n,
        (None, Some(init)) => {
            if !(init.len() as u64).is_multiple_of(per) {
                return Err(format!(
                    "its elements (`{}`) have {per} slots each, but the initial list has {} value(s)",
                    a.elem,
                    init.len()
                ));
            }
            init.len() as u64 / per
        }
        (None, None) => return Err("give a length or an initial list".into()),
    };
    if len > MAX_ARRAY_ELEMENTS {
        return Err(format!(
            "{len} elements is too large (at most {MAX_ARRAY_ELEMENTS})"
        ));
    }
    let len_slots = len * per;
    if let Some(fixed) = a.len_slots() {
        if fixed != len_slots {
            return Err(format!(
                "it is declared with {} element(s), not {len}",
                fixed / per
            ));
        }
    }
    let init = match &spec.init {
        None => None,
        Some(values) => Some(
            values
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let ty = a.slots[i % a.slots.len()];
                    v.to_value(ty, false)
                        .map_err(|e| format!("initial value {i}: {e}"))
                })
                .collect::<Result<Vec<_>, _>>()?,
        ),
    };
    Ok(Resolved {
        len_slots: Some(len_slots),
        init,
    })
}
