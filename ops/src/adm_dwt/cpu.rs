//! CPU reference of `adm_dwt`: output rows in parallel; each row runs the vertical pass into two scratch rows
//! (reused per thread) and then the horizontal pass into the four bands.

use rayon::prelude::*;
use vqgraph_graph::{HostBuf, Value};

use super::{AdmDwt, HI, LO};
use crate::adm_common::BandElem;
use crate::util::plane;

/// libvmaf's source index of tap `k` for output `i` over `n` input samples (`n >= 5`).
#[inline(always)]
pub fn src_index(k: usize, i: usize, n: usize) -> usize {
    let r = 2 * i + k;
    if r == 0 {
        1 // 2i - 1 = -1 reflects to 1
    } else if r - 1 >= n {
        2 * n - r // 2n - (r - 1) - 1
    } else {
        r - 1
    }
}

/// The four mutable output bands, in `a, h, v, d` order.
fn bands_i16(outputs: &mut [Value]) -> Result<[&mut [i16]; 4], String> {
    let [a, h, v, d] = outputs else { return Err("adm_dwt: expected 4 outputs".into()) };
    match (a.buf_mut().as_i16_mut(), h.buf_mut().as_i16_mut(), v.buf_mut().as_i16_mut(), d.buf_mut().as_i16_mut()) {
        (Some(a), Some(h), Some(v), Some(d)) => Ok([a, h, v, d]),
        _ => Err("adm_dwt: scale-0 outputs must be i16".into()),
    }
}

fn bands_i32(outputs: &mut [Value]) -> Result<[&mut [i32]; 4], String> {
    let [a, h, v, d] = outputs else { return Err("adm_dwt: expected 4 outputs".into()) };
    match (a.buf_mut().as_i32_mut(), h.buf_mut().as_i32_mut(), v.buf_mut().as_i32_mut(), d.buf_mut().as_i32_mut()) {
        (Some(a), Some(h), Some(v), Some(d)) => Ok([a, h, v, d]),
        _ => Err("adm_dwt: outputs of scales 1-3 must be i32".into()),
    }
}

pub fn eval(op: &AdmDwt, input: &Value, outputs: &mut [Value]) -> Result<(), String> {
    let x = plane(input)?;
    let (w, h) = (x.width, x.height);
    if op.scale == 0 {
        let src = x.data.as_u16().ok_or("adm_dwt: scale-0 input must be u16")?;
        scale0(op, src, w, h, bands_i16(outputs)?);
    } else {
        let out = bands_i32(outputs)?;
        match &x.data {
            HostBuf::I16(s) => scale123(op, s, w, h, out),
            HostBuf::I32(s) => scale123(op, s, w, h, out),
            _ => return Err("adm_dwt: input of scales 1-3 must be i16 or i32".into()),
        }
    }
    Ok(())
}

/// Lays out one vertically filtered row for the horizontal pass: the row mirrored as libvmaf's column
/// indices read it (`-1 -> 1`, `w -> w-1`, `w+1 -> w-2`), split into even and odd positions so that output
/// `j` reads `even[j], odd[j], even[j+1], odd[j+1]` (contiguous, so the loops vectorise).
#[inline(always)]
fn deinterleave<S: Copy, D: From<S>>(row: &[S], even: &mut [D], odd: &mut [D]) {
    let w = row.len();
    // Padded position q holds source column q - 1.
    let at = |q: usize| -> D {
        D::from(match q {
            0 => row[1],
            q if q <= w => row[q - 1],
            q if q == w + 1 => row[w - 1],
            _ => row[w - 2],
        })
    };
    let ow = w.div_ceil(2);
    // Positions 0 ..= 2*ow + 1 are read.
    for m in 0..=ow {
        even[m] = at(2 * m);
        odd[m] = at(2 * m + 1);
    }
}

/// Scale 0: libvmaf's `int32` arithmetic, reproduced with wrapping i32 operations.
fn scale0(op: &AdmDwt, src: &[u16], w: usize, h: usize, out: [&mut [i16]; 4]) {
    let (center, v_round, v_shift, h_round, h_shift) = op.rounding();
    let (center, v_round, h_round) = (center as i32, v_round as i32, h_round as i32);
    let ow = w.div_ceil(2);
    let [a, hb, v, d] = out;
    let rows = a.par_chunks_mut(ow).zip(hb.par_chunks_mut(ow)).zip(v.par_chunks_mut(ow)).zip(d.par_chunks_mut(ow));
    rows.enumerate().for_each_init(
        || (vec![0i16; w], vec![0i16; w], [(); 4].map(|_| vec![0i32; ow + 1])),
        |(tlo, thi, [le, lo, he, ho]), (i, (((a, hb), v), d))| {
            let r: [&[u16]; 4] = [0, 1, 2, 3].map(|k| {
                let row = src_index(k, i, h);
                &src[row * w..row * w + w]
            });
            for (j, (l, g)) in tlo.iter_mut().zip(thi.iter_mut()).enumerate() {
                let s = [r[0][j] as i32, r[1][j] as i32, r[2][j] as i32, r[3][j] as i32];
                let x = dot_i32(&LO, &s).wrapping_sub(center);
                let y = dot_i32(&HI, &s);
                *l = (x.wrapping_add(v_round) >> v_shift) as i16;
                *g = (y.wrapping_add(v_round) >> v_shift) as i16;
            }
            deinterleave(tlo, le, lo);
            deinterleave(thi, he, ho);
            let (le, lo, he, ho) = (&le[..ow + 1], &lo[..ow + 1], &he[..ow + 1], &ho[..ow + 1]);
            let (a, v, hb, d) = (&mut a[..ow], &mut v[..ow], &mut hb[..ow], &mut d[..ow]);
            for j in 0..ow {
                let l = [le[j], lo[j], le[j + 1], lo[j + 1]];
                let g = [he[j], ho[j], he[j + 1], ho[j + 1]];
                a[j] = (dot_i32(&LO, &l).wrapping_add(h_round) >> h_shift) as i16;
                v[j] = (dot_i32(&HI, &l).wrapping_add(h_round) >> h_shift) as i16;
                hb[j] = (dot_i32(&LO, &g).wrapping_add(h_round) >> h_shift) as i16;
                d[j] = (dot_i32(&HI, &g).wrapping_add(h_round) >> h_shift) as i16;
            }
        },
    );
}

#[inline(always)]
fn dot_i32(t: &[i32; 4], s: &[i32; 4]) -> i32 {
    t[0].wrapping_mul(s[0])
        .wrapping_add(t[1].wrapping_mul(s[1]))
        .wrapping_add(t[2].wrapping_mul(s[2]))
        .wrapping_add(t[3].wrapping_mul(s[3]))
}

#[inline(always)]
fn dot_i64(t: &[i32; 4], s: &[i64; 4]) -> i64 {
    t[0] as i64 * s[0] + t[1] as i64 * s[1] + t[2] as i64 * s[2] + t[3] as i64 * s[3]
}

/// Scales 1-3: `int64` sums, both passes cast to `int32`.
fn scale123<T: BandElem>(op: &AdmDwt, src: &[T], w: usize, h: usize, out: [&mut [i32]; 4]) {
    let (_, v_round, v_shift, h_round, h_shift) = op.rounding();
    let ow = w.div_ceil(2);
    let [a, hb, v, d] = out;
    let rows = a.par_chunks_mut(ow).zip(hb.par_chunks_mut(ow)).zip(v.par_chunks_mut(ow)).zip(d.par_chunks_mut(ow));
    rows.enumerate().for_each_init(
        || (vec![0i32; w], vec![0i32; w], [(); 4].map(|_| vec![0i32; ow + 1])),
        |(tlo, thi, [le, lo, he, ho]), (i, (((a, hb), v), d))| {
            let r: [&[T]; 4] = [0, 1, 2, 3].map(|k| {
                let row = src_index(k, i, h);
                &src[row * w..row * w + w]
            });
            for (j, (l, g)) in tlo.iter_mut().zip(thi.iter_mut()).enumerate() {
                let s = [r[0][j].wide(), r[1][j].wide(), r[2][j].wide(), r[3][j].wide()];
                *l = ((dot_i64(&LO, &s) + v_round) >> v_shift) as i32;
                *g = ((dot_i64(&HI, &s) + v_round) >> v_shift) as i32;
            }
            deinterleave(tlo, le, lo);
            deinterleave(thi, he, ho);
            let (le, lo, he, ho) = (&le[..ow + 1], &lo[..ow + 1], &he[..ow + 1], &ho[..ow + 1]);
            let (a, v, hb, d) = (&mut a[..ow], &mut v[..ow], &mut hb[..ow], &mut d[..ow]);
            for j in 0..ow {
                let l = [le[j] as i64, lo[j] as i64, le[j + 1] as i64, lo[j + 1] as i64];
                let g = [he[j] as i64, ho[j] as i64, he[j + 1] as i64, ho[j + 1] as i64];
                a[j] = ((dot_i64(&LO, &l) + h_round) >> h_shift) as i32;
                v[j] = ((dot_i64(&HI, &l) + h_round) >> h_shift) as i32;
                hb[j] = ((dot_i64(&LO, &g) + h_round) >> h_shift) as i32;
                d[j] = ((dot_i64(&HI, &g) + h_round) >> h_shift) as i32;
            }
        },
    );
}
