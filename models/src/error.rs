//! The crate's error type.
//!
//! Every load error names the model source (a file path, or
//! `built-in <version>`) so that a bad `--model` argument can be traced, and
//! says where in the file the problem is (JSON path such as
//! `model_dict.slopes[3]`, or a line of the embedded libsvm model).

use thiserror::Error;

/// Errors from loading a model or predicting with it.
#[derive(Debug, Error)]
pub enum ModelError {
    /// The model file could not be read.
    #[error("{file}: cannot read model file: {io}")]
    Io {
        file: String,
        #[source]
        io: std::io::Error,
    },

    /// The text is not valid JSON.
    #[error("{file}: malformed JSON at line {line}, column {column}: {message}")]
    Json { file: String, line: usize, column: usize, message: String },

    /// A key the model needs is absent.
    #[error("{file}: {context}: missing key \"{key}\"")]
    MissingKey { file: String, context: String, key: String },

    /// A key is present but its value is unusable (wrong type, unknown
    /// enumerator, out of range, inconsistent lengths...).
    #[error("{file}: {context}: {message}")]
    Invalid { file: String, context: String, message: String },

    /// The libsvm model text (`model_dict.model`) is malformed.
    #[error("{file}: model_dict.model (libsvm text), line {line}: {message}")]
    Svm { file: String, line: usize, message: String },

    /// `Model::builtin` was given a name that is not compiled in.
    #[error("no built-in model \"{name}\" (built in: {available})")]
    UnknownBuiltin { name: String, available: String },

    /// A model feature that no libvmaf feature extractor provides.
    #[error("{file}: model_dict.feature_names[{index}]: no feature extractor provides feature \"{feature}\"")]
    UnknownFeature { file: String, index: usize, feature: String },

    /// A feature option that the extractor rejects (libvmaf fails to create
    /// the extractor in that case).
    /// `reason` quotes the rejected value.
    #[error("{file}: {context}: extractor \"{extractor}\" rejects option \"{option}\": {reason}")]
    BadFeatureOption { file: String, context: String, extractor: &'static str, option: &'static str, reason: String },

    /// No libvmaf feature extractor has this name.
    #[error("unknown feature extractor \"{name}\"")]
    UnknownExtractor { name: String },

    /// An extractor option given directly (e.g. `--feature`) that the extractor rejects.
    #[error("feature extractor \"{extractor}\": option \"{option}\": {reason}")]
    BadExtractorOption { extractor: &'static str, option: String, reason: String },

    /// The feature source did not provide a feature the model needs.
    #[error("model \"{model}\": feature \"{feature}\" not provided")]
    MissingFeature { model: String, feature: String },

    /// The model cannot produce a score for these inputs (cases where libvmaf
    /// itself writes no score or reads uninitialised memory).
    #[error("model \"{model}\": {message}")]
    Predict { model: String, message: String },
}
