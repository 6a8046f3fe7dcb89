//! `decimate`: 2x downsampling by taking every other sample, `out[i][j] = in[2i][2j]`, size `floor(w/2) x
//! floor(h/2)` (libvmaf's VIF takes the even samples of the pre-filtered plane).

mod cpu;
#[cfg(feature = "cube")]
mod cube;
#[cfg(test)]
mod tests;

use vqgraph_graph::{Elem, Op, OpClass, OpInfo, OpState, Value, ValueType};

use crate::util::{arity, plane_geom};

pub const INFO: OpInfo =
    OpInfo { name: "decimate", class: OpClass::Resample, summary: "keep even rows and columns (2x down)" };

/// 2x decimation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decimate;

impl Op for Decimate {
    fn info(&self) -> &'static OpInfo {
        &INFO
    }

    fn output_types(&self, inputs: &[ValueType]) -> Result<Vec<ValueType>, String> {
        arity(inputs, 1)?;
        let all = [Elem::U16, Elem::I16, Elem::U32, Elem::I32, Elem::U64, Elem::I64];
        let (elem, w, h) = plane_geom(&inputs[0], &all, "input")?;
        if w < 2 || h < 2 {
            return Err(format!("plane {w}x{h} is too small to decimate"));
        }
        Ok(vec![ValueType::plane(elem, w / 2, h / 2)])
    }

    fn eval_cpu(&self, inputs: &[&Value], outputs: &mut [Value], _state: &mut OpState) -> Result<(), String> {
        cpu::eval(inputs[0], &mut outputs[0])
    }
}
