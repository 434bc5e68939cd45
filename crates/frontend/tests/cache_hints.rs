//! Loads and stores with a cache hint (`__ldcs`, `__ldcg`, `__stcs`, ...,
//! as llm.c's kernels stream their tensors): the hint changes where the
//! data is cached, not what is read or written, so each is a plain access
//! of `*p`.

mod common;

use common::lower;

#[test]
fn cache_hinted_loads_and_stores_are_plain_accesses() {
    let (kernels, messages) = lower(
        "__global__ void k(float *o, const float *i) {\n\
         __stcs(o + threadIdx.x, __ldcs(i + threadIdx.x) * 2.0f);\n\
         __stcg(o + 64 + threadIdx.x, __ldcg(i + 64 + threadIdx.x)); }\n",
    );
    let k = kernels.first().unwrap_or_else(|| panic!("{messages:?}"));
    let (mut loads, mut stores) = (0, 0);
    warpsafe_ir::walk_block(&k.body, &mut |s| match &s.kind {
        warpsafe_ir::StmtKind::Load { mem, .. } => {
            assert_eq!(k.array(mem.array).name, "i");
            loads += 1;
        }
        warpsafe_ir::StmtKind::Store { mem, .. } => {
            assert_eq!(k.array(mem.array).name, "o");
            stores += 1;
        }
        _ => {}
    });
    assert_eq!((loads, stores), (2, 2));
}
