//! The builder's verification (errors name the node), the scheduler's liveness, slot reuse and fusion, and
//! `graph::run` rejecting frames of the wrong type — with two toy ops defined here.

use std::sync::Arc;

use vqgraph_graph::{
    Backend, Elem, FrameOutputs, GraphBuilder, GraphError, HostBuf, Op, OpClass, OpInfo, OpState, Plan, RunError,
    Session, Value, ValueType, schedule,
};

/// Adds one to every u16 sample.
#[derive(Debug)]
struct Inc;
impl Op for Inc {
    fn info(&self) -> &'static OpInfo {
        &OpInfo { name: "inc", class: OpClass::Pointwise, summary: "test op" }
    }
    fn output_types(&self, inputs: &[ValueType]) -> Result<Vec<ValueType>, String> {
        match inputs {
            [t @ ValueType::Plane { elem: Elem::U16, .. }] => Ok(vec![*t]),
            _ => Err(format!("expected one u16 plane, got {inputs:?}")),
        }
    }
    fn fuse(&self, next: &dyn Op) -> Option<Arc<dyn Op>> {
        // inc then sum = a sum that adds the pixel count: a toy fusion the scheduler must apply.
        next.as_any().is::<Sum>().then(|| Arc::new(SumPlus(1)) as Arc<dyn Op>)
    }
    fn eval_cpu(&self, inputs: &[&Value], outputs: &mut [Value], _: &mut OpState) -> Result<(), String> {
        let x = inputs[0].buf().as_u16().unwrap();
        for (o, &v) in outputs[0].buf_mut().as_u16_mut().unwrap().iter_mut().zip(x) {
            *o = v + 1;
        }
        Ok(())
    }
}

/// Sum of a u16 plane.
#[derive(Debug)]
struct Sum;
/// Sum of a u16 plane plus `k` per sample.
#[derive(Debug)]
struct SumPlus(u64);

fn sum_types(inputs: &[ValueType]) -> Result<Vec<ValueType>, String> {
    match inputs {
        [ValueType::Plane { elem: Elem::U16, .. }] => Ok(vec![ValueType::sums(Elem::U64, 1)]),
        _ => Err("expected one u16 plane".into()),
    }
}

fn sum_eval(k: u64, inputs: &[&Value], outputs: &mut [Value]) {
    let s: u64 = inputs[0].buf().as_u16().unwrap().iter().map(|&v| v as u64 + k).sum();
    outputs[0].buf_mut().as_u64_mut().unwrap()[0] = s;
}

impl Op for Sum {
    fn info(&self) -> &'static OpInfo {
        &OpInfo { name: "sum", class: OpClass::Reduce, summary: "test op" }
    }
    fn output_types(&self, inputs: &[ValueType]) -> Result<Vec<ValueType>, String> {
        sum_types(inputs)
    }
    fn eval_cpu(&self, inputs: &[&Value], outputs: &mut [Value], _: &mut OpState) -> Result<(), String> {
        sum_eval(0, inputs, outputs);
        Ok(())
    }
}

impl Op for SumPlus {
    fn info(&self) -> &'static OpInfo {
        &OpInfo { name: "sum_plus", class: OpClass::Reduce, summary: "test op" }
    }
    fn output_types(&self, inputs: &[ValueType]) -> Result<Vec<ValueType>, String> {
        sum_types(inputs)
    }
    fn eval_cpu(&self, inputs: &[&Value], outputs: &mut [Value], _: &mut OpState) -> Result<(), String> {
        sum_eval(self.0, inputs, outputs);
        Ok(())
    }
}

const PLANE: ValueType = ValueType::Plane { elem: Elem::U16, width: 4, height: 2 };

#[test]
fn type_errors_name_the_node_and_op() {
    let mut b = GraphBuilder::new();
    let x = b.input("x", ValueType::plane(Elem::I32, 4, 2)).unwrap();
    let err = b.op1("bump", Inc, &[x]).unwrap_err();
    assert!(matches!(&err, GraphError::BadInputs { node, op, .. } if node == "n1:bump" && op == "inc"), "{err}");
    assert!(err.to_string().contains("n1:bump (inc)"), "{err}");
}

#[test]
fn outputs_must_be_sums_and_unique_and_present() {
    let mut b = GraphBuilder::new();
    let x = b.input("x", PLANE).unwrap();
    assert!(matches!(b.output("p", x), Err(GraphError::OutputNotSums { .. })));
    let s = b.op1("s", Sum, &[x]).unwrap();
    b.output("s", s).unwrap();
    assert!(matches!(b.output("s", s), Err(GraphError::DuplicateOutput { .. })));
    assert!(matches!(GraphBuilder::new().build(), Err(GraphError::NoOutputs)));
}

#[test]
fn inputs_are_shared_by_name_but_not_across_types() {
    let mut b = GraphBuilder::new();
    let a = b.input("ref.y", PLANE).unwrap();
    assert_eq!(b.input("ref.y", PLANE).unwrap(), a);
    assert!(matches!(b.input("ref.y", ValueType::plane(Elem::U16, 5, 2)), Err(GraphError::DuplicateInput { .. })));
}

fn chain() -> vqgraph_graph::Graph {
    // x -> inc -> inc -> inc -> sum ; plus a dead branch x -> inc (never read)
    let mut b = GraphBuilder::new();
    let x = b.input("x", PLANE).unwrap();
    let mut v = x;
    for i in 0..3 {
        v = b.op1(&format!("inc{i}"), Inc, &[v]).unwrap();
    }
    b.op1("dead", Inc, &[x]).unwrap();
    let s = b.op1("total", Sum, &[v]).unwrap();
    b.output("total", s).unwrap();
    b.build().unwrap()
}

#[test]
fn scheduler_drops_dead_nodes_reuses_slots_and_fuses() {
    let plan = schedule(&chain());
    let names: Vec<&str> = plan.steps.iter().map(|s| s.op.name()).collect();
    // inc2 + total fused into sum_plus; the dead branch is gone.
    assert_eq!(names, ["inc", "inc", "sum_plus"]);
    assert!(plan.steps[2].name.contains("inc2+total"), "{}", plan.steps[2].name);
    // The input's slot plus two planes: an op's output never shares a slot with its input.
    assert_eq!(plan.slots.iter().filter(|t| matches!(t, ValueType::Plane { .. })).count(), 3);
    for step in &plan.steps {
        for o in &step.outputs {
            assert!(!step.inputs.contains(o), "{} writes a slot it reads", step.name);
        }
    }
    let printed = plan.to_string();
    assert!(printed.starts_with("plan: 3 steps"), "{printed}");
}

#[test]
fn slots_are_reused_once_values_die() {
    // x -> inc0 -> inc1 -> inc2 -> inc3 -> two sums (two readers of inc3: no fusion).
    let mut b = GraphBuilder::new();
    let x = b.input("x", PLANE).unwrap();
    let mut v = x;
    for i in 0..4 {
        v = b.op1(&format!("inc{i}"), Inc, &[v]).unwrap();
    }
    let s1 = b.op1("s1", Sum, &[v]).unwrap();
    let s2 = b.op1("s2", Sum, &[v]).unwrap();
    b.output("s1", s1).unwrap();
    b.output("s2", s2).unwrap();
    let plan = schedule(&b.build().unwrap());
    assert_eq!(plan.steps.len(), 6, "{plan}");
    // Four intermediate planes live one step each: two slots suffice, plus the input's.
    assert_eq!(plan.slots.iter().filter(|t| matches!(t, ValueType::Plane { .. })).count(), 3, "{plan}");
    assert!(plan.slot_bytes() < plan.unshared_bytes);
}

/// A minimal backend interpreting plans, to test `graph::run` without the real executors.
struct Interp;
struct InterpSession(Arc<Plan>, Vec<Value>);
impl Backend for Interp {
    fn name(&self) -> &str {
        "test"
    }
    fn device(&self) -> String {
        "none".into()
    }
    fn start(&self, plan: Arc<Plan>) -> Result<Box<dyn Session>, RunError> {
        let slots = plan.slots.iter().map(|t| t.zeroed()).collect();
        Ok(Box::new(InterpSession(plan, slots)))
    }
}
impl Session for InterpSession {
    fn run_frame(&mut self, _frame: usize, inputs: Vec<Value>) -> Result<FrameOutputs, RunError> {
        for ((_, s), v) in self.0.inputs.iter().zip(inputs) {
            self.1[*s] = v;
        }
        for step in &self.0.steps {
            let mut outs: Vec<Value> = step.outputs.iter().map(|&s| self.1[s].clone()).collect();
            let ins: Vec<&Value> = step.inputs.iter().map(|&s| &self.1[s]).collect();
            step.op.eval_cpu(&ins, &mut outs, &mut None).unwrap();
            for (&s, v) in step.outputs.iter().zip(outs) {
                self.1[s] = v;
            }
        }
        Ok(FrameOutputs { values: self.0.outputs.iter().map(|(n, s)| (n.clone(), self.1[*s].buf().clone())).collect() })
    }
}

#[test]
fn run_computes_the_fused_plan_and_rejects_bad_frames() {
    let g = chain();
    let frame = Value::Plane(vqgraph_graph::Plane { width: 4, height: 2, data: HostBuf::U16((0..8).collect()) });
    let mut got = Vec::new();
    let n = vqgraph_graph::run(&g, &Interp, [Ok(vec![frame])], |_, out| {
        got.push(out.get("total").unwrap().as_u64().unwrap()[0]);
        Ok(())
    })
    .unwrap();
    assert_eq!((n, got), (1, vec![(0..8).sum::<u64>() + 3 * 8]));

    let wrong = Value::Plane(vqgraph_graph::Plane { width: 2, height: 4, data: HostBuf::U16(vec![0; 8]) });
    let err = vqgraph_graph::run(&g, &Interp, [Ok(vec![wrong])], |_, _| Ok(())).unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("frame 0") && msg.contains("\"x\""), "{msg}");
}
