//! Prints tree-sitter-cuda's syntax tree of a file (a development aid).
fn main() {
    let path = std::env::args().nth(1).expect("usage: sexp FILE");
    let text = std::fs::read_to_string(path).expect("readable file");
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_cuda::LANGUAGE.into())
        .expect("grammar loads");
    let tree = parser.parse(&text, None).expect("parse returns a tree");
    print(tree.root_node(), &text, 0, None);
}

fn print(n: tree_sitter::Node, text: &str, depth: usize, field: Option<&str>) {
    let f = field.map(|f| format!("{f}: ")).unwrap_or_default();
    let leaf = if n.child_count() == 0 {
        format!(" {:?}", &text[n.byte_range()])
    } else {
        String::new()
    };
    if n.is_named() || n.is_missing() {
        println!(
            "{}{}{}{}{}",
            "  ".repeat(depth),
            f,
            n.kind(),
            if n.is_missing() { " MISSING" } else { "" },
            leaf
        );
    }
    let mut c = n.walk();
    for (i, ch) in n.children(&mut c).enumerate() {
        print(ch, text, depth + 1, n.field_name_for_child(i as u32));
    }
}
