//! The libsvm part of a VMAF model: parsing the libsvm model text embedded
//! in `model_dict.model`, and the regression decision value.
//!
//! Parsing follows the tokenizer libvmaf uses (svm.cpp,
//! `SVMModelParser`): header keywords separated by single spaces or
//! newlines up to the `SV` keyword, then one support vector per line as
//! `coef index:value index:value ...`. Values are converted with correctly
//! rounded decimal parsing, like libstdc++'s `operator>>` (which uses
//! `strtod`).
//!
//! Prediction reproduces libsvm's `svm_predict_values` for epsilon-/nu-SVR
//! operation by operation: the sum over support vectors of
//! `coef * K(x, sv)` accumulated in file order, minus `rho`, where the
//! kernel walks both sparse vectors in index order exactly like
//! `Kernel::k_function` (so a feature missing from a support vector
//! contributes `x*x` at the position libsvm adds it).

/// libsvm's `svm_type_table` order.
const SVM_TYPES: [&str; 5] = ["c_svc", "nu_svc", "one_class", "epsilon_svr", "nu_svr"];
/// libsvm's `kernel_type_table` order.
const KERNEL_TYPES: [&str; 5] = ["linear", "polynomial", "rbf", "sigmoid", "precomputed"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KernelType {
    Linear,
    Polynomial,
    Rbf,
    Sigmoid,
}

/// A sparse libsvm vector entry (`svm_node`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SvmNode {
    pub index: i32,
    pub value: f64,
}

/// A parsed libsvm regression model.
#[derive(Debug, Clone)]
pub(crate) struct SvmModel {
    kernel: KernelType,
    degree: i32,
    gamma: f64,
    coef0: f64,
    rho: f64,
    /// First-class coefficient of each support vector (`sv_coef[0]`).
    sv_coef: Vec<f64>,
    /// All support vector nodes, back to back.
    nodes: Vec<SvmNode>,
    /// `nodes[sv_start[i]..sv_start[i + 1]]` is support vector i.
    sv_start: Vec<usize>,
}

/// A parse failure: 1-based line of the libsvm text and the reason.
pub(crate) type SvmParseError = (usize, String);

impl SvmModel {
    /// Number of support vectors.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.sv_coef.len()
    }

    pub(crate) fn parse(text: &str) -> Result<SvmModel, SvmParseError> {
        Parser { b: text.as_bytes(), pos: 0, tok_pos: 0 }.parse()
    }

    /// `svm_predict` for an SVR model; `x` must be in ascending index order
    /// (libvmaf passes indices 1..=n).
    pub(crate) fn predict(&self, x: &[SvmNode]) -> f64 {
        let mut sum = 0.0;
        for (i, &coef) in self.sv_coef.iter().enumerate() {
            let sv = &self.nodes[self.sv_start[i]..self.sv_start[i + 1]];
            sum += coef * self.kernel(x, sv);
        }
        sum - self.rho
    }

    fn kernel(&self, x: &[SvmNode], y: &[SvmNode]) -> f64 {
        match self.kernel {
            KernelType::Linear => dot(x, y),
            KernelType::Polynomial => powi(self.gamma * dot(x, y) + self.coef0, self.degree),
            KernelType::Sigmoid => (self.gamma * dot(x, y) + self.coef0).tanh(),
            KernelType::Rbf => {
                let (mut i, mut j) = (0, 0);
                let mut sum = 0.0;
                while i < x.len() && j < y.len() {
                    if x[i].index == y[j].index {
                        let d = x[i].value - y[j].value;
                        sum += d * d;
                        i += 1;
                        j += 1;
                    } else if x[i].index > y[j].index {
                        sum += y[j].value * y[j].value;
                        j += 1;
                    } else {
                        sum += x[i].value * x[i].value;
                        i += 1;
                    }
                }
                for n in &x[i..] {
                    sum += n.value * n.value;
                }
                for n in &y[j..] {
                    sum += n.value * n.value;
                }
                // exp(-gamma*sum): the negation is exact, then one product.
                (-self.gamma * sum).exp()
            }
        }
    }
}

/// libsvm's `Kernel::dot` over two index-sorted sparse vectors.
fn dot(x: &[SvmNode], y: &[SvmNode]) -> f64 {
    let (mut i, mut j) = (0, 0);
    let mut sum = 0.0;
    while i < x.len() && j < y.len() {
        if x[i].index == y[j].index {
            sum += x[i].value * y[j].value;
            i += 1;
            j += 1;
        } else if x[i].index > y[j].index {
            j += 1;
        } else {
            i += 1;
        }
    }
    sum
}

/// libsvm's `powi` (square-and-multiply).
fn powi(base: f64, times: i32) -> f64 {
    let (mut tmp, mut ret) = (base, 1.0);
    let mut t = times;
    while t > 0 {
        if t % 2 == 1 {
            ret *= tmp;
        }
        tmp *= tmp;
        t /= 2;
    }
    ret
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Length of the longest prefix of `b` that libstdc++'s numeric extractor
/// accumulates for a floating-point value (sign, digits, point, exponent).
fn float_token_len(b: &[u8]) -> usize {
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
    }
    i
}

/// Same for an integer value.
fn int_token_len(b: &[u8]) -> usize {
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    i
}

/// `stream >> double` on `b[*pos..]`: skips white space, then converts the
/// accumulated token (the whole token must be a number, as in libstdc++).
fn extract_f64(b: &[u8], pos: &mut usize) -> Option<f64> {
    while *pos < b.len() && is_space(b[*pos]) {
        *pos += 1;
    }
    let n = float_token_len(&b[*pos..]);
    let tok = std::str::from_utf8(&b[*pos..*pos + n]).ok()?;
    *pos += n;
    // A token with no digit before/after the point ("-", ".", "1e") fails.
    if !tok.bytes().any(|c| c.is_ascii_digit()) {
        return None;
    }
    tok.parse::<f64>().ok()
}

/// `stream >> int` (overflow fails, as in libstdc++).
fn extract_i32(b: &[u8], pos: &mut usize) -> Option<i32> {
    while *pos < b.len() && is_space(b[*pos]) {
        *pos += 1;
    }
    let n = int_token_len(&b[*pos..]);
    let tok = std::str::from_utf8(&b[*pos..*pos + n]).ok()?;
    *pos += n;
    tok.parse::<i32>().ok()
}

struct Parser<'a> {
    b: &'a [u8],
    pos: usize,
    /// Start of the last header token, for error lines.
    tok_pos: usize,
}

impl Parser<'_> {
    fn line_at(&self, pos: usize) -> usize {
        self.b[..pos.min(self.b.len())].iter().filter(|&&c| c == b'\n').count() + 1
    }

    fn line(&self) -> usize {
        self.line_at(self.pos)
    }

    /// An error reported on the line of the last header keyword.
    fn err<T>(&self, msg: impl Into<String>) -> Result<T, SvmParseError> {
        Err((self.line_at(self.tok_pos), msg.into()))
    }

    /// `read_next`: characters up to a space or newline (consumed). None at
    /// end of text or on an empty token, which ends the header.
    fn read_next(&mut self) -> Option<String> {
        let start = self.pos;
        self.tok_pos = start;
        while self.pos < self.b.len() {
            let c = self.b[self.pos];
            self.pos += 1;
            if c == b' ' || c == b'\n' {
                let tok = &self.b[start..self.pos - 1];
                return if tok.is_empty() { None } else { Some(String::from_utf8_lossy(tok).into_owned()) };
            }
        }
        None
    }

    /// `get(value)`: `>> value`, then skip one character.
    fn get_f64(&mut self) -> Option<f64> {
        let v = extract_f64(self.b, &mut self.pos)?;
        self.pos = (self.pos + 1).min(self.b.len());
        Some(v)
    }

    fn get_i32(&mut self) -> Option<i32> {
        let v = extract_i32(self.b, &mut self.pos)?;
        self.pos = (self.pos + 1).min(self.b.len());
        Some(v)
    }

    /// `std::getline`: None only at end of text with nothing read.
    fn read_line(&mut self) -> Option<&[u8]> {
        if self.pos >= self.b.len() {
            return None;
        }
        let start = self.pos;
        let end = self.b[start..].iter().position(|&c| c == b'\n').map_or(self.b.len(), |i| start + i);
        self.pos = (end + 1).min(self.b.len());
        Some(&self.b[start..end])
    }

    fn parse(mut self) -> Result<SvmModel, SvmParseError> {
        let mut svm_type: Option<usize> = None;
        let mut kernel_type = 0usize; // calloc'ed model: linear
        let (mut degree, mut gamma, mut coef0) = (0i32, 0.0f64, 0.0f64);
        let mut nr_class: i32 = 0;
        let mut total_sv: i32 = 0;
        let mut rho: Option<Vec<f64>> = None;

        while let Some(tok) = self.read_next() {
            match tok.as_str() {
                "SV" => break,
                "svm_type" => {
                    let Some(t) = self.read_next() else { return self.err("failed to read svm_type") };
                    match SVM_TYPES.iter().position(|s| **s == t) {
                        Some(i) => svm_type = Some(i),
                        None => return self.err(format!("unknown svm_type \"{t}\"")),
                    }
                }
                "kernel_type" => {
                    let Some(t) = self.read_next() else { return self.err("failed to read kernel_type") };
                    match KERNEL_TYPES.iter().position(|s| **s == t) {
                        Some(i) => kernel_type = i,
                        None => return self.err(format!("unknown kernel_type \"{t}\"")),
                    }
                }
                "degree" => degree = self.get_i32().map_or_else(|| self.err("failed to read degree"), Ok)?,
                "gamma" => gamma = self.get_f64().map_or_else(|| self.err("failed to read gamma"), Ok)?,
                "coef0" => coef0 = self.get_f64().map_or_else(|| self.err("failed to read coef0"), Ok)?,
                "nr_class" => nr_class = self.get_i32().map_or_else(|| self.err("failed to read nr_class"), Ok)?,
                "total_sv" => total_sv = self.get_i32().map_or_else(|| self.err("failed to read total_sv"), Ok)?,
                "rho" => {
                    // No pre-allocation from an untrusted count.
                    let mut v = Vec::new();
                    for _ in 0..pairs(nr_class) {
                        v.push(self.get_f64().map_or_else(|| self.err("failed to read rho"), Ok)?);
                    }
                    rho = Some(v);
                }
                "label" | "nr_sv" => {
                    for _ in 0..nr_class.max(0) {
                        self.get_i32().map_or_else(|| self.err(format!("failed to read {tok}")), Ok)?;
                    }
                }
                "probA" | "probB" => {
                    for _ in 0..pairs(nr_class) {
                        self.get_f64().map_or_else(|| self.err(format!("failed to read {tok}")), Ok)?;
                    }
                }
                other => return self.err(format!("unknown text \"{other}\" in model header")),
            }
        }

        let svm_type = svm_type.unwrap_or(0); // calloc'ed model: c_svc
        if SVM_TYPES[svm_type] != "epsilon_svr" && SVM_TYPES[svm_type] != "nu_svr" {
            return self.err(format!(
                "svm_type \"{}\" is not a regression model (expected nu_svr or epsilon_svr)",
                SVM_TYPES[svm_type]
            ));
        }
        let kernel = match KERNEL_TYPES[kernel_type] {
            "linear" => KernelType::Linear,
            "polynomial" => KernelType::Polynomial,
            "rbf" => KernelType::Rbf,
            "sigmoid" => KernelType::Sigmoid,
            _ => return self.err("kernel_type \"precomputed\" cannot be used by a VMAF model"),
        };
        if nr_class < 2 {
            return self.err(format!("nr_class must be at least 2 (found {nr_class})"));
        }
        let Some(rho) = rho.and_then(|r| r.first().copied()) else {
            return self.err("missing rho (it must follow nr_class)");
        };
        if total_sv < 0 {
            return self.err(format!("negative total_sv {total_sv}"));
        }

        let n_coef = (nr_class - 1) as usize;
        let mut sv_coef = Vec::new();
        let mut nodes = Vec::new();
        let mut sv_start = vec![0];
        for i in 0..total_sv {
            let line_no = self.line();
            let Some(line) = self.read_line() else {
                return Err((line_no, format!("failed to read support vector {} of {total_sv}", i + 1)));
            };
            let mut p = 0;
            for c in 0..n_coef {
                let Some(coef) = extract_f64(line, &mut p) else {
                    return Err((line_no, "failed to parse SV coefficient".into()));
                };
                if c == 0 {
                    sv_coef.push(coef);
                }
            }
            loop {
                while p < line.len() && is_space(line[p]) {
                    p += 1;
                }
                if p == line.len() {
                    break;
                }
                let bad = || (line_no, format!("bad support vector entry: \"{}\"", String::from_utf8_lossy(line)));
                let index = extract_i32(line, &mut p).ok_or_else(bad)?;
                if line.get(p) != Some(&b':') {
                    return Err(bad());
                }
                p += 1;
                // `>> value` would skip white space here; libsvm never writes any.
                let value = extract_f64(line, &mut p).ok_or_else(bad)?;
                nodes.push(SvmNode { index, value });
            }
            sv_start.push(nodes.len());
        }

        Ok(SvmModel { kernel, degree, gamma, coef0, rho, sv_coef, nodes, sv_start })
    }
}

/// `nr_class * (nr_class - 1) / 2` as libsvm computes it (0 for nonsense).
fn pairs(nr_class: i32) -> usize {
    if nr_class < 1 { 0 } else { (nr_class as usize) * (nr_class as usize - 1) / 2 }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TINY: &str = "svm_type nu_svr\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 2\nrho 0.25\nSV\n\
                        1.5 1:0.5 2:1 \n-2 2:0.25 \n";

    fn x(v: &[f64]) -> Vec<SvmNode> {
        v.iter().enumerate().map(|(i, &value)| SvmNode { index: i as i32 + 1, value }).collect()
    }

    #[test]
    fn rbf_prediction_by_hand() {
        let m = SvmModel::parse(TINY).unwrap();
        assert_eq!(m.len(), 2);
        let p = m.predict(&x(&[0.25, 0.75]));
        // sv0: (0.25-0.5)^2 + (0.75-1)^2 ; sv1 lacks index 1: 0.25^2 + (0.75-0.25)^2
        let k0 = (-0.5f64 * (0.0625 + 0.0625)).exp();
        let k1 = (-0.5f64 * (0.0625 + 0.25)).exp();
        assert_eq!(p, 1.5 * k0 + -2.0 * k1 - 0.25);
    }

    #[test]
    fn malformed_models_are_errors() {
        let cases = [
            ("svm_type nu_svr\nkernel_type rbf\ngamma x\n", 3),
            ("svm_type foo\n", 1),
            ("svm_type c_svc\nkernel_type rbf\nnr_class 2\nrho 1\nSV\n", 5),
            ("svm_type nu_svr\nkernel_type rbf\nnr_class 2\ntotal_sv 1\nSV\n1 1:0.5\n", 5),
            ("svm_type nu_svr\nnr_class 2\ntotal_sv 2\nrho 1\nSV\n1 1:0.5\n", 7),
            ("svm_type nu_svr\nnr_class 2\ntotal_sv 1\nrho 1\nSV\n1 1;0.5\n", 6),
            ("svm_type nu_svr\nnr_class 2\ntotal_sv 1\nrho 1\nSV\nabc 1:0.5\n", 6),
            ("svm_type nu_svr\nbogus 1\n", 2),
        ];
        for (text, line) in cases {
            let e = SvmModel::parse(text).unwrap_err();
            assert_eq!(e.0, line, "{text:?}: {e:?}");
        }
    }

    #[test]
    fn other_kernels() {
        let lin = "svm_type epsilon_svr\nkernel_type linear\nnr_class 2\ntotal_sv 1\nrho 1\nSV\n2 1:3 3:4\n";
        let m = SvmModel::parse(lin).unwrap();
        assert_eq!(m.predict(&x(&[2.0, 5.0, 1.0])), 2.0 * (3.0 * 2.0 + 4.0 * 1.0) - 1.0);
        assert_eq!(powi(1.5, 3), 1.5 * 1.5 * 1.5);
    }
}
