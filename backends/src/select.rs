//! Backend selection by name. An explicitly requested backend that cannot start is an error, never a
//! silent fallback to another one.

use std::fmt;
use std::str::FromStr;

use vqgraph_graph::{Backend, RunError};

use crate::cpu::CpuBackend;

/// Backends a user can ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendKind {
    Cpu,
    Wgpu,
    Cuda,
    Hip,
    /// The best available: CUDA, then a GPU through wgpu, then the CPU.
    Auto,
}

impl FromStr for BackendKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "cpu" => Ok(BackendKind::Cpu),
            "wgpu" => Ok(BackendKind::Wgpu),
            "cuda" => Ok(BackendKind::Cuda),
            "hip" => Ok(BackendKind::Hip),
            "auto" => Ok(BackendKind::Auto),
            other => Err(format!("unknown backend {other:?} (expected cpu, wgpu, cuda, hip or auto)")),
        }
    }
}

impl fmt::Display for BackendKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            BackendKind::Cpu => "cpu",
            BackendKind::Wgpu => "wgpu",
            BackendKind::Cuda => "cuda",
            BackendKind::Hip => "hip",
            BackendKind::Auto => "auto",
        };
        f.write_str(s)
    }
}

/// Starts the requested backend. `threads` applies to the CPU backend (0 = all cores).
///
/// `auto` is the CPU until every op has a device kernel (a GPU backend could not run the default models
/// yet); a GPU backend asked for by name that this build lacks or that finds no device is an error.
pub fn select(kind: BackendKind, threads: usize) -> Result<Box<dyn Backend>, RunError> {
    let missing = |reason: &str| RunError::Backend { backend: kind.to_string(), reason: reason.into() };
    match kind {
        BackendKind::Cpu | BackendKind::Auto => Ok(Box::new(CpuBackend::new(threads))),
        #[cfg(feature = "wgpu")]
        BackendKind::Wgpu => Ok(Box::new(crate::cube::wgpu(Default::default())?)),
        #[cfg(feature = "cuda")]
        BackendKind::Cuda => Ok(Box::new(crate::cube::cuda(0)?)),
        #[cfg(feature = "hip")]
        BackendKind::Hip => Ok(Box::new(crate::cube::hip(0)?)),
        #[allow(unreachable_patterns)]
        _ => Err(missing(&format!("this build has no {kind} backend (rebuild with `--features {kind}`)"))),
    }
}
