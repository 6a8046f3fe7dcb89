//! vqgraph's executors. `cpu` interprets a plan on the host with rayon; `cube` (with the `wgpu`, `cuda` or
//! `hip` features) runs it on a device through CubeCL. `select` turns a `--backend` name into an executor,
//! never falling back silently; `check` runs a graph on a backend and on the CPU and names the first node
//! whose output differs.

pub mod check;
pub mod cpu;
#[cfg(feature = "cube")]
pub mod cube;
mod select;

pub use check::{CheckOutcome, Mismatch, check};
pub use cpu::CpuBackend;
pub use select::{BackendKind, select};
