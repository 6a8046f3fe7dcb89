//! Tests of `adm_csf` against libvmaf's `adm_csf` / `i4_adm_csf` arithmetic.

use vqgraph_graph::{Elem, Op, ValueType};

use super::AdmCsf;
use crate::adm_common::testing::{Rng, eval, plain_and_simd, plane_i16, plane_i32};

#[test]
fn scale0_rounds_like_libvmaf_int32() {
    // libvmaf's defaults for 3H at 1080p; note the diagonal rounding term 65535.
    let op = AdmCsf::scale0([36453, 36453, 49417]);
    let xs: Vec<i16> = vec![0, 1, -1, 7, -7, 1000, -1000, 32767, -32768, 12345];
    let planes = [plane_i16(10, 1, xs.clone()), plane_i16(10, 1, xs.clone()), plane_i16(10, 1, xs.clone())];
    let (plain, simd) = plain_and_simd(&op, &planes);
    for (b, (f, add, sh)) in
        [(36453i32, 16384i32, 15u32), (36453, 16384, 15), (49417, 65535, 17)].into_iter().enumerate()
    {
        let want: Vec<i16> = xs.iter().map(|&x| ((f * x as i32 + add) >> sh) as i16).collect();
        assert_eq!(plain[b].buf().as_i16().unwrap(), &want[..], "band {b}");
        assert_eq!(simd[b].buf().as_i16().unwrap(), &want[..], "band {b}");
    }
}

#[test]
fn scales_1_to_3_round_like_libvmaf_int64() {
    let mut rng = Rng(3);
    let rf = [178_000_000u32, 178_000_000, 95_000_000];
    let op = AdmCsf::scale123(rf);
    let (w, h) = (33, 7);
    let xs: Vec<Vec<i32>> =
        (0..3).map(|_| (0..w * h).map(|_| rng.range(-(1 << 22), 1 << 22) as i32).collect()).collect();
    let planes: Vec<_> = xs.iter().map(|x| plane_i32(w, h, x.clone())).collect();
    let (plain, simd) = plain_and_simd(&op, &planes);
    for b in 0..3 {
        let want: Vec<i32> = xs[b].iter().map(|&x| ((rf[b] as i64 * x as i64 + (1 << 27)) >> 28) as i32).collect();
        assert_eq!(plain[b].buf().as_i32().unwrap(), &want[..]);
        assert_eq!(simd[b].buf().as_i32().unwrap(), &want[..]);
    }
}

#[test]
fn large_factors_take_the_i64_path() {
    // A factor past u16 is not libvmaf's scale 0, but the op's semantics (i64) still hold.
    let op = AdmCsf { factor: [70000, 1, 1], round: [0, 0, 0], shift: [0, 0, 0] };
    let p = plane_i16(1, 1, vec![30000]);
    let out = eval(&op, &[p.clone(), p.clone(), p]);
    assert_eq!(out[0].buf().as_i16().unwrap()[0], (70000i64 * 30000) as i16);
}

#[test]
fn type_rule() {
    let t = ValueType::plane(Elem::I16, 5, 5);
    assert_eq!(AdmCsf::scale0([1, 1, 1]).output_types(&[t; 3]).unwrap(), vec![t; 3]);
    assert!(AdmCsf::scale0([1, 1, 1]).output_types(&[t, t, ValueType::plane(Elem::I16, 5, 4)]).is_err());
    assert!(AdmCsf::scale0([1, 1, 1]).output_types(&[ValueType::plane(Elem::U16, 5, 5); 3]).is_err());
}
