//! vqgraph's executors. `cpu` interprets a plan on the host with rayon; the CubeCL executors (wgpu, cuda,
//! hip) come in their own module. `select` turns a `--backend` name into an executor, never falling back
//! silently.

pub mod cpu;
mod select;

pub use cpu::CpuBackend;
pub use select::{BackendKind, select};
