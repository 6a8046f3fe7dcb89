//! AVX-512 kernel of `vif_stats` (F/BW/DQ/CD/VL) for scales 0..=2: the same exact integers as the
//! portable kernel in `cpu.rs`, computed in 16- and 32-bit lanes instead of f64.
//!
//! Per output row, a vertical pass writes eight rows of biased 16-bit values (the two means and the high
//! and low halves of the three second moments), and a horizontal pass filters them with `vpmaddwd` and
//! feeds the per-pixel statistic, 16 pixels at a time. Why each step is exact (`f` are the taps, which sum
//! to 2^16 and, at scales 0..=2, fit in i16; scale 3 has a tap of 43728 and runs the portable kernel):
//!
//! - Vertical, 8-bit path (scale 0, 8 bits per sample, and every sample the band reads below 2^8): rows
//!   `i - k` and `i + k` share the tap `f_k`, so they are interleaved into 16-bit pairs `(a, b)`;
//!   `vpmaddwd` by `(f_k, f_k)` gives `f_k·(a + b)`, and of a pair with itself `a² + b² < 2^17`, which
//!   times `f_k` fits in u32. Every sum is libvmaf's own u32 sum (at most `2^16·255² < 2^32`).
//! - Vertical, 15-bit path (otherwise, if every sample the band reads is below 2^15, e.g. 10-bit input):
//!   the same pairs; the means `Σ f·x < 2^31` are exact in i32, and `a·c + b·d < 2^31` is split into
//!   16-bit halves before the multiplication by `f_k`: `H = Σ f·hi < 2^31`, `L = Σ f·lo < 2^32`, and
//!   `Σ f·x·y = 2^16·H + L`.
//! - Vertical, 16-bit path (anything else, e.g. scales 1..=2, whose samples use all 16 bits): samples are
//!   biased to i16 (`x - 2^15`); as the taps sum to 2^16, `Σ f·(x - 2^15) = Σ f·x - 2^31`, so adding 2^31
//!   mod 2^32 restores `Σ f·x < 2^32`. A product `x·y < 2^32` is split into 16-bit halves (`vpmulhuw`,
//!   `vpmullw`), each biased and filtered the same way, giving `H` and `L` as above (up to `2^48` in all).
//! - The vertical rounding `(2^16·H + L + round) >> s` (s <= 16), cast to u32 as in C, is
//!   `(H << (16 - s)) + ((L + round) >> s)` mod 2^32: `2^16·H` is a multiple of `2^s`, and
//!   `L + round < 2^32`. The means are `((Σ f·x + round) >> s) & 0xffff` (C's cast to u16).
//! - Horizontal: the vertical means are u16 and the second moments u32, split into u16 halves; all are
//!   stored biased to i16 and unbiased after filtering as above. A moment is `A + ((B + 2^15) >> 16)` mod
//!   2^32 for `A = Σ f·hi`, `B = Σ f·lo < 2^32 - 2^15`. The filter runs on 32 output columns at once, as
//!   two parity classes of 16 i32 lanes: a 32-column load at offset `2q` holds, in lane `m`, the column
//!   pair that taps `(2q, 2q + 1)` weigh for output `2m` and taps `(2q - 1, 2q)` weigh for output
//!   `2m + 1`, so one load serves both (`vpmaddwd` with the two weight pairs). The statistic does not
//!   care about the order of the lanes, only that the five values of a lane belong together.
//! - The statistic: 64-bit products with `vpmuludq`; the gain in f64 with separate multiplies and adds
//!   (no FMA) in libvmaf's order, with its truncating conversions; the branches as lane masks. The log2
//!   table entries are added by scalar loads (this CPU's gathers are slower), from lists of the indexes
//!   of the lanes that take each term.

use std::arch::x86_64::*;

use super::cpu::Params;
use super::{DEN_LOG, DEN_NON_LOG, NUM_LOG, NUM_NON_LOG};
use crate::util::mirror;

/// Columns per vertical or horizontal block (32 u16 lanes, or two parity classes of 16 i32 lanes).
const BLOCK: usize = 32;
/// Blocks after which the per-lane log sums are added to the i64 sums: a lane then holds at most 2 * 256
/// terms, each below 2^16 in magnitude, so neither a lane nor the sum of the 16 lanes can overflow i32.
const FLUSH_BLOCKS: usize = 256;
/// libvmaf's `sigma_nsq`.
const SIGMA_NSQ: i32 = 65536 << 1;
/// The filtered rows: the means, then (high, low) halves of the x·x, y·y and x·y moments.
const MU1: usize = 0;
const MU2: usize = 1;
const XX: usize = 2;
const YY: usize = 4;
const XY: usize = 6;
const NROWS: usize = 8;
/// Capacity of each list of table indexes, and the length past which it is summed (a block adds at most
/// 32 indexes to a list).
const IDX_CAP: usize = 1024;
const IDX_FLUSH: usize = IDX_CAP - 2 * BLOCK;

/// Whether this kernel handles the scale (its taps fit in i16).
pub(super) fn handles(scale: usize) -> bool {
    scale <= 2
}

/// Per-call constants, in the forms the instructions take.
struct Kernel {
    nt: usize,
    rad: usize,
    /// Vertical tap `k` (0..=rad), as the i16 pair `(f_k, f_k)` in one i32 (`vpmaddwd` weights) and alone.
    vpair: [i32; 9],
    vtap: [i32; 9],
    /// Horizontal weights for the load at offset `2q`: taps `(2q, 2q + 1)` for even output columns,
    /// `(2q - 1, 2q)` for odd ones (taps outside the filter are 0), and the number of loads.
    heven: [i32; 9],
    hodd: [i32; 9],
    hn: usize,
    mu_round: i32,
    mu_shift: i64,
    sq_round: i32,
    sq_shift: i64,
    gain_limit: f64,
}

impl Kernel {
    fn new(p: &Params) -> Self {
        let f = &p.taps_u32[..p.nt];
        let tap = |i: isize| if i < 0 { 0 } else { f.get(i as usize).copied().unwrap_or(0) };
        let w16 = |a: u32, b: u32| (a | (b << 16)) as i32;
        let (mut vpair, mut vtap, mut heven, mut hodd) = ([0; 9], [0; 9], [0; 9], [0; 9]);
        for k in 0..=p.nt / 2 {
            vpair[k] = w16(f[k], f[k]);
            vtap[k] = f[k] as i32;
        }
        let hn = p.nt.div_ceil(2);
        for q in 0..hn as isize {
            heven[q as usize] = w16(tap(2 * q), tap(2 * q + 1));
            hodd[q as usize] = w16(tap(2 * q - 1), tap(2 * q));
        }
        Kernel {
            nt: p.nt,
            rad: p.nt / 2,
            vpair,
            vtap,
            heven,
            hodd,
            hn,
            mu_round: p.mu_round as i32,
            mu_shift: p.mu_shift as i64,
            sq_round: p.sq_round as i32,
            sq_shift: p.sq_shift as i64,
            gain_limit: p.gain_limit,
        }
    }
}

/// Which vertical pass a band runs (see the module docs).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Path {
    Bits8,
    Bits15,
    Bits16,
}

/// The sums of a band, with per-lane partial sums (added to the i64 sums before they could overflow) and
/// the log2 table indexes whose entries are still to be added.
struct Acc {
    num_log: __m512i,
    den_log: __m512i,
    /// u64 lanes.
    non_log_num: __m512i,
    non_log_den: i64,
    /// Table indexes of denominator terms, of numerator terms, and of numerator terms subtracted.
    idx: [[u32; IDX_CAP]; 3],
    n_idx: [usize; 3],
    log2: &'static [u16; 65537],
    sums: [i64; 4],
}

/// Rows `y0..y1` of one scale (0..=2): the four sums.
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512cd,avx512vl")]
pub(super) fn band(p: &Params, r: &[u16], d: &[u16], w: usize, h: usize, y0: usize, y1: usize) -> [i64; 4] {
    let k = Kernel::new(p);
    let (nt, rad) = (k.nt, k.rad);
    // Padded rows: column c at c + rad, with slack for the whole-block reads and writes past the right edge.
    let stride = (w + 2 * rad + 2 * BLOCK).next_multiple_of(BLOCK);
    let mut buf = vec![0i16; NROWS * stride];
    // The narrower paths need every sample the band reads below 2^8 or 2^15 (at scale 0, larger samples
    // than `bpc` bits are not valid input, but the op is defined for them).
    let path = {
        let rows = y0.saturating_sub(rad) * w..(y1 + rad).min(h) * w;
        let bits = r[rows.clone()].iter().chain(&d[rows]).fold(0u16, |a, &x| a | x);
        match () {
            _ if p.narrow && bits < 1 << 8 => Path::Bits8,
            _ if bits < 1 << 15 => Path::Bits15,
            _ => Path::Bits16,
        }
    };
    let mut acc = Acc {
        num_log: _mm512_setzero_si512(),
        den_log: _mm512_setzero_si512(),
        non_log_num: _mm512_setzero_si512(),
        non_log_den: 0,
        idx: [[0; IDX_CAP]; 3],
        n_idx: [0; 3],
        log2: p.log2,
        sums: [0; 4],
    };
    let mut rows_r: [&[u16]; 17] = [&[]; 17];
    let mut rows_d: [&[u16]; 17] = [&[]; 17];
    for i in y0..y1 {
        for t in 0..nt {
            let y = mirror(i as isize - rad as isize + t as isize, h);
            rows_r[t] = &r[y * w..y * w + w];
            rows_d[t] = &d[y * w..y * w + w];
        }
        for j in (0..w).step_by(BLOCK) {
            let n = (w - j).min(BLOCK);
            // SAFETY: the rows hold `w >= j + n` samples, and the stores end at `j + rad + 32 <= stride`.
            unsafe {
                match path {
                    Path::Bits8 => vertical_8(&k, &rows_r, &rows_d, j, n, &mut buf, stride),
                    Path::Bits15 => vertical_15(&k, &rows_r, &rows_d, j, n, &mut buf, stride),
                    Path::Bits16 => vertical_16(&k, &rows_r, &rows_d, j, n, &mut buf, stride),
                }
            }
        }
        // Reflect-101 edges: columns -f and w-1+f read f and w-1-f (written over the junk that the last
        // block left past the right edge).
        for q in 0..NROWS {
            let row = &mut buf[q * stride..(q + 1) * stride];
            for f in 1..=rad {
                row[rad - f] = row[rad + f];
                row[rad + w - 1 + f] = row[rad + w - 1 - f];
            }
        }
        for (b, j) in (0..w).step_by(BLOCK).enumerate() {
            let n = (w - j).min(BLOCK);
            // SAFETY: the loads end at `j + 2 * 8 + 32 <= stride`.
            unsafe {
                match k.hn {
                    9 => horizontal::<9>(&k, &buf, stride, j, n, &mut acc),
                    5 => horizontal::<5>(&k, &buf, stride, j, n, &mut acc),
                    _ => horizontal::<3>(&k, &buf, stride, j, n, &mut acc),
                }
            }
            if b % FLUSH_BLOCKS == FLUSH_BLOCKS - 1 {
                flush(&mut acc);
            }
        }
        flush(&mut acc);
    }
    acc.sums
}

/// Adds the lane sums and the listed table entries to the i64 sums.
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512cd,avx512vl")]
fn flush(acc: &mut Acc) {
    acc.sums[NUM_LOG] += _mm512_reduce_add_epi32(acc.num_log) as i64;
    acc.sums[DEN_LOG] += _mm512_reduce_add_epi32(acc.den_log) as i64;
    acc.sums[NUM_NON_LOG] += _mm512_reduce_add_epi64(acc.non_log_num);
    acc.sums[DEN_NON_LOG] += acc.non_log_den;
    acc.num_log = _mm512_setzero_si512();
    acc.den_log = _mm512_setzero_si512();
    acc.non_log_num = _mm512_setzero_si512();
    acc.non_log_den = 0;
    flush_lookups(acc);
}

/// Adds the table entries of the listed indexes to the sums.
fn flush_lookups(acc: &mut Acc) {
    let [den, num, num_sub] = &acc.idx;
    acc.sums[DEN_LOG] += table_sum(acc.log2, &den[..acc.n_idx[0]]);
    acc.sums[NUM_LOG] += table_sum(acc.log2, &num[..acc.n_idx[1]]) - table_sum(acc.log2, &num_sub[..acc.n_idx[2]]);
    acc.n_idx = [0; 3];
}

/// Σ t[i], with scalar loads: a plain function, compiled without the AVX-512 features, so that the
/// compiler keeps the loads rather than turning them into gathers, which are slower on this CPU.
#[inline(never)]
fn table_sum(t: &[u16; 65537], idx: &[u32]) -> i64 {
    // The indexes have 16 bits; the mask tells the compiler so (no bounds check).
    idx.iter().map(|&i| t[(i & 0xffff) as usize] as i64).sum()
}

#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512cd,avx512vl")]
fn set1(x: i32) -> __m512i {
    _mm512_set1_epi32(x)
}

/// `acc + Σ` of the i16 pair products of `a` and `b`, per i32 lane.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512cd,avx512vl")]
fn madd(acc: __m512i, a: __m512i, b: __m512i) -> __m512i {
    _mm512_add_epi32(acc, _mm512_madd_epi16(a, b))
}

/// 32 samples of a row from column `j`, those past `n` read as 0.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512cd,avx512vl")]
unsafe fn load_row(row: &[u16], j: usize, n: usize) -> __m512i {
    // SAFETY: the caller keeps `j + n <= row.len()`; masked-off lanes are not read.
    unsafe {
        if n >= BLOCK {
            _mm512_loadu_si512(row.as_ptr().add(j).cast())
        } else {
            _mm512_maskz_loadu_epi16((1u32 << n) - 1, row.as_ptr().add(j).cast())
        }
    }
}

/// Stores u32 lanes `lo` and `hi` (in `vpunpck[lh]wd` order, each value below 2^16) as 32 biased i16 in
/// column order.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512cd,avx512vl")]
unsafe fn store_u16(lo: __m512i, hi: __m512i, dst: *mut i16) {
    // `vpackusdw` packs per 128-bit lane, which undoes the per-lane interleave of `vpunpck[lh]wd`.
    let v = _mm512_xor_si512(_mm512_packus_epi32(lo, hi), _mm512_set1_epi16(i16::MIN));
    // SAFETY: the caller provides 32 writable elements.
    unsafe { _mm512_storeu_si512(dst.cast(), v) }
}

/// Stores u32 values as their biased high halves at `dst` and low halves at `dst + stride`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512cd,avx512vl")]
unsafe fn store_u32(lo: __m512i, hi: __m512i, dst: *mut i16, stride: usize) {
    let m = set1(0xffff);
    // SAFETY: as `store_u16`.
    unsafe {
        store_u16(_mm512_srli_epi32::<16>(lo), _mm512_srli_epi32::<16>(hi), dst);
        store_u16(_mm512_and_si512(lo, m), _mm512_and_si512(hi, m), dst.add(stride));
    }
}

/// Vertical pass of the 8-bit path for columns `j..j + n` (`n <= 32`), written at `j + rad`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512cd,avx512vl")]
unsafe fn vertical_8(
    k: &Kernel,
    rr: &[&[u16]; 17],
    dd: &[&[u16]; 17],
    j: usize,
    n: usize,
    buf: &mut [i16],
    stride: usize,
) {
    let z = _mm512_setzero_si512();
    // SAFETY: the caller's bounds.
    let ld = |t: usize| unsafe { (load_row(rr[t], j, n), load_row(dd[t], j, n)) };
    // Per unpack half: Σ f·x, Σ f·y, Σ f·x·x, Σ f·y·y, Σ f·x·y.
    let mut acc = [[z; 5]; 2];
    for t in 0..=k.rad {
        // Input rows t and nt - 1 - t share tap t; the centre row pairs with zeros.
        let ((xa, ya), (xb, yb)) = (ld(t), if t < k.rad { ld(k.nt - 1 - t) } else { (z, z) });
        let (fp, f) = (set1(k.vpair[t]), set1(k.vtap[t]));
        let halves = [
            (_mm512_unpacklo_epi16(xa, xb), _mm512_unpacklo_epi16(ya, yb)),
            (_mm512_unpackhi_epi16(xa, xb), _mm512_unpackhi_epi16(ya, yb)),
        ];
        for (a, (px, py)) in acc.iter_mut().zip(halves) {
            a[0] = madd(a[0], px, fp);
            a[1] = madd(a[1], py, fp);
            for (q, s) in
                [(2, _mm512_madd_epi16(px, px)), (3, _mm512_madd_epi16(py, py)), (4, _mm512_madd_epi16(px, py))]
            {
                a[q] = _mm512_add_epi32(a[q], _mm512_mullo_epi32(s, f));
            }
        }
    }
    // Means: (acc + 128) >> 8, below 2^16; moments: the u32 sums themselves.
    let mean = |m: __m512i| _mm512_srli_epi32::<8>(_mm512_add_epi32(m, set1(128)));
    let o = j + k.rad;
    assert!(NROWS * stride <= buf.len() && o + BLOCK <= stride);
    let base = buf.as_mut_ptr();
    // SAFETY: each row's 32 elements from `o` lie in `buf` (checked above).
    unsafe {
        store_u16(mean(acc[0][0]), mean(acc[1][0]), base.add(MU1 * stride + o));
        store_u16(mean(acc[0][1]), mean(acc[1][1]), base.add(MU2 * stride + o));
        for (row, q) in [(XX, 2), (YY, 3), (XY, 4)] {
            store_u32(acc[0][q], acc[1][q], base.add(row * stride + o), stride);
        }
    }
}

/// Writes the vertical sums of the 15- and 16-bit paths at `o` of the padded rows: per unpack half,
/// `Σ f·x`, `Σ f·y`, then `(H, L)` of x·x, y·y and x·y, each biased by `-2^31` if `biased`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512cd,avx512vl")]
unsafe fn store_wide(k: &Kernel, acc: &[[__m512i; 8]; 2], biased: bool, buf: &mut [i16], stride: usize, o: usize) {
    let unbias = |v: __m512i| if biased { _mm512_xor_si512(v, set1(i32::MIN)) } else { v };
    let (mr, ms) = (set1(k.mu_round), _mm_cvtsi64_si128(k.mu_shift));
    let mean = |m: __m512i| _mm512_and_si512(_mm512_srl_epi32(_mm512_add_epi32(unbias(m), mr), ms), set1(0xffff));
    let (qr, qs, qh) = (set1(k.sq_round), _mm_cvtsi64_si128(k.sq_shift), _mm_cvtsi64_si128(16 - k.sq_shift));
    let moment = |hi: __m512i, lo: __m512i| {
        _mm512_add_epi32(_mm512_sll_epi32(unbias(hi), qh), _mm512_srl_epi32(_mm512_add_epi32(unbias(lo), qr), qs))
    };
    assert!(NROWS * stride <= buf.len() && o + BLOCK <= stride);
    let base = buf.as_mut_ptr();
    // SAFETY: each row's 32 elements from `o` lie in `buf` (checked above).
    unsafe {
        store_u16(mean(acc[0][0]), mean(acc[1][0]), base.add(MU1 * stride + o));
        store_u16(mean(acc[0][1]), mean(acc[1][1]), base.add(MU2 * stride + o));
        for (row, q) in [(XX, 2), (YY, 4), (XY, 6)] {
            let (lo, hi) = (moment(acc[0][q], acc[0][q + 1]), moment(acc[1][q], acc[1][q + 1]));
            store_u32(lo, hi, base.add(row * stride + o), stride);
        }
    }
}

/// Vertical pass of the 15-bit path for columns `j..j + n` (`n <= 32`), written at `j + rad`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512cd,avx512vl")]
unsafe fn vertical_15(
    k: &Kernel,
    rr: &[&[u16]; 17],
    dd: &[&[u16]; 17],
    j: usize,
    n: usize,
    buf: &mut [i16],
    stride: usize,
) {
    let z = _mm512_setzero_si512();
    let m16 = set1(0xffff);
    // SAFETY: the caller's bounds.
    let ld = |t: usize| unsafe { (load_row(rr[t], j, n), load_row(dd[t], j, n)) };
    // Per unpack half: Σ f·x, Σ f·y, then (H, L) of x·x, y·y, x·y.
    let mut acc = [[z; 8]; 2];
    for t in 0..=k.rad {
        let ((xa, ya), (xb, yb)) = (ld(t), if t < k.rad { ld(k.nt - 1 - t) } else { (z, z) });
        let (fp, f) = (set1(k.vpair[t]), set1(k.vtap[t]));
        let halves = [
            (_mm512_unpacklo_epi16(xa, xb), _mm512_unpacklo_epi16(ya, yb)),
            (_mm512_unpackhi_epi16(xa, xb), _mm512_unpackhi_epi16(ya, yb)),
        ];
        for (a, (px, py)) in acc.iter_mut().zip(halves) {
            a[0] = madd(a[0], px, fp);
            a[1] = madd(a[1], py, fp);
            for (q, s) in
                [(2, _mm512_madd_epi16(px, px)), (4, _mm512_madd_epi16(py, py)), (6, _mm512_madd_epi16(px, py))]
            {
                a[q] = _mm512_add_epi32(a[q], _mm512_mullo_epi32(_mm512_srli_epi32::<16>(s), f));
                a[q + 1] = _mm512_add_epi32(a[q + 1], _mm512_mullo_epi32(_mm512_and_si512(s, m16), f));
            }
        }
    }
    // SAFETY: the caller's bounds.
    unsafe { store_wide(k, &acc, false, buf, stride, j + k.rad) };
}

/// Vertical pass of the 16-bit path for columns `j..j + n` (`n <= 32`), written at `j + rad`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512cd,avx512vl")]
unsafe fn vertical_16(
    k: &Kernel,
    rr: &[&[u16]; 17],
    dd: &[&[u16]; 17],
    j: usize,
    n: usize,
    buf: &mut [i16],
    stride: usize,
) {
    let z = _mm512_setzero_si512();
    let bias = _mm512_set1_epi16(i16::MIN);
    // Eight biased rows per input row: x, y, hi(x·x), lo(x·x), hi(y·y), lo(y·y), hi(x·y), lo(x·y).
    let split = |(x, y): (__m512i, __m512i)| {
        [
            x,
            y,
            _mm512_mulhi_epu16(x, x),
            _mm512_mullo_epi16(x, x),
            _mm512_mulhi_epu16(y, y),
            _mm512_mullo_epi16(y, y),
            _mm512_mulhi_epu16(x, y),
            _mm512_mullo_epi16(x, y),
        ]
        .map(|v| _mm512_xor_si512(v, bias))
    };
    // SAFETY: the caller's bounds.
    let ld = |t: usize| unsafe { (load_row(rr[t], j, n), load_row(dd[t], j, n)) };
    let mut acc = [[z; 8]; 2];
    for t in 0..=k.rad {
        let fp = set1(k.vpair[t]);
        let a = split(ld(t));
        // The centre row pairs with zeros, which are biased values: no product, no bias term.
        let b = if t < k.rad { split(ld(k.nt - 1 - t)) } else { [z; 8] };
        for q in 0..8 {
            acc[0][q] = madd(acc[0][q], _mm512_unpacklo_epi16(a[q], b[q]), fp);
            acc[1][q] = madd(acc[1][q], _mm512_unpackhi_epi16(a[q], b[q]), fp);
        }
    }
    // SAFETY: the caller's bounds.
    unsafe { store_wide(k, &acc, true, buf, stride, j + k.rad) };
}

/// Horizontal pass and statistic for output columns `j0..j0 + n` (`n <= 32`, `j0` a multiple of 32);
/// `HN` is [`Kernel::hn`].
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512cd,avx512vl")]
unsafe fn horizontal<const HN: usize>(k: &Kernel, buf: &[i16], stride: usize, j0: usize, n: usize, acc: &mut Acc) {
    assert!(NROWS * stride <= buf.len() && j0 + 2 * (HN - 1) + BLOCK <= stride);
    let z = _mm512_setzero_si512();
    let base = buf.as_ptr();
    let (mut even, mut odd) = ([z; NROWS], [z; NROWS]);
    for q in 0..HN {
        let (we, wo) = (set1(k.heven[q]), set1(k.hodd[q]));
        for row in 0..NROWS {
            // SAFETY: inside `buf` (checked above).
            let v = unsafe { _mm512_loadu_si512(base.add(row * stride + j0 + 2 * q).cast()) };
            even[row] = madd(even[row], v, we);
            odd[row] = madd(odd[row], v, wo);
        }
    }
    let unbias = |v: __m512i| _mm512_xor_si512(v, set1(i32::MIN));
    let moment = |hi: __m512i, lo: __m512i| {
        // (B + 2^15) >> 16 with B = lo + 2^31.
        _mm512_add_epi32(unbias(hi), _mm512_srli_epi32::<16>(_mm512_add_epi32(lo, set1(i32::MIN + 32768))))
    };
    for (par, s) in [even, odd].into_iter().enumerate() {
        // Lane m is column j0 + par + 2m.
        let cols = (n + 1 - par) / 2;
        let valid = if cols >= 16 { !0 } else { (1u16 << cols) - 1 };
        let (mu1, mu2) = (unbias(s[MU1]), unbias(s[MU2]));
        let (xx, yy, xy) = (moment(s[XX], s[XX + 1]), moment(s[YY], s[YY + 1]), moment(s[XY], s[XY + 1]));
        statistic(k, [mu1, mu2, xx, yy, xy], valid, acc);
    }
    if acc.n_idx.iter().any(|&n| n > IDX_FLUSH) {
        flush_lookups(acc);
    }
}

/// `(a·b + 2^31) >> 32` per u32 lane.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512cd,avx512vl")]
fn mul_round_hi(a: __m512i, b: __m512i) -> __m512i {
    let round = _mm512_set1_epi64(1 << 31);
    let even = _mm512_add_epi64(_mm512_mul_epu32(a, b), round);
    let odd = _mm512_add_epi64(_mm512_mul_epu32(_mm512_srli_epi64::<32>(a), _mm512_srli_epi64::<32>(b)), round);
    _mm512_mask_blend_epi32(0xaaaa, _mm512_srli_epi64::<32>(even), odd)
}

/// libvmaf's `log2_32` (for `x >= 2^16`) as table index and leading zeros:
/// `log2_32(x) = t[index] + 2048 * (16 - lz)`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512cd,avx512vl")]
fn log2_32_parts(x: __m512i) -> (__m512i, __m512i) {
    let lz = _mm512_lzcnt_epi32(x);
    // The index keeps the top 16 significant bits (a negative shift count gives 0).
    (_mm512_srlv_epi32(x, _mm512_sub_epi32(set1(16), lz)), lz)
}

/// libvmaf's `log2_64` on 8 u64 lanes, as 8 i32 indexes and leading zeros:
/// `log2_64(x) = t[index] + 2048 * (48 - lz)`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512cd,avx512vl")]
fn log2_64_parts(x: __m512i) -> (__m256i, __m256i) {
    let lz = _mm512_lzcnt_epi64(x);
    let idx = _mm512_srlv_epi64(x, _mm512_sub_epi64(_mm512_set1_epi64(48), lz));
    (_mm512_cvtepi64_epi32(idx), _mm512_cvtepi64_epi32(lz))
}

/// Appends the indexes in the lanes of `m` to list `l`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512cd,avx512vl")]
fn push_idx(acc: &mut Acc, l: usize, m: __mmask16, idx: __m512i) {
    let n = acc.n_idx[l];
    assert!(n + 16 <= IDX_CAP);
    // SAFETY: 16 elements from n fit (checked above).
    unsafe { _mm512_storeu_si512(acc.idx[l].as_mut_ptr().add(n).cast(), _mm512_maskz_compress_epi32(m, idx)) };
    acc.n_idx[l] = n + m.count_ones() as usize;
}

/// libvmaf's per-pixel statistic on 16 lanes of `[mu1, mu2, xx, yy, xy]` (`valid`: lanes inside the
/// plane).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512cd,avx512vl")]
fn statistic(k: &Kernel, [mu1, mu2, xx, yy, xy]: [__m512i; 5], valid: __mmask16, acc: &mut Acc) {
    let z = _mm512_setzero_si512();
    let sigma1 = _mm512_sub_epi32(xx, mul_round_hi(mu1, mu1));
    let sigma2 = _mm512_max_epi32(_mm512_sub_epi32(yy, mul_round_hi(mu2, mu2)), z);
    let sigma12 = _mm512_sub_epi32(xy, mul_round_hi(mu1, mu2));
    let log = _mm512_mask_cmpge_epi32_mask(valid, sigma1, set1(SIGMA_NSQ));
    let num = _mm512_mask_cmpgt_epi32_mask(log, sigma12, z) & _mm512_cmpgt_epi32_mask(sigma2, z);
    // Low-variance branch: sigma2 (non-negative) added in u64 lanes.
    let non_log = valid & !log;
    acc.non_log_den += non_log.count_ones() as i64;
    let s2 = _mm512_maskz_mov_epi32(non_log, sigma2);
    let s2 = _mm512_add_epi64(_mm512_and_si512(s2, _mm512_set1_epi64(0xffff_ffff)), _mm512_srli_epi64::<32>(s2));
    acc.non_log_num = _mm512_add_epi64(acc.non_log_num, s2);
    // Denominator: log2_32(sigma_nsq + sigma1) - 2048 * 17 = t[index] - 2048 * (lz + 1) (C adds in
    // int32 and passes the bits as uint32: the same bits as this u32 addition).
    let (idx, lz) = log2_32_parts(_mm512_add_epi32(sigma1, set1(SIGMA_NSQ)));
    push_idx(acc, 0, log, idx);
    let term = _mm512_sub_epi32(z, _mm512_slli_epi32::<11>(_mm512_add_epi32(lz, set1(1))));
    acc.den_log = _mm512_mask_add_epi32(acc.den_log, log, acc.den_log, term);
    if num == 0 {
        return;
    }
    // Numerator, in f64 on 8 lanes at a time, in libvmaf's order.
    let eps = 65536.0 * 1.0e-10;
    let (mut numer1, mut tmp) = ([_mm256_setzero_si256(); 2], [z; 2]);
    for half in 0..2 {
        let pick = |v: __m512i| if half == 0 { _mm512_castsi512_si256(v) } else { _mm512_extracti64x4_epi64::<1>(v) };
        let (s1, s2, s12) =
            (_mm512_cvtepi32_pd(pick(sigma1)), _mm512_cvtepi32_pd(pick(sigma2)), _mm512_cvtepi32_pd(pick(sigma12)));
        let g = _mm512_div_pd(s12, _mm512_add_pd(s1, _mm512_set1_pd(eps)));
        // C: `int32_t sv_sq = sigma2_sq - g * sigma12` truncates (INT_MIN out of range on x86, as
        // `vcvttpd2dq` gives), then `MAX(sv_sq, 0)`.
        let sv = _mm512_cvttpd_epi32(_mm512_sub_pd(s2, _mm512_mul_pd(g, s12)));
        numer1[half] = _mm256_add_epi32(_mm256_max_epi32(sv, _mm256_setzero_si256()), _mm256_set1_epi32(SIGMA_NSQ));
        // C: `g < gain_limit ? g : gain_limit`, which is what `vminpd` computes (NaN included).
        let g = _mm512_min_pd(g, _mm512_set1_pd(k.gain_limit));
        // `(int64_t)(g * g * sigma1_sq) + numer1`: below 100^2 * 2^31 + 2^32 on the lanes that use it.
        let gg = _mm512_cvttpd_epi64(_mm512_mul_pd(_mm512_mul_pd(g, g), s1));
        tmp[half] = _mm512_add_epi64(gg, _mm512_cvtepu32_epi64(numer1[half]));
    }
    let join = |a: __m256i, b: __m256i| _mm512_inserti64x4::<1>(_mm512_castsi256_si512(a), b);
    let (i1, lz1) = log2_32_parts(join(numer1[0], numer1[1]));
    let ((it0, lzt0), (it1, lzt1)) = (log2_64_parts(tmp[0]), log2_64_parts(tmp[1]));
    push_idx(acc, 1, num, join(it0, it1));
    push_idx(acc, 2, num, i1);
    // log2_64(tmp) - log2_32(numer1) = t[it] - t[i1] + 2048 * (32 - lzt + lz1).
    let term = _mm512_slli_epi32::<11>(_mm512_add_epi32(_mm512_sub_epi32(set1(32), join(lzt0, lzt1)), lz1));
    acc.num_log = _mm512_mask_add_epi32(acc.num_log, num, acc.num_log, term);
}
