//! Tests of `adm_csf_den` against transcriptions of libvmaf's `adm_csf_den_scale` and `adm_csf_den_s123`.

use vqgraph_graph::{Elem, Op, ValueType};

use super::AdmCsfDen;
use crate::adm_common::Region;
use crate::adm_common::testing::{Rng, plain_and_simd, plane_i16, plane_i32};

fn c_ceil_log2(x: f64) -> f64 {
    x.log2().ceil()
}

/// libvmaf's scale-0 denominator sums.
fn c_den0(b: &[i16], w: usize, h: usize) -> u64 {
    let left = (w as f64 * 0.1 - 0.5) as usize;
    let top = (h as f64 * 0.1 - 0.5) as usize;
    let (right, bottom) = (w - left, h - top);
    let mut shift = c_ceil_log2(((bottom - top) * (right - left)) as f64) as i32 - 20;
    shift = shift.max(0);
    let add: u64 = if shift > 0 { 1 << (shift - 1) } else { 0 };
    let mut acc = 0u64;
    for i in top..bottom {
        let mut inner = 0u64;
        for j in left..right {
            let a = (b[i * w + j] as i32).unsigned_abs() as u16 as u64;
            inner += a * a * a;
        }
        acc += (inner + add) >> shift;
    }
    acc
}

/// libvmaf's scale 1-3 denominator sums.
fn c_den123(b: &[i32], w: usize, h: usize, scale: usize) -> u64 {
    let left = (w as f64 * 0.1 - 0.5) as usize;
    let top = (h as f64 * 0.1 - 0.5) as usize;
    let (right, bottom) = (w - left, h - top);
    let shift_sq = [31u32, 30, 31][scale - 1];
    let add_sq = 1u64 << shift_sq;
    let shift_cub = c_ceil_log2((right - left) as f64) as u32;
    let add_cub = 1u64 << (shift_cub - 1);
    let shift_acc = c_ceil_log2((bottom - top) as f64) as u32;
    let add_acc = 1u64 << (shift_acc - 1);
    let mut acc = 0u64;
    for i in top..bottom {
        let mut inner = 0u64;
        for j in left..right {
            let a = b[i * w + j].unsigned_abs() as u64;
            inner += ((((a * a) + add_sq) >> shift_sq) * a + add_cub) >> shift_cub;
        }
        acc += (inner + add_acc) >> shift_acc;
    }
    acc
}

#[test]
fn scale0_matches_libvmaf() {
    let mut rng = Rng(11);
    for (w, h) in [(9, 7), (40, 31), (1700, 1300)] {
        let bands: Vec<Vec<i16>> =
            (0..3).map(|_| (0..w * h).map(|_| rng.range(-32768, 32767) as i16).collect()).collect();
        let planes: Vec<_> = bands.iter().map(|b| plane_i16(w, h, b.clone())).collect();
        let (plain, simd) = plain_and_simd(&AdmCsfDen { scale: 0 }, &planes);
        let want: Vec<u64> = bands.iter().map(|b| c_den0(b, w, h)).collect();
        assert_eq!(plain[0].buf().as_u64().unwrap(), &want[..], "{w}x{h}");
        assert_eq!(simd[0].buf().as_u64().unwrap(), &want[..], "{w}x{h}");
    }
}

#[test]
fn scales_1_to_3_match_libvmaf() {
    let mut rng = Rng(12);
    for scale in 1..=3u8 {
        for (w, h) in [(5, 4), (31, 17), (121, 68)] {
            let bands: Vec<Vec<i32>> =
                (0..3).map(|_| (0..w * h).map(|_| rng.range(-(1 << 20), 1 << 20) as i32).collect()).collect();
            let planes: Vec<_> = bands.iter().map(|b| plane_i32(w, h, b.clone())).collect();
            let (plain, simd) = plain_and_simd(&AdmCsfDen { scale }, &planes);
            let want: Vec<u64> = bands.iter().map(|b| c_den123(b, w, h, scale as usize)).collect();
            assert_eq!(plain[0].buf().as_u64().unwrap(), &want[..], "scale {scale} {w}x{h}");
            assert_eq!(simd[0].buf().as_u64().unwrap(), &want[..], "scale {scale} {w}x{h}");
        }
    }
}

#[test]
fn exponents_of_a_1080p_frame() {
    // Bands 960x540, 480x270, 240x135, 120x68: regions 770x434 (no row shift), 386x218, 194x109, 98x56.
    assert_eq!(Region::of(960, 540), Region { left: 95, top: 53, right: 865, bottom: 487 });
    assert_eq!(AdmCsfDen { scale: 0 }.exponent(960, 540), 18);
    assert_eq!(AdmCsfDen { scale: 1 }.exponent(480, 270), 32 - 8 - 9);
    assert_eq!(AdmCsfDen { scale: 2 }.exponent(240, 135), 27 - 7 - 8);
    assert_eq!(AdmCsfDen { scale: 3 }.exponent(120, 68), 23 - 6 - 7);
}

#[test]
fn type_rule() {
    let t16 = ValueType::plane(Elem::I16, 8, 8);
    let t32 = ValueType::plane(Elem::I32, 8, 8);
    assert_eq!(AdmCsfDen { scale: 0 }.output_types(&[t16; 3]).unwrap(), vec![ValueType::sums(Elem::U64, 3)]);
    assert!(AdmCsfDen { scale: 0 }.output_types(&[t32; 3]).is_err());
    assert!(AdmCsfDen { scale: 2 }.output_types(&[t16; 3]).is_err());
}
