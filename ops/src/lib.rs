//! vqgraph's ops: one folder per op, each with its written semantics, its type rule, its CPU reference in
//! exact integer arithmetic, and its tests. `registry.rs` lists them all.
//!
//! Every op's CPU reference is the oracle: other backends must reproduce its output bit for bit.

pub mod registry;
pub mod util;

pub mod decimate;
pub mod sep_conv;
pub mod sq_err_sum;
pub mod diff;
pub mod abs_sum;
pub mod frame_delay;

pub use registry::{OpInfo, REGISTRY};
