//! The JSON Schemas users validate against know every runtime of the
//! registry: `plugforge.schema.json` has a `targets.<id>` entry (with its
//! definition) for each and lists the ids in `$defs.runtime`, which
//! `validate-report.schema.json` refers to for the id a report may carry (so
//! a runtime is added to one schema). A runtime added without them fails
//! here, not in a user's editor or report check.

use std::collections::BTreeSet;

use plugforge_conformance::repo_dir;
use plugforge_core::Runtime;
use serde_json::Value;

fn schema(name: &str) -> Value {
    let path = repo_dir().join("schema").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn ids() -> BTreeSet<String> {
    Runtime::ALL.iter().map(|r| r.id().to_string()).collect()
}

#[test]
fn the_source_schema_has_a_target_entry_for_every_runtime() {
    let schema = schema("plugforge.schema.json");
    let targets = &schema["properties"]["targets"];
    assert_eq!(targets["additionalProperties"], Value::Bool(false), "targets is closed");
    let entries = targets["properties"].as_object().expect("targets.properties");
    let listed: BTreeSet<String> = entries.keys().cloned().collect();
    assert_eq!(listed, ids(), "schema/plugforge.schema.json targets.properties against the registry");
    for (id, entry) in entries {
        let reference = entry["$ref"].as_str().unwrap_or_else(|| panic!("targets.{id}: a $ref"));
        let name = reference.strip_prefix("#/$defs/").unwrap_or_else(|| panic!("targets.{id}: {reference}"));
        assert!(schema["$defs"].get(name).is_some(), "targets.{id}: {reference} is not defined");
    }
}

#[test]
fn the_source_schema_names_every_runtime_once() {
    let schema = schema("plugforge.schema.json");
    let listed: Vec<String> = schema["$defs"]["runtime"]["enum"]
        .as_array()
        .expect("$defs.runtime.enum")
        .iter()
        .map(|v| v.as_str().expect("a string").to_string())
        .collect();
    let unique: BTreeSet<String> = listed.iter().cloned().collect();
    assert_eq!(unique.len(), listed.len(), "$defs.runtime.enum lists an id twice: {listed:?}");
    assert_eq!(unique, ids(), "schema/plugforge.schema.json $defs.runtime against the registry");
}

#[test]
fn the_report_schema_takes_its_runtime_ids_from_the_source_schema() {
    let schema = schema("validate-report.schema.json");
    assert_eq!(
        schema["$defs"]["runtime"],
        serde_json::json!({"$ref": "plugforge.schema.json#/$defs/runtime"}),
        "schema/validate-report.schema.json $defs.runtime refers to the source schema's list"
    );
}
