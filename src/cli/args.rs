//! The flags, defined once (clap derives `--help` from them). Names and meanings follow libvmaf 3.2's `vmaf`
//! tool (`-h` is the height there, so help is `--help` only), plus vqgraph's own `--backend`, `--precision`
//! and `--dump-plan`.

use std::path::PathBuf;

use clap::Parser;

/// Score a distorted video against its reference with the VMAF family of metrics; a drop-in for libvmaf's
/// `vmaf` tool.
#[derive(Parser, Debug, Clone)]
#[command(name = "vqgraph", disable_help_flag = true, disable_version_flag = true)]
pub struct Args {
    /// Reference video: .y4m, or raw .yuv with -w -h -p -b; `-` reads standard input.
    #[arg(short = 'r', long, value_name = "PATH", required_unless_present = "version")]
    pub reference: Option<PathBuf>,
    /// Distorted video: .y4m, or raw .yuv with -w -h -p -b; `-` reads standard input.
    #[arg(short = 'd', long, value_name = "PATH", required_unless_present = "version")]
    pub distorted: Option<PathBuf>,
    /// Width of raw .yuv input.
    #[arg(short = 'w', long, value_name = "UNSIGNED")]
    pub width: Option<usize>,
    /// Height of raw .yuv input.
    #[arg(short = 'h', long, value_name = "UNSIGNED")]
    pub height: Option<usize>,
    /// Pixel format of raw .yuv input: 420, 422 or 444.
    #[arg(short = 'p', long = "pixel_format", value_name = "STRING", value_parser = ["420", "422", "444"])]
    pub pixel_format: Option<String>,
    /// Bit depth of raw .yuv input: 8, 10, 12 or 16.
    #[arg(short = 'b', long, value_name = "UNSIGNED", value_parser = parse_bitdepth)]
    pub bitdepth: Option<u32>,
    /// Model, `:`-separated: `version=NAME` (built-in) or `path=FILE`, `name=` (score name), `disable_clip`,
    /// `enable_transform`, and feature overloads `EXTRACTOR.OPTION=VALUE`. Repeatable; default
    /// version=vmaf_v0.6.1.
    #[arg(short = 'm', long = "model", value_name = "PARAMS")]
    pub model: Vec<String>,
    /// Output file (`-` = standard output). Without it no file is written (as libvmaf).
    #[arg(short = 'o', long, value_name = "PATH")]
    pub output: Option<PathBuf>,
    /// Write the output file as XML (default).
    #[arg(long, overrides_with_all = ["json", "csv", "sub"])]
    pub xml: bool,
    /// Write the output file as JSON.
    #[arg(long, overrides_with_all = ["xml", "csv", "sub"])]
    pub json: bool,
    /// Write the output file as CSV.
    #[arg(long, overrides_with_all = ["xml", "json", "sub"])]
    pub csv: bool,
    /// Write the output file as subtitles (SUB).
    #[arg(long, overrides_with_all = ["xml", "json", "csv"])]
    pub sub: bool,
    /// Threads of the CPU backend (0 = all cores). Results do not depend on it.
    #[arg(long, value_name = "UNSIGNED", default_value_t = 0)]
    pub threads: usize,
    /// Additional feature extractor with options: `NAME=opt=val:opt=val`. Repeatable.
    #[arg(long, value_name = "STRING")]
    pub feature: Vec<String>,
    /// Compute scores only every N frames.
    #[arg(long, value_name = "UNSIGNED", default_value_t = 0)]
    pub subsample: usize,
    /// Accepted for compatibility; vqgraph's results do not depend on CPU instruction sets.
    #[arg(long, value_name = "BITMASK")]
    pub cpumask: Option<String>,
    /// Accepted for compatibility; use --backend to choose a GPU.
    #[arg(long, value_name = "BITMASK")]
    pub gpumask: Option<String>,
    /// AOM common test conditions preset (v1.0 ... v7.0).
    #[arg(long = "aom_ctc", value_name = "VERSION")]
    pub aom_ctc: Option<String>,
    /// Netflix common test conditions preset (v1.0).
    #[arg(long = "nflx_ctc", value_name = "VERSION")]
    pub nflx_ctc: Option<String>,
    /// Maximum number of frames to process.
    #[arg(long = "frame_cnt", value_name = "UNSIGNED")]
    pub frame_cnt: Option<usize>,
    /// Skip the first N frames of the reference.
    #[arg(long = "frame_skip_ref", value_name = "UNSIGNED", default_value_t = 0)]
    pub frame_skip_ref: usize,
    /// Skip the first N frames of the distorted video.
    #[arg(long = "frame_skip_dist", value_name = "UNSIGNED", default_value_t = 0)]
    pub frame_skip_dist: usize,
    /// No prediction: extract features only.
    #[arg(short = 'n', long = "no_prediction")]
    pub no_prediction: bool,
    /// No progress meter, no summary.
    #[arg(short = 'q', long)]
    pub quiet: bool,
    /// Print the version and exit.
    #[arg(short = 'v', long)]
    pub version: bool,
    /// Where to compute: cpu, wgpu, cuda, hip or auto (best available). An explicit backend that cannot
    /// start is an error, never a silent fallback.
    #[arg(long, value_name = "NAME", default_value = "auto")]
    pub backend: String,
    /// Digits after the point in outputs: libvmaf's `%.6f` by default, N for `%.Nf`, `max` for shortest
    /// round-trip (`%.17g`).
    #[arg(long, value_name = "N|max")]
    pub precision: Option<String>,
    /// Print the scheduled plan of the graph and exit.
    #[arg(long = "dump-plan")]
    pub dump_plan: bool,
    /// Print help.
    #[arg(long, action = clap::ArgAction::Help)]
    pub help: Option<bool>,
}

/// libvmaf's output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Xml,
    Json,
    Csv,
    Sub,
}

impl Args {
    /// The output format: the last of --xml/--json/--csv/--sub given, XML by default.
    pub fn format(&self) -> Format {
        if self.json {
            Format::Json
        } else if self.csv {
            Format::Csv
        } else if self.sub {
            Format::Sub
        } else {
            Format::Xml
        }
    }
}

fn parse_bitdepth(s: &str) -> Result<u32, String> {
    match s.parse::<u32>() {
        Ok(b @ (8 | 10 | 12 | 16)) => Ok(b),
        _ => Err(format!("{s:?} is not a valid bit depth (8/10/12/16)")),
    }
}
