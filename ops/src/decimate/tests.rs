use vqgraph_graph::{Elem, HostBuf, Op, Plane, Value, ValueType};

use super::Decimate;

#[test]
fn keeps_even_rows_and_columns_and_floors_odd_sizes() {
    let (w, h) = (5, 3);
    let input = Value::Plane(Plane { width: w, height: h, data: HostBuf::U16((0..15).collect()) });
    let ty = Decimate.output_types(&[input.value_type()]).unwrap();
    assert_eq!(ty, vec![ValueType::plane(Elem::U16, 2, 1)]);
    let mut out = vec![ty[0].zeroed()];
    Decimate.eval_cpu(&[&input], &mut out, &mut None).unwrap();
    assert_eq!(out[0].buf().as_u16().unwrap(), &[0, 2]);
}
