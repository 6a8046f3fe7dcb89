//! The `Backend` trait: what an executor must provide to run a plan frame by frame.

use std::sync::Arc;

use crate::error::RunError;
use crate::plan::Plan;
use crate::value::{HostBuf, Value};

/// The sums one frame produced, in the plan's output order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameOutputs {
    pub values: Vec<(String, HostBuf)>,
}

impl FrameOutputs {
    /// The sums of a named output.
    pub fn get(&self, name: &str) -> Option<&HostBuf> {
        self.values.iter().find(|(n, _)| n == name).map(|(_, b)| b)
    }
}

/// Receives each step's outputs in a traced run ([`Session::run_frame_traced`]): the step's index in the
/// plan and its output values.
pub type StepTrace<'a> = dyn FnMut(usize, &[Value]) + 'a;

/// An executor of plans (CPU interpreter, CubeCL runtimes, ...).
pub trait Backend: Send + Sync {
    /// Short name: `cpu`, `wgpu`, `cuda`, ...
    fn name(&self) -> &str;
    /// The device it runs on, in words (for logs and JSON output).
    fn device(&self) -> String;
    /// Allocates what a stream of frames through `plan` needs.
    fn start(&self, plan: Arc<Plan>) -> Result<Box<dyn Session>, RunError>;
}

/// One stream of frames through one plan on one backend; holds buffers and temporal state.
pub trait Session: Send {
    /// Runs one frame. `inputs` follow the plan's input order and have the declared types; the session takes
    /// them over (a host backend keeps them as its input buffers, a device backend uploads them).
    fn run_frame(&mut self, frame: usize, inputs: Vec<Value>) -> Result<FrameOutputs, RunError>;

    /// Like [`Session::run_frame`], and hands every step's outputs (on the host) to `trace` right after the
    /// step ran, with the step's index in the plan. This is how backends are checked against each other node
    /// by node; it may be much slower than `run_frame`.
    fn run_frame_traced(
        &mut self,
        frame: usize,
        inputs: Vec<Value>,
        trace: &mut StepTrace<'_>,
    ) -> Result<FrameOutputs, RunError> {
        let _ = (frame, inputs, trace);
        Err(RunError::Backend { backend: "?".into(), reason: "this backend cannot trace steps".into() })
    }
}
