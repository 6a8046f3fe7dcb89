//! vqgraph's ops: one folder per op, each with its written semantics, its type rule, its CPU reference in
//! exact integer arithmetic, and its tests. `registry.rs` lists them all.
//!
//! Every op's CPU reference is the oracle: other backends must reproduce its output bit for bit.

#[cfg(feature = "cube")]
pub mod kernel;
pub mod registry;
pub mod util;

pub mod abs_sum;
pub mod adm_cm;
pub mod adm_common;
pub mod adm_csf;
pub mod adm_csf_den;
pub mod adm_decouple;
pub mod adm_dwt;
pub mod decimate;
pub mod diff;
pub mod frame_delay;
pub mod sep_conv;
#[cfg(feature = "cube")]
pub mod softfloat;
pub mod sq_err_sum;
pub mod vif_stats;

pub use registry::{OpInfo, REGISTRY};
