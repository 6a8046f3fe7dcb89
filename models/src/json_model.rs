//! Reading libvmaf's JSON model files (read_json_model.c) into
//! [`SvrModel`]s: the single-model form `{"model_dict": {...}}` and the
//! collection form `{"0": {"model_dict": ...}, "1": ..., ...}`.
//!
//! The rules follow libvmaf: `model_dict` carries `model` (libsvm text),
//! `norm_type`, `slopes`/`intercepts` (output first, then one per feature),
//! `feature_names`, `feature_opts_dicts`, `score_clip`, `score_transform`,
//! `model_type`, `chroma_correction_parameter`; other keys (`feature_dict`,
//! and the training-time `param_dict` beside `model_dict`) are ignored.
//! Where libvmaf would accept a file and then fail or read garbage at
//! prediction time (no `model`, no `norm_type`, too few slopes, unknown
//! feature, bad feature option, collection of non-bootstrap models), this
//! reader reports the problem at load time instead.

use crate::c_numeric;
use crate::error::ModelError;
use crate::extractors::extractor_for_feature;
use crate::feature_options::OptionDict;
use crate::json::JsonValue;
use crate::libsvm::SvmModel;
use crate::model_feature::ModelFeature;
use crate::normalization::NormType;
use crate::score_clip::ScoreClip;
use crate::score_transform::{MAX_KNOTS, ScoreTransform};
use crate::svr_model::{ModelType, SvrModel};

/// libvmaf's `MAX_FEATURE_COUNT`.
const MAX_FEATURES: usize = 64;

/// The load-time model flags libvmaf honours while reading
/// (`VMAF_MODEL_FLAG_DISABLE_CLIP`, `VMAF_MODEL_FLAG_ENABLE_TRANSFORM`).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct LoadFlags {
    pub disable_clip: bool,
    pub enable_transform: bool,
}

/// Error context: the model source and a JSON path prefix.
#[derive(Debug, Clone)]
pub(crate) struct Ctx<'a> {
    pub file: &'a str,
    pub prefix: String,
}

impl Ctx<'_> {
    fn path(&self, p: &str) -> String {
        if self.prefix.is_empty() {
            p.to_owned()
        } else if p.is_empty() {
            self.prefix.trim_end_matches('.').to_owned()
        } else {
            format!("{}{p}", self.prefix)
        }
    }

    pub(crate) fn invalid(&self, p: &str, message: impl Into<String>) -> ModelError {
        let context = self.path(p);
        let context = if context.is_empty() { "top level".to_owned() } else { context };
        ModelError::Invalid { file: self.file.to_owned(), context, message: message.into() }
    }

    pub(crate) fn missing(&self, p: &str, key: &str) -> ModelError {
        let context = self.path(p);
        let context = if context.is_empty() { "top level".to_owned() } else { context };
        ModelError::MissingKey { file: self.file.to_owned(), context, key: key.to_owned() }
    }

    fn number(&self, p: &str, v: &JsonValue) -> Result<f64, ModelError> {
        match v {
            // JSON number syntax is a subset of what Rust's correctly
            // rounded parser accepts; libvmaf uses strtod on the same text.
            JsonValue::Number(t) => t.parse::<f64>().map_err(|_| self.invalid(p, format!("bad number {t}"))),
            other => Err(self.invalid(p, format!("expected a number, found {}", other.kind()))),
        }
    }
}

fn as_object<'v>(ctx: &Ctx, p: &str, v: &'v JsonValue) -> Result<&'v [(String, JsonValue)], ModelError> {
    match v {
        JsonValue::Object(m) => Ok(m),
        other => Err(ctx.invalid(p, format!("expected an object, found {}", other.kind()))),
    }
}

fn as_array<'v>(ctx: &Ctx, p: &str, v: &'v JsonValue) -> Result<&'v [JsonValue], ModelError> {
    match v {
        JsonValue::Array(a) => Ok(a),
        other => Err(ctx.invalid(p, format!("expected an array, found {}", other.kind()))),
    }
}

/// Reads one model object (`{"model_dict": ...}`) named `name`.
pub(crate) fn parse_model(ctx: &Ctx, root: &JsonValue, name: String, flags: LoadFlags) -> Result<SvrModel, ModelError> {
    let members = as_object(ctx, "", root)?;
    let mut dicts = members.iter().filter(|(k, _)| k == "model_dict");
    let Some((_, md)) = dicts.next() else {
        return Err(ctx.missing("", "model_dict"));
    };
    if dicts.next().is_some() {
        return Err(ctx.invalid("", "duplicate key \"model_dict\""));
    }
    parse_model_dict(ctx, md, name, flags)
}

fn parse_model_dict(ctx: &Ctx, md: &JsonValue, name: String, flags: LoadFlags) -> Result<SvrModel, ModelError> {
    let members = as_object(ctx, "model_dict", md)?;
    for (i, (k, _)) in members.iter().enumerate() {
        if members[..i].iter().any(|(k2, _)| k2 == k) {
            return Err(ctx.invalid("model_dict", format!("duplicate key \"{k}\"")));
        }
    }
    let get = |k: &str| members.iter().find(|(key, _)| key == k).map(|(_, v)| v);

    let model_type = match get("model_type") {
        None => ModelType::Unknown,
        Some(JsonValue::String(s)) => match s.as_str() {
            "RESIDUEBOOTSTRAP_LIBSVMNUSVR" => ModelType::ResidueBootstrapSvmNuSvr,
            "BOOTSTRAP_LIBSVMNUSVR" => ModelType::BootstrapSvmNuSvr,
            "LIBSVMNUSVR" => ModelType::SvmNuSvr,
            other => return Err(ctx.invalid("model_dict.model_type", format!("unknown model type \"{other}\""))),
        },
        Some(other) => {
            return Err(ctx.invalid("model_dict.model_type", format!("expected a string, found {}", other.kind())));
        }
    };

    let norm = match get("norm_type") {
        None => return Err(ctx.missing("model_dict", "norm_type")),
        Some(JsonValue::String(s)) => match s.as_str() {
            "linear_rescale" => NormType::LinearRescale,
            "none" => NormType::None,
            other => return Err(ctx.invalid("model_dict.norm_type", format!("unknown norm type \"{other}\""))),
        },
        Some(other) => {
            return Err(ctx.invalid("model_dict.norm_type", format!("expected a string, found {}", other.kind())));
        }
    };

    let clip = match get("score_clip") {
        None => None,
        Some(v) => {
            let a = as_array(ctx, "model_dict.score_clip", v)?;
            if flags.disable_clip {
                // libvmaf skips the array unread.
                None
            } else {
                if a.len() < 2 {
                    return Err(ctx.invalid("model_dict.score_clip", "expected [min, max]"));
                }
                // Further elements are skipped, as in libvmaf.
                let min = ctx.number("model_dict.score_clip[0]", &a[0])?;
                let max = ctx.number("model_dict.score_clip[1]", &a[1])?;
                Some(ScoreClip { min, max })
            }
        }
    };

    // Without the key, `enable_transform` has nothing to enable.
    let transform = match get("score_transform") {
        None => ScoreTransform::default(),
        Some(v) => {
            let mut t = parse_score_transform(ctx, v)?;
            if !t.enabled && flags.enable_transform {
                t.enabled = true;
            }
            t
        }
    };

    let chroma_correction = match get("chroma_correction_parameter") {
        None => None,
        Some(v) => Some(ctx.number("model_dict.chroma_correction_parameter", v)?),
    };

    let slopes = get("slopes").map(|v| number_list(ctx, "model_dict.slopes", v)).transpose()?;
    let intercepts = get("intercepts").map(|v| number_list(ctx, "model_dict.intercepts", v)).transpose()?;

    let names: Vec<String> = match get("feature_names") {
        None => Vec::new(),
        Some(v) => {
            let a = as_array(ctx, "model_dict.feature_names", v)?;
            if a.len() > MAX_FEATURES {
                return Err(ctx.invalid("model_dict.feature_names", format!("more than {MAX_FEATURES} features")));
            }
            a.iter()
                .enumerate()
                .map(|(i, n)| match n {
                    JsonValue::String(s) => Ok(s.clone()),
                    other => Err(ctx.invalid(
                        &format!("model_dict.feature_names[{i}]"),
                        format!("expected a string, found {}", other.kind()),
                    )),
                })
                .collect::<Result<_, _>>()?
        }
    };

    let mut opts: Vec<OptionDict> = match get("feature_opts_dicts") {
        None => Vec::new(),
        Some(v) => parse_feature_opts_dicts(ctx, v)?,
    };
    opts.resize(names.len().max(opts.len()), OptionDict::default());

    let mut features = Vec::with_capacity(names.len());
    for (i, (name, dict)) in names.iter().zip(opts).enumerate() {
        let Some(ext) = extractor_for_feature(name) else {
            return Err(ModelError::UnknownFeature { file: ctx.file.to_owned(), index: i, feature: name.clone() });
        };
        let f = ModelFeature::resolve(name, ext, dict).map_err(|r| ModelError::BadFeatureOption {
            file: ctx.file.to_owned(),
            context: ctx.path(&format!("model_dict.feature_opts_dicts[{i}]")),
            extractor: ext.name,
            option: r.option,
            reason: format!("value \"{}\": {}", r.value, r.reason),
        })?;
        features.push(f);
    }

    let n = features.len();
    let (slope, intercept, feature_slopes, feature_intercepts) = match norm {
        NormType::LinearRescale => {
            let want = n + 1;
            let Some(s) = slopes else { return Err(ctx.missing("model_dict", "slopes")) };
            let Some(c) = intercepts else { return Err(ctx.missing("model_dict", "intercepts")) };
            for (key, list) in [("slopes", &s), ("intercepts", &c)] {
                if list.len() != want {
                    return Err(ctx.invalid(
                        &format!("model_dict.{key}"),
                        format!("{} entries, expected {want} (the output's, then one per feature)", list.len()),
                    ));
                }
            }
            (s[0], c[0], s[1..].to_vec(), c[1..].to_vec())
        }
        // Unused without normalisation.
        NormType::None => (1.0, 0.0, vec![1.0; n], vec![0.0; n]),
    };

    let svm = match get("model") {
        None => return Err(ctx.missing("model_dict", "model")),
        Some(JsonValue::String(text)) => SvmModel::parse(text).map_err(|(line, message)| ModelError::Svm {
            file: ctx.file.to_owned(),
            line,
            message,
        })?,
        Some(other) => {
            return Err(ctx.invalid("model_dict.model", format!("expected a string, found {}", other.kind())));
        }
    };

    Ok(SvrModel {
        name,
        model_type,
        norm,
        slope,
        intercept,
        features,
        feature_slopes,
        feature_intercepts,
        clip,
        transform,
        chroma_correction,
        svm,
    })
}

/// `slopes` / `intercepts`: a non-empty array of numbers (libvmaf requires
/// the first element and at most 1 + 64).
fn number_list(ctx: &Ctx, p: &str, v: &JsonValue) -> Result<Vec<f64>, ModelError> {
    let a = as_array(ctx, p, v)?;
    if a.is_empty() {
        return Err(ctx.invalid(p, "empty array"));
    }
    if a.len() > MAX_FEATURES + 1 {
        return Err(ctx.invalid(p, format!("more than {} entries", MAX_FEATURES + 1)));
    }
    a.iter().enumerate().map(|(i, x)| ctx.number(&format!("{p}[{i}]"), x)).collect()
}

/// read_json_model.c `parse_feature_opts_dicts`.
fn parse_feature_opts_dicts(ctx: &Ctx, v: &JsonValue) -> Result<Vec<OptionDict>, ModelError> {
    let a = as_array(ctx, "model_dict.feature_opts_dicts", v)?;
    if a.len() > MAX_FEATURES {
        return Err(ctx.invalid("model_dict.feature_opts_dicts", format!("more than {MAX_FEATURES} entries")));
    }
    let mut out = Vec::with_capacity(a.len());
    for (i, d) in a.iter().enumerate() {
        let p = format!("model_dict.feature_opts_dicts[{i}]");
        let members = as_object(ctx, &p, d)?;
        let mut dict = OptionDict::default();
        for (key, val) in members {
            let s = match val {
                // VMAF_DICT_NORMALIZE_NUMERICAL_VALUES: strtof, then "%g".
                JsonValue::Number(t) => c_numeric::normalize_numeric(t).unwrap_or_else(|| t.clone()),
                JsonValue::Bool(b) => if *b { "true" } else { "false" }.to_owned(),
                JsonValue::String(s) => s.clone(),
                other => {
                    return Err(ctx.invalid(
                        &format!("{p}.{key}"),
                        format!("expected a number, boolean or string, found {}", other.kind()),
                    ));
                }
            };
            dict.set_no_overwrite(key, s).map_err(|m| ctx.invalid(&p, m))?;
        }
        out.push(dict);
    }
    Ok(out)
}

/// read_json_model.c `parse_score_transform`.
fn parse_score_transform(ctx: &Ctx, v: &JsonValue) -> Result<ScoreTransform, ModelError> {
    const P: &str = "model_dict.score_transform";
    let members = as_object(ctx, P, v)?;
    let mut t = ScoreTransform::default();
    for (key, val) in members {
        let p = format!("{P}.{key}");
        match key.as_str() {
            "enabled" => match val {
                JsonValue::Bool(b) => t.enabled = *b,
                other => return Err(ctx.invalid(&p, format!("expected a boolean, found {}", other.kind()))),
            },
            "p0" | "p1" | "p2" => {
                // libvmaf peeks at a null without consuming it and then
                // fails on it, so null is rejected like any non-number.
                let x = ctx.number(&p, val).map_err(|e| match val {
                    JsonValue::Null => ctx.invalid(&p, "null is rejected by libvmaf's reader (omit the key instead)"),
                    _ => e,
                })?;
                match key.as_str() {
                    "p0" => t.p0 = Some(x),
                    "p1" => t.p1 = Some(x),
                    _ => t.p2 = Some(x),
                }
            }
            "knots" => {
                let list = match val {
                    JsonValue::Array(a) => a,
                    JsonValue::Null => {
                        return Err(ctx.invalid(&p, "null is rejected by libvmaf's reader (omit the key instead)"));
                    }
                    other => return Err(ctx.invalid(&p, format!("expected an array, found {}", other.kind()))),
                };
                if list.len() > MAX_KNOTS {
                    return Err(ctx.invalid(&p, format!("more than {MAX_KNOTS} knots")));
                }
                let mut knots = Vec::with_capacity(list.len());
                for (i, k) in list.iter().enumerate() {
                    let pk = format!("{p}[{i}]");
                    let xy = as_array(ctx, &pk, k)?;
                    if xy.len() > 2 {
                        return Err(ctx.invalid(&pk, "a knot has at most two coordinates"));
                    }
                    // Missing coordinates stay 0, as in libvmaf's zeroed list.
                    let mut point = (0.0, 0.0);
                    if let Some(x) = xy.first() {
                        point.0 = ctx.number(&format!("{pk}[0]"), x)?;
                    }
                    if let Some(y) = xy.get(1) {
                        point.1 = ctx.number(&format!("{pk}[1]"), y)?;
                    }
                    knots.push(point);
                }
                t.knots = Some(knots);
            }
            "out_lte_in" | "out_gte_in" => match val {
                // Only the string "true" sets the flag; nothing clears it.
                JsonValue::String(s) => {
                    if s == "true" {
                        if key == "out_lte_in" {
                            t.out_lte_in = true;
                        } else {
                            t.out_gte_in = true;
                        }
                    }
                }
                other => return Err(ctx.invalid(&p, format!("expected a string, found {}", other.kind()))),
            },
            _ => {}
        }
    }
    Ok(t)
}
