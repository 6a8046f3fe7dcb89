//! Reading video: y4m and raw yuv, from files or standard input, into frames of 16-bit samples.

mod frame;
mod pair;
mod raw;
mod source;
mod y4m;

pub use frame::{ChromaFormat, Frame, VideoFormat};
pub use pair::PairReader;
pub use raw::RawReader;
pub use source::{FrameSource, InputKind, open_input};
pub use y4m::Y4mReader;
