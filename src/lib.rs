//! vqgraph: video quality metrics (the VMAF family) as DAGs of typed ops, bit-exact with libvmaf.
//!
//! This facade re-exports the parts (`graph`, `ops`, `backends`, `metrics`, `models`) and adds what a
//! program needs around them: reading video (`io`), choosing extractors for a set of models (`pipeline`),
//! and writing libvmaf's output layout (`output`).

pub mod error;
pub mod io;
pub mod output;
pub mod pipeline;
pub mod setup;

pub use vqgraph_backends as backends;
pub use vqgraph_graph as graph;
pub use vqgraph_metrics as metrics;
pub use vqgraph_models as models;
pub use vqgraph_ops as ops;
