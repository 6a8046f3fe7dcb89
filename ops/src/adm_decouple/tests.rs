//! Tests of `adm_decouple`.

use vqgraph_graph::{Elem, HostBuf, Op, Plane, Value, ValueType};

use super::AdmDecouple;

fn rng(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

#[test]
#[ignore]
fn bench_decouple_i16() {
    let (w, h) = (960, 540);
    let mut seed = 0x1234_5678_9abc_def0u64;
    let planes: Vec<Value> = (0..6)
        .map(|_| {
            let d: Vec<i16> = (0..w * h).map(|_| ((rng(&mut seed) % 2001) as i32 - 1000) as i16).collect();
            Value::Plane(Plane { width: w, height: h, data: HostBuf::I16(d) })
        })
        .collect();
    let ins: Vec<&Value> = planes.iter().collect();
    let op = AdmDecouple { gain_limit: 100.0 };
    let mut outs: Vec<Value> = vec![ValueType::plane(Elem::I16, w, h).zeroed(); 6];
    let mut best = f64::MAX;
    for _ in 0..20 {
        let t = std::time::Instant::now();
        op.eval_cpu(&ins, &mut outs, &mut None).unwrap();
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
    }
    println!("decouple 960x540 i16: {best:.2} ms");
}
