//! Clipping of the final score to `model_dict.score_clip`.

/// `[min, max]` from `score_clip`; absent when the model has none or was
/// loaded with `disable_clip`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ScoreClip {
    pub min: f64,
    pub max: f64,
}

impl ScoreClip {
    /// predict.c `clip`: two comparisons in this order, so a NaN score
    /// passes through unchanged and a min above max yields max.
    pub(crate) fn apply(&self, y: f64) -> f64 {
        let y = if y < self.min { self.min } else { y };
        if y > self.max { self.max } else { y }
    }
}
