//! CubeCL kernel of `sq_err_sum`: each unit adds `(a - b)^2` of a strided share of the planes in u64, each
//! cube adds its units' sums, and a second pass adds the cubes' partials (see [`crate::kernel`]).

use cubecl::prelude::*;

use super::SqErrSum;
use crate::kernel::{CubeKernel, DeviceValue, KernelState, Partials, cube_sum, state_mut, wide};

#[cube(launch_unchecked)]
fn sq_err_kernel(a: &Array<u32>, b: &Array<u32>, partials: &mut Array<u64>, n: u32) {
    let step = (CUBE_COUNT_X * CUBE_DIM_X) as usize;
    let mut i = (CUBE_POS_X * CUBE_DIM_X + UNIT_POS_X) as usize;
    let mut acc = 0u64;
    while i < n as usize {
        // 16-bit samples: the square is below 2^32, so u64 holds it and any sum up to 2^32 pixels.
        let e = wide::<u32>(a[i], false) - wide::<u32>(b[i], false);
        acc += u64::cast_from(e * e);
        i += step;
    }
    let total = cube_sum(acc);
    if UNIT_POS_X == 0 {
        partials[CUBE_POS_X as usize] = total;
    }
}

impl<R: Runtime> CubeKernel<R> for SqErrSum {
    fn prepare(
        &self,
        client: &ComputeClient<R>,
        inputs: &[vqgraph_graph::ValueType],
        _outputs: &[vqgraph_graph::ValueType],
    ) -> Result<KernelState, String> {
        Ok(Some(Box::new(Partials::new(client, inputs[0].len(), 1))))
    }

    fn launch(
        &self,
        client: &ComputeClient<R>,
        inputs: &[DeviceValue],
        outputs: &[DeviceValue],
        state: &mut KernelState,
    ) -> Result<(), String> {
        let p = state_mut::<Partials>(state, "sq_err_sum")?;
        let (count, dim) = p.first_pass();
        // SAFETY: units read only indices below `n` (both planes' length) and cube `c` writes partial `c`.
        unsafe {
            sq_err_kernel::launch_unchecked::<R>(
                client,
                count,
                dim,
                inputs[0].arg(),
                inputs[1].arg(),
                p.arg(),
                inputs[0].len() as u32,
            )
        };
        p.finish(client, &outputs[0])
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
            for max in [255i64, 1023, 65535] {
                let seed = (w + h) as u64 * max as u64;
                check(&SqErrSum, &[plane(Elem::U16, w, h, 0, max, seed), plane(Elem::U16, w, h, 0, max, seed + 7)]);
            }
        }
    }
}
