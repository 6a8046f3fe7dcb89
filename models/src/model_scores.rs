//! The scores one prediction produces, named as libvmaf prints them.

/// (printed name, value) pairs in libvmaf's order: the model's own score
/// first (`vmaf`); for a bootstrap collection then `<name>_0001` ...
/// `<name>_NNNN`, `<name>_bagging`, `<name>_stddev`, `<name>_ci_p95_lo`,
/// `<name>_ci_p95_hi`.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelScores {
    entries: Vec<(String, f64)>,
}

impl ModelScores {
    pub(crate) fn new(entries: Vec<(String, f64)>) -> Self {
        ModelScores { entries }
    }

    /// The model's own score (the first entry).
    pub fn score(&self) -> f64 {
        self.entries[0].1
    }

    /// The value printed under `name`, if this prediction produced it.
    pub fn get(&self, name: &str) -> Option<f64> {
        self.entries.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
    }

    /// All (name, value) pairs in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, f64)> + '_ {
        self.entries.iter().map(|(n, v)| (n.as_str(), *v))
    }

    pub fn as_slice(&self) -> &[(String, f64)] {
        &self.entries
    }

    pub fn into_vec(self) -> Vec<(String, f64)> {
        self.entries
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Always false: a prediction yields at least the model's own score.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}
