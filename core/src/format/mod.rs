//! The one YAML writer and the one TOML writer: every runtime that emits
//! those formats goes through them, so quoting rules live in one place.

pub mod toml;
pub mod yaml;
