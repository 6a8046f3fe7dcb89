//! CPU reference of `adm_cm`: bands of rows in parallel. Each task computes, for the rows it reads, the
//! per-pixel masking terms summed over the three bands (`F = sum_b flt(m_b)`, `C = sum_b ctr(m_b)`), so the
//! 3x3 threshold is a few additions per pixel: `thr = V[j-1] + V[j] + V[j+1] - F[i][j] + C[i][j]` with
//! `V` the vertical 3-sum of `F` (edge rows and columns mapped as libvmaf's macros map them).

use rayon::prelude::*;
use vqgraph_graph::{Elem, Value};

use super::AdmCm;
use crate::adm_common::{BandElem, Region, band_inputs, half_of_pow2};

/// Rows per rayon task.
const ROWS: usize = 8;

/// Fixed-point layout of one scale kind.
struct Layout {
    f30: i64,
    f15: i64,
    round: i64,
    shift: u32,
    sub: [u32; 3],
    sq: [u32; 3],
}

const SCALE0: Layout = Layout { f30: 4369, f15: 8738, round: 2048, shift: 12, sub: [10, 10, 12], sq: [29, 29, 30] };
const SCALE123: Layout =
    Layout { f30: 143165577, f15: 286331153, round: -(1i64 << 31), shift: 32, sub: [0, 0, 0], sq: [30, 30, 30] };

pub fn eval(op: &AdmCm, inputs: &[&Value], output: &mut Value) -> Result<(), String> {
    let sums = match inputs[0].buf().elem() {
        Elem::I16 => run::<i16>(op, inputs)?,
        _ => run::<i32>(op, inputs)?,
    };
    output.buf_mut().as_i64_mut().ok_or("adm_cm: output must be i64 sums")?.copy_from_slice(&sums);
    Ok(())
}

/// `|m|` as libvmaf takes it: `abs()` of the value as a C `int`.
#[inline(always)]
fn c_abs(m: i64) -> i64 {
    (m as i32).wrapping_abs() as i64
}

fn run<T: BandElem>(op: &AdmCm, inputs: &[&Value]) -> Result<[i64; 3], String> {
    let [xh, xv, xd, mh, mv, md]: [&[T]; 6] = band_inputs(inputs, "adm_cm")?;
    let p = inputs[0].as_plane().ok_or("adm_cm: expected planes")?;
    let (w, h) = (p.width, p.height);
    let lay = if op.scale == 0 { &SCALE0 } else { &SCALE123 };
    let sh = op.shifts(w, h);
    let add_cub = sh.cub.map(half_of_pow2);
    let add_inner = half_of_pow2(sh.inner);
    let add_sq = lay.sq.map(|s| 1i64 << (s - 1));
    let rf = op.rfactor.map(|f| f as i64);
    let reg = Region::of(w, h);
    let x = [xh, xv, xd];
    let m = [mh, mv, md];
    // The measured value scaled by its band weight, as the C int32 `xh`.
    let scaled = |b: usize, v: i64| -> i32 {
        if op.scale == 0 { (v * rf[b]) as i32 } else { ((v * rf[b] + (1 << 27)) >> 28) as i32 }
    };
    let term = |f: i64, v: T| -> i64 { T::narrow((f * c_abs(v.wide()) + lay.round) >> lay.shift).wide() };

    let starts: Vec<usize> = (reg.top..reg.bottom).step_by(ROWS).collect();
    let partial = starts
        .into_par_iter()
        .map(|r0| {
            let r1 = (r0 + ROWS).min(reg.bottom);
            // Rows read: r0 - 1 ..= r1 within the plane (row 1 for row 0's "above", row h-1 for the "below"
            // of row h-1 both fall inside this range).
            let lo = r0.saturating_sub(1);
            let hi = r1.min(h - 1);
            let mut f = vec![0i32; (hi - lo + 1) * w];
            for r in lo..=hi {
                let row = &mut f[(r - lo) * w..(r - lo + 1) * w];
                for (j, o) in row.iter_mut().enumerate() {
                    let k = r * w + j;
                    *o = (term(lay.f30, m[0][k]) + term(lay.f30, m[1][k]) + term(lay.f30, m[2][k])) as i32;
                }
            }
            let mut v = vec![0i32; w];
            let mut acc = [0i64; 3];
            for i in r0..r1 {
                let up = if i == 0 { 1 } else { i - 1 };
                let dn = if i == h - 1 { h - 1 } else { i + 1 };
                let (fu, fi, fd) = (&f[(up - lo) * w..][..w], &f[(i - lo) * w..][..w], &f[(dn - lo) * w..][..w]);
                for j in 0..w {
                    v[j] = fu[j] + fi[j] + fd[j];
                }
                let mut row = [0i64; 3];
                for j in reg.left..reg.right {
                    let l = if j == 0 { 1 } else { j - 1 };
                    let r = if j == w - 1 { w - 1 } else { j + 1 };
                    let k = i * w + j;
                    let c = term(lay.f15, m[0][k]) + term(lay.f15, m[1][k]) + term(lay.f15, m[2][k]);
                    let thr = (v[l] as i64 + v[j] as i64 + v[r] as i64 - fi[j] as i64 + c) as i32;
                    for b in 0..3 {
                        let y = scaled(b, x[b][k].wide());
                        let e = y.wrapping_abs().wrapping_sub(thr.wrapping_shl(lay.sub[b])).max(0) as i64;
                        let e2 = ((e * e + add_sq[b]) >> lay.sq[b]) as i32 as i64;
                        row[b] = row[b].wrapping_add((e2 * e + add_cub[b]) >> sh.cub[b]);
                    }
                }
                for b in 0..3 {
                    acc[b] = acc[b].wrapping_add(row[b].wrapping_add(add_inner) >> sh.inner);
                }
            }
            acc
        })
        .reduce(|| [0i64; 3], |a, b| [0, 1, 2].map(|k| a[k].wrapping_add(b[k])));
    Ok(partial)
}
