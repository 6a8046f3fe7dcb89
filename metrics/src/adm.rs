//! libvmaf's integer ADM extractor (`adm`): `integer_adm2`, `integer_aim`, `integer_adm3`,
//! `integer_adm_scale0..3` and, with `debug`, `integer_adm`, `integer_adm_num/den` and the per-scale
//! numerators and denominators — bit for bit with libvmaf's plain-C path.
//!
//! Graph, per scale `s` (0..3), on the luma planes:
//! `adm_dwt` of ref and dis (scale 0 from the samples, scales 1-3 from the previous `a` band) ->
//! `adm_decouple` (restored / artifact) -> `adm_csf` of the artifact -> `adm_cm` (numerator sums);
//! `adm_csf` of the restored part -> `adm_cm` with the roles swapped (AIM sums); `adm_csf_den` of the
//! reference bands (denominator sums). Outputs `{key}/s{s}/num`, `{key}/s{s}/aim` (`i64[3]`) and
//! `{key}/s{s}/den` (`u64[3]`).
//!
//! Host: libvmaf's float steps from those exact sums, in its order and precision — the CSF weights
//! (`dwt_quant_step` of Watson et al. or the Barten / blended tables) in f32 with its f64 intermediates; per
//! band `powf(S / 2^e, 1/3) + powf(area * noise_weight, 1/3)` in f32, bands summed in f32, scales summed in
//! f64; the denominators with the weight cubed in f64 (`pow`) before the f32 cube root. `powf`, `pow`,
//! `log10`, `exp` and `cos` are the C library's (Rust's `f32::powf` etc. call the same glibc functions).

use std::f64::consts::PI;

use vqgraph_graph::{FrameOutputs, GraphBuilder, GraphError, ValueRef};
use vqgraph_ops::adm_cm::AdmCm;
use vqgraph_ops::adm_common::Region;
use vqgraph_ops::adm_csf::AdmCsf;
use vqgraph_ops::adm_csf_den::AdmCsfDen;
use vqgraph_ops::adm_decouple::AdmDecouple;
use vqgraph_ops::adm_dwt::AdmDwt;

use crate::extractor::{Extractor, FeatureValues, Sources, sums_i64};

/// CSF models of libvmaf's `adm_csf_mode`.
pub const CSF_WATSON97: i32 = 0;
pub const CSF_BARTEN: i32 = 1;
pub const CSF_BARTEN_WATSON_BLEND: i32 = 2;
pub const CSF_BARTEN_WATSON_BLEND_MAE: i32 = 3;

/// The integer ADM extractor with libvmaf's options (defaults from `Adm::default()`).
#[derive(Clone, Debug, PartialEq)]
pub struct Adm {
    /// `adm_enhn_gain_limit` (`egl`), 1..=100.
    pub gain_limit: f64,
    /// `debug`: also emit `integer_adm`, `integer_adm_num/den` and the per-scale numerators/denominators.
    pub debug: bool,
    /// `adm_csf_mode` (`csf`): one of the `CSF_*` constants.
    pub csf_mode: i32,
    /// `adm_csf_scale` (`scf`), only used by the Barten CSF.
    pub csf_scale: f64,
    /// `adm_csf_diag_scale` (`scfd`), only used by the Barten CSF.
    pub csf_diag_scale: f64,
    /// `adm_dlm_weight` (`dlmw`): weight of ADM2 against 1 - AIM in `integer_adm3`.
    pub dlm_weight: f64,
    /// `adm_norm_view_dist` (`nvd`).
    pub norm_view_dist: f64,
    /// `adm_ref_display_height` (`rdh`).
    pub ref_display_height: i32,
    /// `adm_noise_weight` (`nw`).
    pub noise_weight: f64,
    /// `adm_min_val` (`min`): lower clip of `integer_adm3`.
    pub min_val: f64,
    /// `adm_skip_aim`: AIM sums are not computed (AIM reads 0).
    pub skip_aim: bool,
    /// `adm_skip_scale0` (`ssz`): scale 0 only feeds the next scale.
    pub skip_scale0: bool,
    /// The frame size, set by [`Adm::for_sources`] (libvmaf's `numden_limit` scales with it, and the band
    /// sizes give the sums' exponents). Public so that options can be set with struct update syntax.
    pub geometry: Option<(usize, usize)>,
    /// What libvmaf appends to every feature name for the non-default options (`_egl_1`), from
    /// `vqgraph_models::ExtractorConfig`.
    pub suffix: String,
}

impl Default for Adm {
    fn default() -> Self {
        Adm {
            gain_limit: 100.0,
            debug: false,
            csf_mode: CSF_WATSON97,
            csf_scale: 1.0,
            csf_diag_scale: 1.0,
            dlm_weight: 0.5,
            norm_view_dist: 3.0,
            ref_display_height: 1080,
            noise_weight: 0.03125,
            min_val: 0.0,
            skip_aim: false,
            skip_scale0: false,
            geometry: None,
            suffix: String::new(),
        }
    }
}

impl Adm {
    /// The extractor with a given enhancement gain limit and libvmaf's other defaults.
    pub fn with_gain_limit(gain_limit: f64) -> Self {
        Adm { gain_limit, ..Adm::default() }
    }

    /// Records the stream geometry the host-side formulas need (`build` takes `&self`).
    pub fn for_sources(mut self, src: &Sources) -> Self {
        self.geometry = Some((src.width, src.height));
        self
    }

    /// The CSF weights `(h and v, d)` of a scale as libvmaf's `rfactor` floats.
    pub fn rfactor(&self, scale: usize) -> Result<[f32; 3], String> {
        let (nvd, rdh) = (self.norm_view_dist, self.ref_display_height);
        let (f1, f2) = match self.csf_mode {
            CSF_WATSON97 => (1.0f32 / dwt_quant_step(scale, 1, nvd, rdh), 1.0f32 / dwt_quant_step(scale, 2, nvd, rdh)),
            CSF_BARTEN => (
                barten_csf(scale, nvd, rdh, DEFAULT_CSF_LUM, self.csf_scale),
                barten_csf(scale, nvd, rdh, DEFAULT_CSF_LUM, self.csf_diag_scale),
            ),
            CSF_BARTEN_WATSON_BLEND | CSF_BARTEN_WATSON_BLEND_MAE => {
                let t = blend_table(self.csf_mode == CSF_BARTEN_WATSON_BLEND_MAE, rdh, nvd).ok_or_else(|| {
                    format!("adm_csf_mode {} has no table for display height {rdh} at {nvd}H", self.csf_mode)
                })?;
                (t[0][scale] as f32, t[1][scale] as f32)
            }
            m => return Err(format!("adm_csf_mode must be 0..=3, got {m}")),
        };
        Ok([f1, f1, f2])
    }

    /// Scale 0's fixed-point weights (`i_rfactor`, Q21/Q21/Q23): libvmaf hard-codes them for its default
    /// viewing geometry under the Watson CSF.
    fn i_rfactor0(&self, rf: [f32; 3]) -> [u16; 3] {
        let default_geometry = (self.norm_view_dist * self.ref_display_height as f64 - 3.0 * 1080.0).abs() < 1.0e-8;
        if default_geometry && self.csf_mode == CSF_WATSON97 {
            [36453, 36453, 49417]
        } else {
            let (q21, q23) = (2f64.powf(21.0), 2f64.powf(23.0));
            [(rf[0] as f64 * q21) as u16, (rf[1] as f64 * q21) as u16, (rf[2] as f64 * q23) as u16]
        }
    }

    /// Scales 1-3's Q32 weights.
    fn i_rfactor123(rf: [f32; 3]) -> [u32; 3] {
        let q32 = 2f64.powf(32.0);
        rf.map(|f| (f as f64 * q32) as u32)
    }

    fn geometry(&self) -> (usize, usize) {
        self.geometry.expect("internal: Adm used without for_sources")
    }

    fn check(&self) -> Result<(), String> {
        if self.norm_view_dist * (self.ref_display_height as f64) < 3.0 * 1080.0 {
            // libvmaf's extract() refuses these: its 16-bit pipeline cannot represent the lower frequencies.
            return Err(format!(
                "adm_norm_view_dist * adm_ref_display_height must be at least 3 * 1080, got {} * {}",
                self.norm_view_dist, self.ref_display_height
            ));
        }
        if !(1.0..=100.0).contains(&self.gain_limit) {
            return Err(format!("adm_enhn_gain_limit must be in 1..=100, got {}", self.gain_limit));
        }
        for s in 0..4 {
            self.rfactor(s)?;
        }
        Ok(())
    }

    /// `(band width, band height)` of each scale for a `w` x `h` frame.
    fn band_sizes(w: usize, h: usize) -> [(usize, usize); 4] {
        let mut s = [(0, 0); 4];
        let (mut bw, mut bh) = (w, h);
        for e in s.iter_mut() {
            (bw, bh) = (bw.div_ceil(2), bh.div_ceil(2));
            *e = (bw, bh);
        }
        s
    }
}

const DEFAULT_CSF_LUM: f64 = 100.0;

impl Extractor for Adm {
    fn key(&self) -> String {
        format!("adm{}", self.suffix)
    }

    fn build(&self, b: &mut GraphBuilder, src: &Sources) -> Result<(), GraphError> {
        let key = self.key();
        let bad = |reason: String| GraphError::BadInputs { node: key.clone(), op: "adm".into(), reason };
        self.check().map_err(bad)?;
        let r = src.plane(b, "ref", 'y')?;
        let d = src.plane(b, "dis", 'y')?;
        let (mut ra, mut da): (ValueRef, ValueRef) = (r, d);
        for scale in 0..4u8 {
            let dwt = if scale == 0 { AdmDwt::scale0(src.bpc) } else { AdmDwt::scale(scale) };
            let rb = b.op(&format!("{key}.s{scale}.dwt_ref"), dwt, &[ra])?;
            let db = b.op(&format!("{key}.s{scale}.dwt_dis"), dwt, &[da])?;
            (ra, da) = (rb[0], db[0]);
            if scale == 0 && self.skip_scale0 {
                continue;
            }
            let s = scale as usize;
            let rf = self.rfactor(s).map_err(bad)?;
            let (csf, cm) = if scale == 0 {
                let i = self.i_rfactor0(rf);
                (AdmCsf::scale0(i), AdmCm { scale, rfactor: i.map(u32::from) })
            } else {
                let i = Adm::i_rfactor123(rf);
                (AdmCsf::scale123(i), AdmCm { scale, rfactor: i })
            };
            let dec = b.op(
                &format!("{key}.s{scale}.decouple"),
                AdmDecouple { gain_limit: self.gain_limit },
                &[rb[1], rb[2], rb[3], db[1], db[2], db[3]],
            )?;
            let den = b.op1(&format!("{key}.s{scale}.den"), AdmCsfDen { scale }, &[rb[1], rb[2], rb[3]])?;
            b.output(&format!("{key}/s{scale}/den"), den)?;
            let csf_a = b.op(&format!("{key}.s{scale}.csf_art"), csf, &[dec[3], dec[4], dec[5]])?;
            let num =
                b.op1(&format!("{key}.s{scale}.cm_num"), cm, &[dec[0], dec[1], dec[2], csf_a[0], csf_a[1], csf_a[2]])?;
            b.output(&format!("{key}/s{scale}/num"), num)?;
            if !self.skip_aim {
                let csf_r = b.op(&format!("{key}.s{scale}.csf_rst"), csf, &[dec[0], dec[1], dec[2]])?;
                let aim = b.op1(
                    &format!("{key}.s{scale}.cm_aim"),
                    cm,
                    &[dec[3], dec[4], dec[5], csf_r[0], csf_r[1], csf_r[2]],
                )?;
                b.output(&format!("{key}/s{scale}/aim"), aim)?;
            }
        }
        Ok(())
    }

    fn frame(&self, out: &FrameOutputs) -> FeatureValues {
        let key = self.key();
        let (w, h) = self.geometry();
        let bands = Adm::band_sizes(w, h);
        let third = 1.0f32 / 3.0f32;
        let (mut num, mut den, mut aim_num) = (0f64, 0f64, 0f64);
        let mut scores = [0f64; 8];
        for (s, &(bw, bh)) in bands.iter().enumerate() {
            let (mut num_scale, mut den_scale, mut aim_scale) = (0f32, 0f32, 0f32);
            if s == 0 && self.skip_scale0 {
                den_scale = 1e-10f64 as f32; // libvmaf: "avoid divide by zero"
            } else {
                let area = Region::of(bw, bh).area() as f64;
                let rf = self.rfactor(s).expect("checked by build");
                let cm = AdmCm { scale: s as u8, rfactor: [0; 3] };
                let e = cm.exponents(bw, bh);
                let cm_value = |sums: &[i64], noise_weight: f64| -> f32 {
                    let add = (area * noise_weight) as f32;
                    let add = add.powf(third);
                    let mut total = 0f32;
                    for b in 0..3 {
                        let f = if s == 0 {
                            (sums[b] as f64 / 2f64.powf(e[b] as f64)) as f32
                        } else {
                            sums[b] as f32 / 2f64.powf(e[b] as f64) as f32
                        };
                        total += f.powf(third) + add;
                    }
                    total
                };
                num_scale = cm_value(&sums_i64(out, &format!("{key}/s{s}/num")), self.noise_weight);
                if !self.skip_aim {
                    aim_scale = cm_value(&sums_i64(out, &format!("{key}/s{s}/aim")), 0.0);
                }
                let dsum = sums_u64(out, &format!("{key}/s{s}/den"));
                let de = AdmCsfDen { scale: s as u8 }.exponent(bw, bh);
                let shift_csf = if de < 0 && s > 0 { f64::INFINITY } else { 2f64.powf(de as f64) };
                let add = ((area * self.noise_weight) as f32).powf(third);
                for b in 0..3 {
                    let csf = (dsum[b] as f64 / shift_csf) * (rf[b] as f64).powf(3.0);
                    den_scale += (csf as f32).powf(third) + add;
                }
            }
            num += num_scale as f64;
            den += den_scale as f64;
            aim_num += aim_scale as f64;
            scores[2 * s] = num_scale as f64;
            scores[2 * s + 1] = den_scale as f64;
        }
        let numden_limit = 1e-10 * (w * h) as f64 / (1920.0 * 1080.0);
        if num < numden_limit {
            num = 0.0;
        }
        if den < numden_limit {
            den = 0.0;
        }
        // libvmaf leaves the AIM score unset when the denominator is zero; 0 is what a zeroed buffer gives.
        let (score, score_aim) = if den == 0.0 { (1.0, 0.0) } else { (num / den, aim_num / den) };
        let adm3 = {
            let v = score * self.dlm_weight + (1.0 - score_aim) * (1.0 - self.dlm_weight);
            if v > self.min_val { v } else { self.min_val }
        };
        let sfx = &self.suffix;
        let mut v: FeatureValues = vec![
            (format!("integer_adm2{sfx}"), score),
            (format!("integer_aim{sfx}"), score_aim),
            (format!("integer_adm3{sfx}"), adm3),
        ];
        for s in 0..4 {
            v.push((format!("integer_adm_scale{s}{sfx}"), scores[2 * s] / scores[2 * s + 1]));
        }
        if self.debug {
            v.push((format!("integer_adm{sfx}"), score));
            v.push((format!("integer_adm_num{sfx}"), num));
            v.push((format!("integer_adm_den{sfx}"), den));
            for s in 0..4 {
                v.push((format!("integer_adm_num_scale{s}{sfx}"), scores[2 * s]));
                v.push((format!("integer_adm_den_scale{s}{sfx}"), scores[2 * s + 1]));
            }
        }
        v
    }
}

/// Reads a named `u64` sums output.
fn sums_u64(out: &FrameOutputs, name: &str) -> Vec<u64> {
    sums_i64(out, name).into_iter().map(|x| x as u64).collect()
}

/// Watson et al.'s wavelet noise-visibility model, as libvmaf's `dwt_quant_step` (luma parameters).
fn dwt_quant_step(lambda: usize, theta: usize, nvd: f64, rdh: i32) -> f32 {
    // libvmaf's float tables are initialised from double literals.
    let a = 0.495f64 as f32;
    let k = 0.466f64 as f32;
    let f0 = 0.401f64 as f32;
    let g = [1.501f64 as f32, 1.0, 0.534f64 as f32, 1.0];
    let amp = BASIS_AMPLITUDES[lambda][theta] as f32;
    let r = (nvd * rdh as f64 * PI / 180.0) as f32;
    let temp = (2f64.powf((lambda + 1) as f64) * f0 as f64 * g[theta] as f64 / r as f64).log10() as f32;
    (2.0 * a as f64 * 10f64.powf((k * temp * temp) as f64) / amp as f64) as f32
}

/// Watson et al.'s basis function amplitudes `A[lambda][theta]` (transposed Table V).
const BASIS_AMPLITUDES: [[f64; 4]; 6] = [
    [0.62171, 0.67234, 0.72709, 0.67234],
    [0.34537, 0.41317, 0.49428, 0.41317],
    [0.18004, 0.22727, 0.28688, 0.22727],
    [0.091401, 0.11792, 0.15214, 0.11792],
    [0.045943, 0.059758, 0.077727, 0.059758],
    [0.023013, 0.030018, 0.039156, 0.030018],
];

/// libvmaf's blended Barten/Watson CSF tables `[theta][scale]` for the supported viewing geometries.
fn blend_table(mae: bool, rdh: i32, nvd: f64) -> Option<[[f64; 4]; 2]> {
    let t = match (rdh, nvd) {
        (1080, 3.0) | (2160, 1.5) => [B1080_3H, B1080_3H_MAE],
        (1080, 5.0) => [B1080_5H, B1080_5H_MAE],
        (2160, 3.0) => [B2160_3H, B2160_3H_MAE],
        (2160, 5.0) => [B2160_5H, B2160_5H_MAE],
        (720, 3.0) => [B720_3H, B720_3H_MAE],
        (720, 5.0) => [B720_5H, B720_5H_MAE],
        (480, 3.0) => [B480_3H, B480_3H_MAE],
        (480, 5.0) => [B480_5H, B480_5H_MAE],
        _ => return None,
    };
    Some(t[mae as usize])
}

type Blend = [[f64; 4]; 2];
const B1080_3H: Blend = [[0.01183, 0.025026, 0.04295, 0.058621], [0.004302, 0.011778, 0.023918, 0.035901]];
const B1080_5H: Blend = [[0.004212, 0.014809, 0.029642, 0.047464], [0.000984, 0.005852, 0.0146, 0.027574]];
const B2160_3H: Blend = [[0.00226, 0.01183, 0.025026, 0.04295], [0.000479, 0.004302, 0.011778, 0.023918]];
const B2160_5H: Blend = [[0.000092, 0.004212, 0.014809, 0.029642], [0.000050, 0.000984, 0.005852, 0.0146]];
const B720_3H: Blend = [[0.018715, 0.035637, 0.052798, 0.061509], [0.007999, 0.018396, 0.031851, 0.037718]];
const B720_5H: Blend = [[0.010144, 0.022561, 0.040309, 0.05672], [0.003463, 0.010282, 0.021839, 0.034641]];
const B480_3H: Blend = [[0.027961, 0.045875, 0.060275, 0.056234], [0.013572, 0.026277, 0.036959, 0.034511]];
const B480_5H: Blend = [[0.016781, 0.032822, 0.05032, 0.061594], [0.00691, 0.016545, 0.029917, 0.037777]];
const B1080_3H_MAE: Blend = [[0.011249, 0.022606, 0.035930, 0.045673], [0.004097, 0.010921, 0.021430, 0.031313]];
const B1080_5H_MAE: Blend = [[0.004052, 0.013939, 0.026298, 0.038833], [0.000927, 0.005544, 0.013415, 0.024515]];
const B2160_3H_MAE: Blend = [[0.002166, 0.011249, 0.022606, 0.035930], [0.000447, 0.004097, 0.010921, 0.021430]];
const B2160_5H_MAE: Blend = [[0.000077, 0.004052, 0.013939, 0.026298], [0.000045, 0.000927, 0.005544, 0.013415]];
const B720_3H_MAE: Blend = [[0.017329, 0.030870, 0.042134, 0.047410], [0.007509, 0.016707, 0.028072, 0.032722]];
const B720_5H_MAE: Blend = [[0.009689, 0.020577, 0.034162, 0.044523], [0.003302, 0.009579, 0.019661, 0.030318]];
const B480_3H_MAE: Blend = [[0.024969, 0.037825, 0.046676, 0.043974], [0.012511, 0.023424, 0.032139, 0.030166]];
const B480_5H_MAE: Blend = [[0.015665, 0.028766, 0.040612, 0.047483], [0.006514, 0.015107, 0.026476, 0.032776]];

/// Barten's CSF as simplified in HDR-VDP-2, as libvmaf's `barten_csf` computes it (f32 with f64 library
/// calls). Not exercised by the reference corpus.
fn barten_csf(lambda: usize, nvd: f64, rdh: i32, lum: f64, scale: f64) -> f32 {
    const ANCHORS: [f64; 6] = [0.002, 0.02, 0.2, 2.0, 20.0, 150.0];
    const PARAMS: [[f64; 5]; 6] = [
        [0.0160737, 0.991265, 3.74038, 0.50722, 4.46044],
        [0.383873, 0.800889, 3.54104, 0.682505, 4.94958],
        [0.929301, 0.476505, 4.37453, 0.750315, 5.28678],
        [1.29776, 0.405782, 4.40602, 0.935314, 5.61425],
        [1.49222, 0.334278, 3.79542, 1.07327, 6.4635],
        [1.46213, 0.394533, 2.7755, 1.16577, 7.45665],
    ];
    let anchor = |i: usize| ANCHORS[i] as f32;
    let param = |i: usize, k: usize| PARAMS[i][k] as f32;
    let lerp = |lp: f32, lv: f32, rp: f32, rv: f32, sp: f32| lv + ((rv - lv) / (rp - lp)) * (sp - lp);

    let r = (nvd * rdh as f64 * PI / 180.0) as f32;
    let sf = (r as f64 / 2f64.powf((lambda + 1) as f64)) as f32;
    let clamped = if lum > anchor(5) as f64 {
        anchor(5) as f64
    } else if lum < anchor(0) as f64 {
        anchor(0) as f64
    } else {
        lum
    };
    let (mut li, mut ri) = (0, 0);
    for i in 0..5 {
        if clamped >= anchor(i) as f64 && clamped <= anchor(i + 1) as f64 {
            (li, ri) = (i, i + 1);
            break;
        }
    }
    let lp = (anchor(li) as f64).log10() as f32;
    let rp = (anchor(ri) as f64).log10() as f32;
    let sp = clamped.log10() as f32;
    let p = [1, 2, 3, 4].map(|k| lerp(lp, param(li, k), rp, param(ri, k), sp));
    let a = (1.0f64 + ((p[0] * sf) as f64).powf(p[1] as f64)) as f32;
    let b = (1.0f64 / (1.0 - (-((sf / 7.0) as f64).powf(2.0)).exp()).powf(p[2] as f64)) as f32;
    let csf = (p[3] as f64 / ((a * b) as f64).powf(0.5)) as f32;

    // MTF part.
    const MTF_A: [f64; 4] = [0.424838596301290, 0.572435103936480, 0.000167576239164937, 0.00255872352306433];
    const MTF_B: [f64; 4] = [0.028, 0.37, 37.0, 360.0];
    let mut mtf = 0f32;
    for i in 0..4 {
        mtf = (mtf as f64 + MTF_A[i] as f32 as f64 * ((-(MTF_B[i] as f32) * sf) as f64).exp()) as f32;
    }
    // Luminance part (its argument is a float in libvmaf).
    const SA: [f64; 4] = [30.162, 4.0627, 1.6596, 0.2712];
    let l = lum as f32;
    let sa = |i: usize| SA[i] as f32;
    let rod_cone = (sa(0) as f64 * (((sa(1) / l) as f64).powf(sa(2) as f64) + 1.0).powf(-(sa(3) as f64))) as f32;
    ((csf * mtf * rod_cone) as f64 * scale) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn watson_weights_near_libvmaf_fixed_point() {
        // libvmaf hard-codes scale 0's Q21/Q23 weights (36453, 49417) for 3H at 1080p rather than
        // converting its float model's (36451.7, 49414.7); other geometries use the conversion.
        let rf = Adm::default().rfactor(0).unwrap();
        let q = [rf[0] as f64 * 2f64.powi(21), rf[2] as f64 * 2f64.powi(23)];
        assert!((q[0] - 36453.0).abs() < 3.0 && (q[1] - 49417.0).abs() < 3.0, "{q:?}");
    }

    #[test]
    fn unsupported_options_are_graph_errors() {
        let src = Sources { width: 64, height: 64, chroma_width: 32, chroma_height: 32, bpc: 8 };
        let mut b = GraphBuilder::new();
        let near = Adm { norm_view_dist: 1.0, ..Adm::default() }.for_sources(&src);
        assert!(near.build(&mut b, &src).is_err());
        let blend = Adm { csf_mode: CSF_BARTEN_WATSON_BLEND, ref_display_height: 1000, ..Adm::default() };
        assert!(blend.for_sources(&src).build(&mut b, &src).is_err());
        assert!(Adm::default().for_sources(&src).build(&mut b, &src).is_ok());
    }
}
