//! The optional score transform (`model_dict.score_transform`): a
//! polynomial of degree <= 2, then a piecewise-linear map through `knots`,
//! then rectification against the untransformed score (`out_lte_in`,
//! `out_gte_in`), exactly as libvmaf's predict.c `transform` computes it.
//!
//! Note that libvmaf applies it only when `enabled` is true in the file or
//! the model was loaded with `enable_transform`; `vmaf_v0.6.1.json` carries
//! a transform without `enabled`, so it is off by default.

/// libvmaf accepts at most this many knots.
pub(crate) const MAX_KNOTS: usize = 10;

/// A parsed `score_transform`.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ScoreTransform {
    pub enabled: bool,
    pub p0: Option<f64>,
    pub p1: Option<f64>,
    pub p2: Option<f64>,
    /// Some when `knots` was given (possibly with fewer than two points,
    /// which libvmaf then ignores). Missing coordinates are 0.
    pub knots: Option<Vec<(f64, f64)>>,
    pub out_lte_in: bool,
    pub out_gte_in: bool,
}

impl ScoreTransform {
    /// predict.c `transform` (with the model's own `enabled` flag; the
    /// caller skips it for `VMAF_MODEL_FLAG_DISABLE_TRANSFORM`).
    pub(crate) fn apply(&self, y_in: f64) -> f64 {
        if !self.enabled {
            return y_in;
        }
        let y_stage = y_in;
        let mut y_out = if self.p0.is_some() || self.p1.is_some() || self.p2.is_some() {
            // Accumulated from 0.0 in this order, `p2 * y * y` left to right.
            let mut acc = 0.0;
            if let Some(p0) = self.p0 {
                acc += p0;
            }
            if let Some(p1) = self.p1 {
                acc += p1 * y_stage;
            }
            if let Some(p2) = self.p2 {
                acc += p2 * y_stage * y_stage;
            }
            acc
        } else {
            y_stage
        };

        if let Some(knots) = &self.knots {
            let y_stage = y_out;
            // The status is ignored by libvmaf: on invalid knots `y_out`
            // keeps whatever the mapping wrote before it stopped.
            piecewise_linear_mapping(y_stage, knots, &mut y_out);
        }

        if self.out_lte_in && y_out > y_in {
            y_out = y_in;
        }
        if self.out_gte_in && y_out < y_in {
            y_out = y_in;
        }
        y_out
    }
}

/// predict.c `find_linear_function_parameters` for two points with
/// `p1.x < p2.x` and `p1.y < p2.y` (the only way the mapping calls it).
fn linear_function_parameters(p1: (f64, f64), p2: (f64, f64)) -> (f64, f64) {
    if p1.0 == 0.0 {
        let beta = p1.1;
        ((p2.1 - beta) / p2.0, beta)
    } else {
        let alpha = (p2.1 - p1.1) / (p2.0 - p1.0);
        (alpha, p1.1 - p1.0 * alpha)
    }
}

/// predict.c `piecewise_linear_mapping`: writes `*y` like libvmaf does
/// (nothing for fewer than two knots; 0 first, then every segment that
/// covers `x` overwrites it, later segments winning at shared knots; the
/// first and last segments extend beyond the range). Returns false where
/// libvmaf returns an error status.
fn piecewise_linear_mapping(x: f64, knots: &[(f64, f64)], y: &mut f64) -> bool {
    if knots.len() <= 1 {
        return false;
    }
    let n_seg = knots.len() - 1;
    *y = 0.0;
    for idx in 0..n_seg {
        let (k0, k1) = (knots[idx], knots[idx + 1]);
        if !(k0.0 < k1.0 && k0.1 <= k1.1) {
            return false;
        }
        let cond0 = k0.0 <= x;
        let cond1 = x <= k1.0;
        if k0.1 == k1.1 {
            // Horizontal segment.
            if cond0 && cond1 {
                *y = k0.1;
            }
            if idx == 0 && x < k0.0 {
                *y = k0.1;
            }
            if idx == n_seg - 1 && x > k1.0 {
                *y = k0.1;
            }
        } else {
            let (slope, offset) = linear_function_parameters(k0, k1);
            if cond0 && cond1 {
                *y = slope * x + offset;
            }
            if idx == 0 && x < k0.0 {
                *y = slope * x + offset;
            }
            if idx == n_seg - 1 && x > k1.0 {
                *y = slope * x + offset;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polynomial_and_rectification() {
        let t = ScoreTransform {
            enabled: true,
            p0: Some(1.70674692),
            p1: Some(1.72643844),
            p2: Some(-0.00705305),
            out_gte_in: true,
            ..Default::default()
        };
        let y: f64 = 80.0;
        let poly = 0.0 + 1.70674692 + 1.72643844 * y + -0.00705305 * y * y;
        assert_eq!(t.apply(y), poly.max(y));
        assert_eq!(t.apply(120.0), 120.0); // poly(120) < 120 -> rectified
        let off = ScoreTransform { enabled: false, ..t.clone() };
        assert_eq!(off.apply(y), y);
    }

    #[test]
    fn knots() {
        let t = ScoreTransform {
            enabled: true,
            knots: Some(vec![(0.0, 0.0), (50.0, 30.0), (60.0, 30.0), (100.0, 100.0)]),
            ..Default::default()
        };
        assert_eq!(t.apply(25.0), 25.0 * (30.0 / 50.0) + 0.0);
        assert_eq!(t.apply(55.0), 30.0);
        assert_eq!(t.apply(50.0), 30.0);
        let a = 70.0 / 40.0;
        assert_eq!(t.apply(110.0), a * 110.0 + (30.0 - 60.0 * a));
        assert_eq!(t.apply(-10.0), -10.0 * 0.6);
        // Invalid (decreasing) knots: libvmaf leaves the partial result.
        let bad = ScoreTransform {
            enabled: true,
            knots: Some(vec![(0.0, 0.0), (10.0, 5.0), (5.0, 6.0)]),
            ..Default::default()
        };
        assert_eq!(bad.apply(20.0), 0.0);
        // A single knot is ignored.
        let one = ScoreTransform { enabled: true, knots: Some(vec![(1.0, 2.0)]), ..Default::default() };
        assert_eq!(one.apply(20.0), 20.0);
    }
}
