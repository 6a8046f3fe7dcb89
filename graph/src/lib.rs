//! The vqgraph IR: what a metric is made of, independent of where it runs.
//!
//! A metric is a DAG of [`Op`] nodes over typed [`Value`]s (planes of one element type, or short vectors of
//! integer sums). [`GraphBuilder`] verifies the DAG as it is built and names the offending node in its errors;
//! [`schedule`] orders the nodes and plans buffers into a printable [`Plan`]; a [`Backend`] executes a plan
//! frame by frame; [`run`] is the library entry point tying them together.
//!
//! This crate knows nothing of particular ops or of GPUs: ops live in `vqgraph-ops`, executors in
//! `vqgraph-backends`.

mod backend;
mod builder;
mod error;
mod op;
mod plan;
mod run;
mod value;

pub use backend::{Backend, FrameOutputs, Session, StepTrace};
pub use builder::{Graph, GraphBuilder, Node, NodeId, NodeKind, ValueRef};
pub use error::{GraphError, RunError};
pub use op::{AsAny, Op, OpClass, OpInfo, OpState};
pub use plan::{Plan, Step, has_temporal, schedule};
pub use run::{check_inputs, run};
pub use value::{Elem, HostBuf, Plane, Value, ValueType};
