//! Broken model files give a `ModelError` naming the file and the reason,
//! never a panic.

use vqgraph_models::{Model, ModelConfig, ModelError};

const GOOD: &str = include_str!("../data/vmaf_v0.6.1.json");

fn load(text: &str) -> Result<Model, ModelError> {
    Model::from_json_str(text, "test.json", &ModelConfig::default())
}

/// A small valid single model; `f` edits its model_dict.
fn tiny(f: impl FnOnce(&mut serde_json::Map<String, serde_json::Value>)) -> String {
    let mut v: serde_json::Value = serde_json::json!({
        "param_dict": {"C": 4.0},
        "model_dict": {
            "model_type": "LIBSVMNUSVR",
            "norm_type": "linear_rescale",
            "slopes": [0.5, 2.0, 3.0],
            "intercepts": [-1.0, 0.1, 0.2],
            "score_clip": [0.0, 100.0],
            "feature_names": ["VMAF_integer_feature_adm2_score", "VMAF_integer_feature_motion2_score"],
            "model": "svm_type nu_svr\nkernel_type rbf\ngamma 0.04\nnr_class 2\ntotal_sv 2\nrho -1.5\nSV\n4 1:0.5 2:0.25 \n-4 1:0.75 \n"
        }
    });
    f(v["model_dict"].as_object_mut().unwrap());
    v.to_string()
}

fn expect_err(text: &str, check: impl Fn(&ModelError) -> bool, needle: &str) {
    match load(text) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => {
            let msg = e.to_string();
            assert!(check(&e), "wrong variant: {msg}");
            assert!(msg.starts_with("test.json"), "file not named: {msg}");
            assert!(msg.contains(needle), "reason \"{needle}\" missing: {msg}");
        }
    }
}

#[test]
fn tiny_model_loads_and_predicts() {
    let m = load(&tiny(|_| {})).unwrap();
    let s = m.predict(&|n: &str| match n {
        "integer_adm2" => Some(0.9),
        "integer_motion2" => Some(3.0),
        _ => None,
    });
    let (x1, x2) = (2.0 * 0.9 + 0.1, 3.0 * 3.0 + 0.2);
    let k0 = (-0.04f64 * ((x1 - 0.5) * (x1 - 0.5) + (x2 - 0.25) * (x2 - 0.25))).exp();
    let k1 = (-0.04f64 * ((x1 - 0.75) * (x1 - 0.75) + x2 * x2)).exp();
    let svm = 4.0 * k0 + -4.0 * k1 - -1.5;
    let want = ((svm - -1.0) / 0.5).clamp(0.0, 100.0);
    assert_eq!(s.unwrap().score(), want);
}

#[test]
fn json_syntax_errors() {
    expect_err("", |e| matches!(e, ModelError::Json { .. }), "unexpected end");
    expect_err(&GOOD[..GOOD.len() / 2], |e| matches!(e, ModelError::Json { .. }), "malformed JSON");
    expect_err("{\"model_dict\": {\"slopes\": [1,]}}", |e| matches!(e, ModelError::Json { line: 1, .. }), "column 30");
    expect_err(&format!("{GOOD} trailing"), |e| matches!(e, ModelError::Json { .. }), "after the JSON document");
}

#[test]
fn structural_errors() {
    let missing = |e: &ModelError| matches!(e, ModelError::MissingKey { .. });
    let invalid = |e: &ModelError| matches!(e, ModelError::Invalid { .. });
    expect_err("[]", invalid, "expected an object");
    expect_err("{\"param_dict\": {}}", missing, "missing key \"model_dict\"");
    expect_err("{\"model_dict\": 3}", invalid, "model_dict: expected an object, found a number");
    expect_err(&tiny(|d| drop(d.remove("model"))), missing, "missing key \"model\"");
    expect_err(&tiny(|d| drop(d.remove("norm_type"))), missing, "missing key \"norm_type\"");
    expect_err(&tiny(|d| drop(d.remove("slopes"))), missing, "missing key \"slopes\"");
    expect_err(&tiny(|d| drop(d.insert("norm_type".into(), "clip_0to1".into()))), invalid, "unknown norm type");
    expect_err(&tiny(|d| drop(d.insert("model_type".into(), "SVR".into()))), invalid, "unknown model type");
    expect_err(
        &tiny(|d| drop(d.insert("slopes".into(), serde_json::json!([0.5, 2.0])))),
        invalid,
        "2 entries, expected 3",
    );
    expect_err(
        &tiny(|d| drop(d.insert("slopes".into(), serde_json::json!([0.5, "2", 1])))),
        invalid,
        "slopes[1]: expected a number",
    );
    expect_err(&tiny(|d| drop(d.insert("intercepts".into(), serde_json::json!([])))), invalid, "empty array");
    expect_err(
        &tiny(|d| drop(d.insert("score_clip".into(), serde_json::json!([0.0])))),
        invalid,
        "expected [min, max]",
    );
    expect_err(
        &tiny(|d| drop(d.insert("feature_names".into(), serde_json::json!(["x", 1])))),
        invalid,
        "feature_names[1]",
    );
    expect_err(&tiny(|d| drop(d.insert("model".into(), serde_json::json!(7)))), invalid, "model_dict.model");
    // libvmaf's reader fails on null polynomial coefficients / knots.
    expect_err(&tiny(|d| drop(d.insert("score_transform".into(), serde_json::json!({"p0": null})))), invalid, "null");
    expect_err(
        &tiny(|d| drop(d.insert("score_transform".into(), serde_json::json!({"knots": [[0, 0], [1, 1, 1]]})))),
        invalid,
        "at most two coordinates",
    );
    expect_err(
        &tiny(|d| drop(d.insert("score_transform".into(), serde_json::json!({"knots": vec![[0, 0]; 11]})))),
        invalid,
        "more than 10 knots",
    );
    expect_err(
        &tiny(|d| drop(d.insert("score_transform".into(), serde_json::json!({"enabled": "yes"})))),
        invalid,
        "enabled",
    );
    expect_err(
        &tiny(|d| drop(d.insert("score_transform".into(), serde_json::json!({"out_gte_in": true})))),
        invalid,
        "out_gte_in",
    );
}

#[test]
fn feature_errors() {
    expect_err(
        &tiny(|d| {
            drop(d.insert("feature_names".into(), serde_json::json!(["VMAF_feature_adm2_score", "bogus_feature"])))
        }),
        |e| matches!(e, ModelError::UnknownFeature { index: 1, .. }),
        "no feature extractor provides feature \"bogus_feature\"",
    );
    expect_err(
        &tiny(|d| drop(d.insert("feature_opts_dicts".into(), serde_json::json!([{"adm_enhn_gain_limit": 0.5}])))),
        |e| matches!(e, ModelError::BadFeatureOption { .. }),
        "extractor \"adm\" rejects option \"adm_enhn_gain_limit\": value \"0.5\": 0.5 is outside [1, 100]",
    );
    expect_err(
        &tiny(|d| drop(d.insert("feature_opts_dicts".into(), serde_json::json!([{}, {"motion_force_zero": 1}])))),
        |e| matches!(e, ModelError::BadFeatureOption { .. }),
        "motion_force_zero",
    );
    expect_err(
        &tiny(|d| drop(d.insert("feature_opts_dicts".into(), serde_json::json!([{"adm_csf_mode": [1]}])))),
        |e| matches!(e, ModelError::Invalid { .. }),
        "feature_opts_dicts[0].adm_csf_mode",
    );
    // Unknown option keys are ignored by libvmaf's extractors, so they load.
    load(&tiny(|d| drop(d.insert("feature_opts_dicts".into(), serde_json::json!([{"whatever": 1}]))))).unwrap();
}

#[test]
fn bad_libsvm_text() {
    let svm = |text: &str| tiny(|d| drop(d.insert("model".into(), text.into())));
    let is_svm = |line: usize| move |e: &ModelError| matches!(e, ModelError::Svm { line: l, .. } if *l == line);
    expect_err(
        &svm(
            "svm_type nu_svr\nkernel_type rbf\ngamma 0.04\nnr_class 2\ntotal_sv 2\nrho 1\nSV\n4 1:0.5 2:x\n-4 1:0.7\n",
        ),
        is_svm(8),
        "bad support vector entry",
    );
    expect_err(
        &svm("svm_type nu_svr\nkernel_type rbf\nnr_class 2\ntotal_sv 3\nrho 1\nSV\n4 1:0.5\n"),
        is_svm(8),
        "failed to read support vector 2",
    );
    expect_err(&svm("svm_type nu_svr\nkernel_type fancy\n"), is_svm(2), "unknown kernel_type");
    expect_err(&svm("svm_type c_svc\nnr_class 2\nrho 1\nSV\n"), is_svm(4), "not a regression model");
    expect_err(&svm("svm_type nu_svr\nnr_class 2\ntotal_sv 0\nSV\n"), is_svm(4), "missing rho");
    expect_err(&svm("svm_type nu_svr\ngamma -\n"), is_svm(2), "failed to read gamma");
    expect_err(&svm("hello"), is_svm(1), "");
    // Huge counts fail on the missing data, without allocating for them.
    expect_err(&svm("svm_type nu_svr\nnr_class 2147483647\nrho 1 2\nSV\n"), is_svm(3), "failed to read rho");
    expect_err(
        &svm("svm_type nu_svr\nnr_class 2\ntotal_sv 2147483647\nrho 1\nSV\n1 1:1\n"),
        is_svm(7),
        "support vector 2 of",
    );
}

#[test]
fn collection_errors() {
    let one = serde_json::from_str::<serde_json::Value>(&tiny(|d| {
        d.insert("model_type".into(), "BOOTSTRAP_LIBSVMNUSVR".into());
    }))
    .unwrap();
    let plain = serde_json::from_str::<serde_json::Value>(&tiny(|_| {})).unwrap();
    let coll = |models: &[&serde_json::Value]| {
        let m: serde_json::Map<_, _> = models.iter().enumerate().map(|(i, v)| (i.to_string(), (*v).clone())).collect();
        serde_json::Value::Object(m).to_string()
    };
    let m = load(&coll(&[&one, &one, &one])).unwrap();
    assert_eq!(m.score_names().len(), 1 + 2 + 4);
    let invalid = |e: &ModelError| matches!(e, ModelError::Invalid { .. });
    expect_err(&coll(&[&one]), invalid, "needs models \"0\" and \"1\"");
    expect_err(&coll(&[&one, &plain, &plain]), invalid, "must be BOOTSTRAP_LIBSVMNUSVR");
    expect_err(&coll(&[&one, &one, &plain]), invalid, "\"2\".model_dict.model_type: differs");
    let mut broken = one.clone();
    broken["model_dict"]["slopes"] = serde_json::json!([1]);
    expect_err(&coll(&[&one, &broken]), invalid, "\"1\".model_dict.slopes");
}

#[test]
fn file_errors() {
    match Model::from_path("/nonexistent/model.json") {
        Err(e @ ModelError::Io { .. }) => assert!(e.to_string().starts_with("/nonexistent/model.json")),
        other => panic!("{other:?}"),
    }
    let dir = std::env::temp_dir().join(format!("vqgraph-models-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("latin1.json");
    std::fs::write(&p, b"{\"model_dict\": \"\xe9\"}").unwrap();
    match Model::from_path(&p) {
        Err(e @ ModelError::Json { .. }) => assert!(e.to_string().contains("not UTF-8"), "{e}"),
        other => panic!("{other:?}"),
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Truncations and byte flips of real model files never panic.
#[test]
fn no_panics_on_damaged_files() {
    let b = include_str!("../data/vmaf_b_v0.6.3.json");
    for text in [GOOD, &b[..40_000]] {
        let bytes = text.as_bytes();
        for cut in (0..bytes.len()).step_by(37) {
            if let Ok(s) = std::str::from_utf8(&bytes[..cut]) {
                let _ = load(s);
            }
        }
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..300 {
            let mut v = bytes.to_vec();
            for _ in 0..3 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let i = (state % v.len() as u64) as usize;
                v[i] = b" \n:,{}[]\"0123456789.-eE+abnrst"[(state >> 40) as usize % 29];
            }
            // Whatever loads must predict or fail cleanly.
            if let Ok(s) = std::str::from_utf8(&v)
                && let Ok(m) = load(s)
            {
                let _ = m.predict(&|_: &str| Some(0.5));
            }
        }
    }
}
