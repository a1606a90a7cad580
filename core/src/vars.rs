//! Plugin-root variables: the canonical `${PLUGIN_ROOT}` / `${PLUGIN_DATA}`
//! and each runtime's spelling of them.

use serde_json::Value;

use crate::canonical::{
    CLAUDE_PLUGIN_DATA as CLAUDE_DATA, CLAUDE_PLUGIN_ROOT as CLAUDE_ROOT, PLUGIN_DATA, PLUGIN_ROOT,
};

/// (runtime spelling, canonical spelling) pairs read from Claude sources.
const CLAUDE_TO_CANONICAL: [(&str, &str); 2] = [(CLAUDE_ROOT, PLUGIN_ROOT), (CLAUDE_DATA, PLUGIN_DATA)];

/// A table of (canonical, runtime) replacements applied to generated text.
#[derive(Debug, Clone, Copy)]
pub struct VarTable(pub &'static [(&'static str, &'static str)]);

pub const CLAUDE_VARS: VarTable = VarTable(&[(PLUGIN_ROOT, CLAUDE_ROOT), (PLUGIN_DATA, CLAUDE_DATA)]);

/// The text with Claude spellings turned canonical, or `None` if unchanged
/// (so unchanged files keep sharing their bytes).
pub fn canonical_text(text: &str) -> Option<String> {
    replace_all(text, &CLAUDE_TO_CANONICAL)
}

pub fn canonical_json(value: Value) -> Value {
    map_strings(value, &|s| replace_all(s, &CLAUDE_TO_CANONICAL))
}

impl VarTable {
    pub fn text(self, text: &str) -> Option<String> {
        replace_all(text, self.0)
    }

    pub fn json(self, value: Value) -> Value {
        map_strings(value, &|s| replace_all(s, self.0))
    }
}

fn replace_all(text: &str, table: &[(&str, &str)]) -> Option<String> {
    if !table.iter().any(|(from, _)| text.contains(from)) {
        return None;
    }
    let mut out = text.to_string();
    for (from, to) in table {
        out = out.replace(from, to);
    }
    Some(out)
}

fn map_strings(value: Value, f: &dyn Fn(&str) -> Option<String>) -> Value {
    match value {
        Value::String(s) => Value::String(f(&s).unwrap_or(s)),
        Value::Array(items) => Value::Array(items.into_iter().map(|v| map_strings(v, f)).collect()),
        Value::Object(map) => Value::Object(map.into_iter().map(|(k, v)| (k, map_strings(v, f))).collect()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn round_trips_claude_spellings() {
        let canonical = canonical_text("run ${CLAUDE_PLUGIN_ROOT}/x ${CLAUDE_PLUGIN_DATA}").unwrap();
        assert_eq!(canonical, "run ${PLUGIN_ROOT}/x ${PLUGIN_DATA}");
        assert_eq!(
            CLAUDE_VARS.text(&canonical).unwrap(),
            "run ${CLAUDE_PLUGIN_ROOT}/x ${CLAUDE_PLUGIN_DATA}"
        );
        assert!(canonical_text("nothing here").is_none());
    }

    #[test]
    fn rewrites_json_strings_only() {
        let v = CLAUDE_VARS.json(json!({"${PLUGIN_ROOT}": ["${PLUGIN_ROOT}/s.sh", 1]}));
        assert_eq!(v, json!({"${PLUGIN_ROOT}": ["${CLAUDE_PLUGIN_ROOT}/s.sh", 1]}));
    }
}
