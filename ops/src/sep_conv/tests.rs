use vqgraph_graph::{Elem, HostBuf, Op, Plane, Value};

use super::SepConv;

fn run(op: &SepConv, w: usize, h: usize, data: HostBuf) -> Value {
    let input = Value::Plane(Plane { width: w, height: h, data });
    let ty = op.output_types(&[input.value_type()]).unwrap();
    let mut out = vec![ty[0].zeroed()];
    op.eval_cpu(&[&input], &mut out, &mut None).unwrap();
    out.pop().unwrap()
}

#[test]
fn identity_taps_copy_the_plane() {
    let op = SepConv::rounded(&[0, 1, 0], 0, 0, Elem::U16);
    let data: Vec<u16> = (0..20).collect();
    let out = run(&op, 5, 4, HostBuf::U16(data.clone()));
    assert_eq!(out.buf().as_u16().unwrap(), &data[..]);
}

#[test]
fn mirror_edges_reflect_without_repeating_the_edge() {
    // Horizontal-only box [1,1,1] on one row 1 2 3 4: edges read x[1] and x[n-2].
    let op = SepConv {
        taps: vec![1, 1, 1],
        v_round: 0,
        v_shift: 0,
        h_round: 0,
        h_shift: 0,
        out: Elem::I32,
        input_max: None,
        stride: 1,
    };
    // three identical rows, so the vertical pass multiplies by 3
    let row = [1i32, 2, 3, 4];
    let data: Vec<i32> = row.iter().cycle().take(12).copied().collect();
    let out = run(&op, 4, 3, HostBuf::I32(data));
    let got = &out.buf().as_i32().unwrap()[0..4];
    assert_eq!(got, &[3 * (2 + 1 + 2), 3 * (1 + 2 + 3), 3 * (2 + 3 + 4), 3 * (3 + 4 + 3)]);
}

#[test]
fn rounding_shift_is_arithmetic_for_negative_values() {
    // (-3 + 1) >> 1 = -1 in C's arithmetic shift; a division would give 0 after truncation... or -1: check -5.
    let op = SepConv {
        taps: vec![1],
        v_round: 1,
        v_shift: 1,
        h_round: 0,
        h_shift: 0,
        out: Elem::I32,
        input_max: None,
        stride: 1,
    };
    let out = run(&op, 2, 1, HostBuf::I32(vec![-5, 5]));
    assert_eq!(out.buf().as_i32().unwrap(), &[-2, 3]);
}

#[test]
fn too_small_planes_are_rejected_by_the_type_rule() {
    let op = SepConv::rounded(&[1, 2, 3, 2, 1], 8, 16, Elem::U16);
    let err = op.output_types(&[vqgraph_graph::ValueType::plane(Elem::U16, 2, 10)]).unwrap_err();
    assert!(err.contains("too small"), "{err}");
}

#[test]
fn stride_two_equals_filter_then_decimate() {
    use crate::decimate::Decimate;
    let (w, h) = (11, 7);
    let data: Vec<u16> = (0..w * h).map(|i| ((i * 7919) % 251) as u16).collect();
    let op = SepConv::rounded(&[1, 4, 6, 4, 1], 2, 2, Elem::U16);
    let full = run(&op, w, h, HostBuf::U16(data.clone()));
    let mut dec = vec![Decimate.output_types(&[full.value_type()]).unwrap()[0].zeroed()];
    Decimate.eval_cpu(&[&full], &mut dec, &mut None).unwrap();
    let fused = op.fuse(&Decimate).expect("sep_conv fuses with decimate");
    let input = Value::Plane(Plane { width: w, height: h, data: HostBuf::U16(data) });
    let ty = fused.output_types(&[input.value_type()]).unwrap();
    let mut out = vec![ty[0].zeroed()];
    fused.eval_cpu(&[&input], &mut out, &mut None).unwrap();
    assert_eq!(out[0], dec[0]);
}
