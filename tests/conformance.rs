//! Conformance with libvmaf: every corpus pair, every per-frame value of the integer features and the VMAF
//! models, against libvmaf's own outputs in `../shared/reference`. Written once, run per backend.

mod common;

use std::collections::BTreeMap;

use common::{PRINT_TOL, Pair, compare, pairs, reference_series};
use vqgraph::backends::CpuBackend;
use vqgraph::graph::Backend;
use vqgraph::io::{PairReader, Y4mReader};
use vqgraph::pipeline::{score, sources};
use vqgraph::setup::{FeatureRequest, ModelRequest, Setup};

/// How libvmaf's reference runs were configured; runs of one kind are computed by one graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// The models and extra features of `vmaf_v0.6.1_all`, `vmaf_v0.6.1neg` and `extra_models`.
    Models,
    /// `-n` with `debug=true` extractors: per-scale numerators and denominators (`debug_features`).
    Debug,
}

fn setup_for(kind: Kind, src: &vqgraph::metrics::Sources) -> Setup {
    if kind == Kind::Debug {
        let features: Vec<FeatureRequest> = ["vif=debug=true", "adm=debug=true", "motion=debug=true"]
            .iter()
            .map(|f| FeatureRequest::parse(f).unwrap())
            .collect();
        return Setup::new(&[], &features, src).unwrap();
    }
    let shared = common::shared();
    let models = [
        "version=vmaf_v0.6.1:name=vmaf".to_string(),
        "version=vmaf_v0.6.1neg:name=vmaf_neg".to_string(),
        "version=vmaf_4k_v0.6.1:name=vmaf_4k_v0.6.1".to_string(),
        format!("path={}:name=vmaf_b_v0.6.3", shared.join("models/vmaf_b_v0.6.3.json").display()),
    ];
    let models: Vec<ModelRequest> = models.iter().map(|m| ModelRequest::parse(m).unwrap()).collect();
    // The extractors of vmaf_v1.0.16_3d0h (in extra_models) that vqgraph has: ADM with its CSF options and
    // motion clipped at 18.
    let features = [
        "psnr=enable_chroma=true:enable_mse=true:enable_apsnr=true",
        "adm=adm_csf_mode=2:adm_dlm_weight=0.7:adm_enhn_gain_limit=1:adm_min_val=0.5:adm_noise_weight=0.02",
        "motion=motion_max_val=18",
    ]
    .map(|f| FeatureRequest::parse(f).unwrap());
    Setup::new(&models, &features, src).unwrap()
}

/// Our values for one pair, by printed name, per frame; and the aggregates.
fn run_pair(pair: &Pair, kind: Kind, backend: &dyn Backend) -> (BTreeMap<String, Vec<f64>>, BTreeMap<String, f64>) {
    let r = Y4mReader::open(&pair.reference).unwrap();
    let d = Y4mReader::open(&pair.distorted).unwrap();
    let reader = PairReader::new(r, d).unwrap();
    let src = sources(&reader.format());
    let setup = setup_for(kind, &src);
    let mut scores = score(&setup.extractors, &src, backend, reader).unwrap();
    setup.predict(&mut scores.frames).unwrap();
    assert_eq!(scores.frames.len(), pair.frames, "{}: frame count", pair.id);
    let mut by_key: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for f in &scores.frames {
        for (k, v) in f {
            by_key.entry(k.clone()).or_default().push(*v);
        }
    }
    (by_key, scores.aggregate.into_iter().collect())
}

/// For each libvmaf run file, how it was computed and the keys every pair must match.
fn checked_keys() -> Vec<(&'static str, Kind, Vec<String>)> {
    let scales = |prefix: &str, suffix: &str| (0..4).map(move |s| format!("{prefix}{s}{suffix}")).collect::<Vec<_>>();
    let adm = |sfx: &str| {
        let mut k: Vec<String> =
            ["integer_adm2", "integer_aim", "integer_adm3"].iter().map(|b| format!("{b}{sfx}")).collect();
        k.extend(scales("integer_adm_scale", sfx));
        k
    };
    let mut all: Vec<String> = adm("");
    all.extend(scales("integer_vif_scale", ""));
    all.extend(
        [
            "VMAF_integer_feature_motion_sad_score",
            "integer_motion2",
            "integer_motion3",
            "psnr_y",
            "mse_y",
            "psnr_cb",
            "mse_cb",
            "psnr_cr",
            "mse_cr",
            "vmaf",
        ]
        .map(String::from),
    );
    let mut neg = adm("_egl_1");
    neg.extend(scales("integer_vif_scale", "_egl_1"));
    neg.push("vmaf_neg".into());
    let mut extra: Vec<String> = adm("_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02");
    extra.extend(
        ["VMAF_integer_feature_motion_sad_score_mmxv_18", "integer_motion2_mmxv_18", "integer_motion3_mmxv_18"]
            .map(String::from),
    );
    extra.extend(["vmaf_4k_v0.6.1".to_string(), "vmaf_b_v0.6.3".to_string()]);
    extra.extend((1..=20).map(|i| format!("vmaf_b_v0.6.3_{i:04}")));
    extra.extend(["bagging", "stddev", "ci_p95_lo", "ci_p95_hi"].map(|s| format!("vmaf_b_v0.6.3_{s}")));
    let mut debug = adm("");
    debug.extend(["integer_adm", "integer_adm_num", "integer_adm_den"].map(String::from));
    debug.extend(scales("integer_adm_num_scale", ""));
    debug.extend(scales("integer_adm_den_scale", ""));
    debug.extend(scales("integer_vif_scale", ""));
    debug.extend(["integer_vif", "integer_vif_num", "integer_vif_den"].map(String::from));
    debug.extend(scales("integer_vif_num_scale", ""));
    debug.extend(scales("integer_vif_den_scale", ""));
    debug.extend(
        ["VMAF_integer_feature_motion_sad_score", "integer_motion", "integer_motion2", "integer_motion3"]
            .map(String::from),
    );
    vec![
        ("vmaf_v0.6.1_all", Kind::Models, all),
        ("vmaf_v0.6.1neg", Kind::Models, neg),
        ("extra_models", Kind::Models, extra),
        ("debug_features", Kind::Debug, debug),
    ]
}

/// Keys that depend on chroma, which libvmaf read at floor size for the odd-size pair (docs/precision.md).
fn chroma_key(k: &str) -> bool {
    k.ends_with("_cb") || k.ends_with("_cr")
}

fn check_backend(backend: &dyn Backend) {
    println!("backend {} on {}", backend.name(), backend.device());
    let pairs = pairs();
    assert_eq!(pairs.len(), 14, "pairs.json lists 14 pairs");
    let runs = checked_keys();
    let mut failures = Vec::new();
    let (mut compared, mut expected) = (0, 0);
    for pair in &pairs {
        let mut computed = BTreeMap::new();
        for (run, kind, keys) in &runs {
            let (ours, aggregate) = computed.entry(*kind).or_insert_with(|| run_pair(pair, *kind, backend));
            let reference = pair.load(run);
            for key in keys {
                if pair.odd_size() && chroma_key(key) {
                    continue;
                }
                expected += 1;
                let Some(theirs) = reference_series(&reference, key) else {
                    failures.push(format!("{}: {run}: libvmaf has no {key}", pair.id));
                    continue;
                };
                let Some(mine) = ours.get(key) else {
                    failures.push(format!("{}: we produced no {key}", pair.id));
                    continue;
                };
                match compare(key, mine, &theirs, PRINT_TOL) {
                    Ok(c) => {
                        compared += 1;
                        println!(
                            "  {} {run:<16} {:<40} {} frames, max |diff| {:.2e}",
                            pair.id, c.key, c.frames, c.max_diff
                        )
                    }
                    Err(e) => failures.push(format!("{}: {run}: {e}", pair.id)),
                }
            }
            for (key, theirs) in reference["aggregate_metrics"].as_object().unwrap() {
                if pair.odd_size() && chroma_key(key) {
                    continue;
                }
                expected += 1;
                match aggregate.get(key) {
                    None => failures.push(format!("{}: we produced no aggregate {key}", pair.id)),
                    Some(mine) => match compare(key, &[*mine], &[theirs.as_f64()], PRINT_TOL) {
                        Ok(_) => compared += 1,
                        Err(e) => failures.push(format!("{}: aggregate {e}", pair.id)),
                    },
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
    // A pair or key dropping out of the comparison fails here: every pair, every key of every run.
    let per_pair: usize = runs.iter().map(|(_, _, k)| k.len()).sum::<usize>() + 3; // + apsnr_y/cb/cr
    let odd_skipped: usize = runs.iter().map(|(_, _, k)| k.iter().filter(|k| chroma_key(k)).count()).sum::<usize>() + 2;
    assert_eq!(expected, pairs.len() * per_pair - odd_skipped);
    assert_eq!(compared, expected);
    println!("{compared} (pair, key) series identical to libvmaf when printed %.6f");
}

#[test]
fn cpu_backend_matches_libvmaf_on_every_pair() {
    check_backend(&CpuBackend::new(0));
}
