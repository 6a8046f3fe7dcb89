//! The `vqgraph` command: scores a distorted video against its reference, like libvmaf's `vmaf` tool.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    match cli::run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("vqgraph: error: {e}");
            ExitCode::FAILURE
        }
    }
}
