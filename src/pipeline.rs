//! Scoring a pair of streams: build one graph from a set of extractors, run it frame by frame on a backend,
//! and turn the per-frame sums into libvmaf's per-frame features and aggregates.

use vqgraph_graph::{Backend, FrameOutputs, Graph, GraphBuilder, RunError, Value};
use vqgraph_metrics::{Extractor, FeatureValues, Sources};

use crate::error::InputError;
use crate::io::{Frame, VideoFormat};

/// Everything a scoring run produced, before models are applied.
#[derive(Clone, Debug, Default)]
pub struct FeatureScores {
    /// Per frame, the features in extractor order.
    pub frames: Vec<FeatureValues>,
    /// Stream-level values (`apsnr_*`).
    pub aggregate: Vec<(String, f64)>,
}

/// Errors of a scoring run.
#[derive(Debug, thiserror::Error)]
pub enum ScoreError {
    #[error("{0}")]
    Input(#[from] InputError),
    #[error("{0}")]
    Graph(#[from] vqgraph_graph::GraphError),
    #[error("{0}")]
    Run(#[from] RunError),
}

/// The graph inputs' geometry for a video format.
pub fn sources(f: &VideoFormat) -> Sources {
    let (cw, ch) = f.chroma_size();
    Sources { width: f.width, height: f.height, chroma_width: cw, chroma_height: ch, bpc: f.bpc }
}

/// Builds one graph holding every extractor.
pub fn build_graph(extractors: &[Box<dyn Extractor>], src: &Sources) -> Result<Graph, vqgraph_graph::GraphError> {
    let mut b = GraphBuilder::new();
    for e in extractors {
        e.build(&mut b, src)?;
    }
    b.build()
}

/// Graph input values for one pair of frames, in the graph's input order.
pub fn frame_inputs(graph: &Graph, src: &Sources, r: &Frame, d: &Frame) -> Vec<Value> {
    graph
        .inputs
        .iter()
        .map(|(name, _)| {
            let (side, plane) = name.split_once('.').expect("internal: input names are side.plane");
            let f = if side == "ref" { r } else { d };
            let (data, w, h) = match plane {
                "y" => (&f.y, src.width, src.height),
                "u" => (&f.u, src.chroma_width, src.chroma_height),
                _ => (&f.v, src.chroma_width, src.chroma_height),
            };
            Value::Plane(vqgraph_graph::Plane { width: w, height: h, data: vqgraph_graph::HostBuf::U16(data.clone()) })
        })
        .collect()
}

/// Runs `extractors` over matching frame streams on `backend`.
///
/// `frames` yields pairs (reference, distorted) or the error that stopped reading.
pub fn score<I>(
    extractors: &[Box<dyn Extractor>],
    src: &Sources,
    backend: &dyn Backend,
    frames: I,
) -> Result<FeatureScores, ScoreError>
where
    I: IntoIterator<Item = Result<(Frame, Frame), InputError>>,
{
    let graph = build_graph(extractors, src)?;
    let mut input_error = None;
    let inputs = frames.into_iter().map_while(|item| match item {
        Ok((r, d)) => Some(Ok(frame_inputs(&graph, src, &r, &d))),
        Err(e) => {
            input_error = Some(e);
            None
        }
    });
    let mut outputs: Vec<FrameOutputs> = Vec::new();
    let mut features: Vec<FeatureValues> = Vec::new();
    vqgraph_graph::run(&graph, backend, inputs, |_, out| {
        features.push(extractors.iter().flat_map(|e| e.frame(&out)).collect());
        outputs.push(out);
        Ok(())
    })?;
    if let Some(e) = input_error {
        return Err(e.into());
    }
    for e in extractors {
        e.sequence(&mut features);
    }
    let aggregate = extractors.iter().flat_map(|e| e.aggregate(&outputs)).collect();
    Ok(FeatureScores { frames: features, aggregate })
}
