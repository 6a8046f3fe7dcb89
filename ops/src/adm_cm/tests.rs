//! Tests of `adm_cm` against a transcription of libvmaf's `adm_cm` / `i4_adm_cm`: the masking threshold
//! with its edge cases (the `ADM_CM_THRESH_S_*` macros), the rounded squares and cubes and the per-row
//! shifts.

use vqgraph_graph::{Elem, Op, Value, ValueType};

use super::AdmCm;
use crate::adm_common::testing::{Rng, plain_and_simd, plane_i16, plane_i32};

/// libvmaf's neighbour rows (or columns) of `i` in a plane of `n`: `(1, 0, 1)` at the top, `(n-2, n-1, n-1)`
/// at the bottom, as its macros spell them out.
fn nbrs(i: usize, n: usize) -> [usize; 3] {
    if i == 0 {
        [1, 0, 1]
    } else if i == n - 1 {
        [n - 2, n - 1, n - 1]
    } else {
        [i - 1, i, i + 1]
    }
}

fn c_log2_ceil(x: usize) -> u32 {
    (x as f64).log2().ceil() as u32
}

/// libvmaf's contrast masking sums for one scale. `x` and `m` hold the band values widened to i64.
fn c_cm(x: &[Vec<i64>; 3], m: &[Vec<i64>; 3], w: usize, h: usize, scale: u8, rf: [u32; 3]) -> [i64; 3] {
    let s0 = scale == 0;
    type Term = Box<dyn Fn(i64) -> i64>;
    let (flt, ctr): (Term, Term) = if s0 {
        (
            Box::new(|v| ((4369 * (v as i32).abs() + 2048) >> 12) as i16 as i64),
            Box::new(|v| ((8738 * (v as i32).abs() + 2048) >> 12) as i16 as i64),
        )
    } else {
        (
            Box::new(|v| ((143165577i64 * (v as i32).abs() as i64 + (1u32 << 31) as i32 as i64) >> 32) as i32 as i64),
            Box::new(|v| ((286331153i64 * (v as i32).abs() as i64 + (1u32 << 31) as i32 as i64) >> 32) as i32 as i64),
        )
    };
    let (shift_sub, shift_sq, add_sq): ([u32; 3], [u32; 3], [i64; 3]) = if s0 {
        ([10, 10, 12], [29, 29, 30], [268435456, 268435456, 536870912])
    } else {
        ([0; 3], [30; 3], [536870912; 3])
    };
    let cub: [u32; 3] = if s0 {
        let hv = ((w as f64).log2() - 4.0).ceil() as u32;
        [hv, hv, ((w as f64).log2() - 3.0).ceil() as u32]
    } else {
        [c_log2_ceil(w); 3]
    };
    let inner = c_log2_ceil(h);
    let add_inner = 1i64 << (inner - 1);
    let left = (w as f64 * 0.1 - 0.5) as usize;
    let top = (h as f64 * 0.1 - 0.5) as usize;
    let (right, bottom) = (w - left, h - top);
    let mut acc = [0i64; 3];
    for i in top..bottom {
        let mut row = [0i64; 3];
        for j in left..right {
            let mut thr: i32 = 0;
            for mb in m {
                let mut sum: i32 = 0;
                for (ri, &r) in nbrs(i, h).iter().enumerate() {
                    for (ci, &c) in nbrs(j, w).iter().enumerate() {
                        let v = mb[r * w + c];
                        sum += if ri == 1 && ci == 1 { ctr(v) } else { flt(v) } as i32;
                    }
                }
                thr += sum;
            }
            for b in 0..3 {
                let v = x[b][i * w + j];
                let xv: i32 =
                    if s0 { (v * rf[b] as i64) as i32 } else { ((v * rf[b] as i64 + (1 << 27)) >> 28) as i32 };
                let mut e = xv.abs() - (thr << shift_sub[b]);
                e = e.max(0);
                let e2 = ((e as i64 * e as i64 + add_sq[b]) >> shift_sq[b]) as i32;
                // A zero shift has no rounding term: C's `(uint32_t)pow(2, 0u - 1)` converts infinity, which
                // yields 0 on x86-64.
                let add_cub = if cub[b] == 0 { 0 } else { 1i64 << (cub[b] - 1) };
                // (Wrapping: small planes have no cube shift, and libvmaf's int64 sum then overflows too.)
                row[b] = row[b].wrapping_add((e2 as i64 * e as i64 + add_cub) >> cub[b]);
            }
        }
        for b in 0..3 {
            acc[b] = acc[b].wrapping_add(row[b].wrapping_add(add_inner) >> inner);
        }
    }
    acc
}

fn check(scale: u8, w: usize, h: usize, seed: u64) {
    let mut rng = Rng(seed);
    let (rf, xlim, mlim) = if scale == 0 {
        ([36453u32, 36453, 49417], 32767, 32767)
    } else {
        ([178_000_000u32, 178_000_000, 95_000_000], 1 << 21, 1 << 21)
    };
    // Masker values mostly small so that the threshold leaves some values above it.
    let x: [Vec<i64>; 3] = std::array::from_fn(|_| (0..w * h).map(|_| rng.range(-xlim, xlim)).collect());
    let m: [Vec<i64>; 3] = std::array::from_fn(|_| {
        (0..w * h).map(|_| if rng.range(0, 4) == 0 { rng.range(-mlim, mlim) } else { rng.range(-64, 64) }).collect()
    });
    let planes: Vec<Value> = x
        .iter()
        .chain(m.iter())
        .map(|v| {
            if scale == 0 {
                plane_i16(w, h, v.iter().map(|&a| a as i16).collect())
            } else {
                plane_i32(w, h, v.iter().map(|&a| a as i32).collect())
            }
        })
        .collect();
    let op = AdmCm { scale, rfactor: rf };
    let want = c_cm(&x, &m, w, h, scale, rf);
    assert!(want.iter().all(|&s| s != 0), "the sample leaves values above the threshold");
    let (plain, simd) = plain_and_simd(&op, &planes);
    assert_eq!(plain[0].buf().as_i64().unwrap(), &want[..], "scale {scale} {w}x{h} (plain)");
    assert_eq!(simd[0].buf().as_i64().unwrap(), &want[..], "scale {scale} {w}x{h} (simd)");
}

#[test]
fn matches_libvmaf_inside_the_border() {
    // Sizes whose border keeps the edge rows and columns out of the sums.
    for (seed, scale) in (0..4u8).enumerate() {
        check(scale, 40, 31, seed as u64 + 100);
        check(scale, 121, 68, seed as u64 + 200);
    }
}

#[test]
fn matches_libvmaf_at_the_plane_edges() {
    // Below 15 samples the border is empty and libvmaf's edge macros apply (rows 1,0,1 at the top, h-2,
    // h-1,h-1 at the bottom, same for columns); 17x9 mixes an inner column range with edge rows.
    for (seed, scale) in (0..4u8).enumerate() {
        for (w, h) in [(3, 3), (5, 4), (11, 9), (17, 9), (9, 17)] {
            if scale == 0 && w < 9 {
                continue; // libvmaf's scale-0 cube shift `ceil(log2 w - 4)` is negative below 9 columns
            }
            check(scale, w, h, seed as u64 * 31 + w as u64);
        }
    }
}

#[test]
fn exponents() {
    // 960x540 at scale 0: cube shifts ceil(log2 960 - 4) = 6 (h, v), 7 (d); row shift ceil(log2 540) = 10.
    assert_eq!(AdmCm { scale: 0, rfactor: [0; 3] }.exponents(960, 540), [52 - 6 - 10, 52 - 6 - 10, 57 - 7 - 10]);
    // 480x270 at scale 1: cube shift 9, row shift 9.
    assert_eq!(AdmCm { scale: 1, rfactor: [0; 3] }.exponents(480, 270), [45 - 18; 3]);
    assert_eq!(AdmCm { scale: 3, rfactor: [0; 3] }.exponents(120, 68), [36 - 7 - 7; 3]);
}

#[test]
fn type_rule() {
    let t16 = ValueType::plane(Elem::I16, 8, 8);
    let t32 = ValueType::plane(Elem::I32, 8, 8);
    let op0 = AdmCm { scale: 0, rfactor: [1, 1, 1] };
    assert_eq!(op0.output_types(&[t16; 6]).unwrap(), vec![ValueType::sums(Elem::I64, 3)]);
    assert!(op0.output_types(&[t32; 6]).is_err());
    assert!(AdmCm { scale: 0, rfactor: [70000, 1, 1] }.output_types(&[t16; 6]).is_err());
    assert!(AdmCm { scale: 1, rfactor: [1, 1, 1] }.output_types(&[t16; 6]).is_err());
    assert!(op0.output_types(&[ValueType::plane(Elem::I16, 2, 8); 6]).is_err());
}
