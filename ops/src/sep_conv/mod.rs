//! `sep_conv`: separable integer convolution with reflect-101 edges and a rounding shift after each pass.
//!
//! Semantics, for an input plane `x` (w x h), taps `t` (odd length `n`, radius `r = n / 2`):
//!
//! ```text
//! v[i][j]   = (sum_k t[k] * x[mirror(i - r + k)][j] + v_round) >> v_shift      (vertical pass first)
//! out[i][j] = (sum_k t[k] * v[i][mirror(j - r + k)] + h_round) >> h_shift      (then horizontal)
//! ```
//!
//! All sums exact (as if in i64), shifts arithmetic (as C's `>>` on the signed accumulators libvmaf uses), output cast to
//! the output element type like a C cast. This one op is libvmaf's VIF decimation pre-filter and the motion
//! blur (applied to the frame difference), with their exact rounding.

mod cpu;
#[cfg(feature = "cube")]
mod cube;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use vqgraph_graph::{Elem, Op, OpClass, OpInfo, OpState, Value, ValueType};

use crate::decimate::Decimate;
use crate::util::{arity, plane_geom};

pub const INFO: OpInfo = OpInfo {
    name: "sep_conv",
    class: OpClass::Stencil,
    summary: "separable integer convolution, mirror edges, rounding shifts",
};

/// Parameters of one separable convolution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SepConv {
    pub taps: Vec<i64>,
    pub v_round: i64,
    pub v_shift: u32,
    pub h_round: i64,
    pub h_shift: u32,
    pub out: Elem,
    /// Largest |input value| the caller guarantees (e.g. 255 for differences of 8-bit frames), letting the
    /// CPU reference use narrower accumulators; `None` assumes the whole range of the input type.
    pub input_max: Option<i64>,
    /// 1, or 2 to compute only the even rows and columns (`out[i][j] = full[2i][2j]`, size
    /// `floor(w/2) x floor(h/2)`): what the scheduler makes of `sep_conv` followed by `decimate`.
    pub stride: usize,
}

impl SepConv {
    /// A convolution rounding to nearest after each pass: `(acc + 2^(s-1)) >> s` (no rounding term for s = 0).
    pub fn rounded(taps: &[i64], v_shift: u32, h_shift: u32, out: Elem) -> Self {
        let round = |s: u32| if s == 0 { 0 } else { 1i64 << (s - 1) };
        SepConv {
            taps: taps.to_vec(),
            v_round: round(v_shift),
            v_shift,
            h_round: round(h_shift),
            h_shift,
            out,
            input_max: None,
            stride: 1,
        }
    }
}

impl Op for SepConv {
    fn info(&self) -> &'static OpInfo {
        &INFO
    }

    fn params(&self) -> String {
        format!(
            "taps={:?} v=(+{})>>{} h=(+{})>>{} out={}{}",
            self.taps,
            self.v_round,
            self.v_shift,
            self.h_round,
            self.h_shift,
            self.out,
            if self.stride == 2 { " stride=2" } else { "" }
        )
    }

    fn output_types(&self, inputs: &[ValueType]) -> Result<Vec<ValueType>, String> {
        arity(inputs, 1)?;
        let (_, w, h) = plane_geom(&inputs[0], &[Elem::U16, Elem::I16, Elem::U32, Elem::I32], "input")?;
        if self.taps.len().is_multiple_of(2) {
            return Err(format!("taps must have odd length, got {}", self.taps.len()));
        }
        let r = self.taps.len() / 2;
        if w <= r || h <= r {
            return Err(format!(
                "plane {w}x{h} is too small for a {}-tap filter (mirror edges need more than {r})",
                self.taps.len()
            ));
        }
        if self.v_shift > 62 || self.h_shift > 62 {
            return Err("shift must be below 63".into());
        }
        if !matches!(self.stride, 1 | 2) {
            return Err(format!("stride must be 1 or 2, got {}", self.stride));
        }
        Ok(vec![ValueType::plane(self.out, w / self.stride, h / self.stride)])
    }

    fn fuse(&self, next: &dyn Op) -> Option<Arc<dyn Op>> {
        // Decimating right after filtering: compute only the samples that are kept.
        (self.stride == 1 && next.as_any().is::<Decimate>())
            .then(|| Arc::new(SepConv { stride: 2, ..self.clone() }) as Arc<dyn Op>)
    }

    fn eval_cpu(&self, inputs: &[&Value], outputs: &mut [Value], _state: &mut OpState) -> Result<(), String> {
        cpu::eval(self, inputs[0], &mut outputs[0])
    }
}
