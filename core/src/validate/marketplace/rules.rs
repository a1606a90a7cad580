//! The `marketplace` rule catalog.

use crate::codes::{RuleCode, SharedRule};
use crate::lint::{Rule, RuleSeverity};

pub const NOT_AN_OBJECT: Rule = Rule {
    code: RuleCode::Shared(SharedRule::MarketplaceNotAnObject),
    severity: RuleSeverity::Error,
    runtimes: &["claude-code", "codex", "cursor"],
    summary: "marketplace.json is an object of fields.",
    fix: "Make the top level an object: { \"name\": ..., \"plugins\": [...] }.",
};

pub const REQUIRED_FIELD_MISSING: Rule = Rule {
    code: RuleCode::Shared(SharedRule::MarketplaceRequiredFieldMissing),
    severity: RuleSeverity::Error,
    runtimes: &["claude-code", "codex", "cursor"],
    summary: "The marketplace and each entry have the fields the runtime requires (name, owner, plugins; entry name and source).",
    fix: "Add the missing field.",
};

pub const INVALID_FIELD: Rule = Rule {
    code: RuleCode::Shared(SharedRule::MarketplaceInvalidField),
    severity: RuleSeverity::Error,
    runtimes: &["claude-code", "codex", "cursor"],
    summary: "Each known field of the marketplace and its entries has the type and shape the runtime requires.",
    fix: "Give the field a value of the expected type and shape.",
};

pub const NAME_INVALID: Rule = Rule {
    code: RuleCode::Shared(SharedRule::MarketplaceNameInvalid),
    severity: RuleSeverity::Error,
    runtimes: &["claude-code", "codex", "cursor"],
    summary: "Marketplace and entry names follow the runtime's name rule.",
    fix: "Use a kebab-case name: lowercase letters, digits and hyphens (e.g. my-marketplace).",
};

pub const NAME_RESERVED: Rule = Rule {
    code: RuleCode::Shared(SharedRule::MarketplaceNameReserved),
    severity: RuleSeverity::Error,
    runtimes: &["claude-code"],
    summary: "The marketplace name is not one Claude Code reserves for official marketplaces (marketplace add refuses it).",
    fix: "Pick a name of your own that does not look like an official Anthropic/Claude marketplace.",
};

pub const UNKNOWN_KEY: Rule = Rule {
    code: RuleCode::Shared(SharedRule::MarketplaceUnknownKey),
    severity: RuleSeverity::Warning,
    runtimes: &["claude-code"],
    summary: "Every marketplace and entry field is one Claude Code reads; it ignores unknown ones.",
    fix: "Rename the field to the one the runtime reads, or remove it.",
};

pub const KEY_NOT_ALLOWED: Rule = Rule {
    code: RuleCode::Shared(SharedRule::MarketplaceKeyNotAllowed),
    severity: RuleSeverity::Error,
    runtimes: &["cursor"],
    summary: "Cursor's closed marketplace schema allows only its own keys.",
    fix: "Remove the key (Cursor entries take name, source, description and minClientVersions).",
};

pub const DUPLICATE_PLUGIN: Rule = Rule {
    code: RuleCode::Shared(SharedRule::MarketplaceDuplicatePlugin),
    severity: RuleSeverity::Error,
    runtimes: &["claude-code", "codex", "cursor"],
    summary: "Each plugin name appears once in the marketplace.",
    fix: "Rename or remove one of the entries.",
};

pub const SOURCE_INVALID: Rule = Rule {
    code: RuleCode::Shared(SharedRule::MarketplaceSourceInvalid),
    severity: RuleSeverity::Error,
    runtimes: &["claude-code", "codex", "cursor"],
    summary: "A local plugin source is a ./ path inside the marketplace root.",
    fix: "Write the source as ./<folder>, relative to the folder that holds the marketplace's dot-folder.",
};

pub const SOURCE_NOT_FOUND: Rule = Rule {
    code: RuleCode::Shared(SharedRule::MarketplaceSourceNotFound),
    severity: RuleSeverity::Error,
    runtimes: &["claude-code", "codex", "cursor"],
    summary: "A local plugin source is a folder that holds a plugin.",
    fix: "Point the source at the plugin's folder, or add the plugin there.",
};

pub const PLUGIN_NAME_MISMATCH: Rule = Rule {
    code: RuleCode::Shared(SharedRule::MarketplacePluginNameMismatch),
    severity: RuleSeverity::Error,
    runtimes: &["codex", "cursor"],
    summary: "An entry's name equals the name in its plugin's plugin.json.",
    fix: "Give the entry and the plugin the same name.",
};

pub const VERSION_MISMATCH: Rule = Rule {
    code: RuleCode::Shared(SharedRule::MarketplaceVersionMismatch),
    severity: RuleSeverity::Warning,
    runtimes: &["claude-code"],
    summary: "An entry's version equals its plugin.json version (plugin.json wins at install).",
    fix: "Set the entry's version to the plugin's, or drop it from the entry.",
};

pub const NO_PLUGINS: Rule = Rule {
    code: RuleCode::Shared(SharedRule::MarketplaceNoPlugins),
    severity: RuleSeverity::Warning,
    runtimes: &["claude-code"],
    summary: "The marketplace lists at least one plugin.",
    fix: "Add the plugins to \"plugins\".",
};

pub const DESCRIPTION_MISSING: Rule = Rule {
    code: RuleCode::Shared(SharedRule::MarketplaceDescriptionMissing),
    severity: RuleSeverity::Warning,
    runtimes: &["claude-code"],
    summary: "The marketplace has a description (top-level or metadata.description).",
    fix: "Add \"description\" telling users what the marketplace offers.",
};

pub const NAME_COLLISION: Rule = Rule {
    code: RuleCode::Shared(SharedRule::MarketplaceNameCollision),
    severity: RuleSeverity::Warning,
    runtimes: &["claude-code", "codex", "cursor"],
    summary: "Two plugins of one marketplace do not ship a skill, command or agent of the same name.",
    fix: "Rename one of them so each short name is unambiguous.",
};

pub const MCP_SERVER_COLLISION: Rule = Rule {
    code: RuleCode::Shared(SharedRule::MarketplaceMcpServerCollision),
    severity: RuleSeverity::Error,
    runtimes: &["codex"],
    summary: "Two plugins of one Codex marketplace do not declare an MCP server of the same name (Codex skips the second).",
    fix: "Rename one of the servers.",
};

pub const RULES: &[&Rule] = &[
    &NOT_AN_OBJECT,
    &REQUIRED_FIELD_MISSING,
    &INVALID_FIELD,
    &NAME_INVALID,
    &NAME_RESERVED,
    &UNKNOWN_KEY,
    &KEY_NOT_ALLOWED,
    &DUPLICATE_PLUGIN,
    &SOURCE_INVALID,
    &SOURCE_NOT_FOUND,
    &PLUGIN_NAME_MISMATCH,
    &VERSION_MISMATCH,
    &NO_PLUGINS,
    &DESCRIPTION_MISSING,
    &NAME_COLLISION,
    &MCP_SERVER_COLLISION,
];
