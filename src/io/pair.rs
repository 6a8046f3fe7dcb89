//! Reading a reference and a distorted stream in lockstep, checking that they match.

use super::frame::{Frame, VideoFormat};
use super::source::FrameSource;
use crate::error::InputError;

/// Two streams read together.
pub struct PairReader {
    pub reference: Box<dyn FrameSource>,
    pub distorted: Box<dyn FrameSource>,
    /// Stop after this many pairs (`--frame_cnt`); `None` reads to the end.
    pub limit: Option<usize>,
    pairs: usize,
}

impl PairReader {
    /// Checks that both streams have the same format.
    pub fn new(
        reference: impl FrameSource + 'static,
        distorted: impl FrameSource + 'static,
    ) -> Result<Self, InputError> {
        Self::boxed(Box::new(reference), Box::new(distorted))
    }

    /// [`PairReader::new`] for sources already boxed.
    pub fn boxed(reference: Box<dyn FrameSource>, distorted: Box<dyn FrameSource>) -> Result<Self, InputError> {
        let (a, b) = (reference.format(), distorted.format());
        if a != b {
            return Err(InputError::new(
                distorted.name(),
                None,
                format!("format {b} differs from the reference {} ({a})", reference.name()),
            ));
        }
        Ok(PairReader { reference, distorted, limit: None, pairs: 0 })
    }

    /// Skips the first `r` reference and `d` distorted frames (`--frame_skip_ref/--frame_skip_dist`);
    /// streams shorter than that are an error.
    pub fn skip_frames(&mut self, r: usize, d: usize) -> Result<(), InputError> {
        for (src, n) in [(&mut self.reference, r), (&mut self.distorted, d)] {
            for i in 0..n {
                if src.read_frame()?.is_none() {
                    return Err(InputError::new(
                        src.name(),
                        Some(i),
                        format!("stream ends before the {n} frames to skip"),
                    ));
                }
            }
        }
        Ok(())
    }

    pub fn format(&self) -> VideoFormat {
        self.reference.format()
    }

    /// The next pair of frames; `None` when both streams end together, an error naming the shorter stream
    /// when only one ends.
    pub fn next_pair(&mut self) -> Result<Option<(Frame, Frame)>, InputError> {
        if self.limit.is_some_and(|n| self.pairs >= n) {
            return Ok(None);
        }
        self.pairs += 1;
        let r = self.reference.read_frame()?;
        let d = self.distorted.read_frame()?;
        match (r, d) {
            (Some(r), Some(d)) => Ok(Some((r, d))),
            (None, None) => Ok(None),
            (Some(_), None) => Err(self.early_end(false)),
            (None, Some(_)) => Err(self.early_end(true)),
        }
    }

    fn early_end(&self, reference_ended: bool) -> InputError {
        let (short, long) = if reference_ended {
            (self.reference.name(), self.distorted.name())
        } else {
            (self.distorted.name(), self.reference.name())
        };
        let n = if reference_ended { self.reference.frames_read() } else { self.distorted.frames_read() };
        InputError::new(short, Some(n), format!("stream ends after {n} frames while {long} goes on"))
    }
}

impl Iterator for PairReader {
    type Item = Result<(Frame, Frame), InputError>;
    fn next(&mut self) -> Option<Self::Item> {
        self.next_pair().transpose()
    }
}
