//! The published schemas committed under `tests/schemas/` (their sources in
//! `tests/schemas/README.md`), and YAML read as GitHub reads it, as JSON for
//! them.

#![allow(dead_code)]

use std::path::Path;

use serde_json::{Map, Value};
use yaml_rust2::{Yaml, YamlLoader};

/// The one YAML document of the repository file `path`, as JSON.
pub fn yaml_file(path: &str) -> Value {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("read {path}: {e}"));
    let docs = YamlLoader::load_from_str(&text).unwrap_or_else(|e| panic!("{path} is not YAML: {e}"));
    assert_eq!(docs.len(), 1, "{path} holds one document");
    to_json(&docs[0])
}

/// YAML as the runner reads it, as JSON for the schema.
pub fn to_json(yaml: &Yaml) -> Value {
    match yaml {
        Yaml::String(s) | Yaml::Real(s) => Value::String(s.clone()),
        Yaml::Integer(i) => Value::from(*i),
        Yaml::Boolean(b) => Value::Bool(*b),
        Yaml::Array(items) => Value::Array(items.iter().map(to_json).collect()),
        Yaml::Hash(hash) => {
            let entries =
                hash.iter().map(|(k, v)| (k.as_str().expect("string keys").to_string(), to_json(v)));
            Value::Object(entries.collect::<Map<_, _>>())
        }
        Yaml::Alias(_) | Yaml::Null | Yaml::BadValue => Value::Null,
    }
}

/// Every error of `instance` against `tests/schemas/<schema>`, with where it is.
pub fn schema_errors(schema: &str, instance: &Value) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/schemas").join(schema);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
    let validator = jsonschema::validator_for(&schema).expect("a valid schema");
    validator.iter_errors(instance).map(|e| format!("{} at {}", e, e.instance_path())).collect()
}
