//! An execution graph as Graphviz DOT (seed 000 §3, the execution graphs
//! of its figures): one cluster per thread with its events in program order
//! (`po` edges, black), `rf` edges from each read's source (green), `co`
//! edges between consecutive writes of a location (orange, dashed), one
//! node per initial value that is read or overwritten, and the events an
//! error is about in red (a race as a red edge between its two accesses).
//!
//! Barrier events of one instance are joined by dotted `bar` edges.
//!
//! Labels use the names of [`crate::witness::Names`] (`T1.0`, `data[0]`) and
//! give each event's memory order and scope and its source line:col and
//! excerpt. Several witnesses go into one digraph ([`document`]), each as a
//! cluster whose node names carry its own prefix, so that one `dot -Tsvg`
//! renders them all. Invariant: the output is deterministic and every
//! string that comes from the source is escaped, so `dot` accepts it.

use crate::findings::Finding;
use crate::graph::{EventId, Loc, RfSource};
use crate::reference::Execution;
use crate::witness::Names;
use std::collections::BTreeSet;
use std::fmt::Write;

/// One digraph holding every cluster of `clusters` (made by [`witness`]).
pub fn document(clusters: &[String]) -> String {
    let mut o = String::from("digraph witnesses {\n");
    o.push_str("  rankdir=TB;\n  newrank=true;\n");
    o.push_str("  node [shape=box, fontname=\"monospace\", fontsize=10];\n");
    o.push_str("  edge [fontname=\"monospace\", fontsize=9];\n");
    for c in clusters {
        o.push_str(c);
    }
    o.push_str("}\n");
    o
}

/// The execution `exec` as a cluster labelled `name`, with `errors`
/// highlighted; node names start with `prefix` (distinct per witness).
pub fn witness(
    names: &Names<'_>,
    exec: &Execution,
    errors: &[&Finding],
    name: &str,
    prefix: &str,
) -> String {
    let g = &exec.graph;
    let marked: BTreeSet<EventId> = errors.iter().flat_map(|f| f.events()).collect();
    let node = |id: EventId| format!("{prefix}e{}_{}", id.thread, id.index);
    let init = |loc: Loc| {
        format!(
            "{prefix}init_{}_{}_{}",
            loc.array.0,
            loc.index,
            loc.block.map_or("g".into(), |b| b.to_string())
        )
    };
    let mut o = String::new();
    let _ = writeln!(o, "subgraph cluster_{prefix} {{");
    let _ = writeln!(o, "  label=\"{}\";", escape(name));
    // Initial values that some read or co edge uses.
    let mut inits: BTreeSet<Loc> = g.co.keys().copied().collect();
    for (r, src) in &g.rf {
        if *src == RfSource::Init {
            inits.extend(g.event(*r).loc);
        }
    }
    for loc in &inits {
        let value = g
            .init
            .get(loc)
            .map(|v| Names::value(*v))
            .unwrap_or_default();
        let _ = writeln!(
            o,
            "  {} [label=\"init {} = {}\", style=dashed];",
            init(*loc),
            escape(&names.loc(*loc)),
            escape(&value)
        );
    }
    for (t, evs) in g.events.iter().enumerate() {
        if evs.is_empty() {
            continue;
        }
        let _ = writeln!(o, "  subgraph cluster_{prefix}t{t} {{");
        let _ = writeln!(
            o,
            "    label=\"T{t}: {}\";",
            escape(&g.threads[t].to_string())
        );
        for e in evs {
            let label = format!(
                "{} {}\n{}\n{}  {}",
                Names::event(e.id),
                names
                    .action(e)
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" "),
                Names::order(e),
                names.at(e.span),
                names.excerpt(e.span)
            );
            let style = if marked.contains(&e.id) {
                ", color=red, penwidth=2"
            } else {
                ""
            };
            let _ = writeln!(
                o,
                "    {} [label=\"{}\"{style}];",
                node(e.id),
                escape(&label)
            );
        }
        for w in evs.windows(2) {
            let _ = writeln!(
                o,
                "    {} -> {} [label=\"po\"];",
                node(w[0].id),
                node(w[1].id)
            );
        }
        let _ = writeln!(o, "  }}");
    }
    for (r, src) in &g.rf {
        let from = match src {
            RfSource::Init => g.event(*r).loc.map(init),
            RfSource::Write(w) => Some(node(*w)),
        };
        if let Some(from) = from {
            let _ = writeln!(
                o,
                "  {from} -> {} [label=\"rf\", color=darkgreen, fontcolor=darkgreen, constraint=false];",
                node(*r)
            );
        }
    }
    for (loc, ws) in &g.co {
        let mut prev = init(*loc);
        for w in ws {
            let _ = writeln!(
                o,
                "  {prev} -> {} [label=\"co\", color=orange, fontcolor=orange, style=dashed, constraint=false];",
                node(*w)
            );
            prev = node(*w);
        }
    }
    // Barrier instances: a dotted chain through their events.
    let mut instances: Vec<(crate::graph::BarrierInstance, Vec<EventId>)> = Vec::new();
    for e in g.all_events() {
        if let Some(b) = e.barrier {
            match instances.iter_mut().find(|(i, _)| *i == b) {
                Some((_, ids)) => ids.push(e.id),
                None => instances.push((b, vec![e.id])),
            }
        }
    }
    for (_, ids) in &instances {
        for w in ids.windows(2) {
            let _ = writeln!(
                o,
                "  {} -> {} [label=\"bar\", style=dotted, dir=none, constraint=false];",
                node(w[0]),
                node(w[1])
            );
        }
    }
    for f in errors {
        if let Finding::Race(r) = f {
            let _ = writeln!(
                o,
                "  {} -> {} [label=\"{}\", color=red, fontcolor=red, dir=both, penwidth=2, constraint=false];",
                node(r.first.event),
                node(r.second.event),
                escape(&f.kind().to_string())
            );
        }
    }
    let _ = writeln!(o, "}}");
    o
}

/// A DOT string body: quotes and backslashes escaped, newlines as `\n`.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn labels_are_escaped() {
        assert_eq!(escape("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
    }
}
