//! A finished run: per-frame values (features and model scores), pooled statistics, aggregates.
//!
//! The report mirrors libvmaf's feature collector, which every writer of `output.c` reads: frame `i` of
//! [`Report::frames`] is the frame libvmaf numbers `i` (after `--frame_skip_*`, so numbering starts at 0),
//! and it holds the values written for that frame. libvmaf prints a frame only if something was written
//! for it and, with `--subsample N`, only if `i % N == 0`; [`Report::subsample`] empties the other frames,
//! so after it "non-empty" is the one rule every writer and [`Report::pooled`] follow.

use vqgraph_metrics::FeatureValues;

/// What libvmaf's writers print.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// libvmaf prints its git version here; we print ours.
    pub version: String,
    pub fps: f64,
    /// Per frame number, `(printed name, value)` in print order; empty for a frame that is not printed.
    pub frames: Vec<FeatureValues>,
    pub aggregate: Vec<(String, f64)>,
    /// Digits printed (`--precision`); libvmaf's rule by default.
    pub precision: super::number::Precision,
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
    /// Keeps only every `n`th frame (frame numbers 0, n, 2n, ...), as `--subsample n` does; `n` of 0 or 1
    /// keeps every frame. The kept frames keep their numbers, and pooling then covers only them, as in
    /// libvmaf's `vmaf_feature_score_pooled`. libvmaf also skips non-temporal extractors on the other
    /// frames, but their values are never printed nor pooled, so computing them changes no output byte.
    pub fn subsample(&mut self, n: usize) {
        if n > 1 {
            for (i, f) in self.frames.iter_mut().enumerate() {
                if i % n != 0 {
                    f.clear();
                }
            }
        }
    }

    /// The frames libvmaf prints, with their frame numbers: those with at least one value.
    pub fn printed_frames(&self) -> impl Iterator<Item = (usize, &FeatureValues)> {
        self.frames.iter().enumerate().filter(|(_, f)| !f.is_empty())
    }

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

    /// Pooled statistics over the printed frames, as libvmaf computes them (harmonic mean of `x + 1`, minus
    /// 1). `None` when a printed frame lacks `key`: libvmaf's pooling fails on a frame where the feature was
    /// not written, and its writers then print no statistics for it.
    pub fn pooled(&self, key: &str) -> Option<Pooled> {
        let vals: Vec<f64> = self
            .printed_frames()
            .map(|(_, f)| f.iter().find(|(k, _)| k == key).map(|(_, v)| *v))
            .collect::<Option<_>>()?;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(pairs: &[(&str, f64)]) -> FeatureValues {
        pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    }

    fn report(values: &[f64]) -> Report {
        Report { frames: values.iter().map(|&v| frame(&[("a", v)])).collect(), ..Default::default() }
    }

    #[test]
    fn pools_like_libvmaf() {
        let p = report(&[1.0, 3.0]).pooled("a").unwrap();
        assert_eq!(p, Pooled { min: 1.0, max: 3.0, mean: 2.0, harmonic_mean: 2.0 / (0.5 + 0.25) - 1.0 });
        assert_eq!(report(&[]).pooled("a"), None);
        assert_eq!(report(&[1.0]).pooled("b"), None);
    }

    #[test]
    fn subsample_keeps_frame_numbers_and_pools_over_kept_frames() {
        let mut r = report(&[0.0, 10.0, 2.0, 10.0, 4.0]);
        r.subsample(2);
        assert_eq!(r.printed_frames().map(|(i, _)| i).collect::<Vec<_>>(), [0, 2, 4]);
        let p = r.pooled("a").unwrap();
        assert_eq!((p.min, p.max, p.mean), (0.0, 4.0, 2.0));
        let mut all = report(&[0.0, 10.0]);
        all.subsample(1);
        assert_eq!(all.printed_frames().count(), 2);
    }

    #[test]
    fn a_printed_frame_without_the_key_voids_its_pooling() {
        let r = Report { frames: vec![frame(&[("a", 1.0)]), frame(&[("b", 1.0)])], ..Default::default() };
        assert_eq!(r.pooled("a"), None);
        assert_eq!(r.keys(), ["a", "b"]);
    }
}
