//! The one YAML writer and the one TOML writer: every runtime that emits
//! those formats goes through them, so quoting rules live in one place.
//! `toml_read` is the reader for the TOML files plugforge judges.

pub mod toml;
pub mod toml_read;
pub mod yaml;
