//! C/CUDA types as the front end sees them, before flattening to IR slots.
//!
//! Invariant: `slots(ty)` is the exact list of scalar slots an object of
//! `ty` occupies in memory; pointers, groups and atomic references have no
//! slots (they cannot be stored in memory in the supported subset).

use crate::decl::TemplateEnv;
use crate::member_types::TemplateArg;
use crate::wmma_types::FragmentShape;
use std::cell::RefCell;
use std::collections::HashMap;
use warpsafe_ir::{ScalarTy, Scope};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GroupKind {
    Block,
    Grid,
    /// `thread_block_tile<N>`.
    Tile(u32),
    /// `coalesced_group` (`coalesced_threads()`): the threads of the warp
    /// active at the call, whose number and ranks depend on divergence.
    Coalesced,
    /// `thread_group`, the type of any group: a variable or parameter of
    /// it holds the group it is initialised with or passed (groups are
    /// values the front end knows at each use), so no value has this kind.
    Any,
}

#[derive(Clone, Debug, PartialEq)]
pub enum CType {
    Void,
    Scalar(ScalarTy),
    /// Built-in vector types (`float4`, `int2`, `dim3`...): `n` lanes.
    Vector(ScalarTy, u8, String),
    Struct(String),
    Pointer(Box<CType>),
    /// A C array; `None` for `[]`.
    Array(Box<CType>, Option<u64>),
    /// `cuda::atomic<T, scope>` / `cuda::std::atomic<T>`.
    Atomic(ScalarTy, Scope),
    /// `cuda::atomic_ref<T, scope>`.
    AtomicRef(ScalarTy, Scope),
    Group(GroupKind),
    /// A pointer to a function; its value is a function id (`u32`, 0 = null).
    FnPtr,
}

/// A struct or class: its fields in layout order (base classes first).
#[derive(Clone, Debug, Default)]
pub struct StructDef {
    pub fields: Vec<(String, CType)>,
    /// At least this alignment (a union's, whose storage fields are of its
    /// narrowest member scalar).
    pub min_align: u64,
}

/// A member of a union: its name, type and byte offset in the union (0,
/// or the offset in an anonymous struct member).
pub type UnionMember = (String, CType, u64);

/// Named types of the translation unit.
#[derive(Clone, Debug, Default)]
pub struct TypeTable {
    pub structs: HashMap<String, StructDef>,
    pub typedefs: HashMap<String, CType>,
    /// Classes whose layout warpsafe cannot model (unions, bit-fields,
    /// ambiguous names), with the reason: using one is an error.
    pub rejected: HashMap<String, String>,
    /// The members of each union (whose `structs` entry is its storage).
    pub unions: HashMap<String, Vec<UnionMember>>,
    /// Instances of the file's class templates (`Acc<float>`), made when a
    /// type names one (see `class_instance`): a cache, so interior-mutable.
    pub instances: RefCell<HashMap<String, ClassInstance>>,
    /// Warp matrix fragment types in use (`wmma_types`): their one-field
    /// layout and the tile they hold.
    pub fragments: RefCell<HashMap<String, (StructDef, FragmentShape)>>,
}

/// An instance of a class template of the file: the template's body with
/// its parameters bound.
#[derive(Clone, Debug)]
pub struct ClassInstance {
    pub def: StructDef,
    /// The template's name (`Acc` for `Acc<float>`).
    pub class: String,
    /// The index in `Items::class_types` of the body it was made from (the
    /// primary template or an explicit specialisation).
    pub body: usize,
    /// The template parameters' values in the body (with the class's own
    /// name bound to the instance, as C++'s injected class name).
    pub env: TemplateEnv,
    /// The template arguments, defaults filled in.
    pub args: Vec<TemplateArg>,
}

impl CType {
    pub fn scalar(&self) -> Option<ScalarTy> {
        match self {
            CType::Scalar(t) => Some(*t),
            _ => None,
        }
    }

    pub fn is_aggregate(&self) -> bool {
        matches!(self, CType::Vector(..) | CType::Struct(_))
    }

    /// The C spelling, for messages and the IR's element descriptions.
    pub fn describe(&self) -> String {
        match self {
            CType::Void => "void".into(),
            CType::Scalar(t) => c_name(*t).into(),
            CType::Vector(_, _, name) => name.clone(),
            CType::Struct(n) if n.starts_with("<anonymous") => "an anonymous struct".into(),
            CType::Struct(n) => format!("struct {n}"),
            CType::Pointer(t) => format!("{}*", t.describe()),
            CType::Array(t, Some(n)) => format!("{}[{}]", t.describe(), n),
            CType::Array(t, None) => format!("{}[]", t.describe()),
            CType::Atomic(t, s) => format!("cuda::atomic<{}, {}>", c_name(*t), s.name()),
            CType::AtomicRef(t, s) => format!("cuda::atomic_ref<{}, {}>", c_name(*t), s.name()),
            CType::Group(GroupKind::Block) => "thread_block".into(),
            CType::Group(GroupKind::Grid) => "grid_group".into(),
            CType::Group(GroupKind::Tile(n)) => format!("thread_block_tile<{n}>"),
            CType::Group(GroupKind::Coalesced) => "coalesced_group".into(),
            CType::Group(GroupKind::Any) => "thread_group".into(),
            CType::FnPtr => "function pointer".into(),
        }
    }
}

pub fn c_name(t: ScalarTy) -> &'static str {
    match t {
        ScalarTy::Bool => "bool",
        ScalarTy::I8 => "char",
        ScalarTy::U8 => "unsigned char",
        ScalarTy::I16 => "short",
        ScalarTy::U16 => "unsigned short",
        ScalarTy::I32 => "int",
        ScalarTy::U32 => "unsigned int",
        ScalarTy::I64 => "long",
        ScalarTy::U64 => "unsigned long",
        ScalarTy::F16 => "half",
        ScalarTy::Bf16 => "__nv_bfloat16",
        ScalarTy::F32 => "float",
        ScalarTy::F64 => "double",
    }
}

impl TypeTable {
    /// Runs `f` on the definition of struct `name` (a class of the file or
    /// an instance of a class template), if there is one.
    pub fn with_struct<R>(&self, name: &str, f: impl FnOnce(&StructDef) -> R) -> Option<R> {
        if let Some(d) = self.structs.get(name) {
            return Some(f(d));
        }
        if let Some(i) = self.instances.borrow().get(name) {
            return Some(f(&i.def));
        }
        self.fragments.borrow().get(name).map(|(d, _)| f(d))
    }

    /// The tile a warp matrix fragment type holds, if `ty` is one.
    pub fn fragment(&self, ty: &CType) -> Option<FragmentShape> {
        let CType::Struct(name) = ty else { return None };
        self.fragments.borrow().get(name).map(|(_, s)| s.clone())
    }

    /// Whether `name` is a struct or class (instances included).
    pub fn is_struct(&self, name: &str) -> bool {
        self.structs.contains_key(name)
            || self.instances.borrow().contains_key(name)
            || self.fragments.borrow().contains_key(name)
    }

    /// The class template instance named `name`, if it is one.
    pub fn instance(&self, name: &str) -> Option<ClassInstance> {
        self.instances.borrow().get(name).cloned()
    }

    /// Scalar slots of an object of type `ty`, or `None` when it cannot live
    /// in memory (pointers, groups, unknown structs, unsized arrays).
    pub fn slots(&self, ty: &CType) -> Option<Vec<ScalarTy>> {
        self.slots_depth(ty, 0)
    }

    fn slots_depth(&self, ty: &CType, depth: u32) -> Option<Vec<ScalarTy>> {
        if depth > 32 {
            return None;
        }
        match ty {
            CType::Scalar(t) | CType::Atomic(t, _) => Some(vec![*t]),
            CType::FnPtr => Some(vec![ScalarTy::U32]),
            // A pointer in memory (see the front end's mem_pointer.rs).
            CType::Pointer(_) => Some(vec![ScalarTy::U64]),
            CType::Vector(t, n, _) => Some(vec![*t; *n as usize]),
            CType::Struct(name) => self.with_struct(name, |def| {
                let mut out = Vec::new();
                for (_, f) in &def.fields {
                    out.extend(self.slots_depth(f, depth + 1)?);
                }
                Some(out)
            })?,
            CType::Array(t, Some(n)) => {
                let inner = self.slots_depth(t, depth + 1)?;
                let n = usize::try_from(*n).ok()?;
                if inner.len().checked_mul(n)? > 1 << 24 {
                    return None;
                }
                Some(inner.repeat(n))
            }
            _ => None,
        }
    }

    /// The C layout of an object of type `ty`: its size and alignment in
    /// bytes (with C's padding) and the byte offset of each slot. `None` as
    /// for [`Self::slots`].
    pub fn layout(&self, ty: &CType) -> Option<Layout> {
        self.layout_depth(ty, 0)
    }

    fn layout_depth(&self, ty: &CType, depth: u32) -> Option<Layout> {
        if depth > 32 {
            return None;
        }
        match ty {
            CType::Scalar(t) | CType::Atomic(t, _) => {
                let size = t.size_bytes();
                Some(Layout {
                    size,
                    align: size,
                    slots: vec![(0, *t)],
                })
            }
            CType::FnPtr => Some(Layout {
                size: 8,
                align: 8,
                slots: vec![(0, ScalarTy::U32)],
            }),
            CType::Vector(t, n, _) => {
                let size = t.size_bytes();
                // CUDA aligns 2- and 4-lane vectors to their whole size.
                let align = if matches!(n, 2 | 4) {
                    size * u64::from(*n)
                } else {
                    size
                };
                let slots = (0..u64::from(*n)).map(|i| (i * size, *t)).collect();
                Some(
                    Layout {
                        size: size * u64::from(*n),
                        align,
                        slots,
                    }
                    .padded(),
                )
            }
            CType::Struct(name) => self.with_struct(name, |def| {
                let mut out = Layout {
                    size: 0,
                    align: def.min_align.max(1),
                    slots: Vec::new(),
                };
                for (_, f) in &def.fields {
                    let l = self.layout_depth(f, depth + 1)?;
                    let off = out.size.next_multiple_of(l.align);
                    out.slots.extend(l.slots.iter().map(|(o, t)| (off + o, *t)));
                    out.size = off + l.size;
                    out.align = out.align.max(l.align);
                }
                Some(out.padded())
            })?,
            CType::Array(t, Some(n)) => {
                let l = self.layout_depth(t, depth + 1)?;
                if (l.slots.len() as u64).checked_mul(*n)? > 1 << 24 {
                    return None;
                }
                let slots = (0..*n)
                    .flat_map(|i| l.slots.iter().map(move |(o, t)| (i * l.size + o, *t)))
                    .collect();
                Some(Layout {
                    size: l.size.checked_mul(*n)?,
                    align: l.align,
                    slots,
                })
            }
            _ => None,
        }
    }

    /// Number of slots (for index arithmetic); `None` as for [`Self::slots`].
    pub fn slot_count(&self, ty: &CType) -> Option<u64> {
        self.slots(ty).map(|s| s.len() as u64)
    }

    /// Fields of an aggregate with their slot offset.
    pub fn fields(&self, ty: &CType) -> Option<Vec<(String, CType, u64)>> {
        let list: Vec<(String, CType)> = match ty {
            CType::Vector(t, n, _) => ["x", "y", "z", "w"]
                .iter()
                .take(*n as usize)
                .map(|f| (f.to_string(), CType::Scalar(*t)))
                .collect(),
            CType::Struct(name) => self.with_struct(name, |d| d.fields.clone())?,
            _ => return None,
        };
        let mut off = 0;
        let mut out = Vec::new();
        for (name, fty) in list {
            let n = self.slot_count(&fty).unwrap_or(0);
            out.push((name, fty, off));
            off += n;
        }
        Some(out)
    }
}

/// Where the scalar slots of an object lie in memory, as C lays it out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// `sizeof`, padding included.
    pub size: u64,
    pub align: u64,
    /// Byte offset and type of each slot, in slot order.
    pub slots: Vec<(u64, ScalarTy)>,
}

impl Layout {
    fn padded(mut self) -> Layout {
        self.size = self.size.next_multiple_of(self.align.max(1));
        self
    }
}

/// Built-in vector types: `float4` is four `f32` lanes, `dim3` three `u32`.
pub fn vector_type(name: &str) -> Option<CType> {
    if name == "dim3" {
        return Some(CType::Vector(ScalarTy::U32, 3, "dim3".into()));
    }
    // The lane count is the last character, an ASCII digit.
    let n = u8::try_from(name.chars().last()?.to_digit(10)?).ok()?;
    let base = &name[..name.len() - 1];
    if !(1..=4).contains(&n) {
        return None;
    }
    let t = match base {
        "char" => ScalarTy::I8,
        "uchar" => ScalarTy::U8,
        "short" => ScalarTy::I16,
        "ushort" => ScalarTy::U16,
        "int" => ScalarTy::I32,
        "uint" => ScalarTy::U32,
        "long" | "longlong" => ScalarTy::I64,
        "ulong" | "ulonglong" => ScalarTy::U64,
        "float" => ScalarTy::F32,
        "double" => ScalarTy::F64,
        "half" | "__half" => ScalarTy::F16,
        _ => return None,
    };
    Some(CType::Vector(t, n, name.to_string()))
}

/// Scalar type names that need no declaration (C, CUDA and common typedefs).
pub fn named_scalar(name: &str) -> Option<ScalarTy> {
    Some(match name {
        "bool" | "_Bool" => ScalarTy::Bool,
        "char" | "signed char" | "int8_t" => ScalarTy::I8,
        "unsigned char" | "uchar" | "uint8_t" => ScalarTy::U8,
        "short" | "int16_t" => ScalarTy::I16,
        "unsigned short" | "ushort" | "uint16_t" => ScalarTy::U16,
        "int" | "signed" | "int32_t" => ScalarTy::I32,
        "unsigned" | "uint" | "uint32_t" | "unsigned int" => ScalarTy::U32,
        "long" | "long long" | "int64_t" | "ptrdiff_t" | "intptr_t" | "ssize_t" => ScalarTy::I64,
        "unsigned long" | "unsigned long long" | "ulong" | "uint64_t" | "size_t" | "uintptr_t" => {
            ScalarTy::U64
        }
        "float" => ScalarTy::F32,
        "double" => ScalarTy::F64,
        "half" | "__half" => ScalarTy::F16,
        "__nv_bfloat16" | "nv_bfloat16" => ScalarTy::Bf16,
        _ => return None,
    })
}

/// The C type of a `sized_type_specifier` such as `unsigned long long`.
pub fn sized_scalar(words: &[&str]) -> Option<ScalarTy> {
    let unsigned = words.contains(&"unsigned");
    let longs = words.iter().filter(|w| **w == "long").count();
    let base = if words.contains(&"char") {
        8
    } else if words.contains(&"short") {
        16
    } else if longs >= 1 {
        64
    } else if words.contains(&"double") {
        return Some(ScalarTy::F64);
    } else {
        32
    };
    Some(match (base, unsigned) {
        (8, false) => ScalarTy::I8,
        (8, true) => ScalarTy::U8,
        (16, false) => ScalarTy::I16,
        (16, true) => ScalarTy::U16,
        (32, false) => ScalarTy::I32,
        (32, true) => ScalarTy::U32,
        (_, false) => ScalarTy::I64,
        (_, true) => ScalarTy::U64,
    })
}

/// C's usual arithmetic conversions: the common type of two operands.
pub fn common_type(a: ScalarTy, b: ScalarTy) -> ScalarTy {
    use ScalarTy::*;
    if a == F64 || b == F64 {
        return F64;
    }
    if [a, b].iter().any(|t| matches!(t, F32 | F16 | Bf16)) {
        return F32;
    }
    let (a, b) = (promote(a), promote(b));
    if a == b {
        return a;
    }
    let rank = |t: ScalarTy| t.bits();
    match (a.is_signed(), b.is_signed()) {
        (true, true) | (false, false) => {
            if rank(a) >= rank(b) {
                a
            } else {
                b
            }
        }
        (s_a, _) => {
            let (s, u) = if s_a { (a, b) } else { (b, a) };
            if rank(u) >= rank(s) {
                u
            } else {
                s
            }
        }
    }
}

/// Integer promotion: types narrower than `int` become `int`.
pub fn promote(t: ScalarTy) -> ScalarTy {
    match t {
        ScalarTy::Bool | ScalarTy::I8 | ScalarTy::U8 | ScalarTy::I16 | ScalarTy::U16 => {
            ScalarTy::I32
        }
        ScalarTy::F16 | ScalarTy::Bf16 => ScalarTy::F32,
        t => t,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ScalarTy::*;

    #[test]
    fn usual_arithmetic_conversions() {
        assert_eq!(common_type(I32, U32), U32);
        assert_eq!(common_type(U8, I16), I32);
        assert_eq!(common_type(I64, U32), I64);
        assert_eq!(common_type(U64, I64), U64);
        assert_eq!(common_type(I32, F32), F32);
        assert_eq!(common_type(F32, F64), F64);
    }

    #[test]
    fn c_layout_pads_structs() {
        let mut t = TypeTable::default();
        let s = |fields: &[(&str, CType)]| StructDef {
            fields: fields
                .iter()
                .map(|(n, t)| (n.to_string(), t.clone()))
                .collect(),
            min_align: 0,
        };
        t.structs.insert(
            "A".into(),
            s(&[("x", CType::Scalar(I16)), ("y", CType::Scalar(I8))]),
        );
        t.structs.insert(
            "B".into(),
            s(&[
                ("c", CType::Scalar(I8)),
                ("d", CType::Scalar(F64)),
                ("e", CType::Scalar(I8)),
            ]),
        );
        let a = t.layout(&CType::Struct("A".into())).expect("layout");
        assert_eq!((a.size, a.align), (4, 2));
        assert_eq!(a.slots, vec![(0, I16), (2, I8)]);
        let b = t.layout(&CType::Struct("B".into())).expect("layout");
        assert_eq!((b.size, b.align), (24, 8));
        assert_eq!(b.slots, vec![(0, I8), (8, F64), (16, I8)]);
        let arr = t
            .layout(&CType::Array(Box::new(CType::Struct("A".into())), Some(2)))
            .expect("layout");
        assert_eq!(arr.size, 8);
        assert_eq!(arr.slots[2], (4, I16));
        let f4 = t
            .layout(&vector_type("float4").expect("float4"))
            .expect("layout");
        assert_eq!((f4.size, f4.align), (16, 16));
    }

    #[test]
    fn vector_names() {
        assert_eq!(
            vector_type("float4"),
            Some(CType::Vector(F32, 4, "float4".into()))
        );
        assert_eq!(
            vector_type("uint2"),
            Some(CType::Vector(U32, 2, "uint2".into()))
        );
        assert_eq!(vector_type("float5"), None);
        assert_eq!(vector_type("x"), None);
        // Found by fuzzing: a multi-byte last character.
        assert_eq!(vector_type("\u{556}"), None);
        assert_eq!(vector_type(""), None);
    }
}
