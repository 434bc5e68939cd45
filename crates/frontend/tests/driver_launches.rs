//! Launches through the driver API (`launch_driver.rs`, `launch_args.rs`):
//! `cuLaunchKernel` in the program's host file launches the kernel file's
//! `extern "C"` kernels by the names `cuModuleGetFunction` looked up, with
//! the kernel arguments of its `void *` array. A handle warpsafe cannot
//! follow anywhere in the program leaves every such kernel unlaunched.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use warpsafe_frontend::{compile, Options, SourceLoader};
use warpsafe_ir::Kernel;
use warpsafe_source::{SourceFile, SourceMap};

/// Files served from memory.
struct Files(HashMap<PathBuf, String>);

impl SourceLoader for Files {
    fn load(&self, path: &Path) -> Option<String> {
        self.0.get(path).cloned()
    }
}

const KERNELS: &str = "extern \"C\" __global__ void rows(float *out, int width)\n\
    { out[(blockIdx.y * blockDim.y + threadIdx.y) * width + blockIdx.x * blockDim.x + threadIdx.x] = 0; }\n\
    extern \"C\" __global__ void tile16(float *out) { __shared__ float t[16][16]; t[threadIdx.y][threadIdx.x] = 1; }\n\
    extern \"C\" __global__ void tile32(float *out) { __shared__ float t[32][32]; t[threadIdx.y][threadIdx.x] = 1; }\n\
    __global__ void mangled(float *out) { out[threadIdx.x] = 0; }\n";

/// The kernels of `kernels` (as `k.cu`), with `host` as the program's
/// other file `main.cpp`.
fn lower(kernels: &str, host: &str) -> Vec<Kernel> {
    let mut sources = SourceMap::new();
    let main = sources.add(SourceFile::new("k.cu", kernels.to_string(), false));
    let files = Files(HashMap::from([(
        PathBuf::from("main.cpp"),
        host.to_string(),
    )]));
    let opts = Options {
        companions: vec![PathBuf::from("main.cpp")],
        ..Options::default()
    };
    compile(main, &mut sources, &opts, &files).module.kernels
}

fn kernel<'k>(kernels: &'k [Kernel], name: &str) -> &'k Kernel {
    kernels
        .iter()
        .find(|k| k.name == name)
        .unwrap_or_else(|| panic!("no kernel {name}"))
}

fn relation(k: &Kernel) -> Option<String> {
    k.launch
        .relation
        .as_ref()
        .map(|r| warpsafe_ir::print_expr(k, r))
}

/// A host file that looks `name` up and launches it with `launch`'s
/// configuration and `args`.
fn host(lookup: &str, launch: &str) -> String {
    format!(
        "void run(CUmodule module, CUdeviceptr d_out, int width, int height) {{\n\
           CUfunction f;\n\
           {lookup}\n\
           void *args[] = {{(void *)&d_out, (void *)&width}};\n\
           {launch}\n\
         }}\n"
    )
}

const LOOKUP_ROWS: &str = "checkCudaErrors(cuModuleGetFunction(&f, module, \"rows\"));";
const LAUNCH: &str =
    "checkCudaErrors(cuLaunchKernel(f, width / 16, height / 16, 1, 16, 16, 1, 0, 0, args, 0));";

#[test]
fn a_launch_by_name_gives_its_kernel_the_block_and_the_grid_relation() {
    let kernels = lower(KERNELS, &host(LOOKUP_ROWS, LAUNCH));
    let rows = kernel(&kernels, "rows");
    assert_eq!(rows.launch.block, Some([16, 16, 1]));
    assert_eq!(
        relation(rows).as_deref(),
        Some("width / 16 >= 0 && gridDim.x == (u32)(width / 16)")
    );
    // Launched by no one: the other kernels keep any launch.
    assert_eq!(kernel(&kernels, "tile16").launch.block, None);
    assert_eq!(kernel(&kernels, "mangled").launch.block, None);
}

#[test]
fn each_kernel_takes_the_conditions_under_which_it_was_chosen() {
    let host = "void run(CUmodule module, CUdeviceptr d_out, int bs) {\n\
          CUfunction f = NULL;\n\
          if (bs == 16) { cuModuleGetFunction(&f, module, \"tile16\"); }\n\
          else if (bs == 32) { cuModuleGetFunction(&f, module, \"tile32\"); }\n\
          else { return; }\n\
          void *args[] = {&d_out};\n\
          cuLaunchKernel(f, 1, 1, 1, bs, bs, 1, 0, 0, args, NULL);\n\
        }\n";
    let kernels = lower(KERNELS, host);
    let dims = |name: &str| {
        let l = &kernel(&kernels, name).launch;
        [l.block_dim(0), l.block_dim(1), l.block_dim(2)]
    };
    assert_eq!(dims("tile16"), [Some(16), Some(16), Some(1)]);
    assert_eq!(dims("tile32"), [Some(32), Some(32), Some(1)]);
    assert_eq!(kernel(&kernels, "rows").launch.block, None);
}

#[test]
fn handles_that_cannot_be_followed_launch_nothing() {
    let shapes = [
        // Chosen in another function, through a pointer.
        host("init(module, &f);", LAUNCH),
        // Copied from another handle.
        host(
            "CUfunction g; cuModuleGetFunction(&g, module, \"rows\"); f = g;",
            LAUNCH,
        ),
        // Looked up by a name that is not a literal.
        host("cuModuleGetFunction(&f, module, names[0]);", LAUNCH),
        // Looked up after the launch.
        host("", &format!("{LAUNCH}\n{LOOKUP_ROWS}")),
        // Passed to a helper that may take it by reference.
        host(&format!("{LOOKUP_ROWS} configure(f);"), LAUNCH),
        // Kept from an earlier call.
        host(LOOKUP_ROWS, LAUNCH).replace("CUfunction f;", "static CUfunction f;"),
        // A launch of another shape anywhere in the program.
        format!(
            "{}void old(CUfunction h) {{ cuLaunchGrid(h, 1, 1); }}\n",
            host(LOOKUP_ROWS, LAUNCH)
        ),
    ];
    for h in &shapes {
        let kernels = lower(KERNELS, h);
        let rows = kernel(&kernels, "rows");
        assert_eq!(rows.launch.block, None, "{h}");
        assert_eq!(relation(rows), None, "{h}");
    }
    // The handle of a function in a parameter.
    let param = "void run(CUfunction f, CUdeviceptr d_out, int width, int height) {\n\
        void *args[] = {&d_out, &width};\n\
        cuLaunchKernel(f, width / 16, height / 16, 1, 16, 16, 1, 0, 0, args, 0);\n}\n";
    let kernels = lower(KERNELS, param);
    assert_eq!(kernel(&kernels, "rows").launch.block, None);
    // A kernel without C linkage is not found by its plain name.
    let mangled = host(
        "cuModuleGetFunction(&f, module, \"mangled\");",
        "cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, 0, args, 0);",
    );
    let kernels = lower(KERNELS, &mangled);
    assert_eq!(kernel(&kernels, "mangled").launch.block, None);
}

#[test]
fn an_argument_array_used_otherwise_gives_no_parameter() {
    // `args[1]` may point elsewhere by the launch: the width is not read
    // from it (the dimensions still are).
    let h = host(LOOKUP_ROWS, &format!("args[1] = &height;\n{LAUNCH}"));
    let kernels = lower(KERNELS, &h);
    let rows = kernel(&kernels, "rows");
    assert_eq!(rows.launch.block, Some([16, 16, 1]));
    let text = relation(rows).unwrap_or_default();
    assert!(!text.contains("width"), "{text}");
    // With the array only passed to the launch, it is.
    let kernels = lower(KERNELS, &host(LOOKUP_ROWS, LAUNCH));
    let text = relation(kernel(&kernels, "rows")).unwrap_or_default();
    assert!(text.contains("width"), "{text}");
}

#[test]
fn the_runtime_apis_argument_array_gives_parameters_too() {
    let text = "__global__ void k(float *d, unsigned n) { d[threadIdx.x % n] = 0; }\n\
        void run(float *d) {\n\
          unsigned n = 64;\n\
          void *args[] = {(void *)&d, (void *)&n};\n\
          cudaLaunchCooperativeKernel((void *)k, dim3(1), dim3(256), args, 0, 0);\n\
        }\n";
    let kernels = lower(text, "");
    assert_eq!(relation(&kernels[0]).as_deref(), Some("n == 64u"));
}
