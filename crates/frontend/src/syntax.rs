//! Parsing preprocessed CUDA with the tree-sitter-cuda grammar, and mapping
//! syntax nodes back to original source spans.
//!
//! Invariant: every span handed out is a span of an original file (through
//! the preprocessor's line map), never of the preprocessed text.

use tree_sitter::{Node, Parser, Tree};
use warpsafe_preproc::LineMap;
use warpsafe_source::{Diagnostic, Span};

/// The parsed translation unit.
pub struct Syntax {
    pub text: String,
    pub tree: Tree,
    pub map: LineMap,
    /// Bytes inserted into the preprocessed text to disambiguate it:
    /// `(position in current text, length)`.
    inserted: Vec<(u32, u32)>,
}

/// Template functions the grammar may legitimately see in expressions.
const BUILTIN_TEMPLATES: &[&str] = &[
    "static_cast",
    "reinterpret_cast",
    "const_cast",
    "dynamic_cast",
    "tiled_partition",
    "atomic",
    "atomic_ref",
    "thread_block_tile",
    "numeric_limits",
    // Texture and surface accesses (`tex1Dfetch<float2>(tex, i)`).
    "tex1Dfetch",
    "tex1D",
    "tex2D",
    "tex3D",
    "tex1DLayered",
    "tex2DLayered",
    "tex1DLod",
    "tex2DLod",
    "tex3DLod",
    "tex2DGrad",
    "texCubemap",
    "texCubemapLayered",
    "surf1Dread",
    "surf2Dread",
    "surf3Dread",
    "surf1DLayeredread",
    "surf2DLayeredread",
    "surfCubemapread",
    "surfCubemapLayeredread",
    "surf1Dwrite",
    "surf2Dwrite",
    "surf3Dwrite",
    "surf1DLayeredwrite",
    "surf2DLayeredwrite",
    "surfCubemapwrite",
    "surfCubemapLayeredwrite",
    // Cooperative groups' reduction operators (`cg::plus<int>()`).
    "plus",
    "less",
    "greater",
    "bit_and",
    "bit_or",
    "bit_xor",
    "min",
    "max",
];

/// tree-sitter checks progress once per 100 parser operations. A parse of
/// real code needs at most 0.02 checks per byte (cuda-samples, every test
/// kernel); error recovery on malformed text can need far more, each check
/// slower (many stack versions): a fuzzed macro bomb parsed for minutes.
/// The budget, for all of one file's parses together, is 1/8 of a check
/// per byte (6x the most seen) plus a base for small files.
const BYTES_PER_CHECK: usize = 8;
const BASE_CHECKS: usize = 50_000;

/// The parser operations (in progress checks) one file's parses may use.
struct Budget {
    left: usize,
}

impl Budget {
    fn for_text(text: &str) -> Budget {
        Budget {
            left: text.len() / BYTES_PER_CHECK + BASE_CHECKS,
        }
    }
}

/// Parses `text`, giving up (`None`) when `budget` runs out: the count is
/// of parser operations, not time, so the outcome does not depend on the
/// machine's load.
fn parse_within_budget(parser: &mut Parser, text: &str, budget: &mut Budget) -> Option<Tree> {
    let mut progress = |_: &tree_sitter::ParseState| {
        if budget.left == 0 {
            return std::ops::ControlFlow::Break(());
        }
        budget.left -= 1;
        std::ops::ControlFlow::Continue(())
    };
    let bytes = text.as_bytes();
    let mut input = |at: usize, _| bytes.get(at..).unwrap_or_default();
    parser.parse_with_options(
        &mut input,
        None,
        Some(tree_sitter::ParseOptions::new().progress_callback(&mut progress)),
    )
}

impl Syntax {
    /// Parses preprocessed text. `None` when tree-sitter gives up: past the
    /// operation [`Budget`] (pathological error recovery), or with an
    /// incompatible grammar; reported upstream.
    ///
    /// C++'s `a < b && c > d` is ambiguous with a template call `a<...>`;
    /// when the grammar reads a name that is no template as one, the name is
    /// parenthesised (`(a) < b ...`) and the text parsed again. Likewise a
    /// variable read as the type of a cast (`(tid * k) + j`) gets a unary
    /// `+` (`(+tid * k) + j`), and an assignment before a comma parentheses
    /// (`((j <<= 1), j + 1)`). Spans still map to the original source.
    pub fn parse(text: String, map: LineMap) -> Option<Syntax> {
        let mut parser = Parser::new();
        parser
            .set_language(&tree_sitter_cuda::LANGUAGE.into())
            .ok()?;
        let mut text = text;
        let mut inserted: Vec<(u32, u32)> = Vec::new();
        let mut budget = Budget::for_text(&text);
        for _round in 0..16 {
            let tree = parse_within_budget(&mut parser, &text, &mut budget)?;
            // One kind of fix per round: the other may read differently
            // once these are made.
            let mut edits: Vec<(u32, &str)> = misparsed_templates(&tree, &text)
                .into_iter()
                .flat_map(|(lo, hi)| [(lo, "("), (hi, ")")])
                .collect();
            if edits.is_empty() {
                edits = misparsed_casts(&tree, &text)
                    .into_iter()
                    .map(|at| (at, "+"))
                    .collect();
            }
            if edits.is_empty() {
                edits = assignments_before_commas(&tree)
                    .into_iter()
                    .flat_map(|(lo, hi)| [(lo, "("), (hi, ")")])
                    .collect();
            }
            if edits.is_empty() {
                edits = declarations_read_as_comparisons(&tree, &text)
                    .into_iter()
                    .map(|at| (at, "typename "))
                    .collect();
            }
            if edits.is_empty() {
                return Some(Syntax {
                    text,
                    tree,
                    map,
                    inserted,
                });
            }
            // Apply from the end so earlier positions stay valid.
            edits.sort_by_key(|e| std::cmp::Reverse(e.0));
            for (at, piece) in edits {
                let len = piece.len() as u32;
                text.insert_str(at as usize, piece);
                for e in inserted.iter_mut() {
                    if e.0 >= at {
                        e.0 += len;
                    }
                }
                inserted.push((at, len));
            }
        }
        let tree = parse_within_budget(&mut parser, &text, &mut budget)?;
        Some(Syntax {
            text,
            tree,
            map,
            inserted,
        })
    }

    /// The preprocessed-text offset of an offset of the (edited) text.
    fn unshift(&self, o: u32) -> u32 {
        let mut r = o;
        for &(pos, len) in &self.inserted {
            if pos < o {
                r -= len.min(o - pos);
            }
        }
        r
    }

    pub fn root(&self) -> Node<'_> {
        self.tree.root_node()
    }

    pub fn text(&self, n: Node) -> &str {
        self.text.get(n.byte_range()).unwrap_or("")
    }

    pub fn span(&self, n: Node) -> Span {
        let (lo, hi) = (n.start_byte() as u32, n.end_byte() as u32);
        if self.inserted.is_empty() {
            return self.map.span(lo, hi);
        }
        self.map.span(self.unshift(lo), self.unshift(hi))
    }

    /// Syntax errors (ERROR and MISSING nodes) under `node`, at most `limit`.
    pub fn errors_under(&self, node: Node, limit: usize, out: &mut Vec<Diagnostic>) {
        if out.len() >= limit || !node.has_error() {
            return;
        }
        if node.is_missing() {
            out.push(
                Diagnostic::error("syntax", format!("syntax error: missing `{}`", node.kind()))
                    .at(self.span(node)),
            );
            return;
        }
        if node.is_error() {
            let snippet: String = self.text(node).chars().take(40).collect();
            let snippet = snippet.split_whitespace().collect::<Vec<_>>().join(" ");
            out.push(
                Diagnostic::error("syntax", format!("syntax error near `{snippet}`"))
                    .at(self.span(node))
                    .with_note("the tree-sitter-cuda grammar could not parse this code"),
            );
            return;
        }
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            self.errors_under(child, limit, out);
        }
    }
}

/// Named children of a node.
pub fn named_children<'t>(n: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = n.walk();
    n.named_children(&mut cursor)
        .filter(|c| c.kind() != "comment")
        .collect()
}

/// `n` without the parentheses around it.
pub(crate) fn strip_parens(mut n: Node) -> Node {
    while n.kind() == "parenthesized_expression" {
        match named_children(n).first() {
            Some(inner) => n = *inner,
            None => break,
        }
    }
    n
}

/// The plain name of the function a call names (`f` of `f(x)` or
/// `ns::f(x)`); `None` for anything but such a call.
pub(crate) fn callee_name<'t>(syn: &'t Syntax, call: Node) -> Option<&'t str> {
    if call.kind() != "call_expression" {
        return None;
    }
    let f = call.child_by_field_name("function")?;
    matches!(f.kind(), "identifier" | "qualified_identifier")
        .then(|| syn.text(f).rsplit("::").next())?
}

/// All children, named or not.
pub fn all_children<'t>(n: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = n.walk();
    n.children(&mut cursor).collect()
}

/// Names of `template_function` nodes that are not templates: byte ranges
/// of the names to parenthesise (outermost only, no overlaps).
fn misparsed_templates(tree: &Tree, text: &str) -> Vec<(u32, u32)> {
    let mut templates: Vec<&str> = BUILTIN_TEMPLATES.to_vec();
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        if n.kind() == "template_declaration" {
            for c in named_children(n) {
                if let Some(d) = c.child_by_field_name("declarator") {
                    templates.push(text.get(innermost(d).byte_range()).unwrap_or(""));
                }
                // A class template: `SharedMemory<T>()` constructs one.
                if matches!(c.kind(), "struct_specifier" | "class_specifier") {
                    if let Some(d) = c.child_by_field_name("name") {
                        let d = d.child_by_field_name("name").unwrap_or(d);
                        templates.push(text.get(d.byte_range()).unwrap_or(""));
                    }
                }
            }
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    let mut fixes = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        if n.kind() == "template_function" {
            if let Some(name) = n.child_by_field_name("name") {
                let t = text.get(name.byte_range()).unwrap_or("");
                let is_call = n.parent().is_some_and(|p| p.kind() == "call_expression");
                let empty_call = is_call && t.is_empty();
                let known = templates.contains(&t) || has_builtin_type_argument(n, text);
                // `cuda::aligned_size_t<16>(n)`: a namespace's member read
                // as a template is one (a library's, as a rule); `(name)`
                // inside the qualified name would not even parse.
                let qualified = n
                    .parent()
                    .is_some_and(|p| p.kind() == "qualified_identifier");
                if name.kind() == "identifier" && !known && !empty_call && !qualified {
                    fixes.push((name.start_byte() as u32, name.end_byte() as u32));
                    continue;
                }
            }
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    fixes.sort();
    fixes
}

/// Class templates of CUDA's libraries whose declarations the grammar may
/// read as comparisons.
const TYPE_TEMPLATES: &[&str] = &["thread_block_tile", "atomic", "atomic_ref"];

/// Declarations read as comparisons: `cg::thread_block_tile<32> t = ...;`
/// can parse as `(cg::thread_block_tile < 32) > (t = ...)`. Returns where to
/// insert `typename ` (which only a type can follow) before the type.
fn declarations_read_as_comparisons(tree: &Tree, text: &str) -> Vec<u32> {
    let mut out = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        if n.kind() == "expression_statement" {
            let mut left = n.named_child(0);
            while let Some(l) = left.filter(|l| l.kind() == "binary_expression") {
                let op = l.child_by_field_name("operator").map(|o| o.kind());
                let inner = l.child_by_field_name("left");
                if op == Some("<") && inner.is_some_and(|i| names_type_template(i, text)) {
                    out.push(n.start_byte() as u32);
                    break;
                }
                left = inner;
            }
            continue;
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    out
}

/// `thread_block_tile` or `cg::thread_block_tile` (any scope).
fn names_type_template(n: Node, text: &str) -> bool {
    let name = match n.kind() {
        "identifier" => Some(n),
        "qualified_identifier" => {
            let mut cur = n;
            while let Some(inner) = cur
                .child_by_field_name("name")
                .filter(|c| c.kind() == "qualified_identifier")
            {
                cur = inner;
            }
            cur.child_by_field_name("name")
        }
        _ => None,
    };
    name.is_some_and(|c| TYPE_TEMPLATES.contains(&text.get(c.byte_range()).unwrap_or("")))
}

/// Casts whose "type" is a variable: `(tid * (itid & itid)) + j` is read
/// as the cast of `+j` to the type `tid *(itid &)` when the grammar does
/// not know `tid` is no type. Returns where to insert a unary `+` before
/// the name (`(+tid * ...)` can only be an expression; `+` changes no
/// value, the operands of arithmetic are promoted anyway). A name counts
/// as a variable when the file declares it as one (a variable or a
/// parameter) and nowhere as a type.
fn misparsed_casts(tree: &Tree, text: &str) -> Vec<u32> {
    let name = |n: Node| text.get(n.byte_range()).unwrap_or("");
    let mut types: Vec<&str> = Vec::new();
    let mut variables: Vec<&str> = Vec::new();
    let mut casts: Vec<Node> = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "type_definition"
            | "alias_declaration"
            | "type_parameter_declaration"
            | "optional_type_parameter_declaration" => {
                let mut c = n.walk();
                for t in n.named_children(&mut c) {
                    if t.kind() == "type_identifier" {
                        types.push(name(t));
                    }
                }
                if let Some(d) = n.child_by_field_name("declarator") {
                    types.push(name(innermost(d)));
                }
                if let Some(d) = n.child_by_field_name("name") {
                    types.push(name(d));
                }
            }
            "struct_specifier" | "class_specifier" | "union_specifier" | "enum_specifier" => {
                if let Some(d) = n.child_by_field_name("name") {
                    types.push(name(d));
                }
            }
            "declaration" | "parameter_declaration" | "field_declaration" => {
                let mut c = n.walk();
                for d in n.children_by_field_name("declarator", &mut c) {
                    let chain = declarators(d);
                    let inner = chain.last().copied().unwrap_or(d);
                    let function = chain.iter().any(|x| x.kind() == "function_declarator");
                    if inner.kind() == "identifier" && !function {
                        variables.push(name(inner));
                    }
                }
            }
            "cast_expression" => casts.push(n),
            _ => {}
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    let mut fixes: Vec<u32> = casts
        .into_iter()
        .filter_map(|cast| {
            let descriptor = cast.child_by_field_name("type")?;
            let ty = descriptor.child_by_field_name("type")?;
            let n = name(ty);
            (ty.kind() == "type_identifier" && variables.contains(&n) && !types.contains(&n))
                .then_some(ty.start_byte() as u32)
        })
        .collect();
    fixes.sort();
    fixes.dedup();
    fixes
}

/// Assignments the grammar cannot read as the left operand of a comma
/// (`(j <<= 1, j + 1)` parses as `j <<=` followed by an error holding
/// `1 ,`): the byte range of `j <<= 1`, to parenthesise, which is what the
/// comma's precedence means.
fn assignments_before_commas(tree: &Tree) -> Vec<(u32, u32)> {
    let mut fixes = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        if n.kind() == "assignment_expression" {
            let mut c = n.walk();
            let comma = n.children(&mut c).filter(|e| e.is_error()).find_map(|e| {
                let mut c = e.walk();
                let last = e.children(&mut c).last();
                last.filter(|t| t.kind() == ",")
            });
            if let Some(comma) = comma {
                fixes.push((n.start_byte() as u32, comma.start_byte() as u32));
                continue;
            }
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    fixes.sort();
    fixes
}

/// `d` and the declarators nested in it, outermost first.
fn declarators(d: Node) -> Vec<Node> {
    std::iter::successors(Some(d), |x| x.child_by_field_name("declarator")).collect()
}

/// The innermost declarator of `d` (the declared name).
fn innermost(d: Node) -> Node {
    declarators(d).pop().unwrap_or(d)
}

/// Whether a template argument list holds a built-in type (`f<float>`,
/// `tex2D<unsigned char>`, `tex2D<uchar4>`): a comparison `a < float > (b)` is not C++, so
/// such a name is a template even when the file does not declare it (CUDA's
/// `tex2D`, `surf2Dread`, ...).
fn has_builtin_type_argument(template_function: Node, text: &str) -> bool {
    let builtin = |t: &Node| match t.kind() {
        "primitive_type" | "sized_type_specifier" => true,
        // CUDA's vector types (`uchar4`, `float2`).
        "type_identifier" => text
            .get(t.byte_range())
            .is_some_and(|name| crate::types::vector_type(name).is_some()),
        _ => false,
    };
    template_function
        .child_by_field_name("arguments")
        .is_some_and(|args| {
            named_children(args)
                .iter()
                .any(|a| a.kind() == "type_descriptor" && named_children(*a).iter().any(builtin))
        })
}

/// The span of a node nested deeper than `limit`, if there is one. Walks
/// the tree with a cursor, without recursion.
pub fn too_deep(syn: &Syntax, limit: usize) -> Option<Span> {
    let mut cursor = syn.tree.walk();
    let mut depth = 0usize;
    loop {
        if depth > limit {
            return Some(syn.span(cursor.node()));
        }
        if cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return None;
            }
            depth -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parser() -> Parser {
        let mut p = Parser::new();
        p.set_language(&tree_sitter_cuda::LANGUAGE.into())
            .expect("invariant: the grammar loads");
        p
    }

    /// A namespace member called with template arguments stays a template
    /// call: parenthesising the member alone (`cuda::(aligned_size_t) <
    /// 16 > (4)`) would not parse, and the name is a library's template.
    #[test]
    fn a_qualified_template_call_is_left_as_one() {
        let text = "__global__ void k(float *a) { auto s = cuda::aligned_size_t<alignof(float4)>(4); cuda::pipeline_consumer_wait_prior<0>(p); a[0] = s; }\n";
        let syn = Syntax::parse(text.to_string(), LineMap::default()).expect("parses");
        assert!(!syn.root().has_error(), "{}", syn.root().to_sexp());
        assert!(syn
            .text
            .contains("cuda::aligned_size_t<alignof(float4)>(4)"));
    }

    /// A parse stops when its budget is spent, and the budget is shared by
    /// the rounds of one file: what the first parse used is gone.
    #[test]
    fn a_parse_gives_up_when_its_budget_is_spent() {
        let text = "__global__ void k(int *a) { a[threadIdx.x] = 1; }\n".repeat(400);
        let mut budget = Budget::for_text(&text);
        assert!(parse_within_budget(&mut parser(), &text, &mut budget).is_some());
        let used = Budget::for_text(&text).left - budget.left;
        assert!(used > 0 && used < text.len() / 50, "{used} checks");
        let mut spent = Budget { left: 0 };
        assert!(parse_within_budget(&mut parser(), &text, &mut spent).is_none());
    }
}
