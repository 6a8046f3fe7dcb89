//! CubeCL kernel of `frame_delay`: the previous frame stays in a device buffer owned by the node; each
//! frame one pass writes it to the output and stores the current input in its place (on the first frame
//! the input goes to both). Words are copied, so any element type works.

use cubecl::prelude::*;
use cubecl::server::Handle;
use vqgraph_graph::ValueType;

use super::FrameDelay;
use crate::kernel::{CubeKernel, DeviceValue, KernelState, device_bytes, linear_index, linear_launch, state_mut};

#[cube(launch_unchecked)]
fn delay_kernel(input: &Array<u32>, prev: &mut Array<u32>, out: &mut Array<u32>, n: u32, first: u32) {
    let i = linear_index();
    if i < n as usize {
        let x = input[i];
        if first == 1 {
            out[i] = x;
        } else {
            out[i] = prev[i];
        }
        prev[i] = x;
    }
}

/// The delayed frame on the device.
struct Delay {
    prev: Handle,
    first: bool,
}

impl<R: Runtime> CubeKernel<R> for FrameDelay {
    fn prepare(
        &self,
        client: &ComputeClient<R>,
        inputs: &[ValueType],
        _outputs: &[ValueType],
    ) -> Result<KernelState, String> {
        Ok(Some(Box::new(Delay { prev: client.empty(device_bytes(&inputs[0])), first: true })))
    }

    fn launch(
        &self,
        client: &ComputeClient<R>,
        inputs: &[DeviceValue],
        outputs: &[DeviceValue],
        state: &mut KernelState,
    ) -> Result<(), String> {
        let d = state_mut::<Delay>(state, "frame_delay")?;
        let words = device_bytes(&inputs[0].ty) / 4;
        let (count, dim) = linear_launch(words);
        // SAFETY: the three buffers hold `words` 32-bit words each; units check their index against it.
        unsafe {
            delay_kernel::launch_unchecked::<R>(
                client,
                count,
                dim,
                inputs[0].words(),
                ArrayArg::from_raw_parts(d.prev.clone(), words),
                outputs[0].words(),
                words as u32,
                d.first as u32,
            )
        };
        d.first = false;
        Ok(())
    }
}

#[cfg(all(test, feature = "wgpu"))]
mod tests {
    use vqgraph_graph::Elem;

    use super::*;
    use crate::kernel::testing::{Harness, plane};

    #[test]
    fn delays_on_the_device_like_the_cpu() {
        for (elem, lo, hi) in [(Elem::U16, 0, 65535), (Elem::I32, -70000, 70000), (Elem::I64, i64::MIN + 1, i64::MAX)] {
            let (w, h) = (33, 5);
            let mut hx = Harness::new(&FrameDelay, &[ValueType::plane(elem, w, h)]);
            for f in 0..4u64 {
                hx.frame(&[plane(elem, w, h, lo, hi, f + 1)]);
            }
        }
    }
}
