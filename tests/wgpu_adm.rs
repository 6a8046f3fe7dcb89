//! The integer ADM kernels (`adm_dwt`, `adm_csf`, `adm_cm`, `adm_csf_den`) on wgpu against the CPU on real
//! frames, through the device executor (node state, scratch, row partials over several frames).
//!
//! ADM's own graph cannot run on a device until `adm_decouple` has a kernel, so this builds ADM's four
//! scales without it: the distorted bands stand in for the restored ones and the masker weighs the other
//! side's bands. Every op and edge rule is exercised on real band values, and check mode names the first
//! node whose output differs from the CPU's.

#![cfg(feature = "wgpu")]

mod common;

use vqgraph::backends::{CheckOutcome, check, cube};
use vqgraph::io::{PairReader, Y4mReader};
use vqgraph::ops::adm_cm::AdmCm;
use vqgraph::ops::adm_csf::AdmCsf;
use vqgraph::ops::adm_csf_den::AdmCsfDen;
use vqgraph::ops::adm_dwt::AdmDwt;
use vqgraph::pipeline::{frame_inputs, sources};
use vqgraph_graph::{Backend, Graph, GraphBuilder, GraphError, RunError, Value};
use vqgraph_metrics::Sources;

/// libvmaf's default weights: scale 0's `i_rfactor`, then Q32 weights for scales 1-3 of the default CSF.
const RF0: [u16; 3] = [36453, 36453, 49417];
const RF123: [[u32; 3]; 3] = [[394_829_027, 394_829_027, 188_166_307], [1_001_112_224; 3], [1_594_622_543; 3]];

/// ADM's four scales without decoupling: DWT of both sides, the reference's denominator sums, and contrast
/// masking both ways (distorted bands masked by the weighted reference bands and the reverse).
fn adm_without_decouple(src: &Sources) -> Result<Graph, GraphError> {
    let mut b = GraphBuilder::new();
    let (mut ra, mut da) = (src.plane(&mut b, "ref", 'y')?, src.plane(&mut b, "dis", 'y')?);
    for scale in 0..4u8 {
        let dwt = if scale == 0 { AdmDwt::scale0(src.bpc) } else { AdmDwt::scale(scale) };
        let rb = b.op(&format!("s{scale}.dwt_ref"), dwt, &[ra])?;
        let db = b.op(&format!("s{scale}.dwt_dis"), dwt, &[da])?;
        (ra, da) = (rb[0], db[0]);
        let (csf, cm) = if scale == 0 {
            (AdmCsf::scale0(RF0), AdmCm { scale, rfactor: RF0.map(u32::from) })
        } else {
            let rf = RF123[scale as usize - 1];
            (AdmCsf::scale123(rf), AdmCm { scale, rfactor: rf })
        };
        let den = b.op1(&format!("s{scale}.den"), AdmCsfDen { scale }, &rb[1..4])?;
        b.output(&format!("s{scale}/den"), den)?;
        let csf_r = b.op(&format!("s{scale}.csf_ref"), csf, &rb[1..4])?;
        let csf_d = b.op(&format!("s{scale}.csf_dis"), csf, &db[1..4])?;
        let num = b.op1(&format!("s{scale}.cm_dis"), cm, &[db[1], db[2], db[3], csf_r[0], csf_r[1], csf_r[2]])?;
        b.output(&format!("s{scale}/num"), num)?;
        let aim = b.op1(&format!("s{scale}.cm_ref"), cm, &[rb[1], rb[2], rb[3], csf_d[0], csf_d[1], csf_d[2]])?;
        b.output(&format!("s{scale}/aim"), aim)?;
    }
    b.build()
}

#[test]
fn adm_kernels_identical_to_cpu_on_corpus_frames() {
    let gpu = cube::wgpu(Default::default()).expect("a wgpu adapter (install mesa-vulkan-drivers)");
    println!("backend wgpu on {}", gpu.device());
    // 8-bit 576x324, odd 481x271 (odd band sizes at every scale), 10-bit, 4:4:4, 360 wide (band widths
    // 180, 90, 45, 23), 1080p.
    for (id, frames) in [("s01", 3), ("s04", 4), ("s05", 3), ("s06", 2), ("s13", 3), ("s11", 2)] {
        let pair = common::pairs().into_iter().find(|p| p.id.starts_with(id)).unwrap();
        let reader = || {
            PairReader::new(Y4mReader::open(&pair.reference).unwrap(), Y4mReader::open(&pair.distorted).unwrap())
                .unwrap()
        };
        let src = sources(&reader().format());
        let graph = adm_without_decouple(&src).unwrap();
        let inputs: Vec<Result<Vec<Value>, RunError>> = reader()
            .take(frames)
            .map(|r| {
                let (a, b) = r.unwrap_or_else(|e| panic!("{}: {e}", pair.id));
                Ok(frame_inputs(&graph, &src, a, b))
            })
            .collect();
        match check(&graph, &gpu as &dyn Backend, inputs).unwrap() {
            CheckOutcome::Identical { frames, steps } => {
                println!("{}: {frames} frames x {steps} steps identical", pair.id)
            }
            CheckOutcome::Differs(m) => panic!("{}: {m}", pair.id),
        }
    }
}
