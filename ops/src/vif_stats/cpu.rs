//! CPU reference of `vif_stats`: row bands in parallel, each band's four i64 sums added at the end.
//!
//! This is the CPU backend's hot path, so it is written for the compiler's vectoriser:
//! - The filters run in f64 lanes. That is still exact integer arithmetic: every product and partial sum
//!   is an integer below 2^48 (taps < 2^16 summing to 2^16, squared samples < 2^32), inside f64's 53-bit
//!   mantissa, so nothing is ever rounded and FMA or not cannot matter. The rounding shifts are
//!   `floor((acc + round) * 2^-shift)`, also exact. 8-bit samples at scale 0 filter vertically in u32 lanes
//!   (libvmaf's own 8-bit sums, which fit).
//! - The per-pixel statistic keeps libvmaf's operations and order (64-bit products, the f64 gain), with
//!   its branches turned into selects so that whole blocks of pixels vectorise; the log2 table lookups
//!   follow in a second loop.
//! - The kernel is compiled for AVX-512 and AVX2 as well as the baseline and picked at run time; on
//!   AVX-512 machines, scales 0..=2 run the hand-written kernel of `avx512.rs` instead (16- and 32-bit
//!   lanes, about twice as fast). The tests check every variant the machine runs against a transcription
//!   of the C loops.

use rayon::prelude::*;
use vqgraph_graph::Value;

use super::{DEN_LOG, DEN_NON_LOG, NUM_LOG, NUM_NON_LOG, VIF_FILTERS, VifStats, log2_table};
use crate::util::{mirror, plane};

/// Rows per parallel task: small enough to spread a 1080p plane over many cores, large enough that the
/// per-task scratch allocation does not show.
const BAND_ROWS: usize = 16;
/// Columns of the vertical pass per step of the horizontal one (a multiple of every block width).
const TILE: usize = 256;
/// libvmaf's `sigma_nsq` (noise variance 2 in 16-bit fixed point).
const SIGMA_NSQ: i32 = 65536 << 1;

pub fn eval(op: &VifStats, r: &Value, d: &Value, out: &mut Value) -> Result<(), String> {
    let (rp, dp) = (plane(r)?, plane(d)?);
    let rs = rp.data.as_u16().ok_or("vif_stats: ref must be u16")?;
    let ds = dp.data.as_u16().ok_or("vif_stats: dis must be u16")?;
    let sums = stats(rs, ds, rp.width, rp.height, op.scale, op.bpc, op.gain_limit);
    out.buf_mut().as_i64_mut().ok_or("vif_stats: output must be i64")?.copy_from_slice(&sums);
    Ok(())
}

/// Everything a band needs besides the planes.
pub(super) struct Params {
    taps: [f64; 17],
    pub(super) taps_u32: [u32; 17],
    /// 8-bit samples at scale 0: every vertical sum fits in u32 (sum of taps 2^16 times 255^2 < 2^32),
    /// so that pass runs in u32 lanes, twice as many per vector as f64.
    pub(super) narrow: bool,
    pub(super) nt: usize,
    /// Vertical rounding of the means and of the second moments: `floor((acc + round) * scale)`, i.e.
    /// `(acc + round) >> shift`.
    pub(super) mu_round: f64,
    mu_scale: f64,
    pub(super) mu_shift: u32,
    pub(super) sq_round: f64,
    sq_scale: f64,
    pub(super) sq_shift: u32,
    pub(super) gain_limit: f64,
    pub(super) log2: &'static [u16; 65537],
}

impl Params {
    fn new(scale: usize, bpc: u32, gain_limit: f64) -> Self {
        let f = VIF_FILTERS[scale];
        let (mut taps, mut taps_u32) = ([0.0; 17], [0; 17]);
        for ((t, u), &c) in taps.iter_mut().zip(&mut taps_u32).zip(f) {
            *t = c as f64;
            *u = c as u32;
        }
        let (mu_shift, sq_shift) = if scale == 0 { (bpc, 2 * (bpc - 8)) } else { (16, 16) };
        let round = |s: u32| if s == 0 { 0.0 } else { (1u64 << (s - 1)) as f64 };
        let inv = |s: u32| 1.0 / (1u64 << s) as f64;
        Params {
            taps,
            taps_u32,
            narrow: scale == 0 && bpc == 8,
            nt: f.len(),
            mu_round: round(mu_shift),
            mu_scale: inv(mu_shift),
            mu_shift,
            sq_round: round(sq_shift),
            sq_scale: inv(sq_shift),
            sq_shift,
            gain_limit,
            log2: log2_table(),
        }
    }
}

/// The four sums of one scale over a `w` x `h` pair of planes.
pub fn stats(r: &[u16], d: &[u16], w: usize, h: usize, scale: usize, bpc: u32, gain_limit: f64) -> [i64; 4] {
    stats_on(Isa::detect(), r, d, w, h, scale, bpc, gain_limit)
}

/// The instruction sets the kernel is compiled for; all compute the same exact integers. `Avx512` runs
/// `avx512.rs` for the scales it handles and this file's kernel, compiled for AVX-512, for the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Isa {
    Generic,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl Isa {
    /// The widest one this machine runs.
    pub(super) fn detect() -> Isa {
        Isa::available().last().copied().unwrap_or(Isa::Generic)
    }

    /// Every one this machine runs, narrowest first.
    pub(super) fn available() -> Vec<Isa> {
        #[allow(unused_mut)]
        let mut v = vec![Isa::Generic];
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            if has!("avx2") && has!("fma") && has!("lzcnt") {
                v.push(Isa::Avx2);
                if has!("avx512f") && has!("avx512bw") && has!("avx512dq") && has!("avx512cd") && has!("avx512vl") {
                    v.push(Isa::Avx512);
                }
            }
        }
        v
    }
}

/// [`stats`] on a given instruction set (tests compare them all).
#[allow(clippy::too_many_arguments)]
pub(super) fn stats_on(
    isa: Isa,
    r: &[u16],
    d: &[u16],
    w: usize,
    h: usize,
    scale: usize,
    bpc: u32,
    gain_limit: f64,
) -> [i64; 4] {
    assert!(r.len() == w * h && d.len() == w * h, "vif_stats: plane sizes");
    let p = Params::new(scale, bpc, gain_limit);
    let band = |b: usize| {
        let (y0, y1) = (b * BAND_ROWS, ((b + 1) * BAND_ROWS).min(h));
        match isa {
            Isa::Generic => band_impl::<false, 16, 8, 8>(&p, r, d, w, h, y0, y1),
            // SAFETY: `Isa::available` only lists instruction sets this CPU has.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => unsafe { band_avx2(&p, r, d, w, h, y0, y1) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 if super::avx512::handles(scale) => unsafe { super::avx512::band(&p, r, d, w, h, y0, y1) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => unsafe { band_avx512(&p, r, d, w, h, y0, y1) },
        }
    };
    // Integer sums: neither the band split nor the thread count can change the result.
    (0..h.div_ceil(BAND_ROWS))
        .into_par_iter()
        .map(band)
        .reduce(|| [0; 4], |a, b| [a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]])
}

// The same kernel compiled for wider vectors (`band_avx512` only for the scales `avx512.rs` does not
// handle). Block widths (u32 vertical, f64 vertical, horizontal) are chosen so that a block's five
// accumulators stay in vector registers (measured on a 1080p frame).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,lzcnt")]
fn band_avx2(p: &Params, r: &[u16], d: &[u16], w: usize, h: usize, y0: usize, y1: usize) -> [i64; 4] {
    band_impl::<true, 16, 8, 8>(p, r, d, w, h, y0, y1)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512cd,avx2,fma,lzcnt")]
fn band_avx512(p: &Params, r: &[u16], d: &[u16], w: usize, h: usize, y0: usize, y1: usize) -> [i64; 4] {
    band_impl::<true, 32, 32, 32>(p, r, d, w, h, y0, y1)
}

/// `a * b + c`, fused where the CPU has FMA (exact either way on our integer-valued operands).
#[inline(always)]
fn madd<const FMA: bool>(a: f64, b: f64, c: f64) -> f64 {
    if FMA { a.mul_add(b, c) } else { a * b + c }
}

/// The five vertically filtered rows of one output row, each with `rad` mirrored columns on either side.
struct Rows {
    mu1: Vec<f64>,
    mu2: Vec<f64>,
    xx: Vec<f64>,
    yy: Vec<f64>,
    xy: Vec<f64>,
}

/// Rows `y0..y1` of one scale: per row, the vertical pass into [`Rows`], then the horizontal pass and the
/// statistic over it.
#[inline(always)]
fn band_impl<const FMA: bool, const VU: usize, const VF: usize, const HN: usize>(
    p: &Params,
    r: &[u16],
    d: &[u16],
    w: usize,
    h: usize,
    y0: usize,
    y1: usize,
) -> [i64; 4] {
    let rad = p.nt / 2;
    let padded = w + 2 * rad;
    let mut v = Rows {
        mu1: vec![0.0; padded],
        mu2: vec![0.0; padded],
        xx: vec![0.0; padded],
        yy: vec![0.0; padded],
        xy: vec![0.0; padded],
    };
    let mut acc = [0i64; 4];
    let mut rows_r: [&[u16]; 17] = [&[]; 17];
    let mut rows_d: [&[u16]; 17] = [&[]; 17];
    for i in y0..y1 {
        for k in 0..p.nt {
            let y = mirror(i as isize - rad as isize + k as isize, h);
            rows_r[k] = &r[y * w..y * w + w];
            rows_d[k] = &d[y * w..y * w + w];
        }
        let (rr, dd) = (&rows_r[..p.nt], &rows_d[..p.nt]);
        // The vertical pass runs a tile ahead of the horizontal one, so that the horizontal pass reads the
        // five filtered rows from L1 rather than L2 (a 1080p row of them is 77 KB).
        let (mut vdone, mut hdone) = (0, 0);
        while vdone < w {
            let end = (vdone + TILE).min(w);
            if p.narrow {
                let full = end - (end - vdone) % VU;
                for j in (vdone..full).step_by(VU) {
                    vertical_u32::<VU>(p, rr, dd, j, rad, &mut v);
                }
                for j in full..end {
                    vertical_u32::<1>(p, rr, dd, j, rad, &mut v);
                }
            } else {
                let full = end - (end - vdone) % VF;
                for j in (vdone..full).step_by(VF) {
                    vertical::<VF, FMA>(p, rr, dd, j, rad, &mut v);
                }
                for j in full..end {
                    vertical::<1, FMA>(p, rr, dd, j, rad, &mut v);
                }
            }
            // Reflect-101 edges: columns -f and w-1+f read w-1-f and f (w > rad, so the first tile has them).
            let mut pad = |src: isize, dst: isize| {
                for buf in [&mut v.mu1, &mut v.mu2, &mut v.xx, &mut v.yy, &mut v.xy] {
                    buf[(rad as isize + dst) as usize] = buf[(rad as isize + src) as usize];
                }
            };
            if vdone == 0 {
                for f in 1..=rad as isize {
                    pad(f, -f);
                }
            }
            vdone = end;
            // Output column j needs filtered columns up to j + rad.
            let ready = if vdone == w {
                for f in 1..=rad as isize {
                    pad(w as isize - 1 - f, w as isize - 1 + f);
                }
                w
            } else {
                vdone - rad
            };
            while hdone + HN <= ready {
                horizontal::<HN, FMA>(p, &v, hdone, &mut acc);
                hdone += HN;
            }
            if vdone == w {
                for j in hdone..w {
                    horizontal::<1, FMA>(p, &v, j, &mut acc);
                }
            }
        }
    }
    acc
}

/// `x mod 2^bits` of a non-negative integer-valued f64 (a C cast to an unsigned type), exact.
#[inline(always)]
fn wrap(x: f64, bits: i32) -> f64 {
    let m = (2.0f64).powi(bits);
    x - (x * (1.0 / m)).floor() * m
}

/// Vertical pass for columns `j..j + N`, written at `j + rad` of the padded rows.
#[inline(always)]
fn vertical<const N: usize, const FMA: bool>(
    p: &Params,
    rr: &[&[u16]],
    dd: &[&[u16]],
    j: usize,
    rad: usize,
    v: &mut Rows,
) {
    let (mut m1, mut m2, mut xx, mut yy, mut xy) = ([0.0f64; N], [0.0f64; N], [0.0f64; N], [0.0f64; N], [0.0f64; N]);
    for ((&f, ra), da) in p.taps[..p.nt].iter().zip(rr).zip(dd) {
        let ra: &[u16; N] = ra[j..j + N].try_into().unwrap();
        let da: &[u16; N] = da[j..j + N].try_into().unwrap();
        for l in 0..N {
            let (a, b) = (ra[l] as i32 as f64, da[l] as i32 as f64);
            let (fa, fb) = (f * a, f * b);
            m1[l] += fa;
            m2[l] += fb;
            xx[l] = madd::<FMA>(fa, a, xx[l]);
            yy[l] = madd::<FMA>(fb, b, yy[l]);
            xy[l] = madd::<FMA>(fa, b, xy[l]);
        }
    }
    let o = j + rad;
    for l in 0..N {
        // libvmaf casts the means to u16 and the moments to u32; neither cast bites on valid samples, but
        // the wrap keeps the op defined (and equal to the 16-bit path) for every u16 input.
        v.mu1[o + l] = wrap(((m1[l] + p.mu_round) * p.mu_scale).floor(), 16);
        v.mu2[o + l] = wrap(((m2[l] + p.mu_round) * p.mu_scale).floor(), 16);
        v.xx[o + l] = wrap(((xx[l] + p.sq_round) * p.sq_scale).floor(), 32);
        v.yy[o + l] = wrap(((yy[l] + p.sq_round) * p.sq_scale).floor(), 32);
        v.xy[o + l] = wrap(((xy[l] + p.sq_round) * p.sq_scale).floor(), 32);
    }
}

/// [`vertical`] for 8-bit samples at scale 0 (`Params::narrow`), in u32: libvmaf's `vif_statistic_8`
/// sums, which do not overflow (samples are below 2^8; larger values wrap as the C does).
#[inline(always)]
fn vertical_u32<const N: usize>(p: &Params, rr: &[&[u16]], dd: &[&[u16]], j: usize, rad: usize, v: &mut Rows) {
    let (mut m1, mut m2, mut xx, mut yy, mut xy) = ([0u32; N], [0u32; N], [0u32; N], [0u32; N], [0u32; N]);
    for ((&f, ra), da) in p.taps_u32[..p.nt].iter().zip(rr).zip(dd) {
        let ra: &[u16; N] = ra[j..j + N].try_into().unwrap();
        let da: &[u16; N] = da[j..j + N].try_into().unwrap();
        for l in 0..N {
            let (a, b) = (ra[l] as u32, da[l] as u32);
            let (fa, fb) = (f.wrapping_mul(a), f.wrapping_mul(b));
            m1[l] = m1[l].wrapping_add(fa);
            m2[l] = m2[l].wrapping_add(fb);
            xx[l] = xx[l].wrapping_add(fa.wrapping_mul(a));
            yy[l] = yy[l].wrapping_add(fb.wrapping_mul(b));
            xy[l] = xy[l].wrapping_add(fa.wrapping_mul(b));
        }
    }
    let o = j + rad;
    for l in 0..N {
        // Means: (acc + 128) >> 8, cast to u16 like the 16-bit path; moments: the sums themselves.
        v.mu1[o + l] = ((m1[l].wrapping_add(128) >> 8) as u16) as f64;
        v.mu2[o + l] = ((m2[l].wrapping_add(128) >> 8) as u16) as f64;
        v.xx[o + l] = xx[l] as f64;
        v.yy[o + l] = yy[l] as f64;
        v.xy[o + l] = xy[l] as f64;
    }
}

/// Horizontal pass and per-pixel statistic for output columns `j..j + N`.
#[inline(always)]
fn horizontal<const N: usize, const FMA: bool>(p: &Params, v: &Rows, j: usize, acc: &mut [i64; 4]) {
    let (mut m1, mut m2, mut xx, mut yy, mut xy) = ([0.0f64; N], [0.0f64; N], [0.0f64; N], [0.0f64; N], [0.0f64; N]);
    for (k, &f) in p.taps[..p.nt].iter().enumerate() {
        let s = j + k;
        let a1: &[f64; N] = v.mu1[s..s + N].try_into().unwrap();
        let a2: &[f64; N] = v.mu2[s..s + N].try_into().unwrap();
        let axx: &[f64; N] = v.xx[s..s + N].try_into().unwrap();
        let ayy: &[f64; N] = v.yy[s..s + N].try_into().unwrap();
        let axy: &[f64; N] = v.xy[s..s + N].try_into().unwrap();
        for l in 0..N {
            m1[l] = madd::<FMA>(f, a1[l], m1[l]);
            m2[l] = madd::<FMA>(f, a2[l], m2[l]);
            xx[l] = madd::<FMA>(f, axx[l], xx[l]);
            yy[l] = madd::<FMA>(f, ayy[l], yy[l]);
            xy[l] = madd::<FMA>(f, axy[l], xy[l]);
        }
    }
    let shift = |x: f64| exact_u64(((x + 32768.0) * (1.0 / 65536.0)).floor()) as u32;
    // Phase 1, branch-free over the lanes so that it vectorises: everything but the table lookups.
    // Lanes that skip a log term get the argument 2^17, whose term is exactly 0 (see `Terms`).
    let (mut den_arg, mut num_arg, mut num_base) = ([0u32; N], [0u64; N], [0u64; N]);
    let (mut non_log_num, mut non_log_den) = (0i64, 0i64);
    for l in 0..N {
        let t =
            Terms::new(p, exact_u64(m1[l]) as u32, exact_u64(m2[l]) as u32, shift(xx[l]), shift(yy[l]), shift(xy[l]));
        den_arg[l] = t.den_arg;
        num_arg[l] = t.num_arg;
        num_base[l] = t.num_base;
        non_log_num += t.non_log_num as i64;
        non_log_den += t.non_log_den as i64;
    }
    acc[NUM_NON_LOG] += non_log_num;
    acc[DEN_NON_LOG] += non_log_den;
    // Phase 2: the lookups.
    let (mut den_log, mut num_log) = (0i64, 0i64);
    for l in 0..N {
        den_log += (log2_32(p.log2, den_arg[l]) - 2048 * 17) as i64;
        num_log += (log2_64(p.log2, num_arg[l]) - log2_64(p.log2, num_base[l])) as i64;
    }
    acc[DEN_LOG] += den_log;
    acc[NUM_LOG] += num_log;
}

/// An integer-valued f64 in `[0, 2^52)` as u64, exactly: adding 2^52 puts the integer in the mantissa bits.
/// (A plain `as` cast has no vector instruction before AVX-512.)
#[inline(always)]
fn exact_u64(x: f64) -> u64 {
    const MAGIC: f64 = 4503599627370496.0; // 2^52
    (x + MAGIC).to_bits() & ((1u64 << 52) - 1)
}

/// libvmaf's `log2_32`: log2 in 1/2048 units from the top 16 significant bits (`x >= 2^16`).
#[inline(always)]
fn log2_32(t: &[u16; 65537], x: u32) -> i32 {
    let k = 16 - x.leading_zeros() as i32;
    // The index has exactly 16 significant bits; the mask only tells the compiler so (no bounds check).
    t[(x >> k) as usize & 0xffff] as i32 + 2048 * k
}

/// libvmaf's `log2_64` (`x >= 2^17`).
#[inline(always)]
fn log2_64(t: &[u16; 65537], x: u64) -> i32 {
    let k = 48 - x.leading_zeros() as i32;
    // The index has exactly 16 significant bits; the mask only tells the compiler so (no bounds check).
    t[(x >> k) as usize & 0xffff] as i32 + 2048 * k
}

/// What one pixel adds to the four sums, before the table lookups: libvmaf's `vif_statistic_16` tail,
/// same operations in the same order, with its branches turned into selects.
struct Terms {
    /// `2^17 + sigma1_sq` when the pixel has a log denominator term, else 2^17: `log2_32(2^17)` is exactly
    /// `2048 * 17`, so that term is 0 (and likewise `log2_64(2^17) - log2_64(2^17)` below).
    den_arg: u32,
    /// `numer1_tmp` and `numer1` when it has a log numerator term, else both 2^17.
    num_arg: u64,
    num_base: u64,
    /// `sigma2_sq` and 1 when it falls in the low-variance branch, else 0 and 0.
    non_log_num: i32,
    non_log_den: i32,
}

impl Terms {
    #[inline(always)]
    fn new(p: &Params, mu1: u32, mu2: u32, xx: u32, yy: u32, xy: u32) -> Self {
        let sq = |a: u32, b: u32| ((a as u64 * b as u64 + (1u64 << 31)) >> 32) as u32;
        let sigma1_sq = xx.wrapping_sub(sq(mu1, mu1)) as i32;
        let sigma2_sq = (yy.wrapping_sub(sq(mu2, mu2)) as i32).max(0);
        let sigma12 = xy.wrapping_sub(sq(mu1, mu2)) as i32;
        let log = sigma1_sq >= SIGMA_NSQ;
        let num = log && sigma12 > 0 && sigma2_sq > 0;
        // C adds in int32 (wrapping in practice) and passes the bits as uint32.
        let den_arg = if log { SIGMA_NSQ.wrapping_add(sigma1_sq) as u32 } else { SIGMA_NSQ as u32 };
        let eps = 65536.0 * 1.0e-10;
        let g = sigma12 as f64 / (sigma1_sq as f64 + eps);
        // C: `int32_t sv_sq = sigma2_sq - g * sigma12` (truncation; out of range only below i32::MIN, as
        // g * sigma12 > 0 where it matters, giving i32::MIN on x86), then `MAX(sv_sq, 0)`. Clamping to
        // [0, i32::MAX] before truncating gives the same value and lets the lanes vectorise.
        let sv_sq = exact_u64((sigma2_sq as f64 - g * sigma12 as f64).clamp(0.0, i32::MAX as f64).floor()) as i32;
        let g = if g < p.gain_limit { g } else { p.gain_limit };
        let numer1 = sv_sq as u32 + SIGMA_NSQ as u32;
        // `(int64_t)(g * g * sigma1_sq)`: non-negative and below 100^2 * 2^31 < 2^52 on the lanes that use
        // it (gain_limit <= 100), so floor + exact_u64 is C's truncation.
        let numer1_tmp = exact_u64((g * g * sigma1_sq as f64).floor()) + numer1 as u64;
        Terms {
            den_arg,
            num_arg: if num { numer1_tmp } else { SIGMA_NSQ as u64 },
            num_base: if num { numer1 as u64 } else { SIGMA_NSQ as u64 },
            non_log_num: if log { 0 } else { sigma2_sq },
            non_log_den: (!log) as i32,
        }
    }
}
