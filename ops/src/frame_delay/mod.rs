//! `frame_delay`: outputs the input of the previous frame (on the first frame, the current input).
//!
//! The graph's way of saying "the previous frame": temporal metrics (motion) read it, and backends keep the
//! delayed plane on their device. Repeating the first frame makes frame 0's difference zero, which is
//! libvmaf's motion score for frame 0.

#[cfg(feature = "cube")]
mod cube;

use vqgraph_graph::{Op, OpClass, OpInfo, OpState, Value, ValueType};

use crate::util::arity;

pub const INFO: OpInfo =
    OpInfo { name: "frame_delay", class: OpClass::Temporal, summary: "the previous frame's value of its input" };

/// One-frame delay line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameDelay;

impl Op for FrameDelay {
    fn info(&self) -> &'static OpInfo {
        &INFO
    }

    fn output_types(&self, inputs: &[ValueType]) -> Result<Vec<ValueType>, String> {
        arity(inputs, 1)?;
        Ok(vec![inputs[0]])
    }

    fn eval_cpu(&self, inputs: &[&Value], outputs: &mut [Value], state: &mut OpState) -> Result<(), String> {
        let prev = state.get_or_insert_with(|| Box::new(inputs[0].clone()));
        let prev = prev.downcast_mut::<Value>().ok_or("frame_delay: foreign state")?;
        // One copy per frame: the stored frame moves to the output, the input is copied into the store.
        std::mem::swap(&mut outputs[0], prev);
        prev.clone_from(inputs[0]);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use vqgraph_graph::{HostBuf, Plane};

    use super::*;

    #[test]
    fn delays_by_one_frame_repeating_the_first() {
        let mut state: OpState = None;
        let frame = |x: u16| Value::Plane(Plane { width: 1, height: 1, data: HostBuf::U16(vec![x]) });
        let mut out = vec![frame(0)];
        let mut seen = Vec::new();
        for x in [7, 8, 9] {
            FrameDelay.eval_cpu(&[&frame(x)], &mut out, &mut state).unwrap();
            seen.push(out[0].buf().as_u16().unwrap()[0]);
        }
        assert_eq!(seen, vec![7, 7, 8]);
    }
}
