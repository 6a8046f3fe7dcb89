//! The list of every op: adding an op is one folder plus one line here.

use vqgraph_graph::OpClass;

/// What the registry knows of an op without building one.
#[derive(Clone, Copy, Debug)]
pub struct OpInfo {
    /// Registry key, equal to `Op::name()`.
    pub name: &'static str,
    pub class: OpClass,
    /// One line saying what it computes.
    pub summary: &'static str,
}

/// Every op of this crate.
pub const REGISTRY: &[OpInfo] = &[crate::sep_conv::INFO, crate::decimate::INFO];

/// Looks an op up by name.
pub fn lookup(name: &str) -> Option<&'static OpInfo> {
    REGISTRY.iter().find(|i| i.name == name)
}
