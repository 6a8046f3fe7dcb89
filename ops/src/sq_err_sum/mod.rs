//! `sq_err_sum`: exact sum of squared differences of two planes, `sum (a - b)^2` as one u64.
//!
//! PSNR and MSE are computed from it on the host. Unsigned 64-bit is exact for any plane up to 16-bit
//! samples and 2^32 pixels.

mod cpu;
#[cfg(feature = "cube")]
mod cube;
#[cfg(test)]
mod tests;

use vqgraph_graph::{Elem, Op, OpClass, OpInfo, OpState, Value, ValueType};

use crate::util::same_planes;

pub const INFO: OpInfo =
    OpInfo { name: "sq_err_sum", class: OpClass::Reduce, summary: "sum of squared differences of two planes (u64)" };

/// Sum of squared errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SqErrSum;

impl Op for SqErrSum {
    fn info(&self) -> &'static OpInfo {
        &INFO
    }

    fn output_types(&self, inputs: &[ValueType]) -> Result<Vec<ValueType>, String> {
        same_planes(inputs, &[Elem::U16])?;
        Ok(vec![ValueType::sums(Elem::U64, 1)])
    }

    fn eval_cpu(&self, inputs: &[&Value], outputs: &mut [Value], _state: &mut OpState) -> Result<(), String> {
        cpu::eval(inputs[0], inputs[1], &mut outputs[0])
    }
}
