//! The list of every op: adding an op is one folder plus one line here.

pub use vqgraph_graph::OpInfo;

/// Every op of this crate.
#[rustfmt::skip]
pub const REGISTRY: &[OpInfo] = &[
    crate::sep_conv::INFO,
    crate::decimate::INFO,
    crate::sq_err_sum::INFO,
    crate::diff::INFO,
    crate::abs_sum::INFO,
    crate::frame_delay::INFO,
    crate::vif_stats::INFO,
    crate::adm_dwt::INFO,
    crate::adm_decouple::INFO,
    crate::adm_csf::INFO,
    crate::adm_cm::INFO,
    crate::adm_csf_den::INFO,
];

/// Looks an op up by name.
pub fn lookup(name: &str) -> Option<&'static OpInfo> {
    REGISTRY.iter().find(|i| i.name == name)
}
