//! Bootstrap model collections (`vmaf_b_v0.6.3`): the per-model scores and
//! their aggregates, as predict.c `vmaf_bootstrap_predict_score_at_index`
//! computes them.
//!
//! The collection is every model after the first (`"1"`, `"2"`, ... named
//! `<name>_0001`, ...); the first model (`"0"`) is predicted on its own
//! under `<name>`. Mean, standard deviation and the 95% interval are taken
//! over the models' untransformed, unclipped outputs; the mean and interval
//! bounds are then transformed and clipped with the collection's first
//! model, and the standard deviation is scaled by the transform's slope
//! around the mean (central difference with delta 0.01).

use crate::svr_model::SvrModel;

/// A loaded collection.
#[derive(Debug, Clone)]
pub(crate) struct BootstrapCollection {
    /// `<name>`: the prefix of the derived score names.
    pub name: String,
    /// Models `"1"`, `"2"`, ... (never empty).
    pub models: Vec<SvrModel>,
}

/// The collection's scores for one frame.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BootstrapScores {
    /// Each model's score with its own transform and clip.
    pub per_model: Vec<f64>,
    pub bagging: f64,
    pub stddev: f64,
    pub ci_p95_lo: f64,
    pub ci_p95_hi: f64,
}

impl BootstrapCollection {
    /// Aggregates `raw[i]`, the untransformed, unclipped output of
    /// `self.models[i]`.
    pub(crate) fn aggregate(&self, raw: &[f64]) -> BootstrapScores {
        let per_model = self.models.iter().zip(raw).map(|(m, &y)| m.post_process(y, false, false)).collect();

        let cnt = raw.len() as f64;
        let mut sum = 0.0;
        for &s in raw {
            sum += s;
        }
        let mean = sum / cnt;

        let delta = 0.01;
        let plus = mean + delta;
        let minus = mean - delta;

        // libvmaf writes pow(x, 2); GCC folds that into x * x.
        let mut ssd = 0.0;
        for &s in raw {
            let d = s - mean;
            ssd += d * d;
        }
        let stddev = (ssd / cnt).sqrt();

        // qsort with a three-way comparison; glibc 2.36's qsort is a stable
        // merge sort, and so is `sort_by`.
        let mut sorted = raw.to_vec();
        sorted.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
        let lo = percentile(&sorted, 2.5);
        let hi = percentile(&sorted, 97.5);

        let first = &self.models[0];
        let finish = |y: f64| first.post_process(y, false, false);
        let slope = (finish(plus) - finish(minus)) / (2.0 * delta);

        BootstrapScores {
            per_model,
            bagging: finish(mean),
            stddev: stddev * slope,
            ci_p95_lo: finish(lo),
            ci_p95_hi: finish(hi),
        }
    }
}

/// predict.c `percentile` on an ascending list: linear interpolation
/// between the two neighbouring ranks.
fn percentile(scores: &[f64], perc: f64) -> f64 {
    let p = perc * (scores.len() - 1) as f64 / 100.0;
    let idx_l = p.floor();
    let idx_r = p.ceil();
    let (l, r) = (idx_l as usize, idx_r as usize);
    if l == r { scores[l] } else { scores[l] * (idx_r - p) + scores[r] * (p - idx_l) }
}

#[cfg(test)]
mod tests {
    use super::percentile;

    #[test]
    fn percentile_like_libvmaf() {
        let s: Vec<f64> = (0..20).map(|i| f64::from(i) * 1.5).collect();
        let p: f64 = 2.5 * 19.0 / 100.0;
        assert_eq!(percentile(&s, 2.5), s[0] * (1.0 - p) + s[1] * (p - 0.0));
        let p: f64 = 97.5 * 19.0 / 100.0;
        assert_eq!(percentile(&s, 97.5), s[18] * (19.0 - p) + s[19] * (p - 18.0));
        assert_eq!(percentile(&[4.0], 97.5), 4.0);
        assert_eq!(percentile(&[1.0, 2.0, 3.0], 50.0), 2.0);
    }
}
