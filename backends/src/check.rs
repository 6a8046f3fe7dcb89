//! Check mode: runs a graph on a backend and on the CPU reference side by side, frame by frame, and names
//! the first node (in plan order, a topological order) whose output differs, with the first differing
//! element. Both sessions run the same plan, so their steps correspond one to one.

use std::fmt;
use std::sync::Arc;

use vqgraph_graph::{Backend, Graph, RunError, Value, check_inputs, schedule};
use vqgraph_ops::util::first_difference;

use crate::cpu::CpuBackend;

/// Where a backend first departed from the CPU reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub frame: usize,
    /// Display name of the node (`n12:motion.blur`).
    pub node: String,
    pub op: String,
    /// Output port of the node.
    pub output: usize,
    /// The first differing element, both values (CPU first).
    pub detail: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "frame {}: node {} ({}) output {} differs from cpu: {}",
            self.frame, self.node, self.op, self.output, self.detail
        )
    }
}

/// Result of a check run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckOutcome {
    /// Every output of every step of every frame was identical.
    Identical {
        frames: usize,
        steps: usize,
    },
    Differs(Mismatch),
}

/// Runs `graph` over `frames` on `backend` and on the CPU backend, comparing every step's outputs; stops at
/// the first frame with a difference.
pub fn check<I>(graph: &Graph, backend: &dyn Backend, frames: I) -> Result<CheckOutcome, RunError>
where
    I: IntoIterator<Item = Result<Vec<Value>, RunError>>,
{
    let plan = Arc::new(schedule(graph));
    let mut cpu = CpuBackend::new(0).start(plan.clone())?;
    let mut other = backend.start(plan.clone())?;
    let mut count = 0;
    for (frame, inputs) in frames.into_iter().enumerate() {
        let inputs = inputs?;
        check_inputs(graph, frame, &inputs)?;
        let mut want: Vec<Vec<Value>> = vec![Vec::new(); plan.steps.len()];
        cpu.run_frame_traced(frame, inputs.clone(), &mut |i, v| want[i] = v.to_vec())?;
        let mut first: Option<Mismatch> = None;
        other.run_frame_traced(frame, inputs, &mut |i, got| {
            if first.is_some() {
                return;
            }
            let step = &plan.steps[i];
            for (port, (w, g)) in want[i].iter().zip(got).enumerate() {
                if let Some(detail) = first_difference(w, g) {
                    let (node, op) = (step.name.clone(), step.op.name().to_string());
                    first = Some(Mismatch { frame, node, op, output: port, detail });
                    return;
                }
            }
        })?;
        if let Some(m) = first {
            return Ok(CheckOutcome::Differs(m));
        }
        count += 1;
    }
    Ok(CheckOutcome::Identical { frames: count, steps: plan.steps.len() })
}
