//! C library number conversions as libvmaf uses them on option strings.
//!
//! Feature options travel through libvmaf as strings: a JSON number is read
//! with `strtof` and re-printed with `%g` (so `0.06` becomes `"0.06"`, `1.0`
//! becomes `"1"`), the extractor reads the string back with `atof`/`atoi`,
//! and the feature's printed name is built with `%g`/`%d` again. The exact
//! option value an extractor sees, and the exact printed key, depend on these
//! conversions, so they are reproduced here (glibc semantics, C locale).
//! Hexadecimal floating-point input is not recognised (read as `0`), which
//! no model file uses.

/// C `isspace` in the C locale.
fn is_c_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// What `strtod` would convert: the span of the number inside `s`
/// (after leading white space), or None when no conversion is possible.
/// Returns (start, end, special) where `special` is Some for inf/nan.
fn scan_float(s: &str) -> Option<(usize, usize, Option<f64>)> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && is_c_space(b[i]) {
        i += 1;
    }
    let start = i;
    let negative = b.get(i) == Some(&b'-');
    if matches!(b.get(i), Some(b'+' | b'-')) {
        i += 1;
    }
    let rest = &s[i..];
    let starts_ci = |word: &str| rest.len() >= word.len() && rest[..word.len()].eq_ignore_ascii_case(word);
    if starts_ci("infinity") {
        let v = if negative { f64::NEG_INFINITY } else { f64::INFINITY };
        return Some((start, i + 8, Some(v)));
    }
    if starts_ci("inf") {
        let v = if negative { f64::NEG_INFINITY } else { f64::INFINITY };
        return Some((start, i + 3, Some(v)));
    }
    if starts_ci("nan") {
        let mut end = i + 3;
        // nan(n-char-sequence)
        if b.get(end) == Some(&b'(') {
            let mut j = end + 1;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            if b.get(j) == Some(&b')') {
                end = j + 1;
            }
        }
        let v = if negative { -f64::NAN } else { f64::NAN };
        return Some((start, end, Some(v)));
    }
    let mut digits = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
        digits += 1;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return None;
    }
    // The exponent is only part of the number when at least one digit follows.
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        if j < b.len() && b[j].is_ascii_digit() {
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            i = j;
        }
    }
    Some((start, i, None))
}

/// `strtod(s, &end)`: the value and the number of bytes consumed, None when
/// nothing converts (glibc then returns 0 with `end == s`).
pub(crate) fn strtod(s: &str) -> Option<(f64, usize)> {
    let (start, end, special) = scan_float(s)?;
    // Rust's float parser is correctly rounded, as glibc's strtod is.
    let v = match special {
        Some(v) => v,
        None => s[start..end].parse::<f64>().ok()?,
    };
    Some((v, end))
}

/// `strtof(s, &end)` (correctly rounded straight from the decimal text, not
/// via a double, exactly as glibc does).
pub(crate) fn strtof(s: &str) -> Option<(f32, usize)> {
    let (start, end, special) = scan_float(s)?;
    let v = match special {
        Some(v) => v as f32,
        None => s[start..end].parse::<f32>().ok()?,
    };
    Some((v, end))
}

/// C `atof`: `strtod` ignoring the end pointer, 0.0 when nothing converts.
pub(crate) fn atof(s: &str) -> f64 {
    strtod(s).map_or(0.0, |(v, _)| v)
}

/// C `atoi` as glibc implements it: `(int) strtol(s, NULL, 10)`, where
/// `strtol` saturates at the 64-bit `long` range and the cast to `int`
/// keeps the low 32 bits.
pub(crate) fn atoi(s: &str) -> i32 {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && is_c_space(b[i]) {
        i += 1;
    }
    let negative = b.get(i) == Some(&b'-');
    if matches!(b.get(i), Some(b'+' | b'-')) {
        i += 1;
    }
    let mut v: i128 = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        v = (v * 10 + i128::from(b[i] - b'0')).min(i128::from(i64::MAX) + 1);
        i += 1;
    }
    if negative {
        v = -v;
    }
    let long = v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
    long as i32
}

/// `sscanf(s, "%f %c", &f, &c) == 1`: the whole string is one number plus
/// optional white space (libvmaf's `isnumeric`, used for CLI-style option
/// overloads).
pub(crate) fn is_numeric(s: &str) -> bool {
    match scan_float(s) {
        Some((_, end, _)) => s.as_bytes()[end..].iter().all(|&b| is_c_space(b)),
        None => false,
    }
}

/// libvmaf's `VMAF_DICT_NORMALIZE_NUMERICAL_VALUES`: `strtof`, then `%g` of
/// that float widened to double. None when nothing converts (the string is
/// then kept as is).
pub(crate) fn normalize_numeric(s: &str) -> Option<String> {
    let (f, _) = strtof(s)?;
    Some(format_g(f64::from(f)))
}

/// `printf("%g", v)`: 6 significant digits, trailing zeros removed,
/// exponent form when the decimal exponent is < -4 or >= 6.
pub(crate) fn format_g(v: f64) -> String {
    const P: i32 = 6;
    if v.is_nan() {
        return if v.is_sign_negative() { "-nan".into() } else { "nan".into() };
    }
    if v.is_infinite() {
        return if v < 0.0 { "-inf".into() } else { "inf".into() };
    }
    if v == 0.0 {
        return if v.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    // Rust's exact formatting rounds half to even on the exact binary value,
    // like glibc's printf in the default rounding mode.
    let e_form = format!("{:.*e}", (P - 1) as usize, v);
    let (mantissa, exp) = e_form.split_once('e').unwrap_or((&e_form, "0"));
    let x: i32 = exp.parse().unwrap_or(0);
    if !(-4..P).contains(&x) {
        let m = strip_fraction_zeros(mantissa);
        let sign = if x < 0 { '-' } else { '+' };
        format!("{m}e{sign}{:02}", x.unsigned_abs())
    } else {
        let fixed = format!("{:.*}", (P - 1 - x) as usize, v);
        strip_fraction_zeros(&fixed).to_owned()
    }
}

fn strip_fraction_zeros(s: &str) -> &str {
    if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.') } else { s }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_g_matches_printf() {
        // Expected strings produced by glibc printf("%g").
        let cases: &[(f64, &str)] = &[
            (1.0, "1"),
            (100.0, "100"),
            (0.5, "0.5"),
            (0.02, "0.02"),
            (0.06, "0.06"),
            (f64::from(0.06f32), "0.06"),
            (f64::from(0.19f32), "0.19"),
            (0.03125, "0.03125"),
            (1080.0, "1080"),
            (100000.5, "100000"),
            (999999.5, "1e+06"),
            (1234565.0, "1.23456e+06"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (0.000123456789, "0.000123457"),
            (-2.5, "-2.5"),
            (1e100, "1e+100"),
            (9.999995, "10"),
            (0.0, "0"),
            (-0.0, "-0"),
            (f64::INFINITY, "inf"),
            (-f64::INFINITY, "-inf"),
            (f64::NAN, "nan"),
        ];
        for &(v, want) in cases {
            assert_eq!(format_g(v), want, "{v:e}");
        }
    }

    #[test]
    fn atoi_atof_like_glibc() {
        assert_eq!(atoi("  42abc"), 42);
        assert_eq!(atoi("-7"), -7);
        assert_eq!(atoi("2.9"), 2);
        assert_eq!(atoi("x"), 0);
        assert_eq!(atoi("4294967297"), 1); // (int)4294967297L
        assert_eq!(atoi("99999999999999999999"), -1); // LONG_MAX truncated
        assert_eq!(atof(" 1.5e3x"), 1500.0);
        assert_eq!(atof("1e"), 1.0);
        assert_eq!(atof(".5"), 0.5);
        assert_eq!(atof("abc"), 0.0);
        assert!(atof("nan").is_nan());
        assert_eq!(atof("-Infinity"), f64::NEG_INFINITY);
    }

    #[test]
    fn normalization_goes_through_float() {
        assert_eq!(normalize_numeric("1.0").as_deref(), Some("1"));
        assert_eq!(normalize_numeric("0.7").as_deref(), Some("0.7"));
        assert_eq!(normalize_numeric("17.0").as_deref(), Some("17"));
        assert_eq!(normalize_numeric("3.14159265").as_deref(), Some("3.14159"));
        assert_eq!(normalize_numeric("2160000").as_deref(), Some("2.16e+06"));
        assert_eq!(normalize_numeric("bilinear"), None);
        assert!(is_numeric(" 1.5 "));
        assert!(!is_numeric("1.5x"));
        assert!(!is_numeric("true"));
    }
}
