//! From what the user asked for (models, `--feature` requests) to the extractor instances a graph is built
//! from, and from per-frame features to model scores.
//!
//! Extractors are deduplicated the way libvmaf does: by extractor name plus the options that change feature
//! names, so `vmaf_v0.6.1` and `vmaf_v0.6.1neg` share motion but each has its own VIF/ADM instance.

use std::path::PathBuf;

use vqgraph_metrics::adm::Adm;
use vqgraph_metrics::motion::Motion;
use vqgraph_metrics::psnr::Psnr;
use vqgraph_metrics::vif::Vif;
use vqgraph_metrics::{Extractor, FeatureValues, Sources};
use vqgraph_models::{Model, ModelConfig, ModelError, OptionValue};

use crate::output::Report;

/// A `--model` argument: `version=NAME` or `path=FILE`, then `:name=..`, `:disable_clip`, `:enable_transform`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelRequest {
    pub source: ModelSource,
    pub config: ModelConfig,
}

/// Where a model comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelSource {
    Builtin(String),
    Path(PathBuf),
}

impl ModelRequest {
    pub fn parse(s: &str) -> Result<Self, String> {
        let mut source = None;
        let mut config = ModelConfig::default();
        for part in s.split(':') {
            match part.split_once('=') {
                Some(("version", v)) => source = Some(ModelSource::Builtin(v.to_string())),
                Some(("path", p)) => source = Some(ModelSource::Path(PathBuf::from(p))),
                Some(("name", n)) => config.name = n.to_string(),
                None if part == "disable_clip" => config.disable_clip = true,
                None if part == "enable_transform" => config.enable_transform = true,
                Some(("disable_clip", v)) => config.disable_clip = parse_bool(v)?,
                Some(("enable_transform", v)) => config.enable_transform = parse_bool(v)?,
                _ => return Err(format!("--model {s:?}: unknown parameter {part:?}")),
            }
        }
        let source = source.ok_or_else(|| format!("--model {s:?}: needs version=NAME or path=FILE"))?;
        Ok(ModelRequest { source, config })
    }

    pub fn load(&self) -> Result<Model, ModelError> {
        match &self.source {
            ModelSource::Builtin(v) => Model::builtin_with(v, &self.config),
            ModelSource::Path(p) => Model::from_path_with(p, &self.config),
        }
    }
}

fn parse_bool(v: &str) -> Result<bool, String> {
    match v {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(format!("expected true or false, got {v:?}")),
    }
}

/// A `--feature NAME=opt=val:opt=val` request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureRequest {
    pub extractor: String,
    pub options: Vec<(String, String)>,
}

impl FeatureRequest {
    pub fn parse(s: &str) -> Result<Self, String> {
        let (extractor, rest) = s.split_once('=').unwrap_or((s, ""));
        let mut options = Vec::new();
        for kv in rest.split(':').filter(|p| !p.is_empty()) {
            let (k, v) = kv.split_once('=').ok_or_else(|| format!("--feature {s:?}: option {kv:?} has no value"))?;
            options.push((k.to_string(), v.to_string()));
        }
        Ok(FeatureRequest { extractor: extractor.to_string(), options })
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.options.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

/// Typed option lookup shared by model features and `--feature` requests.
trait Options {
    fn double(&self, name: &str, default: f64) -> Result<f64, String>;
    fn boolean(&self, name: &str, default: bool) -> Result<bool, String>;
    fn int(&self, name: &str, default: i32) -> Result<i32, String>;
}

impl Options for FeatureRequest {
    fn double(&self, name: &str, default: f64) -> Result<f64, String> {
        self.get(name).map_or(Ok(default), |v| {
            v.parse().map_err(|_| format!("--feature {}: option {name}: {v:?} is not a number", self.extractor))
        })
    }
    fn boolean(&self, name: &str, default: bool) -> Result<bool, String> {
        self.get(name)
            .map_or(Ok(default), |v| parse_bool(v).map_err(|e| format!("--feature {}: {name}: {e}", self.extractor)))
    }
    fn int(&self, name: &str, default: i32) -> Result<i32, String> {
        self.get(name).map_or(Ok(default), |v| {
            v.parse().map_err(|_| format!("--feature {}: option {name}: {v:?} is not an integer", self.extractor))
        })
    }
}

impl Options for vqgraph_models::ModelFeature {
    fn double(&self, name: &str, default: f64) -> Result<f64, String> {
        Ok(match self.option_value(name) {
            Some(OptionValue::Double(d)) => *d,
            _ => default,
        })
    }
    fn boolean(&self, name: &str, default: bool) -> Result<bool, String> {
        Ok(match self.option_value(name) {
            Some(OptionValue::Bool(b)) => *b,
            _ => default,
        })
    }
    fn int(&self, name: &str, default: i32) -> Result<i32, String> {
        Ok(match self.option_value(name) {
            Some(OptionValue::Int(i)) => *i,
            _ => default,
        })
    }
}

/// Makes one extractor instance from libvmaf's extractor name and options.
fn make_extractor(name: &str, o: &dyn Options, src: &Sources) -> Result<Box<dyn Extractor>, String> {
    Ok(match name {
        "vif" => Box::new(Vif {
            gain_limit: o.double("vif_enhn_gain_limit", 100.0)?,
            debug: o.boolean("debug", false)?,
            skip_scale0: o.boolean("vif_skip_scale0", false)?,
        }),
        "adm" => {
            let d = Adm::default();
            Box::new(
                Adm {
                    gain_limit: o.double("adm_enhn_gain_limit", d.gain_limit)?,
                    debug: o.boolean("debug", false)?,
                    csf_mode: o.int("adm_csf_mode", d.csf_mode)?,
                    csf_scale: o.double("adm_csf_scale", d.csf_scale)?,
                    csf_diag_scale: o.double("adm_csf_diag_scale", d.csf_diag_scale)?,
                    dlm_weight: o.double("adm_dlm_weight", d.dlm_weight)?,
                    norm_view_dist: o.double("adm_norm_view_dist", d.norm_view_dist)?,
                    ref_display_height: o.int("adm_ref_display_height", d.ref_display_height)?,
                    noise_weight: o.double("adm_noise_weight", d.noise_weight)?,
                    min_val: o.double("adm_min_val", d.min_val)?,
                    skip_aim: o.boolean("adm_skip_aim", d.skip_aim)?,
                    skip_scale0: o.boolean("adm_skip_scale0", d.skip_scale0)?,
                    geometry: None,
                }
                .for_sources(src),
            )
        }
        "motion" => {
            let mut m = Motion::default();
            m.max_val = o.double("motion_max_val", m.max_val)?;
            m.blend_factor = o.double("motion_blend_factor", m.blend_factor)?;
            m.blend_offset = o.double("motion_blend_offset", m.blend_offset)?;
            m.fps_weight = o.double("motion_fps_weight", m.fps_weight)?;
            m.moving_average = o.boolean("motion_moving_average", m.moving_average)?;
            m.force_zero = o.boolean("motion_force_zero", m.force_zero)?;
            m.debug = o.boolean("debug", false)?;
            if o.boolean("motion_five_frame_window", false)? {
                return Err("motion: motion_five_frame_window is not supported yet".into());
            }
            Box::new(m.with_default_suffix().for_sources(src))
        }
        "psnr" => Box::new(
            Psnr::new(
                o.boolean("enable_chroma", true)?,
                o.boolean("enable_mse", false)?,
                o.boolean("enable_apsnr", false)?,
            )
            .for_sources(src),
        ),
        other => return Err(format!("feature extractor {other:?} is not available in vqgraph yet")),
    })
}

/// The extractors and models of one run.
pub struct Setup {
    pub models: Vec<Model>,
    pub extractors: Vec<Box<dyn Extractor>>,
}

impl Setup {
    /// Loads the models and creates one extractor instance per distinct (extractor, options) they and the
    /// `--feature` requests need.
    pub fn new(models: &[ModelRequest], features: &[FeatureRequest], src: &Sources) -> Result<Self, String> {
        let models: Vec<Model> =
            models.iter().map(|m| m.load().map_err(|e| e.to_string())).collect::<Result<_, _>>()?;
        let mut extractors: Vec<Box<dyn Extractor>> = Vec::new();
        let mut add = |e: Box<dyn Extractor>| {
            if !extractors.iter().any(|x| x.key() == e.key()) {
                extractors.push(e);
            }
        };
        for model in &models {
            for f in model.features() {
                add(make_extractor(f.extractor(), f, src).map_err(|e| format!("model {}: {e}", model.name()))?);
            }
        }
        for f in features {
            add(make_extractor(&f.extractor, f, src)?);
        }
        Ok(Setup { models, extractors })
    }

    /// Appends every model's scores to each frame's features.
    pub fn predict(&self, frames: &mut [FeatureValues]) -> Result<(), ModelError> {
        for frame in frames.iter_mut() {
            let mut scores = Vec::new();
            for model in &self.models {
                let lookup = |name: &str| frame.iter().find(|(k, _)| k == name).map(|(_, v)| *v);
                scores.extend(model.predict(&lookup)?.into_vec());
            }
            frame.extend(scores);
        }
        Ok(())
    }

    /// Mean of each model's main score, for the summary printed after a run.
    pub fn pooled_means(&self, report: &Report) -> Vec<(String, f64)> {
        self.models.iter().filter_map(|m| report.pooled(m.name()).map(|p| (m.name().to_string(), p.mean))).collect()
    }
}
