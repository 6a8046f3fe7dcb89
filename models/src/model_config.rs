//! Load-time model options, as the `vmaf` CLI's `--model` parameters
//! (`name=`, `disable_clip`, `enable_transform`) set them.

/// How to load a model (libvmaf's `VmafModelConfig`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelConfig {
    /// The score name (`name=`); libvmaf's default is `vmaf`. A bootstrap
    /// collection's derived scores are named `<name>_0001`, ...,
    /// `<name>_bagging`, ...
    pub name: String,
    /// `disable_clip`: ignore `score_clip` (VMAF_MODEL_FLAG_DISABLE_CLIP;
    /// libvmaf then never reads the clip range).
    pub disable_clip: bool,
    /// `enable_transform`: apply the model's `score_transform` even if it
    /// is not `enabled` in the file (VMAF_MODEL_FLAG_ENABLE_TRANSFORM; this
    /// is how the "phone" variant of vmaf_v0.6.1 is obtained). Has no effect
    /// on a model without `score_transform`.
    pub enable_transform: bool,
}

impl Default for ModelConfig {
    fn default() -> Self {
        ModelConfig { name: "vmaf".to_owned(), disable_clip: false, enable_transform: false }
    }
}

impl ModelConfig {
    /// Default options with the given score name.
    pub fn named(name: impl Into<String>) -> Self {
        ModelConfig { name: name.into(), ..ModelConfig::default() }
    }
}
