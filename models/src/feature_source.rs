//! Where a prediction gets its per-frame feature values from.

use std::collections::{BTreeMap, HashMap};
use std::hash::BuildHasher;

/// Per-frame feature values, looked up by the key libvmaf prints
/// ([`crate::ModelFeature::printed_name`], e.g. `integer_adm2`,
/// `integer_vif_scale0_egl_1`).
pub trait FeatureSource {
    fn feature_value(&self, printed_name: &str) -> Option<f64>;
}

impl<F: Fn(&str) -> Option<f64> + ?Sized> FeatureSource for F {
    fn feature_value(&self, printed_name: &str) -> Option<f64> {
        self(printed_name)
    }
}

impl<S: BuildHasher> FeatureSource for HashMap<String, f64, S> {
    fn feature_value(&self, printed_name: &str) -> Option<f64> {
        self.get(printed_name).copied()
    }
}

impl<S: BuildHasher> FeatureSource for HashMap<&str, f64, S> {
    fn feature_value(&self, printed_name: &str) -> Option<f64> {
        self.get(printed_name).copied()
    }
}

impl FeatureSource for BTreeMap<String, f64> {
    fn feature_value(&self, printed_name: &str) -> Option<f64> {
        self.get(printed_name).copied()
    }
}

impl FeatureSource for BTreeMap<&str, f64> {
    fn feature_value(&self, printed_name: &str) -> Option<f64> {
        self.get(printed_name).copied()
    }
}

impl FeatureSource for [(&str, f64)] {
    fn feature_value(&self, printed_name: &str) -> Option<f64> {
        self.iter().find(|(n, _)| *n == printed_name).map(|(_, v)| *v)
    }
}
