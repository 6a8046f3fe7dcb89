//! The `vqgraph` command: scores a distorted video against its reference, like libvmaf's `vmaf` tool.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    // Logs go to stderr, warnings only unless RUST_LOG asks for more (e.g. RUST_LOG=vqgraph=info).
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .init();
    match cli::run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("vqgraph: error: {e}");
            ExitCode::FAILURE
        }
    }
}
