//! Cross-backend gate on wgpu (built with `--features wgpu`; on machines without a GPU, Mesa's lavapipe):
//! the graph of every extractor whose ops all have kernels (PSNR with chroma and MSE, motion) runs on wgpu
//! and on the CPU over corpus pairs, and every frame's outputs (the exact integer sums) and features must be
//! identical. Also: check mode finds no differing node, and a graph with an op lacking a kernel cannot start.

#![cfg(feature = "wgpu")]

mod common;

use std::sync::Arc;

use vqgraph::backends::{CheckOutcome, CpuBackend, check, cube};
use vqgraph::io::{PairReader, Y4mReader};
use vqgraph::pipeline::{build_graph, frame_inputs, score, sources};
use vqgraph::setup::{FeatureRequest, Setup};
use vqgraph_graph::{Backend, FrameOutputs, Graph, RunError, Value};
use vqgraph_metrics::Sources;

fn wgpu() -> Box<dyn Backend> {
    let b = cube::wgpu(Default::default()).expect("a wgpu adapter (install mesa-vulkan-drivers)");
    println!("backend wgpu on {}", b.device());
    Box::new(b)
}

fn reader(pair: &common::Pair) -> PairReader {
    PairReader::new(Y4mReader::open(&pair.reference).unwrap(), Y4mReader::open(&pair.distorted).unwrap()).unwrap()
}

fn setup(features: &[&str], src: &Sources) -> Setup {
    let f: Vec<FeatureRequest> = features.iter().map(|s| FeatureRequest::parse(s).unwrap()).collect();
    Setup::new(&[], &f, src).unwrap()
}

/// Every frame's graph inputs of a pair.
fn frames(pair: &common::Pair, graph: &Graph, src: &Sources) -> Vec<Result<Vec<Value>, RunError>> {
    reader(pair).map(|r| r.map(|(a, b)| frame_inputs(graph, src, a, b)).map_err(|e| panic!("{e}"))).collect()
}

fn outputs(graph: &Graph, backend: &dyn Backend, frames: Vec<Result<Vec<Value>, RunError>>) -> Vec<FrameOutputs> {
    let mut out = Vec::new();
    vqgraph_graph::run(graph, backend, frames, |_, o| {
        out.push(o);
        Ok(())
    })
    .unwrap();
    out
}

const GPU_FEATURES: [&str; 2] = ["psnr=enable_chroma=true:enable_mse=true", "motion"];

#[test]
fn psnr_and_motion_sums_and_features_identical_to_cpu() {
    let gpu = wgpu();
    let cpu = CpuBackend::new(0);
    // 8-bit, odd size, 10-bit, 4:4:4, 1080p.
    for id in ["s01", "s04", "s05", "s06", "s11"] {
        let pair = common::pairs().into_iter().find(|p| p.id.starts_with(id)).unwrap();
        let src = sources(&reader(&pair).format());
        let s = setup(&GPU_FEATURES, &src);
        let graph = build_graph(&s.extractors, &src).unwrap();
        let want = outputs(&graph, &cpu, frames(&pair, &graph, &src));
        let got = outputs(&graph, gpu.as_ref(), frames(&pair, &graph, &src));
        assert_eq!(want.len(), pair.frames, "{}", pair.id);
        for (f, (w, g)) in want.iter().zip(&got).enumerate() {
            assert_eq!(w, g, "{} frame {f}: wgpu sums differ from cpu", pair.id);
        }
        // And so the features, down to the bits.
        let bits = |b: &dyn Backend| -> Vec<Vec<(String, u64)>> {
            let sc = score(&s.extractors, &src, b, reader(&pair)).unwrap();
            sc.frames.into_iter().map(|f| f.into_iter().map(|(k, v)| (k, v.to_bits())).collect()).collect()
        };
        assert_eq!(bits(&cpu), bits(gpu.as_ref()), "{}: features differ", pair.id);
        println!("{}: {} frames x {} sums identical on wgpu and cpu", pair.id, got.len(), got[0].values.len());
    }
}

#[test]
fn check_mode_finds_no_differing_node() {
    let gpu = wgpu();
    let pair = common::pairs().into_iter().find(|p| p.id.starts_with("s04")).unwrap();
    let src = sources(&reader(&pair).format());
    let graph = build_graph(&setup(&GPU_FEATURES, &src).extractors, &src).unwrap();
    let outcome = check(&graph, gpu.as_ref(), frames(&pair, &graph, &src).into_iter().take(5)).unwrap();
    match outcome {
        CheckOutcome::Identical { frames, steps } => println!("check: {frames} frames x {steps} steps identical"),
        CheckOutcome::Differs(m) => panic!("{m}"),
    }
}

#[test]
fn ops_without_a_kernel_cannot_start_and_are_named() {
    let gpu = wgpu();
    let pair = common::pairs().into_iter().find(|p| p.id.starts_with("s08")).unwrap();
    let src = sources(&reader(&pair).format());
    let graph = build_graph(&setup(&["vif"], &src).extractors, &src).unwrap();
    let plan = Arc::new(vqgraph_graph::schedule(&graph));
    let err = gpu.start(plan).err().expect("vif has no kernel yet").to_string();
    assert!(err.contains("vif_stats") && err.contains("wgpu"), "{err}");
    println!("refused as expected: {err}");
}
