//! CubeCL kernel of `adm_csf_den`: one cube per row of the border region. Its units add the cubes of a
//! strided share of the row's samples in u64 for each band, the cube adds its units' sums
//! ([`crate::kernel::cube_sum`]), and unit 0 applies the row's rounding shift and writes one partial per band
//! and row. [`Partials::finish`] then adds each band's row partials.
//!
//! The per-row shift is why the rows are reduced apart: `(row + half) >> s` is not additive, so the rows'
//! sums must be exact before it, as in the reference. All arithmetic is u64 with the reference's wrapping
//! (none happens for 32-bit samples: `a^2 + 2^31 < 2^63`).

use cubecl::prelude::*;
use vqgraph_graph::{Elem, ValueType};

use super::AdmCsfDen;
use crate::adm_common::{Region, half_of_pow2};
use crate::kernel::{CUBE_SIZE, CubeKernel, DeviceValue, KernelState, Partials, cube_sum, state_mut, wide};

/// `|x|` of a band sample (stored as i32) in u64: exact for every 32-bit value, `i32::MIN` included.
#[cube]
fn abs64(x: i32) -> u64 {
    let mut v = wide::<i32>(x, true);
    if v < 0 {
        v = -v;
    }
    u64::cast_from(v)
}

/// The cube term of one sample: `a^3` at scale 0, `(((a^2 + 2^sq) >> sq) * a + add_cub) >> cub` otherwise.
#[cube]
fn cube_term(x: i32, sq: u64, add_sq: u64, cub: u64, add_cub: u64, #[comptime] scale0: bool) -> u64 {
    let a = abs64(x);
    if comptime![scale0] { a * a * a } else { (((a * a + add_sq) >> sq) * a + add_cub) >> cub }
}

#[cube(launch_unchecked)]
fn den_rows(
    xh: &Array<i32>,
    xv: &Array<i32>,
    xd: &Array<i32>,
    partials: &mut Array<u64>,
    w: u32,
    top: u32,
    left: u32,
    right: u32,
    rows: u32,
    sq: u64,
    add_sq: u64,
    cub: u64,
    add_cub: u64,
    row_shift: u64,
    add_row: u64,
    #[comptime] scale0: bool,
) {
    let r = CUBE_POS_X;
    let base = (top + r) * w;
    let mut sh = 0u64;
    let mut sv = 0u64;
    let mut sd = 0u64;
    let mut j = left + UNIT_POS_X;
    while j < right {
        let k = (base + j) as usize;
        sh += cube_term(xh[k], sq, add_sq, cub, add_cub, scale0);
        sv += cube_term(xv[k], sq, add_sq, cub, add_cub, scale0);
        sd += cube_term(xd[k], sq, add_sq, cub, add_cub, scale0);
        j += CUBE_SIZE;
    }
    let th = cube_sum(sh);
    let tv = cube_sum(sv);
    let td = cube_sum(sd);
    if UNIT_POS_X == 0 {
        partials[r as usize] = (th + add_row) >> row_shift;
        partials[(rows + r) as usize] = (tv + add_row) >> row_shift;
        partials[(2 * rows + r) as usize] = (td + add_row) >> row_shift;
    }
}

impl<R: Runtime> CubeKernel<R> for AdmCsfDen {
    fn prepare(
        &self,
        client: &ComputeClient<R>,
        inputs: &[ValueType],
        _outputs: &[ValueType],
    ) -> Result<KernelState, String> {
        let ValueType::Plane { width: w, height: h, .. } = inputs[0] else {
            return Err("adm_csf_den: expected planes".into());
        };
        let reg = Region::of(w, h);
        let rows = reg.bottom - reg.top;
        if rows > 65535 {
            return Err(format!("adm_csf_den: {rows} rows exceed the 65535 cubes one launch covers"));
        }
        // One partial per row and band, added by `Partials::finish`.
        let handle = client.empty(rows * 3 * 8);
        Ok(Some(Box::new(Partials { handle, cubes: rows as u32, sums: 3 })))
    }

    fn launch(
        &self,
        client: &ComputeClient<R>,
        inputs: &[DeviceValue],
        outputs: &[DeviceValue],
        state: &mut KernelState,
    ) -> Result<(), String> {
        let p = state_mut::<Partials>(state, "adm_csf_den")?;
        let ValueType::Plane { elem, width: w, height: h } = inputs[0].ty else {
            return Err("adm_csf_den: expected planes".into());
        };
        let scale0 = match (self.scale, elem) {
            (0, Elem::I16) => true,
            (1..=3, Elem::I32) => false,
            (s, e) => return Err(format!("adm_csf_den: no kernel for scale {s} with {e} bands")),
        };
        let reg = Region::of(w, h);
        let s = self.shifts(w, h);
        let (count, dim) = p.first_pass();
        // SAFETY: cube `r` reads row `top + r < bottom <= h`, columns `left..right` within `w`, of three
        // w x h planes, and writes partials `r`, `rows + r`, `2 rows + r` of the 3 x rows allocated.
        unsafe {
            den_rows::launch_unchecked::<R>(
                client,
                count,
                dim,
                inputs[0].arg(),
                inputs[1].arg(),
                inputs[2].arg(),
                p.arg(),
                w as u32,
                reg.top as u32,
                reg.left as u32,
                reg.right as u32,
                p.cubes,
                s.sq as u64,
                1u64 << s.sq,
                s.cub as u64,
                half_of_pow2(s.cub) as u64,
                s.row as u64,
                half_of_pow2(s.row) as u64,
                scale0,
            )
        };
        p.finish(client, &outputs[0])
    }
}

#[cfg(all(test, feature = "wgpu"))]
mod tests {
    use vqgraph_graph::{Elem, Value};

    use super::*;
    use crate::kernel::testing::{check, plane};

    /// The smallest bands (3 x 3, no border), odd band sizes of 360- and 481-wide frames at every scale
    /// (180 x 102, 241 x 136, ... 23 x 13, 31 x 17), and a 1080p frame's scale-0 band (rows wider than a cube).
    const SIZES: [(usize, usize); 10] =
        [(3, 3), (4, 3), (3, 5), (9, 7), (23, 13), (31, 17), (45, 26), (180, 102), (241, 136), (960, 540)];

    fn bands(elem: Elem, w: usize, h: usize, lo: i64, hi: i64, seed: u64) -> [Value; 3] {
        [0, 1, 2].map(|b| plane(elem, w, h, lo, hi, seed * 3 + b))
    }

    #[test]
    fn scale0_on_full_range_i16_bands() {
        for (k, &(w, h)) in SIZES.iter().enumerate() {
            check(&AdmCsfDen { scale: 0 }, &bands(Elem::I16, w, h, -32768, 32767, k as u64));
        }
        // Every |x| at its maximum: 32768^3 = 2^45 per sample, the row shift at work.
        check(&AdmCsfDen { scale: 0 }, &bands(Elem::I16, 1700, 1300, -32768, -32768, 1));
    }

    #[test]
    fn scales_1_to_3_on_real_and_full_range_i32_bands() {
        for scale in 1..=3u8 {
            for (k, &(w, h)) in SIZES.iter().enumerate() {
                let seed = (scale as u64) << 8 | k as u64;
                check(&AdmCsfDen { scale }, &bands(Elem::I32, w, h, -(1 << 20), 1 << 20, seed));
                // |i32::MIN| = 2^31 cubed wraps u64 sums, as the reference's wrapping arithmetic does.
                check(&AdmCsfDen { scale }, &bands(Elem::I32, w, h, i32::MIN as i64, i32::MAX as i64, seed));
            }
        }
    }
}
