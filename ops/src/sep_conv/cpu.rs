//! CPU reference of `sep_conv`: rows in parallel, exact i64 arithmetic.

use rayon::prelude::*;
use vqgraph_graph::Value;

use super::SepConv;
use crate::util::{mirror, narrow_into, plane, widen};

pub fn eval(op: &SepConv, input: &Value, output: &mut Value) -> Result<(), String> {
    let x = plane(input)?;
    let (w, h) = (x.width, x.height);
    let src = widen(x);
    let out = apply(op, &src, w, h);
    narrow_into(output.buf_mut(), &out);
    Ok(())
}

/// Convolves a widened plane; returns the widened result (before the cast to the output type).
pub fn apply(op: &SepConv, src: &[i64], w: usize, h: usize) -> Vec<i64> {
    let taps = &op.taps;
    let r = (taps.len() / 2) as isize;
    let mut out = vec![0i64; w * h];
    out.par_chunks_mut(w).enumerate().for_each(|(i, out_row)| {
        let mut v = vec![0i64; w];
        for (k, &t) in taps.iter().enumerate() {
            let row = mirror(i as isize - r + k as isize, h);
            let src_row = &src[row * w..row * w + w];
            for (acc, &s) in v.iter_mut().zip(src_row) {
                *acc += t * s;
            }
        }
        for acc in v.iter_mut() {
            *acc = (*acc + op.v_round) >> op.v_shift;
        }
        for (j, o) in out_row.iter_mut().enumerate() {
            let mut acc = 0i64;
            for (k, &t) in taps.iter().enumerate() {
                acc += t * v[mirror(j as isize - r + k as isize, w)];
            }
            *o = (acc + op.h_round) >> op.h_shift;
        }
    });
    out
}
