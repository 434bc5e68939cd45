//! `warpsafe ir FILE`: prints the kernel IR, and the front end's diagnostics.

use crate::exit;
use crate::input::{load, InputArgs};
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub struct IrArgs {
    /// The CUDA file (.cu or .cuh).
    pub file: PathBuf,
    #[command(flatten)]
    pub input: InputArgs,
    /// Print the IR as JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also print an intermediate stage of the static engine.
    #[arg(long, value_enum)]
    pub dump: Option<Stage>,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Stage {
    /// Each kernel's memory access protocol.
    Protocol,
}

pub fn run(args: IrArgs) -> Result<u8> {
    let loaded = load(&args.file, &args.input.to_flags())?;
    let out = &loaded.output;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&out.module)?);
    } else {
        for (i, k) in out.module.kernels.iter().enumerate() {
            if i > 0 {
                println!();
            }
            print!("{}", warpsafe_ir::print_kernel(k, &loaded.sources));
            if let Some(Stage::Protocol) = args.dump {
                println!("\nprotocol of {}:", k.name);
                match warpsafe_static::infer(k) {
                    Ok(p) => print!("{}", warpsafe_static::print_protocol(&p, k)),
                    Err(e) => println!("  (no protocol: {e})"),
                }
            }
        }
    }
    if !out.diagnostics.is_empty() {
        eprint!(
            "{}",
            warpsafe_report::render_diagnostics(&loaded.sources, &out.diagnostics)
        );
    }
    Ok(if out.has_errors() {
        exit::UNUSABLE
    } else {
        exit::OK
    })
}
