//! Integer ADM against libvmaf: every frame of every corpus pair, for the default extractor (with
//! `debug`, so the per-scale numerators and denominators are checked too), the `_egl_1` extractor of the
//! neg model and the v1.0.16 model's `_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02` extractor.
//!
//! References are `../shared/reference/<pair>/{debug_features,vmaf_v0.6.1neg,extra_models}.json`; for
//! `s04` and `s13` the `*.cpumask63.json` files, libvmaf's plain-C path (its SIMD kernels disagree with it
//! and with each other at those widths). Values are printed `%.6f`, so the tolerance is half a unit in the
//! sixth decimal.
//!
//! This crate cannot depend on the facade's y4m reader or (without a manifest change) on the CPU backend,
//! so the test carries a luma-only y4m reader and runs each graph node's CPU reference in order — exactly
//! what the CPU backend does, minus buffer reuse. Run with `--release`: the 1080p pairs are slow in debug.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use vqgraph_graph::{FrameOutputs, Graph, GraphBuilder, HostBuf, NodeKind, Plane, Value};
use vqgraph_metrics::adm::{Adm, CSF_BARTEN_WATSON_BLEND};
use vqgraph_metrics::{Extractor, Sources};

/// Half a unit of `%.6f`, plus room for the decimal parse.
const TOL: f64 = 5e-7 + 1e-12;

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared")
}

/// A y4m file's luma planes and geometry.
struct Luma {
    width: usize,
    height: usize,
    bpc: u32,
    frames: Vec<Vec<u16>>,
}

fn read_luma(path: &Path) -> Luma {
    let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let nl = data.iter().position(|&b| b == b'\n').expect("y4m header line");
    let header = std::str::from_utf8(&data[..nl]).expect("ascii header");
    let (mut w, mut h, mut chroma) = (0usize, 0usize, "420".to_string());
    for tok in header.split(' ').skip(1) {
        match tok.as_bytes()[0] {
            b'W' => w = tok[1..].parse().unwrap(),
            b'H' => h = tok[1..].parse().unwrap(),
            b'C' => chroma = tok[1..].to_string(),
            _ => {}
        }
    }
    let bpc = ["p16", "p12", "p10"].iter().zip([16, 12, 10]).find(|(s, _)| chroma.ends_with(*s)).map_or(8, |x| x.1);
    let bytes = if bpc > 8 { 2 } else { 1 };
    let (cw, ch) = if chroma.starts_with("444") {
        (w, h)
    } else if chroma.starts_with("422") {
        (w.div_ceil(2), h)
    } else if chroma.starts_with("mono") {
        (0, 0)
    } else {
        (w.div_ceil(2), h.div_ceil(2))
    };
    let frame_bytes = (w * h + 2 * cw * ch) * bytes;
    let mut pos = nl + 1;
    let mut frames = Vec::new();
    while pos < data.len() {
        let end = pos + data[pos..].iter().position(|&b| b == b'\n').expect("FRAME line");
        assert!(data[pos..end].starts_with(b"FRAME"), "frame marker");
        let y = &data[end + 1..end + 1 + w * h * bytes];
        frames.push(if bytes == 1 {
            y.iter().map(|&b| b as u16).collect()
        } else {
            y.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect()
        });
        pos = end + 1 + frame_bytes;
    }
    Luma { width: w, height: h, bpc, frames }
}

/// Runs every node's CPU reference in graph order (construction order is topological).
fn run_graph(g: &Graph, inputs: &BTreeMap<String, Value>) -> FrameOutputs {
    let mut vals: Vec<Vec<Value>> = Vec::with_capacity(g.nodes.len());
    for node in &g.nodes {
        match &node.kind {
            NodeKind::Input { name } => vals.push(vec![inputs[name].clone()]),
            NodeKind::Op { op, inputs } => {
                let ins: Vec<&Value> = inputs.iter().map(|v| &vals[v.node][v.port]).collect();
                let mut outs: Vec<Value> = node.outputs.iter().map(|t| t.zeroed()).collect();
                op.eval_cpu(&ins, &mut outs, &mut None).unwrap_or_else(|e| panic!("{}: {e}", node.label));
                vals.push(outs);
            }
        }
    }
    let values = g.outputs.iter().map(|(n, v)| (n.clone(), vals[v.node][v.port].buf().clone())).collect();
    FrameOutputs { values }
}

/// A value as libvmaf's JSON writer prints it: `%.6f`, or `%.16f` when the fraction has more than six
/// leading zeros (its `count_leading_zeros_d`).
fn libvmaf_print(x: f64) -> String {
    let mut frac = x.abs() - (x.abs() as i32) as f64;
    let mut zeros = 0;
    while frac < 1.0 && frac != 0.0 {
        frac *= 10.0;
        zeros += 1;
    }
    if zeros <= 6 { format!("{x:.6}") } else { format!("{x:.16}") }
}

/// Per-frame metrics of a libvmaf JSON file (its layout puts one `"key": value` per line), as parsed
/// values and as printed.
fn reference(path: &Path) -> Vec<BTreeMap<String, (f64, String)>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut frames: Vec<BTreeMap<String, (f64, String)>> = Vec::new();
    let mut in_metrics = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("\"frameNum\"") {
            frames.push(BTreeMap::new());
        } else if t.starts_with("\"metrics\"") {
            in_metrics = true;
        } else if t.starts_with('}') {
            in_metrics = false;
        } else if in_metrics && let Some((k, v)) = t.split_once(':') {
            let v = v.trim().trim_end_matches(',');
            if let Ok(x) = v.parse::<f64>() {
                let entry = (x, v.to_string());
                frames.last_mut().expect("metrics inside a frame").insert(k.trim().trim_matches('"').into(), entry);
            }
        } else if t.starts_with("\"pooled_metrics\"") {
            break;
        }
    }
    frames
}

fn v1016() -> Adm {
    Adm {
        csf_mode: CSF_BARTEN_WATSON_BLEND,
        dlm_weight: 0.7,
        gain_limit: 1.0,
        min_val: 0.5,
        noise_weight: 0.02,
        ..Adm::default()
    }
}

/// Checks one pair: every value within half a unit of the sixth decimal, and printed exactly as libvmaf
/// printed it. Returns the largest difference seen.
fn check_pair(id: &str) -> f64 {
    let pairs = std::fs::read_to_string(shared().join("corpus/pairs.json")).unwrap();
    // pairs.json: find this pair's reference and distorted paths.
    let at = pairs.find(&format!("\"id\": \"{id}\"")).unwrap_or_else(|| panic!("pair {id} not in pairs.json"));
    let field = |name: &str| -> PathBuf {
        let s = &pairs[at..];
        let i = s.find(&format!("\"{name}\": \"")).unwrap() + name.len() + 5;
        shared().join(&s[i..i + s[i..].find('"').unwrap()])
    };
    let (r, d) = (read_luma(&field("reference")), read_luma(&field("distorted")));
    assert_eq!((r.width, r.height, r.frames.len()), (d.width, d.height, d.frames.len()));
    let src = Sources { width: r.width, height: r.height, chroma_width: 0, chroma_height: 0, bpc: r.bpc };

    let plain_c = id.starts_with("s04") || id.starts_with("s13");
    let file = |stem: &str| {
        let name = if plain_c { format!("{stem}.cpumask63.json") } else { format!("{stem}.json") };
        shared().join("reference").join(id).join(name)
    };
    let cases: Vec<(Adm, PathBuf)> = vec![
        (Adm { debug: true, ..Adm::default() }.for_sources(&src), file("debug_features")),
        (Adm::with_gain_limit(1.0).for_sources(&src), file("vmaf_v0.6.1neg")),
        (v1016().for_sources(&src), file("extra_models")),
    ];

    let mut b = GraphBuilder::new();
    for (e, _) in &cases {
        e.build(&mut b, &src).unwrap();
    }
    let graph = b.build().unwrap();
    let refs: Vec<_> = cases.iter().map(|(_, p)| reference(p)).collect();

    let mut max_diff: BTreeMap<String, f64> = BTreeMap::new();
    let mut failures = Vec::new();
    let (mut printed_same, mut compared) = (0, 0);
    let t0 = Instant::now();
    for (f, (rf, df)) in r.frames.iter().zip(&d.frames).enumerate() {
        let plane =
            |v: &Vec<u16>| Value::Plane(Plane { width: r.width, height: r.height, data: HostBuf::U16(v.clone()) });
        let inputs = BTreeMap::from([("ref.y".to_string(), plane(rf)), ("dis.y".to_string(), plane(df))]);
        let out = run_graph(&graph, &inputs);
        for ((e, _), reference) in cases.iter().zip(&refs) {
            for (name, ours) in e.frame(&out) {
                let (theirs, printed) =
                    reference[f].get(&name).unwrap_or_else(|| panic!("{id}: no {name} in reference"));
                let theirs = *theirs;
                compared += 1;
                if libvmaf_print(ours) == *printed {
                    printed_same += 1;
                } else {
                    failures.push(format!("{id} frame {f} {name}: printed {} libvmaf {printed}", libvmaf_print(ours)));
                }
                let diff = (ours - theirs).abs();
                let m = max_diff.entry(name.clone()).or_insert(0.0);
                *m = m.max(diff);
                if diff.is_nan() || diff > TOL {
                    failures.push(format!("{id} frame {f} {name}: ours {ours:.9} libvmaf {theirs:.6}"));
                }
            }
        }
    }
    let n = r.frames.len();
    let worst = max_diff.values().fold(0f64, |a, &b| a.max(b));
    println!(
        "{id}: {n} frames x {} features, {printed_same}/{compared} printed identically, max |diff| {worst:.3e} \
         ({:.1} ms/frame for 3 extractors)",
        max_diff.len(),
        t0.elapsed().as_secs_f64() * 1e3 / n as f64
    );
    assert!(
        failures.is_empty(),
        "{} mismatches, first:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
    worst
}

macro_rules! pair_tests {
    ($($name:ident => $id:literal),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                check_pair($id);
            }
        )*
    };
}

pair_tests! {
    s00_identical => "s00_garden_identical",
    s01_garden_x264 => "s01_garden_x264crf35",
    s02_garden_upscaled => "s02_garden_384x216_x264crf23_up",
    s03_bbb_unsharp => "s03_bbb_x265crf30_unsharp",
    s04_odd_481x271_plain_c => "s04_bikes_odd481x271_aomcrf45",
    s05_10bit => "s05_ladybird_10bit_x265crf30",
    s06_444 => "s06_rocket_444_x264crf32",
    s07_gradient => "s07_rhythm_gradient_x264crf38",
    s08_testsrc2 => "s08_testsrc2_x264crf30",
    s09_blur_noise => "s09_life_gblur_noise",
    s10_nn_down_up => "s10_mandelbrot_nn_down_up",
    s11_1080p_x264 => "s11_yellowflower_1080p_x264crf38",
    s12_1080p_aom => "s12_yellowflower_1080p_aomcrf50",
    s13_w360_plain_c => "s13_chelsea_w360_x265crf28",
}

/// Time of the default ADM extractor on one 1080p frame (printed; only meaningful with `--release`, and
/// single-threaded with `RAYON_NUM_THREADS=1`, which rayon's global pool reads when it starts).
#[test]
fn speed_1080p() {
    let dir = shared().join("corpus");
    let r = read_luma(&dir.join("yellowflower_1920x1080_420p8_8f.y4m"));
    let d = read_luma(&dir.join("yellowflower_1920x1080_420p8_8f__x264crf38.y4m"));
    let src = Sources { width: r.width, height: r.height, chroma_width: 0, chroma_height: 0, bpc: r.bpc };
    let adm = Adm::default().for_sources(&src);
    let mut b = GraphBuilder::new();
    adm.build(&mut b, &src).unwrap();
    let graph = b.build().unwrap();
    let plane = |v: &Vec<u16>| Value::Plane(Plane { width: r.width, height: r.height, data: HostBuf::U16(v.clone()) });
    let mut times = Vec::new();
    for (rf, df) in r.frames.iter().zip(&d.frames) {
        let inputs = BTreeMap::from([("ref.y".to_string(), plane(rf)), ("dis.y".to_string(), plane(df))]);
        let t = Instant::now();
        let out = run_graph(&graph, &inputs);
        let _ = adm.frame(&out);
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    let threads = std::env::var("RAYON_NUM_THREADS").unwrap_or_else(|_| "default".into());
    println!(
        "ADM on one 1080p frame, RAYON_NUM_THREADS={threads}: median {:.1} ms (min {:.1}, max {:.1})",
        times[times.len() / 2],
        times[0],
        times[times.len() - 1]
    );
}

/// Time of each op of the default extractor on one 1080p frame (best of 7, buffers already allocated):
/// `RAYON_NUM_THREADS=1 cargo test -p vqgraph-metrics --release --test adm_reference -- --ignored
/// --nocapture profile`.
#[test]
#[ignore]
fn profile_ops_1080p() {
    let dir = shared().join("corpus");
    let r = read_luma(&dir.join("yellowflower_1920x1080_420p8_8f.y4m"));
    let d = read_luma(&dir.join("yellowflower_1920x1080_420p8_8f__x264crf38.y4m"));
    let src = Sources { width: r.width, height: r.height, chroma_width: 0, chroma_height: 0, bpc: r.bpc };
    let adm = Adm::default().for_sources(&src);
    let mut b = GraphBuilder::new();
    adm.build(&mut b, &src).unwrap();
    let g = b.build().unwrap();
    let plane = |v: &Vec<u16>| Value::Plane(Plane { width: r.width, height: r.height, data: HostBuf::U16(v.clone()) });
    let inputs =
        BTreeMap::from([("ref.y".to_string(), plane(&r.frames[0])), ("dis.y".to_string(), plane(&d.frames[0]))]);
    let mut vals: Vec<Vec<Value>> = Vec::new();
    for node in &g.nodes {
        match &node.kind {
            NodeKind::Input { name } => vals.push(vec![inputs[name].clone()]),
            NodeKind::Op { op, inputs } => {
                let ins: Vec<&Value> = inputs.iter().map(|v| &vals[v.node][v.port]).collect();
                let mut outs: Vec<Value> = node.outputs.iter().map(|t| t.zeroed()).collect();
                // A first run touches the outputs, so page faults are not timed.
                op.eval_cpu(&ins, &mut outs, &mut None).unwrap();
                let mut best = f64::MAX;
                for _ in 0..7 {
                    let t = Instant::now();
                    op.eval_cpu(&ins, &mut outs, &mut None).unwrap();
                    best = best.min(t.elapsed().as_secs_f64() * 1e3);
                }
                println!("{:30} {:8.2} ms", node.label, best);
                vals.push(outs);
            }
        }
    }
}
