//! libvmaf's integer `vif` extractor: `integer_vif_scale0..3`, and with `debug` the totals and per-scale
//! numerators/denominators.
//!
//! Graph (luma only): scale 0 is the frame itself; each further scale is the previous one filtered with
//! that scale's taps (`sep_conv`: vertical `(acc + 2^(bpc-1)) >> bpc` from scale 0, else
//! `(acc + 32768) >> 16`; horizontal `(acc + 32768) >> 16`; u16) and `decimate`d 2x. Each scale's
//! `vif_stats` yields four exact sums, output as `{key}/scale{n}`.
//!
//! Host, as libvmaf's `vif_statistic_*` epilogue and `write_scores` (in C `float` where libvmaf stores
//! floats, so the printed digits match):
//!
//! ```text
//! num[s] = (float)(num_log / 2048.0 + (den_non_log - (num_non_log / 16384.0) / 65025.0))
//! den[s] = (float)(den_log / 2048.0 + den_non_log)
//! integer_vif_scale{s} = num[s] / den[s]                 (float division)
//! integer_vif = Σ(double)num / Σ(double)den (1.0 if that den is 0); integer_vif_num/den = those sums
//! ```
//!
//! Options: `gain_limit` (`vif_enhn_gain_limit`, default 100; the neg models use 1.0) and `skip_scale0`
//! (`vif_skip_scale0`: scale 0 reads 0, its debug num/den 0 and -1, and totals use scales 1..3). Options
//! that differ from their defaults suffix every feature name (`suffix`, e.g. `_egl_1`), named by the caller
//! with libvmaf's rules (`vqgraph_models::ExtractorConfig`).

use vqgraph_graph::{Elem, FrameOutputs, GraphBuilder, GraphError};
use vqgraph_ops::decimate::Decimate;
use vqgraph_ops::sep_conv::SepConv;
use vqgraph_ops::vif_stats::{DEFAULT_GAIN_LIMIT, DEN_LOG, DEN_NON_LOG, NUM_LOG, NUM_NON_LOG, VIF_FILTERS, VifStats};

use crate::extractor::{Extractor, FeatureValues, Sources, sums_i64};

/// The integer VIF extractor with libvmaf's options.
#[derive(Clone, Debug, PartialEq)]
pub struct Vif {
    /// `vif_enhn_gain_limit`, in [1, 100].
    pub gain_limit: f64,
    /// libvmaf's `debug`: also print `integer_vif`, `integer_vif_num/den` and the per-scale num/den.
    pub debug: bool,
    /// `vif_skip_scale0`.
    pub skip_scale0: bool,
    /// What libvmaf appends to every feature name for the non-default options (`_egl_1`), from
    /// `vqgraph_models::ExtractorConfig`.
    pub suffix: String,
}

impl Default for Vif {
    fn default() -> Self {
        Vif { gain_limit: DEFAULT_GAIN_LIMIT, debug: false, skip_scale0: false, suffix: String::new() }
    }
}

/// One scale's numerator and denominator as libvmaf keeps them (C `float`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScaleNumDen {
    pub num: f32,
    pub den: f32,
}

impl ScaleNumDen {
    /// libvmaf's epilogue of `vif_statistic_8/16`: f64 arithmetic in its order, stored as float.
    pub fn from_sums(s: &[i64]) -> Self {
        let num = s[NUM_LOG] as f64 / 2048.0 + (s[DEN_NON_LOG] as f64 - (s[NUM_NON_LOG] as f64 / 16384.0) / 65025.0);
        let den = s[DEN_LOG] as f64 / 2048.0 + s[DEN_NON_LOG] as f64;
        ScaleNumDen { num: num as f32, den: den as f32 }
    }
}

impl Vif {
    /// The default extractor with the given gain limit (1.0 for the `neg` models).
    pub fn with_gain_limit(gain_limit: f64) -> Self {
        Vif { gain_limit, ..Vif::default() }
    }

    fn output(&self, scale: usize) -> String {
        format!("{}/scale{scale}", self.key())
    }

    /// Per-scale num/den of one frame (`None` for a skipped scale 0).
    pub fn num_den(&self, out: &FrameOutputs) -> [Option<ScaleNumDen>; 4] {
        std::array::from_fn(|s| {
            if s == 0 && self.skip_scale0 {
                None
            } else {
                Some(ScaleNumDen::from_sums(&sums_i64(out, &self.output(s))))
            }
        })
    }
}

impl Extractor for Vif {
    fn key(&self) -> String {
        format!("vif{}", self.suffix)
    }

    fn build(&self, b: &mut GraphBuilder, src: &Sources) -> Result<(), GraphError> {
        let key = self.key();
        let mut r = src.plane(b, "ref", 'y')?;
        let mut d = src.plane(b, "dis", 'y')?;
        for (s, taps) in VIF_FILTERS.iter().enumerate() {
            if s > 0 {
                // libvmaf's subsample_rd_8/16: the first pre-filter scales samples of bpc bits to 16 bits.
                let v_shift = if s == 1 { src.bpc } else { 16 };
                let mut conv = SepConv::rounded(taps, v_shift, 16, Elem::U16);
                if s == 1 {
                    // Raw samples: the reader guarantees they fit in bpc bits.
                    conv.input_max = Some((1 << src.bpc) - 1);
                }
                let rf = b.op1(&format!("{key}.s{s}.filter_ref"), conv.clone(), &[r])?;
                let df = b.op1(&format!("{key}.s{s}.filter_dis"), conv, &[d])?;
                r = b.op1(&format!("{key}.s{s}.decimate_ref"), Decimate, &[rf])?;
                d = b.op1(&format!("{key}.s{s}.decimate_dis"), Decimate, &[df])?;
            }
            if s == 0 && self.skip_scale0 {
                continue;
            }
            let stats = b.op1(&format!("{key}.s{s}.stats"), VifStats::new(s, src.bpc, self.gain_limit), &[r, d])?;
            b.output(&self.output(s), stats)?;
        }
        Ok(())
    }

    fn frame(&self, out: &FrameOutputs) -> FeatureValues {
        let sfx = &self.suffix;
        let nd = self.num_den(out);
        let mut v = Vec::with_capacity(if self.debug { 15 } else { 4 });
        for (s, x) in nd.iter().enumerate() {
            // A skipped scale 0 prints 0.0f.
            let score = x.map_or(0.0, |x| (x.num / x.den) as f64);
            v.push((format!("integer_vif_scale{s}{sfx}"), score));
        }
        if !self.debug {
            return v;
        }
        let (mut num, mut den) = (0.0f64, 0.0f64);
        for x in nd.iter().flatten() {
            num += x.num as f64;
            den += x.den as f64;
        }
        let score = if den == 0.0 { 1.0 } else { num / den };
        v.push((format!("integer_vif{sfx}"), score));
        v.push((format!("integer_vif_num{sfx}"), num));
        v.push((format!("integer_vif_den{sfx}"), den));
        for (s, x) in nd.iter().enumerate() {
            let (n, d) = x.map_or((0.0, -1.0), |x| (x.num as f64, x.den as f64));
            v.push((format!("integer_vif_num_scale{s}{sfx}"), n));
            v.push((format!("integer_vif_den_scale{s}{sfx}"), d));
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use vqgraph_graph::{GraphBuilder, HostBuf};

    use super::*;

    #[test]
    fn num_den_follow_the_c_epilogue() {
        // den = 4096/2048 + 3 = 5; num = 2048/2048 + (3 - (16384*65025/16384)/65025) = 1 + 2 = 3.
        let x = ScaleNumDen::from_sums(&[2048, 4096, 16384 * 65025, 3]);
        assert_eq!(x, ScaleNumDen { num: 3.0, den: 5.0 });
    }

    #[test]
    fn graph_has_four_scales_and_skip_drops_scale0() {
        let src = Sources { width: 64, height: 48, chroma_width: 32, chroma_height: 24, bpc: 10 };
        for (vif, n) in [(Vif::default(), 4), (Vif { skip_scale0: true, ..Vif::default() }, 3)] {
            let mut b = GraphBuilder::new();
            vif.build(&mut b, &src).unwrap();
            let g = b.build().unwrap();
            assert_eq!(g.outputs.len(), n);
            let text = g.to_string();
            assert!(text.contains("v=(+512)>>10"), "first pre-filter rounds by bpc:\n{text}");
            assert!(text.contains("plane<u16>[8x6]"), "scale 3 is 8x6:\n{text}");
        }
    }

    #[test]
    fn frame_features_in_libvmaf_order() {
        let vif = Vif { debug: true, skip_scale0: true, suffix: "_ssclz".into(), ..Vif::default() };
        let sums = |k: i64| HostBuf::I64(vec![2048 * k, 4096 * k, 0, 0]);
        let out = FrameOutputs { values: (1..4).map(|s| (format!("vif_ssclz/scale{s}"), sums(s as i64))).collect() };
        let f = vif.frame(&out);
        let names: Vec<&str> = f.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names[..5],
            [
                "integer_vif_scale0_ssclz",
                "integer_vif_scale1_ssclz",
                "integer_vif_scale2_ssclz",
                "integer_vif_scale3_ssclz",
                "integer_vif_ssclz"
            ]
        );
        assert_eq!(f.len(), 15);
        assert_eq!(f[0].1, 0.0);
        assert_eq!(f[1].1, 0.5);
        assert_eq!(f[4].1, 0.5);
        assert_eq!((f[7].1, f[8].1), (0.0, -1.0));
    }
}
