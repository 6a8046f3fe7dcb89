//! Command-line front end: parses flags, opens the inputs, runs the graph, writes libvmaf's output.

mod args;

use std::fs::File;
use std::io::{BufWriter, Write};
use std::time::Instant;

use clap::Parser;

use vqgraph::backends::{BackendKind, select};
use vqgraph::io::{PairReader, Y4mReader};
use vqgraph::output::{Report, write_json};
use vqgraph::pipeline::{build_graph, score, sources};
use vqgraph::setup::{FeatureRequest, Setup};

pub use args::Args;

/// Runs the command; errors are printed by `main`.
pub fn run() -> Result<(), String> {
    let args = Args::parse();
    let reference = Y4mReader::open(&args.reference).map_err(|e| e.to_string())?;
    let distorted = Y4mReader::open(&args.distorted).map_err(|e| e.to_string())?;
    let reader = PairReader::new(reference, distorted).map_err(|e| e.to_string())?;
    let src = sources(&reader.format());

    let features: Vec<FeatureRequest> =
        args.feature.iter().map(|f| FeatureRequest::parse(f)).collect::<Result<_, _>>()?;
    let models = if args.no_prediction { Vec::new() } else { args.models()? };
    let setup = Setup::new(&models, &features, &src).map_err(|e| e.to_string())?;

    if args.dump_plan {
        let graph = build_graph(&setup.extractors, &src).map_err(|e| e.to_string())?;
        println!("{}", vqgraph::graph::schedule(&graph));
        return Ok(());
    }

    let kind: BackendKind = args.backend.parse()?;
    let backend = select(kind, args.threads).map_err(|e| e.to_string())?;
    tracing::info!(backend = backend.name(), device = %backend.device(), "starting");

    let start = Instant::now();
    let scores = score(&setup.extractors, &src, backend.as_ref(), reader).map_err(|e| e.to_string())?;
    let elapsed = start.elapsed().as_secs_f64();
    let mut report = Report {
        version: format!("vqgraph {}", env!("CARGO_PKG_VERSION")),
        fps: scores.frames.len() as f64 / elapsed.max(1e-9),
        frames: scores.frames,
        aggregate: scores.aggregate,
    };
    setup.predict(&mut report.frames).map_err(|e| e.to_string())?;

    match &args.output {
        Some(path) => {
            // Write to a temporary name and rename, so a failed run never leaves a complete-looking file.
            let tmp = path.with_extension("vqgraph-partial");
            let file = File::create(&tmp).map_err(|e| format!("{}: cannot create: {e}", tmp.display()))?;
            let mut w = BufWriter::new(file);
            write_json(&mut w, &report).and_then(|_| w.flush()).map_err(|e| format!("{}: {e}", tmp.display()))?;
            std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        None => {
            let stdout = std::io::stdout();
            write_json(&mut stdout.lock(), &report).map_err(|e| e.to_string())?;
        }
    }
    if !args.quiet {
        for (name, value) in setup.pooled_means(&report) {
            eprintln!("{name}: {value:.6}");
        }
    }
    Ok(())
}
