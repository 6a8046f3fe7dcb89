//! libvmaf's SUB layout (MicroDVD subtitles: one `{start}{end}` line per frame, so a player can show the
//! scores over the video), byte for byte the way libvmaf 3.2's `vmaf_write_output_sub` prints it: frame `i`
//! is `{i}{i+1}frame: i|` then `name: value|` for each value, infinities or NaN printed as `printf` spells
//! them. No header, no pooled or aggregate values.

use std::io::{self, Write};

use super::report::Report;

/// Writes `report` as libvmaf SUB.
pub fn write_sub<W: Write>(out: &mut W, report: &Report) -> io::Result<()> {
    for (i, frame) in report.printed_frames() {
        write!(out, "{{{i}}}{{{}}}frame: {i}|", i + 1)?;
        for (k, v) in frame {
            write!(out, "{k}: {}|", report.precision.printf(*v))?;
        }
        writeln!(out)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_subtitle_line_per_printed_frame() {
        let mut report = Report {
            frames: vec![
                vec![("a".into(), 1.0), ("b".into(), f64::NAN)],
                vec![("a".into(), 2.0)],
                vec![],
                vec![("a".into(), 42.25)],
            ],
            ..Default::default()
        };
        report.subsample(3);
        let mut out = Vec::new();
        write_sub(&mut out, &report).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{0}{1}frame: 0|a: 1.000000|b: nan|\n{3}{4}frame: 3|a: 42.250000|\n"
        );
    }
}
