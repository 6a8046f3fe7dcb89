//! Per-feature option dictionaries and their typed values.
//!
//! A model's `feature_opts_dicts[i]` becomes a libvmaf `VmafDictionary` of
//! string values (numbers normalised through `strtof` + `%g`), which the
//! extractor then parses with `vmaf_option_set`: booleans must read
//! `true`/`false`, integers go through `atoi`, doubles through `atof`, both
//! bounds-checked, and a zero result is refused unless the text starts with
//! `'0'`. Keys the extractor does not know are ignored, as in libvmaf.

use crate::c_numeric;
use crate::extractors::{ExtractorSpec, OptDefault, OptionSpec};

/// A typed option value, as the extractor holds it after parsing.
#[derive(Debug, Clone, PartialEq)]
pub enum OptionValue {
    Bool(bool),
    Int(i32),
    Double(f64),
    Str(String),
}

impl OptionValue {
    /// The value as libvmaf formats it for a feature key: `%d`, `%g`, the
    /// string itself, or `true`/`false`.
    pub fn to_c_string(&self) -> String {
        match self {
            OptionValue::Bool(b) => if *b { "true" } else { "false" }.to_owned(),
            OptionValue::Int(i) => i.to_string(),
            OptionValue::Double(d) => c_numeric::format_g(*d),
            OptionValue::Str(s) => s.clone(),
        }
    }

    pub(crate) fn from_default(d: OptDefault) -> Option<OptionValue> {
        Some(match d {
            OptDefault::Bool(b) => OptionValue::Bool(b),
            OptDefault::Int(i) => OptionValue::Int(i),
            OptDefault::Double(x) => OptionValue::Double(x),
            OptDefault::Str(s) => OptionValue::Str(s?.to_owned()),
        })
    }

    /// libvmaf's `option_is_default` (exact comparison).
    pub(crate) fn equals_default(&self, d: OptDefault) -> bool {
        match (self, d) {
            (OptionValue::Bool(a), OptDefault::Bool(b)) => *a == b,
            (OptionValue::Int(a), OptDefault::Int(b)) => *a == b,
            (OptionValue::Double(a), OptDefault::Double(b)) => *a == b,
            (OptionValue::Str(a), OptDefault::Str(Some(b))) => a == b,
            _ => false,
        }
    }
}

/// An ordered string dictionary (libvmaf's `VmafDictionary`).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct OptionDict {
    entries: Vec<(String, String)>,
}

impl OptionDict {
    pub(crate) fn entries(&self) -> &[(String, String)] {
        &self.entries
    }

    pub(crate) fn get(&self, key: &str) -> Option<&str> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// `vmaf_dictionary_set` with `VMAF_DICT_DO_NOT_OVERWRITE`: setting an
    /// existing key again is fine with the same value, an error otherwise.
    pub(crate) fn set_no_overwrite(&mut self, key: &str, val: String) -> Result<(), String> {
        match self.entries.iter().find(|(k, _)| k == key) {
            Some((_, old)) if *old == val => Ok(()),
            Some((_, old)) => Err(format!("option \"{key}\" given twice with different values (\"{old}\", \"{val}\")")),
            None => {
                self.entries.push((key.to_owned(), val));
                Ok(())
            }
        }
    }

    /// `vmaf_dictionary_set` without flags: replaces an existing value in
    /// place, else appends.
    pub(crate) fn set_overwrite(&mut self, key: &str, val: String) {
        match self.entries.iter_mut().find(|(k, _)| k == key) {
            Some((_, old)) => *old = val,
            None => self.entries.push((key.to_owned(), val)),
        }
    }
}

/// `vmaf_option_set` for one option: the value the extractor ends up with,
/// the default when the dictionary lacks the key.
pub(crate) fn parse_option(spec: &OptionSpec, val: Option<&str>) -> Result<Option<OptionValue>, String> {
    let Some(val) = val else {
        return Ok(OptionValue::from_default(spec.default));
    };
    let starts_with_zero = val.as_bytes().first() == Some(&b'0');
    let v = match spec.default {
        OptDefault::Bool(_) => match val {
            "true" => OptionValue::Bool(true),
            "false" => OptionValue::Bool(false),
            _ => return Err("expected \"true\" or \"false\"".into()),
        },
        OptDefault::Int(_) => {
            let n = c_numeric::atoi(val);
            // libvmaf passes the double bounds to an int parameter.
            let (min, max) = (spec.min as i32, spec.max as i32);
            if n == 0 && !starts_with_zero {
                return Err("not an integer (atoi gives 0 and the text does not start with '0')".into());
            }
            if n < min || n > max {
                return Err(format!("{n} is outside [{min}, {max}]"));
            }
            OptionValue::Int(n)
        }
        OptDefault::Double(_) => {
            let n = c_numeric::atof(val);
            if n == 0.0 && !starts_with_zero {
                return Err("not a number (atof gives 0 and the text does not start with '0')".into());
            }
            // NaN passes both comparisons, exactly as in libvmaf.
            if n < spec.min || n > spec.max {
                return Err(format!(
                    "{} is outside [{}, {}]",
                    c_numeric::format_g(n),
                    c_numeric::format_g(spec.min),
                    c_numeric::format_g(spec.max)
                ));
            }
            OptionValue::Double(n)
        }
        OptDefault::Str(_) => OptionValue::Str(val.to_owned()),
    };
    Ok(Some(v))
}

/// An option value an extractor refuses.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct OptionRejection {
    pub option: &'static str,
    pub value: String,
    pub reason: String,
}

/// Parses a whole dictionary against an extractor's option table: one
/// value per option of the table (None only for NULL string defaults).
pub(crate) fn parse_options(
    ext: &ExtractorSpec,
    dict: &OptionDict,
) -> Result<Vec<Option<OptionValue>>, OptionRejection> {
    ext.options
        .iter()
        .map(|spec| {
            let raw = dict.get(spec.name);
            parse_option(spec, raw).map_err(|reason| OptionRejection {
                option: spec.name,
                value: raw.unwrap_or("").to_owned(),
                reason,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extractors::extractor_by_name;

    #[test]
    fn parse_like_vmaf_option_set() {
        let adm = extractor_by_name("adm").unwrap();
        let egl = adm.options.iter().find(|o| o.name == "adm_enhn_gain_limit").unwrap();
        assert_eq!(parse_option(egl, Some("1")).unwrap(), Some(OptionValue::Double(1.0)));
        assert_eq!(parse_option(egl, None).unwrap(), Some(OptionValue::Double(100.0)));
        assert!(parse_option(egl, Some("0.5")).is_err()); // below min 1.0
        assert!(parse_option(egl, Some("abc")).is_err());
        let csf = adm.options.iter().find(|o| o.name == "adm_csf_mode").unwrap();
        assert_eq!(parse_option(csf, Some("2")).unwrap(), Some(OptionValue::Int(2)));
        assert!(parse_option(csf, Some("4")).is_err());
        assert!(parse_option(csf, Some("-0")).is_err()); // libvmaf quirk
        let ssz = adm.options.iter().find(|o| o.name == "adm_skip_scale0").unwrap();
        assert!(parse_option(ssz, Some("1")).is_err());
        assert_eq!(parse_option(ssz, Some("true")).unwrap(), Some(OptionValue::Bool(true)));
    }

    #[test]
    fn dictionary_overwrite_rules() {
        let mut d = OptionDict::default();
        d.set_no_overwrite("a", "1".into()).unwrap();
        d.set_no_overwrite("a", "1".into()).unwrap();
        assert!(d.set_no_overwrite("a", "2".into()).is_err());
        d.set_overwrite("a", "3".into());
        d.set_overwrite("b", "4".into());
        assert_eq!(d.entries(), &[("a".to_owned(), "3".to_owned()), ("b".to_owned(), "4".to_owned())]);
    }
}
