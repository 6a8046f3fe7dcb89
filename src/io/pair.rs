//! Reading a reference and a distorted stream in lockstep, checking that they match.

use std::io::Read;

use super::frame::{Frame, VideoFormat};
use super::y4m::Y4mReader;
use crate::error::InputError;

/// Two y4m streams read together.
pub struct PairReader<R: Read, D: Read> {
    pub reference: Y4mReader<R>,
    pub distorted: Y4mReader<D>,
}

impl<R: Read, D: Read> PairReader<R, D> {
    /// Checks that both streams have the same format.
    pub fn new(reference: Y4mReader<R>, distorted: Y4mReader<D>) -> Result<Self, InputError> {
        let (a, b) = (reference.format(), distorted.format());
        if a != b {
            return Err(InputError::new(
                distorted.name(),
                None,
                format!("format {b} differs from the reference {} ({a})", reference.name()),
            ));
        }
        Ok(PairReader { reference, distorted })
    }

    pub fn format(&self) -> VideoFormat {
        self.reference.format()
    }

    /// The next pair of frames; `None` when both streams end together, an error naming the shorter stream
    /// when only one ends.
    pub fn next_pair(&mut self) -> Result<Option<(Frame, Frame)>, InputError> {
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

impl<R: Read, D: Read> Iterator for PairReader<R, D> {
    type Item = Result<(Frame, Frame), InputError>;
    fn next(&mut self) -> Option<Self::Item> {
        self.next_pair().transpose()
    }
}
