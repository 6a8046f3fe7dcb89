//! Frames-per-second sweep of the CPU backend: vmaf_v0.6.1 (VIF, ADM, motion + SVM) at 576x324 and 1080p,
//! 1 and 2 threads, compute-only (frames already decoded in memory) and end-to-end (reading the y4m files).
//!
//! Run: `cargo bench --bench sweep` (options: `-- --runs N --frames N`). Prints the median of N runs.

use std::path::{Path, PathBuf};
use std::time::Instant;

use vqgraph::backends::CpuBackend;
use vqgraph::io::{Frame, PairReader, Y4mReader};
use vqgraph::pipeline::{score, sources};
use vqgraph::setup::{ModelRequest, Setup};

struct Case {
    label: &'static str,
    reference: &'static str,
    distorted: &'static str,
}

const CASES: &[Case] = &[
    Case {
        label: "576x324",
        reference: "corpus/garden_576x324_420p8_48f.y4m",
        distorted: "corpus/garden_576x324_420p8_48f__x264crf35.y4m",
    },
    Case {
        label: "1920x1080",
        reference: "corpus/yellowflower_1920x1080_420p8_8f.y4m",
        distorted: "corpus/yellowflower_1920x1080_420p8_8f__x264crf38.y4m",
    },
];

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared")
}

fn open(case: &Case) -> PairReader {
    let r = Y4mReader::open(&shared().join(case.reference)).expect("reference");
    let d = Y4mReader::open(&shared().join(case.distorted)).expect("distorted");
    PairReader::new(r, d).expect("pair")
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let mut runs = 5;
    let mut frames_wanted = 48;
    let args: Vec<String> = std::env::args().collect();
    for w in args.windows(2) {
        match w[0].as_str() {
            "--runs" => runs = w[1].parse().expect("--runs N"),
            "--frames" => frames_wanted = w[1].parse().expect("--frames N"),
            _ => {}
        }
    }
    println!("vqgraph CPU sweep: vmaf_v0.6.1, median of {runs} runs, {frames_wanted} frames per run");
    println!("{:<10} {:>7} {:>16} {:>16} {:>14}", "size", "threads", "compute fps", "end-to-end fps", "ms/frame (c)");
    for case in CASES {
        let reader = open(case);
        let src = sources(&reader.format());
        let decoded: Vec<(Frame, Frame)> = reader.map(|f| f.expect("frame")).collect();
        // Short clips are cycled to the wanted frame count (speed does not depend on content repetition).
        let frames: Vec<(Frame, Frame)> = decoded.iter().cycle().take(frames_wanted).cloned().collect();
        let setup = Setup::new(&[ModelRequest::parse("version=vmaf_v0.6.1").unwrap()], &[], &src).unwrap();
        for threads in [1, 2] {
            let backend = CpuBackend::new(threads);
            let compute: Vec<f64> = (0..runs)
                .map(|_| {
                    let t = Instant::now();
                    let mut s = score(&setup.extractors, &src, &backend, frames.iter().cloned().map(Ok)).unwrap();
                    setup.predict(&mut s.frames).unwrap();
                    frames.len() as f64 / t.elapsed().as_secs_f64()
                })
                .collect();
            // End-to-end: decode from the files, as many passes as needed for the same frame count.
            let e2e: Vec<f64> = (0..runs)
                .map(|_| {
                    let t = Instant::now();
                    let mut done = 0;
                    while done < frames_wanted {
                        let take = (frames_wanted - done).min(decoded.len());
                        let mut s = score(&setup.extractors, &src, &backend, open(case).take(take)).unwrap();
                        setup.predict(&mut s.frames).unwrap();
                        done += s.frames.len();
                    }
                    done as f64 / t.elapsed().as_secs_f64()
                })
                .collect();
            let (c, e) = (median(compute), median(e2e));
            println!("{:<10} {:>7} {:>16.1} {:>16.1} {:>14.2}", case.label, threads, c, e, 1000.0 / c);
        }
    }
}
