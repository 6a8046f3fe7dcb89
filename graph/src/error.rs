//! Typed errors: `GraphError` for graphs that are wrong, `RunError` for runs that fail.

use thiserror::Error;

/// A mistake found while building or verifying a graph. Always names the node.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum GraphError {
    #[error("node {node} ({op}): {reason}")]
    BadInputs { node: String, op: String, reason: String },
    #[error("node {node}: input refers to unknown value {value}")]
    UnknownValue { node: String, value: String },
    #[error("output name {name:?} is used twice")]
    DuplicateOutput { name: String },
    #[error("input name {name:?} is used twice")]
    DuplicateInput { name: String },
    #[error("output {name:?} is not a sums value (only sums are read back), it is {ty}")]
    OutputNotSums { name: String, ty: String },
    #[error("graph has no outputs")]
    NoOutputs,
}

/// A failure while running a graph: bad input data, I/O, or a device failure.
#[derive(Debug, Error)]
pub enum RunError {
    #[error("frame {frame}: input {input:?}: {reason}")]
    Input { frame: usize, input: String, reason: String },
    #[error("frame {frame}: node {node} ({op}) failed: {reason}")]
    Node { frame: usize, node: String, op: String, reason: String },
    #[error("backend {backend}: {reason}")]
    Backend { backend: String, reason: String },
    #[error("{0}")]
    Other(String),
}
