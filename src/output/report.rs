//! A finished run: per-frame values (features and model scores), pooled statistics, aggregates.

use vqgraph_metrics::FeatureValues;

/// What libvmaf's writers print.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// libvmaf prints its git version here; we print ours.
    pub version: String,
    pub fps: f64,
    /// Per frame, `(printed name, value)` in print order.
    pub frames: Vec<FeatureValues>,
    pub aggregate: Vec<(String, f64)>,
}

/// libvmaf's pooled statistics of one key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pooled {
    pub min: f64,
    pub max: f64,
    pub mean: f64,
    pub harmonic_mean: f64,
}

impl Report {
    /// Keys in print order: first appearance over the frames.
    pub fn keys(&self) -> Vec<String> {
        let mut keys: Vec<String> = Vec::new();
        for f in &self.frames {
            for (k, _) in f {
                if !keys.contains(k) {
                    keys.push(k.clone());
                }
            }
        }
        keys
    }

    /// Pooled statistics over every frame, as libvmaf computes them (harmonic mean of `x + 1`, minus 1).
    pub fn pooled(&self, key: &str) -> Option<Pooled> {
        let vals: Vec<f64> =
            self.frames.iter().filter_map(|f| f.iter().find(|(k, _)| k == key).map(|(_, v)| *v)).collect();
        let first = *vals.first()?;
        let (mut min, mut max, mut sum, mut i_sum) = (first, first, 0.0, 0.0);
        for &s in &vals {
            sum += s;
            i_sum += 1.0 / (s + 1.0);
            if s < min {
                min = s;
            }
            if s > max {
                max = s;
            }
        }
        let n = vals.len() as f64;
        Some(Pooled { min, max, mean: sum / n, harmonic_mean: n / i_sum - 1.0 })
    }
}
