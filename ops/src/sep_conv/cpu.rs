//! CPU reference of `sep_conv`: bands of rows in parallel, exact integer arithmetic.
//!
//! Speed matters here (this is the CPU backend's hot path). The vertical pass is a multiply-accumulate of
//! whole rows, which vectorises; the horizontal pass reads a row padded with its mirrored edges so the inner
//! loop has no edge tests. Each pass accumulates in the narrowest type that provably cannot overflow for the
//! op's taps and input range (u32 or i32 lanes vectorise far better than i64); the result is the same
//! exact integer either way.

use std::ops::{Add, Mul, Shr};

use rayon::prelude::*;
use vqgraph_graph::{Elem, HostBuf, Value};

use super::SepConv;
use crate::util::{mirror, plane};

/// Rows per parallel task: enough work to amortise scheduling, small enough to balance two cores.
const BAND: usize = 16;

pub fn eval(op: &SepConv, input: &Value, output: &mut Value) -> Result<(), String> {
    let x = plane(input)?;
    let (w, h) = (x.width, x.height);
    let plan = AccPlan::choose(op, x.data.elem());
    match &x.data {
        HostBuf::U16(s) => by_acc(op, plan, s, w, h, output.buf_mut()),
        HostBuf::I16(s) => by_acc(op, plan, s, w, h, output.buf_mut()),
        HostBuf::U32(s) => by_acc(op, plan, s, w, h, output.buf_mut()),
        HostBuf::I32(s) => by_acc(op, plan, s, w, h, output.buf_mut()),
        _ => return Err("sep_conv: unsupported input type".into()),
    }
    Ok(())
}

/// Accumulator types of the two passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AccPlan {
    /// Non-negative data and taps, both passes below 2^32.
    U32U32,
    /// Non-negative data and taps, vertical pass below 2^32, horizontal in i64.
    U32I64,
    /// Vertical pass below 2^31 in magnitude, horizontal in i64.
    I32I64,
    I64I64,
}

impl AccPlan {
    fn choose(op: &SepConv, elem: Elem) -> Self {
        let in_max: i128 = match op.input_max {
            Some(m) => m as i128,
            None => match elem {
                Elem::U16 => u16::MAX as i128,
                Elem::I16 => 1 << 15,
                Elem::U32 => u32::MAX as i128,
                _ => 1 << 31,
            },
        };
        let signed_in = matches!(elem, Elem::I16 | Elem::I32);
        let abs_sum: i128 = op.taps.iter().map(|&t| (t as i128).abs()).sum();
        let nonneg_taps = op.taps.iter().all(|&t| t >= 0);
        let v_max = in_max * abs_sum + op.v_round.unsigned_abs() as i128;
        let tmp_max = v_max >> op.v_shift;
        let h_max = tmp_max * abs_sum + op.h_round.unsigned_abs() as i128;
        let unsigned = !signed_in && nonneg_taps && op.v_round >= 0 && op.h_round >= 0;
        if unsigned && v_max < 1 << 32 && h_max < 1 << 32 {
            AccPlan::U32U32
        } else if unsigned && v_max < 1 << 32 {
            AccPlan::U32I64
        } else if v_max < 1 << 31 {
            AccPlan::I32I64
        } else {
            AccPlan::I64I64
        }
    }
}

/// An accumulator lane type.
trait Acc: Copy + Send + Sync + Default + Add<Output = Self> + Mul<Output = Self> + Shr<u32, Output = Self> {
    fn of(v: i64) -> Self;
    fn get(self) -> i64;
}
macro_rules! acc {
    ($($t:ty),*) => { $(impl Acc for $t {
        #[inline(always)] fn of(v: i64) -> Self { v as $t }
        #[inline(always)] fn get(self) -> i64 { self as i64 }
    })* };
}
acc!(u32, i32, i64);

/// Output element types a result is cast into, as a C cast would.
trait Store: Send + Sync + Copy {
    fn store(v: i64) -> Self;
}
macro_rules! store {
    ($($t:ty),*) => { $(impl Store for $t { #[inline(always)] fn store(v: i64) -> Self { v as $t } })* };
}
store!(u16, i16, u32, i32, u64, i64);

fn by_acc<T: Copy + Into<i64> + Sync>(op: &SepConv, plan: AccPlan, src: &[T], w: usize, h: usize, out: &mut HostBuf) {
    match plan {
        AccPlan::U32U32 => by_out::<T, u32, u32>(op, src, w, h, out),
        AccPlan::U32I64 => by_out::<T, u32, i64>(op, src, w, h, out),
        AccPlan::I32I64 => by_out::<T, i32, i64>(op, src, w, h, out),
        AccPlan::I64I64 => by_out::<T, i64, i64>(op, src, w, h, out),
    }
}

fn by_out<T: Copy + Into<i64> + Sync, A: Acc, B: Acc>(op: &SepConv, src: &[T], w: usize, h: usize, out: &mut HostBuf) {
    match out {
        HostBuf::U16(o) => conv::<T, A, B, _>(op, src, w, h, o),
        HostBuf::I16(o) => conv::<T, A, B, _>(op, src, w, h, o),
        HostBuf::U32(o) => conv::<T, A, B, _>(op, src, w, h, o),
        HostBuf::I32(o) => conv::<T, A, B, _>(op, src, w, h, o),
        HostBuf::U64(o) => conv::<T, A, B, _>(op, src, w, h, o),
        HostBuf::I64(o) => conv::<T, A, B, _>(op, src, w, h, o),
    }
}

fn conv<T: Copy + Into<i64> + Sync, A: Acc, B: Acc, O: Store>(
    op: &SepConv,
    src: &[T],
    w: usize,
    h: usize,
    out: &mut [O],
) {
    let ow = w / op.stride;
    let r = op.taps.len() / 2;
    let vt: Vec<A> = op.taps.iter().map(|&t| A::of(t)).collect();
    let ht: Vec<B> = op.taps.iter().map(|&t| B::of(t)).collect();
    let (v_round, h_round) = (A::of(op.v_round), B::of(op.h_round));
    let k = Kernel { op, vt, ht, v_round, h_round, src, w, h, ow, r };
    out.par_chunks_mut(ow * BAND).enumerate().for_each(|(band, out_rows)| {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, the only requirement of the copy compiled for it.
            return unsafe { band_avx2(&k, band, out_rows) };
        }
        band_rows(&k, band, out_rows)
    });
}

/// What every band of one convolution shares.
struct Kernel<'a, T, A, B> {
    op: &'a SepConv,
    vt: Vec<A>,
    ht: Vec<B>,
    v_round: A,
    h_round: B,
    src: &'a [T],
    w: usize,
    h: usize,
    ow: usize,
    r: usize,
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn band_avx2<T: Copy + Into<i64> + Sync, A: Acc, B: Acc, O: Store>(
    k: &Kernel<T, A, B>,
    band: usize,
    out_rows: &mut [O],
) {
    band_rows(k, band, out_rows)
}

#[inline(always)]
fn band_rows<T: Copy + Into<i64> + Sync, A: Acc, B: Acc, O: Store>(
    k: &Kernel<T, A, B>,
    band: usize,
    out_rows: &mut [O],
) {
    let Kernel { op, ref vt, ref ht, v_round, h_round, src, w, h, ow, r } = *k;
    let stride = op.stride;
    let mut acc = vec![A::default(); w];
    // The vertical result with `r` mirrored samples on each side, kept in the vertical accumulator's type
    // (it fits: the shift only makes it smaller) so the horizontal products widen from a narrow type.
    let mut v = vec![A::default(); w + 2 * r];
    let mut hacc = vec![B::default(); ow];
    let (mut even, mut odd): (Vec<A>, Vec<A>) =
        (Vec::with_capacity(v.len() / 2 + 1), Vec::with_capacity(v.len() / 2 + 1));
    for (bi, out_row) in out_rows.chunks_mut(ow).enumerate() {
        // With stride 2 only the even rows and columns are computed (a fused decimation).
        let i = (band * BAND + bi) * stride;
        acc.fill(A::default());
        for (kk, &t) in vt.iter().enumerate() {
            let row = mirror(i as isize - r as isize + kk as isize, h);
            for (a, &s) in acc.iter_mut().zip(&src[row * w..row * w + w]) {
                *a = *a + t * A::of(s.into());
            }
        }
        for (d, &a) in v[r..r + w].iter_mut().zip(&acc) {
            *d = (a + v_round) >> op.v_shift;
        }
        for f in 1..=r {
            v[r - f] = v[r + f];
            v[r + w - 1 + f] = v[r + w - 1 - f];
        }
        if stride == 2 {
            even.clear();
            odd.clear();
            even.extend(v.iter().step_by(2));
            odd.extend(v.iter().skip(1).step_by(2));
        }
        // Horizontal pass tap by tap over the whole row: long inner loops that vectorise.
        hacc.fill(B::default());
        for (kk, &t) in ht.iter().enumerate() {
            if stride == 1 {
                for (a, &x) in hacc.iter_mut().zip(&v[kk..kk + ow]) {
                    *a = *a + t * B::of(x.get());
                }
            } else {
                // Sample 2j + kk of the padded row is sample j + kk/2 of its even or odd half.
                let half = if kk % 2 == 0 { &even[kk / 2..] } else { &odd[kk / 2..] };
                for (a, &x) in hacc.iter_mut().zip(half) {
                    *a = *a + t * B::of(x.get());
                }
            }
        }
        for (o, &a) in out_row.iter_mut().zip(&hacc) {
            *o = O::store(((a + h_round) >> op.h_shift).get());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_accumulators_only_where_they_cannot_overflow() {
        let mut vif = SepConv::rounded(&[1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244], 8, 16, Elem::U16);
        assert_eq!(AccPlan::choose(&vif, Elem::U16), AccPlan::U32I64);
        vif.input_max = Some(255);
        assert_eq!(AccPlan::choose(&vif, Elem::U16), AccPlan::U32U32);
        let mut motion = SepConv::rounded(&[3571, 16004, 26386, 16004, 3571], 8, 16, Elem::I32);
        assert_eq!(AccPlan::choose(&motion, Elem::I32), AccPlan::I64I64);
        motion.input_max = Some(255);
        assert_eq!(AccPlan::choose(&motion, Elem::I32), AccPlan::I32I64);
    }
}
