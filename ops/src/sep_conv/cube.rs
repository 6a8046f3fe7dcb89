//! CubeCL kernel of `sep_conv`: a vertical pass into an i64 scratch plane, then a horizontal pass into the
//! output, one unit per sample each. With stride 2 the vertical pass computes only the even rows and the
//! horizontal pass only the even columns.
//!
//! All arithmetic is i64, which is the op's defined semantics; the CPU reference's narrower accumulators
//! are chosen only where they provably give the same integers (see `cpu.rs`), so both agree in every case.
//! The vertical result is kept in i64 as well, so no accumulator case needs its own kernel. The output is
//! cast like C (low bits kept), 16-bit results narrowed then widened for the device layout.

use cubecl::prelude::*;
use cubecl::server::Handle;
use vqgraph_graph::{Elem, ValueType};

use super::SepConv;
use crate::kernel::{CubeKernel, DeviceValue, KernelState, mirror, narrow16, rows_launch, state_mut, wide};

/// `tmp[i][j] = (sum_k taps[k] * x[mirror(stride*i - r + k)][j] + round) >> shift` for output rows `i`.
#[cube(launch_unchecked)]
fn vertical<I: Int>(
    x: &Array<I>,
    taps: &Array<i64>,
    tmp: &mut Array<i64>,
    w: u32,
    h: u32,
    round: i64,
    shift: i64,
    #[comptime] ntaps: u32,
    #[comptime] stride: u32,
    #[comptime] signed: bool,
) {
    let j = CUBE_POS_X * CUBE_DIM_X + UNIT_POS_X;
    let i = CUBE_POS_Y;
    if j < w {
        let top = (i * stride) as i32 - comptime![(ntaps / 2) as i32];
        let mut acc = 0i64;
        #[unroll]
        for k in 0..ntaps {
            let row = mirror(top + k as i32, h as i32) as u32;
            acc += taps[k as usize] * wide::<I>(x[(row * w + j) as usize], signed);
        }
        tmp[(i * w + j) as usize] = (acc + round) >> shift;
    }
}

/// `out[i][j] = O((sum_k taps[k] * tmp[i][mirror(stride*j - r + k)] + round) >> shift)`; `narrow`: 0 none,
/// 1 to u16, 2 to i16.
#[cube(launch_unchecked)]
fn horizontal<O: Int>(
    tmp: &Array<i64>,
    taps: &Array<i64>,
    out: &mut Array<O>,
    w: u32,
    ow: u32,
    round: i64,
    shift: i64,
    #[comptime] ntaps: u32,
    #[comptime] stride: u32,
    #[comptime] narrow: u32,
) {
    let j = CUBE_POS_X * CUBE_DIM_X + UNIT_POS_X;
    let i = CUBE_POS_Y;
    if j < ow {
        let left = (j * stride) as i32 - comptime![(ntaps / 2) as i32];
        let mut acc = 0i64;
        #[unroll]
        for k in 0..ntaps {
            let col = mirror(left + k as i32, w as i32) as u32;
            acc += taps[k as usize] * tmp[(i * w + col) as usize];
        }
        let v = O::cast_from((acc + round) >> shift);
        let mut o = v;
        if comptime![narrow > 0] {
            o = narrow16::<O>(v, comptime![narrow == 2]);
        }
        out[(i * ow + j) as usize] = o;
    }
}

/// Per-node device data: the taps and the vertical pass's result.
struct Scratch {
    taps: Handle,
    tmp: Handle,
}

impl<R: Runtime> CubeKernel<R> for SepConv {
    fn prepare(
        &self,
        client: &ComputeClient<R>,
        inputs: &[ValueType],
        outputs: &[ValueType],
    ) -> Result<KernelState, String> {
        let (ValueType::Plane { width: w, .. }, ValueType::Plane { height: oh, .. }) = (inputs[0], outputs[0]) else {
            return Err("sep_conv: expected planes".into());
        };
        let taps: Vec<u8> = self.taps.iter().flat_map(|t| t.to_le_bytes()).collect();
        Ok(Some(Box::new(Scratch { taps: client.create_from_slice(&taps), tmp: client.empty(w * oh * 8) })))
    }

    fn launch(
        &self,
        client: &ComputeClient<R>,
        inputs: &[DeviceValue],
        outputs: &[DeviceValue],
        state: &mut KernelState,
    ) -> Result<(), String> {
        let s = state_mut::<Scratch>(state, "sep_conv")?;
        let (ValueType::Plane { elem: ie, width: w, height: h }, ValueType::Plane { elem: oe, width: ow, height: oh }) =
            (inputs[0].ty, outputs[0].ty)
        else {
            return Err("sep_conv: expected planes".into());
        };
        let n = self.taps.len() as u32;
        let stride = self.stride as u32;
        // SAFETY: the scratch buffers were allocated in `prepare` for exactly these lengths.
        let taps = || unsafe { ArrayArg::<R>::from_raw_parts(s.taps.clone(), self.taps.len()) };
        let tmp = || unsafe { ArrayArg::<R>::from_raw_parts(s.tmp.clone(), w * oh) };
        let (vc, vd) = rows_launch(w, oh)?;
        let (hc, hd) = rows_launch(ow, oh)?;
        let (w32, h32, ow32) = (w as u32, h as u32, ow as u32);
        let (vr, vs, hr, hs) = (self.v_round, self.v_shift as i64, self.h_round, self.h_shift as i64);
        // One instantiation per device input type (with how to widen it) and per output type (with how to
        // narrow it).
        macro_rules! vertical {
            ($t:ty, $signed:expr) => {
                vertical::launch_unchecked::<$t, R>(
                    client,
                    vc,
                    vd,
                    inputs[0].arg(),
                    taps(),
                    tmp(),
                    w32,
                    h32,
                    vr,
                    vs,
                    n,
                    stride,
                    $signed,
                )
            };
        }
        macro_rules! horizontal {
            ($t:ty, $narrow:expr) => {
                horizontal::launch_unchecked::<$t, R>(
                    client,
                    hc,
                    hd,
                    tmp(),
                    taps(),
                    outputs[0].arg(),
                    w32,
                    ow32,
                    hr,
                    hs,
                    n,
                    stride,
                    $narrow,
                )
            };
        }
        // SAFETY (both passes): the launch covers `oh` rows, units past the row's width do nothing; mirrored
        // indices stay inside the plane because the type rule requires w, h > radius; `tmp` holds w x oh.
        unsafe {
            match ie {
                Elem::U16 | Elem::U32 => vertical!(u32, false),
                Elem::I16 | Elem::I32 => vertical!(i32, true),
                other => return Err(format!("sep_conv: no kernel for {other} input")),
            }
            match oe {
                Elem::U16 => horizontal!(u32, 1),
                Elem::I16 => horizontal!(i32, 2),
                Elem::U32 => horizontal!(u32, 0),
                Elem::I32 => horizontal!(i32, 0),
                Elem::U64 => horizontal!(u64, 0),
                Elem::I64 => horizontal!(i64, 0),
            }
        }
        Ok(())
    }
}

#[cfg(all(test, feature = "wgpu"))]
mod tests {
    use vqgraph_graph::Elem;

    use super::*;
    use crate::kernel::testing::{check, plane};
    use crate::vif_stats::VIF_FILTERS;

    const MOTION: [i64; 5] = [3571, 16004, 26386, 16004, 3571];

    /// Runs `op` at stride 1 and 2 on one input.
    fn both_strides(op: &SepConv, input: vqgraph_graph::Value) {
        check(op, std::slice::from_ref(&input));
        check(&SepConv { stride: 2, ..op.clone() }, &[input]);
    }

    #[test]
    fn vif_filters_on_8_10_and_16_bit_planes() {
        for (s, taps) in VIF_FILTERS.iter().enumerate() {
            for bpc in [8u32, 10, 16] {
                let mut op = SepConv::rounded(taps, bpc, 16, Elem::U16);
                let max = (1i64 << bpc) - 1;
                if bpc == 8 {
                    op.input_max = Some(max); // the CPU's narrowest accumulators
                }
                // Smallest plane the filter allows, odd sizes, and a frame-sized one.
                let r = taps.len() / 2;
                for (w, h) in [(r + 1, r + 1), (481, 271), (576, 324)] {
                    both_strides(&op, plane(Elem::U16, w, h, 0, max, (s as u64) << 8 | bpc as u64));
                }
            }
        }
    }

    #[test]
    fn motion_blur_of_signed_differences() {
        for (max, input_max) in [(255, Some(255)), (1023, None), (65535, None)] {
            let mut op = SepConv::rounded(&MOTION, 8, 16, Elem::I32);
            op.input_max = input_max;
            for (w, h) in [(3, 3), (481, 271), (1920, 1080)] {
                both_strides(&op, plane(Elem::I32, w, h, -max, max, max as u64));
            }
        }
    }

    #[test]
    fn every_output_type_with_negative_taps_rounds_and_wrapping_casts() {
        let taps = [-3, 7, -120, 2000, 9, -1, 4];
        let cases: [(Elem, i64, i64); 4] = [
            (Elem::U16, 0, 65535),
            (Elem::I16, -32768, 32767),
            (Elem::U32, 0, u32::MAX as i64),
            (Elem::I32, i32::MIN as i64, i32::MAX as i64),
        ];
        for (ie, lo, hi) in cases {
            for out in [Elem::U16, Elem::I16, Elem::U32, Elem::I32, Elem::U64, Elem::I64] {
                for (v_round, v_shift, h_round, h_shift) in
                    [(0, 0, 0, 0), (-5, 3, 17, 1), (1 << 7, 8, 1 << 15, 16), (0, 62, 0, 62)]
                {
                    let op = SepConv {
                        taps: taps.to_vec(),
                        v_round,
                        v_shift,
                        h_round,
                        h_shift,
                        out,
                        input_max: None,
                        stride: 1,
                    };
                    both_strides(&op, plane(ie, 37, 11, lo, hi, v_shift as u64 + 1));
                }
            }
        }
    }
}
