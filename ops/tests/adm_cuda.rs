//! The integer ADM kernels (`adm_dwt`, `adm_csf`, `adm_cm`, `adm_csf_den`) on CUDA against their CPU
//! references: the cases of their `cube.rs` tests (which run on wgpu), on the first CUDA device.
//!
//! Built with `--features cuda`; cudarc loads libcuda and NVRTC when the test starts, so the binary builds
//! anywhere and runs where a CUDA device answers (e.g. a prebuilt test binary copied to a GPU machine).
//! CUDA's C++ differs from WGSL where exactness is at stake (signed overflow is undefined, `a * b + c` may
//! fuse), which is why the kernels keep wrapping arithmetic in unsigned bits; this test checks it there.

#![cfg(feature = "cuda")]

use cubecl::cuda::{CudaDevice, CudaRuntime};
use cubecl::prelude::*;
use vqgraph_graph::{Elem, HostBuf, Op, Plane, Value, ValueType};
use vqgraph_ops::adm_cm::AdmCm;
use vqgraph_ops::adm_csf::AdmCsf;
use vqgraph_ops::adm_csf_den::AdmCsfDen;
use vqgraph_ops::adm_dwt::AdmDwt;
use vqgraph_ops::kernel::{DeviceValue, alloc, download, upload};
use vqgraph_ops::registry::cube_kernel;

fn client() -> ComputeClient<CudaRuntime> {
    static SHOWN: std::sync::Once = std::sync::Once::new();
    SHOWN.call_once(|| println!("kernel tests run on CUDA device 0"));
    CudaRuntime::client(&CudaDevice { index: 0 })
}

/// Runs `op` on the CPU and through its kernel, two frames in a row (so state reused across frames is
/// exercised); panics naming the first differing element. Returns the CPU outputs.
fn check<O: Op>(op: &O, inputs: &[Value]) -> Vec<Value> {
    let client = client();
    let types: Vec<ValueType> = inputs.iter().map(|v| v.value_type()).collect();
    let out_types = op.output_types(&types).expect("type rule");
    let mut cpu: Vec<Value> = out_types.iter().map(|t| t.zeroed()).collect();
    let refs: Vec<&Value> = inputs.iter().collect();
    op.eval_cpu(&refs, &mut cpu, &mut None).expect("cpu reference");
    let k = cube_kernel::<CudaRuntime>(op).unwrap_or_else(|| panic!("{} has no kernel", op.name()));
    let mut state = k.prepare(&client, &types, &out_types).expect("prepare");
    let outputs: Vec<DeviceValue> = out_types.iter().map(|t| alloc(&client, *t)).collect();
    let dev_in: Vec<DeviceValue> = inputs.iter().map(|v| upload(&client, v)).collect();
    for _ in 0..2 {
        k.launch(&client, &dev_in, &outputs, &mut state).expect("launch");
        let dev = download(&client, &outputs.iter().collect::<Vec<_>>()).expect("read back");
        for (port, (c, d)) in cpu.iter().zip(&dev).enumerate() {
            if let Some(first) = vqgraph_ops::util::first_difference(c, d) {
                panic!("{} [{}] output {port} differs from the CPU reference: {first}", op.name(), op.params());
            }
        }
    }
    cpu
}

/// A `w` x `h` plane of pseudo-random values in `lo..=hi` (xorshift), `lo` and `hi` first.
fn plane(elem: Elem, w: usize, h: usize, lo: i64, hi: i64, seed: u64) -> Value {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let span = (hi - lo) as u64 + 1;
    let v: Vec<i64> = (0..w * h)
        .map(|i| match i {
            0 => lo,
            1 => hi,
            _ => {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                lo + (s % span) as i64
            }
        })
        .collect();
    let data = match elem {
        Elem::U16 => HostBuf::U16(v.iter().map(|&x| x as u16).collect()),
        Elem::I16 => HostBuf::I16(v.iter().map(|&x| x as i16).collect()),
        _ => HostBuf::I32(v.iter().map(|&x| x as i32).collect()),
    };
    Value::Plane(Plane { width: w, height: h, data })
}

fn planes(n: u64, elem: Elem, (w, h): (usize, usize), lo: i64, hi: i64, seed: u64) -> Vec<Value> {
    (0..n).map(|b| plane(elem, w, h, lo, hi, seed * 8 + b)).collect()
}

/// Smallest planes of each op, odd band sizes of 360- and 481-wide frames, a 1080p frame's scale-0 band.
const SIZES: [(usize, usize); 12] = [
    (5, 5),
    (5, 6),
    (6, 5),
    (7, 9),
    (15, 9),
    (23, 13),
    (31, 17),
    (45, 26),
    (180, 102),
    (241, 136),
    (481, 271),
    (960, 540),
];
const I16: (i64, i64) = (i16::MIN as i64, i16::MAX as i64);
const I32: (i64, i64) = (i32::MIN as i64, i32::MAX as i64);
const RF0: [u16; 3] = [36453, 36453, 49417];
const RF123: [[u32; 3]; 3] = [[394_829_027, 394_829_027, 188_166_307], [1_001_112_224; 3], [1_594_622_543; 3]];

#[test]
fn adm_dwt_on_cuda() {
    for (k, &size) in SIZES.iter().enumerate() {
        for bpc in [8u32, 10, 12, 16] {
            check(&AdmDwt::scale0(bpc), &planes(1, Elem::U16, size, 0, (1 << bpc) - 1, k as u64));
        }
        for scale in 1..=3u8 {
            check(&AdmDwt::scale(scale), &planes(1, Elem::I16, size, I16.0, I16.1, k as u64));
            check(&AdmDwt::scale(scale), &planes(1, Elem::I32, size, I32.0, I32.1, k as u64));
        }
    }
}

#[test]
fn adm_csf_on_cuda() {
    for (k, &size) in SIZES.iter().enumerate() {
        for f in [RF0, [u16::MAX; 3]] {
            check(&AdmCsf::scale0(f), &planes(3, Elem::I16, size, I16.0, I16.1, k as u64));
        }
        for f in [RF123[0], [u32::MAX; 3]] {
            check(&AdmCsf::scale123(f), &planes(3, Elem::I32, size, I32.0, I32.1, k as u64));
        }
    }
}

#[test]
fn adm_csf_den_on_cuda() {
    for (k, &size) in SIZES.iter().enumerate() {
        check(&AdmCsfDen { scale: 0 }, &planes(3, Elem::I16, size, I16.0, I16.1, k as u64));
        for scale in 1..=3u8 {
            check(&AdmCsfDen { scale }, &planes(3, Elem::I32, size, I32.0, I32.1, k as u64));
            check(&AdmCsfDen { scale }, &planes(3, Elem::I32, size, -(1 << 20), 1 << 20, k as u64));
        }
    }
}

#[test]
fn adm_cm_on_cuda() {
    for (k, &size) in SIZES.iter().chain(&[(3, 3), (4, 3), (3, 4)]).enumerate() {
        let seed = k as u64;
        let six = |elem, x: (i64, i64), m: (i64, i64)| {
            let mut v = planes(3, elem, size, x.0, x.1, seed);
            v.extend(planes(3, elem, size, m.0, m.1, seed + 1000));
            v
        };
        for rfactor in [RF0.map(u32::from), [u16::MAX as u32; 3]] {
            let op = AdmCm { scale: 0, rfactor };
            check(&op, &six(Elem::I16, I16, I16));
            check(&op, &six(Elem::I16, I16, (-64, 64)));
        }
        for scale in 1..=3u8 {
            for rfactor in [RF123[scale as usize - 1], [u32::MAX; 3]] {
                let op = AdmCm { scale, rfactor };
                check(&op, &six(Elem::I32, I32, I32));
                check(&op, &six(Elem::I32, I32, (-(1 << 20), 1 << 20)));
                check(&op, &six(Elem::I32, (-(1 << 20), 1 << 20), (-4096, 4096)));
            }
        }
    }
}

/// ADM's chain (without decoupling) on a 10-bit 481 x 271 frame pair, each level fed from the CPU's.
#[test]
fn adm_chain_of_a_frame_on_cuda() {
    let mut r = plane(Elem::U16, 481, 271, 0, 1023, 7);
    let mut d = plane(Elem::U16, 481, 271, 0, 1023, 8);
    for scale in 0..4u8 {
        let dwt = if scale == 0 { AdmDwt::scale0(10) } else { AdmDwt::scale(scale) };
        let (rb, db) = (check(&dwt, &[r]), check(&dwt, &[d]));
        let (csf, cm) = if scale == 0 {
            (AdmCsf::scale0(RF0), AdmCm { scale, rfactor: RF0.map(u32::from) })
        } else {
            let rf = RF123[scale as usize - 1];
            (AdmCsf::scale123(rf), AdmCm { scale, rfactor: rf })
        };
        check(&AdmCsfDen { scale }, &rb[1..]);
        let masker = check(&csf, &rb[1..]);
        let ins: Vec<Value> = db[1..].iter().chain(&masker).cloned().collect();
        check(&cm, &ins);
        (r, d) = (rb[0].clone(), db[0].clone());
    }
}
