//! `adm_dwt`: one level of libvmaf's integer Daubechies-2 wavelet transform (ADM's `adm_dwt2_16` at scale 0,
//! `adm_dwt2_s123_combined` at scales 1-3).
//!
//! Semantics, for an input plane `x` (w x h, both at least 5), taps `LO = [15826, 27411, 7345, -4240]`,
//! `HI = [-4240, -7345, 27411, -15826]` (db2 in Q15), output size `ceil(w/2) x ceil(h/2)`:
//!
//! ```text
//! src(k, i) = 2i - 1 + k  (k = 0..3), mirrored: -1 -> 1, n -> n-1, n+1 -> n-2     (rows and columns alike)
//! vlo[i][j] = T((sum_k LO[k] * x[src(k,i)][j] - v_center + v_round) >> v_shift)   (vertical pass first)
//! vhi[i][j] = T((sum_k HI[k] * x[src(k,i)][j]            + v_round) >> v_shift)
//! a[i][j]   = O((sum_k LO[k] * vlo[i][src(k,j)] + h_round) >> h_shift)            (low V, low H)
//! v[i][j]   = O((sum_k HI[k] * vlo[i][src(k,j)] + h_round) >> h_shift)            (low V, high H)
//! h[i][j]   = O((sum_k LO[k] * vhi[i][src(k,j)] + h_round) >> h_shift)            (high V, low H)
//! d[i][j]   = O((sum_k HI[k] * vhi[i][src(k,j)] + h_round) >> h_shift)            (high V, high H)
//! ```
//!
//! The top/left edge reflects without repeating the edge sample and the bottom/right edge reflects with
//! it, exactly as libvmaf's `dwt2_src_indices_filt` builds its index tables.
//!
//! - Scale 0 ([`AdmDwt::scale0`]): input `u16` samples of `bpc` bits. All arithmetic is C `int32`
//!   (reproduced with wrapping i32, so even 16-bit input overflows as libvmaf does); `v_center = 46342 *
//!   2^(bpc-1)` recentres the low band around zero; `v_round = 2^(bpc-1)`, `v_shift = bpc`; the vertical
//!   results `T` are stored as `int16`; `h_round = 32768`, `h_shift = 16`; outputs `O` are `i16`.
//! - Scales 1-3 ([`AdmDwt::scale`]): input is the previous level's `a` band (`i16` or `i32`); sums in
//!   `int64`, no recentring, both passes cast to `int32`; `(v_round, v_shift, h_round, h_shift)` is
//!   `(0, 0, 16384, 15)`, `(32768, 16, 32768, 16)`, `(32768, 16, 16384, 15)` for scales 1, 2, 3; outputs
//!   `i32`.
//!
//! Outputs, in order: `a`, `h`, `v`, `d`. No floats.

mod cpu;
#[cfg(feature = "cube")]
mod cube;
#[cfg(test)]
mod tests;

use vqgraph_graph::{Elem, Op, OpClass, OpInfo, OpState, Value, ValueType};

use crate::util::{arity, plane_geom};

pub const INFO: OpInfo = OpInfo {
    name: "adm_dwt",
    class: OpClass::Resample,
    summary: "one level of ADM's integer db2 wavelet: plane -> a, h, v, d bands at half size",
};

/// Low-pass db2 taps in Q15, as libvmaf has them.
pub const LO: [i32; 4] = [15826, 27411, 7345, -4240];
/// High-pass db2 taps in Q15.
pub const HI: [i32; 4] = [-4240, -7345, 27411, -15826];
/// Sum of the low-pass taps (used to recentre 0..2^bpc input around zero at scale 0).
pub const LO_SUM: i32 = 46342;

/// One DWT level with its rounding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AdmDwt {
    /// 0 for the first level (from samples), 1-3 for the levels computed from the previous `a` band.
    pub scale: u8,
    /// Bits per sample of the input; only used at scale 0.
    pub bpc: u32,
}

impl AdmDwt {
    /// The first level, from `bpc`-bit samples.
    pub fn scale0(bpc: u32) -> Self {
        AdmDwt { scale: 0, bpc }
    }

    /// A level computed from the previous level's `a` band (`scale` in 1..=3).
    pub fn scale(scale: u8) -> Self {
        AdmDwt { scale, bpc: 0 }
    }

    /// `(v_center, v_round, v_shift, h_round, h_shift)` of this level.
    pub fn rounding(&self) -> (i64, i64, u32, i64, u32) {
        match self.scale {
            0 => {
                let half = 1i64 << (self.bpc - 1);
                (LO_SUM as i64 * half, half, self.bpc, 32768, 16)
            }
            1 => (0, 0, 0, 16384, 15),
            2 => (0, 32768, 16, 32768, 16),
            _ => (0, 32768, 16, 16384, 15),
        }
    }

    fn out_elem(&self) -> Elem {
        if self.scale == 0 { Elem::I16 } else { Elem::I32 }
    }
}

impl Op for AdmDwt {
    fn info(&self) -> &'static OpInfo {
        &INFO
    }

    fn params(&self) -> String {
        let (c, vr, vs, hr, hs) = self.rounding();
        format!("scale={} v=(-{c}+{vr})>>{vs} h=(+{hr})>>{hs} out={}", self.scale, self.out_elem())
    }

    fn output_types(&self, inputs: &[ValueType]) -> Result<Vec<ValueType>, String> {
        arity(inputs, 1)?;
        let allowed: &[Elem] = if self.scale == 0 { &[Elem::U16] } else { &[Elem::I16, Elem::I32] };
        let (_, w, h) = plane_geom(&inputs[0], allowed, "input")?;
        if self.scale > 3 {
            return Err(format!("scale must be 0..=3, got {}", self.scale));
        }
        if self.scale == 0 && !(1..=16).contains(&self.bpc) {
            return Err(format!("bpc must be 1..=16, got {}", self.bpc));
        }
        if w < 5 || h < 5 {
            // libvmaf's index tables read outside the plane below 5 samples.
            return Err(format!("plane {w}x{h} is too small for the db2 wavelet (needs at least 5x5)"));
        }
        let t = ValueType::plane(self.out_elem(), w.div_ceil(2), h.div_ceil(2));
        Ok(vec![t; 4])
    }

    fn eval_cpu(&self, inputs: &[&Value], outputs: &mut [Value], _state: &mut OpState) -> Result<(), String> {
        cpu::eval(self, inputs[0], outputs)
    }
}
