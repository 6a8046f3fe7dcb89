//! vqgraph's metrics: one file per libvmaf feature extractor, each saying *what* it computes as a DAG of
//! ops (`build`) plus the host-side arithmetic that turns the per-frame integer sums into libvmaf's
//! feature values (`frame`) and, for temporal features, the pass over the whole sequence (`sequence`).

pub mod adm;
mod extractor;
pub mod motion;
pub mod psnr;
pub mod vif;

pub use extractor::{Extractor, FeatureValues, Sources, sums_i64};
