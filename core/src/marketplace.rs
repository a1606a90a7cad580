//! Marketplace files are shared: an entry is appended when missing, replaced
//! in place when its version moved, and left alone otherwise; every other
//! entry and field of the file is kept.

use serde_json::{Map, Value};

use crate::bundle::MarketplaceEntry;
use crate::error::{Error, ErrorCode, Location, Result};
use crate::json;
use crate::source::parse_json;

/// The merged file bytes for `entry`, given what is on disk now.
pub fn merge(existing: Option<&[u8]>, spec: &MarketplaceEntry) -> Result<Vec<u8>> {
    let mut document: Map<String, Value> = match existing {
        Some(bytes) => parse_json(spec.path.as_str(), bytes)?,
        None => spec.document.as_object().cloned().unwrap_or_default(),
    };
    let plugins = document.entry("plugins").or_insert_with(|| Value::Array(Vec::new()));
    let Some(list) = plugins.as_array_mut() else {
        return Err(Error::at(
            ErrorCode::InvalidSource,
            Location::file(spec.path.as_str()),
            "\"plugins\" is not a list; refusing to replace the entries it holds",
        ));
    };
    let name = spec.entry.get("name").and_then(Value::as_str).unwrap_or_default();
    let source = spec.entry.get("source").and_then(Value::as_str).unwrap_or_default();
    // A renamed namespace still points at the same bundle: its entry is ours.
    match list.iter_mut().find(|e| is_entry(e, name, source)) {
        None => list.push(spec.entry.clone()),
        Some(current)
            if current.get("version") != spec.entry.get("version")
                || current.get("name") != spec.entry.get("name") =>
        {
            *current = spec.entry.clone()
        }
        Some(_) => {}
    }
    let merged = json::to_bytes(&document);
    // A file that already says the same thing keeps its exact bytes.
    match existing {
        Some(bytes) if serde_json::from_slice::<Value>(bytes).ok() == Some(Value::Object(document)) => {
            Ok(bytes.to_vec())
        }
        _ => Ok(merged),
    }
}

/// Whether `entry` is this plugin's: same name, or same bundle source.
fn is_entry(entry: &Value, name: &str, source: &str) -> bool {
    let field = |key: &str| entry.get(key).and_then(Value::as_str);
    field("name") == Some(name) || field("source") == Some(source)
}

/// The file without this plugin's entry; `None` when no plugin is left, so
/// the file can go.
pub fn remove(existing: &[u8], file: &str, name: &str, source: &str) -> Result<Option<Vec<u8>>> {
    let mut document: Map<String, Value> = parse_json(file, existing)?;
    if let Some(Value::Array(list)) = document.get_mut("plugins") {
        list.retain(|e| !is_entry(e, name, source));
        if list.is_empty() {
            return Ok(None);
        }
    }
    Ok(Some(json::to_bytes(&document)))
}

/// Whether the file lists this plugin's entry.
pub fn lists(existing: &[u8], name: &str, source: &str) -> bool {
    serde_json::from_slice::<Value>(existing)
        .ok()
        .and_then(|v| v.get("plugins")?.as_array().cloned())
        .is_some_and(|list| list.iter().any(|e| is_entry(e, name, source)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::path::BundlePath;
    use serde_json::json;

    fn spec(version: &str) -> MarketplaceEntry {
        MarketplaceEntry {
            runtime: "claude-code",
            path: BundlePath::new(".claude-plugin/marketplace.json").unwrap(),
            document: json!({"name": "local", "owner": {"name": "o"}, "plugins": []}),
            entry: json!({"name": "p", "source": "./claude-code", "version": version}),
        }
    }

    fn parse(bytes: &[u8]) -> Value {
        serde_json::from_slice(bytes).unwrap()
    }

    #[test]
    fn creates_a_fresh_file() {
        let merged = parse(&merge(None, &spec("1.0.0")).unwrap());
        assert_eq!(merged["plugins"], json!([{"name": "p", "source": "./claude-code", "version": "1.0.0"}]));
        assert_eq!(merged["name"], "local");
    }

    #[test]
    fn appends_and_keeps_other_entries_and_fields() {
        let existing = json::to_bytes(&json!({"name": "mine", "owner": {"name": "me"}, "extra": 1,
            "plugins": [{"name": "other", "source": "./other"}]}));
        let merged = parse(&merge(Some(&existing), &spec("1.0.0")).unwrap());
        assert_eq!(merged["name"], "mine");
        assert_eq!(merged["extra"], 1);
        let names: Vec<&str> =
            merged["plugins"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["other", "p"]);
    }

    #[test]
    fn updates_in_place_only_when_the_version_moves() {
        let existing = json::to_bytes(&json!({"name": "m", "owner": {"name": "o"}, "plugins": [
            {"name": "p", "source": "./claude-code", "version": "1.0.0", "category": "edited"},
            {"name": "z", "source": "./z"}]}));
        let same = merge(Some(&existing), &spec("1.0.0")).unwrap();
        assert_eq!(same, existing, "same version: the entry and the bytes stay");
        let moved = parse(&merge(Some(&existing), &spec("1.1.0")).unwrap());
        assert_eq!(moved["plugins"][0], json!({"name": "p", "source": "./claude-code", "version": "1.1.0"}));
        assert_eq!(moved["plugins"][1]["name"], "z");
    }

    #[test]
    fn removes_an_entry_and_drops_an_empty_file() {
        let two = json::to_bytes(&json!({"name": "m", "plugins": [{"name": "p"}, {"name": "q"}]}));
        let left = parse(&remove(&two, "m.json", "p", "./claude-code").unwrap().unwrap());
        assert_eq!(left["plugins"], json!([{"name": "q"}]));
        let one =
            json::to_bytes(&json!({"name": "m", "plugins": [{"name": "old", "source": "./claude-code"}]}));
        assert!(remove(&one, "m.json", "p", "./claude-code").unwrap().is_none());
    }
}
