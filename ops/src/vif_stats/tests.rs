//! Checks the fast reference against a literal transcription of libvmaf's C loops (integer types and
//! casts as in `vif_statistic_8` / `vif_statistic_16`), on random, flat and extreme planes.

use vqgraph_graph::{Elem, HostBuf, Op, Plane, Value, ValueType};

use super::cpu::{Isa, stats_on};
use super::{VIF_FILTERS, VifStats, log2_table};

/// Small deterministic generator (xorshift64*), so the tests need no extra crate.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn mirror(i: isize, n: usize) -> usize {
    crate::util::mirror(i, n)
}

fn log2_32(t: &[u16; 65537], temp: u32) -> i32 {
    let k = 16 - temp.leading_zeros() as i32;
    t[(temp >> k) as usize] as i32 + 2048 * k
}

fn log2_64(t: &[u16; 65537], temp: u64) -> i32 {
    assert!(temp >= 0x20000);
    let k = 48 - temp.leading_zeros() as i32;
    t[(temp >> k) as usize] as i32 + 2048 * k
}

/// The statistic tail shared by both C functions, as written there.
#[allow(clippy::too_many_arguments)]
fn c_pixel(
    t: &[u16; 65537],
    gain: f64,
    mu1_val: u32,
    mu2_val: u32,
    xx_filt_val: u32,
    yy_filt_val: u32,
    xy_filt_val: u32,
    acc: &mut [i64; 4],
) {
    let sigma_nsq: i32 = 65536 << 1;
    let mu1_sq_val = (((mu1_val as u64) * (mu1_val as u64)).wrapping_add(2147483648) >> 32) as u32;
    let mu2_sq_val = (((mu2_val as u64) * (mu2_val as u64)).wrapping_add(2147483648) >> 32) as u32;
    let mu1_mu2_val = (((mu1_val as u64) * (mu2_val as u64)).wrapping_add(2147483648) >> 32) as u32;
    let sigma1_sq = xx_filt_val.wrapping_sub(mu1_sq_val) as i32;
    let mut sigma2_sq = yy_filt_val.wrapping_sub(mu2_sq_val) as i32;
    let sigma12 = xy_filt_val.wrapping_sub(mu1_mu2_val) as i32;
    sigma2_sq = sigma2_sq.max(0);
    if sigma1_sq >= sigma_nsq {
        acc[1] += (log2_32(t, sigma_nsq.wrapping_add(sigma1_sq) as u32) - 2048 * 17) as i64;
        if sigma12 > 0 && sigma2_sq > 0 {
            let eps = 65536.0 * 1.0e-10;
            let mut g: f64 = sigma12 as f64 / (sigma1_sq as f64 + eps);
            let mut sv_sq: i32 = (sigma2_sq as f64 - g * sigma12 as f64) as i32;
            sv_sq = sv_sq.max(0) as u32 as i32;
            g = if g < gain { g } else { gain };
            let numer1: u32 = sv_sq.wrapping_add(sigma_nsq) as u32;
            let numer1_tmp: i64 = ((g * g * sigma1_sq as f64) as i64) + numer1 as i64;
            acc[0] += (log2_64(t, numer1_tmp as u64) - log2_64(t, numer1 as u64)) as i64;
        }
    } else {
        acc[2] += sigma2_sq as i64;
        acc[3] += 1;
    }
}

/// `vif_statistic_16` (and, for `bpc == 8 && scale == 0`, `vif_statistic_8`) transcribed.
fn c_reference(r: &[u16], d: &[u16], w: usize, h: usize, scale: usize, bpc: u32, gain: f64) -> [i64; 4] {
    let t = table_from_libm();
    let filt: Vec<u32> = VIF_FILTERS[scale].iter().map(|&c| c as u32).collect();
    let fw = filt.len();
    let half = fw / 2;
    let eight = bpc == 8 && scale == 0;
    let (shift_vp, round_vp, shift_vp_sq, round_vp_sq) = if scale == 0 {
        let s = (bpc - 8) * 2;
        (bpc, 1u32 << (bpc - 1), s, if bpc == 8 { 0u64 } else { 1u64 << (s - 1) })
    } else {
        (16, 32768, 16, 32768)
    };
    let mut acc = [0i64; 4];
    let (mut tmu1, mut tmu2) = (vec![0u32; w + 2 * half], vec![0u32; w + 2 * half]);
    let (mut tref, mut tdis, mut trd) = (vec![0u32; w + 2 * half], vec![0u32; w + 2 * half], vec![0u32; w + 2 * half]);
    for i in 0..h {
        for j in 0..w {
            let (mut a_mu1, mut a_mu2) = (0u32, 0u32);
            let (mut a_ref32, mut a_dis32, mut a_rd32) = (0u32, 0u32, 0u32);
            let (mut a_ref, mut a_dis, mut a_rd) = (0u64, 0u64, 0u64);
            for (fi, &fc) in filt.iter().enumerate() {
                let ii = mirror(i as isize - half as isize + fi as isize, h);
                let x = r[ii * w + j] as u32;
                let y = d[ii * w + j] as u32;
                let cr = fc.wrapping_mul(x);
                let cd = fc.wrapping_mul(y);
                a_mu1 = a_mu1.wrapping_add(cr);
                a_mu2 = a_mu2.wrapping_add(cd);
                if eight {
                    a_ref32 = a_ref32.wrapping_add(cr.wrapping_mul(x));
                    a_dis32 = a_dis32.wrapping_add(cd.wrapping_mul(y));
                    a_rd32 = a_rd32.wrapping_add(cr.wrapping_mul(y));
                } else {
                    a_ref = a_ref.wrapping_add(cr as u64 * x as u64);
                    a_dis = a_dis.wrapping_add(cd as u64 * y as u64);
                    a_rd = a_rd.wrapping_add(cr as u64 * y as u64);
                }
            }
            let o = j + half;
            if eight {
                tmu1[o] = a_mu1.wrapping_add(128) >> 8;
                tmu2[o] = a_mu2.wrapping_add(128) >> 8;
                tref[o] = a_ref32;
                tdis[o] = a_dis32;
                trd[o] = a_rd32;
            } else {
                tmu1[o] = (a_mu1.wrapping_add(round_vp) >> shift_vp) as u16 as u32;
                tmu2[o] = (a_mu2.wrapping_add(round_vp) >> shift_vp) as u16 as u32;
                tref[o] = (a_ref.wrapping_add(round_vp_sq) >> shift_vp_sq) as u32;
                tdis[o] = (a_dis.wrapping_add(round_vp_sq) >> shift_vp_sq) as u32;
                trd[o] = (a_rd.wrapping_add(round_vp_sq) >> shift_vp_sq) as u32;
            }
        }
        for f in 1..=half {
            for b in [&mut tmu1, &mut tmu2, &mut tref, &mut tdis, &mut trd] {
                b[half - f] = b[half + f];
                b[half + w - 1 + f] = b[half + w - 1 - f];
            }
        }
        for j in 0..w {
            let (mut a_mu1, mut a_mu2) = (0u32, 0u32);
            let (mut a_ref, mut a_dis, mut a_rd) = (0u64, 0u64, 0u64);
            for (fj, &fc) in filt.iter().enumerate() {
                let s = j + fj;
                a_mu1 = a_mu1.wrapping_add(fc.wrapping_mul(tmu1[s]));
                a_mu2 = a_mu2.wrapping_add(fc.wrapping_mul(tmu2[s]));
                a_ref = a_ref.wrapping_add(fc as u64 * tref[s] as u64);
                a_dis = a_dis.wrapping_add(fc as u64 * tdis[s] as u64);
                a_rd = a_rd.wrapping_add(fc as u64 * trd[s] as u64);
            }
            let xx = (a_ref.wrapping_add(32768) >> 16) as u32;
            let yy = (a_dis.wrapping_add(32768) >> 16) as u32;
            let xy = (a_rd.wrapping_add(32768) >> 16) as u32;
            c_pixel(&t, gain, a_mu1, a_mu2, xx, yy, xy, &mut acc);
        }
    }
    acc
}

/// The table as libvmaf builds it, with this platform's `log2f`.
fn table_from_libm() -> Box<[u16; 65537]> {
    let mut t = Box::new([0u16; 65537]);
    for (i, e) in t.iter_mut().enumerate().take(65536).skip(32767) {
        *e = (((i as f32).log2() * 2048.0) as f64).round() as u16;
    }
    t
}

fn run_op(op: &VifStats, w: usize, h: usize, r: Vec<u16>, d: Vec<u16>) -> [i64; 4] {
    let rv = Value::Plane(Plane { width: w, height: h, data: HostBuf::U16(r) });
    let dv = Value::Plane(Plane { width: w, height: h, data: HostBuf::U16(d) });
    let ty = op.output_types(&[rv.value_type(), dv.value_type()]).unwrap();
    assert_eq!(ty, vec![ValueType::sums(Elem::I64, 4)]);
    let mut out = vec![ty[0].zeroed()];
    op.eval_cpu(&[&rv, &dv], &mut out, &mut None).unwrap();
    out[0].buf().as_i64().unwrap().try_into().unwrap()
}

/// A random textured image plus a distorted copy (noise and a contrast gain below or above 1, so the gain
/// limit matters), in `bits`.
fn pair(rng: &mut Rng, w: usize, h: usize, bits: u32) -> (Vec<u16>, Vec<u16>) {
    let max = (1u64 << bits) - 1;
    let mut r = vec![0u16; w * h];
    let mut d = vec![0u16; w * h];
    let (fx, fy) = (1 + rng.below(7), 1 + rng.below(7));
    let gain = [7i64, 10][rng.below(2) as usize];
    for i in 0..h {
        for j in 0..w {
            // The left third is nearly flat, so the low-variance (non-log) branch is taken too.
            let base = if j < w / 3 {
                max / 3 + rng.below(max / 256 + 2)
            } else {
                (((i as u64 * fy + j as u64 * fx) % 64) * max / 64 + rng.below(max / 8 + 1)).min(max)
            };
            r[i * w + j] = base as u16;
            let noise = rng.below(max / 16 + 1) as i64 - (max / 32) as i64;
            let mid = (max / 2) as i64;
            d[i * w + j] = ((mid + (base as i64 - mid) * gain / 8 + noise).clamp(0, max as i64)) as u16;
        }
    }
    (r, d)
}

#[test]
fn table_matches_libm_log2f() {
    // The op's table is platform-independent; on this libm it must equal what libvmaf computes.
    assert_eq!(&log2_table()[..], &table_from_libm()[..]);
    assert_eq!(log2_table()[32768], 15 * 2048);
    assert_eq!(log2_table()[65535], 32768);
}

#[test]
fn matches_the_c_loops_on_random_planes() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    // Every branch of the statistic must have been taken somewhere, and the gain limit must have bitten.
    let (mut nonzero, mut limit_bit) = ([false; 4], false);
    for &(w, h) in &[(37, 23), (64, 40), (9, 9), (18, 11), (41, 17), (555, 12)] {
        for (scale, taps) in VIF_FILTERS.iter().enumerate() {
            for &bpc in &[8u32, 10, 12, 16] {
                if scale > 0 && bpc != 8 {
                    continue; // scales 1..3 do not depend on bpc
                }
                let bits = if scale == 0 { bpc } else { 16 };
                for &gain in &[100.0, 1.0] {
                    if w <= taps.len() / 2 || h <= taps.len() / 2 {
                        continue;
                    }
                    let (r, d) = pair(&mut rng, w, h, bits);
                    let want = c_reference(&r, &d, w, h, scale, bpc, gain);
                    limit_bit |= gain == 1.0 && want != c_reference(&r, &d, w, h, scale, bpc, 100.0);
                    for isa in Isa::available() {
                        let got = stats_on(isa, &r, &d, w, h, scale, bpc, gain);
                        assert_eq!(got, want, "{w}x{h} scale {scale} bpc {bpc} gain {gain} {isa:?}");
                    }
                    let got = run_op(&VifStats::new(scale, bpc, gain), w, h, r, d);
                    assert_eq!(got, want, "{w}x{h} scale {scale} bpc {bpc} gain {gain}");
                    for (n, &g) in nonzero.iter_mut().zip(&got) {
                        *n |= g != 0;
                    }
                }
            }
        }
    }
    assert_eq!(nonzero, [true; 4], "sums never nonzero");
    assert!(limit_bit);
}

#[test]
fn matches_the_c_loops_on_extreme_planes() {
    let mut rng = Rng(42);
    let (w, h) = (33, 21);
    for scale in 0..4 {
        for &bpc in &[8u32, 10, 16] {
            let bits = if scale == 0 { bpc } else { 16 };
            let max = ((1u32 << bits) - 1) as u16;
            let flat = vec![max / 2; w * h];
            let checker: Vec<u16> = (0..w * h).map(|k| if (k / w + k % w) % 2 == 0 { max } else { 0 }).collect();
            let noise: Vec<u16> = (0..w * h).map(|_| rng.below(max as u64 + 1) as u16).collect();
            let zeros = vec![0u16; w * h];
            let full = vec![max; w * h];
            let planes = [&flat, &checker, &noise, &zeros, &full];
            for a in planes {
                for b in planes {
                    let want = c_reference(a, b, w, h, scale, bpc, 100.0);
                    for isa in Isa::available() {
                        assert_eq!(
                            stats_on(isa, a, b, w, h, scale, bpc, 100.0),
                            want,
                            "scale {scale} bpc {bpc} {isa:?}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn every_variant_agrees_on_every_sample_range() {
    // The AVX-512 kernel picks its vertical pass per band of rows by the largest sample the band reads
    // (below 2^8 at 8 bits per sample, below 2^15, or any): each range at each scale, and a plane whose
    // bands differ. At scale 0, samples above `bpc` bits are not valid input, but the op is defined for
    // them (the C 16-bit path's wrap-around): there, every variant must agree with the baseline one.
    let mut rng = Rng(0x5eed);
    let (w, h) = (70, 53);
    for scale in 0..4 {
        for &(bpc, bits) in &[(8u32, 8u32), (8, 12), (8, 15), (8, 16), (10, 10), (10, 15), (10, 16)] {
            if scale > 0 && bpc != 8 {
                continue;
            }
            let (mut r, mut d) = pair(&mut rng, w, h, bits);
            let mixed = bits == 8 && scale == 0;
            if mixed {
                // Rows of larger samples: the bands that read row 30 take the 15-bit pass, those that read
                // row 50 the 16-bit one, the first band stays on the 8-bit one.
                for j in 0..w {
                    r[30 * w + j] = rng.below(1 << 15) as u16 | 0x100;
                    d[50 * w + j] = rng.below(1 << 16) as u16 | 0x8000;
                }
            }
            let base = stats_on(Isa::Generic, &r, &d, w, h, scale, bpc, 100.0);
            if scale > 0 || (bits <= bpc && !mixed) {
                assert_eq!(base, c_reference(&r, &d, w, h, scale, bpc, 100.0), "scale {scale} bpc {bpc} bits {bits}");
            }
            for isa in Isa::available() {
                let got = stats_on(isa, &r, &d, w, h, scale, bpc, 100.0);
                assert_eq!(got, base, "scale {scale} bpc {bpc} bits {bits} {isa:?}");
            }
        }
    }
}

#[test]
fn identical_planes_have_unit_ratio_terms() {
    // ref == dis: g is just below 1 and sv_sq is 0, so each log term is at most its denominator term.
    let mut rng = Rng(7);
    let (r, _) = pair(&mut rng, 40, 30, 8);
    let got = run_op(&VifStats::new(0, 8, 100.0), 40, 30, r.clone(), r.clone());
    assert_eq!(got, c_reference(&r, &r, 40, 30, 0, 8, 100.0));
    assert!(got[0] > 0 && got[0] <= got[1], "{got:?}");
}

#[test]
fn type_rule_checks_sizes_and_params() {
    let p = |w, h| ValueType::plane(Elem::U16, w, h);
    let op = VifStats::new(0, 8, 100.0);
    assert!(op.output_types(&[p(9, 9), p(9, 9)]).is_ok());
    assert!(op.output_types(&[p(8, 9), p(8, 9)]).unwrap_err().contains("too small"));
    assert!(op.output_types(&[p(9, 9), p(10, 9)]).unwrap_err().contains("dis is"));
    assert!(VifStats::new(3, 8, 100.0).output_types(&[p(2, 2), p(2, 2)]).is_ok());
    assert!(VifStats::new(4, 8, 100.0).output_types(&[p(20, 20), p(20, 20)]).is_err());
    assert!(VifStats::new(0, 7, 100.0).output_types(&[p(20, 20), p(20, 20)]).is_err());
    assert!(VifStats::new(0, 8, 0.5).output_types(&[p(20, 20), p(20, 20)]).is_err());
    assert!(VifStats::new(0, 8, 100.5).output_types(&[p(20, 20), p(20, 20)]).is_err());
    assert!(VifStats::new(0, 8, f64::NAN).output_types(&[p(20, 20), p(20, 20)]).is_err());
    let i16p = ValueType::plane(Elem::I16, 20, 20);
    assert!(op.output_types(&[i16p, i16p]).is_err());
}

/// Luma of the first frame of an 8-bit 4:2:0 y4m file (for the timing test; no y4m reader in this crate).
fn y4m_luma_8bit(path: &std::path::Path, w: usize, h: usize) -> Option<Vec<u16>> {
    let data = std::fs::read(path).ok()?;
    let header = data.iter().position(|&b| b == b'\n')?;
    let frame = header + 1 + data[header + 1..].iter().position(|&b| b == b'\n')? + 1;
    Some(data.get(frame..frame + w * h)?.iter().map(|&b| b as u16).collect())
}

/// Width, height and the (ref, dis) planes of one scale.
type ScalePlanes = (usize, usize, (Vec<u16>, Vec<u16>));

/// The four scales' planes of a 1080p frame: corpus pair s11 when `../shared` is there, else synthetic;
/// scales 1..3 are 2x-decimated copies (the statistic's cost does not depend on how they were filtered).
fn planes_1080p() -> (Vec<ScalePlanes>, &'static str) {
    let (w, h) = (1920, 1080);
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let real = y4m_luma_8bit(&corpus.join("yellowflower_1920x1080_420p8_8f.y4m"), w, h).zip(y4m_luma_8bit(
        &corpus.join("yellowflower_1920x1080_420p8_8f__x264crf38.y4m"),
        w,
        h,
    ));
    let (base, what) = match real {
        Some(p) => (p, "s11 frame 0"),
        None => (pair(&mut Rng(3), w, h, 8), "synthetic"),
    };
    let mut planes = vec![(w, h, base)];
    for s in 1..4 {
        let (pw, ph, (r, d)) = &planes[s - 1];
        let (nw, nh) = (pw / 2, ph / 2);
        let down = |x: &Vec<u16>| -> Vec<u16> {
            (0..nw * nh).map(|k| x[(k / nw) * 2 * pw + (k % nw) * 2] << 8).collect::<Vec<u16>>()
        };
        let next = (nw, nh, (down(r), down(d)));
        planes.push(next);
    }
    (planes, what)
}

/// Timing of the four scales of a 1080p frame on one thread, on every instruction set the machine has
/// (run with `--release -- --ignored --nocapture`).
#[test]
#[ignore]
fn time_1080p_single_thread() {
    let (planes, what) = planes_1080p();
    eprintln!("1080p planes: {what}");
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    pool.install(|| {
        for isa in Isa::available() {
            for _ in 0..3 {
                let t = std::time::Instant::now();
                for (s, (w, h, (r, d))) in planes.iter().enumerate() {
                    let t0 = std::time::Instant::now();
                    std::hint::black_box(stats_on(isa, r, d, *w, *h, s, 8, 100.0));
                    eprint!("scale{s} {:.2} ms  ", t0.elapsed().as_secs_f64() * 1e3);
                }
                eprintln!("total {:.2} ms ({isa:?})", t.elapsed().as_secs_f64() * 1e3);
            }
            // Scale 0 of 10-bit input (the same planes, times 4).
            let (w, h, (r, d)) = &planes[0];
            let (r, d): (Vec<u16>, Vec<u16>) =
                (r.iter().map(|&v| v << 2).collect(), d.iter().map(|&v| v << 2).collect());
            let t0 = std::time::Instant::now();
            std::hint::black_box(stats_on(isa, &r, &d, *w, *h, 0, 10, 100.0));
            eprintln!("10-bit scale0 {:.2} ms ({isa:?})", t0.elapsed().as_secs_f64() * 1e3);
        }
    });
}
