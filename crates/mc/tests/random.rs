//! Small random straight-line programs: the reference enumerator produces
//! no graph twice, only consistent graphs, and exactly the consistent
//! graphs that a naive enumeration of every `rf` and `co` choice finds.

mod common;

use proptest::prelude::*;
use std::collections::HashSet;
use warpsafe_interp::Launch;
use warpsafe_mc::{explore, is_consistent, Config, EventId, Graph, Kind, Loc, RfSource};

#[derive(Clone, Debug)]
enum Op {
    Store {
        x: bool,
        val: i32,
        order: u8,
        block: bool,
    },
    Load {
        x: bool,
        order: u8,
        block: bool,
    },
    Exch {
        x: bool,
        val: i32,
        order: u8,
        block: bool,
    },
    Plain {
        x: bool,
        val: i32,
    },
    PlainLoad {
        x: bool,
    },
    Fence {
        block: bool,
    },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (any::<bool>(), 1..3i32, 0..3u8, any::<bool>()).prop_map(|(x, val, order, block)| {
            Op::Store {
                x,
                val,
                order,
                block,
            }
        }),
        (any::<bool>(), 0..3u8, any::<bool>()).prop_map(|(x, order, block)| Op::Load {
            x,
            order,
            block
        }),
        (any::<bool>(), 1..3i32, 0..3u8, any::<bool>()).prop_map(|(x, val, order, block)| {
            Op::Exch {
                x,
                val,
                order,
                block,
            }
        }),
        (any::<bool>(), 1..3i32).prop_map(|(x, val)| Op::Plain { x, val }),
        any::<bool>().prop_map(|x| Op::PlainLoad { x }),
        any::<bool>().prop_map(|block| Op::Fence { block }),
    ]
}

fn render(op: &Op) -> String {
    let var = |x: bool, block: bool| {
        format!(
            "{}{}",
            if x { "X" } else { "Y" },
            if block { "b" } else { "d" }
        )
    };
    let arr = |x: bool| if x { "x" } else { "y" };
    match op {
        Op::Store {
            x,
            val,
            order,
            block,
        } => {
            let o = ["RLX", "REL", "SC"][*order as usize];
            format!("{}.store({val}, {o});", var(*x, *block))
        }
        Op::Load { x, order, block } => {
            let o = ["RLX", "ACQ", "SC"][*order as usize];
            format!("{}.load({o});", var(*x, *block))
        }
        Op::Exch {
            x,
            val,
            order,
            block,
        } => {
            let o = ["RLX", "cuda::memory_order_acq_rel", "SC"][*order as usize];
            format!("{}.exchange({val}, {o});", var(*x, *block))
        }
        Op::Plain { x, val } => format!("{}[0] = {val};", arr(*x)),
        Op::PlainLoad { x } => format!("s += {}[0];", arr(*x)),
        Op::Fence { block: true } => "__threadfence_block();".into(),
        Op::Fence { block: false } => "__threadfence();".into(),
    }
}

fn program(t0: &[Op], t1: &[Op]) -> String {
    let body = |ops: &[Op]| {
        ops.iter()
            .map(render)
            .collect::<Vec<_>>()
            .join("\n        ")
    };
    format!(
        r#"#include <cuda/atomic>
#define RLX cuda::memory_order_relaxed
#define REL cuda::memory_order_release
#define ACQ cuda::memory_order_acquire
#define SC cuda::memory_order_seq_cst
__global__ void k(int *x, int *y) {{
    cuda::atomic_ref<int, cuda::thread_scope_block> Xb(x[0]), Yb(y[0]);
    cuda::atomic_ref<int, cuda::thread_scope_device> Xd(x[0]), Yd(y[0]);
    int s = 0;
    if (blockIdx.x + threadIdx.x == 0) {{
        {}
    }} else {{
        {}
    }}
}}"#,
        body(t0),
        body(t1)
    )
}

fn permutations(v: &[EventId]) -> Vec<Vec<EventId>> {
    if v.is_empty() {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for i in 0..v.len() {
        let mut rest = v.to_vec();
        let first = rest.remove(i);
        for mut p in permutations(&rest) {
            p.insert(0, first);
            out.push(p);
        }
    }
    out
}

/// Every consistent graph with the events of `template` (whose read values
/// are recomputed), by trying every `rf` and every `co`.
fn naive(template: &Graph) -> HashSet<Graph> {
    let mut base = template.clone();
    base.rf.clear();
    base.co.clear();
    let locs: Vec<Loc> = base.init.keys().copied().collect();
    let writes = |l: Loc| -> Vec<EventId> {
        base.all_events()
            .filter(|e| e.is_write() && e.loc == Some(l))
            .map(|e| e.id)
            .collect()
    };
    // All co choices.
    let mut cos: Vec<Graph> = vec![base.clone()];
    for l in &locs {
        let mut next = Vec::new();
        for g in &cos {
            for p in permutations(&writes(*l)) {
                let mut g = g.clone();
                if !p.is_empty() {
                    g.co.insert(*l, p);
                }
                next.push(g);
            }
        }
        cos = next;
    }
    // All rf choices.
    let reads: Vec<(EventId, Loc)> = base
        .all_events()
        .filter(|e| e.is_read())
        .map(|e| (e.id, e.loc.expect("reads have locations")))
        .collect();
    let mut graphs = cos;
    for (r, l) in reads {
        let mut next = Vec::new();
        for g in &graphs {
            let mut sources = vec![RfSource::Init];
            sources.extend(
                writes(l)
                    .into_iter()
                    .filter(|w| *w != r)
                    .map(RfSource::Write),
            );
            for src in sources {
                let mut g = g.clone();
                g.rf.insert(r, src);
                next.push(g);
            }
        }
        graphs = next;
    }
    graphs
        .into_iter()
        .filter_map(|mut g| {
            let reads: Vec<(EventId, RfSource, Loc)> = g
                .all_events()
                .filter(|e| e.is_read())
                .map(|e| (e.id, g.rf[&e.id], e.loc.expect("located")))
                .collect();
            for (r, src, l) in reads {
                let v = g.source_value(l, src).expect("a value");
                g.events[r.thread][r.index].read_value = Some(v);
            }
            is_consistent(&g).then_some(g)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn reference_matches_naive_enumeration(
        t0 in prop::collection::vec(op(), 1..4),
        t1 in prop::collection::vec(op(), 1..4),
        same_block in any::<bool>(),
    ) {
        let k = common::kernel(&program(&t0, &t1));
        let launch = if same_block {
            Launch::new([1, 1, 1], [2, 1, 1])
        } else {
            Launch::new([2, 1, 1], [1, 1, 1])
        };
        let ex = explore(&k, &launch, &Config::default()).expect("explores");
        prop_assert!(!ex.executions.is_empty());
        let mut seen = HashSet::new();
        for e in &ex.executions {
            prop_assert!(is_consistent(&e.graph), "inconsistent graph produced");
            prop_assert!(seen.insert(e.graph.clone()), "graph produced twice");
            // Every read returns its source's value.
            for ev in e.graph.all_events().filter(|ev| ev.kind != Kind::Fence && ev.is_read()) {
                let l = ev.loc.expect("located");
                prop_assert_eq!(e.graph.source_value(l, e.graph.rf[&ev.id]), ev.read_value);
            }
        }
        let expected = naive(&ex.executions[0].graph);
        prop_assert_eq!(seen.len(), expected.len());
        prop_assert!(seen == expected, "the enumerator and the naive enumeration differ");
    }
}
