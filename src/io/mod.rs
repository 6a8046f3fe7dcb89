//! Reading video: y4m files (and, later, raw yuv) into frames of 16-bit samples.

mod frame;
mod pair;
mod y4m;

pub use frame::{ChromaFormat, Frame, VideoFormat};
pub use pair::PairReader;
pub use y4m::Y4mReader;
