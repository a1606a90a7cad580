//! The size floor of the browser package: every crate the core requires
//! (bindings-wasm's boundary, minijinja, serde_json, toml, toml_edit,
//! jsonc-parser, yaml-rust2, sha2), with the workspace's versions and
//! features, each called the way the core calls it, and no rule of the core.
//! `bench/run` builds it exactly as scripts/test-wasm builds the browser
//! package and prints its gzipped size beside the package's: what is left
//! is the core's own code and data.

use std::collections::BTreeMap;

use js_sys::Uint8Array;
use minijinja::value::Serde;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use wasm_bindgen::prelude::*;

/// A file in, as the browser package takes one.
#[derive(Deserialize)]
struct FileIn {
    path: String,
    #[serde(with = "serde_wasm_bindgen::preserve")]
    bytes: Uint8Array,
    #[serde(default)]
    executable: bool,
}

/// A file out, as the browser package returns one.
#[derive(Serialize)]
struct FileOut {
    path: String,
    #[serde(with = "serde_wasm_bindgen::preserve")]
    bytes: Uint8Array,
    sha256: String,
    executable: bool,
}

/// A manifest shape read from JSON and TOML, as the core reads its own.
#[derive(Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
struct Manifest {
    name: String,
    version: Option<String>,
    keywords: Vec<String>,
    vars: BTreeMap<String, serde_json::Value>,
}

/// Reads every file by its extension with the parser the core uses for it,
/// renders `.j2` templates over the JSON manifest, and returns each result
/// with its sha256.
#[wasm_bindgen]
pub fn compile(files: JsValue) -> Result<JsValue, JsValue> {
    let files: Vec<FileIn> = serde_wasm_bindgen::from_value(files)?;
    let mut context = serde_json::Value::Null;
    let mut env = minijinja::Environment::new();
    env.set_fuel(Some(1_000_000));
    let mut out = Vec::new();
    for file in files {
        let bytes = file.bytes.to_vec();
        let text = String::from_utf8(bytes).map_err(|e| format!("{}: {e}", file.path))?;
        let result = match file.path.rsplit('.').next().unwrap_or("") {
            "json" => {
                let manifest: Manifest = serde_json::from_str(&text).map_err(|e| e.to_string())?;
                context = serde_json::from_str(&text).map_err(|e| e.to_string())?;
                serde_json::to_string_pretty(&manifest).map_err(|e| e.to_string())?
            }
            "jsonc" => {
                let ast = jsonc_parser::parse_to_ast(&text, &Default::default(), &Default::default())
                    .map_err(|e| e.to_string())?;
                let root = jsonc_parser::cst::CstRootNode::parse(&text, &Default::default())
                    .map_err(|e| e.to_string())?;
                if let Some(object) = root.object_value() {
                    object.append("generated", jsonc_parser::cst::CstInputValue::Bool(ast.value.is_some()));
                }
                root.to_string()
            }
            "toml" => {
                let manifest: Manifest = toml::from_str(&text).map_err(|e| e.to_string())?;
                let table: toml::Table = toml::from_str(&text).map_err(|e| e.to_string())?;
                let document = toml_edit::Document::parse(text.as_str()).map_err(|e| e.to_string())?;
                format!("{} {} {}", manifest.name, table.len(), document.as_table().len())
            }
            "md" | "yaml" => {
                // A Markdown file's YAML is its front matter.
                let yaml = match text.strip_prefix("---\n") {
                    Some(rest) => rest.split("\n---").next().unwrap_or_default(),
                    None => text.as_str(),
                };
                let docs = yaml_rust2::YamlLoader::load_from_str(yaml).map_err(|e| e.to_string())?;
                docs.first().and_then(|d| d["name"].as_str()).unwrap_or_default().to_string()
            }
            "j2" => env.render_named_str(&file.path, &text, Serde(&context)).map_err(|e| format!("{e:#}"))?,
            _ => text,
        };
        let sha256 = Sha256::digest(result.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
        let bytes = Uint8Array::from(result.as_bytes());
        out.push(FileOut { path: file.path, bytes, sha256, executable: file.executable });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out.serialize(&serde_wasm_bindgen::Serializer::json_compatible())?)
}
