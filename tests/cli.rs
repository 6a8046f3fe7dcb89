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

/// Scores of `vmaf` per frame from a JSON output file.
fn vmaf_series(path: &std::path::Path) -> Vec<f64> {
    let j: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    j["frames"].as_array().unwrap().iter().map(|f| f["metrics"]["vmaf"].as_f64().unwrap()).collect()
}

#[test]
fn distorted_video_from_a_pipe_scores_like_the_file() {
    use std::io::Write;
    use std::process::Stdio;
    let pair = pairs().into_iter().find(|p| p.id.starts_with("s08")).unwrap();
    let (from_file, from_pipe) = (tmp("file.json"), tmp("pipe.json"));
    let r = pair.reference.to_str().unwrap();
    assert!(
        vqgraph()
            .args(["-r", r, "-d", pair.distorted.to_str().unwrap(), "--json", "-q", "-o"])
            .arg(&from_file)
            .status()
            .unwrap()
            .success()
    );
    let mut child = vqgraph()
        .args(["-r", r, "-d", "-", "--json", "-q", "-o"])
        .arg(&from_pipe)
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    let bytes = std::fs::read(&pair.distorted).unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // Write in a thread: the child reads while we write, as from ffmpeg.
    let writer = std::thread::spawn(move || stdin.write_all(&bytes));
    assert!(child.wait().unwrap().success());
    writer.join().unwrap().unwrap();
    let (a, b) = (vmaf_series(&from_file), vmaf_series(&from_pipe));
    assert_eq!(a.len(), pair.frames);
    assert_eq!(a, b);
}

#[test]
fn raw_yuv_input_scores_like_y4m() {
    // Strip the y4m framing of s06 (4:4:4) into raw files and score them with -w -h -p -b.
    let pair = pairs().into_iter().find(|p| p.id.starts_with("s06")).unwrap();
    let raw = |src: &std::path::Path, name: &str| {
        let bytes = std::fs::read(src).unwrap();
        let header = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
        let frame = 384 * 216 * 3;
        let mut out = Vec::new();
        let mut pos = header;
        while pos < bytes.len() {
            pos += 6; // "FRAME\n"
            out.extend_from_slice(&bytes[pos..pos + frame]);
            pos += frame;
        }
        let path = tmp(name);
        std::fs::write(&path, out).unwrap();
        path
    };
    let (r, d) = (raw(&pair.reference, "r.yuv"), raw(&pair.distorted, "d.yuv"));
    let (from_y4m, from_raw) = (tmp("y4m.json"), tmp("raw.json"));
    assert!(
        vqgraph()
            .args([
                "-r",
                pair.reference.to_str().unwrap(),
                "-d",
                pair.distorted.to_str().unwrap(),
                "--json",
                "-q",
                "-o"
            ])
            .arg(&from_y4m)
            .status()
            .unwrap()
            .success()
    );
    assert!(
        vqgraph()
            .args(["-w", "384", "-h", "216", "-p", "444", "-b", "8", "--json", "-q", "-r"])
            .arg(&r)
            .arg("-d")
            .arg(&d)
            .arg("-o")
            .arg(&from_raw)
            .status()
            .unwrap()
            .success()
    );
    assert_eq!(vmaf_series(&from_y4m), vmaf_series(&from_raw));
    let e = run_err(&["-w", "384", "-h", "216", "-r", r.to_str().unwrap(), "-d", d.to_str().unwrap()]);
    assert!(e.contains("--pixel_format"), "{e}");
}

#[test]
fn json_matches_libvmaf_for_three_pairs_and_xml_csv_have_its_structure() {
    for id in ["s01", "s05", "s11"] {
        let pair = pairs().into_iter().find(|p| p.id.starts_with(id)).unwrap();
        let args = ["-r", pair.reference.to_str().unwrap(), "-d", pair.distorted.to_str().unwrap(), "-q"];
        let json = tmp(&format!("{id}.json"));
        assert!(vqgraph().args(args).args(["--json", "-o"]).arg(&json).status().unwrap().success());
        let ours: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        let theirs = pair.load("vmaf_v0.6.1_all");
        let mut keys = 0;
        for key in ours["frames"][0]["metrics"].as_object().unwrap().keys() {
            let a: Vec<f64> = reference_series(&ours, key).unwrap().into_iter().map(|v| v.unwrap()).collect();
            let b = reference_series(&theirs, key).unwrap_or_else(|| panic!("{id}: libvmaf has no {key}"));
            compare(key, &a, &b, PRINT_TOL).unwrap_or_else(|e| panic!("{id}: {e}"));
            keys += 1;
        }
        assert_eq!(keys, 15, "{id}: 7 ADM + 4 VIF + 3 motion features + vmaf");

        let xml = tmp(&format!("{id}.xml"));
        assert!(vqgraph().args(args).args(["-o"]).arg(&xml).status().unwrap().success(), "XML is the default");
        let text = std::fs::read_to_string(&xml).unwrap();
        assert!(text.starts_with("<VMAF version=") && text.trim_end().ends_with("</VMAF>"), "{id}");
        assert_eq!(text.matches("<frame frameNum=").count(), pair.frames);
        assert!(text.contains("<metric name=\"vmaf\" min="), "{id}");

        let csv = tmp(&format!("{id}.csv"));
        assert!(vqgraph().args(args).args(["--csv", "-o"]).arg(&csv).status().unwrap().success());
        let text = std::fs::read_to_string(&csv).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), pair.frames + 1, "{id}: header + one line per frame");
        assert!(lines[0].starts_with("Frame,integer_adm2,") && lines[0].ends_with("vmaf,"), "{}", lines[0]);
        assert!(lines.iter().all(|l| l.split(',').count() == lines[0].split(',').count()));
    }
}

#[test]
fn more_bad_input_cases() {
    let s08 = pairs().into_iter().find(|p| p.id.starts_with("s08")).unwrap();
    let (r, d) = (s08.reference.to_str().unwrap(), s08.distorted.to_str().unwrap());

    // Different bit depths: a 10-bit header on 8-bit content of the same size.
    let bytes = std::fs::read(&s08.distorted).unwrap();
    let header = bytes.iter().position(|&b| b == b'\n').unwrap();
    let head = String::from_utf8(bytes[..header].to_vec()).unwrap().replace(" C420jpeg", " C420p10");
    let p10 = tmp("p10.y4m");
    std::fs::write(&p10, [head.as_bytes(), b"\n"].concat()).unwrap();
    let e = run_err(&["-r", r, "-d", p10.to_str().unwrap()]);
    assert!(e.contains("p10.y4m") && e.contains("10-bit") && e.contains("differs"), "{e}");

    // Different frame counts: the distorted stream cut after 5 whole frames.
    let frame = 6 + 320 * 180 * 3 / 2;
    let short = tmp("short.y4m");
    std::fs::write(&short, &bytes[..header + 1 + 5 * frame]).unwrap();
    let e = run_err(&["-r", r, "-d", short.to_str().unwrap()]);
    assert!(e.contains("short.y4m") && e.contains("frame 5") && e.contains("ends"), "{e}");

    // Malformed model JSON.
    let model = tmp("broken_model.json");
    std::fs::write(&model, b"{\"param_dict\": {").unwrap();
    let e = run_err(&["-r", r, "-d", d, "--model", &format!("path={}", model.display())]);
    assert!(e.contains("broken_model.json"), "{e}");

    // Zero and absurd sizes.
    for (hdr, what) in [("YUV4MPEG2 W0 H180 C420jpeg\n", "0x180"), ("YUV4MPEG2 W99999999 H180 C420jpeg\n", "99999999")]
    {
        let f = tmp("size.y4m");
        std::fs::write(&f, hdr).unwrap();
        let e = run_err(&["-r", r, "-d", f.to_str().unwrap()]);
        assert!(e.contains("size.y4m") && e.contains(what), "{e}");
    }

    // Frames too small for ADM's wavelet: a 16x16 pair.
    let tiny = tmp("tiny.y4m");
    let mut t = b"YUV4MPEG2 W16 H16 C420jpeg\nFRAME\n".to_vec();
    t.extend_from_slice(&[128; 16 * 16 * 3 / 2]);
    std::fs::write(&tiny, &t).unwrap();
    let e = run_err(&["-r", tiny.to_str().unwrap(), "-d", tiny.to_str().unwrap()]);
    assert!(e.contains("tiny.y4m") && e.contains("16x16") && e.contains("too small"), "{e}");

    // Two models with the same name.
    let e = run_err(&["-r", r, "-d", d, "-m", "version=vmaf_v0.6.1", "-m", "version=vmaf_v0.6.1neg"]);
    assert!(e.contains("uniquely named"), "{e}");
    // An extractor vqgraph does not have yet.
    let e = run_err(&["-r", r, "-d", d, "--feature", "cambi"]);
    assert!(e.contains("cambi"), "{e}");
}
