//! Results must not depend on the thread count: the CPU backend with 1, 2 and 3 threads gives the same bits
//! for every feature of every frame.

mod common;

use vqgraph::backends::CpuBackend;
use vqgraph::io::{PairReader, Y4mReader};
use vqgraph::pipeline::{score, sources};
use vqgraph::setup::{FeatureRequest, ModelRequest, Setup};

fn bits(pair: &common::Pair, threads: usize) -> Vec<Vec<(String, u64)>> {
    let reader =
        PairReader::new(Y4mReader::open(&pair.reference).unwrap(), Y4mReader::open(&pair.distorted).unwrap()).unwrap();
    let src = sources(&reader.format());
    let models = [
        ModelRequest::parse("version=vmaf_v0.6.1").unwrap(),
        ModelRequest::parse("version=vmaf_v0.6.1neg:name=vmaf_neg").unwrap(),
    ];
    let features = [FeatureRequest::parse("psnr=enable_mse=true").unwrap()];
    let setup = Setup::new(&models, &features, &src).unwrap();
    let backend = CpuBackend::new(threads);
    let mut s = score(&setup.extractors, &src, &backend, reader).unwrap();
    setup.predict(&mut s.frames).unwrap();
    s.frames.into_iter().map(|f| f.into_iter().map(|(k, v)| (k, v.to_bits())).collect()).collect()
}

#[test]
fn thread_count_does_not_change_any_bit() {
    // Odd size, 10-bit, 4:4:4, 1080p and a plain 8-bit pair.
    for id in ["s04", "s05", "s06", "s11", "s03"] {
        let pair = common::pairs().into_iter().find(|p| p.id.starts_with(id)).unwrap();
        let one = bits(&pair, 1);
        assert!(!one.is_empty() && one[0].len() >= 20, "{id}: too few features to be a real check");
        for threads in [2, 3] {
            assert_eq!(one, bits(&pair, threads), "{}: 1 vs {threads} threads", pair.id);
        }
        println!("{}: {} frames x {} values identical with 1, 2 and 3 threads", pair.id, one.len(), one[0].len());
    }
}
