//! Fuzz target: raw planar yuv. The first three bytes choose a small format (the `-w -h -p -b` a user would
//! give: width and height 1..=64, chroma, 8/10/12/16 bits); the rest is the stream, read frame by frame until
//! a clean end or the first error. Errors are expected; a panic or hang is a bug.

#![no_main]

use libfuzzer_sys::fuzz_target;
use vqgraph::io::{ChromaFormat, FrameSource, RawReader, VideoFormat};

fuzz_target!(|data: &[u8]| {
    let [w, h, kind, stream @ ..] = data else { return };
    let chroma =
        [ChromaFormat::Yuv420, ChromaFormat::Yuv422, ChromaFormat::Yuv444, ChromaFormat::Mono][(kind & 3) as usize];
    let bpc = [8, 10, 12, 16][((kind >> 2) & 3) as usize];
    // Small sizes keep frames short, so the fuzzer spends its time on many frames and edge cases (odd sizes,
    // short last frames, out-of-range samples) rather than on copying bytes.
    let format = VideoFormat { width: 1 + (*w as usize % 64), height: 1 + (*h as usize % 64), chroma, bpc };
    let Ok(mut reader) = RawReader::new("fuzz.yuv".into(), stream, format) else { return };
    while let Ok(Some(frame)) = reader.read_frame() {
        let (cw, ch) = format.chroma_size();
        assert_eq!(frame.y.len(), format.width * format.height);
        assert_eq!((frame.u.len(), frame.v.len()), (cw * ch, cw * ch));
        // Samples the reader accepted fit the declared bit depth (it must reject the rest).
        let max = if bpc >= 16 { u16::MAX } else { (1u16 << bpc) - 1 };
        assert!(frame.y.iter().chain(&frame.u).chain(&frame.v).all(|&s| s <= max));
    }
});
