//! One feature a model needs: which libvmaf extractor computes it, with
//! which options, and under which key libvmaf stores and prints it.

use crate::extractors::{ExtractorSpec, extractor_by_name};
use crate::feature_name::{feature_name_alias, feature_name_from_options};
use crate::feature_options::{OptionDict, OptionRejection, OptionValue, parse_options};

/// A model input feature, resolved the way libvmaf resolves it.
#[derive(Debug, Clone)]
pub struct ModelFeature {
    name: String,
    extractor: &'static ExtractorSpec,
    dict: OptionDict,
    /// One value per entry of `extractor.options` (defaults filled in).
    values: Vec<Option<OptionValue>>,
    collector_name: String,
    printed_name: String,
    instance_name: String,
}

impl ModelFeature {
    /// Resolves `name` (already known to be provided by `extractor`) with
    /// the option dictionary; fails when the extractor rejects an option
    /// value.
    pub(crate) fn resolve(
        name: &str,
        extractor: &'static ExtractorSpec,
        dict: OptionDict,
    ) -> Result<ModelFeature, OptionRejection> {
        let values = parse_options(extractor, &dict)?;
        let collector_name = feature_name_from_options(name, extractor, &values);
        let printed_name = feature_name_alias(&collector_name).to_owned();
        let instance_name = feature_name_from_options(extractor.name, extractor, &values);
        Ok(ModelFeature { name: name.to_owned(), extractor, dict, values, collector_name, printed_name, instance_name })
    }

    /// The feature name as the model lists it
    /// (`VMAF_integer_feature_adm2_score`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The libvmaf extractor that computes it (`adm`, `vif`, `motion`,
    /// `float_adm`, `float_vif`, `float_motion`, `cambi`, `speed_chroma`...).
    pub fn extractor(&self) -> &'static str {
        self.extractor.name
    }

    /// The options the model gives this feature, as (key, value) strings in
    /// model order, after libvmaf's normalisation (JSON numbers go through
    /// `strtof` and `%g`, so `1.0` reads `"1"`; booleans read
    /// `"true"`/`"false"`). Keys unknown to the extractor are kept here but
    /// ignored by it.
    pub fn options(&self) -> &[(String, String)] {
        self.dict.entries()
    }

    /// The value the extractor uses for option `name` (given or default);
    /// None when the extractor has no such option, or for a NULL string
    /// default.
    pub fn option_value(&self, name: &str) -> Option<&OptionValue> {
        let i = self.extractor.options.iter().position(|o| o.name == name)?;
        self.values[i].as_ref()
    }

    /// The feature parameters (options that change the key) whose values
    /// differ from the extractor defaults, as (option name, value), in the
    /// extractor's option order. Two features of one extractor with equal
    /// lists are computed by one extractor instance.
    pub fn non_default_params(&self) -> Vec<(&'static str, &OptionValue)> {
        self.extractor
            .options
            .iter()
            .zip(&self.values)
            .filter(|(spec, _)| spec.feature_param)
            .filter_map(|(spec, v)| {
                let v = v.as_ref()?;
                (!v.equals_default(spec.default)).then_some((spec.name, v))
            })
            .collect()
    }

    /// The name libvmaf stores the score under and predicts from
    /// (`VMAF_integer_feature_adm2_score`, `integer_adm2_egl_1`).
    pub fn collector_name(&self) -> &str {
        &self.collector_name
    }

    /// The key libvmaf prints in its outputs (`integer_adm2`,
    /// `integer_adm2_egl_1`, `VMAF_integer_feature_motion_sad_score_mmxv_18`):
    /// the name under which a feature source must provide the value.
    pub fn printed_name(&self) -> &str {
        &self.printed_name
    }

    /// The extractor and options that compute this feature.
    pub fn extractor_config(&self) -> crate::ExtractorConfig {
        crate::ExtractorConfig::from_dict(self.extractor, &self.dict)
            .expect("internal: options were validated when the model was loaded")
    }

    /// The extractor instance key libvmaf deduplicates extractors by
    /// (`adm`, `adm_egl_1`, `cambi_hrs_1080_cmxv_17_vlt_0.06`).
    pub fn instance_name(&self) -> &str {
        &self.instance_name
    }

    /// `vmaf_model_feature_overload` for this feature when its extractor is
    /// `extractor`: merges `dict` over the model's options (overwriting).
    /// Returns Ok(false) when the feature belongs to another extractor.
    pub(crate) fn overload(&mut self, extractor: &str, dict: &OptionDict) -> Result<bool, OptionRejection> {
        if extractor_by_name(extractor).is_none_or(|e| !std::ptr::eq(e, self.extractor)) {
            return Ok(false);
        }
        let mut merged = self.dict.clone();
        for (k, v) in dict.entries() {
            merged.set_overwrite(k, v.clone());
        }
        *self = ModelFeature::resolve(&self.name, self.extractor, merged)?;
        Ok(true)
    }
}
