//! One feature-extractor instance's options, parsed the way libvmaf parses them, and the instance name
//! libvmaf derives from them (`adm_egl_1`): shared by model features and by `--feature` requests, so that
//! the engine names features exactly like libvmaf in both cases.

use crate::error::ModelError;
use crate::extractors::{ExtractorSpec, extractor_by_name};
use crate::feature_name::feature_name_from_options;
use crate::feature_options::{OptionDict, OptionValue, parse_options};

/// A libvmaf extractor with its options (given or default).
#[derive(Debug, Clone)]
pub struct ExtractorConfig {
    spec: &'static ExtractorSpec,
    /// One value per entry of `spec.options` (None only for NULL string defaults).
    values: Vec<Option<OptionValue>>,
    instance_name: String,
}

impl ExtractorConfig {
    /// Parses `options` (`name=value` strings, as `--feature adm=adm_enhn_gain_limit=1` gives them) against
    /// the extractor's option table. Unknown extractors and options, and values libvmaf would refuse, are
    /// errors naming the option.
    pub fn new(extractor: &str, options: &[(String, String)]) -> Result<Self, ModelError> {
        let spec =
            extractor_by_name(extractor).ok_or_else(|| ModelError::UnknownExtractor { name: extractor.to_owned() })?;
        let mut dict = OptionDict::default();
        for (k, v) in options {
            if !spec.options.iter().any(|o| o.name == k || o.alias == Some(k.as_str())) {
                return Err(ModelError::BadExtractorOption {
                    extractor: spec.name,
                    option: k.clone(),
                    reason: "no such option".into(),
                });
            }
            // An alias names the same option (libvmaf accepts both on its command line).
            let name =
                spec.options.iter().find(|o| o.name == k || o.alias == Some(k.as_str())).map_or(k.as_str(), |o| o.name);
            dict.set_overwrite(name, v.clone());
        }
        Self::from_dict(spec, &dict).map_err(|(option, reason)| ModelError::BadExtractorOption {
            extractor: spec.name,
            option,
            reason,
        })
    }

    pub(crate) fn from_dict(spec: &'static ExtractorSpec, dict: &OptionDict) -> Result<Self, (String, String)> {
        let values =
            parse_options(spec, dict).map_err(|r| (r.option.to_owned(), format!("{:?}: {}", r.value, r.reason)))?;
        let instance_name = feature_name_from_options(spec.name, spec, &values);
        Ok(ExtractorConfig { spec, values, instance_name })
    }

    /// libvmaf's extractor name (`adm`).
    pub fn name(&self) -> &'static str {
        self.spec.name
    }

    /// The name libvmaf gives this instance (`adm`, `adm_egl_1`): instances with equal names are one.
    pub fn instance_name(&self) -> &str {
        &self.instance_name
    }

    /// What libvmaf appends to every feature name of this instance (`""`, `"_egl_1"`).
    pub fn suffix(&self) -> &str {
        &self.instance_name[self.spec.name.len().min(self.instance_name.len())..]
    }

    /// The value the extractor uses for option `name` (given or default).
    pub fn option_value(&self, name: &str) -> Option<&OptionValue> {
        let i = self.spec.options.iter().position(|o| o.name == name)?;
        self.values[i].as_ref()
    }

    /// A double option's value (given or default); `None` if the extractor has no such double option.
    pub fn double(&self, name: &str) -> Option<f64> {
        match self.option_value(name)? {
            OptionValue::Double(d) => Some(*d),
            _ => None,
        }
    }

    /// A bool option's value (given or default).
    pub fn boolean(&self, name: &str) -> Option<bool> {
        match self.option_value(name)? {
            OptionValue::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// An int option's value (given or default).
    pub fn int(&self, name: &str) -> Option<i32> {
        match self.option_value(name)? {
            OptionValue::Int(i) => Some(*i),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(kv: &[(&str, &str)]) -> Vec<(String, String)> {
        kv.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn names_instances_like_libvmaf() {
        let c = ExtractorConfig::new("adm", &opts(&[("adm_enhn_gain_limit", "1.0")])).unwrap();
        assert_eq!((c.instance_name(), c.suffix()), ("adm_egl_1", "_egl_1"));
        assert_eq!(c.double("adm_enhn_gain_limit"), Some(1.0));
        let c = ExtractorConfig::new("motion", &opts(&[("mmxv", "18")])).unwrap();
        assert_eq!(c.suffix(), "_mmxv_18");
        let c = ExtractorConfig::new("vif", &opts(&[("debug", "true")])).unwrap();
        assert_eq!((c.instance_name(), c.boolean("debug")), ("vif", Some(true)));
        let c = ExtractorConfig::new(
            "adm",
            &opts(&[
                ("adm_csf_mode", "2"),
                ("adm_dlm_weight", "0.7"),
                ("adm_enhn_gain_limit", "1"),
                ("adm_min_val", "0.5"),
                ("adm_noise_weight", "0.02"),
            ]),
        )
        .unwrap();
        assert_eq!(c.suffix(), "_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02");
    }

    #[test]
    fn rejects_unknown_extractors_options_and_values() {
        assert!(matches!(ExtractorConfig::new("nope", &[]), Err(ModelError::UnknownExtractor { .. })));
        let e = ExtractorConfig::new("vif", &opts(&[("bogus", "1")])).unwrap_err().to_string();
        assert!(e.contains("bogus"), "{e}");
        let e = ExtractorConfig::new("vif", &opts(&[("vif_enhn_gain_limit", "0.5")])).unwrap_err().to_string();
        assert!(e.contains("vif_enhn_gain_limit"), "{e}");
    }
}
