//! The CubeCL executor: one implementation of [`Backend`] for every CubeCL runtime (wgpu, CUDA, HIP).
//!
//! A session allocates a device buffer for every slot of the plan once and reuses it for every frame; each
//! frame uploads the plan's inputs, launches each step's kernel ([`vqgraph_ops::registry::cube_kernel`]) in
//! plan order, and reads back only the plan's outputs (the per-frame sums). Temporal state (the previous
//! frame of `frame_delay`) lives on the device, in the kernel's own state. A plan with an op that has no
//! kernel yet cannot start: the error names the op; nothing ever falls back to the CPU.

use std::sync::Arc;

use cubecl::prelude::*;
use vqgraph_graph::{Backend, FrameOutputs, Plan, RunError, Session, StepTrace, Value};
use vqgraph_ops::kernel::{CubeKernel, DeviceValue, KernelState, alloc, download, upload};
use vqgraph_ops::registry::cube_kernel;

/// Runs plans on one device of CubeCL runtime `R`.
pub struct CubeBackend<R: Runtime> {
    /// `wgpu`, `cuda`, `hip`.
    name: &'static str,
    /// The device in words (adapter or GPU name, driver).
    device: String,
    client: ComputeClient<R>,
}

impl<R: Runtime> CubeBackend<R> {
    /// A backend on an already started device.
    pub fn new(name: &'static str, device: String, client: ComputeClient<R>) -> Self {
        CubeBackend { name, device, client }
    }

    fn error(&self, reason: String) -> RunError {
        RunError::Backend { backend: self.name.to_string(), reason }
    }
}

impl<R: Runtime> Backend for CubeBackend<R>
where
    ComputeClient<R>: Send + Sync,
{
    fn name(&self) -> &str {
        self.name
    }

    fn device(&self) -> String {
        self.device.clone()
    }

    fn start(&self, plan: Arc<Plan>) -> Result<Box<dyn Session>, RunError> {
        let client = &self.client;
        // Every op needs a kernel before anything is allocated.
        let mut missing: Vec<(&str, Vec<&str>)> = Vec::new();
        for s in plan.steps.iter().filter(|s| cube_kernel::<R>(s.op.as_ref()).is_none()) {
            match missing.iter_mut().find(|(op, _)| *op == s.op.name()) {
                Some((_, nodes)) => nodes.push(&s.name),
                None => missing.push((s.op.name(), vec![&s.name])),
            }
        }
        if !missing.is_empty() {
            let list: Vec<String> =
                missing.iter().map(|(op, nodes)| format!("{op} (nodes {})", nodes.join(", "))).collect();
            return Err(self.error(format!(
                "no {} kernel yet for op {}; run this graph with --backend cpu",
                self.name,
                list.join("; ")
            )));
        }
        let slots: Vec<DeviceValue> = plan.slots.iter().map(|t| alloc(client, *t)).collect();
        let mut states = Vec::with_capacity(plan.steps.len());
        for step in &plan.steps {
            let kernel = cube_kernel::<R>(step.op.as_ref()).expect("checked above");
            let ins: Vec<_> = step.inputs.iter().map(|&s| plan.slots[s]).collect();
            let outs: Vec<_> = step.outputs.iter().map(|&s| plan.slots[s]).collect();
            let state = kernel
                .prepare(client, &ins, &outs)
                .map_err(|reason| self.error(format!("node {} ({}): {reason}", step.name, step.op.name())))?;
            states.push(state);
        }
        Ok(Box::new(CubeSession { name: self.name, plan, client: client.clone(), slots, states }))
    }
}

struct CubeSession<R: Runtime> {
    name: &'static str,
    plan: Arc<Plan>,
    client: ComputeClient<R>,
    slots: Vec<DeviceValue>,
    states: Vec<KernelState>,
}

impl<R: Runtime> CubeSession<R> {
    fn kernel(&self, i: usize) -> &dyn CubeKernel<R> {
        cube_kernel::<R>(self.plan.steps[i].op.as_ref()).expect("start() checked every op has a kernel")
    }

    fn upload_inputs(&mut self, inputs: Vec<Value>) {
        // A fresh buffer per frame from CubeCL's memory pool: the previous frame's input buffer returns to the
        // pool when replaced here, so steady state allocates nothing new.
        for ((_, slot), v) in self.plan.inputs.iter().zip(&inputs) {
            self.slots[*slot] = upload(&self.client, v);
        }
    }

    /// Enqueues step `i` for this frame.
    fn launch(&mut self, frame: usize, i: usize) -> Result<(), RunError> {
        let step = &self.plan.steps[i];
        let ins: Vec<DeviceValue> = step.inputs.iter().map(|&s| self.slots[s].clone()).collect();
        let outs: Vec<DeviceValue> = step.outputs.iter().map(|&s| self.slots[s].clone()).collect();
        let mut state = self.states[i].take();
        let r = self.kernel(i).launch(&self.client, &ins, &outs, &mut state);
        self.states[i] = state;
        r.map_err(|reason| RunError::Node { frame, node: step.name.clone(), op: step.op.name().to_string(), reason })
    }

    fn device_error(&self, frame: usize, reason: String) -> RunError {
        RunError::Backend { backend: self.name.to_string(), reason: format!("frame {frame}: {reason}") }
    }

    fn outputs(&self, frame: usize) -> Result<FrameOutputs, RunError> {
        let outs: Vec<&DeviceValue> = self.plan.outputs.iter().map(|(_, s)| &self.slots[*s]).collect();
        let values = download(&self.client, &outs).map_err(|e| self.device_error(frame, e))?;
        let values =
            self.plan.outputs.iter().zip(values).map(|((name, _), v)| (name.clone(), v.buf().clone())).collect();
        Ok(FrameOutputs { values })
    }
}

impl<R: Runtime> Session for CubeSession<R>
where
    ComputeClient<R>: Send,
{
    fn run_frame(&mut self, frame: usize, inputs: Vec<Value>) -> Result<FrameOutputs, RunError> {
        self.upload_inputs(inputs);
        for i in 0..self.plan.steps.len() {
            self.launch(frame, i)?;
        }
        self.outputs(frame)
    }

    fn run_frame_traced(
        &mut self,
        frame: usize,
        inputs: Vec<Value>,
        trace: &mut StepTrace<'_>,
    ) -> Result<FrameOutputs, RunError> {
        self.upload_inputs(inputs);
        for i in 0..self.plan.steps.len() {
            self.launch(frame, i)?;
            // Reading back waits for the step: slow, but this is the checking path.
            let outs: Vec<&DeviceValue> = self.plan.steps[i].outputs.iter().map(|&s| &self.slots[s]).collect();
            let values = download(&self.client, &outs).map_err(|e| self.device_error(frame, e))?;
            trace(i, &values);
        }
        self.outputs(frame)
    }
}

/// The wgpu backend on `device` (`WgpuDevice::DefaultDevice`: the best adapter wgpu finds, which honours
/// `CUBECL_WGPU_DEFAULT_DEVICE`).
#[cfg(feature = "wgpu")]
pub fn wgpu(device: cubecl::wgpu::WgpuDevice) -> Result<CubeBackend<cubecl::wgpu::WgpuRuntime>, RunError> {
    use vqgraph_ops::kernel::wgpu::{WgpuRuntime, start};
    let name = start(&device).map_err(|reason| RunError::Backend { backend: "wgpu".into(), reason })?;
    Ok(CubeBackend::new("wgpu", name, WgpuRuntime::client(&device)))
}

/// A CubeCL runtime whose client creation panics when no device answers (CUDA, HIP): the panic becomes
/// an error naming the backend.
#[cfg(any(feature = "cuda", feature = "hip"))]
fn start_panicking<R: Runtime>(name: &'static str, device: R::Device) -> Result<CubeBackend<R>, RunError> {
    let client = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| R::client(&device))).map_err(|p| {
        RunError::Backend {
            backend: name.into(),
            reason: format!(
                "no usable device: {}",
                p.downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default()
            ),
        }
    })?;
    let desc = format!("{} device {:?}", R::name(&client), device);
    Ok(CubeBackend::new(name, desc, client))
}

/// The CUDA backend on GPU `index`.
#[cfg(feature = "cuda")]
pub fn cuda(index: usize) -> Result<CubeBackend<cubecl::cuda::CudaRuntime>, RunError> {
    start_panicking("cuda", cubecl::cuda::CudaDevice::new(index))
}

/// The HIP backend on GPU `index` (builds here; not run: no ROCm device on the machines we test on).
#[cfg(feature = "hip")]
pub fn hip(index: usize) -> Result<CubeBackend<cubecl::hip::HipRuntime>, RunError> {
    start_panicking("hip", cubecl::hip::AmdDevice::new(index))
}
