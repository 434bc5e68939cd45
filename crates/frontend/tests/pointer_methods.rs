//! Methods called through a pointer to the object (`p->put(i, v)`, as
//! `(*p).put(i, v)` is): the method of the object `p` points at is inlined
//! with that object as `this`.

mod common;

use common::lower;

#[test]
fn a_method_called_through_a_pointer_writes_through_the_object() {
    let (kernels, messages) = lower(
        "struct Acc { int *d; __device__ void put(int i, int v) { d[i] = v; } };\n\
         __global__ void k(int *out) { Acc a; a.d = out; Acc *p = &a; p->put(threadIdx.x, 7); }\n",
    );
    let k = kernels.first().unwrap_or_else(|| panic!("{messages:?}"));
    let mut stored_out = false;
    warpsafe_ir::walk_block(&k.body, &mut |s| {
        if let warpsafe_ir::StmtKind::Store { mem, .. } = &s.kind {
            stored_out |= k.array(mem.array).name == "out";
        }
    });
    assert!(stored_out, "no store to `out`");
}
