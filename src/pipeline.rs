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

/// Graph input values for one pair of frames, in the graph's input order. The planes move into the
/// values (input names are unique, so no plane is needed twice).
pub fn frame_inputs(graph: &Graph, src: &Sources, mut r: Frame, mut d: Frame) -> Vec<Value> {
    graph
        .inputs
        .iter()
        .map(|(name, _)| {
            let (side, plane) = name.split_once('.').expect("internal: input names are side.plane");
            let f = if side == "ref" { &mut r } else { &mut d };
            let (data, w, h) = match plane {
                "y" => (&mut f.y, src.width, src.height),
                "u" => (&mut f.u, src.chroma_width, src.chroma_height),
                _ => (&mut f.v, src.chroma_width, src.chroma_height),
            };
            let data = vqgraph_graph::HostBuf::U16(std::mem::take(data));
            Value::Plane(vqgraph_graph::Plane { width: w, height: h, data })
        })
        .collect()
}

/// Frames decoded ahead of the computation, so reading never waits on compute or the reverse.
const READ_AHEAD: usize = 2;

/// Runs `extractors` over matching frame streams on `backend`.
///
/// `frames` yields pairs (reference, distorted) or the error that stopped reading; it is read on its own
/// thread, a few frames ahead.
pub fn score<I>(
    extractors: &[Box<dyn Extractor>],
    src: &Sources,
    backend: &dyn Backend,
    frames: I,
) -> Result<FeatureScores, ScoreError>
where
    I: IntoIterator<Item = Result<(Frame, Frame), InputError>>,
    I::IntoIter: Send,
{
    let graph = build_graph(extractors, src)?;
    let mut outputs: Vec<FrameOutputs> = Vec::new();
    let mut features: Vec<FeatureValues> = Vec::new();
    let frames = frames.into_iter();
    let (result, input_error) = std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Result<Vec<Value>, InputError>>(READ_AHEAD);
        let graph = &graph;
        scope.spawn(move || {
            for item in frames {
                let stop = item.is_err();
                let msg = item.map(|(r, d)| frame_inputs(graph, src, r, d));
                // The receiver stops listening when the computation fails; then reading stops too.
                if tx.send(msg).is_err() || stop {
                    break;
                }
            }
        });
        let mut input_error = None;
        let inputs = rx.iter().map_while(|item| match item {
            Ok(values) => Some(Ok(values)),
            Err(e) => {
                input_error = Some(e);
                None
            }
        });
        let result = vqgraph_graph::run(graph, backend, inputs, |_, out| {
            features.push(extractors.iter().flat_map(|e| e.frame(&out)).collect());
            outputs.push(out);
            Ok(())
        });
        (result, input_error)
    });
    if let Some(e) = input_error {
        return Err(e.into());
    }
    result?;
    for e in extractors {
        e.sequence(&mut features);
    }
    let aggregate = extractors.iter().flat_map(|e| e.aggregate(&outputs)).collect();
    Ok(FeatureScores { frames: features, aggregate })
}
