//! Command-line front end: parses flags, opens the inputs, runs the graph, writes libvmaf's output formats.

mod args;
mod presets;
mod progress;

use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::Path;
use std::time::Instant;

use clap::Parser;

use vqgraph::backends::{BackendKind, select};
use vqgraph::io::{ChromaFormat, InputKind, PairReader, VideoFormat, open_input};
use vqgraph::output::{Report, write_csv, write_json, write_sub, write_xml};
use vqgraph::pipeline::{build_graph, score, sources};
use vqgraph::setup::{FeatureRequest, ModelRequest, Setup};

use args::{Args, Format};

/// Runs the command; errors are printed by `main`.
pub fn run() -> Result<(), String> {
    let args = Args::parse();
    if args.version {
        // libvmaf prints its version on stderr.
        eprintln!("vqgraph {} (libvmaf 3.2 f85a8536 compatible)", env!("CARGO_PKG_VERSION"));
        return Ok(());
    }
    if args.cpumask.is_some() || args.gpumask.is_some() {
        tracing::warn!("--cpumask/--gpumask are accepted for compatibility and ignored (use --backend)");
    }
    let kind = input_kind(&args)?;
    let (ref_path, dis_path) =
        (args.reference.clone().expect("clap: required"), args.distorted.clone().expect("clap: required"));
    if ref_path == Path::new("-") && dis_path == Path::new("-") {
        return Err("-r and -d cannot both read standard input".into());
    }
    let reference = open_input(&ref_path, kind).map_err(|e| e.to_string())?;
    let distorted = open_input(&dis_path, kind).map_err(|e| e.to_string())?;
    let mut reader = PairReader::boxed(reference, distorted).map_err(|e| e.to_string())?;
    reader.skip_frames(args.frame_skip_ref, args.frame_skip_dist).map_err(|e| e.to_string())?;
    reader.limit = args.frame_cnt;
    let format = reader.format();
    let src = sources(&format);

    let (mut model_args, mut feature_args) = presets::expand(&args)?;
    model_args.extend(args.model.iter().cloned());
    feature_args.extend(args.feature.iter().cloned());
    if model_args.is_empty() && !args.no_prediction {
        model_args.push("version=vmaf_v0.6.1".into());
    }
    let models: Vec<ModelRequest> = if args.no_prediction {
        Vec::new()
    } else {
        model_args.iter().map(|m| ModelRequest::parse(m)).collect::<Result<_, _>>()?
    };
    for (i, m) in models.iter().enumerate() {
        if models[..i].iter().any(|o| o.config.name == m.config.name) {
            return Err(format!(
                "two models are named {:?}: each model should be uniquely named (set name=... in --model)",
                m.config.name
            ));
        }
    }
    let features: Vec<FeatureRequest> =
        feature_args.iter().map(|f| FeatureRequest::parse(f)).collect::<Result<_, _>>()?;
    let setup = Setup::new(&models, &features, &src)?;
    // Frames too small for an extractor fail here, before any frame is read.
    let graph = build_graph(&setup.extractors, &src)
        .map_err(|e| format!("{}: {format} frames cannot be scored: {e}", ref_path.display()))?;
    if args.dump_plan {
        println!("{}", vqgraph::graph::schedule(&graph));
        return Ok(());
    }

    let kind: BackendKind = args.backend.parse()?;
    let backend = select(kind, args.threads).map_err(|e| e.to_string())?;
    tracing::info!(backend = backend.name(), device = %backend.device(), "starting");

    let show_progress = !args.quiet && std::io::stderr().is_terminal();
    let bar = progress::bar(show_progress, &ref_path, &format, args.frame_skip_ref, args.frame_cnt);
    let frames = {
        let bar = bar.clone();
        reader.inspect(move |_| bar.inc(1))
    };
    let start = Instant::now();
    let scores = score(&setup.extractors, &src, backend.as_ref(), frames).map_err(|e| e.to_string())?;
    let elapsed = start.elapsed().as_secs_f64();
    bar.finish_and_clear();

    let mut report = Report {
        version: format!("vqgraph-{}", env!("CARGO_PKG_VERSION")),
        fps: scores.frames.len() as f64 / elapsed.max(1e-9),
        frames: scores.frames,
        aggregate: scores.aggregate,
        precision: args.precision.as_deref().map_or(Ok(Default::default()), str::parse)?,
    };
    setup.predict(&mut report.frames).map_err(|e| e.to_string())?;
    report.subsample(args.subsample);

    if let Some(path) = &args.output {
        write_report(path, args.format(), &report, &format)?;
    }
    if !args.quiet || args.output.is_none() {
        for (model, request) in setup.models.iter().zip(&models) {
            summary(model, &request.label(), &report);
        }
    }
    Ok(())
}

/// Raw input when any of -w -h -p -b is given (then all four are needed), else y4m.
fn input_kind(args: &Args) -> Result<InputKind, String> {
    let given = [args.width.is_some(), args.height.is_some(), args.pixel_format.is_some(), args.bitdepth.is_some()];
    if !given.iter().any(|&g| g) {
        return Ok(InputKind::Y4m);
    }
    match (args.width, args.height, args.pixel_format.as_deref(), args.bitdepth) {
        (Some(width), Some(height), Some(p), Some(bpc)) => {
            let chroma = match p {
                "420" => ChromaFormat::Yuv420,
                "422" => ChromaFormat::Yuv422,
                _ => ChromaFormat::Yuv444,
            };
            Ok(InputKind::Raw(VideoFormat { width, height, chroma, bpc }))
        }
        _ => Err("raw .yuv input needs all of --width/-w, --height/-h, --pixel_format/-p and --bitdepth/-b".into()),
    }
}

/// Writes the report; a file is written under a temporary name and renamed, so a failed run never leaves a
/// complete-looking file behind.
fn write_report(path: &Path, fmt: Format, report: &Report, format: &VideoFormat) -> Result<(), String> {
    let write = |w: &mut dyn Write| -> std::io::Result<()> {
        let mut w = BufWriter::new(w);
        match fmt {
            Format::Xml => write_xml(&mut w, report, format.width, format.height)?,
            Format::Json => write_json(&mut w, report)?,
            Format::Csv => write_csv(&mut w, report)?,
            Format::Sub => write_sub(&mut w, report)?,
        }
        w.flush()
    };
    if path == Path::new("-") {
        return write(&mut std::io::stdout().lock()).map_err(|e| format!("standard output: {e}"));
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".vqgraph-partial");
    let tmp = std::path::PathBuf::from(tmp);
    let mut file = File::create(&tmp).map_err(|e| format!("{}: cannot create output: {e}", path.display()))?;
    let result = write(&mut file).and_then(|_| file.sync_all()).and_then(|_| std::fs::rename(&tmp, path));
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("{}: cannot write output: {e}", path.display())
    })
}

/// libvmaf's closing line per model on stderr: `NAME: MEAN`, bootstrap models with their interval.
fn summary(model: &vqgraph::models::Model, label: &str, report: &Report) {
    let name = model.name();
    let mean = |key: &str| report.pooled(key).map(|p| p.mean);
    if model.is_bootstrap() {
        let get = |s: &str| mean(&format!("{name}_{s}")).unwrap_or(f64::NAN);
        eprintln!(
            "{label}: {:.6}, ci.p95: [{:.6}, {:.6}], stddev: {:.6}",
            get("bagging"),
            get("ci_p95_lo"),
            get("ci_p95_hi"),
            get("stddev")
        );
    } else if let Some(m) = mean(name) {
        eprintln!("{label}: {m:.6}");
    }
}
