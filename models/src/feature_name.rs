//! Feature keys: libvmaf's internal feature names and the names it prints.
//!
//! libvmaf stores a feature score under a name derived from the options of
//! the extractor that produced it (`vmaf_feature_name_from_options`): with
//! all feature-parameter options at their defaults the name stays as listed
//! (`VMAF_integer_feature_adm2_score`); otherwise it becomes the *alias* of
//! that name followed by `_<option alias>_<value>` for every non-default
//! feature parameter, sorted by option name (`integer_adm2_egl_1`). Output
//! writers print `vmaf_feature_name_alias(name)`, which maps the remaining
//! long names to their short forms (`integer_adm2`) and leaves the others
//! unchanged.

use crate::extractors::ExtractorSpec;
use crate::feature_options::OptionValue;

/// libvmaf's `alias_map` (feature/alias.c).
const ALIASES: &[(&str, &str)] = &[
    ("VMAF_feature_adm2_score", "adm2"),
    ("VMAF_feature_aim_score", "aim"),
    ("VMAF_feature_adm3_score", "adm3"),
    ("VMAF_feature_adm_scale0_score", "adm_scale0"),
    ("VMAF_feature_adm_scale1_score", "adm_scale1"),
    ("VMAF_feature_adm_scale2_score", "adm_scale2"),
    ("VMAF_feature_adm_scale3_score", "adm_scale3"),
    ("VMAF_feature_motion_score", "motion"),
    ("VMAF_feature_motion2_score", "motion2"),
    ("VMAF_feature_motion3_score", "motion3"),
    ("VMAF_feature_vif_scale0_score", "vif_scale0"),
    ("VMAF_feature_vif_scale1_score", "vif_scale1"),
    ("VMAF_feature_vif_scale2_score", "vif_scale2"),
    ("VMAF_feature_vif_scale3_score", "vif_scale3"),
    ("VMAF_integer_feature_adm2_score", "integer_adm2"),
    ("VMAF_integer_feature_aim_score", "integer_aim"),
    ("VMAF_integer_feature_adm3_score", "integer_adm3"),
    ("VMAF_integer_feature_motion_score", "integer_motion"),
    ("VMAF_integer_feature_motion2_score", "integer_motion2"),
    ("VMAF_integer_feature_motion3_score", "integer_motion3"),
    ("VMAF_integer_feature_vif_scale0_score", "integer_vif_scale0"),
    ("VMAF_integer_feature_vif_scale1_score", "integer_vif_scale1"),
    ("VMAF_integer_feature_vif_scale2_score", "integer_vif_scale2"),
    ("VMAF_integer_feature_vif_scale3_score", "integer_vif_scale3"),
    ("Cambi_feature_cambi_score", "cambi"),
    ("Speed_chroma_feature_speed_chroma_u_score", "speed_chroma_u"),
    ("Speed_chroma_feature_speed_chroma_v_score", "speed_chroma_v"),
    ("Speed_chroma_feature_speed_chroma_uv_score", "speed_chroma_uv"),
    ("Speed_temporal_feature_speed_temporal_score", "speed_temporal"),
];

/// The size of libvmaf's name buffer (`VMAF_FEATURE_NAME_DEFAULT_BUFFER_SIZE`);
/// `snprintf` keeps at most this many bytes minus the terminator.
const NAME_BUFFER: usize = 256;

/// `vmaf_feature_name_alias`: the printed form of a stored feature name.
pub fn feature_name_alias(name: &str) -> &str {
    ALIASES.iter().find(|(long, _)| *long == name).map_or(name, |(_, short)| short)
}

/// `vmaf_feature_name_from_options`: the name under which `ext` stores
/// `name` when its options hold `values` (one per entry of `ext.options`).
pub(crate) fn feature_name_from_options(name: &str, ext: &ExtractorSpec, values: &[Option<OptionValue>]) -> String {
    // The non-default feature parameters, keyed by option name.
    let mut params: Vec<(&str, &str, &OptionValue)> = ext
        .options
        .iter()
        .zip(values)
        .filter(|(spec, _)| spec.feature_param)
        .filter_map(|(spec, v)| {
            let v = v.as_ref()?;
            (!v.equals_default(spec.default)).then(|| (spec.name, spec.alias.unwrap_or(spec.name), v))
        })
        .collect();
    if params.is_empty() {
        return truncate_to_buffer(name.to_owned());
    }
    // libvmaf sorts the dictionary with qsort + strcmp on the option names.
    params.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let mut out = feature_name_alias(name).to_owned();
    for (_, key, v) in params {
        match v {
            OptionValue::Bool(_) => {
                out.push('_');
                out.push_str(key);
            }
            _ => {
                out.push('_');
                out.push_str(key);
                out.push('_');
                out.push_str(&v.to_c_string());
            }
        }
    }
    truncate_to_buffer(out)
}

fn truncate_to_buffer(mut s: String) -> String {
    if s.len() >= NAME_BUFFER {
        let mut cut = NAME_BUFFER - 1;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extractors::extractor_by_name;
    use crate::feature_options::{OptionDict, parse_options};

    fn key(ext: &str, feature: &str, opts: &[(&str, &str)]) -> String {
        let ext = extractor_by_name(ext).unwrap();
        let mut d = OptionDict::default();
        for (k, v) in opts {
            d.set_no_overwrite(k, (*v).to_owned()).unwrap();
        }
        let values = parse_options(ext, &d).unwrap();
        feature_name_alias(&feature_name_from_options(feature, ext, &values)).to_owned()
    }

    #[test]
    fn printed_keys_match_libvmaf_output() {
        assert_eq!(key("adm", "VMAF_integer_feature_adm2_score", &[]), "integer_adm2");
        assert_eq!(
            key("adm", "VMAF_integer_feature_adm2_score", &[("adm_enhn_gain_limit", "1")]),
            "integer_adm2_egl_1"
        );
        assert_eq!(key("adm", "VMAF_integer_feature_adm2_score", &[("adm_enhn_gain_limit", "100")]), "integer_adm2");
        assert_eq!(
            key("float_vif", "VMAF_feature_vif_scale0_score", &[("vif_enhn_gain_limit", "1")]),
            "vif_scale0_egl_1"
        );
        assert_eq!(
            key("motion", "VMAF_integer_feature_motion_sad_score", &[("motion_max_val", "18")]),
            "VMAF_integer_feature_motion_sad_score_mmxv_18"
        );
        assert_eq!(
            key(
                "adm",
                "VMAF_integer_feature_adm3_score",
                &[
                    ("adm_dlm_weight", "0.7"),
                    ("adm_enhn_gain_limit", "1"),
                    ("adm_noise_weight", "0.02"),
                    ("adm_norm_view_dist", "3"),
                    ("adm_ref_display_height", "1080"),
                    ("adm_min_val", "0.5"),
                    ("adm_csf_mode", "2"),
                ]
            ),
            "integer_adm3_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02"
        );
        assert_eq!(
            key(
                "cambi",
                "Cambi_feature_cambi_score",
                &[("cambi_high_res_speedup", "1080"), ("cambi_vis_lum_threshold", "0.06"), ("cambi_max_val", "17")]
            ),
            "cambi_hrs_1080_cmxv_17_vlt_0.06"
        );
        assert_eq!(
            key(
                "motion",
                "VMAF_integer_feature_motion3_score",
                &[("motion_max_val", "18"), ("motion_five_frame_window", "true")]
            ),
            "integer_motion3_mffw_mmxv_18"
        );
        // Unknown keys are ignored, as the extractor never looks at them.
        assert_eq!(key("vif", "VMAF_integer_feature_vif_scale1_score", &[("bogus", "1")]), "integer_vif_scale1");
    }
}
