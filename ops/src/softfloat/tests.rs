//! The soft-float against the CPU's own IEEE arithmetic (native Rust `f64`/`f32`, which never contracts
//! into FMA), bit for bit, on wgpu: every operation over millions of random and constructed inputs.
//!
//! NaN results are only required to be NaNs: which NaN hardware returns differs between CPUs and GPUs (see
//! the module docs), and the ops that use this never produce one.

use cubecl::prelude::*;
use rayon::prelude::*;

use super::*;
use crate::kernel::linear_launch;

// ---------------------------------------------------------------------------------------------------------
// Kernels: one operation per instantiation, operands and result carried in u64 lanes
// ---------------------------------------------------------------------------------------------------------

const ADD64: u32 = 0;
const SUB64: u32 = 1;
const MUL64: u32 = 2;
const DIV64: u32 = 3;
const LT64: u32 = 4;
const LE64: u32 = 5;
const EQ64: u32 = 6;
const MIN64: u32 = 7;
const MAX64: u32 = 8;
const GT64: u32 = 9;
const GE64: u32 = 10;
const TO_I32_64: u32 = 11;
const TO_I64_64: u32 = 12;
const TO_F32_64: u32 = 13;
const FROM_I32_64: u32 = 14;
const FROM_U32_64: u32 = 15;
const FROM_I64_64: u32 = 16;
const FROM_U64_64: u32 = 17;
const ADD32: u32 = 20;
const SUB32: u32 = 21;
const MUL32: u32 = 22;
const DIV32: u32 = 23;
const LT32: u32 = 24;
const LE32: u32 = 25;
const EQ32: u32 = 26;
const MIN32: u32 = 27;
const MAX32: u32 = 28;
const TO_I32_32: u32 = 31;
const TO_I64_32: u32 = 32;
const TO_F64_32: u32 = 33;
const FROM_I32_32: u32 = 34;
const FROM_U32_32: u32 = 35;
const FROM_I64_32: u32 = 36;
const FROM_U64_32: u32 = 37;
const RECIP: u32 = 40;
const NEG64: u32 = 41;
const ABS64: u32 = 42;
/// The vif_stats and adm_decouple expressions (for timing): operands as in their kernels below.
const VIF_EXPR: u32 = 50;
const ADM_ANGLE_EXPR: u32 = 51;

/// libvmaf's vif `eps` (that f64 product) and default gain limit, and cos(1 deg)^2 as binary64 bits.
const EPS_BITS: u64 = (65536.0f64 * 1.0e-10).to_bits();
const GAIN_100: u64 = 0x4059_0000_0000_0000;
const COS_1DEG_SQ: u64 = 0x3FEF_FD81_4000_0000;

#[cube]
fn b2u(c: bool) -> u64 {
    select(c, 1u64, 0u64)
}

/// `out[i] = op(a[i], b[i])`; binary32 operands and 32-bit integers sit in the low half of their lane.
#[cube]
fn apply_op(x: u64, y: u64, #[comptime] op: u32) -> u64 {
    let x32 = u32::cast_from(x);
    let y32 = u32::cast_from(y);
    let mut r = 0u64;
    if comptime![op == ADD64] {
        r = f64_add(x, y);
    }
    if comptime![op == SUB64] {
        r = f64_sub(x, y);
    }
    if comptime![op == MUL64] {
        r = f64_mul(x, y);
    }
    if comptime![op == DIV64] {
        r = f64_div(x, y);
    }
    if comptime![op == LT64] {
        r = b2u(f64_lt(x, y));
    }
    if comptime![op == LE64] {
        r = b2u(f64_le(x, y));
    }
    if comptime![op == EQ64] {
        r = b2u(f64_eq(x, y));
    }
    if comptime![op == GT64] {
        r = b2u(f64_gt(x, y));
    }
    if comptime![op == GE64] {
        r = b2u(f64_ge(x, y));
    }
    if comptime![op == MIN64] {
        r = f64_min(x, y);
    }
    if comptime![op == MAX64] {
        r = f64_max(x, y);
    }
    if comptime![op == NEG64] {
        r = f64_neg(x);
    }
    if comptime![op == ABS64] {
        r = f64_abs(x);
    }
    if comptime![op == TO_I32_64] {
        r = u64::cast_from(u32::cast_from(f64_to_i32(x)));
    }
    if comptime![op == TO_I64_64] {
        r = u64::cast_from(f64_to_i64(x));
    }
    if comptime![op == TO_F32_64] {
        r = u64::cast_from(f64_to_f32(x));
    }
    if comptime![op == FROM_I32_64] {
        r = f64_from_i32(i32::cast_from(x32));
    }
    if comptime![op == FROM_U32_64] {
        r = f64_from_u32(x32);
    }
    if comptime![op == FROM_I64_64] {
        r = f64_from_i64(i64::cast_from(x));
    }
    if comptime![op == FROM_U64_64] {
        r = f64_from_u64(x);
    }
    if comptime![op == ADD32] {
        r = u64::cast_from(f32_add(x32, y32));
    }
    if comptime![op == SUB32] {
        r = u64::cast_from(f32_sub(x32, y32));
    }
    if comptime![op == MUL32] {
        r = u64::cast_from(f32_mul(x32, y32));
    }
    if comptime![op == DIV32] {
        r = u64::cast_from(f32_div(x32, y32));
    }
    if comptime![op == LT32] {
        r = b2u(f32_lt(x32, y32));
    }
    if comptime![op == LE32] {
        r = b2u(f32_le(x32, y32));
    }
    if comptime![op == EQ32] {
        r = b2u(f32_eq(x32, y32));
    }
    if comptime![op == MIN32] {
        r = u64::cast_from(f32_min(x32, y32));
    }
    if comptime![op == MAX32] {
        r = u64::cast_from(f32_max(x32, y32));
    }
    if comptime![op == TO_I32_32] {
        r = u64::cast_from(u32::cast_from(f32_to_i32(x32)));
    }
    if comptime![op == TO_I64_32] {
        r = u64::cast_from(f32_to_i64(x32));
    }
    if comptime![op == TO_F64_32] {
        r = f32_to_f64(x32);
    }
    if comptime![op == FROM_I32_32] {
        r = u64::cast_from(f32_from_i32(i32::cast_from(x32)));
    }
    if comptime![op == FROM_U32_32] {
        r = u64::cast_from(f32_from_u32(x32));
    }
    if comptime![op == FROM_I64_32] {
        r = u64::cast_from(f32_from_i64(i64::cast_from(x)));
    }
    if comptime![op == FROM_U64_32] {
        r = u64::cast_from(f32_from_u64(x));
    }
    if comptime![op == RECIP] {
        r = recip_approx(x);
    }
    if comptime![op == VIF_EXPR] {
        let s2 = i32::cast_from(u32::cast_from(x >> 32u64));
        let v = vif_floats(i32::cast_from(x32), s2, i32::cast_from(y32), EPS_BITS, GAIN_100);
        r = u64::cast_from(u32::cast_from(v.sv_sq)) ^ u64::cast_from(v.numer1_tmp);
    }
    if comptime![op == ADM_ANGLE_EXPR] {
        r = b2u(adm_angle_ok(x, y, COS_1DEG_SQ));
    }
    r
}

#[cube(launch_unchecked)]
fn apply(a: &Array<u64>, b: &Array<u64>, out: &mut Array<u64>, n: u32, #[comptime] op: u32) {
    let i = crate::kernel::linear_index();
    if i < n as usize {
        out[i] = apply_op(a[i], b[i], op);
    }
}

/// The runtime the tests run on: wgpu (the default), or CUDA in a build with `cuda` and not `wgpu` (a
/// test binary built here and copied to a GPU machine, as `ops/tests/adm_cuda.rs` is).
#[cfg(feature = "wgpu")]
type TestRuntime = cubecl::wgpu::WgpuRuntime;
#[cfg(all(feature = "cuda", not(feature = "wgpu")))]
type TestRuntime = cubecl::cuda::CudaRuntime;

/// The device's client; says which device (once per test binary).
#[cfg(feature = "wgpu")]
fn client() -> ComputeClient<TestRuntime> {
    crate::kernel::testing::client()
}

#[cfg(all(feature = "cuda", not(feature = "wgpu")))]
fn client() -> ComputeClient<TestRuntime> {
    static SHOWN: std::sync::Once = std::sync::Once::new();
    SHOWN.call_once(|| println!("kernel tests run on CUDA device 0"));
    TestRuntime::client(&cubecl::cuda::CudaDevice { index: 0 })
}

/// Elements per launch: three buffers of 32 MiB, well under lavapipe's 128 MiB per binding.
const CHUNK: usize = 1 << 22;

/// Runs `op` on the device over every pair.
fn run_device(op: u32, a: &[u64], b: &[u64]) -> Vec<u64> {
    let client = client();
    let mut out = Vec::with_capacity(a.len());
    for (ca, cb) in a.chunks(CHUNK).zip(b.chunks(CHUNK)) {
        let n = ca.len();
        let ha = client.create_from_slice(u64::as_bytes(ca));
        let hb = client.create_from_slice(u64::as_bytes(cb));
        let ho = client.empty(n * 8);
        let (count, dim) = linear_launch(n);
        // SAFETY: each unit reads and writes index i < n of buffers holding n u64.
        unsafe {
            apply::launch_unchecked::<TestRuntime>(
                &client,
                count,
                dim,
                ArrayArg::from_raw_parts(ha, n),
                ArrayArg::from_raw_parts(hb, n),
                ArrayArg::from_raw_parts(ho.clone(), n),
                n as u32,
                op,
            )
        };
        let bytes = client.read_one(ho).expect("read back");
        out.extend_from_slice(u64::from_bytes(&bytes));
    }
    out
}

/// How results are compared: bit for bit, or "any NaN" where the reference is a NaN of that format.
#[derive(Clone, Copy, PartialEq)]
enum Res {
    Bits,
    F64,
    F32,
}

fn same(res: Res, want: u64, got: u64) -> bool {
    match res {
        Res::F64 if f64::from_bits(want).is_nan() => f64::from_bits(got).is_nan(),
        Res::F32 if f32::from_bits(want as u32).is_nan() => got >> 32 == 0 && f32::from_bits(got as u32).is_nan(),
        _ => want == got,
    }
}

/// Runs `op` on the device and `reference` on the CPU over every pair and asserts equality; returns the
/// number of cases.
fn check(name: &str, op: u32, res: Res, pairs: &[(u64, u64)], reference: impl Fn(u64, u64) -> u64 + Sync) -> usize {
    let (a, b): (Vec<u64>, Vec<u64>) = pairs.iter().copied().unzip();
    let got = run_device(op, &a, &b);
    let want: Vec<u64> = pairs.par_iter().map(|&(x, y)| reference(x, y)).collect();
    let bad: Vec<usize> = (0..pairs.len()).into_par_iter().filter(|&i| !same(res, want[i], got[i])).collect();
    for &i in bad.iter().take(8) {
        eprintln!("{name}: a={:#018x} b={:#018x} want {:#018x} got {:#018x}", a[i], b[i], want[i], got[i]);
    }
    assert!(bad.is_empty(), "{name}: {} of {} cases differ from the CPU", bad.len(), pairs.len());
    println!("{name}: {} cases identical to the CPU{}", pairs.len(), classes(res, &want));
    pairs.len()
}

/// How many reference results fall in each special class (to show the inputs reach them).
fn classes(res: Res, want: &[u64]) -> String {
    let class = |x: u64| -> usize {
        let (abs, inf, min_normal) = match res {
            Res::F64 => (x & F64_ABS, F64_INF, 1u64 << 52),
            Res::F32 => (x & F32_ABS as u64, F32_INF as u64, 1 << 23),
            Res::Bits => return 0,
        };
        match abs {
            0 => 1,
            a if a < min_normal => 2,
            a if a == inf => 3,
            a if a > inf => 4,
            _ => 0,
        }
    };
    if res == Res::Bits {
        return String::new();
    }
    let mut n = [0usize; 5];
    for &w in want {
        n[class(w)] += 1;
    }
    format!(" ({} zero, {} subnormal, {} infinite, {} NaN results)", n[1], n[2], n[3], n[4])
}

/// How many of the pairs' exact sums (`mul`: products) lie exactly halfway between two binary64 values,
/// where the tie-breaking rule decides: the rounding error (exact, from TwoSum or an FMA) is half the
/// distance to the neighbouring value on its side.
fn ties64(pairs: &[(u64, u64)], mul: bool) -> usize {
    pairs
        .par_iter()
        .filter(|&&(a, b)| {
            let (a, b) = (f(a), f(b));
            let r = if mul { a * b } else { a + b };
            if !r.is_finite() || r == 0.0 || r.abs() < f64::MIN_POSITIVE * 4.0 {
                return false;
            }
            let err = if mul {
                a.mul_add(b, -r)
            } else {
                let bv = r - a;
                (a - (r - bv)) + (b - bv)
            };
            if err == 0.0 || !err.is_finite() {
                return false;
            }
            let away = (err > 0.0) == (r > 0.0);
            let n = f64::from_bits(if away { r.to_bits() + 1 } else { r.to_bits() - 1 });
            n.is_finite() && 2.0 * err == n - r
        })
        .count()
}

// ---------------------------------------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------------------------------------

/// SplitMix64: a fixed sequence per seed.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n`.
    fn below(&mut self, n: u64) -> u64 {
        ((self.next() as u128 * n as u128) >> 64) as u64
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo) as u64 + 1) as i64
    }

    fn sign(&mut self) -> bool {
        self.next() & 1 == 1
    }
}

/// A `bits`-bit fraction with a pattern that stresses rounding and carries: random, all ones, all zeros,
/// a few bits, all but a few, random with a run of trailing zeros or ones, a halfway pattern.
fn fraction(r: &mut Rng, bits: u32) -> u64 {
    let mask = (1u64 << bits) - 1;
    let k = r.below(bits as u64) as u32;
    let j = r.below(bits as u64) as u32;
    match r.below(9) {
        0 | 1 => r.next() & mask,
        2 => mask,
        3 => 0,
        4 => (1 << k) | (1 << j),
        5 => mask ^ ((1 << k) | (1 << j)),
        6 => r.next() & mask & !((1 << k) - 1),
        7 => (r.next() | ((1 << k) - 1)) & mask,
        _ => (r.next() & mask & !((2 << k) - 1)) | (1 << k),
    }
}

fn make64(neg: bool, exp: i64, frac: u64) -> u64 {
    ((neg as u64) << 63) | ((exp.clamp(0, 2047) as u64) << 52) | (frac & ((1 << 52) - 1))
}

fn make32(neg: bool, exp: i64, frac: u64) -> u64 {
    ((neg as u64) << 31) | ((exp.clamp(0, 255) as u64) << 23) | (frac & ((1 << 23) - 1))
}

/// Values every operation must meet: zeros, subnormal and normal extremes, ones and their neighbours,
/// infinities, quiet and signalling NaNs, integers at the edges of the integer types.
fn specials64() -> Vec<u64> {
    let mut v: Vec<u64> = vec![
        0,
        1,
        2,
        3,
        0x000F_FFFF_FFFF_FFFF,
        0x0008_0000_0000_0000,
        0x0010_0000_0000_0000,
        0x0010_0000_0000_0001,
        0x001F_FFFF_FFFF_FFFF,
        0x0020_0000_0000_0000,
        0x7FEF_FFFF_FFFF_FFFF,
        0x7FE0_0000_0000_0000,
        0x7FF0_0000_0000_0000,
        0x7FF8_0000_0000_0000,
        0x7FF0_0000_0000_0001,
        0x7FFF_FFFF_FFFF_FFFF,
        0.5f64.to_bits(),
        1.0f64.to_bits(),
        1.0f64.to_bits() + 1,
        1.0f64.to_bits() - 1,
        1.5f64.to_bits(),
        2.0f64.to_bits(),
        2.0f64.to_bits() - 1,
        3.0f64.to_bits(),
        0.1f64.to_bits(),
        (65536.0 * 1.0e-10f64).to_bits(),
        4096.0f64.to_bits(),
        100.0f64.to_bits(),
        2f64.powi(31).to_bits(),
        (2f64.powi(31) - 1.0).to_bits(),
        (2f64.powi(31) - 0.5).to_bits(),
        (2f64.powi(31) + 0.5).to_bits(),
        2f64.powi(31).to_bits() - 1,
        2f64.powi(31).to_bits() + 1,
        2f64.powi(32).to_bits(),
        2f64.powi(52).to_bits(),
        2f64.powi(53).to_bits(),
        (2f64.powi(53) - 1.0).to_bits(),
        2f64.powi(63).to_bits(),
        2f64.powi(63).to_bits() - 1,
        2f64.powi(64).to_bits(),
        (f32::MAX as f64).to_bits(),
        (f32::MAX as f64).to_bits() + (1 << 28),
        (f32::MAX as f64).to_bits() + (1 << 28) - 1,
        (f32::MIN_POSITIVE as f64).to_bits(),
        (f32::from_bits(1) as f64).to_bits(),
        (f32::from_bits(1) as f64 / 2.0).to_bits(),
        (f32::from_bits(1) as f64 / 2.0).to_bits() + 1,
    ];
    let neg: Vec<u64> = v.iter().map(|x| x | (1 << 63)).collect();
    v.extend(neg);
    v
}

fn specials32() -> Vec<u64> {
    let mut v: Vec<u64> = vec![
        0,
        1,
        2,
        3,
        0x007F_FFFF,
        0x0040_0000,
        0x0080_0000,
        0x0080_0001,
        0x00FF_FFFF,
        0x7F7F_FFFF,
        0x7F00_0000,
        0x7F80_0000,
        0x7FC0_0000,
        0x7F80_0001,
        0x7FFF_FFFF,
        0.5f32.to_bits() as u64,
        1.0f32.to_bits() as u64,
        1.0f32.to_bits() as u64 + 1,
        1.0f32.to_bits() as u64 - 1,
        1.5f32.to_bits() as u64,
        2.0f32.to_bits() as u64,
        3.0f32.to_bits() as u64,
        0.1f32.to_bits() as u64,
        4096.0f32.to_bits() as u64,
        2f32.powi(24).to_bits() as u64,
        2f32.powi(31).to_bits() as u64,
        2f32.powi(31).to_bits() as u64 - 1,
        2f32.powi(63).to_bits() as u64,
        2f32.powi(63).to_bits() as u64 - 1,
        cos_1deg_sq().to_bits() as u64,
    ];
    let neg: Vec<u64> = v.iter().map(|x| x | (1 << 31)).collect();
    v.extend(neg);
    v
}

/// Every pair of `specials`, then repeated to fill a multiple of the list.
fn special_pairs(specials: &[u64]) -> Vec<(u64, u64)> {
    specials.iter().flat_map(|&a| specials.iter().map(move |&b| (a, b))).collect()
}

/// Which binary operation the constructed inputs aim at.
#[derive(Clone, Copy, PartialEq)]
enum Aim {
    Add,
    Mul,
    Div,
}

/// `n` binary64 pairs for `aim`: uniform bit patterns (every class, mostly far apart), close exponents
/// with stressing fractions (cancellation, carries into the exponent), exact ties and near ties,
/// results at the subnormal and overflow boundaries, and the values vif_stats and adm_decouple compute
/// with.
fn pairs64(n: usize, aim: Aim, seed: u64) -> Vec<(u64, u64)> {
    let mut v = special_pairs(&specials64());
    v.par_extend((0..n as u64).into_par_iter().map(|i| {
        let mut r = Rng::new(seed ^ i.wrapping_mul(0xD1B5_4A32_D192_ED03));
        pair64(&mut r, aim)
    }));
    v
}

fn pair64(r: &mut Rng, aim: Aim) -> (u64, u64) {
    let ea = r.range(1, 2046);
    let fa = fraction(r, 52);
    let (sa, sb) = (r.sign(), r.sign());
    match r.below(10) {
        // Any bit patterns.
        0 => (r.next(), r.next()),
        // Close exponents, stressing fractions.
        1 | 2 => (make64(sa, ea, fa), make64(sb, ea + r.range(-60, 60), fraction(r, 52))),
        // Near-ties for addition: b around half an ulp of a (a power of two, or a few bits).
        3 if aim == Aim::Add => (make64(sa, ea, fa), make64(sb, ea - 53 + r.range(-2, 1), fraction(r, 3))),
        // Exact ties for multiplication: odd integers of l1 + l2 in {54, 55} bits, whose product has one
        // bit too many more often than not.
        3 if aim == Aim::Mul => {
            let l1 = r.range(1, 53);
            let l2 = (54 + r.range(0, 1) - l1).clamp(1, 53);
            let m1 = (r.next() >> (64 - l1)) | 1 | (1 << (l1 - 1));
            let m2 = (r.next() >> (64 - l2)) | 1 | (1 << (l2 - 1));
            // Exponents anywhere the product lands, subnormal range included.
            let e1 = r.range(-600, 600);
            let e2 = r.range(-600, 600) - e1.clamp(-500, 500);
            (int_times_pow2(sa, m1, e1), int_times_pow2(sb, m2, e2))
        }
        // Division: a = fl(b * q) with a short q, so that a / b is q or a neighbour (remainder zero or tiny).
        3 => {
            let b = make64(sb, ea, fa);
            let q = int_times_pow2(sa, (r.next() >> r.range(40, 63)) | 1, r.range(-30, 30));
            ((f64::from_bits(b) * f64::from_bits(q)).to_bits(), b)
        }
        // Results at the bottom of the range (subnormal, underflow) or the top (overflow).
        4 => {
            let low = r.sign();
            let target = if low { r.range(-60, 3) } else { r.range(2040, 2050) };
            match aim {
                Aim::Add => (make64(sa, r.range(0, 3), fa), make64(sb, r.range(0, 3), fraction(r, 52))),
                Aim::Mul => (make64(sa, ea, fa), make64(sb, target - ea + 1023, fraction(r, 52))),
                Aim::Div => (make64(sa, ea, fa), make64(sb, ea - target + 1023, fraction(r, 52))),
            }
        }
        // Subnormal operands.
        5 => (make64(sa, 0, fa), make64(sb, r.range(0, 2046), fraction(r, 52))),
        6 => (make64(sa, r.range(0, 2046), fa), make64(sb, 0, fraction(r, 52))),
        // vif_stats: sigma values (integers below 2^31), eps sums, gains and their products.
        7 => vif_pair(r),
        // adm_decouple: integers / 4096, their squares and products with cos^2(1 deg), gain products.
        8 => adm_pair(r),
        // Integers of up to 64 bits, in both operands.
        _ => {
            let x = (r.next() >> r.below(64)) as i64;
            let y = (r.next() >> r.below(64)) as i64;
            let x = if sa { x.wrapping_neg() } else { x };
            let y = if sb { y.wrapping_neg() } else { y };
            ((x as f64).to_bits(), (y as f64).to_bits())
        }
    }
}

/// `±m * 2^e` as binary64 (exact for m < 2^53 and results in range).
fn int_times_pow2(neg: bool, m: u64, e: i64) -> u64 {
    let v = (m as f64) * 2f64.powi(e.clamp(-1000, 1000) as i32);
    let v = if e < -1000 { v * 2f64.powi((e + 1000).max(-200) as i32) } else { v };
    (if neg { -v } else { v }).to_bits()
}

/// A log-uniform integer below 2^bits, sometimes negative.
fn log_int(r: &mut Rng, bits: u32, negative: bool) -> i64 {
    let v = (r.next() >> (64 - bits)) >> r.below(bits as u64);
    if negative && r.below(8) == 0 { -(v as i64) } else { v as i64 }
}

const EPS: f64 = 65536.0 * 1.0e-10;

/// libvmaf's `cos(1.0 * M_PI / 180.0) * cos(1.0 * M_PI / 180.0)` stored as float.
fn cos_1deg_sq() -> f32 {
    let c = (std::f64::consts::PI / 180.0).cos();
    (c * c) as f32
}

fn vif_pair(r: &mut Rng) -> (u64, u64) {
    let s1 = log_int(r, 31, true) as f64;
    let s2 = log_int(r, 31, true) as f64;
    let s12 = log_int(r, 31, true) as f64;
    let g = s12 / (s1 + EPS);
    let g2 = g.min(100.0);
    let pair = match r.below(6) {
        0 => (s12, s1 + EPS),
        1 => (s1, EPS),
        2 => (g, s12),
        3 => (s2, g * s12),
        4 => (g2, g2),
        _ => (g2 * g2, s1),
    };
    (pair.0.to_bits(), pair.1.to_bits())
}

fn adm_pair(r: &mut Rng) -> (u64, u64) {
    let x = log_int(r, 63, true) as f32 as f64 / 4096.0;
    let y = log_int(r, 63, true) as f32 as f64 / 4096.0;
    let c = cos_1deg_sq() as f64;
    let rr = log_int(r, 32, true) as f64;
    let g = match r.below(3) {
        0 => 100.0,
        1 => 1.0 + r.below(1 << 20) as f64 / 1024.0,
        _ => f64::from_bits(r.next() >> 12 | 0x3FF0_0000_0000_0000),
    };
    let pair = match r.below(6) {
        0 => (x, x),
        1 => (c, x),
        2 => (c * x, y),
        3 => (x * x, c * x * y),
        4 => (rr, g),
        _ => (rr * g, log_int(r, 32, true) as f64),
    };
    (pair.0.to_bits(), pair.1.to_bits())
}

/// `n` binary32 pairs: like [`pairs64`] in the binary32 format.
fn pairs32(n: usize, aim: Aim, seed: u64) -> Vec<(u64, u64)> {
    let mut v = special_pairs(&specials32());
    v.par_extend((0..n as u64).into_par_iter().map(|i| {
        let mut r = Rng::new(seed ^ i.wrapping_mul(0xD1B5_4A32_D192_ED03));
        let ea = r.range(1, 254);
        let fa = fraction(&mut r, 23);
        let (sa, sb) = (r.sign(), r.sign());
        match r.below(8) {
            0 => (r.next() >> 32, r.next() >> 32),
            1 | 2 => (make32(sa, ea, fa), make32(sb, ea + r.range(-30, 30), fraction(&mut r, 23))),
            3 => (make32(sa, ea, fa), make32(sb, ea - 24 + r.range(-2, 1), fraction(&mut r, 3))),
            4 => {
                let low = r.sign();
                let target = if low { r.range(-30, 3) } else { r.range(250, 258) };
                let eb = match aim {
                    Aim::Add => r.range(0, 3),
                    Aim::Mul => target - ea + 127,
                    Aim::Div => ea - target + 127,
                };
                (make32(sa, if aim == Aim::Add { r.range(0, 3) } else { ea }, fa), make32(sb, eb, fraction(&mut r, 23)))
            }
            5 => (make32(sa, 0, fa), make32(sb, r.range(0, 254), fraction(&mut r, 23))),
            6 => (make32(sa, r.range(0, 254), fa), make32(sb, 0, fraction(&mut r, 23))),
            _ => {
                let b = f32::from_bits(make32(sb, ea, fa) as u32);
                let q = ((r.next() >> r.range(44, 63)) | 1) as f32 * 2f32.powi(r.range(-20, 20) as i32);
                let q = if sa { -q } else { q };
                ((b * q).to_bits() as u64, b.to_bits() as u64)
            }
        }
    }));
    v
}

/// Integers for the conversions: log-uniform magnitudes of both signs, the edges of every integer type,
/// and values just around the rounding points of binary64 (2^53 and up) and binary32 (2^24 and up).
fn ints(n: usize, seed: u64) -> Vec<(u64, u64)> {
    let mut edges: Vec<u64> = vec![0, 1, 2, 3, u64::MAX, u64::MAX - 1, 1 << 63, (1 << 63) - 1, (1 << 63) + 1];
    for k in [24u32, 31, 32, 53, 54] {
        for d in [-1i64, 0, 1] {
            edges.push(((1u64 << k) as i64 + d) as u64);
            edges.push((-((1u64 << k) as i64) + d) as u64);
        }
    }
    edges.extend([i32::MIN as i64 as u64, i32::MAX as u64, u32::MAX as u64, i32::MIN as u32 as u64]);
    let mut v: Vec<(u64, u64)> = edges.iter().map(|&x| (x, 0)).collect();
    v.par_extend((0..n as u64).into_par_iter().map(|i| {
        let mut r = Rng::new(seed ^ i.wrapping_mul(0xD1B5_4A32_D192_ED03));
        let x = match r.below(4) {
            0 => r.next(),
            1 => r.next() >> r.below(64),
            // Around a tie of a `p`-bit format: bit k set, the bit p below it, give or take one.
            _ => {
                let p = if r.sign() { 53 } else { 24 };
                let k = r.range(p, 63) as u32;
                let low = r.next() & ((1u64 << (k - p as u32)) - 1) & !((1u64 << r.below((k - p as u32) as u64)) - 1);
                let body = (r.next() >> (64 - k)) & !((1u64 << (k - p as u32 + 1)) - 1);
                ((1u64 << k) | body | (1 << (k - p as u32)) | low).wrapping_add(r.range(-1, 1) as u64)
            }
        };
        (if r.below(4) == 0 { x.wrapping_neg() } else { x }, 0)
    }));
    v
}

/// binary64 values for the conversions to integers and binary32: around integers (halves, the edges of
/// i32 and i64), the binary32 range with its ties, and anything else.
fn conv64(n: usize, seed: u64) -> Vec<(u64, u64)> {
    let mut v: Vec<(u64, u64)> = specials64().into_iter().map(|x| (x, 0)).collect();
    v.par_extend((0..n as u64).into_par_iter().map(|i| {
        let mut r = Rng::new(seed ^ i.wrapping_mul(0xD1B5_4A32_D192_ED03));
        let s = r.sign();
        let x = match r.below(6) {
            0 => r.next(),
            // Integer-sized magnitudes, 0.5 up to 2^65.
            1 => make64(s, r.range(1022, 1088), fraction(&mut r, 52)),
            // Integers near the i32 / i64 edges, with small fractions.
            2 => {
                let k = if r.sign() { 31 } else { 63 };
                let base = 2f64.powi(k) + r.range(-3, 3) as f64;
                let x = base + r.range(-4, 4) as f64 * 0.25;
                (if s { -x } else { x }).to_bits()
            }
            // binary32 range and ties: the 29 dropped bits at, just below or just above halfway.
            3 => {
                let frac = (fraction(&mut r, 23) << 29) | (1 << 28);
                let frac = frac.wrapping_add(r.range(-1, 1) as u64);
                make64(s, r.range(1023 - 160, 1023 + 130), frac)
            }
            4 => make64(s, r.range(1023 - 160, 1023 + 130), fraction(&mut r, 52)),
            _ => make64(s, r.range(0, 2047), fraction(&mut r, 52)),
        };
        (x, 0)
    }));
    v
}

/// binary32 values for the conversions (all classes; stressing fractions).
fn conv32(n: usize, seed: u64) -> Vec<(u64, u64)> {
    let mut v: Vec<(u64, u64)> = specials32().into_iter().map(|x| (x, 0)).collect();
    v.par_extend((0..n as u64).into_par_iter().map(|i| {
        let mut r = Rng::new(seed ^ i.wrapping_mul(0xD1B5_4A32_D192_ED03));
        let s = r.sign();
        let x = match r.below(3) {
            0 => r.next() >> 32,
            1 => make32(s, r.range(120, 192), fraction(&mut r, 23)),
            _ => make32(s, r.range(0, 255), fraction(&mut r, 23)),
        };
        (x, 0)
    }));
    v
}

// ---------------------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------------------

const N: usize = 1 << 22;

fn f(x: u64) -> f64 {
    f64::from_bits(x)
}

fn g(x: u64) -> f32 {
    f32::from_bits(x as u32)
}

#[test]
fn binary64_add_sub_match_the_cpu() {
    let p = pairs64(N, Aim::Add, 1);
    println!("f64_add: {} exact ties among the pairs", ties64(&p, false));
    check("f64_add", ADD64, Res::F64, &p, |a, b| (f(a) + f(b)).to_bits());
    check("f64_sub", SUB64, Res::F64, &p, |a, b| (f(a) - f(b)).to_bits());
}

#[test]
fn binary64_mul_matches_the_cpu() {
    let p = pairs64(N, Aim::Mul, 2);
    println!("f64_mul: {} exact ties among the pairs", ties64(&p, true));
    check("f64_mul", MUL64, Res::F64, &p, |a, b| (f(a) * f(b)).to_bits());
}

#[test]
fn binary64_div_matches_the_cpu() {
    check("f64_div", DIV64, Res::F64, &pairs64(N, Aim::Div, 3), |a, b| (f(a) / f(b)).to_bits());
}

#[test]
fn binary64_comparisons_min_max_sign_match_the_cpu() {
    let mut p = pairs64(N / 4, Aim::Add, 4);
    // Equal values and the two zeros, which only comparisons tell apart from near neighbours.
    let mut r = Rng::new(44);
    p.extend((0..1 << 16).map(|_| {
        let x = r.next();
        (x, if r.sign() { x } else { x ^ 1 })
    }));
    p.extend([(0, 1 << 63), (1 << 63, 0)]);
    check("f64_lt", LT64, Res::Bits, &p, |a, b| (f(a) < f(b)) as u64);
    check("f64_le", LE64, Res::Bits, &p, |a, b| (f(a) <= f(b)) as u64);
    check("f64_gt", GT64, Res::Bits, &p, |a, b| (f(a) > f(b)) as u64);
    check("f64_ge", GE64, Res::Bits, &p, |a, b| (f(a) >= f(b)) as u64);
    check("f64_eq", EQ64, Res::Bits, &p, |a, b| (f(a) == f(b)) as u64);
    // C's MIN / MAX macros, bit for bit (which zero, which NaN).
    check("f64_min", MIN64, Res::Bits, &p, |a, b| if f(a) < f(b) { a } else { b });
    check("f64_max", MAX64, Res::Bits, &p, |a, b| if f(a) > f(b) { a } else { b });
    check("f64_neg", NEG64, Res::Bits, &p, |a, _| (-f(a)).to_bits());
    check("f64_abs", ABS64, Res::Bits, &p, |a, _| f(a).abs().to_bits());
}

#[test]
fn binary64_conversions_match_the_cpu() {
    let x = conv64(N, 5);
    check("f64_to_i32", TO_I32_64, Res::Bits, &x, |a, _| f(a) as i32 as u32 as u64);
    check("f64_to_i64", TO_I64_64, Res::Bits, &x, |a, _| f(a) as i64 as u64);
    check("f64_to_f32", TO_F32_64, Res::F32, &x, |a, _| (f(a) as f32).to_bits() as u64);
    let i = ints(N, 6);
    check("f64_from_i32", FROM_I32_64, Res::Bits, &i, |a, _| (a as u32 as i32 as f64).to_bits());
    check("f64_from_u32", FROM_U32_64, Res::Bits, &i, |a, _| (a as u32 as f64).to_bits());
    check("f64_from_i64", FROM_I64_64, Res::Bits, &i, |a, _| (a as i64 as f64).to_bits());
    check("f64_from_u64", FROM_U64_64, Res::Bits, &i, |a, _| (a as f64).to_bits());
}

#[test]
fn binary32_arithmetic_matches_the_cpu() {
    let p = pairs32(N, Aim::Add, 7);
    check("f32_add", ADD32, Res::F32, &p, |a, b| (g(a) + g(b)).to_bits() as u64);
    check("f32_sub", SUB32, Res::F32, &p, |a, b| (g(a) - g(b)).to_bits() as u64);
    check("f32_mul", MUL32, Res::F32, &pairs32(N, Aim::Mul, 8), |a, b| (g(a) * g(b)).to_bits() as u64);
    check("f32_div", DIV32, Res::F32, &pairs32(N, Aim::Div, 9), |a, b| (g(a) / g(b)).to_bits() as u64);
    check("f32_lt", LT32, Res::Bits, &p, |a, b| (g(a) < g(b)) as u64);
    check("f32_le", LE32, Res::Bits, &p, |a, b| (g(a) <= g(b)) as u64);
    check("f32_eq", EQ32, Res::Bits, &p, |a, b| (g(a) == g(b)) as u64);
    check("f32_min", MIN32, Res::Bits, &p, |a, b| if g(a) < g(b) { a } else { b });
    check("f32_max", MAX32, Res::Bits, &p, |a, b| if g(a) > g(b) { a } else { b });
}

#[test]
fn binary32_conversions_match_the_cpu() {
    let x = conv32(N, 10);
    check("f32_to_f64", TO_F64_32, Res::F64, &x, |a, _| (g(a) as f64).to_bits());
    check("f32_to_i32", TO_I32_32, Res::Bits, &x, |a, _| g(a) as i32 as u32 as u64);
    check("f32_to_i64", TO_I64_32, Res::Bits, &x, |a, _| g(a) as i64 as u64);
    let i = ints(N, 11);
    check("f32_from_i32", FROM_I32_32, Res::Bits, &i, |a, _| (a as u32 as i32 as f32).to_bits() as u64);
    check("f32_from_u32", FROM_U32_32, Res::Bits, &i, |a, _| (a as u32 as f32).to_bits() as u64);
    check("f32_from_i64", FROM_I64_32, Res::Bits, &i, |a, _| (a as i64 as f32).to_bits() as u64);
    check("f32_from_u64", FROM_U64_32, Res::Bits, &i, |a, _| (a as f32).to_bits() as u64);
}

/// [`recip_approx`] transcribed to Rust: the same operations, wrapping like the device.
fn recip_model(d: u64) -> u64 {
    const HALF: u64 = 1 << 63;
    let x0 = 6_063_483_241u64 - ((4_042_322_161u64 * d) >> 32);
    let p0 = d * x0;
    let over = p0 > HALF;
    let err0 = if over { p0 - HALF } else { HALF - p0 } >> 31;
    let corr0 = (x0 * err0) >> 32;
    let x1 = if over { x0 - corr0 - 2 } else { x0 + corr0 };
    let x2 = x1 + ((x1 * ((HALF - d * x1) >> 31)) >> 32);
    x2 + ((x2 * ((HALF - d * x2) >> 31)) >> 32)
}

/// The division's digit estimates rely on the reciprocal never exceeding `2^63 / d` and missing it by
/// less than 2^-29 relatively: checked here for every one of the 2^31 divisors, on the Rust transcription,
/// and the transcription against the device on a sample.
#[test]
fn reciprocal_estimate_is_below_and_close_for_every_divisor() {
    let worst = ((1u64 << 31) + 1..=1u64 << 32)
        .into_par_iter()
        .map(|d| {
            let x = recip_model(d) as u128;
            let p = x * d as u128;
            assert!(p <= 1 << 63, "reciprocal of {d} too large: {x}");
            (1u128 << 63) - p
        })
        .max()
        .unwrap();
    // Relative error (2^63 - x d) / 2^63 < 2^-29.
    println!("reciprocal: worst shortfall {worst} = 2^{:.2} of 2^63", (worst as f64).log2());
    assert!(worst < 1 << 34);
    let mut r = Rng::new(12);
    let mut p: Vec<(u64, u64)> = vec![((1 << 31) + 1, 0), ((1 << 31) + 2, 0), (1 << 32, 0), ((1 << 32) - 1, 0)];
    p.extend((0..1 << 20).map(|_| ((1 << 31) + 1 + r.below(1 << 31), 0)));
    check("recip_approx", RECIP, Res::Bits, &p, |d, _| recip_model(d));
}

// ---------------------------------------------------------------------------------------------------------
// The expressions of vif_stats and adm_decouple, composed from the operations as their kernels will
// ---------------------------------------------------------------------------------------------------------

/// 4096.0: adm_decouple's scale of the angle test.
const K4096: u64 = 0x40B0_0000_0000_0000;

/// vif_stats' per-pixel floats (see `vif_stats/mod.rs`), libvmaf's order: `sv_sq` (before its
/// `MAX(sv_sq, 0)`) and `(int64_t)(g * g * sigma1_sq)`.
#[derive(CubeType, Clone, Copy)]
struct VifFloats {
    sv_sq: i32,
    numer1_tmp: i64,
}

#[cube]
fn vif_floats(s1: i32, s2: i32, s12: i32, eps: u64, gain_limit: u64) -> VifFloats {
    let s1f = f64_from_i32(s1);
    let s12f = f64_from_i32(s12);
    let g = f64_div(s12f, f64_add(s1f, eps));
    let sv_sq = f64_to_i32(f64_sub(f64_from_i32(s2), f64_mul(g, s12f)));
    let gl = f64_min(g, gain_limit);
    VifFloats { sv_sq, numer1_tmp: f64_to_i64(f64_mul(f64_mul(gl, gl), s1f)) }
}

/// `a` holds sigma1_sq (low) and sigma2_sq (high), `b` sigma12; writes [`vif_floats()`]' two results.
#[cube(launch_unchecked)]
fn vif_kernel(a: &Array<u64>, b: &Array<u64>, out: &mut Array<u64>, n: u32, eps: u64, gain_limit: u64) {
    let i = crate::kernel::linear_index();
    if i < n as usize {
        let s1 = i32::cast_from(u32::cast_from(a[i]));
        let s2 = i32::cast_from(u32::cast_from(a[i] >> 32u64));
        let v = vif_floats(s1, s2, i32::cast_from(u32::cast_from(b[i])), eps, gain_limit);
        out[2 * i] = u64::cast_from(u32::cast_from(v.sv_sq));
        out[2 * i + 1] = u64::cast_from(v.numer1_tmp);
    }
}

/// `x` (the low 32 bits of `v`, two's complement) sign-extended to 64 bits, in u64 arithmetic.
#[cube]
fn sext(v: u64) -> u64 {
    ((v & 0xFFFF_FFFFu64) ^ 0x8000_0000u64) - 0x8000_0000u64
}

/// adm_decouple's angle test: `a` holds oh (low) and ov (high), `b` th and tv; `c` is cos(1 deg)^2 as
/// binary64. Integer products in wrapping 64-bit arithmetic, then libvmaf's float steps.
#[cube]
fn adm_angle_ok(a: u64, b: u64, c: u64) -> bool {
    let oh = sext(a);
    let ov = sext(a >> 32u64);
    let th = sext(b);
    let tv = sext(b >> 32u64);
    let dp = oh * th + ov * tv;
    let o2 = oh * oh + ov * ov;
    let t2 = th * th + tv * tv;
    let x = f64_div(f32_to_f64(f32_from_i64(i64::cast_from(dp))), K4096);
    let o = f64_div(f32_to_f64(f32_from_i64(i64::cast_from(o2))), K4096);
    let t = f64_div(f32_to_f64(f32_from_i64(i64::cast_from(t2))), K4096);
    f64_ge(x, 0u64) && f64_ge(f64_mul(x, x), f64_mul(f64_mul(c, o), t))
}

#[cube(launch_unchecked)]
fn adm_angle(a: &Array<u64>, b: &Array<u64>, out: &mut Array<u64>, n: u32, c: u64) {
    let i = crate::kernel::linear_index();
    if i < n as usize {
        out[i] = select(adm_angle_ok(a[i], b[i], c), 1u64, 0u64);
    }
}

/// adm_decouple's enhancement gain limit: `a` holds r (low) and t (high), `b` the sign of `k * o` (1:
/// positive); writes `(int64)MIN(r * limit, t)` for a positive product, `MAX` for a negative one.
#[cube(launch_unchecked)]
fn adm_limit(a: &Array<u64>, b: &Array<u64>, out: &mut Array<u64>, n: u32, limit: u64) {
    let i = crate::kernel::linear_index();
    if i < n as usize {
        let r = f64_from_i32(i32::cast_from(u32::cast_from(a[i])));
        let t = f64_from_i32(i32::cast_from(u32::cast_from(a[i] >> 32u64)));
        let x = f64_mul(r, limit);
        let v = select(b[i] == 1u64, f64_min(x, t), f64_max(x, t));
        out[i] = u64::cast_from(f64_to_i64(v));
    }
}

#[test]
fn expression_constants_are_libvmafs() {
    assert_eq!(EPS_BITS, EPS.to_bits());
    assert_eq!(GAIN_100, 100.0f64.to_bits());
    assert_eq!(COS_1DEG_SQ, (cos_1deg_sq() as f64).to_bits());
    assert_eq!(K4096, 4096.0f64.to_bits());
}

/// Which composite kernel [`run_composite`] launches.
#[derive(Clone, Copy)]
enum Composite {
    Vif { eps: f64, gain_limit: f64 },
    AdmAngle { c: f64 },
    AdmLimit { limit: f64 },
}

fn run_composite(k: Composite, a: &[u64], b: &[u64]) -> Vec<u64> {
    let client = client();
    let per = if matches!(k, Composite::Vif { .. }) { 2 } else { 1 };
    let mut out = Vec::with_capacity(a.len() * per);
    for (ca, cb) in a.chunks(CHUNK).zip(b.chunks(CHUNK)) {
        let n = ca.len();
        let ha = client.create_from_slice(u64::as_bytes(ca));
        let hb = client.create_from_slice(u64::as_bytes(cb));
        let ho = client.empty(n * 8 * per);
        let (count, dim) = linear_launch(n);
        // SAFETY: unit i reads index i of buffers holding n u64 and writes index i (or 2i, 2i + 1) of one
        // holding n (2n).
        unsafe {
            let (ia, ib, io) = (
                ArrayArg::from_raw_parts(ha, n),
                ArrayArg::from_raw_parts(hb, n),
                ArrayArg::from_raw_parts(ho.clone(), n * per),
            );
            match k {
                Composite::Vif { eps, gain_limit } => vif_kernel::launch_unchecked::<TestRuntime>(
                    &client,
                    count,
                    dim,
                    ia,
                    ib,
                    io,
                    n as u32,
                    eps.to_bits(),
                    gain_limit.to_bits(),
                ),
                Composite::AdmAngle { c } => {
                    adm_angle::launch_unchecked::<TestRuntime>(&client, count, dim, ia, ib, io, n as u32, c.to_bits())
                }
                Composite::AdmLimit { limit } => adm_limit::launch_unchecked::<TestRuntime>(
                    &client,
                    count,
                    dim,
                    ia,
                    ib,
                    io,
                    n as u32,
                    limit.to_bits(),
                ),
            }
        };
        out.extend_from_slice(u64::from_bytes(&client.read_one(ho).expect("read back")));
    }
    out
}

/// An i32 as the low or high half of a lane.
fn lane(lo: i32, hi: i32) -> u64 {
    lo as u32 as u64 | (hi as u32 as u64) << 32
}

fn assert_same(name: &str, want: &[u64], got: &[u64]) {
    let bad = want.iter().zip(got).filter(|(w, g)| w != g).count();
    if let Some(i) = (0..want.len()).find(|&i| want[i] != got[i]) {
        eprintln!("{name}: first difference at {i}: want {:#x} got {:#x}", want[i], got[i]);
    }
    assert_eq!(bad, 0, "{name}: {bad} of {} results differ from the CPU", want.len());
    println!("{name}: {} results identical to the CPU", want.len());
}

/// The vif_stats expressions over sigma values in the ranges the op produces (sigma1_sq >= 2^17 and
/// positive sigma12, sigma2_sq where the log branch is taken) and anywhere in i32 (a branch-free kernel
/// evaluates them on every pixel), for the default and other gain limits.
#[test]
fn vif_stats_expressions_match_the_cpu() {
    let cases: Vec<(i32, i32, i32)> = (0..N as u64)
        .into_par_iter()
        .map(|i| {
            let mut r = Rng::new(0x5EED ^ i.wrapping_mul(0xD1B5_4A32_D192_ED03));
            match r.below(4) {
                0 => (r.next() as i32, r.next() as i32, r.next() as i32),
                1 => (
                    log_int(&mut r, 31, true) as i32,
                    log_int(&mut r, 31, true) as i32,
                    log_int(&mut r, 31, true) as i32,
                ),
                // The log branch: sigma1_sq >= 2^17, sigma12 and sigma2_sq positive; sigma2_sq close to
                // g * sigma12, where the truncation to int is decided.
                _ => {
                    let s1 = r.range(1 << 17, i32::MAX as i64) as i32;
                    let s12 = (log_int(&mut r, 31, false) as i32).max(1);
                    let g = s12 as f64 / (s1 as f64 + EPS);
                    let s2 = ((g * s12 as f64) as i64 + r.range(-2, 2)).clamp(1, i32::MAX as i64) as i32;
                    (s1, s2, s12)
                }
            }
        })
        .collect();
    let a: Vec<u64> = cases.iter().map(|&(s1, s2, _)| lane(s1, s2)).collect();
    let b: Vec<u64> = cases.iter().map(|&(_, _, s12)| s12 as u32 as u64).collect();
    for gain_limit in [100.0, 1.0, 37.25, 1.0 + f64::EPSILON] {
        let got = run_composite(Composite::Vif { eps: EPS, gain_limit }, &a, &b);
        let want: Vec<u64> = cases
            .par_iter()
            .flat_map_iter(|&(s1, s2, s12)| {
                // libvmaf's order; Rust never fuses a * b + c.
                let g = s12 as f64 / (s1 as f64 + EPS);
                let sv_sq = (s2 as f64 - g * s12 as f64) as i32;
                let g = if g < gain_limit { g } else { gain_limit };
                [sv_sq as u32 as u64, (g * g * s1 as f64) as i64 as u64]
            })
            .collect();
        assert_same(&format!("vif_stats floats, gain_limit {gain_limit}"), &want, &got);
    }
}

/// adm_decouple's angle test over band values of i16 (scale 0) and i32 range (scales 1-3), and pairs
/// built at about one degree, where the comparison is decided in the last bits.
#[test]
fn adm_decouple_angle_test_matches_the_cpu() {
    let c = cos_1deg_sq();
    let cases: Vec<[i32; 4]> = (0..N as u64)
        .into_par_iter()
        .map(|i| {
            let mut r = Rng::new(0xAD3 ^ i.wrapping_mul(0xD1B5_4A32_D192_ED03));
            let bits = if r.sign() { 16 } else { 32 };
            let v = |r: &mut Rng| log_int(r, bits - 1, true) as i32;
            let (oh, ov) = (v(&mut r), v(&mut r));
            match r.below(3) {
                0 => [oh, ov, v(&mut r), v(&mut r)],
                1 => [oh, ov, r.next() as i32, r.next() as i32],
                // t = s * rotate(o, ~1 degree): the flag flips in this neighbourhood.
                _ => {
                    let ang =
                        (1.0 + (r.below(2001) as f64 - 1000.0) * 1e-6).to_radians() * if r.sign() { 1.0 } else { -1.0 };
                    let s = 0.25 + r.below(1 << 20) as f64 / (1 << 18) as f64;
                    let max = if bits == 16 { i16::MAX as f64 } else { i32::MAX as f64 };
                    let th = (s * (oh as f64 * ang.cos() - ov as f64 * ang.sin())).clamp(-max, max) as i32;
                    let tv = (s * (oh as f64 * ang.sin() + ov as f64 * ang.cos())).clamp(-max, max) as i32;
                    [oh, ov, th, tv]
                }
            }
        })
        .collect();
    let a: Vec<u64> = cases.iter().map(|q| lane(q[0], q[1])).collect();
    let b: Vec<u64> = cases.iter().map(|q| lane(q[2], q[3])).collect();
    let got = run_composite(Composite::AdmAngle { c: c as f64 }, &a, &b);
    let want: Vec<u64> = cases
        .par_iter()
        .map(|&[oh, ov, th, tv]| {
            let (oh, ov, th, tv) = (oh as i64, ov as i64, th as i64, tv as i64);
            let dp = oh.wrapping_mul(th).wrapping_add(ov.wrapping_mul(tv));
            let o2 = oh.wrapping_mul(oh).wrapping_add(ov.wrapping_mul(ov));
            let t2 = th.wrapping_mul(th).wrapping_add(tv.wrapping_mul(tv));
            let x = (dp as f32) as f64 / 4096.0;
            (x >= 0.0 && x * x >= c as f64 * ((o2 as f32) as f64 / 4096.0) * ((t2 as f32) as f64 / 4096.0)) as u64
        })
        .collect();
    let flips = want.iter().filter(|&&w| w == 1).count();
    assert_same(&format!("adm_decouple angle test ({flips} true)"), &want, &got);
}

/// adm_decouple's gain limit for integral and fractional limits, both signs of `k * o`.
#[test]
fn adm_decouple_gain_limit_matches_the_cpu() {
    let cases: Vec<(i32, i32, bool)> = (0..N as u64 / 4)
        .into_par_iter()
        .map(|i| {
            let mut r = Rng::new(0x6A1 ^ i.wrapping_mul(0xD1B5_4A32_D192_ED03));
            let rr = log_int(&mut r, 31, true) as i32;
            let t = if r.below(4) == 0 { r.next() as i32 } else { log_int(&mut r, 31, true) as i32 };
            (rr, t, r.sign())
        })
        .collect();
    let a: Vec<u64> = cases.iter().map(|&(rr, t, _)| lane(rr, t)).collect();
    let b: Vec<u64> = cases.iter().map(|&(_, _, p)| p as u64).collect();
    for limit in [100.0, 1.0, 1.5, 3.3, 99.99] {
        let got = run_composite(Composite::AdmLimit { limit }, &a, &b);
        let want: Vec<u64> = cases
            .par_iter()
            .map(|&(rr, t, positive)| {
                let (x, tf) = (rr as f64 * limit, t as f64);
                (if positive { x.min(tf) } else { x.max(tf) }) as i64 as u64
            })
            .collect();
        assert_same(&format!("adm_decouple gain limit {limit}"), &want, &got);
    }
}

// ---------------------------------------------------------------------------------------------------------
// Cost per operation
// ---------------------------------------------------------------------------------------------------------

const BASELINE: u32 = 99;

/// Applies `op` `iters` times per unit to operands that change every iteration (the integer increment of
/// the first operand's bits moves its last fraction bits), XOR-folding the results so none is dead code.
/// `BASELINE` does the same with no operation, to subtract the loop's own cost.
#[cube(launch_unchecked)]
fn repeat(a: &Array<u64>, b: &Array<u64>, out: &mut Array<u64>, n: u32, iters: u32, #[comptime] op: u32) {
    let i = crate::kernel::linear_index();
    if i < n as usize {
        let x = a[i];
        let y = b[i];
        let mut acc = 0u64;
        for k in 0..iters {
            let xk = x + u64::cast_from(k);
            if comptime![op == BASELINE] {
                acc ^= xk ^ y;
            } else {
                acc ^= apply_op(xk, y, op);
            }
        }
        out[i] = acc;
    }
}

/// Seconds for one launch of `repeat`: the fastest of 7, after a warm-up that compiles it (the fastest, not
/// the median, because on a shared CPU device other work only ever adds time).
fn time_repeat(op: u32, a: &[u64], b: &[u64], iters: u32) -> f64 {
    let client = client();
    let n = a.len();
    let ha = client.create_from_slice(u64::as_bytes(a));
    let hb = client.create_from_slice(u64::as_bytes(b));
    let ho = client.empty(n * 8);
    let launch = || {
        let (count, dim) = linear_launch(n);
        // SAFETY: unit i reads and writes index i < n of buffers holding n u64.
        unsafe {
            repeat::launch_unchecked::<TestRuntime>(
                &client,
                count,
                dim,
                ArrayArg::from_raw_parts(ha.clone(), n),
                ArrayArg::from_raw_parts(hb.clone(), n),
                ArrayArg::from_raw_parts(ho.clone(), n),
                n as u32,
                iters,
                op,
            )
        };
        cubecl::future::block_on(client.sync()).expect("sync");
    };
    launch();
    (0..7)
        .map(|_| {
            let s = std::time::Instant::now();
            launch();
            s.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// Device time per operation and unit, on operands of the kind vif_stats and adm_decouple meet (normal
/// numbers, integers, band values): `cargo test --release --features wgpu softfloat::tests::cost --
/// --ignored --nocapture` (`SOFTFLOAT_BENCH_UNITS` sets the units per launch, 2^18 by default; a large GPU
/// wants 2^22). Three rounds, each timing the empty loop next to every operation, keep the fastest time of
/// each: the difference is the operation's cost.
#[test]
#[ignore = "timing, not a check"]
fn cost_per_operation() {
    let n: usize = std::env::var("SOFTFLOAT_BENCH_UNITS").ok().and_then(|v| v.parse().ok()).unwrap_or(1 << 18);
    let iters = 256;
    let mut r = Rng::new(77);
    let mut normal = |lo: i64, hi: i64| make64(r.sign(), 1023 + r.range(lo, hi), r.next());
    let a: Vec<u64> = (0..n).map(|_| normal(-20, 31)).collect();
    let b: Vec<u64> = (0..n).map(|_| normal(-20, 31)).collect();
    let ints: Vec<u64> = a.iter().map(|&x| f64::from_bits(x) as i64 as u64).collect();
    let f32s: Vec<u64> = a.iter().map(|&x| (f64::from_bits(x) as f32).to_bits() as u64).collect();
    let mut r = Rng::new(78);
    // vif: sigma1_sq >= 2^17, sigma2_sq and sigma12 positive; adm: band values of scale 1 (i32 range).
    let vif_a: Vec<u64> =
        (0..n).map(|_| lane(r.range(1 << 17, 1 << 30) as i32, log_int(&mut r, 30, false) as i32)).collect();
    let vif_b: Vec<u64> = (0..n).map(|_| log_int(&mut r, 30, false) as u64).collect();
    let band = |r: &mut Rng| lane(log_int(r, 20, true) as i32, log_int(r, 20, true) as i32);
    let adm_a: Vec<u64> = (0..n).map(|_| band(&mut r)).collect();
    let adm_b: Vec<u64> = (0..n).map(|_| band(&mut r)).collect();
    let ops: [(&str, u32, &[u64], &[u64]); 19] = [
        ("f64_add", ADD64, &a, &b),
        ("f64_sub", SUB64, &a, &b),
        ("f64_mul", MUL64, &a, &b),
        ("f64_div", DIV64, &a, &b),
        ("f64_lt", LT64, &a, &b),
        ("f64_min", MIN64, &a, &b),
        ("f64_to_i32", TO_I32_64, &a, &b),
        ("f64_to_i64", TO_I64_64, &a, &b),
        ("f64_to_f32", TO_F32_64, &a, &b),
        ("f64_from_i32", FROM_I32_64, &ints, &b),
        ("f64_from_i64", FROM_I64_64, &ints, &b),
        ("f32_from_i64", FROM_I64_32, &ints, &b),
        ("f32_to_f64", TO_F64_32, &f32s, &b),
        ("f32_add", ADD32, &f32s, &f32s),
        ("f32_mul", MUL32, &f32s, &f32s),
        ("f32_div", DIV32, &f32s, &f32s),
        ("f32_lt", LT32, &f32s, &f32s),
        ("vif_stats floats", VIF_EXPR, &vif_a, &vif_b),
        ("adm angle test", ADM_ANGLE_EXPR, &adm_a, &adm_b),
    ];
    let mut base = f64::INFINITY;
    let mut best = [f64::INFINITY; 19];
    for _ in 0..3 {
        for (k, &(_, op, x, y)) in ops.iter().enumerate() {
            base = base.min(time_repeat(BASELINE, x, y, iters));
            best[k] = best[k].min(time_repeat(op, x, y, iters));
        }
    }
    println!("{n} units x {iters} operations per launch; empty loop {:.2} ms", base * 1e3);
    println!("{:<18} {:>10} {:>10}", "operation", "ns / op", "Gop/s");
    for (k, &(name, ..)) in ops.iter().enumerate() {
        let per = (best[k] - base).max(0.0) / (n as f64 * iters as f64);
        println!("{name:<18} {:>10.4} {:>10.2}", per * 1e9, 1e-9 / per);
    }
}
