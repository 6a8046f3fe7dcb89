//! Models compiled into the crate (the `--model version=...` set).
//!
//! The JSON files in `data/` are libvmaf's own (Netflix/vmaf commit
//! f85a8536, BSD-2-Clause-Patent, see `data/LICENSE.libvmaf-models`),
//! byte-identical to the ones in libvmaf's `model/` directory. Other
//! libvmaf models (float, 4K-neg, v1.0.16...) are loaded from a path.

/// (version, JSON text), in libvmaf's built-in list order.
pub(crate) const BUILTIN_MODELS: &[(&str, &str)] = &[
    ("vmaf_v0.6.1", include_str!("../data/vmaf_v0.6.1.json")),
    ("vmaf_b_v0.6.3", include_str!("../data/vmaf_b_v0.6.3.json")),
    ("vmaf_v0.6.1neg", include_str!("../data/vmaf_v0.6.1neg.json")),
    ("vmaf_4k_v0.6.1", include_str!("../data/vmaf_4k_v0.6.1.json")),
];

pub(crate) fn builtin_json(version: &str) -> Option<&'static str> {
    BUILTIN_MODELS.iter().find(|(v, _)| *v == version).map(|(_, json)| *json)
}
