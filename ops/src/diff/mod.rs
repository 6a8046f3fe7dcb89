//! `diff`: pointwise signed difference of two u16 planes, `a - b` as i32 (motion filters the difference of
//! consecutive frames, which equals the difference of the filtered frames but keeps libvmaf's rounding).

#[cfg(feature = "cube")]
mod cube;

use rayon::prelude::*;
use vqgraph_graph::{Elem, Op, OpClass, OpInfo, OpState, Value, ValueType};

use crate::util::{plane, same_planes};

pub const INFO: OpInfo = OpInfo { name: "diff", class: OpClass::Pointwise, summary: "a - b of two u16 planes as i32" };

/// Pointwise difference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Diff;

impl Op for Diff {
    fn info(&self) -> &'static OpInfo {
        &INFO
    }

    fn output_types(&self, inputs: &[ValueType]) -> Result<Vec<ValueType>, String> {
        let a = same_planes(inputs, &[Elem::U16])?;
        Ok(vec![ValueType::plane(Elem::I32, a.1, a.2)])
    }

    fn eval_cpu(&self, inputs: &[&Value], outputs: &mut [Value], _state: &mut OpState) -> Result<(), String> {
        let a = plane(inputs[0])?.data.as_u16().ok_or("a: not u16")?;
        let b = plane(inputs[1])?.data.as_u16().ok_or("b: not u16")?;
        let out = outputs[0].buf_mut().as_i32_mut().ok_or("out: not i32")?;
        out.par_chunks_mut(4096).zip(a.par_chunks(4096).zip(b.par_chunks(4096))).for_each(|(o, (a, b))| {
            for ((o, &x), &y) in o.iter_mut().zip(a).zip(b) {
                *o = x as i32 - y as i32;
            }
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use vqgraph_graph::{HostBuf, Plane};

    use super::*;

    #[test]
    fn signed_difference() {
        let a = Value::Plane(Plane { width: 3, height: 1, data: HostBuf::U16(vec![0, 5, 65535]) });
        let b = Value::Plane(Plane { width: 3, height: 1, data: HostBuf::U16(vec![65535, 5, 0]) });
        let ty = Diff.output_types(&[a.value_type(), b.value_type()]).unwrap();
        let mut out = vec![ty[0].zeroed()];
        Diff.eval_cpu(&[&a, &b], &mut out, &mut None).unwrap();
        assert_eq!(out[0].buf().as_i32().unwrap(), &[-65535, 0, 65535]);
    }
}
