//! Writing results in libvmaf's output layouts (JSON now; XML, CSV and SUB with the full CLI).

mod json;
mod number;
mod report;

pub use json::write_json;
pub use number::{format_value, leading_zeros};
pub use report::{Pooled, Report};
