//! The public model: loading (built-in, path, text), the features it needs,
//! option overloads, and per-frame prediction.

use std::path::Path;

use crate::bootstrap::BootstrapCollection;
use crate::builtin::{BUILTIN_MODELS, builtin_json};
use crate::c_numeric;
use crate::error::ModelError;
use crate::extractors::extractor_by_name;
use crate::feature_options::OptionDict;
use crate::feature_source::FeatureSource;
use crate::json::{self, JsonValue};
use crate::json_model::{Ctx, LoadFlags, parse_model};
use crate::model_config::ModelConfig;
use crate::model_feature::ModelFeature;
use crate::model_scores::ModelScores;
use crate::svr_model::{ModelType, SvrModel};

/// A loaded libvmaf model: a single SVR model, or a bootstrap collection
/// (its first model plus the collection, as libvmaf loads `vmaf_b_v0.6.3`).
#[derive(Debug, Clone)]
pub struct Model {
    source: String,
    main: SvrModel,
    bootstrap: Option<BootstrapCollection>,
    /// Every distinct input feature (by printed name), first seen first.
    features: Vec<ModelFeature>,
    /// For the main model, then each collection model: index into
    /// `features` of each of its inputs.
    input_maps: Vec<Vec<usize>>,
}

impl Model {
    /// Loads a built-in model by version (`vmaf_v0.6.1`, `vmaf_v0.6.1neg`,
    /// `vmaf_4k_v0.6.1`, `vmaf_b_v0.6.3`) with default options (score name
    /// `vmaf`, as libvmaf names it).
    pub fn builtin(version: &str) -> Result<Model, ModelError> {
        Model::builtin_with(version, &ModelConfig::default())
    }

    /// Loads a built-in model with options.
    pub fn builtin_with(version: &str, cfg: &ModelConfig) -> Result<Model, ModelError> {
        let Some(text) = builtin_json(version) else {
            return Err(ModelError::UnknownBuiltin {
                name: version.to_owned(),
                available: Model::builtin_versions().join(", "),
            });
        };
        Model::from_json_str(text, &format!("built-in {version}"), cfg)
    }

    /// Versions accepted by [`Model::builtin`].
    pub fn builtin_versions() -> Vec<&'static str> {
        BUILTIN_MODELS.iter().map(|(v, _)| *v).collect()
    }

    /// Loads a model file with default options.
    pub fn from_path(path: impl AsRef<Path>) -> Result<Model, ModelError> {
        Model::from_path_with(path, &ModelConfig::default())
    }

    /// Loads a model file (single model or bootstrap collection) with options.
    pub fn from_path_with(path: impl AsRef<Path>, cfg: &ModelConfig) -> Result<Model, ModelError> {
        let path = path.as_ref();
        let file = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|io| ModelError::Io { file: file.clone(), io })?;
        let text = String::from_utf8(bytes).map_err(|e| ModelError::Json {
            file: file.clone(),
            line: 0,
            column: 0,
            message: format!("not UTF-8 (byte {})", e.utf8_error().valid_up_to()),
        })?;
        Model::from_json_str(&text, &file, cfg)
    }

    /// Loads a model from JSON text; `source` names it in errors.
    ///
    /// Like the `vmaf` CLI, a document with `model_dict` at the top is a
    /// single model, otherwise it is read as a collection
    /// (`"0"`, `"1"`, ...).
    pub fn from_json_str(text: &str, source: &str, cfg: &ModelConfig) -> Result<Model, ModelError> {
        let root = json::parse(text).map_err(|e| ModelError::Json {
            file: source.to_owned(),
            line: e.line,
            column: e.column,
            message: e.message,
        })?;
        let flags = LoadFlags { disable_clip: cfg.disable_clip, enable_transform: cfg.enable_transform };
        let top = Ctx { file: source, prefix: String::new() };
        let is_collection = root.get("model_dict").is_none() && root.get("0").is_some();
        let (main, bootstrap) = if is_collection {
            let (main, coll) = parse_collection(&top, &root, &cfg.name, flags)?;
            (main, Some(coll))
        } else {
            (parse_model(&top, &root, cfg.name.clone(), flags)?, None)
        };
        let mut model =
            Model { source: source.to_owned(), main, bootstrap, features: Vec::new(), input_maps: Vec::new() };
        model.rebuild_feature_table();
        Ok(model)
    }

    fn submodels(&self) -> impl Iterator<Item = &SvrModel> {
        std::iter::once(&self.main).chain(self.bootstrap.iter().flat_map(|b| b.models.iter()))
    }

    fn rebuild_feature_table(&mut self) {
        let mut features: Vec<ModelFeature> = Vec::new();
        let mut maps = Vec::new();
        for m in std::iter::once(&self.main).chain(self.bootstrap.iter().flat_map(|b| b.models.iter())) {
            let mut map = Vec::with_capacity(m.features.len());
            for f in &m.features {
                let idx = match features.iter().position(|g| g.printed_name() == f.printed_name()) {
                    Some(i) => i,
                    None => {
                        features.push(f.clone());
                        features.len() - 1
                    }
                };
                map.push(idx);
            }
            maps.push(map);
        }
        self.features = features;
        self.input_maps = maps;
    }

    /// The score name (`name=`, default `vmaf`).
    pub fn name(&self) -> &str {
        &self.main.name
    }

    /// Where the model came from (path, or `built-in <version>`).
    pub fn source(&self) -> &str {
        &self.source
    }

    /// True for a bootstrap collection.
    pub fn is_bootstrap(&self) -> bool {
        self.bootstrap.is_some()
    }

    /// The features a prediction needs, each once (by printed name), in the
    /// model's order. For a collection: the first model's, then any the
    /// other models add.
    pub fn features(&self) -> &[ModelFeature] {
        &self.features
    }

    /// The names of the scores [`Model::predict`] returns, in order.
    pub fn score_names(&self) -> Vec<String> {
        let mut names = vec![self.main.name.clone()];
        if let Some(b) = &self.bootstrap {
            names.extend(b.models.iter().map(|m| m.name.clone()));
            for suffix in ["_bagging", "_stddev", "_ci_p95_lo", "_ci_p95_hi"] {
                names.push(format!("{}{suffix}", b.name));
            }
        }
        names
    }

    /// Overrides an option of every feature computed by `extractor`, like
    /// the CLI's `--model ...:adm.adm_enhn_gain_limit=1.0`
    /// (`vmaf_model_feature_overload`; applied to all models of a
    /// collection). A numeric `value` is normalised as libvmaf does
    /// (`strtof`, `%g`). Returns how many features (over all submodels)
    /// were affected; 0 when the model uses no such extractor (libvmaf
    /// ignores those silently).
    pub fn set_feature_option(&mut self, extractor: &str, option: &str, value: &str) -> Result<usize, ModelError> {
        let value = if c_numeric::is_numeric(value) {
            c_numeric::normalize_numeric(value).unwrap_or_else(|| value.to_owned())
        } else {
            value.to_owned()
        };
        let mut dict = OptionDict::default();
        dict.set_overwrite(option, value);
        let ext_name = extractor_by_name(extractor).map_or(extractor, |e| e.name);
        // Work on a copy so that a rejected value leaves the model unchanged.
        let mut new = self.clone();
        let source = self.source.clone();
        let mut changed = 0;
        let models = std::iter::once(&mut new.main).chain(new.bootstrap.iter_mut().flat_map(|b| b.models.iter_mut()));
        for m in models {
            for (i, f) in m.features.iter_mut().enumerate() {
                let hit = f.overload(ext_name, &dict).map_err(|r| ModelError::BadFeatureOption {
                    file: source.clone(),
                    context: format!("option overload for feature {i} ({})", f.name()),
                    extractor: f.extractor(),
                    option: r.option,
                    reason: format!("value \"{}\": {}", r.value, r.reason),
                })?;
                changed += usize::from(hit);
            }
        }
        new.rebuild_feature_table();
        *self = new;
        Ok(changed)
    }

    /// Predicts one frame from its feature values (looked up by printed
    /// name). The returned scores are in libvmaf's order, see
    /// [`ModelScores`].
    pub fn predict<S: FeatureSource + ?Sized>(&self, source: &S) -> Result<ModelScores, ModelError> {
        let values = self
            .features
            .iter()
            .map(|f| {
                source.feature_value(f.printed_name()).ok_or_else(|| ModelError::MissingFeature {
                    model: self.main.name.clone(),
                    feature: f.printed_name().to_owned(),
                })
            })
            .collect::<Result<Vec<f64>, _>>()?;
        let raw_of = |m: &SvrModel, map: &[usize]| {
            let inputs: Vec<f64> = map.iter().map(|&i| values[i]).collect();
            m.predict_raw(&inputs).map_err(|message| ModelError::Predict { model: m.name.clone(), message })
        };

        let mut entries = Vec::new();
        let main_raw = raw_of(&self.main, &self.input_maps[0])?;
        entries.push((self.main.name.clone(), self.main.post_process(main_raw, false, false)));

        if let Some(b) = &self.bootstrap {
            let raw = b
                .models
                .iter()
                .zip(&self.input_maps[1..])
                .map(|(m, map)| raw_of(m, map))
                .collect::<Result<Vec<f64>, _>>()?;
            let s = b.aggregate(&raw);
            entries.extend(b.models.iter().map(|m| m.name.clone()).zip(s.per_model));
            entries.push((format!("{}_bagging", b.name), s.bagging));
            entries.push((format!("{}_stddev", b.name), s.stddev));
            entries.push((format!("{}_ci_p95_lo", b.name), s.ci_p95_lo));
            entries.push((format!("{}_ci_p95_hi", b.name), s.ci_p95_hi));
        }
        debug_assert_eq!(self.submodels().count(), self.input_maps.len());
        Ok(ModelScores::new(entries))
    }
}

/// read_json_model.c `model_collection_parse`: `"0"` is the main model
/// (named `name`); `"1"`, `"2"`, ... form the collection, named
/// `name_0001`, ... (keys are read while they are consecutive).
fn parse_collection(
    top: &Ctx,
    root: &JsonValue,
    name: &str,
    flags: LoadFlags,
) -> Result<(SvrModel, BootstrapCollection), ModelError> {
    let mut main = None;
    let mut models = Vec::new();
    for i in 0usize.. {
        let key = i.to_string();
        let Some(v) = root.get(&key) else { break };
        let ctx = Ctx { file: top.file, prefix: format!("\"{key}\".") };
        let model_name = if i == 0 { name.to_owned() } else { format!("{name}_{i:04}") };
        let m = parse_model(&ctx, v, model_name, flags)?;
        if i == 0 {
            main = Some(m);
        } else {
            models.push(m);
        }
    }
    let (Some(main), Some(first)) = (main, models.first()) else {
        return Err(top.invalid("", "a model collection needs models \"0\" and \"1\""));
    };
    let kind = first.model_type;
    if let Some((i, _)) = models.iter().enumerate().find(|(_, m)| m.model_type != kind) {
        return Err(top.invalid(&format!("\"{}\".model_dict.model_type", i + 1), "differs from model \"1\""));
    }
    if !matches!(kind, ModelType::BootstrapSvmNuSvr | ModelType::ResidueBootstrapSvmNuSvr) {
        return Err(top.invalid(
            "\"1\".model_dict.model_type",
            "a collection's models must be BOOTSTRAP_LIBSVMNUSVR or RESIDUEBOOTSTRAP_LIBSVMNUSVR",
        ));
    }
    Ok((main, BootstrapCollection { name: name.to_owned(), models }))
}
