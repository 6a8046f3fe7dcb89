//! Tests of `adm_decouple` against literal transcriptions of libvmaf's `adm_decouple` (int16 bands) and
//! `adm_decouple_s123` (int32 bands), float steps included.

use vqgraph_graph::{Elem, HostBuf, Op, Value, ValueType};

use super::AdmDecouple;
use super::cpu::{cos_1deg_sq, gain_q15};
use crate::adm_common::testing::{Rng, eval, plain_and_simd, plane_i16, plane_i32};

fn div_lookup(i: i64) -> i64 {
    // div_lookup[32768 + i] for i in -32768..=32768
    if i == 0 {
        0
    } else {
        let r = ((1i64 << 30) / i.abs()) as i32 as i64;
        if i < 0 { -r } else { r }
    }
}

/// libvmaf's angle test, spelled as its C expression evaluates.
fn c_angle(oh: i64, ov: i64, th: i64, tv: i64) -> bool {
    let cos = cos_1deg_sq();
    let ot_dp = oh * th + ov * tv;
    let o_mag_sq = oh * oh + ov * ov;
    let t_mag_sq = th * th + tv * tv;
    let x = (ot_dp as f32) as f64 / 4096.0;
    x >= 0.0 && x * x >= cos as f64 * ((o_mag_sq as f32) as f64 / 4096.0) * ((t_mag_sq as f32) as f64 / 4096.0)
}

/// One band of libvmaf's scale-0 `adm_decouple` (int16 variables).
fn c_band16(o: i16, t: i16, angle: bool, egl: f64) -> (i16, i16) {
    let tmp_k: i32 = if o == 0 { 32768 } else { ((div_lookup(o as i64) * t as i64 + 16384) >> 15) as i32 };
    let k = tmp_k.clamp(0, 32768);
    let mut rst: i16 = ((k * o as i32 + 16384) >> 15) as i16;
    let rst_f = (k as f32 / 32768.0) * (o as f32 / 64.0);
    if angle && rst_f > 0.0 {
        let x = rst as f64 * egl;
        rst = (if x < t as f64 { x } else { t as f64 }) as i16;
    }
    if angle && rst_f < 0.0 {
        let x = rst as f64 * egl;
        rst = (if x > t as f64 { x } else { t as f64 }) as i16;
    }
    (rst, (t as i32 - rst as i32) as i16)
}

/// One band of libvmaf's `adm_decouple_s123` (int32 variables, divisor rounded to 15 bits).
fn c_band32(o: i32, t: i32, angle: bool, egl: f64) -> (i32, i32) {
    let abs = o.unsigned_abs();
    let sign: i64 = if o < 0 { -1 } else { 1 };
    let (msb, shift) = if abs < 32768 {
        (abs, 0)
    } else {
        let k = 17 - abs.leading_zeros();
        ((abs + (1 << (k - 1))) >> k, k)
    };
    let tmp_k: i64 = if o == 0 {
        32768
    } else {
        ((div_lookup(msb as i64) * t as i64) * sign + (1i64 << (14 + shift))) >> (15 + shift)
    };
    let k = tmp_k.clamp(0, 32768);
    let mut rst: i32 = ((k * o as i64 + 16384) >> 15) as i32;
    let rst_f = (k as f32 / 32768.0) * (o as f32 / 64.0);
    if angle && rst_f > 0.0 {
        let x = rst as f64 * egl;
        rst = (if x < t as f64 { x } else { t as f64 }) as i32;
    }
    if angle && rst_f < 0.0 {
        let x = rst as f64 * egl;
        rst = (if x > t as f64 { x } else { t as f64 }) as i32;
    }
    (rst, t.wrapping_sub(rst))
}

/// Reference bands and distorted bands that are often nearly parallel (so the angle test and the gain
/// limit are exercised), with zeros and extremes mixed in.
fn sample(rng: &mut Rng, n: usize, lim: i64) -> [Vec<i64>; 6] {
    let mut p: [Vec<i64>; 6] = Default::default();
    for _ in 0..n {
        let kind = rng.range(0, 9);
        let o: [i64; 3] = std::array::from_fn(|_| match kind {
            0 => 0,
            1 => [lim, -lim - 1, 1, -1][rng.range(0, 3) as usize],
            _ => rng.range(-lim / 8, lim / 8),
        });
        let gain = [0.0, 0.5, 0.99, 1.0, 1.01, 1.5, -1.0][rng.range(0, 6) as usize];
        let t: [i64; 3] =
            std::array::from_fn(|b| ((o[b] as f64 * gain) as i64 + rng.range(-3, 3)).clamp(-lim - 1, lim));
        for b in 0..3 {
            p[b].push(o[b]);
            p[3 + b].push(t[b]);
        }
    }
    p
}

fn check(elem: Elem, egl: f64, seed: u64) {
    let (w, h) = (37, 23);
    let lim = if elem == Elem::I16 { 32767 } else { 1 << 22 };
    let p = sample(&mut Rng(seed), w * h, lim);
    let inputs: Vec<Value> = p
        .iter()
        .map(|v| match elem {
            Elem::I16 => plane_i16(w, h, v.iter().map(|&x| x as i16).collect()),
            _ => plane_i32(w, h, v.iter().map(|&x| x as i32).collect()),
        })
        .collect();
    let op = AdmDecouple { gain_limit: egl };
    let (plain, simd) = plain_and_simd(&op, &inputs);
    let angles = (0..w * h).filter(|&j| c_angle(p[0][j], p[1][j], p[3][j], p[4][j])).count();
    assert!(angles > w * h / 10 && angles < w * h * 9 / 10, "the sample exercises both sides of the angle test");
    for j in 0..w * h {
        let angle = c_angle(p[0][j], p[1][j], p[3][j], p[4][j]);
        for b in 0..3 {
            let (o, t) = (p[b][j], p[3 + b][j]);
            let (r, a) = match elem {
                Elem::I16 => {
                    let (r, a) = c_band16(o as i16, t as i16, angle, egl);
                    (r as i64, a as i64)
                }
                _ => {
                    let (r, a) = c_band32(o as i32, t as i32, angle, egl);
                    (r as i64, a as i64)
                }
            };
            for out in [&plain, &simd] {
                let get = |v: &Value| match v.buf() {
                    HostBuf::I16(x) => x[j] as i64,
                    HostBuf::I32(x) => x[j] as i64,
                    _ => unreachable!(),
                };
                assert_eq!(
                    (get(&out[b]), get(&out[3 + b])),
                    (r, a),
                    "{elem} egl {egl} pixel {j} band {b}: o {o} t {t}"
                );
            }
        }
    }
}

#[test]
fn i16_bands_match_libvmaf_scale0() {
    for (egl, seed) in [(100.0, 1), (1.0, 2), (1.5, 3)] {
        check(Elem::I16, egl, seed);
    }
}

#[test]
fn i32_bands_match_libvmaf_scales_1_to_3() {
    for (egl, seed) in [(100.0, 4), (1.0, 5), (2.25, 6)] {
        check(Elem::I32, egl, seed);
    }
}

#[test]
fn scale0_division_equals_the_rounded_divisor_form() {
    // The op uses libvmaf's scale 1-3 division for every band; for int16 divisors it must equal the
    // scale-0 table lookup `(DIV[o + 32768] * t + 16384) >> 15`.
    let mut rng = Rng(77);
    for o in -32768i64..=32767 {
        let t = rng.range(-32768, 32767);
        let scale0 = if o == 0 { 32768 } else { ((div_lookup(o) * t + 16384) >> 15).clamp(0, 32768) };
        assert_eq!(gain_q15(o, t), scale0, "o {o} t {t}");
    }
}

#[test]
fn identical_bands_have_no_artifact() {
    let (w, h) = (16, 8);
    let mut rng = Rng(5);
    let band: Vec<i16> = (0..w * h).map(|_| rng.range(-3000, 3000) as i16).collect();
    let planes: Vec<Value> =
        (0..6).map(|k| plane_i16(w, h, if k == 2 || k == 5 { vec![0; w * h] } else { band.clone() })).collect();
    let out = eval(&AdmDecouple { gain_limit: 100.0 }, &planes);
    for b in 0..3 {
        assert_eq!(out[b].buf(), planes[3 + b].buf(), "restored = distorted");
        assert!(out[3 + b].buf().as_i16().unwrap().iter().all(|&x| x == 0), "artifact = 0");
    }
}

#[test]
fn type_rule() {
    let op = AdmDecouple { gain_limit: 1.0 };
    let t = ValueType::plane(Elem::I32, 9, 4);
    assert_eq!(op.output_types(&[t; 6]).unwrap(), vec![t; 6]);
    let mut mixed = [t; 6];
    mixed[4] = ValueType::plane(Elem::I16, 9, 4);
    assert!(op.output_types(&mixed).is_err());
    assert!(AdmDecouple { gain_limit: 0.5 }.output_types(&[t; 6]).is_err());
}

#[test]
#[ignore]
fn bench_decouple_i16() {
    let (w, h) = (960, 540);
    let mut rng = Rng(0x1234_5678_9abc_def0);
    let planes: Vec<Value> =
        (0..6).map(|_| plane_i16(w, h, (0..w * h).map(|_| rng.range(-1000, 1000) as i16).collect())).collect();
    let ins: Vec<&Value> = planes.iter().collect();
    let op = AdmDecouple { gain_limit: 100.0 };
    let mut outs: Vec<Value> = vec![ValueType::plane(Elem::I16, w, h).zeroed(); 6];
    let mut best = f64::MAX;
    for _ in 0..20 {
        let t = std::time::Instant::now();
        op.eval_cpu(&ins, &mut outs, &mut None).unwrap();
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
    }
    println!("decouple 960x540 i16: {best:.2} ms");
}
