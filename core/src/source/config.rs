//! `plugforge.json`: the plugin's metadata and per-runtime choices.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The parsed `plugforge.json` (see `schema/plugforge.schema.json`).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Config {
    #[serde(rename = "$schema", default, skip_serializing)]
    pub schema: Option<String>,
    pub name: String,
    #[serde(default)]
    pub display_name: Option<String>,
    #[serde(default)]
    pub version: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub author: Option<Author>,
    #[serde(default)]
    pub license: Option<String>,
    #[serde(default)]
    pub repository: Option<String>,
    #[serde(default)]
    pub homepage: Option<String>,
    #[serde(default)]
    pub keywords: Vec<String>,
    /// The plugin's icon: a PNG, JPEG or SVG file of the source (a path from
    /// its root), carried into every manifest that takes one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icon: Option<String>,
    #[serde(default)]
    pub namespace: Option<String>,
    #[serde(default)]
    pub targets: BTreeMap<String, TargetConfig>,
    #[serde(default)]
    pub marketplace: MarketplaceConfig,
    #[serde(default)]
    pub allow_urls: Vec<String>,
    /// `carry` (the default): URLs written in the source travel and are
    /// reported; `deny`: every URL outside `allowUrls` is an error.
    #[serde(default)]
    pub urls: UrlPolicy,
    /// Literal credentials the build lets through: test fixtures holding
    /// fake tokens. Any other literal credential refuses the build.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow_credentials: Vec<CredentialAllowance>,
    /// `warn` (the default): a literal credential in prose or a test file
    /// is a warning and the file travels; `deny`: it refuses the build as
    /// one in configuration or code always does.
    #[serde(default, skip_serializing_if = "CredentialPolicy::is_default")]
    pub credentials: CredentialPolicy,
    #[serde(default)]
    pub variables: BTreeMap<String, VariableDoc>,
    /// Services, bindings and plugins the plugin needs to work.
    #[serde(default, skip_serializing_if = "Requires::is_empty")]
    pub requires: Requires,
    /// Names this plugin knowingly shares with another plugin.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conflicts: Vec<Conflict>,
}

/// What a build does with URLs (`"urls"` in plugforge.json, `--deny-urls`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UrlPolicy {
    /// URLs written in the source are carried and reported.
    #[default]
    Carry,
    /// Every URL outside `allowUrls` is an error.
    Deny,
}

/// What a build does with a literal credential in prose (a Markdown body)
/// or a test file (`"credentials"` in plugforge.json). One in what runs or
/// configures refuses the build either way.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CredentialPolicy {
    /// A warning naming the file and line; the file is carried.
    #[default]
    Warn,
    /// Refused, like one in configuration.
    Deny,
}

impl CredentialPolicy {
    fn is_default(&self) -> bool {
        *self == CredentialPolicy::Warn
    }
}

/// A literal credential allowed in one source file: under one key (its name,
/// or its dotted path in a JSON file), or anywhere in the file when `key`
/// is absent.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CredentialAllowance {
    pub file: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Author {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// Per-runtime choices: on/off, artifact kind, extra manifest fields.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TargetConfig {
    #[serde(default)]
    pub enabled: Option<bool>,
    #[serde(default)]
    pub artifact: Option<String>,
    /// Merged into that runtime's own manifest (e.g. Codex `interface`).
    #[serde(default)]
    pub manifest: Map<String, Value>,
    /// `false` leaves the plugin's hooks out of this runtime's bundle (the
    /// author switched them off for it).
    #[serde(default)]
    pub hooks: Option<bool>,
    /// Skills (`skills/<folder>`), agents and commands (their files'
    /// paths) left out of this runtime's bundle: the author did not give
    /// them to it. An honesty row names each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub omit: Vec<String>,
    /// Merged into the plugin's entry in this runtime's marketplace (Codex
    /// `policy.authentication`): what the plugin's own entry stated.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub marketplace_entry: Map<String, Value>,
    #[serde(default)]
    pub bundle_format: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MarketplaceConfig {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub display_name: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub owner: Option<Author>,
    #[serde(default)]
    pub category: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct VariableDoc {
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub default: Option<String>,
}

/// What the plugin needs from its surroundings. Only names and contracts:
/// a binding is resolved by the broker at install time, never written here.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Requires {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub services: Vec<ServiceRequirement>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bindings: Vec<BindingRequirement>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub plugins: Vec<PluginRequirement>,
}

impl Requires {
    pub fn is_empty(&self) -> bool {
        self.services.is_empty() && self.bindings.is_empty() && self.plugins.is_empty()
    }
}

/// A backend service that must be reachable: its health URL and the version
/// range the plugin works with. Both are optional here so `validate` can
/// name what is missing instead of failing to parse.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ServiceRequirement {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub health: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// A named binding (usually a secret) the plugin reads as `${NAME}`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct BindingRequirement {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// Another plugin that must be installed from the same marketplace.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PluginRequirement {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

/// A command, skill or agent name this plugin shares with `plugin`, declared
/// so the collision is intended rather than silent.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Conflict {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    pub plugin: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Lowercase kebab-case of at most 64 characters: valid on every runtime.
/// What a namespace may be: it names folders and files and goes into the
/// paths plugforge writes into hook commands, so nothing a shell or a path
/// reads specially (`$`, quotes, spaces, `/`, `:`): letters, digits, `.`,
/// `_` and `-`, starting with a letter or digit, at most 64 characters.
/// Each runtime narrows it further where its clients do (Cursor: no `_`).
pub fn is_namespace(namespace: &str) -> bool {
    namespace.len() <= 64
        && namespace.starts_with(|c: char| c.is_ascii_alphanumeric())
        && namespace.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
}

/// Why a namespace is refused, naming it (escaped: it may hold anything).
pub fn namespace_problem(namespace: &str) -> String {
    format!(
        "namespace {namespace:?} must be letters, digits, '.', '_' or '-', starting with a letter or digit, \
         at most 64 characters"
    )
}

pub fn is_kebab(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name.split('-').all(|part| {
            !part.is_empty() && part.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}
