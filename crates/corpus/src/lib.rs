//! GPUVerify's test-suite annotation format, so that public corpora run
//! unchanged under warpsafe.
//!
//! A corpus kernel starts with a small header of `//` comments:
//!
//! ```text
//! //xfail:NOT_ALL_VERIFIED                 <- line 1: the expected outcome
//! //--blockDim=[16,16] --gridDim=4 -DN=8   <- line 2: command-line flags
//! //--warp-sync=32                         <- lines 3+: more flags (optional)
//! //possible write-write race              <- then: expected-output regexes
//! ```
//!
//! [`parse_header`] reads that header from a file's text into a [`Header`];
//! [`parse_flags`] interprets its flags (or a command line) as
//! [`KernelFlags`]; [`parse_dims`] and [`split_args`] are the building blocks
//! the CLI reuses.
//!
//! Invariants:
//! - The crate does no I/O: it only reads the strings it is given.
//! - No parser panics, whatever its input (checked by property tests).
//! - Flags GPUVerify knows but warpsafe has no use for are kept in
//!   [`KernelFlags::ignored`], unknown ones in [`KernelFlags::unknown`]; only
//!   a malformed value of a recognised flag is an error ([`FlagError`]).

mod args;
mod dims;
mod error;
mod expectation;
mod flags;
mod header;
mod spellings;

pub use args::{split_args, substitute_kernel_dir};
pub use dims::{parse_dims, DimError};
pub use error::FlagError;
pub use expectation::{Expectation, FailureKind};
pub use flags::{parse_flags, KernelFlags};
pub use header::{parse_header, Header};
