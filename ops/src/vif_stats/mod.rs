//! `vif_stats`: libvmaf's integer VIF statistic of one scale, folded into four exact sums.
//!
//! Inputs: the reference and distorted planes of that scale (`plane<u16>`, same size). At scale 0 these are
//! the frame's samples (`bpc` bits); at scales 1..3 they are the pre-filtered, decimated planes (16-bit
//! scale) that `sep_conv` + `decimate` produce. Output: `sums<i64>[4]` =
//! `[num_log, den_log, num_non_log, den_non_log]` (libvmaf's `accum_*` of `vif_statistic_8/16`).
//!
//! Semantics, with `f` = [`VIF_FILTERS`]`[scale]` (radius `r`), reflect-101 edges (`mirror`), and C
//! unsigned integer arithmetic (casts truncate):
//!
//! ```text
//! vertical, per pixel (sums over k of f[k] * sample at row mirror(i - r + k)):
//!   mu1v = u16((Σ f·x  + rv) >> sv)         mu2v likewise with y
//!   xxv  = u32((Σ f·x·x + rq) >> sq)        yyv (y·y), xyv (x·y) likewise
//!   scale 0: sv = bpc, rv = 2^(bpc-1), sq = 2·(bpc-8), rq = 2^(sq-1) (0 when sq = 0)
//!   scales 1..3: sv = sq = 16, rv = rq = 32768
//! horizontal, on the vertical results (columns mirrored):
//!   mu1 = Σ f·mu1v (u32, no shift)           mu2 likewise
//!   xx  = u32((Σ f·xxv + 32768) >> 16)       yy, xy likewise
//! per pixel:
//!   s1  = i32(xx - u32((mu1·mu1 + 2^31) >> 32))          (u32 wrap-around, then reinterpret)
//!   s2  = max(i32(yy - u32((mu2·mu2 + 2^31) >> 32)), 0)
//!   s12 = i32(xy - u32((mu1·mu2 + 2^31) >> 32))
//!   if s1 >= 2^17:
//!     den_log += log2_32(2^17 + s1) - 2048·17
//!     if s12 > 0 and s2 > 0:                  (in f64, libvmaf's exact order; no FMA contraction)
//!       g = s12 / (s1 + eps)        eps = 65536.0 * 1e-10 (that f64 product, not the literal 6.5536e-6)
//!       sv = max(i32(s2 - g·s12), 0)                            (i32() truncates toward zero)
//!       g = min(g, gain_limit);  n1 = sv + 2^17
//!       num_log += log2_64(i64((g·g)·s1) + n1) - log2_64(n1)
//!   else:
//!     num_non_log += s2;  den_non_log += 1
//! ```
//!
//! `log2_32`/`log2_64` take the top 16 significant bits and look them up in `round(log2f(i) · 2048)`
//! ([`log2_table`]), adding 2048 per dropped bit. For `bpc = 8` at scale 0 this equals libvmaf's separate
//! 8-bit path (`vif_statistic_8`), whose u32 sums cannot overflow on 8-bit samples. Scale-0 samples above
//! `2^bpc - 1` are not valid input; they give the wrapped results of the 16-bit path.
//!
//! The sums are integers, so the order in which pixels are visited (threads, tiles, devices) cannot change
//! them. The host turns them into libvmaf's `float` num/den (see `vqgraph-metrics`' `vif.rs`).

#[cfg(target_arch = "x86_64")]
mod avx512;
mod cpu;
#[cfg(test)]
mod tests;

use std::sync::OnceLock;

use vqgraph_graph::{Elem, Op, OpClass, OpInfo, OpState, Value, ValueType};

use crate::util::{arity, plane_geom};

pub use cpu::stats as cpu_stats;

pub const INFO: OpInfo = OpInfo {
    name: "vif_stats",
    class: OpClass::Reduce,
    summary: "integer VIF statistic of one scale (filtered moments, log2 table) into 4 exact sums",
};

/// libvmaf's `vif_filter1d_table`: the symmetric filter of each scale (17, 9, 5, 3 taps, each summing to
/// 65536). Scale `s` filters its own statistic and, before decimation, the plane that becomes scale `s`.
pub const VIF_FILTERS: [&[i64]; 4] = [
    &[489, 935, 1640, 2640, 3896, 5274, 6547, 7455, 7784, 7455, 6547, 5274, 3896, 2640, 1640, 935, 489],
    &[1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244],
    &[3571, 16004, 26386, 16004, 3571],
    &[10904, 43728, 10904],
];

/// libvmaf's default `vif_enhn_gain_limit`.
pub const DEFAULT_GAIN_LIMIT: f64 = 100.0;

/// Positions of the output sums.
pub const NUM_LOG: usize = 0;
pub const DEN_LOG: usize = 1;
pub const NUM_NON_LOG: usize = 2;
pub const DEN_NON_LOG: usize = 3;

/// libvmaf's `log_generate` table: entry `i` (32767..=65535) is `round(log2f(i) * 2048)`; lower entries
/// are never read (both log2 helpers index with exactly 16 significant bits) and stay 0.
///
/// `log2f` is computed as the f64 logarithm rounded to f32, i.e. the correctly rounded value, so the table
/// does not depend on the platform's libm; a unit test checks it against the libm `log2f` libvmaf used.
pub fn log2_table() -> &'static [u16; 65537] {
    static TABLE: OnceLock<Box<[u16; 65537]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new([0u16; 65537]);
        for (i, e) in t.iter_mut().enumerate().take(65536).skip(32767) {
            let l = (i as f64).log2() as f32;
            // C: `(uint16_t)round(log2f((float)i) * 2048)`: an f32 product, rounded half away from zero.
            *e = ((l * 2048.0) as f64).round() as u16;
        }
        t
    })
}

/// The VIF statistic of one scale (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct VifStats {
    /// 0..=3: picks the filter and the vertical rounding.
    pub scale: usize,
    /// Bits per component of the source (8..=16); only scale 0 uses it.
    pub bpc: u32,
    /// `vif_enhn_gain_limit`, in [1, 100] as libvmaf's option.
    pub gain_limit: f64,
}

impl VifStats {
    pub fn new(scale: usize, bpc: u32, gain_limit: f64) -> Self {
        VifStats { scale, bpc, gain_limit }
    }
}

impl Op for VifStats {
    fn info(&self) -> &'static OpInfo {
        &INFO
    }

    fn params(&self) -> String {
        format!("scale={} bpc={} gain_limit={}", self.scale, self.bpc, self.gain_limit)
    }

    fn output_types(&self, inputs: &[ValueType]) -> Result<Vec<ValueType>, String> {
        arity(inputs, 2)?;
        let (_, w, h) = plane_geom(&inputs[0], &[Elem::U16], "ref")?;
        let (_, w2, h2) = plane_geom(&inputs[1], &[Elem::U16], "dis")?;
        if (w, h) != (w2, h2) {
            return Err(format!("ref is {w}x{h} but dis is {w2}x{h2}"));
        }
        if self.scale > 3 {
            return Err(format!("scale must be 0..=3, got {}", self.scale));
        }
        if !(8..=16).contains(&self.bpc) {
            return Err(format!("bpc must be 8..=16, got {}", self.bpc));
        }
        // libvmaf's option range; the bound also keeps `g * g * sigma1_sq` below 2^52 (see cpu.rs). NaN fails.
        if !(1.0..=DEFAULT_GAIN_LIMIT).contains(&self.gain_limit) {
            return Err(format!("gain_limit must be in [1, 100], got {}", self.gain_limit));
        }
        let r = VIF_FILTERS[self.scale].len() / 2;
        if w <= r || h <= r {
            return Err(format!(
                "plane {w}x{h} is too small for the {}-tap scale-{} filter (mirror edges need more than {r})",
                VIF_FILTERS[self.scale].len(),
                self.scale
            ));
        }
        Ok(vec![ValueType::sums(Elem::I64, 4)])
    }

    fn eval_cpu(&self, inputs: &[&Value], outputs: &mut [Value], _state: &mut OpState) -> Result<(), String> {
        cpu::eval(self, inputs[0], inputs[1], &mut outputs[0])
    }
}
