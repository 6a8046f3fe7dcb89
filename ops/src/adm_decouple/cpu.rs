//! CPU reference of `adm_decouple`: pointwise, in parallel over fixed-size pieces of the planes.

use rayon::prelude::*;
use vqgraph_graph::{Elem, Value};

use super::AdmDecouple;
use crate::adm_common::{BandElem, avx2_dispatch, band_inputs, band_outputs, split_chunks};

/// libvmaf's `div_lookup`: `DIV[32768 + m] = 2^30 / m`, `DIV[32768 - m] = -(2^30 / m)` for m = 1..32768.
static DIV: [i32; 65537] = div_table();

const fn div_table() -> [i32; 65537] {
    let mut t = [0i32; 65537];
    let mut m = 1;
    while m <= 32768 {
        let r = (1i32 << 30) / m as i32;
        t[32768 + m] = r;
        t[32768 - m] = -r;
        m += 1;
    }
    t
}

/// Elements per rayon task.
const PIECE: usize = 16 * 1024;

pub fn eval(op: &AdmDecouple, inputs: &[&Value], outputs: &mut [Value]) -> Result<(), String> {
    match inputs[0].buf().elem() {
        Elem::I16 => run::<i16>(op, inputs, outputs),
        _ => run::<i32>(op, inputs, outputs),
    }
}

fn run<T: BandElem>(op: &AdmDecouple, inputs: &[&Value], outputs: &mut [Value]) -> Result<(), String> {
    let ins: [&[T]; 6] = band_inputs(inputs, "adm_decouple")?;
    let outs: [&mut [T]; 6] = band_outputs(outputs, "adm_decouple")?;
    let cos_1deg_sq = cos_1deg_sq();
    let limit = GainLimit::new(op.gain_limit);
    split_chunks(outs, PIECE).into_par_iter().enumerate().for_each(|(p, [rh, rv, rd, ah, av, ad])| {
        let base = p * PIECE;
        let n = rh.len();
        let [oh, ov, od, th, tv, td] = ins.map(|x| &x[base..base + n]);
        // Two passes over the piece keep few streams live per loop (the angle test reads four planes,
        // each band's split two planes and the flags).
        let mut angle_ok = vec![false; n];
        angles([oh, ov, th, tv], &mut angle_ok, cos_1deg_sq);
        for (o, t, r, a) in [(oh, th, rh, ah), (ov, tv, rv, av), (od, td, rd, ad)] {
            match limit {
                GainLimit::Int(g) => split::<T, true>(o, t, &angle_ok, r, a, g, 0.0),
                GainLimit::Float(g) => split::<T, false>(o, t, &angle_ok, r, a, 0, g),
            }
        }
    });
    Ok(())
}

avx2_dispatch! {
    fn angles[T: BandElem](ot: [&[T]; 4], ok: &mut [bool], cos_1deg_sq: f32) = angles_kernel;
}

#[inline(always)]
fn angles_kernel<T: BandElem>(ot: [&[T]; 4], ok: &mut [bool], cos_1deg_sq: f32) {
    let [oh, ov, th, tv] = ot;
    for (f, (((&oh, &ov), &th), &tv)) in ok.iter_mut().zip(oh.iter().zip(ov).zip(th).zip(tv)) {
        *f = if T::ELEM == Elem::I16 {
            angle_flag_i16(oh.wide() as i32, ov.wide() as i32, th.wide() as i32, tv.wide() as i32, cos_1deg_sq)
        } else {
            angle_flag(oh.wide(), ov.wide(), th.wide(), tv.wide(), cos_1deg_sq)
        };
    }
}

avx2_dispatch! {
    fn split[T: BandElem, const INT: bool](o: &[T], t: &[T], ok: &[bool], r: &mut [T], a: &mut [T], gi: i64, gf: f64)
        = split_kernel::<T, INT>;
}

/// One band's restored/artifact split over a piece; `INT` selects the integral gain-limit path.
#[inline(always)]
fn split_kernel<T: BandElem, const INT: bool>(
    o: &[T],
    t: &[T],
    ok: &[bool],
    r: &mut [T],
    a: &mut [T],
    gi: i64,
    gf: f64,
) {
    let limit = if INT { GainLimit::Int(gi) } else { GainLimit::Float(gf) };
    for (((r, a), (&o, &t)), &ok) in r.iter_mut().zip(a.iter_mut()).zip(o.iter().zip(t)).zip(ok) {
        (*r, *a) = band(o.wide(), t.wide(), ok, limit);
    }
}

/// The enhancement gain limit, with an integer fast path: for an integral limit `r * limit` is an exact
/// integer in f64 (|r| < 2^32, limit <= 100), so C's double MIN/MAX and truncation equal integer ones.
#[derive(Clone, Copy)]
enum GainLimit {
    Int(i64),
    Float(f64),
}

impl GainLimit {
    fn new(g: f64) -> Self {
        if g.fract() == 0.0 && g.abs() <= 1e6 { GainLimit::Int(g as i64) } else { GainLimit::Float(g) }
    }

    /// `trunc(min(r * limit, t))` for a positive product, `trunc(max(r * limit, t))` for a negative one.
    #[inline(always)]
    fn apply(self, r: i64, t: i64, positive: bool) -> i64 {
        match self {
            GainLimit::Int(g) => {
                let x = r * g;
                if positive { x.min(t) } else { x.max(t) }
            }
            GainLimit::Float(g) => {
                let (x, tf) = (r as f64 * g, t as f64);
                (if positive { x.min(tf) } else { x.max(tf) }) as i64
            }
        }
    }
}

/// libvmaf's `const float cos_1deg_sq = cos(1.0 * M_PI / 180.0) * cos(1.0 * M_PI / 180.0);`
pub fn cos_1deg_sq() -> f32 {
    let c = (1.0f64 * std::f64::consts::PI / 180.0).cos();
    (c * c) as f32
}

/// Whether the angle between `(oh, ov)` and `(th, tv)` is below one degree, with libvmaf's float steps.
#[inline(always)]
pub fn angle_flag(oh: i64, ov: i64, th: i64, tv: i64, cos_1deg_sq: f32) -> bool {
    let dp = oh.wrapping_mul(th).wrapping_add(ov.wrapping_mul(tv));
    let o2 = oh.wrapping_mul(oh).wrapping_add(ov.wrapping_mul(ov));
    let t2 = th.wrapping_mul(th).wrapping_add(tv.wrapping_mul(tv));
    let x = (dp as f32) as f64 / 4096.0;
    // `&` rather than `&&`: both sides are cheap and a branch on them would mispredict.
    (x >= 0.0) & (x * x >= cos_1deg_sq as f64 * ((o2 as f32) as f64 / 4096.0) * ((t2 as f32) as f64 / 4096.0))
}

/// The Q15 gain `t / o` clamped to `[0, 1]` (32768 for `o = 0`).
///
/// [`angle_flag`] for `i16` samples, in i32 and f64 lanes (which vectorise where i64 -> f32 conversions do
/// not): each product fits 31 bits and their sum 33, so the f64 sum is the exact integer and its one rounding
/// to f32 is the one libvmaf's `(float)` conversion of the int64 performs.
#[inline(always)]
fn angle_flag_i16(oh: i32, ov: i32, th: i32, tv: i32, cos_1deg_sq: f32) -> bool {
    let exact = |a: i32, b: i32| -> f32 { (a as f64 + b as f64) as f32 };
    let dp = exact(oh * th, ov * tv);
    let o2 = exact(oh * oh, ov * ov);
    let t2 = exact(th * th, tv * tv);
    let x = dp as f64 / 4096.0;
    (x >= 0.0) & (x * x >= cos_1deg_sq as f64 * (o2 as f64 / 4096.0) * (t2 as f64 / 4096.0))
}

/// libvmaf's `get_best15_from32` rounds a divisor of 2^15 or more to 15 significant bits with the shift
/// `s = 17 - clz32(|o|)`; below 2^15 that expression is not positive and the divisor is used as is, so
/// `s = max(0, 17 - clz)` covers both cases without a branch.
#[inline(always)]
pub fn gain_q15(o: i64, t: i64) -> i64 {
    let abs = (o as i32).unsigned_abs();
    let s = (17 - abs.leading_zeros() as i32).max(0) as u32;
    let m = abs.wrapping_add((1u32 << s) >> 1) >> s;
    let sign = if o < 0 { -1 } else { 1 };
    // C evaluates `1 << (14 + shift)` in int.
    let round = (1i32.wrapping_shl(14 + s)) as i64;
    let div = DIV[(m as usize + 32768).min(65536)] as i64;
    let k = ((div.wrapping_mul(t).wrapping_mul(sign) + round) >> (15 + s)).clamp(0, 32768);
    // Clamp first, then select: a select the vectoriser can keep branch-free.
    if o == 0 { 32768 } else { k }
}

/// Restored and artifact value of one band sample, stored as libvmaf stores them.
#[inline(always)]
fn band<T: BandElem>(o: i64, t: i64, angle_ok: bool, limit: GainLimit) -> (T, T) {
    let k = if T::ELEM == Elem::I16 { gain_q15_i16(o, t) } else { gain_q15(o, t) };
    // libvmaf stores `r` in the band type before the gain limit reads it back.
    let r = T::narrow((k * o + 16384) >> 15).wide();
    // libvmaf tests the sign of the f32 product `(k / 32768) * (o / 64)`: with `k` in 0..=32768 and `o` an
    // integer that product is 0 only when `k` or `o` is (it cannot underflow), so its sign is that of `k*o`.
    let limited = angle_ok & (k != 0) & (o != 0);
    let r = T::narrow(if limited { limit.apply(r, t, o > 0) } else { r });
    (r, T::narrow(t - r.wide()))
}

/// [`gain_q15`] for divisors that fit `i16` (all of them below 2^15 in magnitude, or -2^15, which the
/// table's first entry covers): libvmaf's scale-0 form `(DIV[o + 32768] * t + 16384) >> 15`.
#[inline(always)]
fn gain_q15_i16(o: i64, t: i64) -> i64 {
    // `o` fits i16, so the index `o + 32768` is a u16 (and needs no bounds check).
    let k = ((DIV[((o as i16 as u16) ^ 0x8000) as usize] as i64 * t + 16384) >> 15).clamp(0, 32768);
    if o == 0 { 32768 } else { k }
}
