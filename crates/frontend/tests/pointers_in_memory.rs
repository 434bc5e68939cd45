//! Pointers stored in memory (`lower::mem_pointer`) and device-side
//! launches and runtime calls (`lower::device_launch`): what lowers, with
//! which warning, and what is refused by name.

mod common;

use common::lower;
use warpsafe_ir::ArrayOrigin;

fn refusal(text: &str) -> Vec<String> {
    let (kernels, messages) = lower(text);
    assert!(kernels.is_empty(), "lowered: {text}");
    messages
}

fn has(messages: &[String], part: &str) -> bool {
    messages.iter().any(|m| m.contains(part))
}

#[test]
fn host_pointers_in_memory_point_to_one_object_per_slot() {
    let (kernels, messages) =
        lower("__global__ void k(float **rows) { rows[blockIdx.x][threadIdx.x] = 1.0f; }\n");
    assert_eq!(kernels.len(), 1, "{messages:?}");
    let pointee = kernels[0]
        .arrays
        .iter()
        .find(|a| a.origin == ArrayOrigin::Pointee)
        .expect("a pointee array");
    assert_eq!(pointee.name, "*rows[]");
    assert!(
        has(&messages, "point to the start of distinct objects"),
        "{messages:?}"
    );
    // The pointer itself is read from its slot (a race on the slot is seen).
    let ir = format!("{:?}", kernels[0].body);
    assert!(
        ir.contains("Load") && ir.contains("281474976710656"),
        "{ir}"
    );
}

#[test]
fn what_the_host_pointer_model_cannot_answer_is_refused() {
    // The kernel cannot store into memory the host fills with pointers.
    let stored = refusal("__global__ void k(float **rows, float *a) { rows[0] = a; }\n");
    assert!(has(&stored, "memory the host fills"), "{stored:?}");
    // Nullness is known where the pointer is read, not once it is kept.
    let kept = refusal(
        "__global__ void k(float **rows) { float *r = rows[0]; if (r != 0) r[0] = 1.0f; }\n",
    );
    assert!(has(&kept, "comparing with null"), "{kept:?}");
    let (kernels, messages) =
        lower("__global__ void k(float **rows) { if (rows[0] != 0) rows[0][0] = 1.0f; }\n");
    assert_eq!(kernels.len(), 1, "{messages:?}");
}

#[test]
fn kernel_filled_pointer_arrays_hold_offsets_into_one_array() {
    let (kernels, messages) = lower(
        "__global__ void k(float *out) { __shared__ float s[64]; float *p[2];\n\
         p[0] = &s[threadIdx.x]; p[1] = &s[32]; *p[0] = 1.0f; __syncthreads(); out[threadIdx.x] = *p[1]; }\n",
    );
    assert_eq!(kernels.len(), 1, "{messages:?}");
    let two = refusal(
        "__global__ void k(float *a, float *b) { float *p[2]; p[0] = a; p[1] = b; *p[1] = 1.0f; }\n",
    );
    assert!(has(&two, "pointers into two arrays"), "{two:?}");
    let early = refusal("__global__ void k(float *a) { float *p[2]; *p[0] = 1.0f; p[0] = a; }\n");
    assert!(
        has(&early, "before the kernel stores one there"),
        "{early:?}"
    );
    let null = refusal("__global__ void k(float *a) { float *p[2]; p[0] = 0; *p[0] = 1.0f; }\n");
    assert!(has(&null, "storing a null pointer"), "{null:?}");
}

#[test]
fn device_launches_are_not_followed_and_say_so() {
    let text = "__global__ void child(int *a, int n) { a[threadIdx.x] = n; }\n\
                __global__ void parent(int *a, int n) {\n\
                \x20 if (threadIdx.x == 0) child<<<1, 32>>>(a, n + 1);\n\
                \x20 int e = cudaGetLastError();\n\
                \x20 a[32 + threadIdx.x] = e;\n\
                }\n\
                int main() { int *d; parent<<<1, 32>>>(d, 7); child<<<1, 32>>>(d, 3); }\n";
    let (kernels, messages) = lower(text);
    assert_eq!(kernels.len(), 2, "{messages:?}");
    assert!(
        has(
            &messages,
            "kernel launches from device code are not followed"
        ),
        "{messages:?}"
    );
    // The error code is unknown, not success.
    let parent = kernels.iter().find(|k| k.name == "parent").expect("parent");
    let ir = format!("{:?}", parent.body);
    assert!(ir.contains("Havoc"), "{ir}");
    // The child's host launch passes n == 3, but the device launch passes
    // other values: nothing about `n` is assumed; the block both launches
    // give is.
    let child = kernels.iter().find(|k| k.name == "child").expect("child");
    assert!(child.launch.relation.is_none(), "{:?}", child.launch);
    assert_eq!(child.launch.block, Some([32, 1, 1]));
    assert!(
        child
            .launch
            .notes
            .iter()
            .any(|(n, _)| n.contains("also launched from device code")),
        "{:?}",
        child.launch.notes
    );
}

#[test]
fn device_side_malloc_writes_a_host_pointer_slot_only() {
    let (kernels, messages) = lower(
        "struct L { float *p; int n; };\n\
         __global__ void k(L *l) { if (l[threadIdx.x].p == 0) cudaMalloc((void **)&l[threadIdx.x].p, 64); }\n",
    );
    assert_eq!(kernels.len(), 1, "{messages:?}");
    let local = refusal(
        "__global__ void k(float *a) { float *p; cudaMalloc((void **)&p, 64); a[0] = 1.0f; }\n",
    );
    assert!(has(&local, "`cudaMalloc` in device code"), "{local:?}");
}

/// A struct whose field points at its own type (`list_elem *next;`) is
/// usable: its name is known inside its body. Following `next` once reads
/// the pointee array; chasing it in a loop is refused by name.
#[test]
fn a_struct_pointing_at_its_own_type_is_usable() {
    let (kernels, messages) = lower(
        "struct list_elem { int key; list_elem *next; };\n\
         __global__ void k(list_elem *list, int *out) { out[threadIdx.x] = list[threadIdx.x].next->key; }\n",
    );
    assert_eq!(kernels.len(), 1, "{messages:?}");
    assert!(
        kernels[0]
            .arrays
            .iter()
            .any(|a| a.origin == ArrayOrigin::Pointee),
        "no pointee array"
    );
    let chased = refusal(
        "struct list_elem { int key; list_elem *next; };\n\
         __global__ void k(list_elem *list, int n, int *out) { list_elem *e = list;\n\
         for (int i = 0; i < n; i++) e = e->next; out[threadIdx.x] = e->key; }\n",
    );
    assert!(
        has(&chased, "through a pointer into several arrays"),
        "{chased:?}"
    );
}
