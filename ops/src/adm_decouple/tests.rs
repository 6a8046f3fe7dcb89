//! Tests of `adm_decouple`.
