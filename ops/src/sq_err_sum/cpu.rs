//! CPU reference of `sq_err_sum`.

use rayon::prelude::*;
use vqgraph_graph::Value;

use crate::util::plane;

pub fn eval(a: &Value, b: &Value, out: &mut Value) -> Result<(), String> {
    let (pa, pb) = (plane(a)?, plane(b)?);
    let (xa, xb) = (pa.data.as_u16().ok_or("a: not u16")?, pb.data.as_u16().ok_or("b: not u16")?);
    let w = pa.width.max(1);
    let sse: u64 = xa
        .par_chunks(w)
        .zip(xb.par_chunks(w))
        .map(|(ra, rb)| {
            ra.iter()
                .zip(rb)
                .map(|(&x, &y)| {
                    let e = x.abs_diff(y) as u64;
                    e * e
                })
                .sum::<u64>()
        })
        .sum();
    out.buf_mut().as_u64_mut().ok_or("out: not u64")?[0] = sse;
    Ok(())
}
