//! libvmaf's feature extractor registry, as far as models need it.
//!
//! A model names features (`VMAF_integer_feature_adm2_score`); libvmaf finds
//! the extractor that provides each one by scanning its extractor list in
//! order, parses the model's per-feature options against that extractor's
//! option table, and derives the feature's key from the options whose
//! values differ from the defaults. This table transcribes, for libvmaf
//! 3.2.0 (commit f85a8536, float features enabled, no CUDA), every
//! registered extractor's name, provided features and options (name, alias,
//! type, default, bounds, and whether the option is a "feature parameter"
//! that shows up in the key). Order matters: it is the lookup order.

/// Default value of an option; also fixes its type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum OptDefault {
    Bool(bool),
    Int(i32),
    Double(f64),
    /// `None` is a NULL default (cambi's `heatmaps_path`).
    Str(Option<&'static str>),
}

/// One entry of an extractor's `VmafOption` table.
#[derive(Debug, Clone, Copy)]
pub(crate) struct OptionSpec {
    pub name: &'static str,
    pub alias: Option<&'static str>,
    pub default: OptDefault,
    pub min: f64,
    pub max: f64,
    /// `VMAF_OPT_FLAG_FEATURE_PARAM`: a non-default value changes the
    /// feature's key.
    pub feature_param: bool,
}

/// One registered feature extractor.
#[derive(Debug)]
pub(crate) struct ExtractorSpec {
    pub name: &'static str,
    pub provided_features: &'static [&'static str],
    pub options: &'static [OptionSpec],
}

const fn dbl(name: &'static str, alias: &'static str, default: f64, min: f64, max: f64) -> OptionSpec {
    OptionSpec { name, alias: Some(alias), default: OptDefault::Double(default), min, max, feature_param: true }
}

const fn int(name: &'static str, alias: &'static str, default: i32, min: i32, max: i32) -> OptionSpec {
    OptionSpec {
        name,
        alias: Some(alias),
        default: OptDefault::Int(default),
        min: min as f64,
        max: max as f64,
        feature_param: true,
    }
}

const fn boolean(name: &'static str, alias: &'static str, default: bool) -> OptionSpec {
    OptionSpec { name, alias: Some(alias), default: OptDefault::Bool(default), min: 0.0, max: 0.0, feature_param: true }
}

const fn string(name: &'static str, alias: &'static str, default: &'static str) -> OptionSpec {
    OptionSpec {
        name,
        alias: Some(alias),
        default: OptDefault::Str(Some(default)),
        min: 0.0,
        max: 0.0,
        feature_param: true,
    }
}

impl OptionSpec {
    /// An option without alias (the key then uses the option name).
    const fn no_alias(mut self) -> Self {
        self.alias = None;
        self
    }
    /// An option that is not a feature parameter (never in the key).
    const fn internal(mut self) -> Self {
        self.feature_param = false;
        self.alias = None;
        self
    }
}

const DEBUG_OFF: OptionSpec = boolean("debug", "", false).internal();

const FLOAT_ADM_OPTIONS: &[OptionSpec] = &[
    DEBUG_OFF,
    dbl("adm_enhn_gain_limit", "egl", 100.0, 1.0, 100.0),
    dbl("adm_norm_view_dist", "nvd", 3.0, 0.75, 24.0),
    dbl("adm_noise_weight", "nw", 0.03125, 0.0, 1500.0),
    dbl("adm_csf_scale", "scf", 1.0, 0.0, 50.0),
    dbl("adm_csf_diag_scale", "scfd", 1.0, 0.0, 50.0),
    int("adm_ref_display_height", "rdf", 1080, 1, 4320),
    int("adm_csf_mode", "csf", 0, 0, 9),
    int("adm_bypass_cm", "bcm", 0, 0, 1),
    boolean("adm_adm3_apply_hm", "aah", false),
    dbl("adm_p_norm", "apn", 3.0, 1.0, 20.0),
    dbl("adm_dlm_weight", "dlmw", 0.5, 0.0, 1.0),
    dbl("adm_min_val", "min", 0.0, 0.0, 1.0),
    dbl("adm_f1s0", "f1s0", -1.0, -1.0, 10.0),
    dbl("adm_f1s1", "f1s1", -1.0, -1.0, 10.0),
    dbl("adm_f1s2", "f1s2", -1.0, -1.0, 10.0),
    dbl("adm_f1s3", "f1s3", -1.0, -1.0, 10.0),
    dbl("adm_f2s0", "f2s0", -1.0, -1.0, 10.0),
    dbl("adm_f2s1", "f2s1", -1.0, -1.0, 10.0),
    dbl("adm_f2s2", "f2s2", -1.0, -1.0, 10.0),
    dbl("adm_f2s3", "f2s3", -1.0, -1.0, 10.0),
    // Default -1 lies outside [0, 3]: only 0..3 can be set explicitly.
    int("adm_skip_aim_scale", "sasc", -1, 0, 3),
    boolean("adm_skip_scale0", "ssz", false),
];

const FLOAT_VIF_OPTIONS: &[OptionSpec] = &[
    DEBUG_OFF,
    dbl("vif_enhn_gain_limit", "egl", 100.0, 1.0, 100.0),
    dbl("vif_kernelscale", "ks", 1.0, 0.1, 4.0),
    dbl("vif_prescale", "ps", 1.0, 0.1, 4.0),
    dbl("vif_scale1_min_val", "s1miv", 0.0, 0.0, 1.0),
    dbl("vif_scale2_min_val", "s2miv", 0.0, 0.0, 1.0),
    dbl("vif_scale3_min_val", "s3miv", 0.0, 0.0, 1.0),
    string("vif_prescale_method", "pm", "nearest"),
    dbl("vif_sigma_nsq", "snsq", 2.0, 0.0, 5.0),
    boolean("vif_skip_scale0", "ssclz", false),
];

const FLOAT_MOTION_OPTIONS: &[OptionSpec] = &[
    boolean("debug", "", true).internal(),
    boolean("motion_force_zero", "force_0", false),
    dbl("motion_fps_weight", "mfw", 1.0, 0.0, 5.0),
    dbl("motion_blend_factor", "mbf", 1.0, 0.0, 1.0),
    dbl("motion_blend_offset", "mbo", 40.0, 0.0, 1000.0),
    boolean("motion_add_scale1", "mdc", false),
    int("motion_filter_size", "mfs", 5, 0, 9),
    boolean("motion_add_uv", "mau", false),
    dbl("motion_max_val", "mmxv", 10000.0, 0.0, 10000.0),
];

const SPEED_CHROMA_OPTIONS: &[OptionSpec] = &[
    dbl("speed_kernelscale", "ks", 1.0, 0.1, 4.0),
    dbl("speed_prescale", "ps", 1.0, 0.1, 4.0),
    string("speed_prescale_method", "psm", "nearest"),
    dbl("speed_sigma_nn", "snn", 0.29, 0.1, 2.0),
    dbl("speed_nn_floor", "nnf", 0.0, 0.0, 1.0),
    dbl("speed_max_val", "mxv", 1000.0, 0.0, 1000.0),
    // libvmaf sets this INT option's default through the double member of
    // the default union (`.default_val.d = 0`); the int it reads is 0 too.
    int("speed_weight_var_mode", "wvm", 0, 0, 6),
];

const SPEED_TEMPORAL_OPTIONS: &[OptionSpec] = &[
    dbl("speed_kernelscale", "ks", 1.0, 0.1, 4.0),
    dbl("speed_prescale", "ps", 1.0, 0.1, 4.0),
    string("speed_prescale_method", "psm", "nearest"),
    dbl("speed_sigma_nn", "snn", 0.29, 0.1, 2.0),
    dbl("speed_nn_floor", "nnf", 0.0, 0.0, 1.0),
    dbl("speed_max_val", "mxv", 1000.0, 0.0, 1000.0),
    boolean("speed_use_ref_diff", "urd", false),
];

const SSIM_LIKE_FLAGS: [OptionSpec; 3] = [
    boolean("enable_lcs", "", false).internal(),
    boolean("enable_db", "", false).internal(),
    boolean("clip_db", "", false).internal(),
];

const FLOAT_MS_SSIM_OPTIONS: &[OptionSpec] = &SSIM_LIKE_FLAGS;

const FLOAT_SSIM_OPTIONS: &[OptionSpec] =
    &[SSIM_LIKE_FLAGS[0], SSIM_LIKE_FLAGS[1], SSIM_LIKE_FLAGS[2], int("scale", "", 0, 0, 10).internal()];

const PSNR_OPTIONS: &[OptionSpec] = &[
    boolean("enable_chroma", "", true).internal(),
    boolean("enable_mse", "", false).internal(),
    boolean("enable_apsnr", "", false).internal(),
    boolean("reduced_hbd_peak", "", false).internal(),
    dbl("min_sse", "", 0.0, 0.0, f64::MAX).internal(),
];

const INTEGER_ADM_OPTIONS: &[OptionSpec] = &[
    DEBUG_OFF,
    dbl("adm_csf_scale", "scf", 1.0, 0.0, 50.0),
    dbl("adm_csf_diag_scale", "scfd", 1.0, 0.0, 50.0),
    dbl("adm_dlm_weight", "dlmw", 0.5, 0.0, 1.0),
    dbl("adm_enhn_gain_limit", "egl", 100.0, 1.0, 100.0),
    dbl("adm_norm_view_dist", "nvd", 3.0, 0.75, 24.0),
    int("adm_ref_display_height", "rdh", 1080, 1, 4320),
    int("adm_csf_mode", "csf", 0, 0, 3),
    dbl("adm_noise_weight", "nw", 0.03125, 0.0, 1500.0),
    boolean("adm_skip_aim", "", false).internal(),
    boolean("adm_skip_scale0", "ssz", false),
    dbl("adm_min_val", "min", 0.0, 0.0, 1.0),
];

const INTEGER_MOTION_OPTIONS: &[OptionSpec] = &[
    boolean("motion_force_zero", "force_0", false),
    dbl("motion_blend_factor", "mbf", 1.0, 0.0, 1.0),
    dbl("motion_blend_offset", "mbo", 40.0, 0.0, 1000.0),
    dbl("motion_fps_weight", "mfw", 1.0, 0.0, 5.0),
    dbl("motion_max_val", "mmxv", 10000.0, 0.0, 10000.0),
    boolean("motion_five_frame_window", "mffw", false),
    boolean("motion_moving_average", "mma", false),
    DEBUG_OFF,
];

const INTEGER_VIF_OPTIONS: &[OptionSpec] =
    &[DEBUG_OFF, dbl("vif_enhn_gain_limit", "egl", 100.0, 1.0, 100.0), boolean("vif_skip_scale0", "ssclz", false)];

const CAMBI_OPTIONS: &[OptionSpec] = &[
    dbl("cambi_max_val", "cmxv", 1000.0, 0.0, 1000.0),
    int("enc_width", "encw", 0, 180, 7680),
    int("enc_height", "ench", 0, 150, 7680),
    int("enc_bitdepth", "encbd", 0, 6, 16),
    int("src_width", "srcw", 0, 320, 7680),
    int("src_height", "srch", 0, 200, 4320),
    int("window_size", "ws", 65, 15, 127),
    dbl("topk", "", 0.6, 0.0001, 1.0).no_alias(),
    dbl("cambi_topk", "ctpk", 0.6, 0.0001, 1.0),
    dbl("tvi_threshold", "tvit", 0.019, 0.0001, 1.0),
    dbl("cambi_vis_lum_threshold", "vlt", 0.0, 0.0, 300.0),
    int("max_log_contrast", "mlc", 2, 0, 5),
    OptionSpec {
        name: "heatmaps_path",
        alias: None,
        default: OptDefault::Str(None),
        min: 0.0,
        max: 0.0,
        feature_param: false,
    },
    boolean("full_ref", "", false).internal(),
    string("eotf", "", "bt1886").no_alias(),
    string("cambi_eotf", "ceot", "bt1886"),
    int("cambi_high_res_speedup", "hrs", 0, 0, 2160),
];

/// libvmaf's `feature_extractor_list[]` (float build, no CUDA), in order.
/// `null` provides no features and is left out.
pub(crate) static EXTRACTORS: &[ExtractorSpec] = &[
    ExtractorSpec { name: "float_psnr", provided_features: &["float_psnr"], options: &[] },
    ExtractorSpec { name: "float_ansnr", provided_features: &["float_ansnr"], options: &[] },
    ExtractorSpec {
        name: "float_adm",
        provided_features: &[
            "VMAF_feature_adm2_score",
            "VMAF_feature_aim_score",
            "VMAF_feature_adm3_score",
            "VMAF_feature_adm_scale0_score",
            "VMAF_feature_adm_scale1_score",
            "VMAF_feature_adm_scale2_score",
            "VMAF_feature_adm_scale3_score",
            "adm_num",
            "adm_den",
            "adm_scale0",
            "adm_num_scale0",
            "adm_den_scale0",
            "adm_num_scale1",
            "adm_den_scale1",
            "adm_num_scale2",
            "adm_den_scale2",
            "adm_num_scale3",
            "adm_den_scale3",
        ],
        options: FLOAT_ADM_OPTIONS,
    },
    ExtractorSpec {
        name: "float_vif",
        provided_features: &[
            "VMAF_feature_vif_scale0_score",
            "VMAF_feature_vif_scale1_score",
            "VMAF_feature_vif_scale2_score",
            "VMAF_feature_vif_scale3_score",
            "vif",
            "vif_num",
            "vif_den",
            "vif_num_scale0",
            "vif_den_scale0",
            "vif_num_scale1",
            "vif_den_scale1",
            "vif_num_scale2",
            "vif_den_scale2",
            "vif_num_scale3",
            "vif_den_scale3",
        ],
        options: FLOAT_VIF_OPTIONS,
    },
    ExtractorSpec {
        name: "float_motion",
        provided_features: &["VMAF_feature_motion_score", "VMAF_feature_motion2_score", "VMAF_feature_motion3_score"],
        options: FLOAT_MOTION_OPTIONS,
    },
    ExtractorSpec { name: "float_moment", provided_features: &["float_moment"], options: &[] },
    ExtractorSpec {
        name: "speed_chroma",
        provided_features: &[
            "Speed_chroma_feature_speed_chroma_u_score",
            "Speed_chroma_feature_speed_chroma_v_score",
            "Speed_chroma_feature_speed_chroma_uv_score",
        ],
        options: SPEED_CHROMA_OPTIONS,
    },
    ExtractorSpec {
        name: "speed_temporal",
        provided_features: &["Speed_temporal_feature_speed_temporal_score"],
        options: SPEED_TEMPORAL_OPTIONS,
    },
    ExtractorSpec { name: "float_ms_ssim", provided_features: &["float_ms_ssim"], options: FLOAT_MS_SSIM_OPTIONS },
    ExtractorSpec { name: "float_ssim", provided_features: &["float_ssim"], options: FLOAT_SSIM_OPTIONS },
    ExtractorSpec { name: "ciede", provided_features: &["ciede2000"], options: &[] },
    ExtractorSpec { name: "psnr", provided_features: &["psnr_y", "psnr_cb", "psnr_cr"], options: PSNR_OPTIONS },
    ExtractorSpec {
        name: "psnr_hvs",
        provided_features: &["psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"],
        options: &[],
    },
    ExtractorSpec {
        name: "adm",
        provided_features: &[
            "VMAF_integer_feature_adm2_score",
            "VMAF_integer_feature_aim_score",
            "VMAF_integer_feature_adm3_score",
            "integer_adm_scale0",
            "integer_adm_scale1",
            "integer_adm_scale2",
            "integer_adm_scale3",
            "integer_adm",
            "integer_adm_num",
            "integer_adm_den",
            "integer_adm_num_scale0",
            "integer_adm_den_scale0",
            "integer_adm_num_scale1",
            "integer_adm_den_scale1",
            "integer_adm_num_scale2",
            "integer_adm_den_scale2",
            "integer_adm_num_scale3",
            "integer_adm_den_scale3",
        ],
        options: INTEGER_ADM_OPTIONS,
    },
    ExtractorSpec {
        name: "motion",
        provided_features: &[
            "VMAF_integer_feature_motion_sad_score",
            "VMAF_integer_feature_motion_score",
            "VMAF_integer_feature_motion2_score",
            "VMAF_integer_feature_motion3_score",
        ],
        options: INTEGER_MOTION_OPTIONS,
    },
    ExtractorSpec {
        name: "vif",
        provided_features: &[
            "VMAF_integer_feature_vif_scale0_score",
            "VMAF_integer_feature_vif_scale1_score",
            "VMAF_integer_feature_vif_scale2_score",
            "VMAF_integer_feature_vif_scale3_score",
            "integer_vif",
            "integer_vif_num",
            "integer_vif_den",
            "integer_vif_num_scale0",
            "integer_vif_den_scale0",
            "integer_vif_num_scale1",
            "integer_vif_den_scale1",
            "integer_vif_num_scale2",
            "integer_vif_den_scale2",
            "integer_vif_num_scale3",
            "integer_vif_den_scale3",
        ],
        options: INTEGER_VIF_OPTIONS,
    },
    ExtractorSpec { name: "cambi", provided_features: &["Cambi_feature_cambi_score"], options: CAMBI_OPTIONS },
];

/// `vmaf_get_feature_extractor_by_feature_name`: first extractor providing
/// `feature`.
pub(crate) fn extractor_for_feature(feature: &str) -> Option<&'static ExtractorSpec> {
    EXTRACTORS.iter().find(|e| e.provided_features.contains(&feature))
}

/// Extractor by its own name (`adm`, `float_vif`, ...), as used by option
/// overloads (`adm.adm_enhn_gain_limit=1.0`).
pub(crate) fn extractor_by_name(name: &str) -> Option<&'static ExtractorSpec> {
    EXTRACTORS.iter().find(|e| e.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_follows_list_order() {
        assert_eq!(extractor_for_feature("VMAF_integer_feature_adm2_score").unwrap().name, "adm");
        assert_eq!(extractor_for_feature("VMAF_feature_vif_scale0_score").unwrap().name, "float_vif");
        assert_eq!(extractor_for_feature("Speed_chroma_feature_speed_chroma_uv_score").unwrap().name, "speed_chroma");
        assert_eq!(extractor_for_feature("VMAF_integer_feature_motion_sad_score").unwrap().name, "motion");
        assert!(extractor_for_feature("ssim").is_none()); // integer ssim is not registered
        assert!(extractor_for_feature("nope").is_none());
    }

    #[test]
    fn option_names_unique_per_extractor() {
        for e in EXTRACTORS {
            for (i, a) in e.options.iter().enumerate() {
                assert!(e.options[i + 1..].iter().all(|b| b.name != a.name), "{}: {}", e.name, a.name);
            }
        }
    }
}
