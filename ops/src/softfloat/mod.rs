//! Exact IEEE-754 arithmetic for kernels, in integer operations only: binary64 (`f64`) and binary32
//! (`f32`) values carried as their bit patterns (`u64`, `u32`, i.e. `to_bits()`), with results identical
//! bit for bit to what a CPU computes for the same C expression under the default floating-point
//! environment (round to nearest, ties to even; no fused multiply-add).
//!
//! # Why not the GPU's floats
//!
//! vif_stats and adm_decouple evaluate libvmaf's float expressions per pixel, and the exact IEEE results
//! decide integers (a truncation to int, a branch of a comparison). Native floats cannot promise that:
//! WGSL has no f64 at all; CUDA and HIP contract `a * b + c` into an FMA and CubeCL cannot turn that off;
//! GPU f32 division and conversions need not be correctly rounded (WGSL allows 2.5 ulp for division)
//! and subnormals may be flushed. Integer arithmetic is exact on every backend, so these functions
//! compute each IEEE operation from its definition: the exact result, rounded once.
//!
//! # What there is
//!
//! Every function is a `#[cube]` function (inlined into the calling kernel); `a`, `b` are bit patterns.
//!
//! | C (libvmaf) | binary64 | binary32 |
//! |---|---|---|
//! | `a + b`, `a - b`, `a * b`, `a / b` | [`f64_add()`], [`f64_sub()`], [`f64_mul()`], [`f64_div()`] | [`f32_add()`], [`f32_sub()`], [`f32_mul()`], [`f32_div()`] |
//! | `a < b`, `<=`, `>`, `>=`, `==` | [`f64_lt()`], [`f64_le()`], [`f64_gt()`], [`f64_ge()`], [`f64_eq()`] | [`f32_lt()`], [`f32_le()`], [`f32_eq()`] |
//! | `MIN(a, b)` = `a < b ? a : b`, `MAX(a, b)` = `a > b ? a : b` | [`f64_min()`], [`f64_max()`] | [`f32_min()`], [`f32_max()`] |
//! | `-a`, `fabs(a)` | [`f64_neg()`], [`f64_abs()`] | (flip / clear bit 31) |
//! | `(double)i` for int32, uint32, int64, uint64 | [`f64_from_i32()`], [`f64_from_u32()`], [`f64_from_i64()`], [`f64_from_u64()`] | [`f32_from_i32()`], [`f32_from_u32()`], [`f32_from_i64()`], [`f32_from_u64()`] |
//! | `(int32_t)a`, `(int64_t)a` (truncation) | [`f64_to_i32()`], [`f64_to_i64()`] | [`f32_to_i32()`], [`f32_to_i64()`] |
//! | `(float)a`, `(double)f` | [`f64_to_f32()`] | [`f32_to_f64()`] |
//!
//! Constants come from the host as bits, computed there exactly as libvmaf computes them (e.g. vif's
//! `eps = 65536 * 1.0e-10` is that f64 product: pass `(65536.0f64 * 1.0e-10).to_bits()` as a kernel
//! argument, not a re-typed literal).
//!
//! # Semantics, and what is assumed
//!
//! - **Rounding**: to nearest, ties to even, for every operation that can be inexact (arithmetic, int ->
//!   float beyond 2^53 resp. 2^24, f64 -> f32). No other rounding mode, no exception flags.
//! - **Subnormals** are computed exactly, as inputs and as results, in both formats (no flush to zero):
//!   IEEE gradual underflow, exactly as the CPU does it.
//! - **Infinities** follow IEEE (overflow rounds to infinity; `x / 0` is a signed infinity).
//! - **NaN**: any operation with a NaN operand, and the invalid ones (`inf - inf`, `0 * inf`, `0 / 0`,
//!   `inf / inf`), return *a* quiet NaN: the first NaN operand quieted (x86 SSE's choice), else
//!   [`F64_DEFAULT_NAN`] / [`F32_DEFAULT_NAN`] (positive; x86 returns the negative one). Which NaN is
//!   hardware-specific anyway, and no libvmaf expression computed here can produce one (below).
//!   Comparisons with a NaN are false, so `MIN`/`MAX` return their second operand, as C's macros do.
//! - **Float to integer** truncates toward zero, C's cast, for values in range. Out of range (or NaN) C
//!   leaves the result undefined and x86 returns the integer's minimum for all of them; these functions
//!   saturate like Rust's `as` instead (minimum below, maximum above, 0 for NaN). Where libvmaf can be out
//!   of range (vif's `sv_sq` below `INT32_MIN`) both give the minimum, which its `MAX(sv_sq, 0)` clamps.
//! - f32 arithmetic is done in binary64 and rounded once to binary32, which is exact: with 53 >= 2 * 24 + 2
//!   bits the double rounding is innocuous for +, -, * and / (Figueroa), and binary32 operands can neither
//!   overflow nor underflow binary64.
//!
//! Where vif_stats and adm_decouple use these, none of the special cases arises, which is why their
//! kernels need no checks around them:
//! - vif_stats: `sigma1_sq`, `sigma2_sq`, `sigma12` are int32, so `sigma1_sq + eps` is never 0 (it is
//!   `eps` for 0, else at least `1 - eps` in magnitude) and the gain is finite: at most 2^31 / eps < 2^49
//!   and at least 2^-31 in magnitude (or 0). Its products lie between 2^-62 and 2^129: no overflow, no
//!   subnormal (below 2^-1022), no NaN. In the branch where libvmaf computes `g * g * sigma1_sq`
//!   (`sigma1_sq >= 2^17`, `sigma12 > 0`) the gain is positive and at most `gain_limit` (<= 100) after the
//!   `MIN`, so the product is below 2^45 and its cast in range; a branch-free kernel that evaluates it on
//!   every pixel gets saturated values where it will discard them. `sigma2_sq - g * sigma12` can leave i32
//!   range (see above).
//! - adm_decouple: `(float)` of int64 values (any, including wrapped sums), divided by 4096, multiplied by
//!   `cos_1deg_sq` and by each other: magnitudes between 2^-25 and 2^102 (or 0), so no subnormal, no
//!   overflow; `r * gain_limit` with |r| <= 2^31 and `gain_limit` finite; no NaN anywhere.
//!
//! # Using them (the two ops' expressions)
//!
//! ```text
//! // vif_stats, per pixel (eps, gain_limit: f64 bits from the host)
//! let s1 = f64_from_i32(sigma1_sq);  let s12 = f64_from_i32(sigma12);
//! let g = f64_div(s12, f64_add(s1, eps));
//! let sv_sq = f64_to_i32(f64_sub(f64_from_i32(sigma2_sq), f64_mul(g, s12)));   // then MAX(sv_sq, 0)
//! let g = f64_min(g, gain_limit);
//! let numer1_tmp = f64_to_i64(f64_mul(f64_mul(g, g), s1));                       // (g * g) * s1
//!
//! // adm_decouple: dp, o2, t2 are the exact int64 sums; K4096 = 4096.0f64.to_bits(), c = cos_1deg_sq
//! let x = f64_div(f32_to_f64(f32_from_i64(dp)), K4096);
//! let rhs = f64_mul(f64_mul(c, f64_div(f32_to_f64(f32_from_i64(o2)), K4096)),
//!                   f64_div(f32_to_f64(f32_from_i64(t2)), K4096));
//! let angle_ok = f64_ge(x, 0) && f64_ge(f64_mul(x, x), rhs);
//! let r_lim = f64_to_i64(f64_min(f64_mul(f64_from_i64(r), gain_limit), f64_from_i64(t)));  // k*o > 0
//! ```
//!
//! (Dividing by 4096 is exact here, so multiplying by 2^-12 gives the same bits at a third of the cost;
//! either is correct.) `tests.rs` runs exactly these compositions against the CPU.
//!
//! # How
//!
//! Each operation unpacks the fields, handles zeros, infinities and NaNs in a branch of their own (taken
//! by no lane in the ops' data, so it costs a uniform jump), computes the exact result as a significand
//! with its leading bit at bit 62 (binary64) or 30 (binary32) plus "jammed" round bits (the lowest bit is
//! set when anything nonzero was shifted out below it), and rounds and packs once (`round_pack64`). That
//! one routine handles ties to even, the carry of a round-up into the exponent, overflow, and the
//! subnormal range (shift right with jamming at exponents below 1).
//!
//! - add/sub: align the smaller magnitude with a jamming shift, add or subtract in u64, normalise with a
//!   leading-zero count (cancellation is exact).
//! - mul: the 106-bit product of the 53-bit significands from four 32 x 32 -> 64-bit products (u64).
//! - div: `floor(sa * 2^55 / sb)` in two digits of 27 and 28 bits, each estimated from a 32-bit
//!   reciprocal of the divisor ([`recip_approx()`]: a linear start and three Newton steps, never above the
//!   true reciprocal and within 2^-30.1 of it, checked for all 2^31 divisors) and corrected with the
//!   digit's exact remainder (computed modulo 2^64, where it fits); the error analysis bounds each
//!   correction to one step, and the final remainder gives the sticky bit exactly.
//! - conversions: leading-zero count, shift, round; float -> int by shifting the significand.
//!
//! u64 arithmetic is the carrier: native on lavapipe and CPUs, two or three 32-bit instructions per
//! operation on NVIDIA/AMD GPUs (a 32 x 32 -> 64 product is one wide multiply). On WGSL it needs
//! the `SHADER_INT64` feature, which lavapipe and desktop Vulkan drivers have (WebGPU in browsers has no
//! 64-bit integers). Signed 64-bit values are only bit-cast at the API edge (`f64_from_i64`,
//! `f64_to_i64`): the arithmetic is unsigned, avoiding the i64 miscompilations seen on naga -> lavapipe
//! (see `kernel::wide`).
//!
//! # Tests
//!
//! `tests.rs` compares every operation with native Rust on the CPU, bit for bit (NaN results only as "a
//! NaN"), over about 4 million random and constructed inputs each, the two ops' composed expressions, and
//! the reciprocal for all 2^31 divisors. They run on wgpu (`cargo test --release --features wgpu
//! softfloat`). Built with `--features cuda` and without `wgpu`, the same tests run on CUDA: build with
//! `cargo test --release -p vqgraph-ops --features cuda --no-run` and run the binary with `softfloat` on the
//! GPU machine (done on an H200: all identical).
//!
//! # Cost
//!
//! Device time per operation, throughput of many independent ones on normal operands
//! (`tests::cost_per_operation`). lavapipe: this 2-core machine, 2^18 units, other work on the machine
//! (loaded runs were 2-3x slower); below about 0.1 ns an operation hides in the loop's own cost. H200: CUDA,
//! 2^22 units.
//!
//! | operation | lavapipe | H200 (CUDA) |
//! |---|---|---|
//! | `f64_add`, `f64_sub` | 1.30 ns | 4.3 ps |
//! | `f64_mul` | 1.24 ns | 3.7 ps |
//! | `f64_div` | 3.77 ns | 7.5 ps |
//! | `f64_lt`, `f64_min` | < 0.03 ns | 0.7 ps |
//! | `f64_to_i32`, `f64_to_i64` | 0.09, 0.13 ns | 1.1, 2.0 ps |
//! | `f64_to_f32` | 0.40 ns | 1.5 ps |
//! | `f64_from_i32`, `f64_from_i64` | 0.04, 0.43 ns | 0.7, 2.2 ps |
//! | `f32_from_i64`, `f32_to_f64` | 0.36, 0.12 ns | 1.9, 0.9 ps |
//! | `f32_add`, `f32_mul`, `f32_div` (through binary64) | 3.1, 3.1, 5.9 ns | 6.3, 6.0, 7.3 ps |
//! | vif_stats' float tail, per pixel | 14.3 ns | 34 ps |
//! | adm_decouple's angle test, per pixel | 15.9 ns | 34 ps |
//!
//! On the H200 that is about 0.4 ms for vif_stats' four scales of a 4K frame (11 M pixels), and 0.1 ms at
//! 1080p. add/sub run one branch-free path for both signs, so lanes of mixed signs do not diverge.

mod cube;

pub use cube::*;

#[cfg(all(test, any(feature = "wgpu", feature = "cuda")))]
mod tests;
