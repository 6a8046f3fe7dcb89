//! CubeCL kernel of `decimate`: one unit per output sample copies `in[2i][2j]`. Elements are moved as
//! their device words (32 or 64 bits), so one kernel serves every element type.

use cubecl::prelude::*;
use vqgraph_graph::ValueType;

use super::Decimate;
use crate::kernel::{CubeKernel, DeviceValue, KernelState, device_elem_size, rows_launch};

#[cube(launch_unchecked)]
fn decimate_kernel<T: CubePrimitive>(x: &Array<T>, out: &mut Array<T>, w: u32, ow: u32) {
    let j = CUBE_POS_X * CUBE_DIM_X + UNIT_POS_X;
    let i = CUBE_POS_Y;
    if j < ow {
        out[(i * ow + j) as usize] = x[(2 * i * w + 2 * j) as usize];
    }
}

impl<R: Runtime> CubeKernel<R> for Decimate {
    fn launch(
        &self,
        client: &ComputeClient<R>,
        inputs: &[DeviceValue],
        outputs: &[DeviceValue],
        _state: &mut KernelState,
    ) -> Result<(), String> {
        let (ValueType::Plane { width: w, .. }, ValueType::Plane { width: ow, height: oh, .. }) =
            (inputs[0].ty, outputs[0].ty)
        else {
            return Err("decimate: expected planes".into());
        };
        let (count, dim) = rows_launch(ow, oh)?;
        let (x, out) = (inputs[0].arg(), outputs[0].arg());
        // SAFETY: the launch covers `oh` rows; units past column `ow` do nothing; row `i < oh` of the output
        // reads row `2i < h` of the input, column `2j < w`.
        unsafe {
            if device_elem_size(inputs[0].ty.elem()) == 8 {
                decimate_kernel::launch_unchecked::<u64, R>(client, count, dim, x, out, w as u32, ow as u32)
            } else {
                decimate_kernel::launch_unchecked::<u32, R>(client, count, dim, x, out, w as u32, ow as u32)
            }
        };
        Ok(())
    }
}

#[cfg(all(test, feature = "wgpu"))]
mod tests {
    use vqgraph_graph::Elem;

    use super::*;
    use crate::kernel::testing::{check, plane};

    #[test]
    fn matches_cpu_for_every_element_type_and_odd_sizes() {
        let ranges = [
            (Elem::U16, 0, 65535),
            (Elem::I16, -32768, 32767),
            (Elem::U32, 0, u32::MAX as i64),
            (Elem::I32, i32::MIN as i64, i32::MAX as i64),
            (Elem::U64, 0, i64::MAX),
            (Elem::I64, i64::MIN + 1, i64::MAX),
        ];
        for (elem, lo, hi) in ranges {
            for (w, h) in [(2, 2), (5, 3), (481, 271), (576, 324)] {
                check(&Decimate, &[plane(elem, w, h, lo, hi, (w * h) as u64)]);
            }
        }
    }
}
