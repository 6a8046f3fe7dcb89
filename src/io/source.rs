//! A stream of frames from any supported input (y4m, raw yuv; file or standard input), behind one trait.

use std::io::Read;
use std::path::Path;

use super::frame::{Frame, VideoFormat};
use super::raw::RawReader;
use super::y4m::Y4mReader;
use crate::error::InputError;

/// A source of decoded frames.
pub trait FrameSource: Send {
    /// The file name (or `-`), for messages.
    fn name(&self) -> &str;
    fn format(&self) -> VideoFormat;
    /// The next frame, `Ok(None)` at a clean end of stream.
    fn read_frame(&mut self) -> Result<Option<Frame>, InputError>;
    /// Frames read so far.
    fn frames_read(&self) -> usize;
}

/// How to interpret an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    Y4m,
    /// Raw planar yuv of the given format (`-w -h -p -b`).
    Raw(VideoFormat),
}

/// Opens `path` (`-` = standard input) as y4m or raw yuv.
pub fn open_input(path: &Path, kind: InputKind) -> Result<Box<dyn FrameSource>, InputError> {
    let name = path.display().to_string();
    let reader: Box<dyn Read + Send> = if path == Path::new("-") {
        Box::new(std::io::stdin())
    } else {
        Box::new(std::fs::File::open(path).map_err(|e| InputError::new(&name, None, format!("cannot open: {e}")))?)
    };
    Ok(match kind {
        InputKind::Y4m => Box::new(Y4mReader::new(name, reader)?),
        InputKind::Raw(format) => Box::new(RawReader::new(name, reader, format)?),
    })
}
