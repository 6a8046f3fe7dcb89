//! `graph::run`: the library entry point.

use std::sync::Arc;

use crate::backend::{Backend, FrameOutputs};
use crate::builder::Graph;
use crate::error::RunError;
use crate::plan::schedule;
use crate::value::Value;

/// Runs `graph` on `backend` over a stream of frames.
///
/// Each item of `frames` holds one value per graph input, in the graph's input order. Each frame's
/// outputs are handed to `sink` in frame order. Returns the number of frames run. A frame whose inputs
/// do not have the declared types is rejected with an error naming the frame and the input.
pub fn run<I, F>(graph: &Graph, backend: &dyn Backend, frames: I, mut sink: F) -> Result<usize, RunError>
where
    I: IntoIterator<Item = Result<Vec<Value>, RunError>>,
    F: FnMut(usize, FrameOutputs) -> Result<(), RunError>,
{
    let plan = Arc::new(schedule(graph));
    let mut session = backend.start(plan.clone())?;
    let mut count = 0;
    for (frame, inputs) in frames.into_iter().enumerate() {
        let inputs = inputs?;
        check_inputs(graph, frame, &inputs)?;
        let out = session.run_frame(frame, inputs)?;
        sink(frame, out)?;
        count += 1;
    }
    Ok(count)
}

/// Verifies that a frame's values match the graph's declared inputs.
pub fn check_inputs(graph: &Graph, frame: usize, inputs: &[Value]) -> Result<(), RunError> {
    if inputs.len() != graph.inputs.len() {
        return Err(RunError::Input {
            frame,
            input: "*".into(),
            reason: format!("expected {} input values, got {}", graph.inputs.len(), inputs.len()),
        });
    }
    for ((name, id), v) in graph.inputs.iter().zip(inputs) {
        let want = graph.nodes[*id].outputs[0];
        let got = v.value_type();
        if want != got {
            return Err(RunError::Input { frame, input: name.clone(), reason: format!("expected {want}, got {got}") });
        }
    }
    Ok(())
}
