//! Fuzz target: arbitrary bytes as a libvmaf model JSON (single model or bootstrap collection). A model that
//! loads is then used the way the CLI uses it: a feature option overload and predictions from a few sets of
//! feature values, including non-finite ones and a missing feature. Errors are expected; a panic or hang is a
//! bug.

#![no_main]

use libfuzzer_sys::fuzz_target;
use vqgraph_models::{Model, ModelConfig};

fuzz_target!(|data: &[u8]| {
    // Lossy decoding keeps invalid UTF-8 inputs useful: the JSON around the bad bytes is still parsed.
    let text = String::from_utf8_lossy(data);
    // The load flags change what is read (score_clip, score_transform); derive them from the input so the
    // fuzzer reaches both settings deterministically.
    let cfg = ModelConfig {
        disable_clip: data.len() & 1 == 1,
        enable_transform: data.len() & 2 == 2,
        ..ModelConfig::default()
    };
    let Ok(mut model) = Model::from_json_str(&text, "fuzz.json", &cfg) else { return };
    let _ = model.score_names();
    let names: Vec<String> = model.features().iter().map(|f| f.printed_name().to_owned()).collect();
    for value in [0.5, 0.0, 1.0, -1.0, 1e300, f64::NAN, f64::INFINITY] {
        let _ = model.predict(&|name: &str| names.iter().any(|n| n == name).then_some(value));
    }
    // A missing feature must be an error, not an index out of range.
    if let Some(last) = names.last() {
        assert!(model.predict(&|name: &str| (name != last).then_some(0.5)).is_err());
    }
    // Overloads go through the option parser again; a rejected value must leave the model usable.
    for (extractor, option, value) in [("adm", "adm_enhn_gain_limit", "1.0"), ("vif", "vif_enhn_gain_limit", "x")] {
        let _ = model.set_feature_option(extractor, option, value);
    }
    let _ = model.predict(&|_: &str| Some(0.5));
});
