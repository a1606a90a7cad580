//! The one YAML writer and the one TOML writer: every runtime that emits
//! those formats goes through them, so quoting rules live in one place.
//! `toml_doc` is the one TOML reader: the files plugforge judges and imports.

pub mod toml;
pub mod toml_doc;
pub mod yaml;
