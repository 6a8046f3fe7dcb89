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

#[cfg(test)]
mod tests {
    use vqgraph_graph::{Elem, FrameOutputs, GraphBuilder, HostBuf, Plan, Plane, Session, StepTrace, ValueType};
    use vqgraph_ops::abs_sum::AbsSum;
    use vqgraph_ops::diff::Diff;

    use super::*;

    /// The CPU backend, except that the traced output of the plan's step `bad` has its first element changed:
    /// a stand-in for a device kernel with a bug.
    struct Faulty {
        bad: usize,
    }

    struct FaultySession {
        inner: Box<dyn vqgraph_graph::Session>,
        bad: usize,
    }

    impl Backend for Faulty {
        fn name(&self) -> &str {
            "faulty"
        }
        fn device(&self) -> String {
            "test double".into()
        }
        fn start(&self, plan: Arc<Plan>) -> Result<Box<dyn Session>, RunError> {
            Ok(Box::new(FaultySession { inner: CpuBackend::new(1).start(plan)?, bad: self.bad }))
        }
    }

    impl Session for FaultySession {
        fn run_frame(&mut self, frame: usize, inputs: Vec<Value>) -> Result<FrameOutputs, RunError> {
            self.inner.run_frame(frame, inputs)
        }
        fn run_frame_traced(
            &mut self,
            frame: usize,
            inputs: Vec<Value>,
            trace: &mut StepTrace<'_>,
        ) -> Result<FrameOutputs, RunError> {
            let bad = self.bad;
            self.inner.run_frame_traced(frame, inputs, &mut |i, v| {
                let mut v = v.to_vec();
                if i == bad
                    && frame == 1
                    && let Some(x) = v[0].buf_mut().as_i32_mut()
                {
                    x[0] += 1;
                }
                trace(i, &v);
            })
        }
    }

    #[test]
    fn names_the_first_node_that_differs() {
        let mut b = GraphBuilder::new();
        let x = b.input("a", ValueType::plane(Elem::U16, 4, 2)).unwrap();
        let y = b.input("b", ValueType::plane(Elem::U16, 4, 2)).unwrap();
        let d = b.op1("delta", Diff, &[x, y]).unwrap();
        let s = b.op1("sad", AbsSum, &[d]).unwrap();
        b.output("sad", s).unwrap();
        let graph = b.build().unwrap();
        let plane = |v: u16| Value::Plane(Plane { width: 4, height: 2, data: HostBuf::U16(vec![v; 8]) });
        let frames = || (0..3u16).map(|f| Ok(vec![plane(f), plane(2 * f)]));
        assert_eq!(
            check(&graph, &CpuBackend::new(2), frames()).unwrap(),
            CheckOutcome::Identical { frames: 3, steps: 2 }
        );
        let CheckOutcome::Differs(m) = check(&graph, &Faulty { bad: 0 }, frames()).unwrap() else {
            panic!("the fault went unnoticed")
        };
        assert_eq!((m.frame, m.op.as_str(), m.output), (1, "diff", 0));
        assert!(m.node.ends_with("delta") && m.detail.contains("element 0"), "{m}");
    }
}
