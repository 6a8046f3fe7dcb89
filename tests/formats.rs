//! Output writers against libvmaf's own files (`../shared/reference/formats/`, pair s01): XML, JSON, CSV and
//! SUB of a real run, byte for byte. Our values are bit-identical to libvmaf's, so the only bytes allowed to
//! differ are run-dependent ones, masked on both sides before comparing: the `fps` timing, and the version
//! string (libvmaf prints its git hash `f85a8536`; we print our own version, never libvmaf's).

mod common;

use std::path::PathBuf;

use vqgraph::backends::CpuBackend;
use vqgraph::io::{PairReader, Y4mReader};
use vqgraph::output::{Report, write_csv, write_json, write_sub, write_xml};
use vqgraph::pipeline::{score, sources};
use vqgraph::setup::{FeatureRequest, ModelRequest, Setup};

const VERSION: &str = "vqgraph-formats-test";
/// s01's picture size (`qualityWidth`, `qualityHeight`).
const SIZE: (usize, usize) = (576, 324);

fn formats_dir() -> PathBuf {
    common::shared().join("reference/formats")
}

/// How libvmaf's run was configured: `--model` (the default one) or `-n`, `--feature`s, and the frames it
/// read (`--frame_skip_ref/dist`, `--frame_cnt`).
struct Run {
    model: bool,
    features: &'static [&'static str],
    skip: usize,
    count: Option<usize>,
}

/// The report of a real run over s01, as the CLI builds it.
fn report(run: &Run) -> Report {
    let shared = common::shared();
    let reference = Y4mReader::open(&shared.join("corpus/garden_576x324_420p8_48f.y4m")).unwrap();
    let distorted = Y4mReader::open(&shared.join("corpus/garden_576x324_420p8_48f__x264crf35.y4m")).unwrap();
    let reader = PairReader::new(reference, distorted).unwrap();
    let format = reader.format();
    assert_eq!((format.width, format.height), SIZE);
    let src = sources(&format);
    let models = if run.model {
        let m = format!("path={}:name=vmaf", shared.join("models/vmaf_v0.6.1.json").display());
        vec![ModelRequest::parse(&m).unwrap()]
    } else {
        Vec::new()
    };
    let features: Vec<FeatureRequest> = run.features.iter().map(|f| FeatureRequest::parse(f).unwrap()).collect();
    let setup = Setup::new(&models, &features, &src).unwrap();
    // The skip is the same on both streams, so skipping pairs is skipping each stream; the CLI does this with
    // its own flags. `Iterator::` spelled out: the reader may have an inherent `skip` of its own.
    let frames = Iterator::take(Iterator::skip(reader, run.skip), run.count.unwrap_or(usize::MAX));
    let mut scores = score(&setup.extractors, &src, &CpuBackend::new(0), frames).unwrap();
    setup.predict(&mut scores.frames).unwrap();
    Report {
        version: VERSION.into(),
        fps: 123.45,
        frames: scores.frames,
        aggregate: scores.aggregate,
        ..Default::default()
    }
}

/// Replaces what lies between the first `start` and the next `end` after it with `*`.
fn mask(text: &str, start: &str, end: &str) -> String {
    let a = text.find(start).unwrap_or_else(|| panic!("no {start:?} in output")) + start.len();
    let b = a + text[a..].find(end).unwrap_or_else(|| panic!("no {end:?} after {start:?}"));
    format!("{}*{}", &text[..a], &text[b..])
}

/// The run-dependent parts of each format: version and fps (CSV and SUB have neither).
fn mask_run_dependent(text: &str, ext: &str) -> String {
    match ext {
        "xml" => mask(&mask(text, "<VMAF version=\"", "\""), "<fyi fps=\"", "\""),
        "json" => mask(&mask(text, "\"version\": \"", "\""), "\"fps\": ", ","),
        _ => text.to_string(),
    }
}

fn write(report: &Report, ext: &str) -> String {
    let mut out = Vec::new();
    match ext {
        "xml" => write_xml(&mut out, report, SIZE.0, SIZE.1),
        "json" => write_json(&mut out, report),
        "csv" => write_csv(&mut out, report),
        "sub" => write_sub(&mut out, report),
        _ => unreachable!(),
    }
    .unwrap();
    String::from_utf8(out).unwrap()
}

/// Writes `report` as `ext` and compares with libvmaf's file, naming the first line that differs.
fn check(report: &Report, file: &str) {
    let ext = file.rsplit('.').next().unwrap();
    let ours = write(report, ext);
    if ext == "xml" || ext == "json" {
        assert!(ours.contains(VERSION), "{file}: our version string is printed");
    }
    let path = formats_dir().join(file);
    let theirs = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (ours, theirs) = (mask_run_dependent(&ours, ext), mask_run_dependent(&theirs, ext));
    if ours != theirs {
        let line = ours.lines().zip(theirs.lines()).position(|(a, b)| a != b);
        let line = line.unwrap_or(ours.lines().count().min(theirs.lines().count()));
        panic!(
            "{file}: differs from libvmaf at line {}\n ours:    {:?}\n libvmaf: {:?}\n({} vs {} bytes)",
            line + 1,
            ours.lines().nth(line),
            theirs.lines().nth(line),
            ours.len(),
            theirs.len()
        );
    }
}

#[test]
fn model_and_psnr_in_every_format() {
    let r =
        report(&Run { model: true, features: &["psnr=enable_chroma=true:enable_apsnr=true"], skip: 0, count: None });
    for file in ["s01_vmaf_psnr.xml", "s01_vmaf_psnr.json", "s01_vmaf_psnr.csv", "s01_vmaf_psnr.sub"] {
        check(&r, file);
    }
}

#[test]
fn no_prediction_xml() {
    check(&report(&Run { model: false, features: &["psnr"], skip: 0, count: None }), "s01_noprediction_psnr.xml");
}

#[test]
fn subsample_prints_and_pools_every_fifth_frame() {
    let mut r = report(&Run { model: true, features: &[], skip: 0, count: None });
    r.subsample(5);
    check(&r, "s01_vmaf_subsample5.json");
}

#[test]
fn frame_skip_and_count_number_from_zero() {
    check(&report(&Run { model: true, features: &[], skip: 2, count: Some(10) }), "s01_vmaf_skip2_cnt10.json");
}
