//! CPU reference of `decimate`.

use vqgraph_graph::{HostBuf, Value};

use crate::util::plane;

fn take_even<T: Copy>(src: &[T], w: usize, dst: &mut [T], ow: usize) {
    for (i, row) in dst.chunks_mut(ow).enumerate() {
        let s = &src[2 * i * w..];
        for (j, d) in row.iter_mut().enumerate() {
            *d = s[2 * j];
        }
    }
}

pub fn eval(input: &Value, output: &mut Value) -> Result<(), String> {
    let x = plane(input)?;
    let w = x.width;
    let ow = w / 2;
    match (&x.data, output.buf_mut()) {
        (HostBuf::U16(s), HostBuf::U16(d)) => take_even(s, w, d, ow),
        (HostBuf::I16(s), HostBuf::I16(d)) => take_even(s, w, d, ow),
        (HostBuf::U32(s), HostBuf::U32(d)) => take_even(s, w, d, ow),
        (HostBuf::I32(s), HostBuf::I32(d)) => take_even(s, w, d, ow),
        (HostBuf::U64(s), HostBuf::U64(d)) => take_even(s, w, d, ow),
        (HostBuf::I64(s), HostBuf::I64(d)) => take_even(s, w, d, ow),
        _ => return Err("decimate: output type differs from input".into()),
    }
    Ok(())
}
