//! CPU reference of `adm_cm`: bands of rows in parallel. Each task computes, for the rows it reads, the
//! per-pixel masking terms summed over the three bands (`F = sum_b flt(m_b)`, `C = sum_b ctr(m_b)`), so the
//! 3x3 threshold is a few additions per pixel: `thr = V[j-1] + V[j] + V[j+1] - F[i][j] + C[i][j]` with
//! `V` the vertical 3-sum of `F` (edge rows and columns mapped as libvmaf's macros map them).

use rayon::prelude::*;
use vqgraph_graph::{Elem, Value};

use super::AdmCm;
use crate::adm_common::{BandElem, Region, avx2_dispatch, band_inputs, half_of_pow2};

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
    if op.scale == 0 {
        Ok(sums::<T, true>(op, p.width, p.height, [xh, xv, xd], [mh, mv, md]))
    } else {
        Ok(sums::<T, false>(op, p.width, p.height, [xh, xv, xd], [mh, mv, md]))
    }
}

/// The three sums; `S0` selects libvmaf's scale-0 layout (constant, so each loop is compiled for one).
fn sums<T: BandElem, const S0: bool>(op: &AdmCm, w: usize, h: usize, x: [&[T]; 3], m: [&[T]; 3]) -> [i64; 3] {
    let sh = op.shifts(w, h);
    let lay = if S0 { &SCALE0 } else { &SCALE123 };
    let k = Consts {
        sub: lay.sub,
        sq: lay.sq,
        add_sq: lay.sq.map(|s| 1i64 << (s - 1)),
        cub: sh.cub,
        add_cub: sh.cub.map(half_of_pow2),
        rf: op.rfactor.map(|f| f as i64),
    };
    let add_inner = half_of_pow2(sh.inner);
    let reg = Region::of(w, h);
    let (left, right) = (reg.left, reg.right);
    let n = right - left;

    let starts: Vec<usize> = (reg.top..reg.bottom).step_by(ROWS).collect();
    starts
        .into_par_iter()
        .map(|r0| {
            let r1 = (r0 + ROWS).min(reg.bottom);
            // Rows read: r0 - 1 ..= r1 within the plane (row 1 for row 0's "above", row h-1 for the "below"
            // of row h-1 both fall inside this range).
            let lo = r0.saturating_sub(1);
            let hi = r1.min(h - 1);
            let mut f = vec![0i32; (hi - lo + 1) * w];
            for (r, row) in (lo..=hi).zip(f.chunks_exact_mut(w)) {
                let mr = m.map(|p| &p[r * w..r * w + w]);
                masks::<T, S0, false>(mr, row);
            }
            // Vertical 3-sums of F, padded so that column -1 reads column 1 and column w reads w-1.
            let mut vp = vec![0i32; w + 2];
            let mut thr = vec![0i32; n];
            let mut acc = [0i64; 3];
            for i in r0..r1 {
                let up = if i == 0 { 1 } else { i - 1 };
                let dn = if i == h - 1 { h - 1 } else { i + 1 };
                let (fu, fi, fd) = (&f[(up - lo) * w..][..w], &f[(i - lo) * w..][..w], &f[(dn - lo) * w..][..w]);
                sum3(fu, fi, fd, &mut vp[1..w + 1]);
                vp[0] = vp[2];
                vp[w + 1] = vp[w];
                let k0 = i * w + left;
                let mr = m.map(|p| &p[k0..k0 + n]);
                // The centre terms first (into `thr`), then the neighbours added.
                masks::<T, S0, true>(mr, &mut thr);
                threshold(&vp[left..left + n + 2], &fi[left..left + n], &mut thr);
                for b in 0..3 {
                    let row = cubes::<T, S0>(&x[b][k0..k0 + n], &thr, &k, b);
                    acc[b] = acc[b].wrapping_add(row.wrapping_add(add_inner) >> sh.inner);
                }
            }
            acc
        })
        .reduce(|| [0i64; 3], |a, b| [0, 1, 2].map(|k| a[k].wrapping_add(b[k])))
}

/// Per-band constants of the cube sums.
struct Consts {
    sub: [u32; 3],
    sq: [u32; 3],
    add_sq: [i64; 3],
    cub: [u32; 3],
    add_cub: [i64; 3],
    rf: [i64; 3],
}

avx2_dispatch! {
    fn masks[T: BandElem, const S0: bool, const CTR: bool](m: [&[T]; 3], out: &mut [i32]) = masks_kernel::<T, S0, CTR>;
}

/// `out[j] = sum_b flt(m_b[j])` (or `ctr` with `CTR`): libvmaf's `|m| / 30` (`|m| / 15`) in fixed point,
/// stored in the band type.
#[inline(always)]
fn masks_kernel<T: BandElem, const S0: bool, const CTR: bool>(m: [&[T]; 3], out: &mut [i32]) {
    let lay = if S0 { &SCALE0 } else { &SCALE123 };
    let f = if CTR { lay.f15 } else { lay.f30 };
    let term = |v: T| -> i32 {
        if S0 {
            // C int arithmetic: |m| <= 2^15, so the product stays below 2^29.
            T::narrow(((f as i32 * (v.wide() as i32).wrapping_abs() + lay.round as i32) >> lay.shift) as i64).wide()
                as i32
        } else {
            T::narrow((f * c_abs(v.wide()) + lay.round) >> lay.shift).wide() as i32
        }
    };
    for (o, ((&a, &b), &c)) in out.iter_mut().zip(m[0].iter().zip(m[1]).zip(m[2])) {
        *o = term(a).wrapping_add(term(b)).wrapping_add(term(c));
    }
}

avx2_dispatch! {
    fn sum3[](a: &[i32], b: &[i32], c: &[i32], out: &mut [i32]) = sum3_kernel;
}

#[inline(always)]
fn sum3_kernel(a: &[i32], b: &[i32], c: &[i32], out: &mut [i32]) {
    for (o, ((&a, &b), &c)) in out.iter_mut().zip(a.iter().zip(b).zip(c)) {
        *o = a.wrapping_add(b).wrapping_add(c);
    }
}

avx2_dispatch! {
    fn threshold[](vp: &[i32], fc: &[i32], thr: &mut [i32]) = threshold_kernel;
}

/// `thr[j] += vp[j] + vp[j+1] + vp[j+2] - fc[j]`: the 3x3 sum of the `flt` terms without the centre.
/// libvmaf sums these in C int; wrapping i32 keeps the same low 32 bits in any order.
#[inline(always)]
fn threshold_kernel(vp: &[i32], fc: &[i32], thr: &mut [i32]) {
    let n = thr.len();
    let win = vp[..n].iter().zip(&vp[1..n + 1]).zip(&vp[2..n + 2]);
    for (t, (((&a, &b), &c), &f)) in thr.iter_mut().zip(win.zip(fc)) {
        *t = t.wrapping_add(a).wrapping_add(b).wrapping_add(c).wrapping_sub(f);
    }
}

avx2_dispatch! {
    fn cubes[T: BandElem, const S0: bool](x: &[T], thr: &[i32], k: &Consts, b: usize) -> i64 = cubes_kernel::<T, S0>;
}

/// One row's sum of rounded cubes of the masked band values.
#[inline(always)]
fn cubes_kernel<T: BandElem, const S0: bool>(x: &[T], thr: &[i32], k: &Consts, b: usize) -> i64 {
    let (sub, sq, cub, add_sq, add_cub, rf) = (k.sub[b], k.sq[b], k.cub[b], k.add_sq[b], k.add_cub[b], k.rf[b]);
    let mut row = 0i64;
    for (&xv, &t) in x.iter().zip(thr) {
        // The measured value scaled by its band weight, as libvmaf's C int32 `xh`.
        let y =
            if S0 { (xv.wide() as i32).wrapping_mul(rf as i32) } else { ((xv.wide() * rf + (1 << 27)) >> 28) as i32 };
        let e = y.wrapping_abs().wrapping_sub(t.wrapping_shl(sub)).max(0) as i64;
        let e2 = ((e * e + add_sq) >> sq) as i32 as i64;
        row = row.wrapping_add((e2 * e + add_cub) >> cub);
    }
    row
}
