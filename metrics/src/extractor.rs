//! The `Extractor` trait every metric file implements, and the description of the frames it reads.

use vqgraph_graph::{Elem, FrameOutputs, GraphBuilder, GraphError, ValueRef, ValueType};

/// Features of one frame, in the order libvmaf prints them: (printed name, value).
pub type FeatureValues = Vec<(String, f64)>;

/// Geometry and depth of the frames a graph will read. Planes are graph inputs named `ref.y`, `dis.y`,
/// `ref.u`, `dis.u`, `ref.v`, `dis.v`, each `plane<u16>` holding the samples as they are in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sources {
    pub width: usize,
    pub height: usize,
    /// Chroma plane size (equal to luma for 4:4:4; 0x0 for monochrome).
    pub chroma_width: usize,
    pub chroma_height: usize,
    /// Bits per component: 8, 10, 12 or 16.
    pub bpc: u32,
}

impl Sources {
    /// Declares (or reuses) the input plane `"{side}.{plane}"`, e.g. `("ref", 'y')`.
    pub fn plane(&self, b: &mut GraphBuilder, side: &str, plane: char) -> Result<ValueRef, GraphError> {
        let (w, h) = if plane == 'y' { (self.width, self.height) } else { (self.chroma_width, self.chroma_height) };
        b.input(&format!("{side}.{plane}"), ValueType::plane(Elem::U16, w, h))
    }
}

/// One libvmaf feature extractor (with its options fixed), written as a graph.
pub trait Extractor: Send + Sync {
    /// Unique key of this instance, used to prefix its graph outputs (e.g. `vif`, `vif_egl_1`).
    fn key(&self) -> String;

    /// Adds this extractor's ops to the graph; its outputs are named `"{key}/..."`.
    fn build(&self, b: &mut GraphBuilder, src: &Sources) -> Result<(), GraphError>;

    /// Feature values of one frame from that frame's sums.
    fn frame(&self, out: &FrameOutputs) -> FeatureValues;

    /// Features that need the whole sequence (motion2/motion3), added to the per-frame lists.
    fn sequence(&self, _frames: &mut [FeatureValues]) {}

    /// Stream-level values (libvmaf's `aggregate_metrics`, e.g. `apsnr_y`) from every frame's sums.
    fn aggregate(&self, _frames: &[FrameOutputs]) -> Vec<(String, f64)> {
        Vec::new()
    }
}

/// Reads a named sums output as i64 values (panics only on an internal naming bug: the extractor built
/// the graph that produced `out`).
pub fn sums_i64(out: &FrameOutputs, name: &str) -> Vec<i64> {
    let buf = out.get(name).unwrap_or_else(|| panic!("internal: graph output {name:?} missing"));
    match buf {
        vqgraph_graph::HostBuf::I64(v) => v.clone(),
        vqgraph_graph::HostBuf::U64(v) => v.iter().map(|&x| x as i64).collect(),
        other => panic!("internal: graph output {name:?} has type {:?}", other.elem()),
    }
}
