//! `adm_csf`: ADM's contrast-sensitivity weighting of the three detail bands (libvmaf's `adm_csf` at scale 0,
//! `i4_adm_csf` at scales 1-3: the `dst` planes it writes).
//!
//! Pointwise over three planes `h, v, d` of one element type `T` (`i16` or `i32`); outputs `h, v, d` of the
//! same type:
//!
//! ```text
//! out_b = T((factor_b * x_b + round_b) >> shift_b)          in i64, b = h, v, d
//! ```
//!
//! - Scale 0 ([`AdmCsf::scale0`]): `factor` is libvmaf's Q21/Q21/Q23 `i_rfactor` (`u16`), rounding
//!   `(16384, 15)`, `(16384, 15)` and `(65535, 17)` — libvmaf's diagonal rounding term is 65535, not 65536.
//!   libvmaf computes this in `int32`, which cannot overflow for `u16` factors and `i16` samples, so i64 gives
//!   the same bits.
//! - Scales 1-3 ([`AdmCsf::scale123`]): `factor` is the Q32 weight (`u32`), rounding `(2^27, 28)` for every
//!   band.
//!
//! The weights themselves (floats from the CSF model) are computed once on the host; this op is integer
//! only. The masking threshold libvmaf derives from these planes (`csf_f`, `|x| / 30`) is part of `adm_cm`.

mod cpu;
#[cfg(feature = "cube")]
mod cube;
#[cfg(test)]
mod tests;

use vqgraph_graph::{Op, OpClass, OpInfo, OpState, Value, ValueType};

use crate::adm_common::BAND_ELEMS;
use crate::util::{arity, plane_geom};

pub const INFO: OpInfo = OpInfo {
    name: "adm_csf",
    class: OpClass::Pointwise,
    summary: "ADM contrast-sensitivity weighting of h, v, d bands (fixed-point factor, rounding shift)",
};

/// Per-band fixed-point weights with their rounding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AdmCsf {
    pub factor: [u32; 3],
    pub round: [i64; 3],
    pub shift: [u32; 3],
}

impl AdmCsf {
    /// Scale 0 with libvmaf's `i_rfactor` (Q21 for h and v, Q23 for d).
    pub fn scale0(i_rfactor: [u16; 3]) -> Self {
        AdmCsf { factor: i_rfactor.map(u32::from), round: [16384, 16384, 65535], shift: [15, 15, 17] }
    }

    /// Scales 1-3 with Q32 weights.
    pub fn scale123(rfactor: [u32; 3]) -> Self {
        AdmCsf { factor: rfactor, round: [1 << 27; 3], shift: [28; 3] }
    }
}

impl Op for AdmCsf {
    fn info(&self) -> &'static OpInfo {
        &INFO
    }

    fn params(&self) -> String {
        format!("factor={:?} round={:?} shift={:?}", self.factor, self.round, self.shift)
    }

    fn output_types(&self, inputs: &[ValueType]) -> Result<Vec<ValueType>, String> {
        arity(inputs, 3)?;
        let first = plane_geom(&inputs[0], &BAND_ELEMS, "input 0")?;
        for (k, t) in inputs.iter().enumerate().skip(1) {
            if plane_geom(t, &BAND_ELEMS, &format!("input {k}"))? != first {
                return Err(format!("input {k} is {t}, input 0 is {}", inputs[0]));
            }
        }
        if self.shift.iter().any(|&s| s > 62) {
            return Err("shift must be below 63".into());
        }
        Ok(vec![inputs[0]; 3])
    }

    fn eval_cpu(&self, inputs: &[&Value], outputs: &mut [Value], _state: &mut OpState) -> Result<(), String> {
        cpu::eval(self, inputs, outputs)
    }
}
