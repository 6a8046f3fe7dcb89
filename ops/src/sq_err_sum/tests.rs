use vqgraph_graph::{Elem, HostBuf, Op, Plane, Value, ValueType};

use super::SqErrSum;

#[test]
fn sums_squared_differences_exactly() {
    let a = Value::Plane(Plane { width: 2, height: 2, data: HostBuf::U16(vec![0, 65535, 10, 3]) });
    let b = Value::Plane(Plane { width: 2, height: 2, data: HostBuf::U16(vec![65535, 0, 7, 3]) });
    let ty = SqErrSum.output_types(&[a.value_type(), b.value_type()]).unwrap();
    assert_eq!(ty, vec![ValueType::sums(Elem::U64, 1)]);
    let mut out = vec![ty[0].zeroed()];
    SqErrSum.eval_cpu(&[&a, &b], &mut out, &mut None).unwrap();
    assert_eq!(out[0].buf().as_u64().unwrap(), &[2 * 65535u64 * 65535 + 9]);
}

#[test]
fn mismatched_planes_are_rejected() {
    let e = SqErrSum.output_types(&[ValueType::plane(Elem::U16, 4, 4), ValueType::plane(Elem::U16, 4, 5)]).unwrap_err();
    assert!(e.contains("differ"), "{e}");
}
