//! CPU reference of `adm_decouple`: pointwise, in parallel over fixed-size pieces of the planes.

use rayon::prelude::*;
use vqgraph_graph::{Elem, Value};

use super::AdmDecouple;
use crate::adm_common::{BandElem, band_inputs, band_outputs, split_chunks};

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
    let egl = op.gain_limit;
    split_chunks(outs, PIECE).into_par_iter().enumerate().for_each(|(p, [rh, rv, rd, ah, av, ad])| {
        let base = p * PIECE;
        let n = rh.len();
        let [oh, ov, od, th, tv, td] = ins.map(|x| &x[base..base + n]);
        for j in 0..n {
            let (oh, ov, od, th, tv, td) =
                (oh[j].wide(), ov[j].wide(), od[j].wide(), th[j].wide(), tv[j].wide(), td[j].wide());
            let angle_ok = angle_flag(oh, ov, th, tv, cos_1deg_sq);
            (rh[j], ah[j]) = band(oh, th, angle_ok, egl);
            (rv[j], av[j]) = band(ov, tv, angle_ok, egl);
            (rd[j], ad[j]) = band(od, td, angle_ok, egl);
        }
    });
    Ok(())
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
    x >= 0.0 && x * x >= cos_1deg_sq as f64 * ((o2 as f32) as f64 / 4096.0) * ((t2 as f32) as f64 / 4096.0)
}

/// libvmaf's `get_best15_from32`: the divisor rounded to 15 significant bits, and the shift that took.
#[inline(always)]
fn best15(abs: u32) -> (u32, u32) {
    let k = 17 - abs.leading_zeros();
    (abs.wrapping_add(1 << (k - 1)) >> k, k)
}

/// The Q15 gain `t / o` clamped to `[0, 1]`.
#[inline(always)]
pub fn gain_q15(o: i64, t: i64) -> i64 {
    if o == 0 {
        return 32768;
    }
    let abs = (o as i32).unsigned_abs();
    let sign = if o < 0 { -1 } else { 1 };
    let (m, s) = if abs < 32768 { (abs, 0) } else { best15(abs) };
    // C evaluates `1 << (14 + shift)` in int.
    let round = (1i32.wrapping_shl(14 + s)) as i64;
    let k = ((DIV[(m + 32768) as usize] as i64).wrapping_mul(t).wrapping_mul(sign) + round) >> (15 + s);
    k.clamp(0, 32768)
}

/// Restored and artifact value of one band sample, stored as libvmaf stores them.
#[inline(always)]
fn band<T: BandElem>(o: i64, t: i64, angle_ok: bool, gain_limit: f64) -> (T, T) {
    let k = gain_q15(o, t);
    // libvmaf stores `r` in the band type before the gain limit reads it back.
    let r = T::narrow((k * o + 16384) >> 15);
    // libvmaf tests the sign of the f32 product `(k / 32768) * (o / 64)`: with `k` in 0..=32768 and `o` an
    // integer that product is 0 only when `k` or `o` is (it cannot underflow), so its sign is that of `k*o`.
    let r = if angle_ok && k != 0 && o != 0 {
        // C's MIN (o > 0) or MAX (o < 0) in double, then the assignment truncates toward zero.
        let (g, tf) = (r.wide() as f64 * gain_limit, t as f64);
        let lim = if o > 0 { g.min(tf) } else { g.max(tf) };
        T::narrow(lim as i64)
    } else {
        r
    };
    (r, T::narrow(t - r.wide()))
}
