//! Tests of `adm_cm`.
