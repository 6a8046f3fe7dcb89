//! The public API on libvmaf's own model files: feature mapping (extractor,
//! options, printed keys), built-in vs file models, load options, option
//! overloads, score names.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use vqgraph_models::{Model, ModelConfig, ModelError, OptionValue};

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared")
}

fn model_file(rel: &str) -> PathBuf {
    shared().join("models").join(rel)
}

/// Frames of a reference output (printed name -> value, nulls dropped).
fn reference_frames(pair_file: &str) -> Vec<HashMap<String, f64>> {
    let p = shared().join("reference").join(pair_file);
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
    v["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            f["metrics"].as_object().unwrap().iter().filter_map(|(k, x)| x.as_f64().map(|y| (k.clone(), y))).collect()
        })
        .collect()
}

/// (printed name, extractor, instance) of a model's features.
fn feature_table(m: &Model) -> Vec<(String, String, String)> {
    m.features().iter().map(|f| (f.printed_name().into(), f.extractor().into(), f.instance_name().into())).collect()
}

fn t(a: &str, b: &str, c: &str) -> (String, String, String) {
    (a.into(), b.into(), c.into())
}

#[test]
fn default_model_features() {
    let m = Model::builtin("vmaf_v0.6.1").unwrap();
    assert_eq!(m.name(), "vmaf");
    assert_eq!(m.source(), "built-in vmaf_v0.6.1");
    assert!(!m.is_bootstrap());
    assert_eq!(
        feature_table(&m),
        vec![
            t("integer_adm2", "adm", "adm"),
            t("integer_motion2", "motion", "motion"),
            t("integer_vif_scale0", "vif", "vif"),
            t("integer_vif_scale1", "vif", "vif"),
            t("integer_vif_scale2", "vif", "vif"),
            t("integer_vif_scale3", "vif", "vif"),
        ]
    );
    let adm2 = &m.features()[0];
    assert_eq!(adm2.name(), "VMAF_integer_feature_adm2_score");
    assert_eq!(adm2.collector_name(), "VMAF_integer_feature_adm2_score");
    assert!(adm2.options().is_empty());
    assert!(adm2.non_default_params().is_empty());
    assert_eq!(adm2.option_value("adm_enhn_gain_limit"), Some(&OptionValue::Double(100.0)));
    assert_eq!(adm2.option_value("adm_csf_mode"), Some(&OptionValue::Int(0)));
    assert_eq!(adm2.option_value("no_such_option"), None);
    assert_eq!(m.score_names(), vec!["vmaf".to_owned()]);
}

#[test]
fn neg_model_features() {
    let m = Model::builtin_with("vmaf_v0.6.1neg", &ModelConfig::named("vmaf_neg")).unwrap();
    assert_eq!(
        feature_table(&m),
        vec![
            t("integer_adm2_egl_1", "adm", "adm_egl_1"),
            t("integer_motion2", "motion", "motion"),
            t("integer_vif_scale0_egl_1", "vif", "vif_egl_1"),
            t("integer_vif_scale1_egl_1", "vif", "vif_egl_1"),
            t("integer_vif_scale2_egl_1", "vif", "vif_egl_1"),
            t("integer_vif_scale3_egl_1", "vif", "vif_egl_1"),
        ]
    );
    let adm2 = &m.features()[0];
    assert_eq!(adm2.collector_name(), "integer_adm2_egl_1");
    // The JSON number 1.0 reaches the extractor as the string "1".
    assert_eq!(adm2.options(), &[("adm_enhn_gain_limit".to_owned(), "1".to_owned())]);
    assert_eq!(adm2.option_value("adm_enhn_gain_limit"), Some(&OptionValue::Double(1.0)));
    assert_eq!(adm2.non_default_params(), vec![("adm_enhn_gain_limit", &OptionValue::Double(1.0))]);

    let float_neg = Model::from_path(model_file("vmaf_float_v0.6.1neg.json")).unwrap();
    let names: Vec<_> = feature_table(&float_neg).into_iter().map(|(p, e, _)| format!("{p}/{e}")).collect();
    assert_eq!(
        names,
        [
            "adm2_egl_1/float_adm",
            "motion2/float_motion",
            "vif_scale0_egl_1/float_vif",
            "vif_scale1_egl_1/float_vif",
            "vif_scale2_egl_1/float_vif",
            "vif_scale3_egl_1/float_vif"
        ]
    );
}

#[test]
fn v1_0_16_features() {
    let m = Model::from_path(model_file("vmaf_v1.0.16/vmaf_v1.0.16_3d0h.json")).unwrap();
    assert_eq!(
        feature_table(&m),
        vec![
            t("cambi_hrs_1080_cmxv_17_vlt_0.06", "cambi", "cambi_hrs_1080_cmxv_17_vlt_0.06"),
            t(
                "speed_chroma_uv_mxv_45_nnf_0.1_snn_0.19_wvm_5",
                "speed_chroma",
                "speed_chroma_mxv_45_nnf_0.1_snn_0.19_wvm_5"
            ),
            t("integer_adm3_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02", "adm", "adm_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02"),
            t("integer_motion3_mmxv_18", "motion", "motion_mmxv_18"),
        ]
    );
    // Options equal to the defaults (nvd 3, rdh 1080, speed_kernelscale 1)
    // are passed on but do not change the key.
    let adm = &m.features()[2];
    assert_eq!(adm.option_value("adm_norm_view_dist"), Some(&OptionValue::Double(3.0)));
    assert_eq!(adm.option_value("adm_ref_display_height"), Some(&OptionValue::Int(1080)));
    assert_eq!(adm.option_value("adm_noise_weight"), Some(&OptionValue::Double(0.02)));
    let speed = &m.features()[1];
    assert_eq!(speed.option_value("speed_weight_var_mode"), Some(&OptionValue::Int(5)));
    assert_eq!(speed.option_value("speed_prescale_method"), Some(&OptionValue::Str("nearest".into())));

    // HFR: boolean options show as their alias only; keys are sorted by
    // option name, not alias (motion_max_val < motion_moving_average).
    let hfr = Model::from_path(model_file("vmaf_v1.0.16_hfr/vmaf_v1.0.16_hfr_3d0h.json")).unwrap();
    assert_eq!(hfr.features()[3].printed_name(), "integer_motion3_mffw_mmxv_18_mma");
    // A string option and a non-default prescale.
    let uhd = Model::from_path(model_file("vmaf_v1.0.16/vmaf_v1.0.16_3d0h_2160.json")).unwrap();
    assert_eq!(uhd.features()[1].printed_name(), "speed_chroma_uv_mxv_45_nnf_0.1_ps_0.5_psm_bilinear_snn_0.19_wvm_5");
    assert_eq!(uhd.features()[2].printed_name(), "integer_adm3_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02_rdh_2160");
}

#[test]
fn every_libvmaf_model_file_loads() {
    let mut files = Vec::new();
    for dir in ["", "vmaf_v1.0.16", "vmaf_v1.0.16_hfr"] {
        for e in std::fs::read_dir(shared().join("models").join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "json") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert_eq!(files.len(), 17, "model files in shared/models");
    for p in &files {
        let m = Model::from_path(p).unwrap_or_else(|e| panic!("{e}"));
        let is_b = p.file_name().unwrap().to_string_lossy().contains("_b_");
        assert_eq!(m.is_bootstrap(), is_b, "{}", p.display());
        assert!(!m.features().is_empty());
    }
}

#[test]
fn bootstrap_score_names() {
    let m = Model::builtin_with("vmaf_b_v0.6.3", &ModelConfig::named("vmaf_b_v0.6.3")).unwrap();
    assert!(m.is_bootstrap());
    let names = m.score_names();
    assert_eq!(names.len(), 1 + 20 + 4);
    assert_eq!(names[0], "vmaf_b_v0.6.3");
    assert_eq!(names[1], "vmaf_b_v0.6.3_0001");
    assert_eq!(names[20], "vmaf_b_v0.6.3_0020");
    assert_eq!(
        &names[21..],
        ["vmaf_b_v0.6.3_bagging", "vmaf_b_v0.6.3_stddev", "vmaf_b_v0.6.3_ci_p95_lo", "vmaf_b_v0.6.3_ci_p95_hi"]
    );
    // Default name, as libvmaf's.
    let d = Model::builtin("vmaf_b_v0.6.3").unwrap();
    assert_eq!(d.score_names()[5], "vmaf_0005");
    assert_eq!(d.score_names()[24], "vmaf_ci_p95_hi");
    // The predicted scores come in the same order.
    let frame = &reference_frames("s01_garden_x264crf35/extra_models.json")[3];
    let s = m.predict(frame).unwrap();
    let got: Vec<&str> = s.iter().map(|(n, _)| n).collect();
    assert_eq!(got, names.iter().map(String::as_str).collect::<Vec<_>>());
}

/// Built-in copies give bit-identical scores to the files they came from.
#[test]
fn builtin_equals_file() {
    let cases = [
        ("vmaf_v0.6.1", "vmaf_v0.6.1.json", "s01_garden_x264crf35/vmaf_v0.6.1_all.json"),
        ("vmaf_v0.6.1neg", "vmaf_v0.6.1neg.json", "s01_garden_x264crf35/vmaf_v0.6.1neg.json"),
        ("vmaf_4k_v0.6.1", "vmaf_4k_v0.6.1.json", "s01_garden_x264crf35/extra_models.json"),
        ("vmaf_b_v0.6.3", "vmaf_b_v0.6.3.json", "s01_garden_x264crf35/extra_models.json"),
    ];
    assert_eq!(Model::builtin_versions(), ["vmaf_v0.6.1", "vmaf_b_v0.6.3", "vmaf_v0.6.1neg", "vmaf_4k_v0.6.1"]);
    for (version, file, frames) in cases {
        let a = Model::builtin(version).unwrap();
        let b = Model::from_path(model_file(file)).unwrap();
        assert_eq!(std::fs::read_to_string(model_file(file)).unwrap().len(), {
            let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("data").join(file);
            std::fs::read_to_string(p).unwrap().len()
        });
        for f in reference_frames(frames) {
            let (x, y) = (a.predict(&f).unwrap(), b.predict(&f).unwrap());
            for ((n1, v1), (n2, v2)) in x.iter().zip(y.iter()) {
                assert_eq!(n1, n2);
                assert_eq!(v1.to_bits(), v2.to_bits(), "{version} {n1}");
            }
        }
    }
    match Model::builtin("vmaf_v9") {
        Err(e @ ModelError::UnknownBuiltin { .. }) => assert!(e.to_string().contains("vmaf_v0.6.1")),
        other => panic!("{other:?}"),
    }
}

/// `--model version=vmaf_v0.6.1:adm.adm_enhn_gain_limit=1.0:vif.vif_enhn_gain_limit=1.0`
/// is the neg model (same SVM, same features after the overload).
#[test]
fn option_overload_gives_neg_model() {
    let mut m = Model::builtin("vmaf_v0.6.1").unwrap();
    assert_eq!(m.set_feature_option("adm", "adm_enhn_gain_limit", "1.0").unwrap(), 1);
    assert_eq!(m.set_feature_option("vif", "vif_enhn_gain_limit", "1.0").unwrap(), 4);
    assert_eq!(m.set_feature_option("float_adm", "adm_enhn_gain_limit", "1.0").unwrap(), 0);
    let neg = Model::builtin("vmaf_v0.6.1neg").unwrap();
    assert_eq!(feature_table(&m), feature_table(&neg));
    for f in reference_frames("s03_bbb_x265crf30_unsharp/vmaf_v0.6.1neg.json") {
        assert_eq!(m.predict(&f).unwrap().score().to_bits(), neg.predict(&f).unwrap().score().to_bits());
    }
    // Rejected values are reported, naming the extractor and option.
    let err = m.set_feature_option("adm", "adm_enhn_gain_limit", "0.5").unwrap_err();
    assert!(matches!(err, ModelError::BadFeatureOption { .. }), "{err}");
    assert!(err.to_string().contains("adm_enhn_gain_limit"), "{err}");
    assert_eq!(feature_table(&m), feature_table(&neg), "a rejected overload changes nothing");
    // Overloads on a collection reach every model.
    let mut b = Model::builtin("vmaf_b_v0.6.3").unwrap();
    assert_eq!(b.set_feature_option("motion", "motion_force_zero", "true").unwrap(), 21);
    assert_eq!(b.features()[1].printed_name(), "integer_motion2_force_0");
}

#[test]
fn disable_clip_and_enable_transform() {
    let frames = reference_frames("s13_chelsea_w360_x265crf28/vmaf_v0.6.1_all.json");
    let plain = Model::builtin("vmaf_v0.6.1").unwrap();
    let noclip =
        Model::builtin_with("vmaf_v0.6.1", &ModelConfig { disable_clip: true, ..ModelConfig::default() }).unwrap();
    let phone =
        Model::builtin_with("vmaf_v0.6.1", &ModelConfig { enable_transform: true, ..ModelConfig::default() }).unwrap();
    let phone_noclip = Model::builtin_with(
        "vmaf_v0.6.1",
        &ModelConfig { enable_transform: true, disable_clip: true, ..ModelConfig::default() },
    )
    .unwrap();
    let mut saw_clip = false;
    for f in &frames {
        let raw = noclip.predict(f).unwrap().score();
        let clipped = plain.predict(f).unwrap().score();
        assert_eq!(clipped, raw.clamp(0.0, 100.0));
        saw_clip |= raw > 100.0;
        // vmaf_v0.6.1's transform: 1.70674692 + 1.72643844 x - 0.00705305 x^2, never below x.
        let poly = 0.0 + 1.70674692 + 1.72643844 * raw + -0.00705305 * raw * raw;
        let transformed = if poly < raw { raw } else { poly };
        assert_eq!(phone_noclip.predict(f).unwrap().score(), transformed);
        assert_eq!(phone.predict(f).unwrap().score(), transformed.clamp(0.0, 100.0));
    }
    assert!(saw_clip, "s13 has frames above 100 before clipping");
    // 4K model: no score_transform, enable_transform changes nothing.
    let a = Model::builtin("vmaf_4k_v0.6.1").unwrap();
    let b = Model::builtin_with("vmaf_4k_v0.6.1", &ModelConfig { enable_transform: true, ..ModelConfig::default() })
        .unwrap();
    for f in &frames {
        assert_eq!(a.predict(f).unwrap().score(), b.predict(f).unwrap().score());
    }
}

#[test]
fn feature_sources_and_missing_features() {
    let m = Model::builtin("vmaf_v0.6.1").unwrap();
    let frame = &reference_frames("s01_garden_x264crf35/vmaf_v0.6.1_all.json")[0];
    let by_map = m.predict(frame).unwrap();
    let by_closure = m.predict(&|n: &str| frame.get(n).copied()).unwrap();
    let dyn_source: &dyn Fn(&str) -> Option<f64> = &|n| frame.get(n).copied();
    let by_dyn = m.predict(dyn_source).unwrap();
    let pairs: Vec<(&str, f64)> = frame.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    let by_slice = m.predict(pairs.as_slice()).unwrap();
    assert_eq!(by_map, by_closure);
    assert_eq!(by_map, by_dyn);
    assert_eq!(by_map, by_slice);
    assert_eq!(by_map.get("vmaf"), Some(by_map.score()));
    assert_eq!(by_map.len(), 1);

    let mut partial = frame.clone();
    partial.remove("integer_vif_scale2");
    match m.predict(&partial) {
        Err(ModelError::MissingFeature { model, feature }) => {
            assert_eq!((model.as_str(), feature.as_str()), ("vmaf", "integer_vif_scale2"));
        }
        other => panic!("{other:?}"),
    }
}
