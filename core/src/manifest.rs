//! The generation manifest: what was written into a bundle root, with the
//! sha256 of each file, so later runs can tell user edits from stale output.

use serde::{Deserialize, Serialize};

use crate::bundle::{Bundle, Generator};
use crate::error::{Error, ErrorCode, Location, Result};
use crate::json;
use crate::merge::Record;
use crate::source::{Conflict, Requires};

pub const SCHEMA_VERSION: &str = "plugforge.manifest.v1";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestFile {
    pub path: String,
    pub sha256: String,
    #[serde(default, skip_serializing_if = "is_false")]
    pub executable: bool,
    pub template: String,
}

fn is_false(value: &bool) -> bool {
    !value
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PluginRef {
    pub name: String,
    #[serde(default)]
    pub version: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub schema_version: String,
    pub generator: Generator,
    pub generated_at: String,
    pub runtime: String,
    pub kind: String,
    pub scope: String,
    pub namespace: String,
    pub plugin: PluginRef,
    /// The plugin's declared needs and collisions (only when it declares any).
    #[serde(default, skip_serializing_if = "Requires::is_empty")]
    pub requires: Requires,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conflicts: Vec<Conflict>,
    pub files: Vec<ManifestFile>,
    /// Parts of shared files this bundle owns.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged: Vec<Record>,
}

impl Manifest {
    /// The manifest describing `bundle` as generated now.
    pub fn describe(bundle: &Bundle, generator: &Generator, scope: &str, generated_at: &str) -> Manifest {
        let files = bundle
            .files
            .iter()
            .map(|(path, file)| ManifestFile {
                path: path.to_string(),
                sha256: file.sha256.to_string(),
                executable: file.executable,
                template: file.template.clone(),
            })
            .collect();
        Manifest {
            schema_version: SCHEMA_VERSION.into(),
            generator: generator.clone(),
            generated_at: generated_at.into(),
            runtime: bundle.runtime.id().into(),
            kind: bundle.kind.as_str().into(),
            scope: scope.into(),
            namespace: bundle.namespace.clone(),
            plugin: PluginRef { name: bundle.plugin_name.clone(), version: bundle.plugin_version.clone() },
            requires: bundle.requires.clone(),
            conflicts: bundle.conflicts.clone(),
            files,
            merged: bundle.merges.iter().filter_map(crate::merge::Merge::record).collect(),
        }
    }

    pub fn parse(file: &str, bytes: &[u8]) -> Result<Manifest> {
        let manifest: Manifest = crate::source::parse_json(file, bytes)
            .map_err(|e| Error::from_problems(ErrorCode::InvalidManifest, e.problems))?;
        if manifest.schema_version != SCHEMA_VERSION {
            return Err(Error::at(
                ErrorCode::InvalidManifest,
                Location::file(file),
                format!(
                    "unsupported manifest schema {:?} (expected {SCHEMA_VERSION})",
                    manifest.schema_version
                ),
            ));
        }
        Ok(manifest)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        json::to_bytes(self)
    }

    pub fn file(&self, path: &str) -> Option<&ManifestFile> {
        self.files.binary_search_by(|f| f.path.as_str().cmp(path)).ok().map(|i| &self.files[i])
    }

    /// Files sorted by path, so lookups can binary-search.
    pub fn sorted(mut self) -> Manifest {
        self.files.sort_by(|a, b| a.path.cmp(&b.path));
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::BuildOptions;
    use crate::source::SourceTree;

    fn manifest_of(config: &str) -> serde_json::Value {
        let mut source = SourceTree::new();
        source.insert("plugforge.json", config.as_bytes().to_vec(), false).unwrap();
        let output = crate::build(&source, &BuildOptions::default()).unwrap();
        let manifest = Manifest::describe(&output.bundles[0], &output.generator, "project", "t");
        let parsed = Manifest::parse("m.json", &manifest.to_bytes()).unwrap();
        assert_eq!(parsed, manifest, "round trip");
        serde_json::from_slice(&manifest.to_bytes()).unwrap()
    }

    #[test]
    fn the_extension_is_carried_only_when_declared() {
        let plain = manifest_of(r#"{"name": "a", "version": "1.0.0", "description": "A."}"#);
        assert!(plain.get("requires").is_none() && plain.get("conflicts").is_none());
        let declared = manifest_of(
            r#"{"name": "a", "version": "1.0.0", "description": "A.",
                "requires": {"bindings": [{"name": "TOKEN"}]},
                "conflicts": [{"command": "sync", "plugin": "b"}]}"#,
        );
        assert_eq!(declared["requires"], serde_json::json!({"bindings": [{"name": "TOKEN"}]}));
        assert_eq!(declared["conflicts"], serde_json::json!([{"command": "sync", "plugin": "b"}]));
    }
}
