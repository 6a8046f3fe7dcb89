//! libvmaf's integer `psnr` extractor: `psnr_y/cb/cr`, optionally `mse_*`, and the aggregate `apsnr_*`.
//!
//! Graph: one `sq_err_sum` per plane. Host: libvmaf's formulas in f64 — `mse = sse / (w*h)`,
//! `psnr = min(10 log10(peak^2 / max(mse, 1e-16)), 6*bpc + 12)` (peak 255 for 8-bit, else `2^bpc - 1`),
//! and over the whole stream `apsnr = min(10 (log10 peak^2 + log10 N - log10 SSE), ceil(10 log10(2 N peak^2)))`.

use vqgraph_graph::{FrameOutputs, GraphBuilder, GraphError};
use vqgraph_ops::sq_err_sum::SqErrSum;

use crate::extractor::{Extractor, FeatureValues, Sources, sums_i64};

const PLANES: [(char, &str); 3] = [('y', "y"), ('u', "cb"), ('v', "cr")];

/// PSNR with libvmaf's options.
#[derive(Clone, Debug, PartialEq)]
pub struct Psnr {
    pub enable_chroma: bool,
    pub enable_mse: bool,
    pub enable_apsnr: bool,
    /// Set by `build` from the sources: bits per component and plane sizes.
    geometry: Option<(u32, [usize; 3])>,
}

impl Psnr {
    pub fn new(enable_chroma: bool, enable_mse: bool, enable_apsnr: bool) -> Self {
        Psnr { enable_chroma, enable_mse, enable_apsnr, geometry: None }
    }

    /// Sets the stream geometry used by the host-side formulas (done by `build`'s caller through
    /// [`Psnr::for_sources`], since `build` takes `&self`).
    pub fn for_sources(mut self, src: &Sources) -> Self {
        let luma = src.width * src.height;
        let chroma = src.chroma_width * src.chroma_height;
        self.geometry = Some((src.bpc, [luma, chroma, chroma]));
        if chroma == 0 {
            self.enable_chroma = false;
        }
        self
    }

    fn planes(&self) -> usize {
        if self.enable_chroma { 3 } else { 1 }
    }

    fn peak(bpc: u32) -> f64 {
        // libvmaf's 8-bit path hard-codes 255; its high-bit-depth path uses 2^bpc - 1.
        if bpc == 8 { 255.0 } else { ((1u32 << bpc) - 1) as f64 }
    }

    fn geometry(&self) -> (u32, [usize; 3]) {
        self.geometry.expect("internal: Psnr used without for_sources")
    }
}

impl Extractor for Psnr {
    fn key(&self) -> String {
        "psnr".into()
    }

    fn build(&self, b: &mut GraphBuilder, src: &Sources) -> Result<(), GraphError> {
        // apsnr sums all three planes even without enable_chroma, as libvmaf does.
        let n = if self.enable_apsnr && src.chroma_width > 0 { 3 } else { self.planes() };
        for &(plane, name) in &PLANES[..n] {
            let r = src.plane(b, "ref", plane)?;
            let d = src.plane(b, "dis", plane)?;
            let sse = b.op1(&format!("psnr.sse_{name}"), SqErrSum, &[r, d])?;
            b.output(&format!("psnr/sse_{name}"), sse)?;
        }
        Ok(())
    }

    fn frame(&self, out: &FrameOutputs) -> FeatureValues {
        let (bpc, px) = self.geometry();
        let peak = Self::peak(bpc);
        let psnr_max = (6 * bpc + 12) as f64;
        let mut v = Vec::new();
        for (p, (_, name)) in PLANES[..self.planes()].iter().enumerate() {
            let sse = sums_i64(out, &format!("psnr/sse_{name}"))[0] as u64;
            let mse = sse as f64 / px[p] as f64;
            let psnr = (10.0 * (peak * peak / mse.max(1e-16)).log10()).min(psnr_max);
            v.push((format!("psnr_{name}"), psnr));
            if self.enable_mse {
                v.push((format!("mse_{name}"), mse));
            }
        }
        v
    }

    fn aggregate(&self, frames: &[FrameOutputs]) -> Vec<(String, f64)> {
        if !self.enable_apsnr {
            return Vec::new();
        }
        let (bpc, px) = self.geometry();
        let peak = ((1u64 << bpc) - 1) as u32;
        let peak_sq = (peak * peak) as f64;
        let mut out = Vec::new();
        for (p, (_, name)) in PLANES.iter().enumerate() {
            let sse: u64 = frames.iter().map(|f| sums_i64(f, &format!("psnr/sse_{name}"))[0] as u64).sum();
            let n = (px[p] * frames.len()) as u64;
            let apsnr = 10.0 * (peak_sq.log10() + (n as f64).log10() - (sse as f64).log10());
            let max_apsnr = (10.0 * ((peak as u64 * peak as u64 * n * 2) as f64).log10()).ceil();
            out.push((format!("apsnr_{name}"), apsnr.min(max_apsnr)));
        }
        out
    }
}
