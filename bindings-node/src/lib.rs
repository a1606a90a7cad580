//! Node.js binding: conversion only; every rule lives in plugforge-core.

use napi_derive::napi;

/// The engine's version.
#[napi]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
