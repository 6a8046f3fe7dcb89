//! Integer VIF against libvmaf on every frame of every corpus pair, on the CPU backend:
//! - `Vif { debug: true }` against `debug_features.json`: the four scores, `integer_vif`, its num/den and
//!   every per-scale numerator and denominator (C floats, printed `%.6f`: equal print means equal float);
//! - the same scores against `vmaf_v0.6.1_all.json`;
//! - `Vif::with_gain_limit(1.0)` against `vmaf_v0.6.1neg.json` (`integer_vif_scaleN_egl_1`).
//!
//! For `s04`/`s13` the references are libvmaf's plain-C runs (`*.cpumask63.json`), as everywhere. Run with
//! `--release`: the 1080p pairs are slow in debug builds.

mod common;

use std::collections::BTreeMap;
use std::time::Instant;

use common::{PRINT_TOL, Pair, compare, pairs, reference_series};
use vqgraph::backends::CpuBackend;
use vqgraph::graph::Backend;
use vqgraph::io::{PairReader, Y4mReader};
use vqgraph::metrics::Extractor;
use vqgraph::metrics::vif::Vif;
use vqgraph::pipeline::{score, sources};

/// Our VIF features of one pair, by name, per frame.
fn run_pair(pair: &Pair, backend: &dyn Backend) -> BTreeMap<String, Vec<f64>> {
    let r = Y4mReader::open(&pair.reference).unwrap();
    let d = Y4mReader::open(&pair.distorted).unwrap();
    let reader = PairReader::new(r, d).unwrap();
    let src = sources(&reader.format());
    let extractors: Vec<Box<dyn Extractor>> =
        vec![Box::new(Vif { debug: true, ..Vif::default() }), Box::new(Vif::with_gain_limit(1.0))];
    let scores = score(&extractors, &src, backend, reader).unwrap();
    let mut by_key: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for f in &scores.frames {
        for (k, v) in f {
            by_key.entry(k.clone()).or_default().push(*v);
        }
    }
    by_key
}

fn debug_keys() -> Vec<String> {
    let mut k: Vec<String> = (0..4).map(|s| format!("integer_vif_scale{s}")).collect();
    k.extend(["integer_vif", "integer_vif_num", "integer_vif_den"].map(String::from));
    for s in 0..4 {
        k.push(format!("integer_vif_num_scale{s}"));
        k.push(format!("integer_vif_den_scale{s}"));
    }
    k
}

#[test]
fn vif_matches_libvmaf_on_every_pair() {
    let backend = CpuBackend::new(0);
    println!("backend {} on {}", backend.name(), backend.device());
    let mut failures = Vec::new();
    let mut compared = 0;
    let pairs = pairs();
    assert_eq!(pairs.len(), 14, "pairs.json lists 14 pairs");
    for pair in &pairs {
        let t = Instant::now();
        let ours = run_pair(pair, &backend);
        let secs = t.elapsed().as_secs_f64();
        let runs: [(&str, Vec<String>); 3] = [
            ("debug_features", debug_keys()),
            ("vmaf_v0.6.1_all", (0..4).map(|s| format!("integer_vif_scale{s}")).collect()),
            ("vmaf_v0.6.1neg", (0..4).map(|s| format!("integer_vif_scale{s}_egl_1")).collect()),
        ];
        let mut worst = 0.0f64;
        for (run, keys) in &runs {
            let j = pair.load(run);
            for key in keys {
                let theirs = reference_series(&j, key).unwrap_or_else(|| panic!("{}: libvmaf has no {key}", pair.id));
                let mine = ours.get(key).unwrap_or_else(|| panic!("{}: we produced no {key}", pair.id));
                match compare(key, mine, &theirs, PRINT_TOL) {
                    Ok(c) => {
                        compared += 1;
                        worst = worst.max(c.max_diff);
                    }
                    Err(e) => failures.push(format!("{} ({run}): {e}", pair.id)),
                }
            }
        }
        println!(
            "  {:<36} {:>2} frames, {} keys, max |diff| {worst:.2e} ({:.1} ms/frame, both extractors)",
            pair.id,
            pair.frames,
            runs.iter().map(|r| r.1.len()).sum::<usize>(),
            secs * 1e3 / pair.frames as f64
        );
    }
    assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
    assert_eq!(compared, pairs.len() * (debug_keys().len() + 8));
}

/// One 1080p frame's VIF (4 scales, pre-filters included) on one thread, through the CPU backend.
/// Run with `cargo test --release --test vif_reference -- --ignored --nocapture`.
#[test]
#[ignore]
fn time_vif_1080p_one_thread() {
    let pair = pairs().into_iter().find(|p| p.id.starts_with("s11")).expect("s11");
    let backend = CpuBackend::new(1);
    let vif: Vec<Box<dyn Extractor>> = vec![Box::new(Vif::default())];
    for _ in 0..3 {
        let r = Y4mReader::open(&pair.reference).unwrap();
        let d = Y4mReader::open(&pair.distorted).unwrap();
        let reader = PairReader::new(r, d).unwrap();
        let src = sources(&reader.format());
        // Read first so that only the graph is timed.
        let frames: Vec<_> = reader.collect::<Result<_, _>>().unwrap();
        let n = frames.len();
        let t = Instant::now();
        score(&vif, &src, &backend, frames.into_iter().map(Ok)).unwrap();
        println!("{:.2} ms/frame over {n} frames", t.elapsed().as_secs_f64() * 1e3 / n as f64);
    }
}
