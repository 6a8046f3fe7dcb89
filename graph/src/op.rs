//! The `Op` trait: one node's meaning, type rule and CPU reference.

use std::any::Any;
use std::fmt;

use crate::value::{Value, ValueType};

/// What kind of access pattern an op has. The scheduler needs nothing else to place and fuse it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpClass {
    /// Each output element depends on the same position of the inputs.
    Pointwise,
    /// Each output element depends on a bounded neighbourhood of the inputs (convolutions, wavelets).
    Stencil,
    /// Whole planes fold into a few exact sums.
    Reduce,
    /// Output depends on all earlier elements along a row or column.
    Scan,
    /// Output has another geometry than the input (decimation, upsampling).
    Resample,
    /// Keeps state from earlier frames (delay lines for temporal metrics).
    Temporal,
    /// Anything else: executed as a unit, never fused.
    Opaque,
}

impl fmt::Display for OpClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            OpClass::Pointwise => "pointwise",
            OpClass::Stencil => "stencil",
            OpClass::Reduce => "reduce",
            OpClass::Scan => "scan",
            OpClass::Resample => "resample",
            OpClass::Temporal => "temporal",
            OpClass::Opaque => "opaque",
        };
        f.write_str(s)
    }
}

/// What a registry knows of an op kind without building one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpInfo {
    /// Registry key, e.g. `"sep_conv"`.
    pub name: &'static str,
    /// Access pattern, used by the scheduler.
    pub class: OpClass,
    /// One line saying what it computes.
    pub summary: &'static str,
}

/// Downcasting support for every op, so backends can find their own kernel for an op and ops can recognise
/// each other when fusing.
pub trait AsAny: Any {
    fn as_any(&self) -> &dyn Any;
}

impl<T: Any> AsAny for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Per-node state kept by an executor across frames (only [`OpClass::Temporal`] ops use it).
pub type OpState = Option<Box<dyn Any + Send>>;

/// One operation of the IR.
///
/// An op has a name (its registry key), parameters (shown by [`Op::params`]), a type rule
/// ([`Op::output_types`]) checked when the graph is built, and one CPU reference implementation
/// ([`Op::eval_cpu`]) in exact arithmetic that every other backend must reproduce bit for bit.
pub trait Op: AsAny + Send + Sync + fmt::Debug {
    /// The op kind's registry entry.
    fn info(&self) -> &'static OpInfo;

    /// Registry key, e.g. `"sep_conv"`.
    fn name(&self) -> &'static str {
        self.info().name
    }

    /// Access pattern, used by the scheduler.
    fn class(&self) -> OpClass {
        self.info().class
    }

    /// Parameters in a short human-readable form, for printed plans.
    fn params(&self) -> String {
        String::new()
    }

    /// Output types for the given input types, or why the inputs are not acceptable.
    fn output_types(&self, inputs: &[ValueType]) -> Result<Vec<ValueType>, String>;

    /// The CPU reference: fill `outputs` (already allocated with the types of [`Op::output_types`]) from
    /// `inputs`. `state` persists across frames for this node. Errors here are internal bugs: the type rule
    /// must have rejected anything the op cannot compute.
    fn eval_cpu(&self, inputs: &[&Value], outputs: &mut [Value], state: &mut OpState) -> Result<(), String>;

    /// An op computing `next(self(x))` in one pass, if this op knows one; the scheduler uses it when this
    /// op's only output feeds only `next`, and `next` reads nothing else.
    fn fuse(&self, _next: &dyn Op) -> Option<std::sync::Arc<dyn Op>> {
        None
    }
}
