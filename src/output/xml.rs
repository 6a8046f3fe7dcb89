//! libvmaf's XML layout (`<VMAF>` with `params`, `fyi`, `frames`, `pooled_metrics`, `aggregate_metrics`),
//! byte for byte the way libvmaf 3.2's `vmaf_write_output_xml` prints it: every attribute followed by one
//! space (so elements end ` />`), no escaping, and infinities or NaN printed as `printf` spells them.

use std::io::{self, Write};

use super::number::printf_fixed;
use super::report::Report;

/// Writes `report` as libvmaf XML; `width` and `height` are the pictures' luma size (`qualityWidth`,
/// `qualityHeight`).
pub fn write_xml<W: Write>(out: &mut W, report: &Report, width: usize, height: usize) -> io::Result<()> {
    writeln!(out, "<VMAF version=\"{}\">", report.version)?;
    writeln!(out, "  <params qualityWidth=\"{width}\" qualityHeight=\"{height}\" />")?;
    // Unlike the JSON writer, the XML one prints fps without checking it is finite.
    writeln!(out, "  <fyi fps=\"{}\" />", printf_fixed(report.fps, 2))?;
    writeln!(out, "  <frames>")?;
    for (i, frame) in report.printed_frames() {
        write!(out, "    <frame frameNum=\"{i}\" ")?;
        for (k, v) in frame {
            write!(out, "{k}=\"{}\" ", report.precision.printf(*v))?;
        }
        writeln!(out, "/>")?;
    }
    writeln!(out, "  </frames>")?;
    writeln!(out, "  <pooled_metrics>")?;
    for key in report.keys() {
        write!(out, "    <metric name=\"{key}\" ")?;
        if let Some(p) = report.pooled(&key) {
            for (name, v) in [("min", p.min), ("max", p.max), ("mean", p.mean), ("harmonic_mean", p.harmonic_mean)] {
                write!(out, "{name}=\"{}\" ", report.precision.printf(v))?;
            }
        }
        writeln!(out, "/>")?;
    }
    writeln!(out, "  </pooled_metrics>")?;
    write!(out, "  <aggregate_metrics ")?;
    for (k, v) in &report.aggregate {
        write!(out, "{k}=\"{}\" ", report.precision.printf(*v))?;
    }
    writeln!(out, "/>")?;
    writeln!(out, "</VMAF>")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_with_non_finite_values_and_subsampling() {
        let mut report = Report {
            version: "v".into(),
            fps: f64::INFINITY,
            frames: vec![
                vec![("a".into(), 1.0), ("b".into(), f64::NAN)],
                vec![("a".into(), 5.0), ("b".into(), 0.0)],
                vec![("a".into(), 3.0), ("b".into(), f64::NEG_INFINITY)],
            ],
            aggregate: vec![],
            ..Default::default()
        };
        report.subsample(2);
        let mut out = Vec::new();
        write_xml(&mut out, &report, 4, 2).unwrap();
        let expected = r#"<VMAF version="v">
  <params qualityWidth="4" qualityHeight="2" />
  <fyi fps="inf" />
  <frames>
    <frame frameNum="0" a="1.000000" b="nan" />
    <frame frameNum="2" a="3.000000" b="-inf" />
  </frames>
  <pooled_metrics>
    <metric name="a" min="1.000000" max="3.000000" mean="2.000000" harmonic_mean="1.666667" />
    <metric name="b" min="nan" max="nan" mean="nan" harmonic_mean="nan" />
  </pooled_metrics>
  <aggregate_metrics />
</VMAF>
"#;
        assert_eq!(String::from_utf8(out).unwrap(), expected);
    }
}
