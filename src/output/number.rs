//! libvmaf's number printing: `%.6f`, or `%.16f` for values with more than six zeros after the point.
//! JSON prints infinities and NaN as `null` ([`format_value`]); XML, CSV and SUB hand them to `printf`
//! unchanged ([`format_printf`]), which spells them `inf`, `-inf`, `nan`, `-nan`.

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

/// C's `printf("%.{prec}f", x)` as glibc prints it: Rust's fixed-point formatting agrees for finite values
/// (both round the exact binary value, ties to even), but spells NaN `NaN` and ignores its sign.
pub fn printf_fixed(x: f64, prec: usize) -> String {
    if x.is_nan() {
        // x86's default NaN (0.0 / 0.0) has the sign bit set; glibc prints it `-nan`.
        return if x.is_sign_negative() { "-nan" } else { "nan" }.into();
    }
    format!("{x:.prec$}")
}

/// Any value as libvmaf's XML, CSV and SUB writers print it: the `%.6f`/`%.16f` choice without JSON's
/// `null`. `count_leading_zeros_d` finds no zeros in an infinity or NaN, so those take `%.6f`.
pub fn format_printf(x: f64) -> String {
    printf_fixed(x, if leading_zeros(x) <= 6 { 6 } else { 16 })
}

/// How many digits outputs carry (`--precision`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Precision {
    /// libvmaf's choice: `%.6f`, or `%.16f` past six leading zeros.
    #[default]
    Libvmaf,
    /// `%.Nf` for every value.
    Digits(usize),
    /// `%.17g`: enough significant digits to read back the exact double.
    Max,
}

impl std::str::FromStr for Precision {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "max" => Ok(Precision::Max),
            _ => match s.parse::<usize>() {
                Ok(n) if n <= 30 => Ok(Precision::Digits(n)),
                _ => Err(format!("--precision {s:?}: expected a number of digits (0 to 30) or max")),
            },
        }
    }
}

impl Precision {
    /// A value as XML, CSV and SUB print it (non-finite values spelled as glibc's `printf` does).
    pub fn printf(self, x: f64) -> String {
        match self {
            Precision::Libvmaf => format_printf(x),
            Precision::Digits(n) => printf_fixed(x, n),
            Precision::Max if x.is_finite() => printf_g17(x),
            Precision::Max => printf_fixed(x, 6),
        }
    }

    /// A value as JSON prints it: `None` for infinities and NaN (printed `null`).
    pub fn json(self, x: f64) -> Option<String> {
        x.is_finite().then(|| self.printf(x))
    }
}

/// C's `%.17g` for a finite value: 17 significant digits, fixed notation for exponents -4..17, trailing
/// zeros (and a bare point) removed.
fn printf_g17(x: f64) -> String {
    if x == 0.0 {
        return if x.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    let sci = format!("{x:.16e}");
    let (mantissa, exp) = sci.split_once('e').expect("exponent form");
    let exp: i32 = exp.parse().expect("exponent");
    let strip = |s: String| if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s };
    if (-4..17).contains(&exp) {
        strip(format!("{x:.*}", (16 - exp) as usize))
    } else {
        format!("{}e{}{:02}", strip(mantissa.to_string()), if exp < 0 { '-' } else { '+' }, exp.abs())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn precision_options() {
        use super::Precision;
        let max: Precision = "max".parse().unwrap();
        assert_eq!(max.printf(0.1), "0.10000000000000001");
        assert_eq!(max.printf(38.5), "38.5");
        assert_eq!(max.printf(1e-7), "9.9999999999999995e-08");
        assert_eq!(max.printf(123456789012345678.0), "1.2345678901234568e+17");
        assert_eq!(max.json(f64::INFINITY), None);
        let three: Precision = "3".parse().unwrap();
        assert_eq!(three.printf(2.0 / 3.0), "0.667");
        assert!("x".parse::<Precision>().is_err());
        assert_eq!(Precision::default().printf(1.0000006323965267), "1.0000006323965267");
    }

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

    #[test]
    fn printf_spelling_of_non_finite_values() {
        assert_eq!(format_printf(f64::INFINITY), "inf");
        assert_eq!(format_printf(f64::NEG_INFINITY), "-inf");
        assert_eq!(format_printf(f64::NAN), "nan");
        assert_eq!(format_printf(-f64::NAN), "-nan");
        assert_eq!(format_printf(0.000_000_05), "0.0000000500000000");
        assert_eq!(format_printf(-0.0), "-0.000000");
        // Exact ties round to even, as glibc does; 379.015 is just below its tie.
        assert_eq!(printf_fixed(0.125, 2), "0.12");
        assert_eq!(printf_fixed(379.015, 2), "379.01");
    }
}
