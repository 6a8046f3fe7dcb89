//! `adm_cm`: ADM's contrast masking and pooling of one scale (libvmaf's `adm_cm` at scale 0, `i4_adm_cm` at
//! scales 1-3): the integer sums behind ADM's numerator (`x` = restored bands, masker = CSF-weighted
//! artifact bands) and behind AIM's numerator (`x` = artifact bands, masker = CSF-weighted restored bands).
//!
//! Inputs: `x_h, x_v, x_d` (decoupled bands) and `m_h, m_v, m_d` (the masker, `adm_csf`'s output), six
//! `w` x `h` planes of one element type (`i16` at scale 0, `i32` at scales 1-3). Output: `sums<i64>[3]`,
//! `[S_h, S_v, S_d]`. With the border [`crate::adm_common::Region`] `[left, right) x [top, bottom)`:
//!
//! ```text
//! flt(m) = T((F30 * |m| + rf) >> sf)        ctr(m) = T((F15 * |m| + rf) >> sf)     (libvmaf's 1/30, 1/15)
//! thr[i][j] = i32( sum_b ( ctr(m_b[i][j]) + sum of flt(m_b) over the 8 neighbours of (i, j) ) )
//!             neighbours: row above i-1 (row 1 for i = 0), row below i+1 (row h-1 for i = h-1),
//!                         column j-1 (column 1 for j = 0), column j+1 (column w-1 for j = w-1)
//! y_b   = i32 of x_b[i][j] scaled by the band weight: scale 0: x * rfactor_b; 1-3: (x * rfactor_b + 2^27) >> 28
//! e     = max(0, |y_b| - (thr << sub_b))                                  (i32, wrapping as C's int32)
//! e2    = i32((e * e + 2^(sq_b - 1)) >> sq_b)
//! row_b[i] = sum over j in [left, right) of (e2 * e + 2^(cub_b - 1)) >> cub_b   (i64)
//! S_b   = sum over i in [top, bottom) of (row_b[i] + 2^(inner - 1)) >> inner
//! ```
//!
//! | | `F30, F15, rf, sf` | `sub` | `sq` | `cub` | `inner` |
//! |---|---|---|---|---|---|
//! | scale 0 | 4369, 8738, 2048, 12 | 10, 10, 12 | 29, 29, 30 | `ceil(log2 w - 4)` h, v; `ceil(log2 w - 3)` d | `ceil(log2 h)` |
//! | scales 1-3 | 143165577, 286331153, **-2^31**, 32 | 0 | 30 | `ceil(log2 w)` | `ceil(log2 h)` |
//!
//! (libvmaf's scale 1-3 "rounding" term for the 1/30 and 1/15 products is `(int32_t)(1u << 31)`, i.e. it
//! subtracts a half; reproduced. A rounding term `2^(s - 1)` reads 0 for a zero shift, and the i64 sums
//! wrap, as libvmaf's do on the tiny planes where its shifts are zero.) The shifts use libvmaf's double `log2`/`ceil` (see
//! [`crate::adm_common::ceil_log2_minus`]). Integer only; per-row rounding makes the sums independent of
//! how rows are split across threads.
//!
//! The host turns each sum into libvmaf's float with [`AdmCm::exponents`]: value `= S / 2^e`, computed as
//! `f32(f64(S) / 2^e)` at scale 0 and `f32(S) / 2^e` (float division) at scales 1-3, as libvmaf does.

mod cpu;
#[cfg(feature = "cube")]
mod cube;
#[cfg(test)]
mod tests;

use vqgraph_graph::{Elem, Op, OpClass, OpInfo, OpState, Value, ValueType};

use crate::adm_common::{BAND_ELEMS, ceil_log2_minus};
use crate::util::{arity, plane_geom};

pub const INFO: OpInfo = OpInfo {
    name: "adm_cm",
    class: OpClass::Reduce,
    summary: "ADM contrast masking over 3x3, border exclusion, sums of rounded cubes per band",
};

/// Contrast masking of one scale, with the per-band integer weights of the values measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AdmCm {
    /// 0..=3; selects the fixed-point layout (scale 0: `i16` bands, Q21/Q23 `u16` weights; scales 1-3:
    /// `i32` bands, Q32 weights) and, at scales 1-3, the exponent of the result.
    pub scale: u8,
    /// libvmaf's `i_rfactor` (scale 0) or `rfactor` (scales 1-3) for h, v, d.
    pub rfactor: [u32; 3],
}

/// Shifts of one plane geometry, as libvmaf derives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CmShifts {
    pub cub: [u32; 3],
    pub inner: u32,
}

impl AdmCm {
    /// The per-band cube shifts and the per-row shift for a `w` x `h` band.
    pub fn shifts(&self, w: usize, h: usize) -> CmShifts {
        let inner = ceil_log2_minus(h, 0.0);
        if self.scale == 0 {
            let hv = ceil_log2_minus(w, 4.0);
            CmShifts { cub: [hv, hv, ceil_log2_minus(w, 3.0)], inner }
        } else {
            CmShifts { cub: [ceil_log2_minus(w, 0.0); 3], inner }
        }
    }

    /// For each band, the power of two the sum is to be divided by to get libvmaf's value.
    pub fn exponents(&self, w: usize, h: usize) -> [i64; 3] {
        let s = self.shifts(w, h);
        let base: [i64; 3] = match self.scale {
            0 => [52, 52, 57],
            1 => [45; 3],
            2 => [39; 3],
            _ => [36; 3],
        };
        [0, 1, 2].map(|b| base[b] - s.cub[b] as i64 - s.inner as i64)
    }

    fn band_elem(&self) -> Elem {
        if self.scale == 0 { Elem::I16 } else { Elem::I32 }
    }
}

impl Op for AdmCm {
    fn info(&self) -> &'static OpInfo {
        &INFO
    }

    fn params(&self) -> String {
        format!("scale={} rfactor={:?}", self.scale, self.rfactor)
    }

    fn output_types(&self, inputs: &[ValueType]) -> Result<Vec<ValueType>, String> {
        arity(inputs, 6)?;
        let elem = self.band_elem();
        let first = plane_geom(&inputs[0], &BAND_ELEMS, "input 0")?;
        for (k, t) in inputs.iter().enumerate() {
            if plane_geom(t, &[elem], &format!("input {k}"))? != first {
                return Err(format!("input {k} is {t}, input 0 is {}", inputs[0]));
            }
        }
        if self.scale > 3 {
            return Err(format!("scale must be 0..=3, got {}", self.scale));
        }
        if self.scale == 0 && self.rfactor.iter().any(|&f| f > u16::MAX as u32) {
            return Err(format!("scale-0 weights are u16 in libvmaf, got {:?}", self.rfactor));
        }
        let (_, w, h) = first;
        if w < 3 || h < 3 {
            return Err(format!("band {w}x{h} is too small (needs at least 3x3)"));
        }
        Ok(vec![ValueType::sums(Elem::I64, 3)])
    }

    fn eval_cpu(&self, inputs: &[&Value], outputs: &mut [Value], _state: &mut OpState) -> Result<(), String> {
        cpu::eval(self, inputs, &mut outputs[0])
    }
}
