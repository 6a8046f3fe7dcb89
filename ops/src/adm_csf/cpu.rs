//! CPU reference of `adm_csf`: pointwise, in parallel over fixed-size pieces of the planes.

use rayon::prelude::*;
use vqgraph_graph::{Elem, Value};

use super::AdmCsf;
use crate::adm_common::{BandElem, avx2_dispatch, band_inputs, band_outputs};

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
        // libvmaf's scale 0 computes in C int: with an i16 sample, a factor below 2^16 and a rounding term
        // below 2^16 nothing overflows 32 bits, so i32 lanes give the same bits as i64 (and twice as many).
        let narrow = T::ELEM == Elem::I16 && f < 1 << 16 && (0..1 << 16).contains(&r);
        out.par_chunks_mut(PIECE)
            .zip(ins[b].par_chunks(PIECE))
            .for_each(|(o, x)| if narrow { weigh::<T, true>(x, o, f, r, s) } else { weigh::<T, false>(x, o, f, r, s) });
    }
    Ok(())
}

avx2_dispatch! {
    fn weigh[T: BandElem, const I32: bool](x: &[T], o: &mut [T], f: i64, r: i64, s: u32) = weigh_kernel::<T, I32>;
}

#[inline(always)]
fn weigh_kernel<T: BandElem, const I32: bool>(x: &[T], o: &mut [T], f: i64, r: i64, s: u32) {
    if I32 {
        let (f, r) = (f as i32, r as i32);
        for (o, &x) in o.iter_mut().zip(x) {
            *o = T::narrow(((f * x.wide() as i32 + r) >> s) as i64);
        }
    } else {
        for (o, &x) in o.iter_mut().zip(x) {
            *o = T::narrow((f * x.wide() + r) >> s);
        }
    }
}
