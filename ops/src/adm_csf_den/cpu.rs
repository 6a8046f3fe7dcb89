//! CPU reference of `adm_csf_den`: rows in parallel, each row's rounded partial exact in u64.

use rayon::prelude::*;
use vqgraph_graph::{Elem, Value};

use super::AdmCsfDen;
use crate::adm_common::{BandElem, Region, avx2_dispatch, band_inputs, half_of_pow2};

pub fn eval(op: &AdmCsfDen, inputs: &[&Value], output: &mut Value) -> Result<(), String> {
    let sums = match inputs[0].buf().elem() {
        Elem::I16 => run::<i16>(op, inputs)?,
        _ => run::<i32>(op, inputs)?,
    };
    output.buf_mut().as_u64_mut().ok_or("adm_csf_den: output must be u64 sums")?.copy_from_slice(&sums);
    Ok(())
}

fn run<T: BandElem>(op: &AdmCsfDen, inputs: &[&Value]) -> Result<[u64; 3], String> {
    let bands: [&[T]; 3] = band_inputs(inputs, "adm_csf_den")?;
    let p = inputs[0].as_plane().ok_or("adm_csf_den: expected planes")?;
    let (w, h) = (p.width, p.height);
    let reg = Region::of(w, h);
    let s = op.shifts(w, h);
    let add_row = half_of_pow2(s.row) as u64;
    let k = Cube { sq: s.sq, add_sq: 1u64 << s.sq, cub: s.cub, add_cub: half_of_pow2(s.cub) as u64 };
    let scale0 = op.scale == 0;
    let sums = (reg.top..reg.bottom)
        .into_par_iter()
        .with_min_len(8)
        .map(|i| {
            let mut acc = [0u64; 3];
            for (b, band) in bands.iter().enumerate() {
                let row = &band[i * w + reg.left..i * w + reg.right];
                let r = if scale0 { cubes::<T, true>(row, &k) } else { cubes::<T, false>(row, &k) };
                acc[b] = r.wrapping_add(add_row) >> s.row;
            }
            acc
        })
        .reduce(|| [0u64; 3], |a, b| [0, 1, 2].map(|k| a[k].wrapping_add(b[k])));
    Ok(sums)
}

/// Rounding of the scale 1-3 cubes.
struct Cube {
    sq: u32,
    add_sq: u64,
    cub: u32,
    add_cub: u64,
}

avx2_dispatch! {
    fn cubes[T: BandElem, const S0: bool](row: &[T], k: &Cube) -> u64 = cubes_kernel::<T, S0>;
}

#[inline(always)]
fn cubes_kernel<T: BandElem, const S0: bool>(row: &[T], k: &Cube) -> u64 {
    let mut r = 0u64;
    if S0 {
        // `(uint16_t)abs(x)` cubed in u64.
        for &x in row {
            let a = (x.wide() as i32).unsigned_abs() as u16 as u64;
            r = r.wrapping_add(a * a * a);
        }
    } else {
        for &x in row {
            let a = (x.wide() as i32).unsigned_abs() as u64;
            let sq = a.wrapping_mul(a).wrapping_add(k.add_sq) >> k.sq;
            r = r.wrapping_add(sq.wrapping_mul(a).wrapping_add(k.add_cub) >> k.cub);
        }
    }
    r
}
