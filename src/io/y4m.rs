//! YUV4MPEG2 reader: parses the stream header, then yields frames. Every error names the file, the frame and
//! the reason.

use std::io::{BufRead, BufReader, Read};

use super::frame::{ChromaFormat, Frame, VideoFormat};
use crate::error::InputError;

/// Largest width or height accepted: beyond any real video, and keeps frame sizes far from overflow.
const MAX_DIMENSION: usize = 1 << 15;

/// Reads frames from a y4m stream.
pub struct Y4mReader<R: Read> {
    name: String,
    input: BufReader<R>,
    format: VideoFormat,
    frame: usize,
    raw: Vec<u8>,
}

impl Y4mReader<std::fs::File> {
    /// Opens a y4m file.
    pub fn open(path: &std::path::Path) -> Result<Self, InputError> {
        let name = path.display().to_string();
        let file = std::fs::File::open(path).map_err(|e| InputError::new(&name, None, format!("cannot open: {e}")))?;
        Y4mReader::new(name, file)
    }
}

impl<R: Read> Y4mReader<R> {
    /// Reads the stream header from `input`; `name` is used in error messages.
    pub fn new(name: String, input: R) -> Result<Self, InputError> {
        let mut input = BufReader::with_capacity(1 << 20, input);
        // Recognise the format before parsing lines: a file of another kind has no line structure to speak of.
        let start = input.fill_buf().map_err(|e| InputError::new(&name, None, format!("read error: {e}")))?;
        if !start.is_empty() && !b"YUV4MPEG2 ".starts_with(&start[..start.len().min(10)]) {
            let shown: String =
                start.iter().take(12).map(|&b| if b.is_ascii_graphic() { b as char } else { '.' }).collect();
            return Err(InputError::new(
                &name,
                None,
                format!("not a y4m file: it starts with {shown:?}, not YUV4MPEG2"),
            ));
        }
        let line = read_line(&mut input, 1024).map_err(|e| InputError::new(&name, None, e))?;
        let line = line.ok_or_else(|| InputError::new(&name, None, "empty file, expected a YUV4MPEG2 header"))?;
        let format = parse_header(&line).map_err(|e| InputError::new(&name, None, e))?;
        Ok(Y4mReader { name, input, format, frame: 0, raw: Vec::new() })
    }

    pub fn format(&self) -> VideoFormat {
        self.format
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Frames read so far.
    pub fn frames_read(&self) -> usize {
        self.frame
    }

    /// Reads the next frame; `Ok(None)` at a clean end of stream.
    pub fn read_frame(&mut self) -> Result<Option<Frame>, InputError> {
        let frame = self.frame;
        let err = |reason: String| InputError::new(&self.name, Some(frame), reason);
        let line = match read_line(&mut self.input, 4096).map_err(err)? {
            None => return Ok(None),
            Some(l) => l,
        };
        if line != "FRAME" && !line.starts_with("FRAME ") {
            return Err(InputError::new(
                &self.name,
                Some(frame),
                format!("expected a FRAME marker, found {:?}", truncate(&line)),
            ));
        }
        let n = self.format.frame_bytes();
        read_full(&mut self.input, &mut self.raw, n).map_err(|got| {
            InputError::new(&self.name, Some(frame), format!("truncated frame: {got} of {n} bytes present"))
        })?;
        let f = unpack(&self.raw, &self.format);
        check_range(&f, self.format.bpc).map_err(|reason| InputError::new(&self.name, Some(frame), reason))?;
        self.frame += 1;
        Ok(Some(f))
    }
}

impl<R: Read + Send> super::source::FrameSource for Y4mReader<R> {
    fn name(&self) -> &str {
        Y4mReader::name(self)
    }
    fn format(&self) -> VideoFormat {
        Y4mReader::format(self)
    }
    fn read_frame(&mut self) -> Result<Option<Frame>, InputError> {
        Y4mReader::read_frame(self)
    }
    fn frames_read(&self) -> usize {
        Y4mReader::frames_read(self)
    }
}

/// Splits raw planar bytes into planes of u16 samples.
pub fn unpack(raw: &[u8], f: &VideoFormat) -> Frame {
    let (cw, ch) = f.chroma_size();
    let luma = f.width * f.height;
    let chroma = cw * ch;
    let wide = f.bpc > 8;
    let take = |start: usize, count: usize| -> Vec<u16> {
        if wide {
            raw[2 * start..2 * (start + count)].chunks_exact(2).map(|b| u16::from_le_bytes([b[0], b[1]])).collect()
        } else {
            raw[start..start + count].iter().map(|&b| b as u16).collect()
        }
    };
    if f.chroma == ChromaFormat::Mono {
        let grey = 1u16 << (f.bpc - 1);
        return Frame { y: take(0, luma), u: vec![grey; chroma], v: vec![grey; chroma] };
    }
    if f.chroma == ChromaFormat::Yuv411 {
        let (sw, h) = (f.width.div_ceil(4), f.height);
        let plane = |k: usize| -> Vec<u16> {
            let src = &raw[luma + k * sw * h..luma + (k + 1) * sw * h];
            src.chunks(sw).flat_map(|row| upsample_411_row(row, cw)).collect()
        };
        return Frame { y: take(0, luma), u: plane(0), v: plane(1) };
    }
    // A 4:4:4+alpha frame's fourth plane follows and is not read.
    Frame { y: take(0, luma), u: take(luma, chroma), v: take(luma + chroma, chroma) }
}

/// One row of 4:1:1 chroma (`src`, `ceil(w/4)` samples) resampled to 4:2:2 (`dst_w = ceil(w/2)` samples) with
/// libvmaf's filters ([1 110 18 -1]/128 and [-3 50 86 -5]/128, edges clamped as its y4m reader does).
fn upsample_411_row(src: &[u8], dst_w: usize) -> Vec<u16> {
    let n = src.len();
    let a = |i: usize| src[i.min(n - 1)] as i32;
    let out = |v: i32| ((v + 64) >> 7).clamp(0, 255) as u16;
    let mut dst = vec![0u16; dst_w];
    for x in 0..n {
        // The sample left of the first one is the first one itself.
        let left = if x == 0 { a(0) } else { a(x - 1) };
        // Past the end, libvmaf's last two columns read the row's last sample.
        let far = if x + 2 < n { a(x + 2) } else { a(n - 1) };
        dst[2 * x] = out(left + 110 * a(x) + 18 * a(x + 1) - far);
        if 2 * x + 1 < dst_w {
            dst[2 * x + 1] = out(-3 * left + 50 * a(x) + 86 * a(x + 1) - 5 * far);
        }
    }
    dst
}

/// Rejects samples above `2^bpc - 1` (possible only above 8 bits): every extractor assumes `bpc`-bit data.
pub fn check_range(f: &Frame, bpc: u32) -> Result<(), String> {
    if bpc >= 16 {
        return Ok(());
    }
    let max = (1u16 << bpc) - 1;
    for (plane, data) in [("Y", &f.y), ("U", &f.u), ("V", &f.v)] {
        if let Some(pos) = data.iter().position(|&x| x > max) {
            return Err(format!("{plane} sample {pos} is {}, above the {bpc}-bit maximum {max}", data[pos]));
        }
    }
    Ok(())
}

fn truncate(s: &str) -> String {
    s.chars().take(40).collect()
}

/// Replaces `buf` with the next `n` bytes of `r`; on a short read (or a read error) returns how many bytes were
/// there.
///
/// `buf` grows as data arrives instead of being sized to `n` up front: a 40-byte file can claim a
/// 32768x32768 4:4:4 16-bit frame, and must end in a "truncated" error, not in allocating and zeroing 6 GiB
/// first (found by fuzzing). Between frames of one stream the capacity is kept, so steady-state reads do not
/// reallocate.
pub(super) fn read_full<R: Read>(r: &mut R, buf: &mut Vec<u8>, n: usize) -> Result<(), usize> {
    buf.clear();
    // `read_to_end` retries interrupted reads and keeps what it read before an error.
    match r.by_ref().take(n as u64).read_to_end(buf) {
        Ok(_) if buf.len() == n => Ok(()),
        _ => Err(buf.len()),
    }
}

/// Reads one `\n`-terminated ASCII line of at most `max` bytes; `None` at end of stream.
fn read_line<R: BufRead>(r: &mut R, max: usize) -> Result<Option<String>, String> {
    let mut bytes = Vec::new();
    let n = r.by_ref().take(max as u64 + 1).read_until(b'\n', &mut bytes).map_err(|e| format!("read error: {e}"))?;
    if n == 0 {
        return Ok(None);
    }
    if bytes.last() != Some(&b'\n') {
        return Err(if bytes.len() > max {
            format!("header line longer than {max} bytes")
        } else {
            "unterminated header line at end of file".into()
        });
    }
    bytes.pop();
    String::from_utf8(bytes).map(Some).map_err(|_| "header line is not ASCII".into())
}

/// Rejects empty and absurd frame sizes.
pub(super) fn check_size(width: usize, height: usize) -> Result<(), String> {
    if width == 0 || height == 0 || width > MAX_DIMENSION || height > MAX_DIMENSION {
        return Err(format!("unsupported size {width}x{height} (1 to {MAX_DIMENSION} per side)"));
    }
    Ok(())
}

/// Parses `YUV4MPEG2 W.. H.. C.. ...`.
fn parse_header(line: &str) -> Result<VideoFormat, String> {
    let mut parts = line.split(' ');
    if parts.next() != Some("YUV4MPEG2") {
        return Err(format!("not a y4m file: header starts with {:?}", truncate(line)));
    }
    let (mut width, mut height) = (None, None);
    let mut colour = "420jpeg";
    for p in parts.filter(|p| !p.is_empty()) {
        // The tag is the first character, not the first byte: a parameter may start with a non-ASCII
        // character, and splitting inside it would panic (found by fuzzing).
        let mut chars = p.chars();
        let tag = chars.next();
        let val = chars.as_str();
        match tag {
            Some('W') => width = Some(val.parse::<usize>().map_err(|_| format!("bad width {val:?}"))?),
            Some('H') => height = Some(val.parse::<usize>().map_err(|_| format!("bad height {val:?}"))?),
            Some('C') => colour = val,
            // Frame rate, interlacing, aspect ratio and extensions do not change the samples.
            _ => {}
        }
    }
    let width = width.ok_or("header has no width (W)")?;
    let height = height.ok_or("header has no height (H)")?;
    check_size(width, height)?;
    let (chroma, bpc) = parse_colour(colour)?;
    Ok(VideoFormat { width, height, chroma, bpc })
}

fn parse_colour(c: &str) -> Result<(ChromaFormat, u32), String> {
    // `420p10`, `444p12`, `mono16`: a base name and an optional bit depth.
    let digits_at = c.trim_end_matches(|ch: char| ch.is_ascii_digit()).len();
    let (head, bits) = c.split_at(digits_at);
    let (base, bits) = match head.strip_suffix('p') {
        Some(b) if !bits.is_empty() && !b.is_empty() && b.chars().all(|ch| ch.is_ascii_digit()) => (b, bits),
        _ if head == "mono" && !bits.is_empty() => ("mono", bits),
        _ => (c, ""),
    };
    let bpc = if bits.is_empty() { 8 } else { bits.parse::<u32>().map_err(|_| format!("bad colour space {c:?}"))? };
    let chroma = match base {
        "420" | "420jpeg" | "420paldv" | "420mpeg2" => ChromaFormat::Yuv420,
        "422" => ChromaFormat::Yuv422,
        "444" => ChromaFormat::Yuv444,
        "444alpha" => ChromaFormat::Yuv444Alpha,
        "mono" => ChromaFormat::Mono,
        "411" if bpc == 8 => ChromaFormat::Yuv411,
        _ => return Err(format!("unsupported colour space {c:?}")),
    };
    if !matches!(bpc, 8 | 10 | 12 | 16) {
        return Err(format!("unsupported bit depth {bpc} in colour space {c:?}"));
    }
    Ok((chroma, bpc))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_common_headers() {
        let f = parse_header("YUV4MPEG2 W481 H271 F25:1 Ip A1:1 C420jpeg XYSCSS=420JPEG").unwrap();
        assert_eq!((f.width, f.height, f.chroma, f.bpc), (481, 271, ChromaFormat::Yuv420, 8));
        assert_eq!(f.chroma_size(), (241, 136));
        let f = parse_header("YUV4MPEG2 W576 H324 C420p10").unwrap();
        assert_eq!((f.chroma, f.bpc), (ChromaFormat::Yuv420, 10));
        let f = parse_header("YUV4MPEG2 W8 H8").unwrap();
        assert_eq!((f.chroma, f.bpc), (ChromaFormat::Yuv420, 8));
        assert_eq!(parse_header("YUV4MPEG2 W8 H8 C444p12").unwrap().chroma, ChromaFormat::Yuv444);
        assert_eq!(parse_header("YUV4MPEG2 W8 H8 C422p16").unwrap().bpc, 16);
        let mono = parse_header("YUV4MPEG2 W8 H8 Cmono").unwrap();
        assert_eq!(
            (mono.chroma, mono.bpc, mono.frame_bytes(), mono.chroma_size()),
            (ChromaFormat::Mono, 8, 64, (4, 4))
        );
        assert_eq!(parse_header("YUV4MPEG2 W8 H8 Cmono16").unwrap().bpc, 16);
        assert_eq!(parse_header("YUV4MPEG2 W2 H2 C444alpha").unwrap().frame_bytes(), 16);
        for c in ["420paldv", "420mpeg2", "420jpeg", "420"] {
            let h = format!("YUV4MPEG2 W8 H8 C{c} XCOLORRANGE=LIMITED");
            assert_eq!(parse_header(&h).unwrap().chroma, ChromaFormat::Yuv420);
        }
    }

    #[test]
    fn rejects_bad_headers_with_a_reason() {
        assert!(parse_header("RIFF").unwrap_err().contains("not a y4m"));
        assert!(parse_header("YUV4MPEG2 H8").unwrap_err().contains("width"));
        assert!(parse_header("YUV4MPEG2 W0 H8").unwrap_err().contains("size"));
        assert_eq!(parse_header("YUV4MPEG2 W8 H8 C411").unwrap().chroma, ChromaFormat::Yuv411);
        assert!(parse_header("YUV4MPEG2 W8 H8 C411p10").is_err());
        assert!(parse_header("YUV4MPEG2 W8 H8 C420x").unwrap_err().contains("colour space"));
        assert!(parse_header("YUV4MPEG2 W8 H8 C420p9").unwrap_err().contains("bit depth"));
    }

    #[test]
    fn non_ascii_parameters_are_ignored_not_split() {
        // Fuzzer find: a parameter starting with a multi-byte character panicked in `str::split_at(1)`.
        let f = parse_header("YUV4MPEG2 W3 H2 \u{1bf}Ip C444").unwrap();
        assert_eq!((f.width, f.height, f.chroma), (3, 2, ChromaFormat::Yuv444));
        let data = "YUV4MPEG2 W1 H1 \u{e9}\nFRAME\n\0\0\0".as_bytes();
        assert!(Y4mReader::new("u.y4m".into(), data).unwrap().read_frame().unwrap().is_some());
    }

    #[test]
    fn a_huge_claimed_frame_in_a_short_file_is_truncated_without_allocating_it() {
        // Fuzzer find: the reader sized its buffer from the header (6 GiB here) before reading anything.
        let data = b"YUV4MPEG2 W32768 H32768 C444p16\nFRAME\n0123456789";
        let mut r = Y4mReader::new("big.y4m".into(), &data[..]).unwrap();
        let e = r.read_frame().unwrap_err().to_string();
        assert!(e.contains("frame 0: truncated frame: 10 of 6442450944 bytes"), "{e}");
        assert!(r.raw.capacity() < 1 << 20, "buffer of {} bytes for 10 bytes of data", r.raw.capacity());
    }

    #[test]
    fn chroma_411_is_resampled_to_422_like_libvmaf() {
        // libvmaf's y4m_convert_411_422jpeg on one row [10, 20, 30, 40] (width 16 -> 8 output samples):
        // x=0: (111*10 + 18*20 - 30 + 64) >> 7 = 11, (47*10 + 86*20 - 5*30 + 64) >> 7 = 16
        // x=1: (10 + 110*20 + 18*30 - 40 + 64) >> 7 = 21, (-30 + 1000 + 2580 - 200 + 64) >> 7 = 26
        // x=2 (last two use the row's end): (20 + 3300 + 720 - 40 + 64) >> 7 = 31, (-60 + 1500 + 3440 - 200 + 64) >> 7 = 37
        // x=3: (30 + 4400 + 720 - 40 + 64) >> 7 = 40, (-90 + 2000 + 3440 - 200 + 64) >> 7 = 40
        assert_eq!(upsample_411_row(&[10, 20, 30, 40], 8), vec![11, 16, 21, 26, 31, 37, 40, 40]);
        // Odd output width: the last odd sample is not written. Extremes clamp to 0..255.
        assert_eq!(upsample_411_row(&[0, 255], 3).len(), 3);
        assert_eq!(upsample_411_row(&[255, 0, 0], 6)[0], 221); // (111*255 + 64) >> 7
        let f = parse_header("YUV4MPEG2 W6 H1 C411").unwrap();
        assert_eq!((f.frame_bytes(), f.chroma_size()), (6 + 2 * 2, (3, 1)));
    }

    #[test]
    fn samples_above_the_bit_depth_are_rejected() {
        let mut data = b"YUV4MPEG2 W2 H1 C444p10\nFRAME\n".to_vec();
        data.extend_from_slice(&[0xff, 0x03, 0x00, 0x04, 0, 0, 0, 0, 0, 0, 0, 0]);
        let mut r = Y4mReader::new("hi.y4m".into(), &data[..]).unwrap();
        let e = r.read_frame().unwrap_err().to_string();
        assert!(e.contains("hi.y4m") && e.contains("frame 0") && e.contains("1024"), "{e}");
    }

    #[test]
    fn truncated_frame_names_file_and_frame() {
        let mut data = b"YUV4MPEG2 W4 H2 C444\nFRAME\n".to_vec();
        data.extend_from_slice(&[1; 24]);
        data.extend_from_slice(b"FRAME\n");
        data.extend_from_slice(&[1; 10]);
        let mut r = Y4mReader::new("t.y4m".into(), &data[..]).unwrap();
        assert!(r.read_frame().unwrap().is_some());
        let e = r.read_frame().unwrap_err().to_string();
        assert!(e.contains("t.y4m") && e.contains("frame 1") && e.contains("truncated"), "{e}");
    }
}
