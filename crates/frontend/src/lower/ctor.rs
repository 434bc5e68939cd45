//! Initialisation of class objects declared in device code: default member
//! initialisers (`unsigned off = 1;`), constructors (overloads, member
//! initialiser lists, bodies, delegation) and their order, as C++ runs them.
//!
//! Invariants: a local of a class with a user-written constructor or default
//! member initialisers is never initialised as a plain aggregate; what is not
//! modelled (destructors with a body, base-class initialisers, arrays of such
//! classes, constructors warpsafe cannot see) is an error at the declaration.

use super::value::{Place, Value};
use super::{Lowerer, R};
use crate::items::FnItem;
use crate::syntax::named_children;
use crate::types::CType;
use tree_sitter::Node;
use warpsafe_source::Diagnostic;

impl<'t> Lowerer<'_, 't> {
    /// Whether objects of class `c` need more than aggregate initialisation.
    pub fn has_initialisation(&self, c: &str) -> bool {
        let Some(info) = self.class_info(c) else {
            return false;
        };
        if info.has_ctor || info.dtor.is_some() || !info.field_inits.is_empty() {
            return true;
        }
        self.items
            .types
            .fields(&CType::Struct(c.to_string()))
            .unwrap_or_default()
            .iter()
            .any(|(_, t, _)| matches!(t, CType::Struct(inner) if self.has_initialisation(inner)))
    }

    /// Whether default-initialising an object of class `c` does nothing: its
    /// default constructor has an empty body and no member initialisers,
    /// and no field has a default member initialiser or an initialisation
    /// of its own (`interval_gpu() {}`, so an array of them is left as is).
    fn default_init_is_empty(&self, c: &str) -> bool {
        let Some(info) = self.class_info(c) else {
            return false;
        };
        if info.dtor.is_some() || !info.field_inits.is_empty() {
            return false;
        }
        let ctors = self.class_methods(c, c);
        let Some(ctor) = ctors.iter().find(|f| self.arity(f).0 == 0) else {
            return false;
        };
        let empty_body = ctor
            .def
            .child_by_field_name("body")
            .is_some_and(|b| named_children(b).is_empty());
        let no_inits = !named_children(ctor.def)
            .iter()
            .any(|ch| ch.kind() == "field_initializer_list");
        let fields = self
            .items
            .types
            .fields(&CType::Struct(c.to_string()))
            .unwrap_or_default();
        empty_body
            && no_inits
            && fields.iter().all(|(_, t, _)| match t {
                CType::Struct(inner) => {
                    !self.has_initialisation(inner) || self.default_init_is_empty(inner)
                }
                _ => true,
            })
    }

    /// Initialises a local object of class `c` at `place` from the
    /// declaration's initialiser (`T x;`, `T x(a, b)`, `T x{a}`, `T x = T(a)`,
    /// `T x = other`).
    pub fn construct(
        &mut self,
        place: &Place,
        c: &str,
        init: Option<Node<'t>>,
        d: Node<'t>,
    ) -> R<()> {
        let info = self.class_info(c).unwrap_or_default();
        if let Some(dtor) = info.dtor {
            let empty = dtor
                .child_by_field_name("body")
                .is_some_and(|b| named_children(b).is_empty());
            if !empty {
                return Err(self
                    .unsupported(
                        d,
                        format!("an object of class `{c}`, whose destructor is not modelled"),
                    )
                    .with_label(self.span(dtor), "the destructor"));
            }
        }
        let args: Vec<Node<'t>> = match init {
            None => Vec::new(),
            Some(i) if matches!(i.kind(), "argument_list" | "initializer_list") => {
                named_children(i)
            }
            // A constructor call misparsed as a function declaration (see
            // `misparsed_ctor`): each parameter is a variable's name.
            Some(i) if i.kind() == "parameter_list" => named_children(i)
                .into_iter()
                .filter_map(|p| p.child_by_field_name("type"))
                .collect(),
            Some(i) if i.kind() == "call_expression" && self.calls_class(i, c) => i
                .child_by_field_name("arguments")
                .map(named_children)
                .unwrap_or_default(),
            // `T x = e;`: a converting constructor taking `e` when one is
            // viable, else copy initialisation from another object.
            Some(i) if info.has_ctor => {
                let ctors = self.class_methods(c, c);
                if let Some(ctor) = self.user_conversion(&ctors, i)? {
                    self.inline(&ctor, None, &[i], d, Some(place.clone()))?;
                    return Ok(());
                }
                let v = self.value(i)?;
                return self.write(place, v, i);
            }
            Some(i) => {
                let v = self.value(i)?;
                return self.write(place, v, i);
            }
        };
        if !info.has_ctor {
            let braced = init.is_some_and(|i| i.kind() == "initializer_list");
            return self.aggregate_init(place, c, &args, braced, d);
        }
        let ctors: Vec<FnItem<'t>> = self.class_methods(c, c);
        match self.resolve_overload(&ctors, None, &args, d)? {
            Some(ctor) => {
                self.inline(&ctor, None, &args, d, Some(place.clone()))?;
                Ok(())
            }
            None if args.len() == 1 => {
                // The implicit copy constructor.
                let v = self.value(args[0])?;
                match &v {
                    Value::Agg(CType::Struct(s), _) if s == c => self.write(place, v, d),
                    _ => Err(self.no_ctor(c, args.len(), d)),
                }
            }
            None => Err(self.no_ctor(c, args.len(), d)),
        }
    }

    /// The constructor that converts `arg` to the class (one parameter,
    /// viable for its type), unless `arg` already is an object of the class.
    fn user_conversion(&mut self, ctors: &[FnItem<'t>], arg: Node<'t>) -> R<Option<FnItem<'t>>> {
        let (_, v) = self.block(|s| s.value(arg))?;
        if matches!(v, Value::Agg(..)) {
            return Ok(None);
        }
        self.resolve_overload(ctors, None, &[arg], arg)
    }

    fn no_ctor(&self, c: &str, argc: usize, d: Node<'t>) -> Diagnostic {
        Diagnostic::error(
            "no-overload",
            format!(
                "no constructor of `{c}` that warpsafe can see accepts these {argc} argument(s)"
            ),
        )
        .at(self.span(d))
    }

    fn calls_class(&self, call: Node<'t>, c: &str) -> bool {
        call.child_by_field_name("function")
            .is_some_and(|f| self.text(f).trim() == c)
    }

    /// Aggregate initialisation of a class without constructors: the given
    /// values in field order, default member initialisers for the rest, and
    /// zero for the remaining fields of a braced list.
    fn aggregate_init(
        &mut self,
        place: &Place,
        c: &str,
        args: &[Node<'t>],
        braced: bool,
        d: Node<'t>,
    ) -> R<()> {
        let fields = self
            .items
            .types
            .fields(&CType::Struct(c.to_string()))
            .unwrap_or_default();
        for (i, (fname, fty, _)) in fields.iter().enumerate() {
            let fp = self.field(place.clone(), fname, d)?;
            match args.get(i) {
                Some(a) => self.init_place(&fp, fty, *a)?,
                None => self.default_member_init(&fp, c, fname, fty, braced, d)?,
            }
        }
        Ok(())
    }

    /// The initialisation of one field that no constructor initialiser names:
    /// its default member initialiser, else its own class's initialisation,
    /// else zero in a braced list (value-initialisation) or nothing.
    fn default_member_init(
        &mut self,
        fp: &Place,
        c: &str,
        fname: &str,
        fty: &CType,
        zero: bool,
        d: Node<'t>,
    ) -> R<()> {
        let default = self.class_info(c).and_then(|info| {
            info.field_inits
                .iter()
                .find(|(n, _)| n == fname)
                .map(|(_, v)| *v)
        });
        match (default, fty) {
            (Some(v), _) => {
                // The initialiser is in the class: its template arguments.
                let env = self.class_env(c).unwrap_or_else(|| self.tenv.clone());
                let saved = std::mem::replace(&mut self.tenv, env);
                let done = self.init_place(fp, fty, v);
                self.tenv = saved;
                done
            }
            (None, CType::Struct(inner)) if self.has_initialisation(inner) => {
                let inner = inner.clone();
                self.construct(fp, &inner, None, d)
            }
            (None, CType::Array(e, _)) if matches!(&**e, CType::Struct(s) if self.has_initialisation(s) && !self.default_init_is_empty(s)) => {
                Err(self.unsupported(
                    d,
                    "an array member of a class with constructors or default member initialisers",
                ))
            }
            (None, _) if zero => self.zero(fp, fty, d),
            _ => Ok(()),
        }
    }

    /// Before a constructor's body: its member initialiser list, then the
    /// default member initialisers of the fields it does not name, in field
    /// order (C++ initialises in declaration order), or the constructor it
    /// delegates to.
    pub fn ctor_prologue(&mut self, ctor: &FnItem<'t>, this: &Place, n: Node<'t>) -> R<()> {
        let Some(c) = ctor.owner.clone().filter(|o| *o == ctor.name) else {
            return Ok(());
        };
        let inits: Vec<Node<'t>> = named_children(ctor.def)
            .into_iter()
            .filter(|ch| ch.kind() == "field_initializer_list")
            .flat_map(named_children)
            .filter(|fi| fi.kind() == "field_initializer")
            .collect();
        let named = |s: &Self, fi: Node<'t>| -> Option<(String, Vec<Node<'t>>, Node<'t>)> {
            let parts = named_children(fi);
            let name = parts.first()?;
            let args = parts.get(1)?;
            let list = if matches!(args.kind(), "argument_list" | "initializer_list") {
                named_children(*args)
            } else {
                vec![*args]
            };
            Some((s.text(*name).to_string(), list, *args))
        };
        let mut given = Vec::new();
        for fi in &inits {
            let (name, args, whole) =
                named(self, *fi).ok_or_else(|| self.unsupported(*fi, "this member initialiser"))?;
            if name == c {
                // A delegating constructor: the target does all the
                // initialisation.
                let ctors: Vec<FnItem<'t>> = self.class_methods(&c, &c);
                let target = self
                    .resolve_overload(&ctors, None, &args, *fi)?
                    .ok_or_else(|| self.no_ctor(&c, args.len(), *fi))?;
                self.inline(&target, None, &args, n, Some(this.clone()))?;
                return Ok(());
            }
            given.push((name, args, whole, *fi));
        }
        let fields = self
            .items
            .types
            .fields(&CType::Struct(c.clone()))
            .unwrap_or_default();
        for (name, _, _, fi) in &given {
            if !fields.iter().any(|(f, _, _)| f == name) {
                return Err(self.unsupported(
                    *fi,
                    format!("the initialiser of `{name}`, which is not a field of `{c}` (base-class initialisers are not modelled)"),
                ));
            }
        }
        for (fname, fty, _) in &fields {
            let fp = self.field(this.clone(), fname, n)?;
            match given.iter().find(|(g, ..)| g == fname) {
                Some((_, args, whole, fi)) => match (fty, args.as_slice()) {
                    (CType::Struct(inner), _) if self.has_initialisation(inner) => {
                        let inner = inner.clone();
                        self.construct(&fp, &inner, Some(*whole), *fi)?
                    }
                    (_, []) => self.zero(&fp, fty, *fi)?,
                    (_, [one]) if whole.kind() != "initializer_list" => {
                        self.init_place(&fp, fty, *one)?
                    }
                    _ => self.init_place(&fp, fty, *whole)?,
                },
                None => self.default_member_init(&fp, &c, fname, fty, false, n)?,
            }
        }
        Ok(())
    }
}
