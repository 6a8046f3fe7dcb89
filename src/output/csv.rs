//! libvmaf's CSV layout, byte for byte the way libvmaf 3.2's `vmaf_write_output_csv` prints it: a `Frame,`
//! header naming every key, one row per printed frame, each field (the last included) followed by a comma,
//! infinities or NaN printed as `printf` spells them. A row holds only the values written for its frame, in
//! order, so a frame lacking a key would shift its row; libvmaf does the same.

use std::io::{self, Write};

use super::report::Report;

/// Writes `report` as libvmaf CSV.
pub fn write_csv<W: Write>(out: &mut W, report: &Report) -> io::Result<()> {
    write!(out, "Frame,")?;
    for key in report.keys() {
        write!(out, "{key},")?;
    }
    writeln!(out)?;
    for (i, frame) in report.printed_frames() {
        write!(out, "{i},")?;
        for (_, v) in frame {
            write!(out, "{},", report.precision.printf(*v))?;
        }
        writeln!(out)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_commas_and_original_frame_numbers() {
        let mut report = Report {
            frames: vec![
                vec![("a".into(), 1.0), ("b".into(), f64::INFINITY)],
                vec![("a".into(), 2.0), ("b".into(), 0.5)],
                vec![("a".into(), 0.000_000_1), ("b".into(), -f64::NAN)],
            ],
            ..Default::default()
        };
        report.subsample(2);
        let mut out = Vec::new();
        write_csv(&mut out, &report).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "Frame,a,b,\n0,1.000000,inf,\n2,0.0000001000000000,-nan,\n");
    }
}
