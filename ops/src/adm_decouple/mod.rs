//! `adm_decouple`: ADM's split of the distorted detail bands into a restored part (what is left of the
//! reference detail) and an additive artifact part (libvmaf's `adm_decouple` / `adm_decouple_s123`).
//!
//! Pointwise over six planes of one element type (`i16` at scale 0, `i32` at scales 1-3): reference bands
//! `o = (oh, ov, od)` and distorted bands `t = (th, tv, td)`. Outputs, in order: restored `rh, rv, rd`, then
//! artifact `ah, av, ad`, same type. For each band `b` in `h, v, d`:
//!
//! ```text
//! k_b  = 32768 if o_b == 0, else clamp(round_q15(t_b / o_b), 0, 32768)    (Q15 gain, see below)
//! r_b  = T((k_b * o_b + 16384) >> 15)
//! if angle_ok and k_b * o_b > 0: r_b = T(trunc(min(r_b * gain_limit, t_b)))    (f64 min)
//! if angle_ok and k_b * o_b < 0: r_b = T(trunc(max(r_b * gain_limit, t_b)))
//! a_b  = T(t_b - r_b)
//! ```
//!
//! The division is libvmaf's reciprocal table `DIV[m] = 2^30 / m` (m = 1..32768): for `|o| < 2^15`,
//! `k = (DIV[|o|] * t * sign(o) + 2^14) >> 15`; for larger `|o|` the divisor is first rounded to 15
//! significant bits `m = (|o| + 2^(s-1)) >> s`, `s = 17 - clz32(|o|)`, and
//! `k = (DIV[m] * t * sign(o) + 2^(14+s)) >> (15+s)`. For `i16` bands this equals libvmaf's scale-0 form
//! `(DIV[o + 32768] * t + 16384) >> 15` bit for bit (the table is odd around its middle, and `o = -32768`
//! takes the `s = 1` path to the same `-t`). All in i64.
//!
//! **Floats** (as libvmaf computes them, reproduced exactly): the angle test, with `dp = oh*th + ov*tv`,
//! `|o|^2 = oh^2 + ov^2`, `|t|^2 = th^2 + tv^2` exact in i64, then
//! `angle_ok = x >= 0 && x*x >= c * (f32(|o|^2) / 4096.0) * (f32(|t|^2) / 4096.0)` with
//! `x = f64(f32(dp)) / 4096.0`, `c = f32(cos(1 deg)^2)`, products in f64 left to right; the sign test of
//! `k * o` is libvmaf's f32 product `(k / 32768) * (o / 64)`; the gain limit is applied in f64 and
//! truncated toward zero.

mod cpu;
#[cfg(test)]
mod tests;

use vqgraph_graph::{Op, OpClass, OpInfo, OpState, Value, ValueType};

use crate::adm_common::BAND_ELEMS;
use crate::util::{arity, plane_geom};

pub const INFO: OpInfo = OpInfo {
    name: "adm_decouple",
    class: OpClass::Pointwise,
    summary: "ADM restored/artifact split of detail bands (angle test, enhancement gain limit)",
};

/// The decoupling with its enhancement gain limit (libvmaf's `adm_enhn_gain_limit`, >= 1; 100 by default).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdmDecouple {
    pub gain_limit: f64,
}

impl Op for AdmDecouple {
    fn info(&self) -> &'static OpInfo {
        &INFO
    }

    fn params(&self) -> String {
        format!("gain_limit={}", self.gain_limit)
    }

    fn output_types(&self, inputs: &[ValueType]) -> Result<Vec<ValueType>, String> {
        arity(inputs, 6)?;
        let first = plane_geom(&inputs[0], &BAND_ELEMS, "input 0")?;
        for (k, t) in inputs.iter().enumerate().skip(1) {
            if plane_geom(t, &BAND_ELEMS, &format!("input {k}"))? != first {
                return Err(format!("input {k} is {t}, input 0 is {}", inputs[0]));
            }
        }
        // (Also rejects NaN.)
        if self.gain_limit.is_nan() || self.gain_limit < 1.0 {
            return Err(format!("gain_limit must be >= 1, got {}", self.gain_limit));
        }
        Ok(vec![inputs[0]; 6])
    }

    fn eval_cpu(&self, inputs: &[&Value], outputs: &mut [Value], _state: &mut OpState) -> Result<(), String> {
        cpu::eval(self, inputs, outputs)
    }
}
