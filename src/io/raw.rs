//! Raw planar yuv reader (`-w -h -p -b`): frames back to back, chroma planes `ceil`-sized as in y4m, samples
//! above 8 bits as 16-bit little-endian words.

use std::io::{BufReader, Read};

use super::frame::{Frame, VideoFormat};
use super::source::FrameSource;
use super::y4m::{check_range, read_full, unpack};
use crate::error::InputError;

/// Reads frames of a known format from a raw stream.
pub struct RawReader<R: Read> {
    name: String,
    input: BufReader<R>,
    format: VideoFormat,
    frame: usize,
    raw: Vec<u8>,
}

impl<R: Read> RawReader<R> {
    pub fn new(name: String, input: R, format: VideoFormat) -> Result<Self, InputError> {
        super::y4m::check_size(format.width, format.height).map_err(|e| InputError::new(&name, None, e))?;
        Ok(RawReader { name, input: BufReader::with_capacity(1 << 20, input), format, frame: 0, raw: Vec::new() })
    }
}

impl<R: Read + Send> FrameSource for RawReader<R> {
    fn name(&self) -> &str {
        &self.name
    }

    fn format(&self) -> VideoFormat {
        self.format
    }

    fn read_frame(&mut self) -> Result<Option<Frame>, InputError> {
        let n = self.format.frame_bytes();
        match read_full(&mut self.input, &mut self.raw, n) {
            Ok(()) => {}
            Err(0) => return Ok(None),
            Err(got) => {
                return Err(InputError::new(
                    &self.name,
                    Some(self.frame),
                    format!("truncated frame: {got} of {n} bytes present (is the size or format wrong?)"),
                ));
            }
        }
        let f = unpack(&self.raw, &self.format);
        check_range(&f, self.format.bpc).map_err(|reason| InputError::new(&self.name, Some(self.frame), reason))?;
        self.frame += 1;
        Ok(Some(f))
    }

    fn frames_read(&self) -> usize {
        self.frame
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::ChromaFormat;

    #[test]
    fn reads_frames_and_names_a_truncated_one() {
        let format = VideoFormat { width: 3, height: 3, chroma: ChromaFormat::Yuv420, bpc: 10 };
        // 9 luma + 2 * 4 chroma samples, 2 bytes each, then half a frame.
        let mut data: Vec<u8> = (0..17u16).flat_map(|v| (v * 60).to_le_bytes()).collect();
        data.extend_from_slice(&[0; 10]);
        let mut r = RawReader::new("in.yuv".into(), &data[..], format).unwrap();
        let f = r.read_frame().unwrap().unwrap();
        assert_eq!((f.y.len(), f.u.len(), f.v[3]), (9, 4, 16 * 60));
        let e = r.read_frame().unwrap_err().to_string();
        assert!(e.contains("in.yuv: frame 1: truncated"), "{e}");
    }

    #[test]
    fn a_huge_size_with_little_data_is_truncated_without_allocating_the_frame() {
        // As in y4m (a fuzzer find there): `-w 32768 -h 32768` on a short stream must not allocate 6 GiB.
        let format = VideoFormat { width: 32768, height: 32768, chroma: ChromaFormat::Yuv444, bpc: 16 };
        let mut r = RawReader::new("big.yuv".into(), &[7u8; 100][..], format).unwrap();
        let e = r.read_frame().unwrap_err().to_string();
        assert!(e.contains("frame 0: truncated frame: 100 of 6442450944 bytes"), "{e}");
        assert!(r.raw.capacity() < 1 << 20, "buffer of {} bytes for 100 bytes of data", r.raw.capacity());
    }
}
