//! Typed values flowing along graph edges: their static types and their host-side contents.

use std::fmt;

/// Element type of a plane or of a vector of sums.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Elem {
    U16,
    I16,
    U32,
    I32,
    U64,
    I64,
}

impl Elem {
    /// Size of one element in bytes.
    pub fn size(self) -> usize {
        match self {
            Elem::U16 | Elem::I16 => 2,
            Elem::U32 | Elem::I32 => 4,
            Elem::U64 | Elem::I64 => 8,
        }
    }
}

impl fmt::Display for Elem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            Elem::U16 => "u16",
            Elem::I16 => "i16",
            Elem::U32 => "u32",
            Elem::I32 => "i32",
            Elem::U64 => "u64",
            Elem::I64 => "i64",
        };
        f.write_str(s)
    }
}

/// Static type of a value: known when the graph is built, before any frame is seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueType {
    /// A `width` x `height` plane, rows stored contiguously (stride = width).
    Plane { elem: Elem, width: usize, height: usize },
    /// A short vector of exact integer sums (the per-frame results read back from a device).
    Sums { elem: Elem, len: usize },
}

impl ValueType {
    pub fn plane(elem: Elem, width: usize, height: usize) -> Self {
        ValueType::Plane { elem, width, height }
    }

    pub fn sums(elem: Elem, len: usize) -> Self {
        ValueType::Sums { elem, len }
    }

    pub fn elem(&self) -> Elem {
        match *self {
            ValueType::Plane { elem, .. } | ValueType::Sums { elem, .. } => elem,
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        match *self {
            ValueType::Plane { width, height, .. } => width * height,
            ValueType::Sums { len, .. } => len,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes needed to hold the value.
    pub fn bytes(&self) -> usize {
        self.len() * self.elem().size()
    }

    /// A zero-filled host value of this type.
    pub fn zeroed(&self) -> Value {
        let data = HostBuf::zeroed(self.elem(), self.len());
        match *self {
            ValueType::Plane { width, height, .. } => Value::Plane(Plane { width, height, data }),
            ValueType::Sums { .. } => Value::Sums(data),
        }
    }
}

impl fmt::Display for ValueType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueType::Plane { elem, width, height } => write!(f, "plane<{elem}>[{width}x{height}]"),
            ValueType::Sums { elem, len } => write!(f, "sums<{elem}>[{len}]"),
        }
    }
}

/// Host memory holding the elements of one value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostBuf {
    U16(Vec<u16>),
    I16(Vec<i16>),
    U32(Vec<u32>),
    I32(Vec<i32>),
    U64(Vec<u64>),
    I64(Vec<i64>),
}

macro_rules! accessors {
    ($($get:ident, $get_mut:ident, $variant:ident, $t:ty);* $(;)?) => {
        $(
            /// The elements, if this buffer has that element type.
            pub fn $get(&self) -> Option<&[$t]> {
                match self { HostBuf::$variant(v) => Some(v), _ => None }
            }
            /// The elements, mutably, if this buffer has that element type.
            pub fn $get_mut(&mut self) -> Option<&mut [$t]> {
                match self { HostBuf::$variant(v) => Some(v), _ => None }
            }
        )*
    };
}

impl HostBuf {
    pub fn zeroed(elem: Elem, len: usize) -> Self {
        match elem {
            Elem::U16 => HostBuf::U16(vec![0; len]),
            Elem::I16 => HostBuf::I16(vec![0; len]),
            Elem::U32 => HostBuf::U32(vec![0; len]),
            Elem::I32 => HostBuf::I32(vec![0; len]),
            Elem::U64 => HostBuf::U64(vec![0; len]),
            Elem::I64 => HostBuf::I64(vec![0; len]),
        }
    }

    pub fn elem(&self) -> Elem {
        match self {
            HostBuf::U16(_) => Elem::U16,
            HostBuf::I16(_) => Elem::I16,
            HostBuf::U32(_) => Elem::U32,
            HostBuf::I32(_) => Elem::I32,
            HostBuf::U64(_) => Elem::U64,
            HostBuf::I64(_) => Elem::I64,
        }
    }

    pub fn len(&self) -> usize {
        match self {
            HostBuf::U16(v) => v.len(),
            HostBuf::I16(v) => v.len(),
            HostBuf::U32(v) => v.len(),
            HostBuf::I32(v) => v.len(),
            HostBuf::U64(v) => v.len(),
            HostBuf::I64(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    accessors! {
        as_u16, as_u16_mut, U16, u16;
        as_i16, as_i16_mut, I16, i16;
        as_u32, as_u32_mut, U32, u32;
        as_i32, as_i32_mut, I32, i32;
        as_u64, as_u64_mut, U64, u64;
        as_i64, as_i64_mut, I64, i64;
    }
}

/// A plane on the host: `width * height` elements, row-major, no padding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plane {
    pub width: usize,
    pub height: usize,
    pub data: HostBuf,
}

/// A value on the host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Plane(Plane),
    Sums(HostBuf),
}

impl Value {
    /// The static type this value has.
    pub fn value_type(&self) -> ValueType {
        match self {
            Value::Plane(p) => ValueType::Plane { elem: p.data.elem(), width: p.width, height: p.height },
            Value::Sums(b) => ValueType::Sums { elem: b.elem(), len: b.len() },
        }
    }

    pub fn buf(&self) -> &HostBuf {
        match self {
            Value::Plane(p) => &p.data,
            Value::Sums(b) => b,
        }
    }

    pub fn buf_mut(&mut self) -> &mut HostBuf {
        match self {
            Value::Plane(p) => &mut p.data,
            Value::Sums(b) => b,
        }
    }

    pub fn as_plane(&self) -> Option<&Plane> {
        match self {
            Value::Plane(p) => Some(p),
            Value::Sums(_) => None,
        }
    }
}
