//! A decoded frame and the format shared by all frames of a stream.

use std::fmt;

/// Chroma subsampling of a stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChromaFormat {
    Yuv420,
    Yuv422,
    Yuv444,
    /// 4:4:4 with a fourth (alpha) plane in the file, which is read past and dropped (as libvmaf does).
    Yuv444Alpha,
    /// Luma only in the file; like libvmaf, frames get 4:2:0 chroma planes of mid-grey.
    Mono,
    /// 4:1:1 in the file (8-bit); like libvmaf, frames get 4:2:2 chroma resampled with its 4-tap filters.
    Yuv411,
}

impl ChromaFormat {
    /// Chroma plane size of a frame for a luma size: odd sizes round up, as y4m files store them.
    pub fn chroma_size(self, width: usize, height: usize) -> (usize, usize) {
        match self {
            ChromaFormat::Yuv420 | ChromaFormat::Mono => (width.div_ceil(2), height.div_ceil(2)),
            ChromaFormat::Yuv422 | ChromaFormat::Yuv411 => (width.div_ceil(2), height),
            ChromaFormat::Yuv444 | ChromaFormat::Yuv444Alpha => (width, height),
        }
    }

    /// Samples per frame in the file beyond the luma plane.
    fn stored_extra(self, width: usize, height: usize) -> usize {
        let (cw, ch) = self.chroma_size(width, height);
        match self {
            ChromaFormat::Mono => 0,
            ChromaFormat::Yuv444Alpha => 3 * width * height,
            ChromaFormat::Yuv411 => 2 * width.div_ceil(4) * height,
            _ => 2 * cw * ch,
        }
    }
}

impl fmt::Display for ChromaFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            ChromaFormat::Yuv420 => "4:2:0",
            ChromaFormat::Yuv422 => "4:2:2",
            ChromaFormat::Yuv444 => "4:4:4",
            ChromaFormat::Yuv444Alpha => "4:4:4+alpha",
            ChromaFormat::Mono => "mono",
            ChromaFormat::Yuv411 => "4:1:1",
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
        let bytes_per_sample = if self.bpc > 8 { 2 } else { 1 };
        (self.width * self.height + self.chroma.stored_extra(self.width, self.height)) * bytes_per_sample
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
