//! Fuzz target: arbitrary bytes as a y4m stream. The header is parsed, then frames are read until a clean end
//! or the first error. Errors are expected; a panic, hang or runaway allocation is a bug.

#![no_main]

use libfuzzer_sys::fuzz_target;
use vqgraph::io::{FrameSource, Y4mReader};

fuzz_target!(|data: &[u8]| {
    let Ok(mut reader) = Y4mReader::new("fuzz.y4m".into(), data) else { return };
    let format = reader.format();
    // Every frame consumes at least its FRAME line, so this ends with the input.
    while let Ok(Some(frame)) = FrameSource::read_frame(&mut reader) {
        // What the readers promise their consumers: planes of the header's size.
        let (cw, ch) = format.chroma_size();
        assert_eq!(frame.y.len(), format.width * format.height);
        assert_eq!((frame.u.len(), frame.v.len()), (cw * ch, cw * ch));
    }
});
