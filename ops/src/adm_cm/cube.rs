//! CubeCL kernel of `adm_cm`, in two launches and a reduction:
//!
//! 1. one unit per sample writes `F = sum_b flt(m_b)` (the masker's `|m| / 30` terms of the three bands)
//!    into a scratch plane, so that the 3x3 threshold reads nine words instead of recomputing 27 terms;
//! 2. one cube per row of the border region: its units take a strided share of the row's columns, form the
//!    threshold (`ctr` terms of the centre plus the eight neighbours' `F`, edges mapped as the reference
//!    maps them) and the rounded cubes of the three bands, the cube adds its units' sums
//!    ([`crate::kernel::cube_sum`]) and unit 0 applies the row's rounding shift, one partial per band and
//!    row;
//! 3. [`Partials::finish`] adds each band's row partials.
//!
//! The rows are reduced apart because the per-row shift is not additive. Where libvmaf computes in C
//! `int32` and the reference wraps (the thresholds' sums, `|y| - (thr << sub)`, `abs(INT_MIN)`), the kernel
//! adds in u32 bits (wrapping is defined there on every backend, signed overflow is not in CUDA/HIP C++) and
//! reinterprets as i32 only to compare or shift; 64-bit steps are exact i64 as in the reference, row sums
//! u64 bits (the same bits as the reference's wrapping i64 additions). The per-geometry constants (weights
//! and shifts) are uploaded once per stream.

use cubecl::prelude::*;
use cubecl::server::Handle;
use vqgraph_graph::{Elem, ValueType};

use super::AdmCm;
use crate::adm_common::{Region, half_of_pow2};
use crate::kernel::{
    CUBE_SIZE, CubeKernel, DeviceValue, KernelState, Partials, cube_sum, linear_index, linear_launch, narrow16,
    state_mut, wide,
};

/// Constants per band in the uploaded table: `rf, sub, sq, 2^(sq-1), cub, half(cub)`; then `inner,
/// half(inner)` after the three bands.
const PER_BAND: usize = 6;
const TABLE: usize = 3 * PER_BAND + 2;

/// libvmaf's masking term of one masker sample, as the u32 bits of the band type's value widened to C int:
/// `|m| / 30` (or `/ 15` with `ctr`) in fixed point.
#[cube]
fn mask_term(m: i32, #[comptime] scale0: bool, #[comptime] ctr: bool) -> u32 {
    if comptime![scale0] {
        // i16 samples: |m| <= 2^15 and the product stays below 2^29; the result is stored as int16.
        let mut a = m;
        if m < 0 {
            a = -m;
        }
        let f = comptime![if ctr { 8738i32 } else { 4369i32 }];
        u32::cast_from(narrow16::<i32>((a * f + 2048i32) >> 12i32, true))
    } else {
        // C `abs()` of an int: `INT_MIN` stays `INT_MIN` (so the product is negative), computed in u32 bits.
        let mut a = u32::cast_from(m);
        if m < 0 {
            a = 0u32 - a;
        }
        let f = comptime![if ctr { 286_331_153i64 } else { 143_165_577i64 }];
        // The rounding term is libvmaf's `(int32_t)(1u << 31)`: minus a half.
        u32::cast_from(i32::cast_from((wide::<u32>(a, true) * f - 2_147_483_648i64) >> 32i64))
    }
}

/// `F[k] = sum_b flt(m_b[k])`, wrapping like C int.
#[cube(launch_unchecked)]
fn flt_plane(mh: &Array<i32>, mv: &Array<i32>, md: &Array<i32>, f: &mut Array<u32>, n: u32, #[comptime] scale0: bool) {
    let k = linear_index();
    if k < n as usize {
        f[k] = mask_term(mh[k], scale0, false) + mask_term(mv[k], scale0, false) + mask_term(md[k], scale0, false);
    }
}

/// One band's rounded cube at one sample: `x` the measured band value, `thr` the threshold's C int bits;
/// `c` the table, `b` the band.
#[cube]
fn masked_cube(x: i32, thr: u32, c: &Array<i64>, #[comptime] b: u32, #[comptime] scale0: bool) -> u64 {
    let base = comptime![(b as usize) * PER_BAND];
    let rf = c[base];
    let sub = u32::cast_from(c[base + 1]);
    let sq = c[base + 2];
    let add_sq = c[base + 3];
    let cub = c[base + 4];
    let add_cub = c[base + 5];
    // The value scaled by its band weight, as libvmaf's int32 `xh`.
    let y = if comptime![scale0] {
        // i16 value times a u16 weight: below 2^31 in magnitude, but formed in u32 bits anyway.
        u32::cast_from(x) * u32::cast_from(rf)
    } else {
        u32::cast_from(i32::cast_from((wide::<i32>(x, true) * rf + 134_217_728i64) >> 28i64))
    };
    // C abs() then `- (thr << sub)`, wrapping as int32.
    let mut ay = y;
    if i32::cast_from(y) < 0 {
        ay = 0u32 - y;
    }
    let diff = i32::cast_from(ay - (thr << sub));
    let mut e = 0i64;
    if diff > 0 {
        e = wide::<i32>(diff, false);
    }
    // The square is stored as int32 (it may exceed 2^31 and wrap).
    let e2 = wide::<i32>(i32::cast_from((e * e + add_sq) >> sq), true);
    u64::cast_from((e2 * e + add_cub) >> cub)
}

#[cube(launch_unchecked)]
fn cm_rows(
    xh: &Array<i32>,
    xv: &Array<i32>,
    xd: &Array<i32>,
    mh: &Array<i32>,
    mv: &Array<i32>,
    md: &Array<i32>,
    f: &Array<u32>,
    c: &Array<i64>,
    partials: &mut Array<u64>,
    w: u32,
    h: u32,
    top: u32,
    left: u32,
    right: u32,
    #[comptime] scale0: bool,
) {
    let r = CUBE_POS_X;
    let rows = CUBE_COUNT_X;
    let i = top + r;
    // Neighbour rows: row 1 above row 0, the last row below itself.
    let mut up = 1u32;
    if i > 0 {
        up = i - 1;
    }
    let mut dn = h - 1;
    if i + 1 < h {
        dn = i + 1;
    }
    let ru = up * w;
    let ri = i * w;
    let rd = dn * w;
    let mut sh = 0u64;
    let mut sv = 0u64;
    let mut sd = 0u64;
    let mut j = left + UNIT_POS_X;
    while j < right {
        // Neighbour columns: column 1 left of column 0, the last column right of itself.
        let mut lc = 1u32;
        if j > 0 {
            lc = j - 1;
        }
        let mut rc = w - 1;
        if j + 1 < w {
            rc = j + 1;
        }
        let k = (ri + j) as usize;
        let around = f[(ru + lc) as usize]
            + f[(ru + j) as usize]
            + f[(ru + rc) as usize]
            + f[(ri + lc) as usize]
            + f[(ri + rc) as usize]
            + f[(rd + lc) as usize]
            + f[(rd + j) as usize]
            + f[(rd + rc) as usize];
        let thr =
            around + mask_term(mh[k], scale0, true) + mask_term(mv[k], scale0, true) + mask_term(md[k], scale0, true);
        sh += masked_cube(xh[k], thr, c, 0u32, scale0);
        sv += masked_cube(xv[k], thr, c, 1u32, scale0);
        sd += masked_cube(xd[k], thr, c, 2u32, scale0);
        j += CUBE_SIZE;
    }
    let th = cube_sum(sh);
    let tv = cube_sum(sv);
    let td = cube_sum(sd);
    if UNIT_POS_X == 0 {
        let inner = c[comptime![3 * PER_BAND]];
        let add_inner = u64::cast_from(c[comptime![3 * PER_BAND + 1]]);
        // `(row + half) >> inner` on the row's i64 sum: an arithmetic shift.
        partials[r as usize] = u64::cast_from(i64::cast_from(th + add_inner) >> inner);
        partials[(rows + r) as usize] = u64::cast_from(i64::cast_from(tv + add_inner) >> inner);
        partials[(2 * rows + r) as usize] = u64::cast_from(i64::cast_from(td + add_inner) >> inner);
    }
}

/// Per-node device data: the `F` plane, the constants and the row partials.
struct Scratch {
    f: Handle,
    consts: Handle,
    partials: Partials,
}

impl<R: Runtime> CubeKernel<R> for AdmCm {
    fn prepare(
        &self,
        client: &ComputeClient<R>,
        inputs: &[ValueType],
        _outputs: &[ValueType],
    ) -> Result<KernelState, String> {
        let ValueType::Plane { width: w, height: h, .. } = inputs[0] else {
            return Err("adm_cm: expected planes".into());
        };
        let reg = Region::of(w, h);
        let rows = reg.bottom - reg.top;
        if rows > 65535 {
            return Err(format!("adm_cm: {rows} rows exceed the 65535 cubes one launch covers"));
        }
        let s = self.shifts(w, h);
        // The reference's layouts (`cpu::SCALE0`, `cpu::SCALE123`): per-band `sub` and square shifts.
        let (sub, sq) = if self.scale == 0 { ([10, 10, 12], [29, 29, 30]) } else { ([0; 3], [30; 3]) };
        let mut table = Vec::with_capacity(TABLE);
        for b in 0..3 {
            let (sq, cub) = (sq[b] as u32, s.cub[b]);
            table.extend([self.rfactor[b] as i64, sub[b], sq as i64, 1i64 << (sq - 1), cub as i64, half_of_pow2(cub)]);
        }
        table.extend([s.inner as i64, half_of_pow2(s.inner)]);
        let bytes: Vec<u8> = table.iter().flat_map(|v| v.to_le_bytes()).collect();
        Ok(Some(Box::new(Scratch {
            f: client.empty((w * h * 4).max(4)),
            consts: client.create_from_slice(&bytes),
            partials: Partials { handle: client.empty(rows * 3 * 8), cubes: rows as u32, sums: 3 },
        })))
    }

    fn launch(
        &self,
        client: &ComputeClient<R>,
        inputs: &[DeviceValue],
        outputs: &[DeviceValue],
        state: &mut KernelState,
    ) -> Result<(), String> {
        let s = state_mut::<Scratch>(state, "adm_cm")?;
        let ValueType::Plane { elem, width: w, height: h } = inputs[0].ty else {
            return Err("adm_cm: expected planes".into());
        };
        let scale0 = match (self.scale, elem) {
            (0, Elem::I16) => true,
            (1..=3, Elem::I32) => false,
            (sc, e) => return Err(format!("adm_cm: no kernel for scale {sc} with {e} bands")),
        };
        let reg = Region::of(w, h);
        let n = w * h;
        // SAFETY: the scratch buffers were allocated in `prepare` for these lengths.
        let f = || unsafe { ArrayArg::<R>::from_raw_parts(s.f.clone(), n) };
        let consts = unsafe { ArrayArg::<R>::from_raw_parts(s.consts.clone(), TABLE) };
        let (fc, fd) = linear_launch(n);
        let (rc, rd) = s.partials.first_pass();
        let a = |k: usize| inputs[k].arg::<R>();
        // SAFETY: `flt_plane` units check their index against n = w * h, the length of the maskers and of
        // `F`. `cm_rows` cube `r` reads rows `top + r` and its neighbours (all < h; h >= 3), columns
        // `left..right` and their neighbours (all < w; w >= 3), and writes partials `r`, `rows + r`,
        // `2 rows + r` of the 3 x rows allocated.
        unsafe {
            flt_plane::launch_unchecked::<R>(client, fc, fd, a(3), a(4), a(5), f(), n as u32, scale0);
            cm_rows::launch_unchecked::<R>(
                client,
                rc,
                rd,
                a(0),
                a(1),
                a(2),
                a(3),
                a(4),
                a(5),
                f(),
                consts,
                s.partials.arg(),
                w as u32,
                h as u32,
                reg.top as u32,
                reg.left as u32,
                reg.right as u32,
                scale0,
            );
        }
        s.partials.finish(client, &outputs[0])
    }
}

#[cfg(all(test, feature = "wgpu"))]
mod tests {
    use vqgraph_graph::{Elem, Value};

    use super::*;
    use crate::adm_common::testing::eval;
    use crate::adm_csf::AdmCsf;
    use crate::adm_dwt::AdmDwt;
    use crate::kernel::testing::{check, plane};

    /// The smallest bands (3 x 3: every neighbour mirrored, shifts zero), bands below 15 samples across (no
    /// border), odd band sizes of 360- and 481-wide frames (45 x 26, 23 x 13, 241 x 136, 31 x 17), and a
    /// 1080p frame's scale-0 band (rows wider than a cube).
    const SIZES: [(usize, usize); 12] = [
        (3, 3),
        (4, 3),
        (3, 4),
        (5, 5),
        (15, 9),
        (16, 16),
        (23, 13),
        (31, 17),
        (45, 26),
        (180, 102),
        (241, 136),
        (960, 540),
    ];

    /// `x_h, x_v, x_d` in `x_lo..=x_hi` and maskers in `m_lo..=m_hi`.
    fn inputs(elem: Elem, (w, h): (usize, usize), x: (i64, i64), m: (i64, i64), seed: u64) -> Vec<Value> {
        (0..6u64)
            .map(|b| {
                let (lo, hi) = if b < 3 { x } else { m };
                plane(elem, w, h, lo, hi, seed * 6 + b)
            })
            .collect()
    }

    #[test]
    fn scale0_on_i16_bands() {
        let full = (-32768, 32767);
        // Small maskers keep thresholds low, so most samples are masked to a non-zero excess.
        for rfactor in [[36453, 36453, 49417], [65535; 3], [0, 1, 2]] {
            let op = AdmCm { scale: 0, rfactor };
            for (k, &size) in SIZES.iter().enumerate() {
                check(&op, &inputs(Elem::I16, size, full, full, k as u64));
                check(&op, &inputs(Elem::I16, size, full, (-64, 64), k as u64 + 100));
            }
        }
    }

    #[test]
    fn scales_1_to_3_on_i32_bands() {
        let full = (i32::MIN as i64, i32::MAX as i64);
        let real = (-(1i64 << 20), 1i64 << 20);
        for scale in 1..=3u8 {
            for rfactor in [[394_829_027, 394_829_027, 188_166_307], [u32::MAX; 3], [0, 1, 1 << 31]] {
                let op = AdmCm { scale, rfactor };
                for (k, &size) in SIZES.iter().enumerate() {
                    let seed = (scale as u64) << 8 | k as u64;
                    // Full range: `abs(INT_MIN)`, wrapping thresholds and wrapping squares.
                    check(&op, &inputs(Elem::I32, size, full, full, seed));
                    check(&op, &inputs(Elem::I32, size, full, real, seed + 50));
                    check(&op, &inputs(Elem::I32, size, real, (-4096, 4096), seed + 99));
                }
            }
        }
    }

    /// ADM's chain on a 10-bit 481 x 271 frame pair with the CPU references up to the masker (decoupling
    /// left out: the distorted bands stand in for the restored ones), so values have their real ranges.
    #[test]
    fn four_scales_of_a_frame() {
        let mut r = plane(Elem::U16, 481, 271, 0, 1023, 7);
        let mut d = plane(Elem::U16, 481, 271, 0, 1023, 8);
        let rf123 = [[394_829_027, 394_829_027, 188_166_307], [1_001_112_224; 3], [1_594_622_543; 3]];
        for scale in 0..4u8 {
            let dwt = if scale == 0 { AdmDwt::scale0(10) } else { AdmDwt::scale(scale) };
            let (rb, db) = (eval(&dwt, &[r]), eval(&dwt, &[d]));
            let (csf, cm) = if scale == 0 {
                let i = [36453u16, 36453, 49417];
                (AdmCsf::scale0(i), AdmCm { scale, rfactor: i.map(u32::from) })
            } else {
                let i = rf123[scale as usize - 1];
                (AdmCsf::scale123(i), AdmCm { scale, rfactor: i })
            };
            let masker = eval(&csf, &rb[1..]);
            let ins: Vec<Value> = db[1..].iter().chain(&masker).cloned().collect();
            check(&cm, &ins);
            (r, d) = (rb[0].clone(), db[0].clone());
        }
    }
}
