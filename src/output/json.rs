//! libvmaf's JSON layout (`frames[].frameNum/metrics`, `pooled_metrics`, `aggregate_metrics`), byte for byte
//! the way libvmaf 3.2's `vmaf_write_output_json` prints it. Its quirks are kept: a `null` metric ends its
//! line without a newline, and a key whose pooling fails gets an empty object.

use std::io::{self, Write};

use super::report::Report;

fn num(report: &Report, x: f64) -> String {
    report.precision.json(x).unwrap_or_else(|| "null".into())
}

/// Writes `report` as libvmaf JSON: its printed frames ([`Report::printed_frames`]) and their pooling.
pub fn write_json<W: Write>(out: &mut W, report: &Report) -> io::Result<()> {
    writeln!(out, "{{")?;
    writeln!(out, "  \"version\": \"{}\",", report.version)?;
    if report.fps.is_finite() {
        writeln!(out, "  \"fps\": {:.2},", report.fps)?;
    } else {
        writeln!(out, "  \"fps\": null,")?;
    }
    write!(out, "  \"frames\": [")?;
    for (i, frame) in report.printed_frames() {
        // libvmaf picks the separator by frame number, not by frames printed so far; the first printed frame
        // is always frame 0 in its runs, so this never shows.
        write!(out, "{}", if i > 0 { ",\n" } else { "\n" })?;
        writeln!(out, "    {{")?;
        writeln!(out, "      \"frameNum\": {i},")?;
        writeln!(out, "      \"metrics\": {{")?;
        for (j, (k, v)) in frame.iter().enumerate() {
            let comma = if j + 1 < frame.len() { "," } else { "" };
            // libvmaf prints no newline after a null metric; keep its bytes.
            match report.precision.json(*v) {
                Some(s) => writeln!(out, "        \"{k}\": {s}{comma}")?,
                None => write!(out, "        \"{k}\": null{comma}")?,
            }
        }
        writeln!(out, "      }}")?;
        write!(out, "    }}")?;
    }
    writeln!(out, "\n  ],")?;
    write!(out, "  \"pooled_metrics\": {{")?;
    for (i, key) in report.keys().iter().enumerate() {
        write!(out, "{}", if i > 0 { ",\n" } else { "\n" })?;
        write!(out, "    \"{key}\": {{")?;
        if let Some(p) = report.pooled(key) {
            write!(out, "\n      \"min\": {}", num(report, p.min))?;
            write!(out, ",\n      \"max\": {}", num(report, p.max))?;
            write!(out, ",\n      \"mean\": {}", num(report, p.mean))?;
            write!(out, ",\n      \"harmonic_mean\": {}", num(report, p.harmonic_mean))?;
        }
        writeln!(out)?;
        write!(out, "    }}")?;
    }
    writeln!(out, "\n  }},")?;
    write!(out, "  \"aggregate_metrics\": {{")?;
    for (i, (k, v)) in report.aggregate.iter().enumerate() {
        write!(out, "\n    \"{k}\": {}", num(report, *v))?;
        write!(out, "{}", if i + 1 < report.aggregate.len() { "," } else { "" })?;
    }
    writeln!(out, "\n  }}")?;
    writeln!(out, "}}")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nulls_lose_their_newline_and_subsampled_frames_keep_their_numbers() {
        let mut report = Report {
            version: "v".into(),
            fps: f64::NAN,
            frames: vec![
                vec![("a".into(), f64::INFINITY), ("b".into(), 1.0)],
                vec![("a".into(), 2.0), ("b".into(), 2.0)],
                vec![("a".into(), 3.0), ("b".into(), 0.5)],
            ],
            aggregate: vec![("x".into(), f64::NAN)],
            ..Default::default()
        };
        report.subsample(2);
        let mut out = Vec::new();
        write_json(&mut out, &report).unwrap();
        let expected = r#"{
  "version": "v",
  "fps": null,
  "frames": [
    {
      "frameNum": 0,
      "metrics": {
        "a": null,        "b": 1.000000
      }
    },
    {
      "frameNum": 2,
      "metrics": {
        "a": 3.000000,
        "b": 0.500000
      }
    }
  ],
  "pooled_metrics": {
    "a": {
      "min": 3.000000,
      "max": null,
      "mean": null,
      "harmonic_mean": 7.000000
    },
    "b": {
      "min": 0.500000,
      "max": 1.000000,
      "mean": 0.750000,
      "harmonic_mean": 0.714286
    }
  },
  "aggregate_metrics": {
    "x": null
  }
}
"#;
        assert_eq!(String::from_utf8(out).unwrap(), expected);
    }
}
