//! CubeCL kernel of `adm_dwt`: a vertical pass writing the low and high vertically filtered rows into two
//! scratch planes (`w` x `ceil(h/2)`, kept in the node's state), then a horizontal pass writing the four
//! bands, one unit per sample in each pass.
//!
//! Scale 0 reproduces libvmaf's C `int32` arithmetic, which wraps for 16-bit input: the dot products, the
//! recentring and the rounding term are computed in u32 (wrapping is defined there on every backend, while
//! signed overflow is undefined in CUDA/HIP C++), then reinterpreted as i32 for the arithmetic shift and cast
//! to `int16` like libvmaf's intermediate rows and outputs. Scales 1-3 sum in i64 (exact: 4 taps below 2^15
//! times 32-bit samples) and cast both passes to `int32`. Source rows and columns follow
//! [`super::cpu::src_index`] (libvmaf's index tables).

use cubecl::prelude::*;
use cubecl::server::Handle;
use vqgraph_graph::{Elem, ValueType};

use super::{AdmDwt, HI, LO};
use crate::kernel::{CubeKernel, DeviceValue, KernelState, narrow16, rows_launch, state_mut, wide};

/// Tap `k` of the low (`high = false`) or high-pass filter (evaluated while the kernel is expanded).
const fn tap(high: bool, k: usize) -> i32 {
    if high { HI[k] } else { LO[k] }
}

/// libvmaf's source index of tap `k` for output `i` over `n >= 5` samples: `2i - 1 + k`, with -1 read as 1,
/// `n` as `n - 1` and `n + 1` as `n - 2` (see `cpu::src_index`).
#[cube]
fn src_index(#[comptime] k: u32, i: u32, n: u32) -> u32 {
    let r = 2 * i + k;
    let mut s = 1u32;
    if r > n {
        s = 2 * n - r;
    } else if r > 0 {
        s = r - 1;
    }
    s
}

/// `sum_k tap_k * s_k` modulo 2^32: C `int32` arithmetic in u32 bits.
#[cube]
fn dot_u32(s0: u32, s1: u32, s2: u32, s3: u32, #[comptime] high: bool) -> u32 {
    s0 * comptime![tap(high, 0) as u32]
        + s1 * comptime![tap(high, 1) as u32]
        + s2 * comptime![tap(high, 2) as u32]
        + s3 * comptime![tap(high, 3) as u32]
}

/// `sum_k tap_k * s_k`, exactly.
#[cube]
fn dot_i64(s0: i64, s1: i64, s2: i64, s3: i64, #[comptime] high: bool) -> i64 {
    s0 * comptime![tap(high, 0) as i64]
        + s1 * comptime![tap(high, 1) as i64]
        + s2 * comptime![tap(high, 2) as i64]
        + s3 * comptime![tap(high, 3) as i64]
}

/// `(v + round) >> shift` of C `int32` bits `v`, cast to `int16` (widened back for the device layout).
#[cube]
fn round_i16(v: u32, round: u32, shift: i32) -> i32 {
    narrow16::<i32>(i32::cast_from(v + round) >> shift, true)
}

/// Scale 0, vertical: `lo/hi[i][j]` from the `u16` samples (stored as u32) of rows `src_index(k, i, h)`.
#[cube(launch_unchecked)]
fn vertical0(
    x: &Array<u32>,
    lo: &mut Array<i32>,
    hi: &mut Array<i32>,
    w: u32,
    h: u32,
    center: u32,
    round: u32,
    shift: i32,
) {
    let j = CUBE_POS_X * CUBE_DIM_X + UNIT_POS_X;
    let i = CUBE_POS_Y;
    if j < w {
        let s0 = x[(src_index(0u32, i, h) * w + j) as usize];
        let s1 = x[(src_index(1u32, i, h) * w + j) as usize];
        let s2 = x[(src_index(2u32, i, h) * w + j) as usize];
        let s3 = x[(src_index(3u32, i, h) * w + j) as usize];
        let o = (i * w + j) as usize;
        // libvmaf subtracts the recentring term before adding the rounding one; modulo 2^32 the order is moot.
        lo[o] = round_i16(dot_u32(s0, s1, s2, s3, false) - center, round, shift);
        hi[o] = round_i16(dot_u32(s0, s1, s2, s3, true), round, shift);
    }
}

/// Scale 0, horizontal: the four `int16` bands from columns `src_index(k, j, w)` of the scratch rows.
#[cube(launch_unchecked)]
fn horizontal0(
    lo: &Array<i32>,
    hi: &Array<i32>,
    a: &mut Array<i32>,
    hb: &mut Array<i32>,
    v: &mut Array<i32>,
    d: &mut Array<i32>,
    w: u32,
    ow: u32,
    round: u32,
    shift: i32,
) {
    let j = CUBE_POS_X * CUBE_DIM_X + UNIT_POS_X;
    let i = CUBE_POS_Y;
    if j < ow {
        let base = i * w;
        let c0 = src_index(0u32, j, w);
        let c1 = src_index(1u32, j, w);
        let c2 = src_index(2u32, j, w);
        let c3 = src_index(3u32, j, w);
        // The int16 rows' values, as C int32 bits.
        let l0 = u32::cast_from(lo[(base + c0) as usize]);
        let l1 = u32::cast_from(lo[(base + c1) as usize]);
        let l2 = u32::cast_from(lo[(base + c2) as usize]);
        let l3 = u32::cast_from(lo[(base + c3) as usize]);
        let g0 = u32::cast_from(hi[(base + c0) as usize]);
        let g1 = u32::cast_from(hi[(base + c1) as usize]);
        let g2 = u32::cast_from(hi[(base + c2) as usize]);
        let g3 = u32::cast_from(hi[(base + c3) as usize]);
        let o = (i * ow + j) as usize;
        a[o] = round_i16(dot_u32(l0, l1, l2, l3, false), round, shift);
        v[o] = round_i16(dot_u32(l0, l1, l2, l3, true), round, shift);
        hb[o] = round_i16(dot_u32(g0, g1, g2, g3, false), round, shift);
        d[o] = round_i16(dot_u32(g0, g1, g2, g3, true), round, shift);
    }
}

/// Scales 1-3, vertical: `lo/hi[i][j] = int32((sum + round) >> shift)` in i64, from an `i16` or `i32` band
/// (both stored as i32).
#[cube(launch_unchecked)]
fn vertical123(x: &Array<i32>, lo: &mut Array<i32>, hi: &mut Array<i32>, w: u32, h: u32, round: i64, shift: i64) {
    let j = CUBE_POS_X * CUBE_DIM_X + UNIT_POS_X;
    let i = CUBE_POS_Y;
    if j < w {
        let s0 = wide::<i32>(x[(src_index(0u32, i, h) * w + j) as usize], true);
        let s1 = wide::<i32>(x[(src_index(1u32, i, h) * w + j) as usize], true);
        let s2 = wide::<i32>(x[(src_index(2u32, i, h) * w + j) as usize], true);
        let s3 = wide::<i32>(x[(src_index(3u32, i, h) * w + j) as usize], true);
        let o = (i * w + j) as usize;
        lo[o] = i32::cast_from((dot_i64(s0, s1, s2, s3, false) + round) >> shift);
        hi[o] = i32::cast_from((dot_i64(s0, s1, s2, s3, true) + round) >> shift);
    }
}

/// Scales 1-3, horizontal: the four `int32` bands.
#[cube(launch_unchecked)]
fn horizontal123(
    lo: &Array<i32>,
    hi: &Array<i32>,
    a: &mut Array<i32>,
    hb: &mut Array<i32>,
    v: &mut Array<i32>,
    d: &mut Array<i32>,
    w: u32,
    ow: u32,
    round: i64,
    shift: i64,
) {
    let j = CUBE_POS_X * CUBE_DIM_X + UNIT_POS_X;
    let i = CUBE_POS_Y;
    if j < ow {
        let base = i * w;
        let c0 = src_index(0u32, j, w);
        let c1 = src_index(1u32, j, w);
        let c2 = src_index(2u32, j, w);
        let c3 = src_index(3u32, j, w);
        let l0 = wide::<i32>(lo[(base + c0) as usize], true);
        let l1 = wide::<i32>(lo[(base + c1) as usize], true);
        let l2 = wide::<i32>(lo[(base + c2) as usize], true);
        let l3 = wide::<i32>(lo[(base + c3) as usize], true);
        let g0 = wide::<i32>(hi[(base + c0) as usize], true);
        let g1 = wide::<i32>(hi[(base + c1) as usize], true);
        let g2 = wide::<i32>(hi[(base + c2) as usize], true);
        let g3 = wide::<i32>(hi[(base + c3) as usize], true);
        let o = (i * ow + j) as usize;
        a[o] = i32::cast_from((dot_i64(l0, l1, l2, l3, false) + round) >> shift);
        v[o] = i32::cast_from((dot_i64(l0, l1, l2, l3, true) + round) >> shift);
        hb[o] = i32::cast_from((dot_i64(g0, g1, g2, g3, false) + round) >> shift);
        d[o] = i32::cast_from((dot_i64(g0, g1, g2, g3, true) + round) >> shift);
    }
}

/// Per-node scratch: the vertical pass's low and high rows, `w` x `ceil(h/2)` i32 each.
struct Rows {
    lo: Handle,
    hi: Handle,
}

impl<R: Runtime> CubeKernel<R> for AdmDwt {
    fn prepare(
        &self,
        client: &ComputeClient<R>,
        inputs: &[ValueType],
        outputs: &[ValueType],
    ) -> Result<KernelState, String> {
        let (ValueType::Plane { width: w, .. }, ValueType::Plane { height: oh, .. }) = (inputs[0], outputs[0]) else {
            return Err("adm_dwt: expected planes".into());
        };
        let bytes = (w * oh * 4).max(4);
        Ok(Some(Box::new(Rows { lo: client.empty(bytes), hi: client.empty(bytes) })))
    }

    fn launch(
        &self,
        client: &ComputeClient<R>,
        inputs: &[DeviceValue],
        outputs: &[DeviceValue],
        state: &mut KernelState,
    ) -> Result<(), String> {
        let s = state_mut::<Rows>(state, "adm_dwt")?;
        let (ValueType::Plane { elem: ie, width: w, height: h }, ValueType::Plane { width: ow, height: oh, .. }) =
            (inputs[0].ty, outputs[0].ty)
        else {
            return Err("adm_dwt: expected planes".into());
        };
        // SAFETY: the scratch planes were allocated in `prepare` for w x oh elements.
        let lo = || unsafe { ArrayArg::<R>::from_raw_parts(s.lo.clone(), w * oh) };
        let hi = || unsafe { ArrayArg::<R>::from_raw_parts(s.hi.clone(), w * oh) };
        let (vc, vd) = rows_launch(w, oh)?;
        let (hc, hd) = rows_launch(ow, oh)?;
        let (w32, h32, ow32) = (w as u32, h as u32, ow as u32);
        let (center, v_round, v_shift, h_round, h_shift) = self.rounding();
        let o = |k: usize| outputs[k].arg::<R>();
        // SAFETY (all launches): each covers `oh` rows and units past the row's width do nothing; source
        // indices stay in 0..n for n >= 5 (the type rule's minimum), so reads stay inside the w x h input and
        // the w x oh scratch; outputs are ow x oh.
        unsafe {
            match (self.scale, ie) {
                (0, Elem::U16) => {
                    // The C int32 constants as their u32 bits (`center` < 2^31 for bpc <= 16).
                    vertical0::launch_unchecked::<R>(
                        client,
                        vc,
                        vd,
                        inputs[0].arg(),
                        lo(),
                        hi(),
                        w32,
                        h32,
                        center as u32,
                        v_round as u32,
                        v_shift as i32,
                    );
                    horizontal0::launch_unchecked::<R>(
                        client,
                        hc,
                        hd,
                        lo(),
                        hi(),
                        o(0),
                        o(1),
                        o(2),
                        o(3),
                        w32,
                        ow32,
                        h_round as u32,
                        h_shift as i32,
                    );
                }
                (1..=3, Elem::I16 | Elem::I32) => {
                    vertical123::launch_unchecked::<R>(
                        client,
                        vc,
                        vd,
                        inputs[0].arg(),
                        lo(),
                        hi(),
                        w32,
                        h32,
                        v_round,
                        v_shift as i64,
                    );
                    horizontal123::launch_unchecked::<R>(
                        client,
                        hc,
                        hd,
                        lo(),
                        hi(),
                        o(0),
                        o(1),
                        o(2),
                        o(3),
                        w32,
                        ow32,
                        h_round,
                        h_shift as i64,
                    );
                }
                (scale, e) => return Err(format!("adm_dwt: no kernel for scale {scale} with {e} input")),
            }
        }
        Ok(())
    }
}

#[cfg(all(test, feature = "wgpu"))]
mod tests {
    use vqgraph_graph::{Elem, Value};

    use super::*;
    use crate::kernel::testing::{check, plane};

    /// Smallest planes the type rule accepts (5 x 5) and their odd/even neighbours, where every source index
    /// is mirrored, and planes whose halves are odd at every level (481 -> 241 -> 121 -> 61, 360 -> 180 ->
    /// 90 -> 45).
    const SIZES: [(usize, usize); 9] =
        [(5, 5), (5, 6), (6, 5), (6, 6), (7, 9), (11, 5), (33, 17), (360, 203), (481, 271)];

    #[test]
    fn scale0_on_8_10_12_and_16_bit_samples() {
        for bpc in [8u32, 10, 12, 16] {
            let max = (1i64 << bpc) - 1;
            for (k, &(w, h)) in SIZES.iter().enumerate() {
                // 16-bit samples overflow libvmaf's int32 vertical sums: the wrap is part of the semantics.
                check(&AdmDwt::scale0(bpc), &[plane(Elem::U16, w, h, 0, max, (bpc as u64) << 8 | k as u64)]);
            }
        }
    }

    #[test]
    fn scale0_on_constant_extremes() {
        for bpc in [8u32, 16] {
            for v in [0, (1i64 << bpc) - 1] {
                check(&AdmDwt::scale0(bpc), &[plane(Elem::U16, 9, 7, v, v, 1)]);
            }
        }
    }

    #[test]
    fn scales_1_to_3_on_full_range_i16_and_i32_bands() {
        let ranges = [(Elem::I16, i16::MIN as i64, i16::MAX as i64), (Elem::I32, i32::MIN as i64, i32::MAX as i64)];
        for scale in 1..=3u8 {
            for (elem, lo, hi) in ranges {
                for (k, &(w, h)) in SIZES.iter().enumerate() {
                    check(&AdmDwt::scale(scale), &[plane(elem, w, h, lo, hi, (scale as u64) << 8 | k as u64)]);
                }
            }
        }
    }

    /// The four levels chained as ADM runs them on a 10-bit 481 x 271 frame (each level's `a` band from the
    /// CPU reference feeding the next), so band values have their real ranges.
    #[test]
    fn four_levels_of_a_frame() {
        let mut x: Value = plane(Elem::U16, 481, 271, 0, 1023, 42);
        for scale in 0..4u8 {
            let op = if scale == 0 { AdmDwt::scale0(10) } else { AdmDwt::scale(scale) };
            x = check(&op, &[x]).swap_remove(0);
        }
    }
}
