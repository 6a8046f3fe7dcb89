//! libvmaf model files and score prediction, reproducing libvmaf 3.2.0
//! (Netflix/vmaf f85a8536) bit for bit in f64.
//!
//! A [`Model`] is loaded from libvmaf's JSON model format (built in, from a
//! path, or from text). It lists the [`ModelFeature`]s it needs, each with
//! the libvmaf extractor that computes it, that extractor's options, and
//! the key libvmaf prints for it; [`Model::predict`] turns one frame's
//! feature values into the scores libvmaf prints for that frame (the model
//! score, and for bootstrap collections the per-model scores, bagging
//! mean, standard deviation and 95% interval).
//!
//! ```
//! use std::collections::HashMap;
//! use vqgraph_models::Model;
//!
//! let model = Model::builtin("vmaf_v0.6.1")?;
//! let frame: HashMap<&str, f64> = [
//!     ("integer_adm2", 0.957823),
//!     ("integer_motion2", 0.0),
//!     ("integer_vif_scale0", 0.629832),
//!     ("integer_vif_scale1", 0.869039),
//!     ("integer_vif_scale2", 0.920635),
//!     ("integer_vif_scale3", 0.945731),
//! ]
//! .into();
//! let scores = model.predict(&frame)?;
//! assert_eq!(scores.as_slice()[0].0, "vmaf");
//! assert!((scores.score() - 80.509443).abs() < 1e-3);
//! # Ok::<(), vqgraph_models::ModelError>(())
//! ```

mod bootstrap;
mod builtin;
mod c_numeric;
mod error;
mod extractor_config;
mod extractors;
mod feature_name;
mod feature_options;
mod feature_source;
mod json;
mod json_model;
mod libsvm;
mod model;
mod model_config;
mod model_feature;
mod model_scores;
mod normalization;
mod score_clip;
mod score_transform;
mod svr_model;

pub use error::ModelError;
pub use extractor_config::ExtractorConfig;
pub use feature_name::feature_name_alias;
pub use feature_options::OptionValue;
pub use feature_source::FeatureSource;
pub use model::Model;
pub use model_config::ModelConfig;
pub use model_feature::ModelFeature;
pub use model_scores::ModelScores;
