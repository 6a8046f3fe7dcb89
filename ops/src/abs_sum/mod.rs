//! `abs_sum`: exact sum of absolute values of an i32 plane as one u64 (motion's SAD).

#[cfg(feature = "cube")]
mod cube;

use rayon::prelude::*;
use vqgraph_graph::{Elem, Op, OpClass, OpInfo, OpState, Value, ValueType};

use crate::util::{arity, plane, plane_geom};

pub const INFO: OpInfo =
    OpInfo { name: "abs_sum", class: OpClass::Reduce, summary: "sum of |x| over an i32 plane (u64)" };

/// Sum of absolute values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AbsSum;

impl Op for AbsSum {
    fn info(&self) -> &'static OpInfo {
        &INFO
    }

    fn output_types(&self, inputs: &[ValueType]) -> Result<Vec<ValueType>, String> {
        arity(inputs, 1)?;
        plane_geom(&inputs[0], &[Elem::I32], "input")?;
        Ok(vec![ValueType::sums(Elem::U64, 1)])
    }

    fn eval_cpu(&self, inputs: &[&Value], outputs: &mut [Value], _state: &mut OpState) -> Result<(), String> {
        let x = plane(inputs[0])?.data.as_i32().ok_or("input: not i32")?;
        let s: u64 = x.par_chunks(4096).map(|c| c.iter().map(|&v| v.unsigned_abs() as u64).sum::<u64>()).sum();
        outputs[0].buf_mut().as_u64_mut().ok_or("out: not u64")?[0] = s;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use vqgraph_graph::{HostBuf, Plane};

    use super::*;

    #[test]
    fn sums_absolute_values() {
        let a = Value::Plane(Plane { width: 2, height: 2, data: HostBuf::I32(vec![-3, 4, i32::MIN, 0]) });
        let mut out = vec![ValueType::sums(Elem::U64, 1).zeroed()];
        AbsSum.eval_cpu(&[&a], &mut out, &mut None).unwrap();
        assert_eq!(out[0].buf().as_u64().unwrap(), &[7 + (1u64 << 31)]);
    }
}
