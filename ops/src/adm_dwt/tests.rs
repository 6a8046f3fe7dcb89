//! Tests of `adm_dwt` against a literal transcription of libvmaf's loops (index tables built as
//! `dwt2_src_indices_filt` builds them, C int32 / int64 arithmetic), plus properties of the wavelet.

use vqgraph_graph::{Elem, Op, ValueType};

use super::cpu::src_index;
use super::{AdmDwt, HI, LO, LO_SUM};
use crate::adm_common::testing::{Rng, eval, plain_and_simd, plane_i16, plane_i32, plane_u16};

/// libvmaf's `dwt2_src_indices_filt` for one dimension of `n` samples: `ind[k][i]`.
fn libvmaf_indices(n: usize) -> [Vec<usize>; 4] {
    let n = n as i64;
    let half = (n + 1) / 2;
    let mut ind: [Vec<usize>; 4] = Default::default();
    for v in ind.iter_mut() {
        v.resize(half as usize, 0);
    }
    let set = |ind: &mut [Vec<usize>; 4], i: i64, vals: [i64; 4]| {
        for k in 0..4 {
            ind[k][i as usize] = vals[k] as usize;
        }
    };
    set(&mut ind, 0, [1, 0, 1, 2]);
    for i in 1..half - 2 {
        set(&mut ind, i, [2 * i - 1, 2 * i, 2 * i + 1, 2 * i + 2]);
    }
    for i in half - 2..half {
        let m = |x: i64| if x >= n { 2 * n - x - 1 } else { x };
        set(&mut ind, i, [m(2 * i - 1), m(2 * i), m(2 * i + 1), m(2 * i + 2)]);
    }
    ind
}

#[test]
fn index_rule_matches_libvmaf_tables() {
    for n in 5..80 {
        let t = libvmaf_indices(n);
        for (k, tk) in t.iter().enumerate() {
            for (i, &want) in tk.iter().enumerate() {
                assert_eq!(src_index(k, i, n), want, "n={n} i={i} k={k}");
            }
        }
    }
}

/// libvmaf's `adm_dwt2_16` (scale 0) transcribed: int32 accumulators (wrapping, as the C compiles),
/// `int16_t` intermediate rows and outputs. Returns `[a, h, v, d]`.
fn naive_scale0(x: &[u16], w: usize, h: usize, bpc: u32) -> [Vec<i16>; 4] {
    let (iy, ix) = (libvmaf_indices(h), libvmaf_indices(w));
    let (ow, oh) = (w.div_ceil(2), h.div_ceil(2));
    let add_vp: i32 = 1 << (bpc - 1);
    let mut out: [Vec<i16>; 4] = Default::default();
    for b in out.iter_mut() {
        b.resize(ow * oh, 0);
    }
    for i in 0..oh {
        let mut tlo = vec![0i16; w];
        let mut thi = vec![0i16; w];
        for j in 0..w {
            let s: Vec<i32> = (0..4).map(|k| x[iy[k][i] * w + j] as i32).collect();
            let mut acc = 0i32;
            for k in 0..4 {
                acc = acc.wrapping_add(LO[k].wrapping_mul(s[k]));
            }
            acc = acc.wrapping_sub(LO_SUM.wrapping_mul(add_vp));
            tlo[j] = (acc.wrapping_add(add_vp) >> bpc) as i16;
            let mut acc = 0i32;
            for k in 0..4 {
                acc = acc.wrapping_add(HI[k].wrapping_mul(s[k]));
            }
            thi[j] = (acc.wrapping_add(add_vp) >> bpc) as i16;
        }
        for j in 0..ow {
            let f = |t: &[i16], taps: &[i32; 4]| -> i16 {
                let mut acc = 0i32;
                for k in 0..4 {
                    acc = acc.wrapping_add(taps[k].wrapping_mul(t[ix[k][j]] as i32));
                }
                (acc.wrapping_add(32768) >> 16) as i16
            };
            out[0][i * ow + j] = f(&tlo, &LO);
            out[2][i * ow + j] = f(&tlo, &HI);
            out[1][i * ow + j] = f(&thi, &LO);
            out[3][i * ow + j] = f(&thi, &HI);
        }
    }
    out
}

/// libvmaf's `adm_dwt2_s123_combined` transcribed for one image.
fn naive_scale123(x: &[i64], w: usize, h: usize, scale: usize) -> [Vec<i32>; 4] {
    let (iy, ix) = (libvmaf_indices(h), libvmaf_indices(w));
    let (ow, oh) = (w.div_ceil(2), h.div_ceil(2));
    let add_vp = [0i64, 32768, 32768][scale - 1];
    let add_hp = [16384i64, 32768, 16384][scale - 1];
    let sh_vp = [0u32, 16, 16][scale - 1];
    let sh_hp = [15u32, 16, 15][scale - 1];
    let mut out: [Vec<i32>; 4] = Default::default();
    for b in out.iter_mut() {
        b.resize(ow * oh, 0);
    }
    for i in 0..oh {
        let mut tlo = vec![0i32; w];
        let mut thi = vec![0i32; w];
        for j in 0..w {
            let s: Vec<i64> = (0..4).map(|k| x[iy[k][i] * w + j]).collect();
            let lo: i64 = (0..4).map(|k| LO[k] as i64 * s[k]).sum();
            let hi: i64 = (0..4).map(|k| HI[k] as i64 * s[k]).sum();
            tlo[j] = ((lo + add_vp) >> sh_vp) as i32;
            thi[j] = ((hi + add_vp) >> sh_vp) as i32;
        }
        for j in 0..ow {
            let f = |t: &[i32], taps: &[i32; 4]| -> i32 {
                let acc: i64 = (0..4).map(|k| taps[k] as i64 * t[ix[k][j]] as i64).sum();
                ((acc + add_hp) >> sh_hp) as i32
            };
            out[0][i * ow + j] = f(&tlo, &LO);
            out[2][i * ow + j] = f(&tlo, &HI);
            out[1][i * ow + j] = f(&thi, &LO);
            out[3][i * ow + j] = f(&thi, &HI);
        }
    }
    out
}

const SIZES: [(usize, usize); 6] = [(5, 5), (6, 7), (17, 9), (33, 20), (64, 48), (241, 37)];

#[test]
fn scale0_matches_libvmaf_transcription() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for bpc in [8u32, 10, 12, 16] {
        for &(w, h) in &SIZES {
            let x: Vec<u16> = (0..w * h).map(|_| rng.range(0, (1 << bpc) - 1) as u16).collect();
            let want = naive_scale0(&x, w, h, bpc);
            let op = AdmDwt::scale0(bpc);
            let (plain, simd) = plain_and_simd(&op, &[plane_u16(w, h, x)]);
            for b in 0..4 {
                assert_eq!(plain[b].buf().as_i16().unwrap(), &want[b][..], "bpc {bpc} {w}x{h} band {b} (plain)");
                assert_eq!(simd[b].buf().as_i16().unwrap(), &want[b][..], "bpc {bpc} {w}x{h} band {b} (simd)");
            }
        }
    }
}

#[test]
fn scales_1_to_3_match_libvmaf_transcription() {
    let mut rng = Rng(0x1234_5678);
    for scale in 1..=3u8 {
        for &(w, h) in &SIZES {
            // i32 input at the magnitudes libvmaf's `a` bands reach, and i16 input (the scale-0 `a` band).
            let x32: Vec<i32> = (0..w * h).map(|_| rng.range(-(1 << 17), 1 << 17) as i32).collect();
            let x16: Vec<i16> = (0..w * h).map(|_| rng.range(-32768, 32767) as i16).collect();
            let op = AdmDwt::scale(scale);
            let cases = [
                (x32.iter().map(|&v| v as i64).collect::<Vec<_>>(), plane_i32(w, h, x32.clone())),
                (x16.iter().map(|&v| v as i64).collect::<Vec<_>>(), plane_i16(w, h, x16.clone())),
            ];
            for (wide, input) in cases {
                let want = naive_scale123(&wide, w, h, scale as usize);
                let (plain, simd) = plain_and_simd(&op, &[input]);
                for b in 0..4 {
                    assert_eq!(plain[b].buf().as_i32().unwrap(), &want[b][..], "scale {scale} {w}x{h} band {b}");
                    assert_eq!(simd[b].buf().as_i32().unwrap(), &want[b][..], "scale {scale} {w}x{h} band {b}");
                }
            }
        }
    }
}

#[test]
fn flat_input_has_no_detail() {
    // High-pass taps sum to zero, so a flat plane has zero h, v, d bands; the low band of the recentred
    // value 200 - 128 is (72 * 46342 + 128) >> 8, then (46342 * that + 32768) >> 16.
    let (w, h) = (12, 10);
    let out = eval(&AdmDwt::scale0(8), &[plane_u16(w, h, vec![200; w * h])]);
    let v = ((72 * LO_SUM + 128) >> 8) as i64;
    let a = ((LO_SUM as i64 * v + 32768) >> 16) as i16;
    assert!(out[0].buf().as_i16().unwrap().iter().all(|&x| x == a));
    for (b, band) in out.iter().enumerate().skip(1) {
        assert!(band.buf().as_i16().unwrap().iter().all(|&x| x == 0), "band {b}");
    }
}

#[test]
fn type_rule() {
    let op = AdmDwt::scale0(8);
    let t = op.output_types(&[ValueType::plane(Elem::U16, 11, 7)]).unwrap();
    assert_eq!(t, vec![ValueType::plane(Elem::I16, 6, 4); 4]);
    assert!(op.output_types(&[ValueType::plane(Elem::U16, 4, 7)]).unwrap_err().contains("too small"));
    assert!(op.output_types(&[ValueType::plane(Elem::I32, 8, 8)]).is_err());
    let t = AdmDwt::scale(2).output_types(&[ValueType::plane(Elem::I16, 9, 9)]).unwrap();
    assert_eq!(t[0], ValueType::plane(Elem::I32, 5, 5));
}
