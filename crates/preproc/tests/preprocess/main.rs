//! Integration tests of `warpsafe_preproc::preprocess` through its public API.
//!
//! Each module covers one area; `common` holds the in-memory loader and
//! helpers shared by all of them.

mod common;
mod conditionals;
mod includes;
mod line_map;
mod macros;
mod robustness;
