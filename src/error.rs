//! Errors of the facade and the CLI: bad input files, named by file and frame.

use std::fmt;

/// A problem with an input file: which file, which frame (if any), and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    pub file: String,
    pub frame: Option<usize>,
    pub reason: String,
}

impl InputError {
    pub fn new(file: &str, frame: Option<usize>, reason: impl Into<String>) -> Self {
        InputError { file: file.to_string(), frame, reason: reason.into() }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.frame {
            Some(n) => write!(f, "{}: frame {n}: {}", self.file, self.reason),
            None => write!(f, "{}: {}", self.file, self.reason),
        }
    }
}

impl std::error::Error for InputError {}
