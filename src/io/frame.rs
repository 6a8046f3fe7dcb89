//! A decoded frame and the format shared by all frames of a stream.

use std::fmt;

/// Chroma subsampling of a stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChromaFormat {
    Yuv420,
    Yuv422,
    Yuv444,
    /// Luma only.
    Mono,
}

impl ChromaFormat {
    /// Chroma plane size for a luma size: odd sizes round up, as y4m files store them.
    pub fn chroma_size(self, width: usize, height: usize) -> (usize, usize) {
        match self {
            ChromaFormat::Yuv420 => (width.div_ceil(2), height.div_ceil(2)),
            ChromaFormat::Yuv422 => (width.div_ceil(2), height),
            ChromaFormat::Yuv444 => (width, height),
            ChromaFormat::Mono => (0, 0),
        }
    }
}

impl fmt::Display for ChromaFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            ChromaFormat::Yuv420 => "4:2:0",
            ChromaFormat::Yuv422 => "4:2:2",
            ChromaFormat::Yuv444 => "4:4:4",
            ChromaFormat::Mono => "mono",
        };
        f.write_str(s)
    }
}

/// Geometry and sample format of a stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VideoFormat {
    pub width: usize,
    pub height: usize,
    pub chroma: ChromaFormat,
    /// Bits per component (8, 10, 12, 16).
    pub bpc: u32,
}

impl VideoFormat {
    pub fn chroma_size(&self) -> (usize, usize) {
        self.chroma.chroma_size(self.width, self.height)
    }

    /// Bytes of one frame in the file (samples above 8 bits take two bytes, little-endian).
    pub fn frame_bytes(&self) -> usize {
        let (cw, ch) = self.chroma_size();
        let bytes_per_sample = if self.bpc > 8 { 2 } else { 1 };
        (self.width * self.height + 2 * cw * ch) * bytes_per_sample
    }
}

impl fmt::Display for VideoFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{} {} {}-bit", self.width, self.height, self.chroma, self.bpc)
    }
}

/// One frame: three planes of samples widened to u16 (`u` and `v` empty for monochrome).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub y: Vec<u16>,
    pub u: Vec<u16>,
    pub v: Vec<u16>,
}
