//! One libvmaf `VmafModel`: features with their normalisation, the libsvm
//! regressor, and the post-processing of its output. Implements predict.c
//! `vmaf_predict_score_at_index` for one frame, given the feature values.

use crate::libsvm::{SvmModel, SvmNode};
use crate::model_feature::ModelFeature;
use crate::normalization::NormType;
use crate::score_clip::ScoreClip;
use crate::score_transform::ScoreTransform;

/// `model_dict.model_type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ModelType {
    /// No `model_type` key (libvmaf leaves the type unknown; fine for a
    /// single model, not for a collection).
    Unknown,
    /// `LIBSVMNUSVR`
    SvmNuSvr,
    /// `BOOTSTRAP_LIBSVMNUSVR`
    BootstrapSvmNuSvr,
    /// `RESIDUEBOOTSTRAP_LIBSVMNUSVR`
    ResidueBootstrapSvmNuSvr,
}

/// A single libvmaf model.
#[derive(Debug, Clone)]
pub(crate) struct SvrModel {
    /// The score name (`vmaf`, `vmaf_b_v0.6.3_0003`, ...).
    pub name: String,
    pub model_type: ModelType,
    pub norm: NormType,
    /// Output denormalisation (slopes[0], intercepts[0]).
    pub slope: f64,
    pub intercept: f64,
    pub features: Vec<ModelFeature>,
    /// Per-feature normalisation (slopes[i + 1], intercepts[i + 1]).
    pub feature_slopes: Vec<f64>,
    pub feature_intercepts: Vec<f64>,
    pub clip: Option<ScoreClip>,
    pub transform: ScoreTransform,
    /// `chroma_correction_parameter` (v1.0.16 models).
    pub chroma_correction: Option<f64>,
    pub svm: SvmModel,
}

impl SvrModel {
    /// The denormalised SVM output for one frame, before transform and
    /// clipping (what libvmaf computes with
    /// `VMAF_MODEL_FLAG_DISABLE_CLIP | VMAF_MODEL_FLAG_DISABLE_TRANSFORM`).
    /// `raw[i]` is the value of `self.features[i]`.
    pub(crate) fn predict_raw(&self, raw: &[f64]) -> Result<f64, String> {
        let mut nodes: Vec<SvmNode> = raw
            .iter()
            .enumerate()
            .map(|(i, &x)| SvmNode {
                index: i as i32 + 1,
                value: self.norm.normalize(self.feature_slopes[i], self.feature_intercepts[i], x),
            })
            .collect();
        if let Some(ccp) = self.chroma_correction {
            if ccp == 0.0 {
                // libvmaf jumps to its exit path with status 0 here and
                // writes no score at all.
                return Err("chroma_correction_parameter is 0: libvmaf produces no score".into());
            }
            self.correct_chroma_from_luma(&mut nodes, ccp)?;
        }
        let prediction = self.svm.predict(&nodes);
        Ok(self.norm.denormalize(self.slope, self.intercept, prediction))
    }

    /// Transform then clip, as predict.c does after denormalising, each
    /// step skippable like libvmaf's per-call flags.
    pub(crate) fn post_process(&self, y: f64, disable_clip: bool, disable_transform: bool) -> f64 {
        let y = if disable_transform { y } else { self.transform.apply(y) };
        match (&self.clip, disable_clip) {
            (Some(c), false) => c.apply(y),
            _ => y,
        }
    }

    /// predict.c `post_process_feature_from_another` with guiding feature
    /// `adm3` and guided feature `speed_chroma` (matched as substrings of
    /// the model's feature names): when the (denormalised) speed_chroma
    /// input is exactly 0, it is replaced by `ccp - ccp * adm3`.
    fn correct_chroma_from_luma(&self, nodes: &mut [SvmNode], ccp: f64) -> Result<(), String> {
        const GUIDING: &str = "adm3";
        const GUIDED: &str = "speed_chroma";
        const VALUE_TO_BE_CORRECTED: f64 = 0.0;
        let mut guiding: Option<f64> = None;
        let mut guided_idx: Option<usize> = None;
        let mut found_guided = false;
        for (i, f) in self.features.iter().enumerate() {
            let (s, c) = (self.feature_slopes[i], self.feature_intercepts[i]);
            if f.name().contains(GUIDING) {
                if guiding.is_some() {
                    return Err(format!("chroma correction: \"{GUIDING}\" matches more than one feature"));
                }
                guiding = Some(self.norm.denormalize(s, c, nodes[i].value));
            }
            if f.name().contains(GUIDED) {
                if found_guided {
                    return Err(format!("chroma correction: \"{GUIDED}\" matches more than one feature"));
                }
                found_guided = true;
                let guided = self.norm.denormalize(s, c, nodes[i].value);
                if guided == VALUE_TO_BE_CORRECTED {
                    guided_idx = Some(i);
                } else {
                    return Ok(());
                }
            }
        }
        // libvmaf reads uninitialised values when either feature is absent.
        let (Some(guiding), Some(idx)) = (guiding, guided_idx) else {
            return Err(format!(
                "chroma correction needs one \"{GUIDING}\" and one \"{GUIDED}\" feature (libvmaf's behaviour is undefined otherwise)"
            ));
        };
        let corrected = (-ccp * guiding) + ccp;
        nodes[idx].value = self.norm.normalize(self.feature_slopes[idx], self.feature_intercepts[idx], corrected);
        Ok(())
    }
}
