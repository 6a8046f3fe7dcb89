//! The `#[cube]` functions of [`crate::softfloat`]: IEEE-754 binary64 and binary32 arithmetic on the bit
//! patterns (`u64` and `u32`), in integer operations only. See the module docs for the contract.
//!
//! Internal convention for results before rounding (both formats): a sign (as the format's sign bit), a
//! biased exponent `e` as i32 (any value: below 1 means the result is subnormal or underflows, at or above
//! the format's all-ones exponent means it overflows) and a significand `sig` whose leading bit sits at bit
//! 62 (binary64, in a u64) or bit 30 (binary32, in a u32), so that the value is `sig / 2^62 * 2^(e - bias)`
//! (resp. `/ 2^30`). The bits below the format's last significand bit (10 for binary64, 7 for binary32) are
//! the round bits, their lowest one "jammed": set when any bit shifted out below it was set. That is
//! enough to round to nearest-even exactly, and it lets every operation keep a fixed-width significand.

use cubecl::prelude::*;

/// The sign bit of a binary64.
pub const F64_SIGN: u64 = 0x8000_0000_0000_0000;
/// Everything but the sign bit (`bits & F64_ABS` is `|x|`).
pub const F64_ABS: u64 = 0x7FFF_FFFF_FFFF_FFFF;
/// +infinity; the exponent field mask.
pub const F64_INF: u64 = 0x7FF0_0000_0000_0000;
/// The NaN produced by invalid operations (inf - inf, 0 * inf, 0 / 0, inf / inf).
pub const F64_DEFAULT_NAN: u64 = 0x7FF8_0000_0000_0000;
/// The bit that makes a NaN quiet.
const F64_QUIET: u64 = 0x0008_0000_0000_0000;
const F64_FRAC: u64 = 0x000F_FFFF_FFFF_FFFF;
/// The implicit leading significand bit of normal numbers.
const F64_HIDDEN: u64 = 0x0010_0000_0000_0000;

/// The sign bit of a binary32.
pub const F32_SIGN: u32 = 0x8000_0000;
/// Everything but the sign bit.
pub const F32_ABS: u32 = 0x7FFF_FFFF;
/// +infinity; the exponent field mask.
pub const F32_INF: u32 = 0x7F80_0000;
/// The NaN produced by invalid operations.
pub const F32_DEFAULT_NAN: u32 = 0x7FC0_0000;
const F32_FRAC: u32 = 0x007F_FFFF;

// ---------------------------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------------------------

/// 1 if `c`, else 0.
#[cube]
fn bit64(c: bool) -> u64 {
    select(c, 1u64, 0u64)
}

#[cube]
fn bit32(c: bool) -> u32 {
    select(c, 1u32, 0u32)
}

/// `x >> n` with every bit shifted out ORed into bit 0, for any `n`. Shifting by 63 already keeps only
/// "was x nonzero" (bit 63 itself and the jam of the rest), which is also the answer for every larger `n`,
/// so `n` is clamped instead of branching (and no shift reaches 64, which WGSL and C leave undefined).
#[cube]
fn shr_jam64(x: u64, n: u32) -> u64 {
    let s = u64::cast_from(select(n < 63u32, n, 63u32));
    let lost = x & ((1u64 << s) - 1u64);
    (x >> s) | bit64(lost != 0u64)
}

/// [`shr_jam64()`] for u32.
#[cube]
fn shr_jam32(x: u32, n: u32) -> u32 {
    let s = select(n < 31u32, n, 31u32);
    let lost = x & ((1u32 << s) - 1u32);
    (x >> s) | bit32(lost != 0u32)
}

/// The biased exponent field of a binary64.
#[cube]
fn exp64(a: u64) -> i32 {
    i32::cast_from(u32::cast_from(a >> 52u64) & 0x7FFu32)
}

/// The biased exponent field of a binary32.
#[cube]
fn exp32(a: u32) -> i32 {
    i32::cast_from((a >> 23u32) & 0xFFu32)
}

/// A finite nonzero binary64's magnitude as `sig * 2^(exp - 1075)` with `sig` in `[2^52, 2^53)`:
/// subnormals are normalised (their exponent goes below 1).
#[derive(CubeType, Clone, Copy)]
struct Norm64 {
    exp: i32,
    sig: u64,
}

#[cube]
fn norm64(a: u64) -> Norm64 {
    let e = exp64(a);
    let sub = e == 0i32;
    let raw = select(sub, a & F64_FRAC, (a & F64_FRAC) | F64_HIDDEN);
    // 11 leading zeros for a normal number; a subnormal shifts its leading bit up to bit 52.
    let shift = raw.leading_zeros() - 11u32;
    Norm64 { exp: select(sub, 1i32, e) - i32::cast_from(shift), sig: raw << u64::cast_from(shift) }
}

/// Rounds (to nearest, ties to even) and packs a binary64 from the internal form (see the file docs).
/// `sig` must have its leading bit at 62, or below it only when `e` is 1 (subnormal range, where the rounding
/// position no longer depends on the leading bit); `sig` must not be 0.
#[cube]
fn round_pack64(sign: u64, e: i32, sig: u64) -> u64 {
    let mut s = sig;
    let mut ex = e;
    if e < 1i32 {
        // Subnormal result: the last significand bit is fixed at 2^-1074, i.e. bit 10 of sig at e = 1.
        s = shr_jam64(sig, u32::cast_from(1i32 - e));
        ex = 1i32;
    }
    // Adding 0x1FF rounds up above the halfway point 0x200; the last kept bit breaks the tie to even.
    let rounded = (s + 0x1FFu64 + ((s >> 10u64) & 1u64)) >> 10u64;
    // `rounded` carries its leading bit at 52, which adds 1 to the exponent field: hence `ex - 1`. Rounding
    // up to 2^53 carries into the exponent (to infinity from the largest exponent), and a subnormal that
    // rounds up to 2^52 becomes the smallest normal, both by this same addition.
    let mut r = sign | ((u64::cast_from(u32::cast_from(ex - 1i32)) << 52u64) + rounded);
    if ex >= 0x7FFi32 {
        r = sign | F64_INF;
    }
    r
}

/// [`round_pack64`] for binary32: leading bit of `sig` at 30, 7 round bits.
#[cube]
fn round_pack32(sign: u32, e: i32, sig: u32) -> u32 {
    let mut s = sig;
    let mut ex = e;
    if e < 1i32 {
        s = shr_jam32(sig, u32::cast_from(1i32 - e));
        ex = 1i32;
    }
    let rounded = (s + 0x3Fu32 + ((s >> 7u32) & 1u32)) >> 7u32;
    let mut r = sign | ((u32::cast_from(ex - 1i32) << 23u32) + rounded);
    if ex >= 0xFFi32 {
        r = sign | F32_INF;
    }
    r
}

/// Whether a binary64 is a NaN.
#[cube]
pub fn f64_is_nan(a: u64) -> bool {
    (a & F64_ABS) > F64_INF
}

/// Whether a binary32 is a NaN.
#[cube]
pub fn f32_is_nan(a: u32) -> bool {
    (a & F32_ABS) > F32_INF
}

/// The NaN an operation with a NaN operand returns: `a` quieted if it is a NaN, else `b` quieted (the
/// choice x86 SSE makes; other hardware differs, see the module docs).
#[cube]
fn nan_of64(a: u64, b: u64) -> u64 {
    select(f64_is_nan(a), a, b) | F64_QUIET
}

// ---------------------------------------------------------------------------------------------------------
// binary64 arithmetic
// ---------------------------------------------------------------------------------------------------------

/// `-a` (exact; flips the sign of NaNs too, like x86's `xorpd`).
#[cube]
pub fn f64_neg(a: u64) -> u64 {
    a ^ F64_SIGN
}

/// `|a|`.
#[cube]
pub fn f64_abs(a: u64) -> u64 {
    a & F64_ABS
}

/// `a + b`, correctly rounded (nearest, ties to even).
#[cube]
pub fn f64_add(a: u64, b: u64) -> u64 {
    let ea = exp64(a);
    let eb = exp64(b);
    if ea == 0x7FFi32 || eb == 0x7FFi32 {
        // Infinities and NaNs: inf + inf of opposite signs is invalid, otherwise an infinity wins.
        let a_inf = (a & F64_ABS) == F64_INF;
        let b_inf = (b & F64_ABS) == F64_INF;
        let mut r = select(a_inf, a, b);
        if a_inf && b_inf && a != b {
            r = F64_DEFAULT_NAN;
        }
        if f64_is_nan(a) || f64_is_nan(b) {
            r = nan_of64(a, b);
        }
        r
    } else {
        // Order by magnitude (the bit patterns of finite magnitudes order like the values), so that the
        // larger operand `x` gives the result's sign and the alignment shift is one-sided.
        let swap = (b & F64_ABS) > (a & F64_ABS);
        let x = select(swap, b, a);
        let y = select(swap, a, b);
        let ex = exp64(x);
        let ey = exp64(y);
        // Subnormals have no implicit bit and the exponent of the smallest normals.
        let ex1 = select(ex == 0i32, 1i32, ex);
        let ey1 = select(ey == 0i32, 1i32, ey);
        let sx = select(ex == 0i32, x & F64_FRAC, (x & F64_FRAC) | F64_HIDDEN) << 10u64;
        let sy0 = select(ey == 0i32, y & F64_FRAC, (y & F64_FRAC) | F64_HIDDEN) << 10u64;
        let sy = shr_jam64(sy0, u32::cast_from(ex1 - ey1));
        let sign = x & F64_SIGN;
        let same = ((a ^ b) & F64_SIGN) == 0u64;
        // One path for both signs (no divergence between lanes adding and lanes subtracting): same signs
        // give a sum below 2^64, opposite signs |x| - |y| >= 0.
        let s = select(same, sx + sy, sx - sy);
        // Bring the leading bit to 62: one step right (jamming) after a carry into bit 63, else left by the
        // leading zeros. A left shift that takes the exponent below 1 is undone by round_pack64's right
        // shift, losing nothing: so small a result is exact (a sum of subnormals is; a difference needs
        // operands less than a binade apart, which align without shifting out a bit).
        let lz = s.leading_zeros();
        let carry = lz == 0u32;
        let left = select(carry, 0u32, lz - 1u32); // 63 for s = 0, still a valid shift
        let norm = select(carry, (s >> 1u64) | (s & 1u64), s << u64::cast_from(left));
        let e = select(carry, ex1 + 1i32, ex1 - i32::cast_from(left));
        // Exact cancellation gives +0 (round to nearest); the sum of two zeros of one sign keeps it.
        select(s == 0u64, select(same, sign, 0u64), round_pack64(sign, e, norm))
    }
}

/// `a - b`, correctly rounded.
#[cube]
pub fn f64_sub(a: u64, b: u64) -> u64 {
    f64_add(a, b ^ F64_SIGN)
}

/// `a * b`, correctly rounded.
#[cube]
pub fn f64_mul(a: u64, b: u64) -> u64 {
    let sign = (a ^ b) & F64_SIGN;
    let ea = exp64(a);
    let eb = exp64(b);
    let a_zero = (a & F64_ABS) == 0u64;
    let b_zero = (b & F64_ABS) == 0u64;
    if ea == 0x7FFi32 || eb == 0x7FFi32 || a_zero || b_zero {
        // A zero gives a signed zero, an infinity a signed infinity, both together are invalid.
        let mut r = select(a_zero || b_zero, sign, sign | F64_INF);
        if (ea == 0x7FFi32 || eb == 0x7FFi32) && (a_zero || b_zero) {
            r = F64_DEFAULT_NAN;
        }
        if f64_is_nan(a) || f64_is_nan(b) {
            r = nan_of64(a, b);
        }
        r
    } else {
        let na = norm64(a);
        let nb = norm64(b);
        // The 106-bit product of the 53-bit significands from four 32 x 32 -> 64-bit products.
        let a_lo = na.sig & 0xFFFF_FFFFu64;
        let a_hi = na.sig >> 32u64;
        let b_lo = nb.sig & 0xFFFF_FFFFu64;
        let b_hi = nb.sig >> 32u64;
        let ll = a_lo * b_lo;
        let mid = a_hi * b_lo + a_lo * b_hi; // each below 2^53: no overflow
        let lo = ll + (mid << 32u64);
        let hi = a_hi * b_hi + (mid >> 32u64) + bit64(lo < ll);
        // The product is in [2^104, 2^106): its top 64 bits from bit 42, the rest jammed, give a leading
        // bit at 62 or 63; the latter shifts back by one.
        let s = (hi << 22u64) | (lo >> 42u64) | bit64((lo & 0x3FF_FFFF_FFFFu64) != 0u64);
        let top = s >> 63u64;
        let e = na.exp + nb.exp - 1023i32 + i32::cast_from(u32::cast_from(top));
        round_pack64(sign, e, (s >> top) | (s & top))
    }
}

/// A 32-bit approximation `x` of `2^63 / d`, for `d` in `(2^31, 2^32]`, that never exceeds it: relative
/// error below 2^-29 (checked exhaustively by the tests, which transcribe this function in Rust).
///
/// A linear start `48/17 - 32/17 * d/2^32` (relative error within 1/17 either way), then three Newton
/// steps `x += x * (1 - d x)`. The first starts from either side and ends below the reciprocal (Newton's
/// map for 1/d has its maximum at the root, and every truncation here rounds down); the other two start
/// below, so `1 - d x` stays non-negative and fits unsigned arithmetic. Each step squares the relative
/// error: 1/17, 2^-8.2, 2^-16.3, 2^-32.7, plus a few units of 2^-31 from truncation.
#[cube]
pub fn recip_approx(d: u64) -> u64 {
    // 48/17 * 2^31 and 32/17 * 2^31.
    let x0 = 6_063_483_241u64 - ((4_042_322_161u64 * d) >> 32u64);
    // Step 1, signed: p = d x0 * 2^-63 may lie on either side of 1.
    let p0 = d * x0;
    let over = p0 > F64_SIGN;
    let err0 = select(over, p0 - F64_SIGN, F64_SIGN - p0) >> 31u64; // |1 - d x0| * 2^32
    let corr0 = (x0 * err0) >> 32u64;
    // Below: x0 + corr0 <= x0 (1 + e). Above: subtract one more unit than the truncated correction.
    let x1 = select(over, x0 - corr0 - 2u64, x0 + corr0);
    // Steps 2 and 3, from below.
    let x2 = x1 + ((x1 * ((F64_SIGN - d * x1) >> 31u64)) >> 32u64);
    x2 + ((x2 * ((F64_SIGN - d * x2) >> 31u64)) >> 32u64)
}

/// `a / b`, correctly rounded.
///
/// The quotient of the normalised significands, `floor(sa * 2^55 / sb)` (56 bits), comes in two digits
/// of 27 and 28 bits, each estimated from a 32-bit reciprocal of `sb` ([`recip_approx()`]) and then made
/// exact with the digit's true remainder; the final remainder, exact, supplies the sticky bit. Remainders
/// are small multiples of `sb`, so computing them modulo 2^64 (wrapping products) gives them exactly.
#[cube]
pub fn f64_div(a: u64, b: u64) -> u64 {
    let sign = (a ^ b) & F64_SIGN;
    let ea = exp64(a);
    let eb = exp64(b);
    let a_zero = (a & F64_ABS) == 0u64;
    let b_zero = (b & F64_ABS) == 0u64;
    if ea == 0x7FFi32 || eb == 0x7FFi32 || a_zero || b_zero {
        // x/inf and 0/x are zeros, inf/x and x/0 infinities, 0/0 and inf/inf invalid.
        let a_inf = (a & F64_ABS) == F64_INF;
        let b_inf = (b & F64_ABS) == F64_INF;
        let mut r = select(a_inf || b_zero, sign | F64_INF, sign);
        if (a_inf && b_inf) || (a_zero && b_zero) {
            r = F64_DEFAULT_NAN;
        }
        if f64_is_nan(a) || f64_is_nan(b) {
            r = nan_of64(a, b);
        }
        r
    } else {
        let na = norm64(a);
        let nb = norm64(b);
        let sb = nb.sig;
        // Make the quotient of significands land in [1, 2).
        let small = na.sig < sb;
        let sa = select(small, na.sig << 1u64, na.sig);
        let e = na.exp - nb.exp + 1023i32 - select(small, 1i32, 0i32);
        // x ~ 2^84 / sb from below (sb / 2^21 lies in [d - 1, d)).
        let x = recip_approx((sb >> 21u64) + 1u64);
        // Digit 1: q1 ~ sa * 2^27 / sb (< 2^28), from the top 32 bits of sa (< 2^54).
        let mut q1 = ((sa >> 22u64) * x) >> 35u64;
        let mut r1 = (sa << 27u64) - q1 * sb;
        while r1 >= sb {
            q1 += 1u64;
            r1 -= sb;
        }
        // Digit 2: q2 ~ r1 * 2^28 / sb (< 2^28), from the top 32 bits of r1 (< sb < 2^53).
        let mut q2 = ((r1 >> 21u64) * x) >> 35u64;
        let mut r2 = (r1 << 28u64) - q2 * sb;
        while r2 >= sb {
            q2 += 1u64;
            r2 -= sb;
        }
        // (q1 * 2^28 + q2) = floor(sa * 2^55 / sb) in [2^55, 2^56): leading bit to 62, remainder as sticky.
        let q = (q1 << 28u64) + q2;
        round_pack64(sign, e, (q << 7u64) | bit64(r2 != 0u64))
    }
}

// ---------------------------------------------------------------------------------------------------------
// binary64 comparisons
// ---------------------------------------------------------------------------------------------------------

/// A key that orders non-NaN binary64 values like the numbers they are, with -0 and +0 equal: the value as
/// a two's-complement integer (sign-magnitude to two's complement), then its sign bit flipped so that
/// unsigned comparison orders it.
#[cube]
fn key64(a: u64) -> u64 {
    let mag = a & F64_ABS;
    select((a & F64_SIGN) != 0u64, 0u64 - mag, mag) ^ F64_SIGN
}

#[cube]
fn key32(a: u32) -> u32 {
    let mag = a & F32_ABS;
    select((a & F32_SIGN) != 0u32, 0u32 - mag, mag) ^ F32_SIGN
}

/// `a < b` (false if either is NaN; -0 == +0).
#[cube]
pub fn f64_lt(a: u64, b: u64) -> bool {
    !(f64_is_nan(a) || f64_is_nan(b)) && key64(a) < key64(b)
}

/// `a <= b`.
#[cube]
pub fn f64_le(a: u64, b: u64) -> bool {
    !(f64_is_nan(a) || f64_is_nan(b)) && key64(a) <= key64(b)
}

/// `a > b`.
#[cube]
pub fn f64_gt(a: u64, b: u64) -> bool {
    f64_lt(b, a)
}

/// `a >= b`.
#[cube]
pub fn f64_ge(a: u64, b: u64) -> bool {
    f64_le(b, a)
}

/// `a == b`.
#[cube]
pub fn f64_eq(a: u64, b: u64) -> bool {
    !(f64_is_nan(a) || f64_is_nan(b)) && key64(a) == key64(b)
}

/// C's `MIN(a, b)`, i.e. `a < b ? a : b` (libvmaf's macro): `b` when they compare equal or either is NaN.
#[cube]
pub fn f64_min(a: u64, b: u64) -> u64 {
    select(f64_lt(a, b), a, b)
}

/// C's `MAX(a, b)`, i.e. `a > b ? a : b`.
#[cube]
pub fn f64_max(a: u64, b: u64) -> u64 {
    select(f64_lt(b, a), a, b)
}

// ---------------------------------------------------------------------------------------------------------
// Conversions to binary64
// ---------------------------------------------------------------------------------------------------------

/// A 32-bit magnitude with a sign bit, exactly (every u32 fits binary64's 53 bits).
#[cube]
fn f64_from_mag32(sign: u64, m: u32) -> u64 {
    let lz = m.leading_zeros();
    let frac = (u64::cast_from(m) << u64::cast_from(lz + 21u32)) & F64_FRAC;
    let e = u64::cast_from(1054u32 - lz); // 1023 + 31 - lz
    select(m == 0u32, 0u64, sign | (e << 52u64) | frac)
}

/// A 64-bit magnitude with a sign bit, rounded.
#[cube]
fn f64_from_mag64(sign: u64, m: u64) -> u64 {
    let mut r = 0u64;
    if m != 0u64 {
        let lz = m.leading_zeros();
        let t = m << u64::cast_from(lz); // leading bit at 63
        r = round_pack64(sign, 1086i32 - i32::cast_from(lz), (t >> 1u64) | (t & 1u64));
    }
    r
}

/// `(double)x` for an i32 (exact).
#[cube]
pub fn f64_from_i32(x: i32) -> u64 {
    let u = u32::cast_from(x);
    let neg = (u >> 31u32) != 0u32;
    f64_from_mag32(select(neg, F64_SIGN, 0u64), select(neg, 0u32 - u, u))
}

/// `(double)x` for a u32 (exact).
#[cube]
pub fn f64_from_u32(x: u32) -> u64 {
    f64_from_mag32(0u64, x)
}

/// `(double)x` for an i64 (rounded to nearest-even above 2^53).
#[cube]
pub fn f64_from_i64(x: i64) -> u64 {
    let u = u64::cast_from(x);
    let neg = (u >> 63u64) != 0u64;
    f64_from_mag64(select(neg, F64_SIGN, 0u64), select(neg, 0u64 - u, u))
}

/// `(double)x` for a u64 (rounded).
#[cube]
pub fn f64_from_u64(x: u64) -> u64 {
    f64_from_mag64(0u64, x)
}

/// `(double)a` for a binary32 (exact; NaNs are quieted, keeping their payload).
#[cube]
pub fn f32_to_f64(a: u32) -> u64 {
    let sign = u64::cast_from(a & F32_SIGN) << 32u64;
    let e = exp32(a);
    let f = a & F32_FRAC;
    // Normal: rebias (1023 - 127) and widen the fraction.
    let mut r = sign | (u64::cast_from(u32::cast_from(e + 896i32)) << 52u64) | (u64::cast_from(f) << 29u64);
    if e == 0xFFi32 {
        r = sign | F64_INF | (u64::cast_from(f) << 29u64) | select(f != 0u32, F64_QUIET, 0u64);
    }
    if e == 0i32 {
        // Zero or subnormal: value f * 2^-149; normalise f's leading bit to 23 (it is a normal binary64).
        let shift = f.leading_zeros() - 8u32;
        let frac = (f << shift) & F32_FRAC;
        let e64 = u64::cast_from(u32::cast_from(897i32 - i32::cast_from(shift))); // 1 - shift - 127 + 1023
        r = select(f == 0u32, sign, sign | (e64 << 52u64) | (u64::cast_from(frac) << 29u64));
    }
    r
}

// ---------------------------------------------------------------------------------------------------------
// Conversions from binary64
// ---------------------------------------------------------------------------------------------------------

/// `(float)a`, rounded to nearest-even (overflow to infinity, underflow through the subnormals; NaNs are
/// quieted, keeping the top of their payload).
#[cube]
pub fn f64_to_f32(a: u64) -> u32 {
    let sign = u32::cast_from(a >> 32u64) & F32_SIGN;
    let e = exp64(a);
    let f = a & F64_FRAC;
    let mut r = sign;
    if e == 0x7FFi32 {
        r = select(f != 0u64, sign | F32_DEFAULT_NAN | u32::cast_from(f >> 29u64), sign | F32_INF);
    } else if (a & F64_ABS) != 0u64 {
        // 53 significant bits to 31 (leading bit at 30), jamming the rest. A binary64 subnormal is far
        // below the smallest binary32 and rounds to zero; its jammed bit guarantees a nonzero sig.
        let sig = select(e == 0i32, f, f | F64_HIDDEN);
        let s = u32::cast_from(shr_jam64(sig, 22u32));
        r = round_pack32(sign, select(e == 0i32, 1i32, e) - 896i32, s);
    }
    r
}

/// `(int32_t)a` for `a` in range (truncation toward zero). Out of range it saturates like Rust's `as`
/// (i32::MIN below, i32::MAX above, 0 for NaN); C leaves that undefined and x86 gives i32::MIN for all.
#[cube]
pub fn f64_to_i32(a: u64) -> i32 {
    let e = exp64(a);
    let neg = (a & F64_SIGN) != 0u64;
    let sig = (a & F64_FRAC) | F64_HIDDEN;
    // |a| < 2^31 has e <= 1053: shift right by 1075 - e >= 22. |a| < 1 truncates to 0.
    let sh = select(e < 1023i32, 63i32, 1075i32 - e);
    let mag = u32::cast_from(sig >> u64::cast_from(u32::cast_from(select(sh < 22i32, 22i32, sh))));
    let mut r = select(neg, 0u32 - mag, mag);
    if e >= 1054i32 {
        r = select(neg, 0x8000_0000u32, 0x7FFF_FFFFu32);
        if f64_is_nan(a) {
            r = 0u32;
        }
    }
    i32::cast_from(r)
}

/// `(int64_t)a` for `a` in range (truncation toward zero); out of range it saturates like Rust's `as`.
#[cube]
pub fn f64_to_i64(a: u64) -> i64 {
    let e = exp64(a);
    let neg = (a & F64_SIGN) != 0u64;
    let sig = (a & F64_FRAC) | F64_HIDDEN;
    // Integer part: sig * 2^(e - 1075), a left shift of up to 10 for |a| < 2^63.
    let left = u64::cast_from(u32::cast_from(select(e > 1075i32, e - 1075i32, 0i32)));
    let right = u64::cast_from(u32::cast_from(select(e > 1075i32, 0i32, select(e < 1023i32, 63i32, 1075i32 - e))));
    let mag = select(e < 1023i32, 0u64, (sig << select(left < 11u64, left, 0u64)) >> right);
    let mut r = select(neg, 0u64 - mag, mag);
    if e >= 1086i32 {
        r = select(neg, F64_SIGN, F64_ABS);
        if f64_is_nan(a) {
            r = 0u64;
        }
    }
    i64::cast_from(r)
}

// ---------------------------------------------------------------------------------------------------------
// binary32
// ---------------------------------------------------------------------------------------------------------

/// A 64-bit magnitude with a sign bit, rounded to binary32.
#[cube]
fn f32_from_mag64(sign: u32, m: u64) -> u32 {
    let mut r = 0u32;
    if m != 0u64 {
        let lz = m.leading_zeros();
        let t = m << u64::cast_from(lz); // leading bit at 63: keep 31 bits, jam the other 33
        let s = u32::cast_from(t >> 33u64) | bit32((t & 0x1_FFFF_FFFFu64) != 0u64);
        r = round_pack32(sign, 190i32 - i32::cast_from(lz), s); // 127 + 63 - lz
    }
    r
}

/// `(float)x` for an i64, rounded to nearest-even.
#[cube]
pub fn f32_from_i64(x: i64) -> u32 {
    let u = u64::cast_from(x);
    let neg = (u >> 63u64) != 0u64;
    f32_from_mag64(select(neg, F32_SIGN, 0u32), select(neg, 0u64 - u, u))
}

/// `(float)x` for a u64.
#[cube]
pub fn f32_from_u64(x: u64) -> u32 {
    f32_from_mag64(0u32, x)
}

/// `(float)x` for an i32.
#[cube]
pub fn f32_from_i32(x: i32) -> u32 {
    let u = u32::cast_from(x);
    let neg = (u >> 31u32) != 0u32;
    f32_from_mag64(select(neg, F32_SIGN, 0u32), u64::cast_from(select(neg, 0u32 - u, u)))
}

/// `(float)x` for a u32.
#[cube]
pub fn f32_from_u32(x: u32) -> u32 {
    f32_from_mag64(0u32, u64::cast_from(x))
}

/// `(int32_t)a` for a binary32 in range (truncation); saturating like Rust's `as` out of range.
#[cube]
pub fn f32_to_i32(a: u32) -> i32 {
    f64_to_i32(f32_to_f64(a))
}

/// `(int64_t)a` for a binary32 in range (truncation); saturating like Rust's `as` out of range.
#[cube]
pub fn f32_to_i64(a: u32) -> i64 {
    f64_to_i64(f32_to_f64(a))
}

// The four operations in binary32 go through binary64: the operands widen exactly, binary64 computes the
// result correctly rounded to 53 bits, and rounding that to 24 bits gives the correctly rounded binary32
// result, because 53 >= 2 * 24 + 2 makes the double rounding innocuous for +, -, * and / (Figueroa's
// theorem; the binary64 intermediate never overflows or underflows for binary32 operands).

/// `a + b` in binary32, correctly rounded.
#[cube]
pub fn f32_add(a: u32, b: u32) -> u32 {
    f64_to_f32(f64_add(f32_to_f64(a), f32_to_f64(b)))
}

/// `a - b` in binary32.
#[cube]
pub fn f32_sub(a: u32, b: u32) -> u32 {
    f64_to_f32(f64_sub(f32_to_f64(a), f32_to_f64(b)))
}

/// `a * b` in binary32.
#[cube]
pub fn f32_mul(a: u32, b: u32) -> u32 {
    f64_to_f32(f64_mul(f32_to_f64(a), f32_to_f64(b)))
}

/// `a / b` in binary32.
#[cube]
pub fn f32_div(a: u32, b: u32) -> u32 {
    f64_to_f32(f64_div(f32_to_f64(a), f32_to_f64(b)))
}

/// `a < b` in binary32.
#[cube]
pub fn f32_lt(a: u32, b: u32) -> bool {
    !(f32_is_nan(a) || f32_is_nan(b)) && key32(a) < key32(b)
}

/// `a <= b` in binary32.
#[cube]
pub fn f32_le(a: u32, b: u32) -> bool {
    !(f32_is_nan(a) || f32_is_nan(b)) && key32(a) <= key32(b)
}

/// `a == b` in binary32.
#[cube]
pub fn f32_eq(a: u32, b: u32) -> bool {
    !(f32_is_nan(a) || f32_is_nan(b)) && key32(a) == key32(b)
}

/// `a < b ? a : b` in binary32.
#[cube]
pub fn f32_min(a: u32, b: u32) -> u32 {
    select(f32_lt(a, b), a, b)
}

/// `a > b ? a : b` in binary32.
#[cube]
pub fn f32_max(a: u32, b: u32) -> u32 {
    select(f32_lt(b, a), a, b)
}
