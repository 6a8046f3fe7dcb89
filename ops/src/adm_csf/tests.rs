//! Tests of `adm_csf`.
