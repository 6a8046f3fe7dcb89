//! The scheduler: orders the live nodes of a graph and assigns their values to reusable buffer slots.
//!
//! A plan is what backends execute. It is deterministic (same graph, same plan) and printable, so
//! `--dump-plan` output can be read and snapshot-tested.

use std::fmt;
use std::sync::Arc;

use crate::builder::{Graph, NodeId, NodeKind, ValueRef};
use crate::op::{Op, OpClass};
use crate::value::ValueType;

/// One op execution in a plan.
#[derive(Clone, Debug)]
pub struct Step {
    /// The graph node this step runs.
    pub node: NodeId,
    /// Display name (`n12:vif.s0.stats`).
    pub name: String,
    pub op: Arc<dyn Op>,
    /// Slots read, in the op's input order.
    pub inputs: Vec<usize>,
    /// Slots written, in the op's output order.
    pub outputs: Vec<usize>,
}

/// A scheduled graph: steps in execution order over a fixed set of buffer slots.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Type of each buffer slot; a slot holds successive values whose lifetimes do not overlap.
    pub slots: Vec<ValueType>,
    /// Named per-frame inputs and the slot each is uploaded into.
    pub inputs: Vec<(String, usize)>,
    pub steps: Vec<Step>,
    /// Named per-frame outputs and the slot each is read back from.
    pub outputs: Vec<(String, usize)>,
    /// Sum of the bytes of all values if none shared a slot (to show what reuse saves).
    pub unshared_bytes: usize,
}

impl Plan {
    /// Bytes of all slots together.
    pub fn slot_bytes(&self) -> usize {
        self.slots.iter().map(|t| t.bytes()).sum()
    }

    /// Index of the named input.
    pub fn input_index(&self, name: &str) -> Option<usize> {
        self.inputs.iter().position(|(n, _)| n == name)
    }
}

/// Schedules a verified graph: drops nodes no output depends on, keeps construction order (a topological
/// order), and gives each value a slot, reusing a slot of the same type once its last reader has run.
/// Temporal ops keep their history in their own state, not in slots, so reuse never breaks them.
pub fn schedule(graph: &Graph) -> Plan {
    let fused = fuse(graph);
    let graph = &fused;
    let n = graph.nodes.len();
    // Liveness: which nodes an output depends on.
    let mut live = vec![false; n];
    for (_, v) in &graph.outputs {
        live[v.node] = true;
    }
    for id in (0..n).rev() {
        if !live[id] {
            continue;
        }
        if let NodeKind::Op { inputs, .. } = &graph.nodes[id].kind {
            for v in inputs {
                live[v.node] = true;
            }
        }
    }
    // Last step (by node id) reading each value; outputs live to the end of the frame.
    let mut last_use: std::collections::HashMap<ValueRef, usize> = std::collections::HashMap::new();
    for (id, node) in graph.nodes.iter().enumerate() {
        if !live[id] {
            continue;
        }
        if let NodeKind::Op { inputs, .. } = &node.kind {
            for v in inputs {
                last_use.insert(*v, id);
            }
        }
    }
    for (_, v) in &graph.outputs {
        last_use.insert(*v, usize::MAX);
    }

    let mut slots: Vec<ValueType> = Vec::new();
    let mut free: Vec<usize> = Vec::new();
    let mut slot_of: std::collections::HashMap<ValueRef, usize> = std::collections::HashMap::new();
    let mut plan_inputs = Vec::new();
    let mut steps = Vec::new();
    let mut unshared_bytes = 0;

    let alloc = |ty: ValueType, slots: &mut Vec<ValueType>, free: &mut Vec<usize>| -> usize {
        if let Some(pos) = free.iter().position(|&s| slots[s] == ty) {
            return free.swap_remove(pos);
        }
        slots.push(ty);
        slots.len() - 1
    };

    for (id, node) in graph.nodes.iter().enumerate() {
        match &node.kind {
            NodeKind::Input { name } => {
                // Inputs are uploaded before any step runs, so they never share a slot with each other.
                let ty = node.outputs[0];
                slots.push(ty);
                let s = slots.len() - 1;
                unshared_bytes += ty.bytes();
                slot_of.insert(ValueRef { node: id, port: 0 }, s);
                plan_inputs.push((name.clone(), s));
            }
            NodeKind::Op { op, inputs } => {
                if !live[id] {
                    continue;
                }
                let in_slots: Vec<usize> = inputs.iter().map(|v| slot_of[v]).collect();
                // Outputs are allocated before the inputs are released: an op never writes a slot it reads.
                let mut out_slots = Vec::with_capacity(node.outputs.len());
                for (port, ty) in node.outputs.iter().enumerate() {
                    let s = alloc(*ty, &mut slots, &mut free);
                    unshared_bytes += ty.bytes();
                    slot_of.insert(ValueRef { node: id, port }, s);
                    out_slots.push(s);
                }
                for v in inputs {
                    if last_use.get(v) == Some(&id) && !free.contains(&slot_of[v]) {
                        let is_input = matches!(graph.nodes[v.node].kind, NodeKind::Input { .. });
                        if !is_input {
                            free.push(slot_of[v]);
                        }
                    }
                }
                // An output nobody reads is free at once.
                for port in 0..node.outputs.len() {
                    let v = ValueRef { node: id, port };
                    if !last_use.contains_key(&v) {
                        free.push(slot_of[&v]);
                    }
                }
                steps.push(Step {
                    node: id,
                    name: graph.node_name(id),
                    op: op.clone(),
                    inputs: in_slots,
                    outputs: out_slots,
                });
            }
        }
    }
    let outputs = graph.outputs.iter().map(|(name, v)| (name.clone(), slot_of[v])).collect();
    Plan { slots, inputs: plan_inputs, steps, outputs, unshared_bytes }
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "plan: {} steps, {} slots, {} bytes of buffers ({} without reuse)",
            self.steps.len(),
            self.slots.len(),
            self.slot_bytes(),
            self.unshared_bytes
        )?;
        for (name, s) in &self.inputs {
            writeln!(f, "  in   s{s:<3} {:<24} {name}", self.slots[*s].to_string())?;
        }
        for step in &self.steps {
            let ins: Vec<String> = step.inputs.iter().map(|s| format!("s{s}")).collect();
            let outs: Vec<String> = step.outputs.iter().map(|s| format!("s{s}")).collect();
            let class = step.op.class();
            let params = step.op.params();
            writeln!(
                f,
                "  {:<9} {:<28} {}({}) -> {}{}",
                class.to_string(),
                step.name,
                step.op.name(),
                ins.join(", "),
                outs.join(", "),
                if params.is_empty() { String::new() } else { format!("  [{params}]") }
            )?;
        }
        for (name, s) in &self.outputs {
            writeln!(f, "  out  s{s:<3} {:<24} {name}", self.slots[*s].to_string())?;
        }
        Ok(())
    }
}

/// Fusion pass: where an op's only output is read only by a single-input op, and the producer knows a fused
/// op for the pair ([`Op::fuse`]), the consumer is replaced by the fused op reading the producer's inputs.
/// The producer is then dead and dropped by liveness. The fused op must have the consumer's output types.
fn fuse(graph: &Graph) -> Graph {
    let mut g = graph.clone();
    let mut uses: std::collections::HashMap<ValueRef, usize> = std::collections::HashMap::new();
    for node in &g.nodes {
        if let NodeKind::Op { inputs, .. } = &node.kind {
            for v in inputs {
                *uses.entry(*v).or_default() += 1;
            }
        }
    }
    for (_, v) in &g.outputs {
        *uses.entry(*v).or_default() += 1;
    }
    for id in 0..g.nodes.len() {
        let NodeKind::Op { op: consumer, inputs } = &g.nodes[id].kind else { continue };
        let [p] = inputs.as_slice() else { continue };
        let producer = &g.nodes[p.node];
        let NodeKind::Op { op: first, inputs: first_inputs } = &producer.kind else { continue };
        if producer.outputs.len() != 1 || uses.get(p) != Some(&1) {
            continue;
        }
        let Some(f) = first.fuse(consumer.as_ref()) else { continue };
        let in_types: Vec<ValueType> = first_inputs.iter().map(|v| g.value_type(*v)).collect();
        if f.output_types(&in_types).ok().as_deref() != Some(&g.nodes[id].outputs[..]) {
            continue;
        }
        let label = format!("{}+{}", producer.label, g.nodes[id].label);
        let first_inputs = first_inputs.clone();
        g.nodes[id].kind = NodeKind::Op { op: f, inputs: first_inputs };
        g.nodes[id].label = label;
    }
    g
}

/// Whether any step of the plan keeps state across frames.
pub fn has_temporal(plan: &Plan) -> bool {
    plan.steps.iter().any(|s| s.op.class() == OpClass::Temporal)
}
