//! Inference never panics on the construct corpus.

mod common;

#[test]
fn every_construct_kernel_infers() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/kernels/constructs"
    );
    let mut count = 0;
    for entry in std::fs::read_dir(dir).expect("constructs directory") {
        let path = entry.expect("entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("cu") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable");
        for k in common::kernels(&text) {
            let kp =
                warpsafe_static::infer(&k).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let _ = warpsafe_static::print_protocol(&kp, &k);
            count += 1;
        }
    }
    assert!(count > 30, "only {count} kernels");
}

#[test]
#[ignore = "prints the protocol of control_loops.cu for inspection"]
fn dump_control_loops() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/kernels/constructs/control_loops.cu"
    );
    let text = std::fs::read_to_string(dir).expect("readable");
    for k in common::kernels(&text) {
        let kp = warpsafe_static::infer(&k).expect("infers");
        println!("{}", warpsafe_static::print_protocol(&kp, &k));
    }
}
