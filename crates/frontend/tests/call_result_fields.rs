//! A field of the aggregate a call returns by value (`g.group_index().x`,
//! `make_pair(i).b`): the call is lowered once and the field read from its
//! result.

mod common;

use common::lower;

#[test]
fn a_field_of_a_group_index_call_is_the_block_index() {
    let (kernels, messages) = lower(
        "#include <cooperative_groups.h>\nusing namespace cooperative_groups;\n\
         __global__ void k(int *out) { auto g = this_thread_block();\n\
         out[g.group_index().x * 256 + g.thread_index().x] = 1; }\n",
    );
    let k = kernels.first().unwrap_or_else(|| panic!("{messages:?}"));
    let mut index = None;
    warpsafe_ir::walk_block(&k.body, &mut |s| {
        if let warpsafe_ir::StmtKind::Store { mem, .. } = &s.kind {
            index = Some(format!("{:?}", mem.index));
        }
    });
    let index = index.expect("one store");
    assert!(
        index.contains("BlockIdx(X)") && index.contains("ThreadIdx(X)"),
        "{index}"
    );
}

#[test]
fn a_field_of_a_struct_returned_by_value_lowers_the_call_once() {
    let (kernels, messages) = lower(
        "struct P { int a; int b; };\n\
         __device__ P pair(int x) { P p; p.a = x; p.b = x + 1; return p; }\n\
         __global__ void k(int *out) { out[pair(threadIdx.x).b] = 1; }\n",
    );
    let k = kernels.first().unwrap_or_else(|| panic!("{messages:?}"));
    let mut assigns_b = 0;
    warpsafe_ir::walk_block(&k.body, &mut |s| {
        if let warpsafe_ir::StmtKind::Assign { dst, .. } = &s.kind {
            assigns_b += usize::from(k.var(*dst).name == "p.b");
        }
    });
    assert_eq!(assigns_b, 1);
}
