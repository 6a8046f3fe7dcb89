//! Small helpers shared by the CPU references: typed access to values, edge handling.

use vqgraph_graph::{Elem, HostBuf, Plane, Value, ValueType};

/// Reflect-101 mirroring, as libvmaf pads: index -1 reads 1, index `n` reads `n - 2`.
/// Valid for `-n < i < 2n - 1`; callers keep their filter radius below the plane size.
#[inline(always)]
pub fn mirror(i: isize, n: usize) -> usize {
    let n = n as isize;
    let r = if i < 0 {
        -i
    } else if i >= n {
        2 * n - i - 2
    } else {
        i
    };
    r as usize
}

/// The plane inside a value (the type rule guarantees it is one).
pub fn plane(v: &Value) -> Result<&Plane, String> {
    v.as_plane().ok_or_else(|| "expected a plane".to_string())
}

/// Geometry of a plane type, with its element type checked against `allowed`.
pub fn plane_geom(t: &ValueType, allowed: &[Elem], what: &str) -> Result<(Elem, usize, usize), String> {
    match *t {
        ValueType::Plane { elem, width, height } if allowed.contains(&elem) => Ok((elem, width, height)),
        ValueType::Plane { elem, .. } => {
            Err(format!("{what}: element type {elem} not accepted (want one of {allowed:?})"))
        }
        ValueType::Sums { .. } => Err(format!("{what}: expected a plane, got {t}")),
    }
}

/// Checks the number of inputs.
pub fn arity(inputs: &[ValueType], n: usize) -> Result<(), String> {
    if inputs.len() == n { Ok(()) } else { Err(format!("expected {n} inputs, got {}", inputs.len())) }
}

/// Checks two same-size planes of one of the `allowed` element types; returns (elem, width, height).
pub fn same_planes(inputs: &[ValueType], allowed: &[Elem]) -> Result<(Elem, usize, usize), String> {
    arity(inputs, 2)?;
    let a = plane_geom(&inputs[0], allowed, "a")?;
    let b = plane_geom(&inputs[1], allowed, "b")?;
    if a != b {
        return Err(format!("planes differ: {} vs {}", inputs[0], inputs[1]));
    }
    Ok(a)
}

/// Where two host values first differ (type, then element index and both elements), or `None` if equal.
pub fn first_difference(a: &Value, b: &Value) -> Option<String> {
    if a.value_type() != b.value_type() {
        return Some(format!("types differ: {} vs {}", a.value_type(), b.value_type()));
    }
    fn idx<T: PartialEq + std::fmt::Debug>(x: &[T], y: &[T], ty: &ValueType) -> Option<String> {
        let i = x.iter().zip(y).position(|(p, q)| p != q)?;
        let at = match *ty {
            ValueType::Plane { width, .. } => format!("element {i} (row {}, column {})", i / width, i % width),
            ValueType::Sums { .. } => format!("sum {i}"),
        };
        Some(format!("{at}: {:?} vs {:?}", x[i], y[i]))
    }
    let ty = a.value_type();
    match (a.buf(), b.buf()) {
        (HostBuf::U16(x), HostBuf::U16(y)) => idx(x, y, &ty),
        (HostBuf::I16(x), HostBuf::I16(y)) => idx(x, y, &ty),
        (HostBuf::U32(x), HostBuf::U32(y)) => idx(x, y, &ty),
        (HostBuf::I32(x), HostBuf::I32(y)) => idx(x, y, &ty),
        (HostBuf::U64(x), HostBuf::U64(y)) => idx(x, y, &ty),
        (HostBuf::I64(x), HostBuf::I64(y)) => idx(x, y, &ty),
        _ => Some("element types differ".into()),
    }
}
