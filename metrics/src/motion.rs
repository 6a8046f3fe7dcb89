//! libvmaf's integer `motion` extractor: `VMAF_integer_feature_motion_sad_score`, `integer_motion2`,
//! `integer_motion3` (and `integer_motion` in debug mode).
//!
//! Graph: the previous reference luma (`frame_delay`), its difference with the current one (`diff`), the
//! 5-tap blur of that difference (`sep_conv`, libvmaf's rounding: `>> bpc` vertically, `>> 16`
//! horizontally) and the sum of absolute values (`abs_sum`). Blurring the difference instead of both frames
//! is what libvmaf does; it is not the same as differencing blurred frames after rounding.
//! Host: `score = min(sad / 256 / (w*h) * fps_weight, max_val)`; then, over the sequence, libvmaf's
//! flush(): `motion2[i] = min(score[i], score[i+1])` (the last frame keeps its own), and `motion3` the
//! blended, clipped, optionally averaged motion2, frame 0 stamped with frame 1's value.

use vqgraph_graph::{Elem, FrameOutputs, GraphBuilder, GraphError};
use vqgraph_ops::abs_sum::AbsSum;
use vqgraph_ops::diff::Diff;
use vqgraph_ops::frame_delay::FrameDelay;
use vqgraph_ops::sep_conv::SepConv;

use crate::extractor::{Extractor, FeatureValues, Sources, sums_i64};

/// libvmaf's motion blur taps (sum 65536).
pub const MOTION_TAPS: [i64; 5] = [3571, 16004, 26386, 16004, 3571];

/// Integer motion with libvmaf's options.
#[derive(Clone, Debug, PartialEq)]
pub struct Motion {
    pub max_val: f64,
    pub blend_factor: f64,
    pub blend_offset: f64,
    pub fps_weight: f64,
    pub moving_average: bool,
    pub force_zero: bool,
    pub debug: bool,
    /// Suffix libvmaf appends to printed names for non-default options (e.g. `_mmxv_18`).
    pub suffix: String,
    /// Pixels per luma plane, set from the sources.
    pixels: usize,
}

impl Default for Motion {
    fn default() -> Self {
        Motion {
            max_val: 10000.0,
            blend_factor: 1.0,
            blend_offset: 40.0,
            fps_weight: 1.0,
            moving_average: false,
            force_zero: false,
            debug: false,
            suffix: String::new(),
            pixels: 0,
        }
    }
}

impl Motion {
    /// Fixes the frame size the host formula divides by.
    pub fn for_sources(mut self, src: &Sources) -> Self {
        self.pixels = src.width * src.height;
        self
    }

    fn blend(&self, x: f64) -> f64 {
        x * self.blend_factor + (1.0 - self.blend_factor) * self.blend_offset.min(x)
    }

    fn name(&self, base: &str) -> String {
        format!("{base}{}", self.suffix)
    }
}

impl Extractor for Motion {
    fn key(&self) -> String {
        format!("motion{}", self.suffix)
    }

    fn build(&self, b: &mut GraphBuilder, src: &Sources) -> Result<(), GraphError> {
        let key = self.key();
        let cur = src.plane(b, "ref", 'y')?;
        let prev = b.op1(&format!("{key}.prev"), FrameDelay, &[cur])?;
        let d = b.op1(&format!("{key}.diff"), Diff, &[prev, cur])?;
        let mut blur = SepConv::rounded(&MOTION_TAPS, src.bpc, 16, Elem::I32);
        // Differences of 8-bit samples (u8 in the file) lie in [-255, 255].
        blur.input_max = (src.bpc == 8).then_some(255);
        let blurred = b.op1(&format!("{key}.blur"), blur, &[d])?;
        let sad = b.op1(&format!("{key}.sad"), AbsSum, &[blurred])?;
        b.output(&format!("{key}/sad"), sad)
    }

    fn frame(&self, out: &FrameOutputs) -> FeatureValues {
        let score = if self.force_zero {
            0.0
        } else {
            let sad = sums_i64(out, &format!("{}/sad", self.key()))[0] as u64;
            // libvmaf: (double)sad / 256. / (w * h) with w*h an unsigned product.
            (sad as f64 / 256.0 / (self.pixels as u32) as f64 * self.fps_weight).min(self.max_val)
        };
        let mut v = vec![(self.name("VMAF_integer_feature_motion_sad_score"), score)];
        if self.debug {
            v.push((self.name("integer_motion"), score));
        }
        v
    }

    fn sequence(&self, frames: &mut [FeatureValues]) {
        let sad_name = self.name("VMAF_integer_feature_motion_sad_score");
        let sad: Vec<f64> = frames
            .iter()
            .map(|f| f.iter().find(|(n, _)| *n == sad_name).map(|(_, v)| *v).expect("internal: motion sad missing"))
            .collect();
        let n = sad.len();
        let stamp = if n > 1 { self.blend(sad[1]).min(self.max_val) } else { 0.0 };
        let mut prev_processed = 0.0;
        for i in 0..n {
            let motion2 = if i < 1 {
                0.0
            } else if i + 1 < n {
                sad[i].min(sad[i + 1])
            } else {
                sad[i]
            };
            let motion3 = if i < 1 {
                prev_processed = stamp;
                stamp
            } else {
                let processed = self.blend(motion2).min(self.max_val);
                let m = if self.moving_average { (processed + prev_processed) / 2.0 } else { processed };
                prev_processed = processed;
                m
            };
            frames[i].push((self.name("integer_motion2"), motion2));
            frames[i].push((self.name("integer_motion3"), motion3));
        }
    }
}
