//! The flags, defined once (clap derives `--help` from them). Names follow libvmaf's `vmaf` tool.

use std::path::PathBuf;

use clap::Parser;

use vqgraph::setup::ModelRequest;

/// Score a distorted video against its reference with the VMAF family of metrics.
#[derive(Parser, Debug)]
#[command(name = "vqgraph", version, about)]
pub struct Args {
    /// Reference video (y4m).
    #[arg(short = 'r', long)]
    pub reference: PathBuf,
    /// Distorted video (y4m).
    #[arg(short = 'd', long)]
    pub distorted: PathBuf,
    /// Model: `version=NAME` (built-in), `path=FILE`, with `:name=NAME`, `:disable_clip`,
    /// `:enable_transform`. Repeatable; default `version=vmaf_v0.6.1`.
    #[arg(short = 'm', long = "model")]
    pub model: Vec<String>,
    /// Extra feature extractor with options, e.g. `psnr=enable_chroma=true:enable_mse=true`. Repeatable.
    #[arg(long)]
    pub feature: Vec<String>,
    /// Output file (stdout when absent).
    #[arg(short = 'o', long)]
    pub output: Option<PathBuf>,
    /// Write JSON (the only output format so far).
    #[arg(long)]
    pub json: bool,
    /// Worker threads of the CPU backend (0 = all cores).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Where to compute: cpu, wgpu, cuda, hip or auto.
    #[arg(long, default_value = "auto")]
    pub backend: String,
    /// Compute features only, no model prediction.
    #[arg(short = 'n', long = "no_prediction")]
    pub no_prediction: bool,
    /// Print nothing but errors.
    #[arg(short = 'q', long)]
    pub quiet: bool,
    /// Print the scheduled plan of the graph and exit.
    #[arg(long)]
    pub dump_plan: bool,
}

impl Args {
    /// The models asked for, or the default one.
    pub fn models(&self) -> Result<Vec<ModelRequest>, String> {
        if self.model.is_empty() {
            return Ok(vec![ModelRequest::parse("version=vmaf_v0.6.1")?]);
        }
        self.model.iter().map(|m| ModelRequest::parse(m)).collect()
    }
}
