//! CPU reference of `adm_dwt`: output rows in parallel; each row runs the vertical pass into two scratch rows
//! (reused per thread) and then the horizontal pass into the four bands.

use rayon::prelude::*;
use vqgraph_graph::{HostBuf, Value};

use super::{AdmDwt, HI, LO};
use crate::adm_common::{BandElem, avx2_dispatch};
use crate::util::plane;

/// libvmaf's source index of tap `k` for output `i` over `n` input samples (`n >= 5`).
#[inline(always)]
pub fn src_index(k: usize, i: usize, n: usize) -> usize {
    let r = 2 * i + k;
    if r == 0 {
        1 // 2i - 1 = -1 reflects to 1
    } else if r > n {
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
    let ow = w.div_ceil(2);
    // Padded position q holds source column q - 1, mirrored at both ends.
    let at = |q: usize| -> D {
        D::from(match q {
            0 => row[1],
            q if q <= w => row[q - 1],
            q if q == w + 1 => row[w - 1],
            _ => row[w - 2],
        })
    };
    even[0] = at(0);
    odd[0] = at(1);
    // Interior: positions 2m, 2m+1 are columns 2m-1, 2m.
    let inner = (w - 1) / 2;
    for ((e, o), pair) in even[1..=inner].iter_mut().zip(odd[1..=inner].iter_mut()).zip(row[1..].chunks_exact(2)) {
        *e = D::from(pair[0]);
        *o = D::from(pair[1]);
    }
    for m in inner + 1..=ow {
        even[m] = at(2 * m);
        odd[m] = at(2 * m + 1);
    }
}

/// Scale 0: libvmaf's `int32` arithmetic, reproduced with wrapping i32 operations.
fn scale0(op: &AdmDwt, src: &[u16], w: usize, h: usize, out: [&mut [i16]; 4]) {
    let (center, v_round, v_shift, h_round, h_shift) = op.rounding();
    let k = Row0 { center: center as i32, v_round: v_round as i32, v_shift, h_round: h_round as i32, h_shift };
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
            row0(&k, r, tlo, thi, [le, lo, he, ho], [a, hb, v, d]);
        },
    );
}

/// Rounding of a scale-0 row.
struct Row0 {
    center: i32,
    v_round: i32,
    v_shift: u32,
    h_round: i32,
    h_shift: u32,
}

avx2_dispatch! {
    fn row0[](k: &Row0, r: [&[u16]; 4], tlo: &mut [i16], thi: &mut [i16], t: [&mut Vec<i32>; 4], out: [&mut [i16]; 4])
        = row0_kernel;
}

/// One output row of scale 0 from its four source rows.
#[inline(always)]
fn row0_kernel(
    k: &Row0,
    r: [&[u16]; 4],
    tlo: &mut [i16],
    thi: &mut [i16],
    t: [&mut Vec<i32>; 4],
    out: [&mut [i16]; 4],
) {
    let (vr, vs, c) = (k.v_round, k.v_shift, k.center);
    let src = r[0].iter().zip(r[1]).zip(r[2]).zip(r[3]);
    for ((l, g), (((&s0, &s1), &s2), &s3)) in tlo.iter_mut().zip(thi.iter_mut()).zip(src) {
        let s = [s0 as i32, s1 as i32, s2 as i32, s3 as i32];
        *l = (dot_i32(&LO, &s).wrapping_sub(c).wrapping_add(vr) >> vs) as i16;
        *g = (dot_i32(&HI, &s).wrapping_add(vr) >> vs) as i16;
    }
    let [le, lo, he, ho] = t;
    deinterleave(tlo, le, lo);
    deinterleave(thi, he, ho);
    let [a, hb, v, d] = out;
    let (hr, hs) = (k.h_round, k.h_shift);
    let ow = a.len();
    let lo_pairs = le[..ow].iter().zip(&lo[..ow]).zip(le[1..].iter().zip(&lo[1..]));
    for ((a, v), ((&e0, &o0), (&e1, &o1))) in a.iter_mut().zip(v.iter_mut()).zip(lo_pairs) {
        let s = [e0, o0, e1, o1];
        *a = (dot_i32(&LO, &s).wrapping_add(hr) >> hs) as i16;
        *v = (dot_i32(&HI, &s).wrapping_add(hr) >> hs) as i16;
    }
    let hi_pairs = he[..ow].iter().zip(&ho[..ow]).zip(he[1..].iter().zip(&ho[1..]));
    for ((h, d), ((&e0, &o0), (&e1, &o1))) in hb.iter_mut().zip(d.iter_mut()).zip(hi_pairs) {
        let s = [e0, o0, e1, o1];
        *h = (dot_i32(&LO, &s).wrapping_add(hr) >> hs) as i16;
        *d = (dot_i32(&HI, &s).wrapping_add(hr) >> hs) as i16;
    }
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
    let k = Row123 { v_round, v_shift, h_round, h_shift };
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
            row123(&k, r, tlo, thi, [le, lo, he, ho], [a, hb, v, d]);
        },
    );
}

/// Rounding of a scale 1-3 row.
struct Row123 {
    v_round: i64,
    v_shift: u32,
    h_round: i64,
    h_shift: u32,
}

avx2_dispatch! {
    fn row123[T: BandElem](k: &Row123, r: [&[T]; 4], tlo: &mut [i32], thi: &mut [i32], t: [&mut Vec<i32>; 4], out: [&mut [i32]; 4])
        = row123_kernel;
}

/// One output row of scales 1-3 from its four source rows.
#[inline(always)]
fn row123_kernel<T: BandElem>(
    k: &Row123,
    r: [&[T]; 4],
    tlo: &mut [i32],
    thi: &mut [i32],
    t: [&mut Vec<i32>; 4],
    out: [&mut [i32]; 4],
) {
    let (vr, vs) = (k.v_round, k.v_shift);
    let src = r[0].iter().zip(r[1]).zip(r[2]).zip(r[3]);
    for ((l, g), (((&s0, &s1), &s2), &s3)) in tlo.iter_mut().zip(thi.iter_mut()).zip(src) {
        let s = [s0.wide(), s1.wide(), s2.wide(), s3.wide()];
        *l = ((dot_i64(&LO, &s) + vr) >> vs) as i32;
        *g = ((dot_i64(&HI, &s) + vr) >> vs) as i32;
    }
    let [le, lo, he, ho] = t;
    deinterleave(tlo, le, lo);
    deinterleave(thi, he, ho);
    let [a, hb, v, d] = out;
    let (hr, hs) = (k.h_round, k.h_shift);
    let ow = a.len();
    let lo_pairs = le[..ow].iter().zip(&lo[..ow]).zip(le[1..].iter().zip(&lo[1..]));
    for ((a, v), ((&e0, &o0), (&e1, &o1))) in a.iter_mut().zip(v.iter_mut()).zip(lo_pairs) {
        let s = [e0 as i64, o0 as i64, e1 as i64, o1 as i64];
        *a = ((dot_i64(&LO, &s) + hr) >> hs) as i32;
        *v = ((dot_i64(&HI, &s) + hr) >> hs) as i32;
    }
    let hi_pairs = he[..ow].iter().zip(&ho[..ow]).zip(he[1..].iter().zip(&ho[1..]));
    for ((h, d), ((&e0, &o0), (&e1, &o1))) in hb.iter_mut().zip(d.iter_mut()).zip(hi_pairs) {
        let s = [e0 as i64, o0 as i64, e1 as i64, o1 as i64];
        *h = ((dot_i64(&LO, &s) + hr) >> hs) as i32;
        *d = ((dot_i64(&HI, &s) + hr) >> hs) as i32;
    }
}
