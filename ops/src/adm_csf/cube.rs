//! CubeCL kernel of `adm_csf`: one unit per sample weighs the h, v and d bands at that position (one launch
//! for the three bands).
//!
//! `(factor * x + round) >> shift` is formed in u64 bits (two's-complement products and sums modulo 2^64
//! are the bits of the i64 ones; wrapping is defined there on every backend, and the reference's i64 cannot
//! overflow for its u32 factors and 32-bit samples anyway), reinterpreted as i64 for the arithmetic shift,
//! and cast to the band type like C (low 32 bits, then low 16 sign-extended for `i16` bands).

use cubecl::prelude::*;
use vqgraph_graph::Elem;

use super::AdmCsf;
use crate::kernel::{CubeKernel, DeviceValue, KernelState, linear_index, linear_launch, narrow16, wide};

/// One band sample weighed: `T((factor * x + round) >> shift)`.
#[cube]
fn weigh(x: i32, factor: u64, round: u64, shift: i64, #[comptime] to_i16: bool) -> i32 {
    let xw = u64::cast_from(wide::<i32>(x, true));
    let v = i32::cast_from(i64::cast_from(factor * xw + round) >> shift);
    let mut o = v;
    if comptime![to_i16] {
        o = narrow16::<i32>(v, true);
    }
    o
}

#[cube(launch_unchecked)]
fn csf_kernel(
    xh: &Array<i32>,
    xv: &Array<i32>,
    xd: &Array<i32>,
    oh: &mut Array<i32>,
    ov: &mut Array<i32>,
    od: &mut Array<i32>,
    n: u32,
    f_h: u64,
    f_v: u64,
    f_d: u64,
    r_h: u64,
    r_v: u64,
    r_d: u64,
    s_h: i64,
    s_v: i64,
    s_d: i64,
    #[comptime] to_i16: bool,
) {
    let i = linear_index();
    if i < n as usize {
        oh[i] = weigh(xh[i], f_h, r_h, s_h, to_i16);
        ov[i] = weigh(xv[i], f_v, r_v, s_v, to_i16);
        od[i] = weigh(xd[i], f_d, r_d, s_d, to_i16);
    }
}

impl<R: Runtime> CubeKernel<R> for AdmCsf {
    fn launch(
        &self,
        client: &ComputeClient<R>,
        inputs: &[DeviceValue],
        outputs: &[DeviceValue],
        _state: &mut KernelState,
    ) -> Result<(), String> {
        let to_i16 = match inputs[0].ty.elem() {
            Elem::I16 => true,
            Elem::I32 => false,
            other => return Err(format!("adm_csf: no kernel for {other} bands")),
        };
        let n = inputs[0].len();
        let (count, dim) = linear_launch(n);
        // Rounding terms as their two's-complement bits (see `weigh`).
        let [f_h, f_v, f_d] = self.factor.map(u64::from);
        let [r_h, r_v, r_d] = self.round.map(|r| r as u64);
        let [s_h, s_v, s_d] = self.shift.map(i64::from);
        // SAFETY: the six planes have `n` elements (the type rule requires equal geometries); units check
        // their index against `n`.
        unsafe {
            csf_kernel::launch_unchecked::<R>(
                client,
                count,
                dim,
                inputs[0].arg(),
                inputs[1].arg(),
                inputs[2].arg(),
                outputs[0].arg(),
                outputs[1].arg(),
                outputs[2].arg(),
                n as u32,
                f_h,
                f_v,
                f_d,
                r_h,
                r_v,
                r_d,
                s_h,
                s_v,
                s_d,
                to_i16,
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

    /// libvmaf's default scale-0 weights (`i_rfactor`) and the Q32 weights of its default CSF at scale 1.
    const I_RFACTOR0: [u16; 3] = [36453, 36453, 49417];
    const RFACTOR1: [u32; 3] = [394_829_027, 394_829_027, 188_166_307];

    fn bands(elem: Elem, w: usize, h: usize, lo: i64, hi: i64, seed: u64) -> [vqgraph_graph::Value; 3] {
        [0, 1, 2].map(|b| plane(elem, w, h, lo, hi, seed * 3 + b))
    }

    #[test]
    fn scale0_weights_on_full_range_i16_bands() {
        for factor in [I_RFACTOR0, [u16::MAX; 3], [0, 1, 2]] {
            for (k, (w, h)) in [(1, 1), (3, 3), (181, 136), (241, 136), (960, 540)].into_iter().enumerate() {
                check(&AdmCsf::scale0(factor), &bands(Elem::I16, w, h, -32768, 32767, k as u64));
            }
        }
    }

    #[test]
    fn scale123_weights_on_full_range_i32_bands() {
        for factor in [RFACTOR1, [u32::MAX; 3], [0, 1, 1 << 31]] {
            for (k, (w, h)) in [(1, 1), (3, 3), (91, 68), (121, 68)].into_iter().enumerate() {
                check(&AdmCsf::scale123(factor), &bands(Elem::I32, w, h, i32::MIN as i64, i32::MAX as i64, k as u64));
            }
        }
    }

    /// Parameters no ADM scale uses: scale-0 rounding on `i32` bands, Q32 rounding on `i16` bands, negative
    /// and zero rounding terms, zero and large shifts, so every cast and shift case is covered.
    #[test]
    fn any_parameters_on_either_band_type() {
        let ops = [
            // The reference's i64 must not overflow: |factor * x| < 2^63 - 2^31 leaves 2^31 for the rounding.
            AdmCsf { factor: [u32::MAX, 7, 65536], round: [-(1 << 31), 0, 3], shift: [62, 0, 1] },
            AdmCsf { factor: [1, 1 << 20, 12345], round: [0, -(1 << 40), 1 << 27], shift: [0, 33, 28] },
            AdmCsf::scale0([65535, 1, 40000]),
            AdmCsf::scale123([u32::MAX, 1 << 28, 3]),
        ];
        for op in ops {
            check(&op, &bands(Elem::I16, 37, 11, -32768, 32767, 5));
            check(&op, &bands(Elem::I32, 37, 11, i32::MIN as i64, i32::MAX as i64, 6));
        }
    }
}
