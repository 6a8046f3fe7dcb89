//! Writing results in libvmaf's output layouts (XML, JSON, CSV, SUB), byte for byte as libvmaf 3.2's
//! `output.c` prints them, from one [`Report`].

mod csv;
mod json;
mod number;
mod report;
mod sub;
mod xml;

pub use csv::write_csv;
pub use json::write_json;
pub use number::{Precision, format_printf, format_value, leading_zeros, printf_fixed};
pub use report::{Pooled, Report};
pub use sub::write_sub;
pub use xml::write_xml;
