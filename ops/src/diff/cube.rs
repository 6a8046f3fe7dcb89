//! CubeCL kernel of `diff`: one unit per pixel, `a - b` of two u16 planes (stored as u32) into i32.

use cubecl::prelude::*;

use super::Diff;
use crate::kernel::{CubeKernel, DeviceValue, KernelState, linear_index, linear_launch};

#[cube(launch_unchecked)]
fn diff_kernel(a: &Array<u32>, b: &Array<u32>, out: &mut Array<i32>, n: u32) {
    let i = linear_index();
    if i < n as usize {
        out[i] = i32::cast_from(a[i]) - i32::cast_from(b[i]);
    }
}

impl<R: Runtime> CubeKernel<R> for Diff {
    fn launch(
        &self,
        client: &ComputeClient<R>,
        inputs: &[DeviceValue],
        outputs: &[DeviceValue],
        _state: &mut KernelState,
    ) -> Result<(), String> {
        let n = outputs[0].len();
        let (count, dim) = linear_launch(n);
        // SAFETY: every unit checks its index against `n`, the length of all three buffers.
        unsafe {
            diff_kernel::launch_unchecked::<R>(
                client,
                count,
                dim,
                inputs[0].arg(),
                inputs[1].arg(),
                outputs[0].arg(),
                n as u32,
            )
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
    fn matches_cpu_on_every_range_and_odd_sizes() {
        for (w, h) in [(1, 1), (7, 3), (481, 271), (1920, 1080)] {
            for (k, max) in [255i64, 1023, 65535].into_iter().enumerate() {
                let seed = (w * h + k) as u64;
                check(&Diff, &[plane(Elem::U16, w, h, 0, max, seed), plane(Elem::U16, w, h, 0, max, seed + 1)]);
            }
        }
    }
}
