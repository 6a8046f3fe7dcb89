//! `adm_csf_den`: the integer sums behind ADM's denominator of one scale (libvmaf's `adm_csf_den_scale` at
//! scale 0, `adm_csf_den_s123` at scales 1-3): sums of cubes of the reference's detail bands over the
//! border [`crate::adm_common::Region`], before the CSF weight (libvmaf multiplies by the weight cubed on
//! the host side of its computation, in floats).
//!
//! Inputs: the reference's `h, v, d` bands (`i16` at scale 0, `i32` at scales 1-3), `w` x `h`. Output:
//! `sums<u64>[3]`, `[S_h, S_v, S_d]`, in u64 arithmetic with `a = |x|`:
//!
//! ```text
//! scale 0:    row[i] = sum_j a^3;                                  S = sum_i (row[i] + half(s)) >> s
//!             s = max(0, ceil(log2(region area) - 20))
//! scale 1-3:  row[i] = sum_j (((a^2 + 2^q) >> q) * a + half(c)) >> c;   S = sum_i (row[i] + half(r)) >> r
//!             q = 31, 30, 31 for scales 1, 2, 3 (the rounding term is libvmaf's 2^q, not 2^(q-1)),
//!             c = ceil(log2(region width)), r = ceil(log2(region height))
//! ```
//!
//! with `half(s) = 2^(s-1)` (0 for s = 0) and the shifts computed with libvmaf's double `log2`. Integer
//! only. The host gets libvmaf's double `S / 2^e` with [`AdmCsfDen::exponent`].

mod cpu;
#[cfg(feature = "cube")]
mod cube;
#[cfg(test)]
mod tests;

use vqgraph_graph::{Elem, Op, OpClass, OpInfo, OpState, Value, ValueType};

use crate::adm_common::{BAND_ELEMS, Region, ceil_log2_minus};
use crate::util::{arity, plane_geom};

pub const INFO: OpInfo = OpInfo {
    name: "adm_csf_den",
    class: OpClass::Reduce,
    summary: "ADM denominator: per-band sums of cubes of the reference bands inside the border",
};

/// The denominator sums of one scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AdmCsfDen {
    /// 0..=3.
    pub scale: u8,
}

/// Shifts of one band geometry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DenShifts {
    /// Square shift (scales 1-3; 0 at scale 0).
    pub sq: u32,
    /// Per-sample shift after the cube (scales 1-3; 0 at scale 0).
    pub cub: u32,
    /// Per-row shift.
    pub row: u32,
}

impl AdmCsfDen {
    pub fn shifts(&self, w: usize, h: usize) -> DenShifts {
        let r = Region::of(w, h);
        if self.scale == 0 {
            DenShifts { sq: 0, cub: 0, row: ceil_log2_minus(r.area(), 20.0) }
        } else {
            let sq = [31, 30, 31][self.scale as usize - 1];
            DenShifts { sq, cub: ceil_log2_minus(r.right - r.left, 0.0), row: ceil_log2_minus(r.bottom - r.top, 0.0) }
        }
    }

    /// The power of two the sums are divided by to give libvmaf's double (`18 - row shift` at scale 0,
    /// `32, 27, 23 - row - cub` at scales 1-3; in libvmaf the latter is unsigned arithmetic, so a negative
    /// exponent, reached only by bands of more than ~2^23 samples per row band, would read as infinite).
    pub fn exponent(&self, w: usize, h: usize) -> i64 {
        let s = self.shifts(w, h);
        match self.scale {
            0 => 18 - s.row as i64,
            k => [32i64, 27, 23][k as usize - 1] - s.row as i64 - s.cub as i64,
        }
    }
}

impl Op for AdmCsfDen {
    fn info(&self) -> &'static OpInfo {
        &INFO
    }

    fn params(&self) -> String {
        format!("scale={}", self.scale)
    }

    fn output_types(&self, inputs: &[ValueType]) -> Result<Vec<ValueType>, String> {
        arity(inputs, 3)?;
        if self.scale > 3 {
            return Err(format!("scale must be 0..=3, got {}", self.scale));
        }
        let elem = if self.scale == 0 { Elem::I16 } else { Elem::I32 };
        let first = plane_geom(&inputs[0], &BAND_ELEMS, "input 0")?;
        for (k, t) in inputs.iter().enumerate() {
            if plane_geom(t, &[elem], &format!("input {k}"))? != first {
                return Err(format!("input {k} is {t}, input 0 is {}", inputs[0]));
            }
        }
        if first.1 < 3 || first.2 < 3 {
            return Err(format!("band {}x{} is too small (needs at least 3x3)", first.1, first.2));
        }
        Ok(vec![ValueType::sums(Elem::U64, 3)])
    }

    fn eval_cpu(&self, inputs: &[&Value], outputs: &mut [Value], _state: &mut OpState) -> Result<(), String> {
        cpu::eval(self, inputs, &mut outputs[0])
    }
}
