//! The CPU backend: an interpreter over a scheduled plan. Each op's CPU reference parallelises its own work
//! with rayon over rows; every reduction is an exact integer sum, so the thread count cannot change a bit.

use std::sync::Arc;
use std::time::{Duration, Instant};

use vqgraph_graph::{Backend, FrameOutputs, OpState, Plan, RunError, Session, StepTrace, Value};

/// Runs plans on the host. `threads = 0` uses rayon's default (all cores).
#[derive(Clone, Debug, Default)]
pub struct CpuBackend {
    threads: usize,
}

impl CpuBackend {
    pub fn new(threads: usize) -> Self {
        CpuBackend { threads }
    }
}

impl Backend for CpuBackend {
    fn name(&self) -> &str {
        "cpu"
    }

    fn device(&self) -> String {
        let n = if self.threads == 0 { rayon::current_num_threads() } else { self.threads };
        format!("host CPU, {n} thread{}", if n == 1 { "" } else { "s" })
    }

    fn start(&self, plan: Arc<Plan>) -> Result<Box<dyn Session>, RunError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .build()
            .map_err(|e| RunError::Backend { backend: "cpu".into(), reason: format!("thread pool: {e}") })?;
        // Buffers are allocated once per stream and reused for every frame.
        let slots = plan.slots.iter().map(|t| t.zeroed()).collect();
        let states = plan.steps.iter().map(|_| None).collect();
        let profile = std::env::var_os("VQGRAPH_PROFILE").is_some().then(|| vec![Duration::ZERO; plan.steps.len()]);
        Ok(Box::new(CpuSession { plan, pool, slots, states, profile, frames: 0 }))
    }
}

struct CpuSession {
    plan: Arc<Plan>,
    pool: rayon::ThreadPool,
    slots: Vec<Value>,
    states: Vec<OpState>,
    /// Time spent per step, when `VQGRAPH_PROFILE` is set; printed when the session ends.
    profile: Option<Vec<Duration>>,
    frames: usize,
}

impl Drop for CpuSession {
    fn drop(&mut self) {
        let Some(times) = &self.profile else { return };
        let total: Duration = times.iter().sum();
        eprintln!(
            "cpu profile: {} frames, {:.2} ms/frame in steps",
            self.frames,
            ms(total) / self.frames.max(1) as f64
        );
        let mut order: Vec<usize> = (0..times.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(times[i]));
        for i in order {
            let step = &self.plan.steps[i];
            eprintln!(
                "  {:>8.3} ms/frame  {:<32} {}",
                ms(times[i]) / self.frames.max(1) as f64,
                step.name,
                step.op.name()
            );
        }
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

impl Session for CpuSession {
    fn run_frame(&mut self, frame: usize, inputs: Vec<Value>) -> Result<FrameOutputs, RunError> {
        self.run(frame, inputs, None)
    }

    fn run_frame_traced(
        &mut self,
        frame: usize,
        inputs: Vec<Value>,
        trace: &mut StepTrace<'_>,
    ) -> Result<FrameOutputs, RunError> {
        self.run(frame, inputs, Some(trace))
    }
}

impl CpuSession {
    /// Runs one frame, handing each step's outputs to `trace` if given.
    fn run(
        &mut self,
        frame: usize,
        inputs: Vec<Value>,
        mut trace: Option<&mut StepTrace<'_>>,
    ) -> Result<FrameOutputs, RunError> {
        let plan = &self.plan;
        for ((_, slot), v) in plan.inputs.iter().zip(inputs) {
            self.slots[*slot] = v;
        }
        let slots = &mut self.slots;
        let pool = &self.pool;
        self.frames += 1;
        for (i, (step, state)) in plan.steps.iter().zip(self.states.iter_mut()).enumerate() {
            let started = Instant::now();
            // Take the outputs out of the slot table so inputs can be borrowed at the same time; the
            // scheduler never gives an op an output slot it also reads.
            let mut outs: Vec<Value> = step
                .outputs
                .iter()
                .map(|&s| std::mem::replace(&mut slots[s], Value::Sums(vqgraph_graph::HostBuf::U16(Vec::new()))))
                .collect();
            let ins: Vec<&Value> = step.inputs.iter().map(|&s| &slots[s]).collect();
            // Each op parallelises inside the session's pool (the trace callback stays on this thread).
            let res = pool.install(|| step.op.eval_cpu(&ins, &mut outs, state));
            if let Some(p) = self.profile.as_mut() {
                p[i] += started.elapsed();
            }
            if let (Some(t), Ok(())) = (trace.as_mut(), &res) {
                t(i, &outs);
            }
            for (&s, v) in step.outputs.iter().zip(outs) {
                slots[s] = v;
            }
            res.map_err(|reason| RunError::Node {
                frame,
                node: step.name.clone(),
                op: step.op.name().to_string(),
                reason,
            })?;
        }
        let values = plan.outputs.iter().map(|(name, s)| (name.clone(), self.slots[*s].buf().clone())).collect();
        Ok(FrameOutputs { values })
    }
}
