//! CPU reference of `adm_csf`: pointwise, in parallel over fixed-size pieces of the planes.

use rayon::prelude::*;
use vqgraph_graph::{Elem, Value};

use super::AdmCsf;
use crate::adm_common::{BandElem, band_inputs, band_outputs};

/// Elements per rayon task.
const PIECE: usize = 32 * 1024;

pub fn eval(op: &AdmCsf, inputs: &[&Value], outputs: &mut [Value]) -> Result<(), String> {
    match inputs[0].buf().elem() {
        Elem::I16 => run::<i16>(op, inputs, outputs),
        _ => run::<i32>(op, inputs, outputs),
    }
}

fn run<T: BandElem>(op: &AdmCsf, inputs: &[&Value], outputs: &mut [Value]) -> Result<(), String> {
    let ins: [&[T]; 3] = band_inputs(inputs, "adm_csf")?;
    let outs: [&mut [T]; 3] = band_outputs(outputs, "adm_csf")?;
    for (b, out) in outs.into_iter().enumerate() {
        let (f, r, s) = (op.factor[b] as i64, op.round[b], op.shift[b]);
        out.par_chunks_mut(PIECE).zip(ins[b].par_chunks(PIECE)).for_each(|(o, x)| {
            for (o, &x) in o.iter_mut().zip(x) {
                *o = T::narrow((f * x.wide() + r) >> s);
            }
        });
    }
    Ok(())
}
