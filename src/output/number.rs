//! libvmaf's number printing: `%.6f`, or `%.16f` for values with more than six zeros after the point.

/// Zeros between the decimal point and the first non-zero digit of the fractional part, counted the way
/// libvmaf's `count_leading_zeros_d` does (multiplying the fraction by ten until it reaches one).
pub fn leading_zeros(x: f64) -> u32 {
    let x = x.abs();
    // libvmaf takes the integer part through an `int` cast; beyond its range the fraction is zero anyway.
    let int_part = if x < i32::MAX as f64 { x.trunc() } else { x };
    let mut frac = x - int_part;
    let mut n = 0;
    while frac < 1.0 && frac != 0.0 {
        frac *= 10.0;
        n += 1;
    }
    n
}

/// A finite value as libvmaf prints it; `None` for infinities and NaN (printed `null`).
pub fn format_value(x: f64) -> Option<String> {
    if !x.is_finite() {
        return None;
    }
    Some(if leading_zeros(x) <= 6 { format!("{x:.6}") } else { format!("{x:.16}") })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switches_to_sixteen_digits_past_six_leading_zeros() {
        assert_eq!(format_value(0.5).unwrap(), "0.500000");
        assert_eq!(format_value(38.814459).unwrap(), "38.814459");
        assert_eq!(format_value(0.0).unwrap(), "0.000000");
        assert_eq!(format_value(1.0000006323965267).unwrap(), "1.0000006323965267");
        assert_eq!(format_value(f64::INFINITY), None);
        assert_eq!(format_value(f64::NAN), None);
    }
}
