//! Feature normalisation and score denormalisation (`norm_type`).
//!
//! With `linear_rescale`, libvmaf feeds the SVM `slope * x + intercept` for
//! each feature (slopes[i + 1], intercepts[i + 1]) and maps the SVM output
//! back with `(y - intercept) / slope` (slopes[0], intercepts[0]). Written
//! exactly as in predict.c: one multiply and one add (no fused multiply-add:
//! libvmaf's x86-64 build does not contract them), one subtract and one
//! divide.

/// `model_dict.norm_type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NormType {
    None,
    LinearRescale,
}

impl NormType {
    /// predict.c `normalize`.
    pub(crate) fn normalize(self, slope: f64, intercept: f64, x: f64) -> f64 {
        match self {
            NormType::None => x,
            NormType::LinearRescale => slope * x + intercept,
        }
    }

    /// predict.c `denormalize` / `denormalize_feature`.
    pub(crate) fn denormalize(self, slope: f64, intercept: f64, y: f64) -> f64 {
        match self {
            NormType::None => y,
            NormType::LinearRescale => (y - intercept) / slope,
        }
    }
}
