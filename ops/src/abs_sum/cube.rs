//! CubeCL kernel of `abs_sum`: each unit adds `|x|` of a strided share of the plane in u64, each cube adds
//! its units' sums, and a second pass adds the cubes' partials (see [`crate::kernel`]).

use cubecl::prelude::*;

use super::AbsSum;
use crate::kernel::{CubeKernel, DeviceValue, KernelState, Partials, cube_sum, state_mut, wide};

#[cube(launch_unchecked)]
fn abs_sum_kernel(x: &Array<i32>, partials: &mut Array<u64>, n: u32) {
    let step = (CUBE_COUNT_X * CUBE_DIM_X) as usize;
    let mut i = (CUBE_POS_X * CUBE_DIM_X + UNIT_POS_X) as usize;
    let mut acc = 0u64;
    while i < n as usize {
        // Widened first: |i32::MIN| does not fit an i32.
        let mut v = wide::<i32>(x[i], true);
        if v < 0 {
            v = -v;
        }
        acc += u64::cast_from(v);
        i += step;
    }
    let total = cube_sum(acc);
    if UNIT_POS_X == 0 {
        partials[CUBE_POS_X as usize] = total;
    }
}

impl<R: Runtime> CubeKernel<R> for AbsSum {
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
        let p = state_mut::<Partials>(state, "abs_sum")?;
        let (count, dim) = p.first_pass();
        // SAFETY: units read only indices below `n` (the plane's length) and cube `c` writes partial `c`.
        unsafe {
            abs_sum_kernel::launch_unchecked::<R>(client, count, dim, inputs[0].arg(), p.arg(), inputs[0].len() as u32)
        };
        p.finish(client, &outputs[0])
    }
}

#[cfg(all(test, feature = "wgpu"))]
mod tests {
    use vqgraph_graph::{Elem, HostBuf, Plane, Value};

    use super::*;
    use crate::kernel::testing::{check, plane};

    #[test]
    fn matches_cpu_on_small_large_and_extreme_planes() {
        for (w, h) in [(1, 1), (7, 3), (481, 271), (1920, 1080), (3840, 2160)] {
            check(&AbsSum, &[plane(Elem::I32, w, h, -65535, 65535, w as u64)]);
        }
        // Every |x| at its maximum: the sum needs all 64 bits' worth of carries across partials.
        let extreme = Value::Plane(Plane { width: 1000, height: 1000, data: HostBuf::I32(vec![i32::MIN; 1_000_000]) });
        let out = check(&AbsSum, &[extreme]);
        assert_eq!(out[0].buf().as_u64().unwrap()[0], 1_000_000u64 << 31);
    }
}
