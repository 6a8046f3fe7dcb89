//! Shared test support: the corpus list, libvmaf's reference outputs, and the one checker that compares
//! our per-frame values with them.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use serde_json::Value as Json;

/// `../shared` beside the repository root.
pub fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared")
}

/// One corpus pair as listed in `pairs.json`.
#[derive(Clone, Debug)]
pub struct Pair {
    pub id: String,
    pub reference: PathBuf,
    pub distorted: PathBuf,
    pub frames: usize,
}

impl Pair {
    /// libvmaf's output file for a run of this pair; for the pairs where libvmaf's SIMD paths disagree
    /// (odd band widths in ADM) the plain-C file `*.cpumask63.json` is the target.
    pub fn reference_file(&self, run: &str) -> PathBuf {
        let dir = shared().join("reference").join(&self.id);
        let c = dir.join(format!("{run}.cpumask63.json"));
        if c.exists() { c } else { dir.join(format!("{run}.json")) }
    }

    pub fn load(&self, run: &str) -> Json {
        let p = self.reference_file(run);
        let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    }

    /// Whether libvmaf read this pair's chroma differently from the y4m (odd size: floor-size chroma).
    pub fn odd_size(&self) -> bool {
        self.id.starts_with("s04")
    }
}

/// Every pair of `pairs.json`.
pub fn pairs() -> Vec<Pair> {
    let p = shared().join("corpus/pairs.json");
    let j: Json = serde_json::from_str(&std::fs::read_to_string(&p).expect("pairs.json")).expect("pairs.json");
    j["pairs"]
        .as_array()
        .expect("pairs")
        .iter()
        .map(|e| Pair {
            id: e["id"].as_str().unwrap().to_string(),
            reference: shared().join(e["reference"].as_str().unwrap()),
            distorted: shared().join(e["distorted"].as_str().unwrap()),
            frames: e["frames"].as_u64().unwrap() as usize,
        })
        .collect()
}

/// Per-frame values libvmaf printed for `key` (`None` = `null`).
pub fn reference_series(j: &Json, key: &str) -> Option<Vec<Option<f64>>> {
    let frames = j["frames"].as_array()?;
    let mut out = Vec::with_capacity(frames.len());
    for f in frames {
        let v = f["metrics"].get(key)?;
        out.push(v.as_f64());
    }
    Some(out)
}

/// Outcome of comparing one key of one pair.
#[derive(Debug)]
pub struct KeyCheck {
    pub key: String,
    pub frames: usize,
    pub max_diff: f64,
    pub worst_frame: usize,
}

/// `%.6f` as libvmaf prints, with `-0.000000` folded into `0.000000`.
pub fn printed(x: f64) -> String {
    let s = format!("{x:.6}");
    if s == "-0.000000" { "0.000000".into() } else { s }
}

/// Compares our per-frame values of `key` with libvmaf's: each must print the same with `%.6f` (so
/// |diff| <= 5e-7), and none may differ by more than `tol` (use a looser `tol` only where a contract says
/// so). Returns the check, or a message naming the first bad frame.
pub fn compare(key: &str, ours: &[f64], theirs: &[Option<f64>], tol: f64) -> Result<KeyCheck, String> {
    if ours.len() != theirs.len() {
        return Err(format!("{key}: {} frames, libvmaf has {}", ours.len(), theirs.len()));
    }
    let mut check = KeyCheck { key: key.to_string(), frames: ours.len(), max_diff: 0.0, worst_frame: 0 };
    for (i, (&a, b)) in ours.iter().zip(theirs).enumerate() {
        let d = match b {
            Some(b) => (a - b).abs(),
            // null: libvmaf printed an infinity or NaN
            None if !a.is_finite() => 0.0,
            None => f64::INFINITY,
        };
        if d.is_nan() || d > check.max_diff {
            check.max_diff = if d.is_nan() { f64::INFINITY } else { d };
            check.worst_frame = i;
        }
    }
    let strict = tol <= 5e-7;
    let bad = ours.iter().zip(theirs).position(|(&a, b)| match b {
        Some(b) if strict => printed(a) != printed(*b),
        Some(b) => (a - b).abs() > tol,
        None => a.is_finite(),
    });
    if let Some(i) = bad {
        return Err(format!(
            "{key}: frame {i}: ours {:.9} libvmaf {:?} (|diff| {:.3e}, allowed {tol:.1e})",
            ours[i],
            theirs[i],
            (ours[i] - theirs[i].unwrap_or(f64::NAN)).abs()
        ));
    }
    Ok(check)
}

/// The contract for integer features and VMAF scores: identical when printed `%.6f`.
pub const PRINT_TOL: f64 = 5e-7;
