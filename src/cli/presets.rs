//! libvmaf's `--aom_ctc` and `--nflx_ctc` presets: fixed sets of models and features.

use super::args::Args;

/// Models and features a preset adds (libvmaf's cli_parse.c), or why the version is unknown.
pub fn expand(args: &Args) -> Result<(Vec<String>, Vec<String>), String> {
    let mut models = Vec::new();
    let mut features: Vec<String> = Vec::new();
    if let Some(v) = &args.aom_ctc {
        let n: u32 = match v.as_str() {
            "v1.0" => 1,
            "v2.0" => 2,
            "v3.0" => 3,
            "v4.0" => 4,
            "v5.0" => 5,
            "v6.0" => 6,
            "v7.0" => 7,
            "proposed" => return Err("`--aom_ctc proposed` is deprecated".into()),
            other => return Err(format!("bad aom_ctc version {other:?}")),
        };
        models.push("version=vmaf_v0.6.1:name=vmaf".to_string());
        models.push("version=vmaf_v0.6.1neg:name=vmaf_neg".to_string());
        features.push("psnr=reduced_hbd_peak=true:enable_apsnr=true:min_sse=0.5".into());
        features.push("ciede".into());
        features.push(
            if n >= 7 {
                "float_ssim=scale=1:enable_db=true:clip_db=true"
            } else {
                "float_ssim=enable_db=true:clip_db=true"
            }
            .into(),
        );
        features.push("float_ms_ssim=enable_db=true:clip_db=true".into());
        features.push("psnr_hvs".into());
        if n >= 3 {
            features.push("cambi".into());
        }
    }
    if let Some(v) = &args.nflx_ctc {
        if v != "v1.0" {
            return Err(format!("bad nflx_ctc version {v:?}"));
        }
        models.push("version=vmaf_4k_v0.6.1:name=vmaf".to_string());
        models.push("version=vmaf_4k_v0.6.1neg:name=vmaf_neg".to_string());
        features.push("psnr=enable_chroma=true:enable_apsnr=true".into());
        features.push("float_ssim=enable_db=true:clip_db=true".into());
        features.push("cambi".into());
    }
    Ok((models, features))
}
