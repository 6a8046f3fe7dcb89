//! Building and verifying a graph: every edge is type-checked as it is added, errors name the node.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use crate::error::GraphError;
use crate::op::Op;
use crate::value::ValueType;

/// Index of a node in its graph.
pub type NodeId = usize;

/// One output of one node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ValueRef {
    pub node: NodeId,
    pub port: usize,
}

/// What a node is.
#[derive(Clone, Debug)]
pub enum NodeKind {
    /// A plane supplied by the caller each frame (e.g. `ref.y`).
    Input { name: String },
    /// An op applied to earlier values.
    Op { op: Arc<dyn Op>, inputs: Vec<ValueRef> },
}

/// A verified node: its label, what it is, and its output types.
#[derive(Clone, Debug)]
pub struct Node {
    pub label: String,
    pub kind: NodeKind,
    pub outputs: Vec<ValueType>,
}

impl Node {
    /// The op's registry name, or `input`.
    pub fn op_name(&self) -> &str {
        match &self.kind {
            NodeKind::Input { .. } => "input",
            NodeKind::Op { op, .. } => op.name(),
        }
    }
}

/// A verified DAG: nodes in a topological order (every node only refers to earlier ones), named inputs,
/// and named outputs (sums read back each frame).
#[derive(Clone, Debug)]
pub struct Graph {
    pub nodes: Vec<Node>,
    pub inputs: Vec<(String, NodeId)>,
    pub outputs: Vec<(String, ValueRef)>,
}

impl Graph {
    /// Type of a value.
    pub fn value_type(&self, v: ValueRef) -> ValueType {
        self.nodes[v.node].outputs[v.port]
    }

    /// Display name of a node (`n12:vif.s0.stats`).
    pub fn node_name(&self, id: NodeId) -> String {
        format!("n{id}:{}", self.nodes[id].label)
    }

    /// Declared type of a named input.
    pub fn input_type(&self, name: &str) -> Option<ValueType> {
        self.inputs.iter().find(|(n, _)| n == name).map(|&(_, id)| self.nodes[id].outputs[0])
    }
}

/// Builds a [`Graph`], verifying each node as it is added. Construction order is a topological order,
/// so a cycle cannot be expressed.
#[derive(Default)]
pub struct GraphBuilder {
    nodes: Vec<Node>,
    inputs: Vec<(String, NodeId)>,
    outputs: Vec<(String, ValueRef)>,
    output_names: HashMap<String, usize>,
}

impl GraphBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Declares a per-frame input. Asking again for the same name and type returns the same value, so
    /// several metrics can share `ref.y`; the same name with another type is an error.
    pub fn input(&mut self, name: &str, ty: ValueType) -> Result<ValueRef, GraphError> {
        if let Some(&(_, id)) = self.inputs.iter().find(|(n, _)| n == name) {
            if self.nodes[id].outputs[0] == ty {
                return Ok(ValueRef { node: id, port: 0 });
            }
            return Err(GraphError::DuplicateInput { name: name.to_string() });
        }
        let id = self.nodes.len();
        self.nodes.push(Node {
            label: name.to_string(),
            kind: NodeKind::Input { name: name.to_string() },
            outputs: vec![ty],
        });
        self.inputs.push((name.to_string(), id));
        Ok(ValueRef { node: id, port: 0 })
    }

    /// Type of a value already in the graph.
    pub fn value_type(&self, v: ValueRef) -> Option<ValueType> {
        self.nodes.get(v.node).and_then(|n| n.outputs.get(v.port)).copied()
    }

    /// Adds an op node reading `inputs`; returns one reference per output.
    pub fn op(&mut self, label: &str, op: impl Op, inputs: &[ValueRef]) -> Result<Vec<ValueRef>, GraphError> {
        self.op_arc(label, Arc::new(op), inputs)
    }

    /// Adds an op node that has exactly one output.
    pub fn op1(&mut self, label: &str, op: impl Op, inputs: &[ValueRef]) -> Result<ValueRef, GraphError> {
        let id = self.nodes.len();
        let name = op.name();
        let outs = self.op(label, op, inputs)?;
        match outs.as_slice() {
            [one] => Ok(*one),
            _ => Err(GraphError::BadInputs {
                node: format!("n{id}:{label}"),
                op: name.to_string(),
                reason: format!("expected one output, op has {}", outs.len()),
            }),
        }
    }

    /// [`GraphBuilder::op`] for an op already shared behind an `Arc`.
    pub fn op_arc(&mut self, label: &str, op: Arc<dyn Op>, inputs: &[ValueRef]) -> Result<Vec<ValueRef>, GraphError> {
        let id = self.nodes.len();
        let node_name = format!("n{id}:{label}");
        let mut types = Vec::with_capacity(inputs.len());
        for v in inputs {
            match self.value_type(*v) {
                Some(t) => types.push(t),
                None => {
                    return Err(GraphError::UnknownValue { node: node_name, value: format!("n{}.{}", v.node, v.port) });
                }
            }
        }
        let outputs = op.output_types(&types).map_err(|reason| GraphError::BadInputs {
            node: node_name.clone(),
            op: op.name().to_string(),
            reason,
        })?;
        if outputs.is_empty() {
            return Err(GraphError::BadInputs {
                node: node_name,
                op: op.name().to_string(),
                reason: "op has no outputs".into(),
            });
        }
        let n = outputs.len();
        self.nodes.push(Node { label: label.to_string(), kind: NodeKind::Op { op, inputs: inputs.to_vec() }, outputs });
        Ok((0..n).map(|port| ValueRef { node: id, port }).collect())
    }

    /// Marks a sums value as a named per-frame output.
    pub fn output(&mut self, name: &str, v: ValueRef) -> Result<(), GraphError> {
        let ty = self.value_type(v).ok_or_else(|| GraphError::UnknownValue {
            node: format!("output {name}"),
            value: format!("n{}.{}", v.node, v.port),
        })?;
        if !matches!(ty, ValueType::Sums { .. }) {
            return Err(GraphError::OutputNotSums { name: name.to_string(), ty: ty.to_string() });
        }
        if self.output_names.insert(name.to_string(), self.outputs.len()).is_some() {
            return Err(GraphError::DuplicateOutput { name: name.to_string() });
        }
        self.outputs.push((name.to_string(), v));
        Ok(())
    }

    /// Finishes the graph.
    pub fn build(self) -> Result<Graph, GraphError> {
        if self.outputs.is_empty() {
            return Err(GraphError::NoOutputs);
        }
        Ok(Graph { nodes: self.nodes, inputs: self.inputs, outputs: self.outputs })
    }
}

impl fmt::Display for Graph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (id, node) in self.nodes.iter().enumerate() {
            let outs: Vec<String> = node.outputs.iter().map(|t| t.to_string()).collect();
            match &node.kind {
                NodeKind::Input { name } => writeln!(f, "n{id}: input {name:?} -> {}", outs.join(", "))?,
                NodeKind::Op { op, inputs } => {
                    let ins: Vec<String> = inputs.iter().map(|v| format!("n{}.{}", v.node, v.port)).collect();
                    writeln!(
                        f,
                        "n{id}: {} = {}[{}]({}) -> {}",
                        node.label,
                        op.name(),
                        op.params(),
                        ins.join(", "),
                        outs.join(", ")
                    )?
                }
            }
        }
        for (name, v) in &self.outputs {
            writeln!(f, "output {name:?} = n{}.{}", v.node, v.port)?;
        }
        Ok(())
    }
}
