//! The `vqgraph` binary end to end: libvmaf's JSON layout and values from a real run, the printed plan, and
//! clear errors with a non-zero exit for bad input.

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::{PRINT_TOL, compare, pairs, reference_series};

fn vqgraph() -> Command {
    Command::new(env!("CARGO_BIN_EXE_vqgraph"))
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vqgraph-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn json_output_has_libvmafs_layout_and_values() {
    let pair = pairs().into_iter().find(|p| p.id.starts_with("s03")).unwrap();
    let out = tmp("s03.json");
    let status = vqgraph()
        .args(["-r", pair.reference.to_str().unwrap(), "-d", pair.distorted.to_str().unwrap()])
        .args(["--feature", "psnr=enable_apsnr=true", "--json", "-q", "-o", out.to_str().unwrap()])
        .status()
        .unwrap();
    assert!(status.success());
    let text = std::fs::read_to_string(&out).unwrap();
    let ours: serde_json::Value = serde_json::from_str(&text).unwrap();
    let theirs = pair.load("vmaf_v0.6.1_all");
    // Same structure: frames with frameNum/metrics, pooled min/max/mean/harmonic_mean, aggregates.
    assert_eq!(ours["frames"].as_array().unwrap().len(), pair.frames);
    assert_eq!(ours["frames"][3]["frameNum"], 3);
    for key in ["vmaf", "integer_adm2", "integer_vif_scale0", "integer_motion2", "psnr_y"] {
        let a: Vec<f64> = reference_series(&ours, key).unwrap().into_iter().map(|v| v.unwrap()).collect();
        compare(key, &a, &reference_series(&theirs, key).unwrap(), PRINT_TOL).unwrap();
        for stat in ["min", "max", "mean", "harmonic_mean"] {
            let (a, b) = (&ours["pooled_metrics"][key][stat], &theirs["pooled_metrics"][key][stat]);
            compare(&format!("{key}.{stat}"), &[a.as_f64().unwrap()], &[b.as_f64()], PRINT_TOL).unwrap();
        }
    }
    let agg = &ours["aggregate_metrics"]["apsnr_y"];
    compare("apsnr_y", &[agg.as_f64().unwrap()], &[theirs["aggregate_metrics"]["apsnr_y"].as_f64()], PRINT_TOL)
        .unwrap();
    // libvmaf's byte layout: two-space indents, `%.6f` numbers.
    assert!(
        text.contains("\n  \"frames\": [\n    {\n      \"frameNum\": 0,\n      \"metrics\": {\n        \""),
        "{}",
        &text[..300]
    );
}

#[test]
fn dump_plan_prints_the_schedule() {
    let pair = pairs().into_iter().find(|p| p.id.starts_with("s08")).unwrap();
    let out = vqgraph()
        .args(["-r", pair.reference.to_str().unwrap(), "-d", pair.distorted.to_str().unwrap(), "--dump-plan"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let plan = String::from_utf8(out.stdout).unwrap();
    assert!(plan.starts_with("plan: "), "{plan}");
    for op in ["vif_stats", "adm_dwt", "adm_cm", "frame_delay", "sep_conv"] {
        assert!(plan.contains(op), "plan lacks {op}:\n{plan}");
    }
    // The scheduler fused each VIF pre-filter with its decimation.
    assert!(plan.contains("filter_ref+vif.s1.decimate_ref") && plan.contains("stride=2"), "{plan}");
}

fn run_err(args: &[&str]) -> String {
    let out = vqgraph().args(args).output().unwrap();
    assert!(!out.status.success(), "expected failure for {args:?}");
    assert_eq!(out.status.code(), Some(1), "{args:?}: a clean error exit, not a crash");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn bad_input_ends_with_a_clear_error() {
    let pair = pairs().into_iter().find(|p| p.id.starts_with("s08")).unwrap();
    let (r, d) = (pair.reference.to_str().unwrap(), pair.distorted.to_str().unwrap());

    let e = run_err(&["-r", "/nonexistent.y4m", "-d", d]);
    assert!(e.contains("/nonexistent.y4m") && e.contains("cannot open"), "{e}");

    let garbage = tmp("garbage.y4m");
    std::fs::write(&garbage, b"RIFF....WAVEfmt ").unwrap();
    let e = run_err(&["-r", r, "-d", garbage.to_str().unwrap()]);
    assert!(e.contains("garbage.y4m") && e.contains("not a y4m"), "{e}");

    // A truncated copy: header + 1.5 frames.
    let bytes = std::fs::read(&pair.distorted).unwrap();
    let header = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
    let frame = 6 + 320 * 180 * 3 / 2;
    let cut = tmp("cut.y4m");
    std::fs::write(&cut, &bytes[..header + frame + frame / 2]).unwrap();
    let out = tmp("never.json");
    let e = run_err(&["-r", r, "-d", cut.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(e.contains("cut.y4m") && e.contains("frame 1") && e.contains("truncated"), "{e}");
    assert!(!out.exists(), "no output file after a failed run");

    let other = pairs().into_iter().find(|p| p.id.starts_with("s01")).unwrap();
    let e = run_err(&["-r", r, "-d", other.distorted.to_str().unwrap()]);
    assert!(e.contains("differs from the reference"), "{e}");

    let e = run_err(&["-r", r, "-d", d, "--model", "version=vmaf_v9"]);
    assert!(e.contains("vmaf_v9"), "{e}");
    let e = run_err(&["-r", r, "-d", d, "--feature", "vif=bogus=1"]);
    assert!(e.contains("bogus"), "{e}");
    let e = run_err(&["-r", r, "-d", d, "--backend", "cuda"]);
    assert!(e.contains("cuda"), "{e}");
    let e = run_err(&["-r", r, "-d", d, "-o", "/nonexistent-dir/out.json"]);
    assert!(e.contains("/nonexistent-dir"), "{e}");
}
