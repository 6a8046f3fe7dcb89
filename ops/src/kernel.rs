//! What every op's CubeCL kernel (`<op>/cube.rs`) shares: the [`CubeKernel`] trait through which an
//! executor launches an op, the layout of values in device memory, launch shapes, and the exact integer
//! reduction that turns a plane into a few sums.
//!
//! Device layout: a value of type `t` lives in one buffer of `t.len()` elements, row-major like on the host,
//! except that 16-bit elements are widened to 32 bits (WGSL has no 16-bit integers; values of a 16-bit plane
//! always fit, so widening and narrowing are exact). Kernels that write a 16-bit plane store what a C cast to
//! that type would give, widened back (see [`narrow16`]).
//!
//! Sums: a kernel reduces its plane to one u64 partial per cube (a shared-memory tree inside the cube), then
//! [`sum_partials`] adds the partials of each sum in one cube. Integer additions modulo 2^64 are associative
//! and commutative, so the order (cube size, number of cubes, device) cannot change a bit; i64 sums are added
//! as their two's-complement u64 bits, which gives the same bits as i64 wrapping addition. No 64-bit atomics
//! are needed (WGSL has none).

use std::any::Any;

use cubecl::prelude::*;
use cubecl::server::Handle;
use vqgraph_graph::{Elem, HostBuf, Plane, Value, ValueType};

/// Units per cube for every kernel here: a multiple of every warp/wavefront/subgroup size in use, and small
/// enough for any device's limit.
pub const CUBE_SIZE: u32 = 256;

/// Most cubes a reduction uses: enough to fill a large GPU, few enough that one cube adds the partials fast.
pub const MAX_REDUCE_CUBES: u32 = 1024;

/// A value in device memory: its buffer and static type.
#[derive(Clone, Debug)]
pub struct DeviceValue {
    pub handle: Handle,
    pub ty: ValueType,
}

impl DeviceValue {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.ty.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ty.is_empty()
    }

    /// The buffer as a kernel argument of element type `T` (which must have the device size of the elements).
    pub fn arg<R: Runtime>(&self) -> ArrayArg<R> {
        // SAFETY: every device buffer holds exactly `len` elements of its device size (see `device_bytes`).
        unsafe { ArrayArg::from_raw_parts(self.handle.clone(), self.len()) }
    }

    /// The buffer as 32-bit words (for kernels that only move data).
    pub fn words<R: Runtime>(&self) -> ArrayArg<R> {
        // SAFETY: the buffer holds `device_bytes(ty)` bytes, a multiple of 4.
        unsafe { ArrayArg::from_raw_parts(self.handle.clone(), device_bytes(&self.ty) / 4) }
    }
}

/// State a kernel keeps for one node of one stream: scratch buffers it allocated once, or (temporal ops)
/// what it remembers from earlier frames.
pub type KernelState = Option<Box<dyn Any + Send>>;

/// An op's device implementation, written once for every CubeCL runtime.
///
/// The executor calls [`CubeKernel::prepare`] once per stream and node, then [`CubeKernel::launch`] once per
/// frame. Inputs and outputs are buffers of the types the op's type rule gave; outputs never alias inputs.
/// `launch` only enqueues work: the executor decides when to wait for it.
pub trait CubeKernel<R: Runtime> {
    /// Allocates per-node scratch or state; refuses (with the reason) parameters the kernel cannot compute.
    fn prepare(
        &self,
        _client: &ComputeClient<R>,
        _inputs: &[ValueType],
        _outputs: &[ValueType],
    ) -> Result<KernelState, String> {
        Ok(None)
    }

    /// Enqueues the op's work for one frame.
    fn launch(
        &self,
        client: &ComputeClient<R>,
        inputs: &[DeviceValue],
        outputs: &[DeviceValue],
        state: &mut KernelState,
    ) -> Result<(), String>;
}

/// Bytes of one element in device memory.
pub fn device_elem_size(e: Elem) -> usize {
    match e {
        Elem::U16 | Elem::I16 | Elem::U32 | Elem::I32 => 4,
        Elem::U64 | Elem::I64 => 8,
    }
}

/// Bytes a value of type `ty` takes in device memory (at least 4, as zero-sized buffers are not allowed).
pub fn device_bytes(ty: &ValueType) -> usize {
    (ty.len() * device_elem_size(ty.elem())).max(4)
}

/// A host buffer in device layout (little-endian; 16-bit elements widened).
pub fn to_device_bytes(b: &HostBuf) -> Vec<u8> {
    fn le<T: Copy, const N: usize>(v: &[T], f: impl Fn(T) -> [u8; N]) -> Vec<u8> {
        let mut out = Vec::with_capacity(v.len() * N);
        for &x in v {
            out.extend_from_slice(&f(x));
        }
        out
    }
    let mut bytes = match b {
        HostBuf::U16(v) => le(v, |x| (x as u32).to_le_bytes()),
        HostBuf::I16(v) => le(v, |x| (x as i32).to_le_bytes()),
        HostBuf::U32(v) => le(v, u32::to_le_bytes),
        HostBuf::I32(v) => le(v, i32::to_le_bytes),
        HostBuf::U64(v) => le(v, u64::to_le_bytes),
        HostBuf::I64(v) => le(v, i64::to_le_bytes),
    };
    if bytes.is_empty() {
        bytes.resize(4, 0);
    }
    bytes
}

/// A buffer read back from the device, as a host buffer of `ty`'s element type.
pub fn from_device_bytes(bytes: &[u8], ty: &ValueType) -> Result<HostBuf, String> {
    let n = ty.len();
    let need = n * device_elem_size(ty.elem());
    if bytes.len() < need {
        return Err(format!("read back {} bytes for {ty}, expected {need}", bytes.len()));
    }
    let w4 = |i: usize| <[u8; 4]>::try_from(&bytes[4 * i..4 * i + 4]).expect("4 bytes");
    let w8 = |i: usize| <[u8; 8]>::try_from(&bytes[8 * i..8 * i + 8]).expect("8 bytes");
    Ok(match ty.elem() {
        // Kernels store 16-bit results already narrowed, so these casts drop only zero or sign bits.
        Elem::U16 => HostBuf::U16((0..n).map(|i| u32::from_le_bytes(w4(i)) as u16).collect()),
        Elem::I16 => HostBuf::I16((0..n).map(|i| i32::from_le_bytes(w4(i)) as i16).collect()),
        Elem::U32 => HostBuf::U32((0..n).map(|i| u32::from_le_bytes(w4(i))).collect()),
        Elem::I32 => HostBuf::I32((0..n).map(|i| i32::from_le_bytes(w4(i))).collect()),
        Elem::U64 => HostBuf::U64((0..n).map(|i| u64::from_le_bytes(w8(i))).collect()),
        Elem::I64 => HostBuf::I64((0..n).map(|i| i64::from_le_bytes(w8(i))).collect()),
    })
}

/// Copies a host value to a new device buffer.
pub fn upload<R: Runtime>(client: &ComputeClient<R>, v: &Value) -> DeviceValue {
    DeviceValue { handle: client.create_from_slice(&to_device_bytes(v.buf())), ty: v.value_type() }
}

/// A new device buffer for a value of type `ty` (contents undefined until a kernel writes it).
pub fn alloc<R: Runtime>(client: &ComputeClient<R>, ty: ValueType) -> DeviceValue {
    DeviceValue { handle: client.empty(device_bytes(&ty)), ty }
}

/// Turns bytes read back for a value of type `ty` into a host value.
pub fn host_value(bytes: &[u8], ty: &ValueType) -> Result<Value, String> {
    let data = from_device_bytes(bytes, ty)?;
    Ok(match *ty {
        ValueType::Plane { width, height, .. } => Value::Plane(Plane { width, height, data }),
        ValueType::Sums { .. } => Value::Sums(data),
    })
}

/// Reads device values back to the host (waits for the work that writes them).
pub fn download<R: Runtime>(client: &ComputeClient<R>, values: &[&DeviceValue]) -> Result<Vec<Value>, String> {
    if values.is_empty() {
        return Ok(Vec::new());
    }
    let handles = values.iter().map(|v| v.handle.clone()).collect();
    let bytes = cubecl::future::block_on(client.read_async(handles)).map_err(|e| format!("read back: {e:?}"))?;
    bytes.iter().zip(values).map(|(b, v)| host_value(b, &v.ty)).collect()
}

/// Launch shape covering `n` elements with one unit each: cubes of [`CUBE_SIZE`] units in a 2-D grid (one
/// grid dimension is limited to 65535 cubes). Kernels find their element with [`linear_index`].
pub fn linear_launch(n: usize) -> (CubeCount, CubeDim) {
    let cubes = n.div_ceil(CUBE_SIZE as usize).max(1) as u32;
    let x = cubes.min(65535);
    (CubeCount::Static(x, cubes.div_ceil(x), 1), CubeDim::new_1d(CUBE_SIZE))
}

/// Launch shape for a `width` x `height` grid: one cube row of [`CUBE_SIZE`] columns per plane row.
pub fn rows_launch(width: usize, height: usize) -> Result<(CubeCount, CubeDim), String> {
    if height > 65535 {
        return Err(format!("plane height {height} exceeds the 65535 rows one launch covers"));
    }
    let x = width.div_ceil(CUBE_SIZE as usize).max(1) as u32;
    Ok((CubeCount::Static(x, height.max(1) as u32, 1), CubeDim::new_1d(CUBE_SIZE)))
}

/// Number of cubes a reduction over `n` elements uses (each unit then visits several elements).
pub fn reduce_cubes(n: usize) -> u32 {
    (n.div_ceil(4 * CUBE_SIZE as usize) as u32).clamp(1, MAX_REDUCE_CUBES)
}

/// This unit's element under [`linear_launch`].
#[cube]
pub fn linear_index() -> usize {
    ((CUBE_POS_Y * CUBE_COUNT_X + CUBE_POS_X) * CUBE_DIM_X + UNIT_POS_X) as usize
}

/// Reflect-101 mirroring (libvmaf's padding): -1 reads 1, `n` reads `n - 2`. Valid for `-n < i < 2n - 1`.
#[cube]
pub fn mirror(i: i32, n: i32) -> i32 {
    let mut r = i;
    if i < 0 {
        r = -i;
    }
    if i >= n {
        r = 2 * n - i - 2;
    }
    r
}

/// `x` as i64: zero-extended (`signed = false`) or sign-extended from its 32 bits.
///
/// Written with a u32 -> u64 conversion and u64 arithmetic only, because the direct `i64(x)` of WGSL is
/// miscompiled on at least one stack we test on (naga 29 -> SPIR-V -> Mesa lavapipe 22.3): `i64(u32)`
/// sign-extends, and comparisons of `i64(i32)` inside loops came out wrong. Every kernel widens through here.
#[cube]
pub fn wide<I: Int>(x: I, #[comptime] signed: bool) -> i64 {
    let z = u64::cast_from(u32::cast_from(x));
    if comptime![signed] { i64::cast_from((z ^ 0x8000_0000u64) - 0x8000_0000u64) } else { i64::cast_from(z) }
}

/// Sum of one u64 per unit of the cube; the result is valid on unit 0. A tree in shared memory: every
/// addition is exact modulo 2^64, so the tree's shape does not matter. Every unit of the cube must call it.
#[cube]
pub fn cube_sum(v: u64) -> u64 {
    let mut shared = SharedMemory::<u64>::new(CUBE_SIZE as usize);
    let u = UNIT_POS as usize;
    shared[u] = v;
    sync_cube();
    #[unroll]
    for level in 1..9u32 {
        let half = comptime![(CUBE_SIZE >> level) as usize];
        if u < half {
            shared[u] = shared[u] + shared[u + half];
        }
        sync_cube();
    }
    shared[0]
}

/// Second reduction pass: `out[c] = sum of partials[c * n .. (c + 1) * n]` for each sum `c` (one cube
/// each). `partials` and `out` hold u64 bits (i64 sums are added as their two's-complement bits).
#[cube(launch_unchecked)]
pub fn sum_partials(partials: &Array<u64>, out: &mut Array<u64>, n: u32) {
    let c = CUBE_POS_X as usize;
    let base = c * n as usize;
    let mut acc = 0u64;
    let mut i = UNIT_POS_X as usize;
    while i < n as usize {
        acc += partials[base + i];
        i += CUBE_SIZE as usize;
    }
    let total = cube_sum(acc);
    if UNIT_POS_X == 0 {
        out[c] = total;
    }
}

/// Scratch of a reduction: one u64 partial per cube and sum.
pub struct Partials {
    pub handle: Handle,
    /// Cubes of the first pass (partials per sum).
    pub cubes: u32,
    /// Sums reduced at once.
    pub sums: u32,
}

impl Partials {
    /// Scratch for `sums` sums over `n` elements each.
    pub fn new<R: Runtime>(client: &ComputeClient<R>, n: usize, sums: u32) -> Self {
        let cubes = reduce_cubes(n);
        Partials { handle: client.empty(cubes as usize * sums as usize * 8), cubes, sums }
    }

    /// The partials as a kernel argument.
    pub fn arg<R: Runtime>(&self) -> ArrayArg<R> {
        // SAFETY: the buffer was allocated for exactly this many u64.
        unsafe { ArrayArg::from_raw_parts(self.handle.clone(), (self.cubes * self.sums) as usize) }
    }

    /// Launch shape of the first pass.
    pub fn first_pass(&self) -> (CubeCount, CubeDim) {
        (CubeCount::Static(self.cubes, 1, 1), CubeDim::new_1d(CUBE_SIZE))
    }

    /// Enqueues the second pass, writing the sums into `out` (a `sums<u64|i64>` value).
    pub fn finish<R: Runtime>(&self, client: &ComputeClient<R>, out: &DeviceValue) -> Result<(), String> {
        if out.len() != self.sums as usize || device_elem_size(out.ty.elem()) != 8 {
            return Err(format!("reduction of {} sums cannot write {}", self.sums, out.ty));
        }
        // SAFETY: `sum_partials` reads `cubes * sums` partials and writes `sums` outputs, both allocated so.
        unsafe {
            sum_partials::launch_unchecked::<R>(
                client,
                CubeCount::Static(self.sums, 1, 1),
                CubeDim::new_1d(CUBE_SIZE),
                self.arg(),
                ArrayArg::from_raw_parts(out.handle.clone(), self.sums as usize),
                self.cubes,
            )
        };
        Ok(())
    }
}

/// The per-node scratch of a kernel, downcast from its [`KernelState`].
pub fn state_mut<'a, T: 'static>(state: &'a mut KernelState, op: &str) -> Result<&'a mut T, String> {
    state
        .as_mut()
        .and_then(|s| s.downcast_mut::<T>())
        .ok_or_else(|| format!("{op}: kernel state missing (prepare was not called)"))
}

/// What a C cast of `v` to a 16-bit type gives, widened back to 32 bits: the low 16 bits, zero-extended
/// (`signed = false`) or sign-extended.
#[cube]
pub fn narrow16<O: Int>(v: O, #[comptime] signed: bool) -> O {
    if comptime![signed] { (v << O::new(16)) >> O::new(16) } else { v & O::new(0xFFFF) }
}

/// Starting wgpu devices. A device can be set up once per process, so the outcome is remembered.
#[cfg(feature = "wgpu")]
pub mod wgpu {
    use std::sync::Mutex;

    use cubecl::wgpu::{AutoGraphicsApi, RuntimeOptions, WgpuDevice, init_setup};

    pub use cubecl::wgpu::WgpuRuntime;

    static STARTED: Mutex<Vec<(WgpuDevice, Result<String, String>)>> = Mutex::new(Vec::new());

    /// Sets `device` up (first call) and describes its adapter: name, type, graphics API, driver. An
    /// error says why no adapter could be used (no Vulkan/Metal driver, no device of that kind).
    pub fn start(device: &WgpuDevice) -> Result<String, String> {
        let mut started = STARTED.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, r)) = started.iter().find(|(d, _)| d == device) {
            return r.clone();
        }
        // cubecl panics when no adapter answers; that is an ordinary "cannot start" here.
        let d = device.clone();
        let r = std::panic::catch_unwind(move || init_setup::<AutoGraphicsApi>(&d, RuntimeOptions::default()))
            .map(|setup| {
                let i = setup.adapter.get_info();
                format!("{} ({:?}, {:?}, {} {})", i.name, i.device_type, i.backend, i.driver, i.driver_info)
            })
            .map_err(|p| {
                let msg = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "unknown failure".into());
                format!("no usable wgpu adapter ({msg}); on a machine without a GPU install a Vulkan driver such as Mesa's lavapipe (Debian: mesa-vulkan-drivers)")
            });
        started.push((device.clone(), r.clone()));
        r
    }
}

/// Test support: runs an op's CPU reference and its kernel on the same inputs and compare every output.
#[cfg(all(test, feature = "wgpu"))]
pub mod testing {
    use cubecl::prelude::*;
    use cubecl::wgpu::{WgpuDevice, WgpuRuntime};
    use vqgraph_graph::{Op, OpState, Value, ValueType};

    use super::{CubeKernel, DeviceValue, KernelState, alloc, download, upload};

    /// The wgpu client of the default adapter; prints the adapter (once per test binary).
    pub fn client() -> ComputeClient<WgpuRuntime> {
        static SHOWN: std::sync::Once = std::sync::Once::new();
        let name = super::wgpu::start(&WgpuDevice::DefaultDevice).expect("wgpu adapter");
        SHOWN.call_once(|| println!("kernel tests run on wgpu adapter: {name}"));
        WgpuRuntime::client(&WgpuDevice::DefaultDevice)
    }

    /// One node run frame after frame on the CPU and on the device, with state kept on both sides.
    pub struct Harness<'a, K> {
        op: &'a K,
        client: ComputeClient<WgpuRuntime>,
        out_types: Vec<ValueType>,
        cpu_state: OpState,
        dev_state: KernelState,
        outputs: Vec<DeviceValue>,
    }

    impl<'a, K: Op + CubeKernel<WgpuRuntime>> Harness<'a, K> {
        pub fn new(op: &'a K, in_types: &[ValueType]) -> Self {
            let client = client();
            let out_types = op.output_types(in_types).expect("type rule");
            let dev_state = op.prepare(&client, in_types, &out_types).expect("prepare");
            let outputs = out_types.iter().map(|t| alloc(&client, *t)).collect();
            Harness { op, client, out_types, cpu_state: None, dev_state, outputs }
        }

        /// Runs one frame on both sides; panics (naming the op, output and first differing element) unless
        /// every output is identical. Returns the outputs.
        pub fn frame(&mut self, inputs: &[Value]) -> Vec<Value> {
            let mut cpu: Vec<Value> = self.out_types.iter().map(|t| t.zeroed()).collect();
            let refs: Vec<&Value> = inputs.iter().collect();
            self.op.eval_cpu(&refs, &mut cpu, &mut self.cpu_state).expect("cpu reference");
            let dev_in: Vec<DeviceValue> = inputs.iter().map(|v| upload(&self.client, v)).collect();
            self.op.launch(&self.client, &dev_in, &self.outputs, &mut self.dev_state).expect("launch");
            let outs: Vec<&DeviceValue> = self.outputs.iter().collect();
            let dev = download(&self.client, &outs).expect("read back");
            for (port, (c, d)) in cpu.iter().zip(&dev).enumerate() {
                if c != d {
                    let first = first_difference(c, d);
                    panic!(
                        "{} [{}] output {port} differs from the CPU reference: {first}",
                        self.op.name(),
                        self.op.params()
                    );
                }
            }
            cpu
        }
    }

    /// Runs one frame of a stateless op and asserts device == CPU.
    pub fn check<K: Op + CubeKernel<WgpuRuntime>>(op: &K, inputs: &[Value]) -> Vec<Value> {
        let types: Vec<ValueType> = inputs.iter().map(|v| v.value_type()).collect();
        Harness::new(op, &types).frame(inputs)
    }

    /// A plane of `w` x `h` pseudo-random values in `lo..=hi` (a fixed xorshift sequence per seed), with the
    /// extremes `lo` and `hi` at the first two positions so every test plane reaches both ends of its range.
    pub fn random(w: usize, h: usize, lo: i64, hi: i64, seed: u64) -> Vec<i64> {
        let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let span = (hi - lo) as u64 + 1;
        (0..w * h)
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
            .collect()
    }

    /// A plane value of element type `elem` from `random`'s values (cast like C).
    pub fn plane(elem: vqgraph_graph::Elem, w: usize, h: usize, lo: i64, hi: i64, seed: u64) -> Value {
        use vqgraph_graph::{Elem, HostBuf, Plane};
        let v = random(w, h, lo, hi, seed);
        let data = match elem {
            Elem::U16 => HostBuf::U16(v.iter().map(|&x| x as u16).collect()),
            Elem::I16 => HostBuf::I16(v.iter().map(|&x| x as i16).collect()),
            Elem::U32 => HostBuf::U32(v.iter().map(|&x| x as u32).collect()),
            Elem::I32 => HostBuf::I32(v.iter().map(|&x| x as i32).collect()),
            Elem::U64 => HostBuf::U64(v.iter().map(|&x| x as u64).collect()),
            Elem::I64 => HostBuf::I64(v),
        };
        Value::Plane(Plane { width: w, height: h, data })
    }

    /// Where two values first differ, in words.
    pub fn first_difference(a: &Value, b: &Value) -> String {
        crate::util::first_difference(a, b).unwrap_or_else(|| "no difference".into())
    }
}
