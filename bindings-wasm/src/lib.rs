//! Browser binding: conversion only; every rule lives in plugforge-core.

use wasm_bindgen::prelude::*;

/// The engine's version.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
