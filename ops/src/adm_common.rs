//! What libvmaf's integer ADM ops (`adm_dwt`, `adm_decouple`, `adm_csf`, `adm_cm`, `adm_csf_den`) share:
//! the band element types, the border that ADM leaves out of its sums, and libvmaf's float-computed shift
//! amounts.
//!
//! libvmaf keeps its scale-0 wavelet bands in `int16_t` and those of scales 1-3 in `int32_t`; the ops accept
//! either and write the same element type back, casting like C's assignments do.
//!
//! Speed: each ADM reference keeps its hot loop in one `#[inline(always)]` kernel written with iterators
//! (no bounds checks, so it vectorises) and calls it through [`avx2_dispatch!`], which compiles the same
//! kernel a second time with AVX2 enabled and picks that copy when the CPU has it. Integer operations and
//! IEEE float operations (Rust never fuses a multiply and an add on its own) give the same bits in either
//! copy; AVX2 only gives the vectoriser wider lanes and 64-bit lane arithmetic, worth 5-10x on these loops.

use vqgraph_graph::{Elem, HostBuf, Value};

/// An element of an ADM band plane: `i16` (scale 0) or `i32` (scales 1-3).
pub trait BandElem: Copy + Send + Sync + Default + 'static {
    const ELEM: Elem;
    /// The value, exactly.
    fn wide(self) -> i64;
    /// Stores `v` the way a C assignment to this type does on the platforms libvmaf runs on (keep the low
    /// bits).
    fn narrow(v: i64) -> Self;
    fn slice(b: &HostBuf) -> Option<&[Self]>;
    fn slice_mut(b: &mut HostBuf) -> Option<&mut [Self]>;
}

impl BandElem for i16 {
    const ELEM: Elem = Elem::I16;
    #[inline(always)]
    fn wide(self) -> i64 {
        self as i64
    }
    #[inline(always)]
    fn narrow(v: i64) -> Self {
        v as i16
    }
    fn slice(b: &HostBuf) -> Option<&[Self]> {
        b.as_i16()
    }
    fn slice_mut(b: &mut HostBuf) -> Option<&mut [Self]> {
        b.as_i16_mut()
    }
}

impl BandElem for i32 {
    const ELEM: Elem = Elem::I32;
    #[inline(always)]
    fn wide(self) -> i64 {
        self as i64
    }
    #[inline(always)]
    fn narrow(v: i64) -> Self {
        v as i32
    }
    fn slice(b: &HostBuf) -> Option<&[Self]> {
        b.as_i32()
    }
    fn slice_mut(b: &mut HostBuf) -> Option<&mut [Self]> {
        b.as_i32_mut()
    }
}

/// Element types an ADM band plane may have.
pub const BAND_ELEMS: [Elem; 2] = [Elem::I16, Elem::I32];

/// The `N` inputs as `T` slices, or an error naming the op.
pub fn band_inputs<'a, T: BandElem, const N: usize>(inputs: &[&'a Value], op: &str) -> Result<[&'a [T]; N], String> {
    let v: Option<Vec<&[T]>> = inputs.iter().map(|x| T::slice(x.buf())).collect();
    v.and_then(|v| v.try_into().ok()).ok_or_else(|| format!("{op}: expected {N} {} band inputs", T::ELEM))
}

/// The `N` outputs as mutable `T` slices, or an error naming the op.
pub fn band_outputs<'a, T: BandElem, const N: usize>(
    outputs: &'a mut [Value],
    op: &str,
) -> Result<[&'a mut [T]; N], String> {
    let v: Option<Vec<&mut [T]>> = outputs.iter_mut().map(|x| T::slice_mut(x.buf_mut())).collect();
    v.and_then(|v| v.try_into().ok()).ok_or_else(|| format!("{op}: expected {N} {} band outputs", T::ELEM))
}

/// Cuts `N` equally long buffers into aligned pieces of `len` elements (the last may be shorter), so that
/// pieces with the same index can go to one rayon task.
pub fn split_chunks<'a, T, const N: usize>(bufs: [&'a mut [T]; N], len: usize) -> Vec<[&'a mut [T]; N]> {
    let mut iters = bufs.map(|b| b.chunks_mut(len));
    let mut out = Vec::new();
    loop {
        let next: [Option<&'a mut [T]>; N] = std::array::from_fn(|k| iters[k].next());
        if next.iter().any(|x| x.is_none()) {
            return out;
        }
        out.push(next.map(|x| x.expect("checked above")));
    }
}

/// The part of a `w` x `h` band that ADM's sums cover: libvmaf drops `int(w * 0.1 - 0.5)` columns on the
/// left and right and `int(h * 0.1 - 0.5)` rows at the top and bottom (`ADM_BORDER_FACTOR`, the C
/// conversion truncating toward zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    pub left: usize,
    pub top: usize,
    /// One past the last column.
    pub right: usize,
    /// One past the last row.
    pub bottom: usize,
}

impl Region {
    pub fn of(w: usize, h: usize) -> Self {
        let left = (w as f64 * 0.1 - 0.5) as i64;
        let top = (h as f64 * 0.1 - 0.5) as i64;
        let (left, top) = (left.max(0) as usize, top.max(0) as usize);
        Region { left, top, right: w - left, bottom: h - top }
    }

    /// Number of band samples inside.
    pub fn area(&self) -> usize {
        (self.right - self.left) * (self.bottom - self.top)
    }
}

/// libvmaf's `(uint32_t)ceil(log2(n) - sub)`, computed in double as it does. Where C would convert a
/// negative double (undefined behaviour) the result is 0: no band of a frame libvmaf can score (at least 33
/// samples across, see `adm_dwt`) gets there, so this only defines the ops on smaller planes.
pub fn ceil_log2_minus(n: usize, sub: f64) -> u32 {
    let v = ((n as f64).log2() - sub).ceil();
    if v <= 0.0 { 0 } else { v as u32 }
}

/// libvmaf's rounding term `(uint32_t)pow(2, shift - 1)`: half of `2^shift`, and 0 for a zero shift (where
/// C's unsigned `shift - 1` wraps and the conversion of an infinite power yields 0 on x86-64).
pub fn half_of_pow2(shift: u32) -> i64 {
    if shift == 0 { 0 } else { 1i64 << (shift - 1) }
}

/// Unit tests set this to run the plain copies of the kernels and compare them with the AVX2 copies.
#[cfg(test)]
pub static FORCE_PLAIN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether the running CPU has AVX2 (cached by std after the first query).
#[inline(always)]
pub fn has_avx2() -> bool {
    #[cfg(test)]
    if FORCE_PLAIN.load(std::sync::atomic::Ordering::Relaxed) {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Defines `fn $name(args) -> ret` calling the `#[inline(always)]` kernel `$kernel(args)`, through a copy
/// compiled with AVX2 when the CPU has it. Generic parameters go in brackets: `fn name[T: BandElem](...)`.
macro_rules! avx2_dispatch {
    (fn $name:ident [$($gen:tt)*] ($($arg:ident : $ty:ty),* $(,)?) $(-> $ret:ty)? = $kernel:ident $(::<$($karg:tt),*>)?;) => {
        fn $name<$($gen)*>($($arg: $ty),*) $(-> $ret)? {
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx2")]
                fn avx2<$($gen)*>($($arg: $ty),*) $(-> $ret)? {
                    $kernel $(::<$($karg),*>)? ($($arg),*)
                }
                if $crate::adm_common::has_avx2() {
                    // SAFETY: the CPU supports AVX2, the only requirement of the `target_feature` copy.
                    return unsafe { avx2 $(::<$($karg),*>)? ($($arg),*) };
                }
            }
            $kernel $(::<$($karg),*>)? ($($arg),*)
        }
    };
}
pub(crate) use avx2_dispatch;

/// Helpers for the ADM ops' unit tests.
#[cfg(test)]
pub mod testing {
    use std::sync::Mutex;
    use std::sync::atomic::Ordering;

    use vqgraph_graph::{HostBuf, Op, Plane, Value};

    /// A small deterministic generator (xorshift64).
    pub struct Rng(pub u64);

    impl Rng {
        pub fn next_u64(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        /// Uniform in `lo..=hi`.
        pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
            lo + (self.next_u64() % (hi - lo + 1) as u64) as i64
        }
    }

    pub fn plane_i16(w: usize, h: usize, d: Vec<i16>) -> Value {
        Value::Plane(Plane { width: w, height: h, data: HostBuf::I16(d) })
    }

    pub fn plane_i32(w: usize, h: usize, d: Vec<i32>) -> Value {
        Value::Plane(Plane { width: w, height: h, data: HostBuf::I32(d) })
    }

    pub fn plane_u16(w: usize, h: usize, d: Vec<u16>) -> Value {
        Value::Plane(Plane { width: w, height: h, data: HostBuf::U16(d) })
    }

    /// Runs an op's CPU reference (outputs allocated from its type rule).
    pub fn eval(op: &dyn Op, inputs: &[Value]) -> Vec<Value> {
        let types: Vec<_> = inputs.iter().map(|v| v.value_type()).collect();
        let mut outs: Vec<Value> = op.output_types(&types).unwrap().iter().map(|t| t.zeroed()).collect();
        let refs: Vec<&Value> = inputs.iter().collect();
        op.eval_cpu(&refs, &mut outs, &mut None).unwrap();
        outs
    }

    /// Serialises the tests that flip [`super::FORCE_PLAIN`] (the flag is global to the process).
    static PLAIN_LOCK: Mutex<()> = Mutex::new(());

    /// The op's outputs from the plain kernels and from the AVX2 kernels (equal on machines without AVX2).
    pub fn plain_and_simd(op: &dyn Op, inputs: &[Value]) -> (Vec<Value>, Vec<Value>) {
        let _guard = PLAIN_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        super::FORCE_PLAIN.store(true, Ordering::Relaxed);
        let plain = eval(op, inputs);
        super::FORCE_PLAIN.store(false, Ordering::Relaxed);
        (plain, eval(op, inputs))
    }
}
