//! The `manifest` rule catalog. One rule per kind of problem; the runtimes a
//! rule lists are the ones whose manifests the rule judges.

use super::rule::{Rule, RuleSeverity};
use crate::codes::{RuleCode, SharedRule};

pub const MISSING: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ManifestMissing),
    severity: RuleSeverity::Error,
    runtimes: &["gemini", "cursor", "agent-plugins", "hermes"],
    summary: "A runtime that needs a manifest finds one at the plugin root.",
    fix: "Add the manifest file the finding names at the plugin root (each runtime's page in docs/runtimes/ shows it).",
};

pub const NOT_AN_OBJECT: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ManifestNotAnObject),
    severity: RuleSeverity::Error,
    runtimes: &[],
    summary: "The manifest is an object (a mapping) of fields.",
    fix: "Make the manifest's top level an object: { \"name\": ... }.",
};

pub const INVALID_YAML: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ManifestInvalidYaml),
    severity: RuleSeverity::Error,
    runtimes: &["hermes"],
    summary: "plugin.yaml parses as YAML (Hermes skips a plugin whose manifest does not).",
    fix: "Fix the YAML syntax at the reported line.",
};

pub const REQUIRED_FIELD_MISSING: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ManifestRequiredFieldMissing),
    severity: RuleSeverity::Error,
    runtimes: &["claude-code", "gemini", "cursor", "agent-plugins", "openclaw"],
    summary: "Every field the runtime requires is present.",
    fix: "Add the missing field.",
};

pub const INVALID_FIELD: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ManifestInvalidField),
    severity: RuleSeverity::Error,
    runtimes: &["claude-code", "codex", "gemini", "cursor", "agent-plugins"],
    summary: "Each known field has the type and shape the runtime's schema requires.",
    fix: "Give the field a value of the expected type and shape.",
};

pub const NAME_INVALID: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ManifestNameInvalid),
    severity: RuleSeverity::Error,
    runtimes: &["claude-code", "codex", "gemini", "cursor", "agent-plugins"],
    summary: "The plugin name follows the runtime's name rule.",
    fix: "Rename the plugin in kebab-case: lowercase letters, digits and hyphens (e.g. my-plugin).",
};

pub const NAME_RESERVED: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ManifestNameReserved),
    severity: RuleSeverity::Error,
    runtimes: &["claude-code"],
    summary: "The plugin name is not one Claude Code keeps for Anthropic's own plugins (since 2.1.3xx `claude plugin validate` refuses it).",
    fix: "Name the plugin for what it does, without a `claude-`, `anthropic-`, `anthropics-` or `cc-plugin-` prefix and without \"official\" beside \"claude\" or \"anthropic\".",
};

pub const NAME_NOT_KEBAB: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ManifestNameNotKebab),
    severity: RuleSeverity::Warning,
    runtimes: &["claude-code"],
    summary: "The plugin name is kebab-case, as the Claude.ai marketplace sync requires.",
    fix: "Rename the plugin in kebab-case: lowercase letters, digits and hyphens (e.g. my-plugin).",
};

pub const RECOMMENDED_FIELD_MISSING: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ManifestRecommendedFieldMissing),
    severity: RuleSeverity::Warning,
    runtimes: &["claude-code", "codex"],
    summary: "The manifest names the plugin's version, description and author.",
    fix: "Add the field to the manifest.",
};

pub const UNKNOWN_KEY: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ManifestUnknownKey),
    severity: RuleSeverity::Warning,
    runtimes: &["claude-code", "codex", "gemini", "agent-plugins"],
    summary: "Every manifest field is one the runtime reads; it ignores unknown ones.",
    fix: "Rename the field to the one the runtime reads, or remove it.",
};

pub const KEY_NOT_ALLOWED: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ManifestKeyNotAllowed),
    severity: RuleSeverity::Error,
    runtimes: &["claude-code", "cursor", "agent-plugins"],
    summary: "Objects the runtime's schema closes hold only the keys it allows.",
    fix: "Remove the key, or move it where the schema allows it.",
};

pub const URL_INVALID: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ManifestUrlInvalid),
    severity: RuleSeverity::Error,
    runtimes: &["claude-code", "cursor"],
    summary: "Fields the schema types as URLs hold absolute URLs.",
    fix: "Write a full URL with its scheme, e.g. https://example.com/plugin.",
};

pub const PATH_NOT_RELATIVE: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ManifestPathNotRelative),
    severity: RuleSeverity::Error,
    runtimes: &["claude-code", "cursor", "gemini"],
    summary: "Manifest paths are relative to the plugin root (Claude Code: they start with ./).",
    fix: "Write the path relative to the plugin root, starting with ./ (e.g. ./skills).",
};

pub const PATH_ESCAPES: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ManifestPathEscapes),
    severity: RuleSeverity::Error,
    runtimes: &["claude-code", "codex", "cursor", "gemini"],
    summary: "Manifest paths stay inside the plugin root (no `..`).",
    fix: "Move the file into the plugin and point at it without `..`.",
};

pub const PATH_NOT_FOUND: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ManifestPathNotFound),
    severity: RuleSeverity::Error,
    runtimes: &["claude-code", "cursor", "gemini"],
    summary: "Every path the manifest names exists in the plugin.",
    fix: "Create the file or folder, or fix the path.",
};

pub const SKILLS_PATH_NOT_FOLDER: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ManifestSkillsPathNotFolder),
    severity: RuleSeverity::Error,
    runtimes: &["claude-code"],
    summary: "Manifest `skills` entries are folders holding skills, not SKILL.md files.",
    fix: "Point the entry at the folder that contains SKILL.md (or at the folder of skill folders).",
};

pub const DUPLICATE_HOOKS_FILE: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ManifestDuplicateHooksFile),
    severity: RuleSeverity::Error,
    runtimes: &["claude-code"],
    summary: "Manifest `hooks` does not name hooks/hooks.json, which Claude Code already loads (a duplicate is a load error).",
    fix: "Drop hooks/hooks.json from the manifest's `hooks`; list only additional hook files.",
};

pub const EXPERIMENTAL_TOP_LEVEL: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ManifestExperimentalTopLevel),
    severity: RuleSeverity::Warning,
    runtimes: &["claude-code"],
    summary: "Experimental components (themes, monitors) are declared under `experimental`.",
    fix: "Move the field under \"experimental\": { ... }.",
};

pub const ROOT_CLAUDE_MD: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ManifestRootClaudeMd),
    severity: RuleSeverity::Warning,
    runtimes: &["claude-code"],
    summary: "No CLAUDE.md at the plugin root: Claude Code does not load it as context.",
    fix: "Ship the context as a skill (skills/<name>/SKILL.md) instead.",
};

pub const BINARIES_INVALID: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ManifestBinariesInvalid),
    severity: RuleSeverity::Warning,
    runtimes: &["claude-code"],
    summary: "`binaries` holds at most 16 entries, each a lowercase basename with a 64-hex sha256.",
    fix: "Name each binary like my-tool and give it {\"sha256\": \"<64 lowercase hex>\"}; keep at most 16.",
};

pub const VERSION_INVALID: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ManifestVersionInvalid),
    severity: RuleSeverity::Error,
    runtimes: &["codex"],
    summary: "`version` is a non-blank string (Codex names the install folder after it).",
    fix: "Set \"version\" to a version string such as \"1.0.0\".",
};

pub const VERSION_NOT_SEMVER: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ManifestVersionNotSemver),
    severity: RuleSeverity::Warning,
    runtimes: &["gemini"],
    summary: "`version` is a semantic version (gemini extensions validate warns otherwise).",
    fix: "Use a version such as 1.0.0.",
};

pub const VALUE_IGNORED: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ManifestValueIgnored),
    severity: RuleSeverity::Warning,
    runtimes: &["codex", "hermes", "agent-plugins"],
    summary: "Every manifest value is one the runtime uses; it drops the others with a log line.",
    fix: "Fix the value so the runtime uses it, or remove it.",
};

pub const SCHEMA_UNSUPPORTED: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ManifestSchemaUnsupported),
    severity: RuleSeverity::Error,
    runtimes: &["agent-plugins"],
    summary: "`$schema` names the Agent Plugins 1.0.0 plugin schema; clients reject any other.",
    fix: "Set \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\".",
};

pub const INLINE_MCP_SERVERS: Rule = Rule {
    code: RuleCode::Shared(SharedRule::ManifestInlineMcpServers),
    severity: RuleSeverity::Error,
    runtimes: &["agent-plugins"],
    summary: "Agent Plugins read MCP servers only from mcp.json; inline servers never start.",
    fix: "Move the servers into mcp.json ({\"$schema\": ..., \"mcpServers\": {...}}) next to plugin.json.",
};

pub const RULES: &[&Rule] = &[
    &MISSING,
    &NOT_AN_OBJECT,
    &INVALID_YAML,
    &REQUIRED_FIELD_MISSING,
    &INVALID_FIELD,
    &NAME_INVALID,
    &NAME_RESERVED,
    &NAME_NOT_KEBAB,
    &RECOMMENDED_FIELD_MISSING,
    &UNKNOWN_KEY,
    &KEY_NOT_ALLOWED,
    &URL_INVALID,
    &PATH_NOT_RELATIVE,
    &PATH_ESCAPES,
    &PATH_NOT_FOUND,
    &SKILLS_PATH_NOT_FOLDER,
    &DUPLICATE_HOOKS_FILE,
    &EXPERIMENTAL_TOP_LEVEL,
    &ROOT_CLAUDE_MD,
    &BINARIES_INVALID,
    &VERSION_INVALID,
    &VERSION_NOT_SEMVER,
    &VALUE_IGNORED,
    &SCHEMA_UNSUPPORTED,
    &INLINE_MCP_SERVERS,
];
