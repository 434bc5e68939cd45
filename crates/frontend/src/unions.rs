//! Unions: members that share storage (`union { struct { short lo, hi; };
//! unsigned int word; }`).
//!
//! A union is stored as a struct of its narrowest member scalar, repeated
//! over its size (two `short`s above): copying a union copies its bytes.
//! Each member is the same storage seen at its own type, through the
//! front end's memory views (`lower/view.rs`): `u.word` reads both shorts
//! composed little-endian, `u.lo` the first one. A union object therefore
//! lives in memory (a local one in local memory), and member access is an
//! access of the storage's slots in every engine.
//!
//! Invariants:
//! - Only unions whose every member is a gapless run of scalars whose
//!   sizes are multiples of the storage scalar's are collected; any other
//!   is refused with the reason (a member with padding, a pointer member).
//! - Members of anonymous struct and union members are the union's own, at
//!   their offsets.

use crate::items::{declared_name, Items};
use crate::syntax::{named_children, Syntax};
use crate::types::{CType, StructDef, UnionMember};
use tree_sitter::Node;

/// The storage and members of the union whose body is `body`.
pub fn collect<'t>(
    items: &mut Items<'t>,
    syn: &'t Syntax,
    body: Node<'t>,
) -> Result<(StructDef, Vec<UnionMember>), String> {
    let members = members(items, syn, body)?;
    let mut layouts = Vec::with_capacity(members.len());
    for (name, ty, _) in &members {
        let l = items
            .types
            .layout(ty)
            .ok_or_else(|| format!("a union member `{name}` of type `{}`", ty.describe()))?;
        let mut next = 0;
        for (o, t) in &l.slots {
            if *o != next {
                return Err(format!(
                    "a union member `{name}` with padding (`{}`)",
                    ty.describe()
                ));
            }
            next = o + t.size_bytes();
        }
        layouts.push(l);
    }
    // The storage scalar: the narrowest scalar of any member.
    let Some(slot) = layouts
        .iter()
        .flat_map(|l| l.slots.iter().map(|(_, t)| *t))
        .min_by_key(|t| t.size_bytes())
    else {
        return Err("a union without members".into());
    };
    let s = slot.size_bytes();
    let (mut size, mut align) = (0u64, 1u64);
    for ((name, ty, off), l) in members.iter().zip(&layouts) {
        if off % s != 0 || l.slots.iter().any(|(_, t)| t.size_bytes() % s != 0) {
            return Err(format!(
                "a union member `{name}` not made of whole {s}-byte units (`{}`)",
                ty.describe()
            ));
        }
        size = size.max(off + l.size);
        align = align.max(l.align);
    }
    let size = size.next_multiple_of(align);
    let fields = (0..size / s)
        .map(|i| (format!("<storage {i}>"), CType::Scalar(slot)))
        .collect();
    Ok((
        StructDef {
            fields,
            min_align: align,
        },
        members,
    ))
}

/// The members of a union body, anonymous members' members included.
fn members<'t>(
    items: &mut Items<'t>,
    syn: &'t Syntax,
    body: Node<'t>,
) -> Result<Vec<UnionMember>, String> {
    let mut out = Vec::new();
    for field in named_children(body) {
        if field.kind() != "field_declaration" {
            continue;
        }
        let Some(fty) = field.child_by_field_name("type") else {
            continue;
        };
        let declarators: Vec<Node<'t>> = field
            .children_by_field_name("declarator", &mut field.walk())
            .collect();
        let defines = matches!(
            fty.kind(),
            "struct_specifier" | "union_specifier" | "class_specifier"
        ) && fty.child_by_field_name("body").is_some();
        if defines {
            items.struct_def(syn, fty);
        }
        let base = items.type_cx(syn).base_type(fty).map_err(|e| {
            format!(
                "a union member of a type warpsafe cannot read ({})",
                e.message
            )
        })?;
        if declarators.is_empty() {
            // An anonymous struct or union: its members are the union's.
            match &base {
                CType::Struct(inner) => {
                    if let Some(m) = items.types.unions.get(inner) {
                        out.extend(m.iter().cloned());
                    } else if let (Some(fields), Some(layout)) =
                        (items.types.fields(&base), items.types.layout(&base))
                    {
                        // `fields` counts slots; a member's offset is bytes.
                        for (name, ty, slot) in fields {
                            let byte = layout.slots.get(slot as usize).map_or(0, |(o, _)| *o);
                            out.push((name, ty, byte));
                        }
                    }
                }
                _ => return Err("an anonymous union member that is not a struct".into()),
            }
            continue;
        }
        for d in declarators {
            let cx = items.type_cx(syn);
            let declared = cx
                .declarator(base.clone(), d)
                .map_err(|e| format!("a union member warpsafe cannot read ({})", e.message))?;
            let name = declared_name(syn, d).unwrap_or_default();
            if matches!(declared.ty, CType::Pointer(_) | CType::FnPtr) {
                return Err(format!("a pointer member `{name}` in a union"));
            }
            out.push((name, declared.ty, 0));
        }
    }
    Ok(out)
}
