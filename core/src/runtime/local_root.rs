//! Plugin-root variables for kinds that install in place (a project or a
//! home folder): there is no plugin folder, so `${PLUGIN_ROOT}` becomes a
//! folder named after the namespace, which no `const` [`VarTable`] can spell.
//!
//! [`VarTable`]: crate::vars::VarTable

use serde_json::Value;

use super::Writer;
use crate::bundle::GeneratedFile;
use crate::error::Result;
use crate::model::FileComponent;
use crate::path::BundlePath;

/// Where `${PLUGIN_ROOT}` and `${PLUGIN_DATA}` point for one in-place bundle.
#[derive(Debug, Clone)]
pub struct LocalRoot {
    /// Replaces `${PLUGIN_ROOT}`, e.g. `${HOME}/.hermes/plugforge/dk`.
    pub root: String,
    /// Replaces `${PLUGIN_DATA}`.
    pub data: String,
}

impl LocalRoot {
    /// The text with both variables replaced, or `None` when it has neither.
    pub fn text(&self, text: &str) -> Option<String> {
        if !text.contains("${PLUGIN_ROOT}") && !text.contains("${PLUGIN_DATA}") {
            return None;
        }
        Some(text.replace("${PLUGIN_ROOT}", &self.root).replace("${PLUGIN_DATA}", &self.data))
    }

    /// Every string of a JSON value with both variables replaced.
    pub fn json(&self, value: Value) -> Value {
        match value {
            Value::String(s) => Value::String(self.text(&s).unwrap_or(s)),
            Value::Array(items) => Value::Array(items.into_iter().map(|v| self.json(v)).collect()),
            Value::Object(map) => Value::Object(map.into_iter().map(|(k, v)| (k, self.json(v))).collect()),
            other => other,
        }
    }

    /// Copies a source file to `to`, rewriting the variables in text; the
    /// executable bit travels and unchanged bytes stay shared.
    pub fn copy(&self, w: &mut Writer<'_>, from: &FileComponent, to: &str) -> Result<()> {
        let file = &from.file;
        let bytes = match file.text().and_then(|text| self.text(text)) {
            Some(text) => text.into_bytes().into(),
            None => file.bytes.clone(),
        };
        w.bundle
            .add(BundlePath::new(to)?, GeneratedFile::new(bytes, file.executable, file.origin.to_string()))
    }
}

/// Whether a text uses either plugin variable.
pub fn uses_plugin_vars(text: &str) -> bool {
    text.contains("${PLUGIN_ROOT}") || text.contains("${PLUGIN_DATA}")
}

/// A source with one of every component, and the honesty rows a build of it
/// reports, for the in-place kinds' tests.
#[cfg(test)]
pub(crate) mod fixture {
    use crate::bundle::Scope;
    use crate::options::{BuildOptions, TargetRequest};
    use crate::report::Level;
    use crate::source::SourceTree;

    pub fn every_component() -> SourceTree {
        let mut tree = SourceTree::new();
        let files: [(&str, &str, bool); 10] = [
            (
                "plugforge.json",
                r#"{"name": "kit", "version": "1.0.0", "description": "d", "author": {"name": "a"}}"#,
                false,
            ),
            ("skills/s/SKILL.md", "---\nname: s\ndescription: Does s\n---\nRun ${PLUGIN_ROOT}/x.sh\n", false),
            ("commands/c.md", "---\ndescription: Does c\nargument-hint: [what]\n---\nDo $ARGUMENTS\n", false),
            ("agents/a.md", "---\nname: a\ndescription: Does a\n---\nYou are a.\n", false),
            (
                "hooks/hooks.json",
                r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "${PLUGIN_ROOT}/h.sh"}]}]}}"#,
                false,
            ),
            (
                ".mcp.json",
                r#"{"mcpServers": {"m": {"command": "${PLUGIN_ROOT}/bin/tool", "timeout": 5}}}"#,
                false,
            ),
            ("settings.json", r#"{"agent": "a"}"#, false),
            ("bin/tool", "#!/bin/sh\n", true),
            ("output-styles/o.md", "---\nname: o\ndescription: Terse\n---\nBe terse.\n", false),
            ("AGENTS.md", "Context.\n", false),
        ];
        for (path, text, executable) in files {
            tree.insert(path, text.as_bytes().to_vec(), executable).unwrap();
        }
        tree
    }

    /// (component, level) of every row, in report order.
    pub fn rows(runtime: &str, kind: &str, scope: Scope) -> Vec<(&'static str, Level)> {
        let mut target = TargetRequest::new(runtime);
        target.kind = Some(kind.to_string());
        let options = BuildOptions { targets: vec![target], scope, ..Default::default() };
        let output = crate::build(&every_component(), &options).unwrap();
        output.bundles[0].honesty.iter().map(|h| (h.component.as_str(), h.level)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn root() -> LocalRoot {
        LocalRoot { root: "${HOME}/.x/dk".into(), data: "${HOME}/.x-data/dk".into() }
    }

    #[test]
    fn replaces_both_variables_in_text_and_json() {
        assert_eq!(
            root().text("run ${PLUGIN_ROOT}/a.sh > ${PLUGIN_DATA}/log").unwrap(),
            "run ${HOME}/.x/dk/a.sh > ${HOME}/.x-data/dk/log"
        );
        assert!(root().text("nothing").is_none());
        assert_eq!(
            root().json(json!({"command": "${PLUGIN_ROOT}/bin/d", "args": ["${PLUGIN_DATA}", 3]})),
            json!({"command": "${HOME}/.x/dk/bin/d", "args": ["${HOME}/.x-data/dk", 3]})
        );
        assert!(uses_plugin_vars("${PLUGIN_DATA}") && !uses_plugin_vars("$PLUGIN_ROOT"));
    }
}
