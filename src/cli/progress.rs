//! The progress meter on a terminal: frames, fps and, when the frame count can be known, an ETA.

use std::path::Path;

use indicatif::{ProgressBar, ProgressStyle};
use vqgraph::io::VideoFormat;

/// A bar for the run, hidden when `show` is false (not a terminal, or `-q`).
pub fn bar(show: bool, reference: &Path, format: &VideoFormat, skip: usize, limit: Option<usize>) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let total =
        estimate_frames(reference, format).map(|n| n.saturating_sub(skip)).map(|n| limit.map_or(n, |l| l.min(n)));
    let bar = match total {
        Some(n) => ProgressBar::new(n as u64).with_style(
            ProgressStyle::with_template("{spinner} {pos}/{len} frames {per_sec} [{elapsed_precise}, ETA {eta}]")
                .expect("static template"),
        ),
        None => ProgressBar::new_spinner().with_style(
            ProgressStyle::with_template("{spinner} {pos} frames {per_sec} [{elapsed_precise}]")
                .expect("static template"),
        ),
    };
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}

/// Frames in a regular file, from its size (y4m: each frame has a `FRAME\n` marker); `None` for pipes.
fn estimate_frames(path: &Path, format: &VideoFormat) -> Option<usize> {
    let meta = std::fs::metadata(path).ok().filter(|m| m.is_file())?;
    let per_frame = format.frame_bytes() + if path.extension().is_some_and(|e| e == "yuv") { 0 } else { 6 };
    Some(meta.len() as usize / per_frame)
}
