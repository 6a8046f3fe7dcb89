//! Tests of `adm_csf_den`.
