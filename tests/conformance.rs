//! Conformance with libvmaf: every corpus pair, every per-frame value of the integer features and the VMAF
//! models, against libvmaf's own outputs in `../shared/reference`. Written once, run per backend.

mod common;

use std::collections::BTreeMap;

use common::{PRINT_TOL, Pair, compare, pairs, reference_series};
use vqgraph::backends::CpuBackend;
use vqgraph::graph::Backend;
use vqgraph::io::{PairReader, Y4mReader};
use vqgraph::metrics::Extractor;
use vqgraph::metrics::motion::Motion;
use vqgraph::metrics::psnr::Psnr;
use vqgraph::pipeline::{score, sources};

/// Our features for one pair, by name, per frame.
fn run_pair(pair: &Pair, backend: &dyn Backend) -> (BTreeMap<String, Vec<f64>>, BTreeMap<String, f64>) {
    let r = Y4mReader::open(&pair.reference).unwrap();
    let d = Y4mReader::open(&pair.distorted).unwrap();
    let reader = PairReader::new(r, d).unwrap();
    let src = sources(&reader.format());
    let extractors: Vec<Box<dyn Extractor>> =
        vec![Box::new(Psnr::new(true, true, true).for_sources(&src)), Box::new(Motion::default().for_sources(&src))];
    let scores = score(&extractors, &src, backend, reader).unwrap();
    let mut by_key: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for f in &scores.frames {
        for (k, v) in f {
            by_key.entry(k.clone()).or_default().push(*v);
        }
    }
    (by_key, scores.aggregate.into_iter().collect())
}

/// Keys checked for every pair, from `vmaf_v0.6.1_all.json`.
const ALL_KEYS: &[&str] = &[
    "psnr_y",
    "mse_y",
    "psnr_cb",
    "mse_cb",
    "psnr_cr",
    "mse_cr",
    "VMAF_integer_feature_motion_sad_score",
    "integer_motion2",
    "integer_motion3",
];

/// Keys that depend on chroma, which libvmaf read at floor size for odd-size pairs (see docs/precision.md).
fn chroma_key(k: &str) -> bool {
    k.ends_with("_cb") || k.ends_with("_cr")
}

fn check_backend(backend: &dyn Backend) {
    println!("backend {} on {}", backend.name(), backend.device());
    let mut failures = Vec::new();
    let mut compared = 0;
    let pairs = pairs();
    assert_eq!(pairs.len(), 14, "pairs.json lists 14 pairs");
    for pair in &pairs {
        let (ours, aggregate) = run_pair(pair, backend);
        let all = pair.load("vmaf_v0.6.1_all");
        for key in ALL_KEYS {
            if pair.odd_size() && chroma_key(key) {
                continue;
            }
            let theirs = reference_series(&all, key).unwrap_or_else(|| panic!("{}: libvmaf has no {key}", pair.id));
            let mine = ours.get(*key).unwrap_or_else(|| panic!("{}: we produced no {key}", pair.id));
            match compare(key, mine, &theirs, PRINT_TOL) {
                Ok(c) => {
                    compared += 1;
                    println!("  {} {:<40} {} frames, max |diff| {:.2e}", pair.id, c.key, c.frames, c.max_diff)
                }
                Err(e) => failures.push(format!("{}: {e}", pair.id)),
            }
        }
        for (key, theirs) in all["aggregate_metrics"].as_object().unwrap() {
            if pair.odd_size() && chroma_key(key) {
                continue;
            }
            let mine = aggregate.get(key).unwrap_or_else(|| panic!("{}: we produced no aggregate {key}", pair.id));
            match compare(key, &[*mine], &[theirs.as_f64()], PRINT_TOL) {
                Ok(_) => compared += 1,
                Err(e) => failures.push(format!("{}: aggregate {e}", pair.id)),
            }
        }
    }
    assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
    // Every pair, every key: a pair or key dropping out of the comparison fails here.
    let odd_skipped =
        pairs.iter().filter(|p| p.odd_size()).count() * (ALL_KEYS.iter().filter(|k| chroma_key(k)).count() + 2);
    assert_eq!(compared, pairs.len() * (ALL_KEYS.len() + 3) - odd_skipped);
}

#[test]
fn cpu_backend_matches_libvmaf_on_every_pair() {
    check_backend(&CpuBackend::new(0));
}
