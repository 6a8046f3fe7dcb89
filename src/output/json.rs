//! libvmaf's JSON layout (`frames[].frameNum/metrics`, `pooled_metrics`, `aggregate_metrics`), byte for byte
//! the way libvmaf 3.2's `vmaf_write_output_json` prints it.

use std::io::{self, Write};

use super::number::format_value;
use super::report::Report;

fn num(x: f64) -> String {
    format_value(x).unwrap_or_else(|| "null".into())
}

/// Writes `report` as libvmaf JSON.
pub fn write_json<W: Write>(out: &mut W, report: &Report) -> io::Result<()> {
    writeln!(out, "{{")?;
    writeln!(out, "  \"version\": \"{}\",", report.version)?;
    if report.fps.is_finite() {
        writeln!(out, "  \"fps\": {:.2},", report.fps)?;
    } else {
        writeln!(out, "  \"fps\": null,")?;
    }
    write!(out, "  \"frames\": [")?;
    for (i, frame) in report.frames.iter().enumerate() {
        write!(out, "{}", if i > 0 { ",\n" } else { "\n" })?;
        writeln!(out, "    {{")?;
        writeln!(out, "      \"frameNum\": {i},")?;
        writeln!(out, "      \"metrics\": {{")?;
        for (j, (k, v)) in frame.iter().enumerate() {
            let comma = if j + 1 < frame.len() { "," } else { "" };
            // libvmaf prints no newline after a null metric; keep its bytes.
            match format_value(*v) {
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
            write!(out, "\n      \"min\": {}", num(p.min))?;
            write!(out, ",\n      \"max\": {}", num(p.max))?;
            write!(out, ",\n      \"mean\": {}", num(p.mean))?;
            write!(out, ",\n      \"harmonic_mean\": {}", num(p.harmonic_mean))?;
        }
        writeln!(out)?;
        write!(out, "    }}")?;
    }
    writeln!(out, "\n  }},")?;
    write!(out, "  \"aggregate_metrics\": {{")?;
    for (i, (k, v)) in report.aggregate.iter().enumerate() {
        write!(out, "\n    \"{k}\": {}", num(*v))?;
        write!(out, "{}", if i + 1 < report.aggregate.len() { "," } else { "" })?;
    }
    writeln!(out, "\n  }}")?;
    writeln!(out, "}}")?;
    Ok(())
}
