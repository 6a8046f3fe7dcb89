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
use vqgraph_models::{ExtractorConfig, Model, ModelConfig, ModelError};

use crate::output::Report;

/// A `--model` argument: `version=NAME` or `path=FILE`, then `:name=..`, `:disable_clip`, `:enable_transform`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelRequest {
    pub source: ModelSource,
    pub config: ModelConfig,
    /// Feature overloads `EXTRACTOR.OPTION=VALUE` (e.g. `adm.adm_enhn_gain_limit=1.0`), in order.
    pub overloads: Vec<(String, String, String)>,
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
        let mut overloads = Vec::new();
        for part in s.split(':') {
            match part.split_once('=') {
                Some((key, v)) if key.contains('.') => {
                    let (ext, opt) = key.split_once('.').expect("checked");
                    overloads.push((ext.to_string(), opt.to_string(), v.to_string()));
                }
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
        Ok(ModelRequest { source, config, overloads })
    }

    /// Loads the model and applies the feature overloads.
    pub fn load(&self) -> Result<Model, ModelError> {
        let mut model = match &self.source {
            ModelSource::Builtin(v) => Model::builtin_with(v, &self.config),
            ModelSource::Path(p) => Model::from_path_with(p, &self.config),
        }?;
        for (ext, opt, val) in &self.overloads {
            model.set_feature_option(ext, opt, val)?;
        }
        Ok(model)
    }

    /// How libvmaf names the model in its summary line: the version or the path.
    pub fn label(&self) -> String {
        match &self.source {
            ModelSource::Builtin(v) => v.clone(),
            ModelSource::Path(p) => p.display().to_string(),
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

    /// The extractor with its options parsed and checked the way libvmaf does.
    pub fn config(&self) -> Result<ExtractorConfig, String> {
        ExtractorConfig::new(&self.extractor, &self.options).map_err(|e| format!("--feature {}: {e}", self.extractor))
    }
}

/// Makes one extractor instance from a libvmaf extractor configuration. Every option the extractor's
/// table has is read (its default when not given); libvmaf extractors vqgraph does not have yet are errors.
pub fn make_extractor(c: &ExtractorConfig, src: &Sources) -> Result<Box<dyn Extractor>, String> {
    let name = c.name();
    let missing = |o: &str| format!("internal: extractor {name} has no option {o}");
    let dbl = |o: &str| c.double(o).ok_or_else(|| missing(o));
    let boolean = |o: &str| c.boolean(o).ok_or_else(|| missing(o));
    let int = |o: &str| c.int(o).ok_or_else(|| missing(o));
    let suffix = c.suffix().to_string();
    Ok(match name {
        "vif" => Box::new(Vif {
            gain_limit: dbl("vif_enhn_gain_limit")?,
            debug: boolean("debug")?,
            skip_scale0: boolean("vif_skip_scale0")?,
            suffix,
        }),
        "adm" => Box::new(
            Adm {
                gain_limit: dbl("adm_enhn_gain_limit")?,
                debug: boolean("debug")?,
                csf_mode: int("adm_csf_mode")?,
                csf_scale: dbl("adm_csf_scale")?,
                csf_diag_scale: dbl("adm_csf_diag_scale")?,
                dlm_weight: dbl("adm_dlm_weight")?,
                norm_view_dist: dbl("adm_norm_view_dist")?,
                ref_display_height: int("adm_ref_display_height")?,
                noise_weight: dbl("adm_noise_weight")?,
                min_val: dbl("adm_min_val")?,
                skip_aim: boolean("adm_skip_aim")?,
                skip_scale0: boolean("adm_skip_scale0")?,
                geometry: None,
                suffix,
            }
            .for_sources(src),
        ),
        "motion" => {
            if boolean("motion_five_frame_window")? {
                return Err("feature extractor motion: motion_five_frame_window is not supported yet".into());
            }
            let mut m = Motion::default();
            m.max_val = dbl("motion_max_val")?;
            m.blend_factor = dbl("motion_blend_factor")?;
            m.blend_offset = dbl("motion_blend_offset")?;
            m.fps_weight = dbl("motion_fps_weight")?;
            m.moving_average = boolean("motion_moving_average")?;
            m.force_zero = boolean("motion_force_zero")?;
            m.debug = boolean("debug")?;
            m.suffix = suffix;
            Box::new(m.for_sources(src))
        }
        "psnr" => {
            for o in ["reduced_hbd_peak"] {
                if boolean(o)? {
                    return Err(format!("feature extractor psnr: option {o} is not supported yet"));
                }
            }
            if dbl("min_sse")? != 0.0 {
                return Err("feature extractor psnr: option min_sse is not supported yet".into());
            }
            Box::new(
                Psnr::new(boolean("enable_chroma")?, boolean("enable_mse")?, boolean("enable_apsnr")?).for_sources(src),
            )
        }
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
                add(make_extractor(&f.extractor_config(), src).map_err(|e| format!("model {}: {e}", model.name()))?);
            }
        }
        for f in features {
            add(make_extractor(&f.config()?, src)?);
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
