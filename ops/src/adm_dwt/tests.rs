//! Tests of `adm_dwt`.
