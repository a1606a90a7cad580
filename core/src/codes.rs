//! The codes findings carry: a build diagnostic's or an import note's
//! ([`DiagnosticCode`]), a validate rule's ([`RuleCode`]), each serialized
//! to the string results have always carried.

use crate::registry::{RuntimeRule, words};

words! {
    /// What a build diagnostic or an import note is about.
    pub enum DiagnosticCode as "DiagnosticCode" {
        AgentNameMismatch = "agent_name_mismatch",
        DescriptionDerived = "description_derived",
        DescriptionFromReadme = "description_from_readme",
        DescriptionTooLong = "description_too_long",
        DroppedField = "dropped_field",
        DuplicateServer = "duplicate_server",
        ExtraContextFile = "extra_context_file",
        ForeignManifestUnreadable = "foreign_manifest_unreadable",
        ForeignMcpFile = "foreign_mcp_file",
        FrontmatterQuoted = "frontmatter_quoted",
        FrontmatterUnopened = "frontmatter_unopened",
        HooksSwitchedOff = "hooks_switched_off",
        IconDropped = "icon_dropped",
        IgnoredFile = "ignored_file",
        InvalidCommand = "invalid_command",
        InvalidField = "invalid_field",
        InvalidHook = "invalid_hook",
        InvalidManifest = "invalid_manifest",
        KeptForAnotherBundle = "kept_for_another_bundle",
        LeftOutForRuntime = "left_out_for_runtime",
        LiteralCredential = "literal_credential",
        LocalizedField = "localized_field",
        MetadataDisagrees = "metadata_disagrees",
        MetadataFromManifest = "metadata_from_manifest",
        MetadataFromMarketplace = "metadata_from_marketplace",
        MissingDescription = "missing_description",
        MissingFile = "missing_file",
        MissingFrontmatter = "missing_frontmatter",
        MissingMetadata = "missing_metadata",
        NameChanged = "name_changed",
        NameFromFolder = "name_from_folder",
        NoMarketplace = "no_marketplace",
        NotBuilt = "not_built",
        NotInstalled = "not_installed",
        ReadAsNative = "read_as_native",
        RootSkill = "root_skill",
        RuntimeOnlyField = "runtime_only_field",
        RuntimeOnlyFile = "runtime_only_file",
        RuntimeOnlyVariable = "runtime_only_variable",
        SchemaVersion = "schema_version",
        SkillNameMismatch = "skill_name_mismatch",
        SkippedFile = "skipped_file",
        TemplateFile = "template_file",
        UnknownField = "unknown_field",
        UnsupportedField = "unsupported_field",
        UnsupportedHook = "unsupported_hook",
        UnsupportedHookEvent = "unsupported_hook_event",
        UnsupportedPromptFeature = "unsupported_prompt_feature",
        UnsupportedServer = "unsupported_server",
        UnusedField = "unused_field",
        UnusedFile = "unused_file",
        VersionAdded = "version_added",
    }
}

words! {
    /// The code of a rule of the catalog every runtime's format shares
    /// (`area/what`); the codes of the rules only one runtime's format has
    /// are listed by the registry.
    pub enum SharedRule as "SharedRuleCode" {
        DetectNoPlugin = "detect/no-plugin",
        SourceInvalid = "source/invalid",
        SourceTemplate = "source/template",
        SourceUrlNotAllowed = "source/url-not-allowed",
        SourceCredential = "source/credential",
        SourceUnsupportedTarget = "source/unsupported-target",
        SourceDiagnostic = "source/diagnostic",
        ManifestMissing = "manifest/missing",
        ManifestNotAnObject = "manifest/not-an-object",
        ManifestInvalidYaml = "manifest/invalid-yaml",
        ManifestRequiredFieldMissing = "manifest/required-field-missing",
        ManifestInvalidField = "manifest/invalid-field",
        ManifestNameInvalid = "manifest/name-invalid",
        ManifestNameReserved = "manifest/name-reserved",
        ManifestNameNotKebab = "manifest/name-not-kebab",
        ManifestRecommendedFieldMissing = "manifest/recommended-field-missing",
        ManifestUnknownKey = "manifest/unknown-key",
        ManifestKeyNotAllowed = "manifest/key-not-allowed",
        ManifestUrlInvalid = "manifest/url-invalid",
        ManifestPathNotRelative = "manifest/path-not-relative",
        ManifestPathEscapes = "manifest/path-escapes",
        ManifestPathNotFound = "manifest/path-not-found",
        ManifestSkillsPathNotFolder = "manifest/skills-path-not-folder",
        ManifestDuplicateHooksFile = "manifest/duplicate-hooks-file",
        ManifestExperimentalTopLevel = "manifest/experimental-top-level",
        ManifestRootClaudeMd = "manifest/root-claude-md",
        ManifestBinariesInvalid = "manifest/binaries-invalid",
        ManifestVersionInvalid = "manifest/version-invalid",
        ManifestVersionNotSemver = "manifest/version-not-semver",
        ManifestValueIgnored = "manifest/value-ignored",
        ManifestSchemaUnsupported = "manifest/schema-unsupported",
        ManifestInlineMcpServers = "manifest/inline-mcp-servers",
        MarketplaceNotAnObject = "marketplace/not-an-object",
        MarketplaceRequiredFieldMissing = "marketplace/required-field-missing",
        MarketplaceInvalidField = "marketplace/invalid-field",
        MarketplaceNameInvalid = "marketplace/name-invalid",
        MarketplaceNameReserved = "marketplace/name-reserved",
        MarketplaceUnknownKey = "marketplace/unknown-key",
        MarketplaceKeyNotAllowed = "marketplace/key-not-allowed",
        MarketplaceDuplicatePlugin = "marketplace/duplicate-plugin",
        MarketplaceSourceInvalid = "marketplace/source-invalid",
        MarketplaceSourceNotFound = "marketplace/source-not-found",
        MarketplacePluginNameMismatch = "marketplace/plugin-name-mismatch",
        MarketplaceVersionMismatch = "marketplace/version-mismatch",
        MarketplaceNoPlugins = "marketplace/no-plugins",
        MarketplaceDescriptionMissing = "marketplace/description-missing",
        MarketplaceNameCollision = "marketplace/name-collision",
        MarketplaceMcpServerCollision = "marketplace/mcp-server-collision",
        SkillMissingSkillMd = "skill/missing-skill-md",
        SkillNestedTooDeep = "skill/nested-too-deep",
        SkillInvalidFrontmatter = "skill/invalid-frontmatter",
        SkillNoFrontmatter = "skill/no-frontmatter",
        SkillMissingDescription = "skill/missing-description",
        SkillMissingRequiredField = "skill/missing-required-field",
        SkillInvalidName = "skill/invalid-name",
        SkillNameNotFolder = "skill/name-not-folder",
        SkillDescriptionTooLong = "skill/description-too-long",
        SkillUnknownField = "skill/unknown-field",
        SkillInvalidField = "skill/invalid-field",
        CommandInvalidFrontmatter = "command/invalid-frontmatter",
        CommandFrontmatterQuoted = "command/frontmatter-quoted",
        CommandNoFrontmatter = "command/no-frontmatter",
        CommandMissingDescription = "command/missing-description",
        CommandInvalidField = "command/invalid-field",
        CommandInvalidToml = "command/invalid-toml",
        CommandMissingPrompt = "command/missing-prompt",
        CommandIgnoredFile = "command/ignored-file",
        AgentInvalidFrontmatter = "agent/invalid-frontmatter",
        AgentFrontmatterQuoted = "agent/frontmatter-quoted",
        AgentNoFrontmatter = "agent/no-frontmatter",
        AgentMissingDescription = "agent/missing-description",
        AgentMissingField = "agent/missing-field",
        AgentUnknownField = "agent/unknown-field",
        AgentInvalidField = "agent/invalid-field",
        HookUnknownEvent = "hook/unknown-event",
        HookInvalidShape = "hook/invalid-shape",
        HookUnexpandedVariable = "hook/unexpanded-variable",
        HookMissingScript = "hook/missing-script",
        HookUnknownKey = "hook/unknown-key",
        HookUnquotedFolder = "hook/unquoted-folder",
        McpWrongDialect = "mcp/wrong-dialect",
        McpInvalidServer = "mcp/invalid-server",
        McpUnexpandedVariable = "mcp/unexpanded-variable",
        McpMissingCommand = "mcp/missing-command",
        SecretToken = "secret/token",
        SecretLiteralCredential = "secret/literal-credential",
        UrlExecutable = "url/executable",
        ExtensionUndeclaredBinding = "extension/undeclared-binding",
        ExtensionUnusedBinding = "extension/unused-binding",
        ExtensionUnknownConflict = "extension/unknown-conflict",
        ExtensionCollision = "extension/collision",
        ExtensionMissingPlugin = "extension/missing-plugin",
        ExtensionServiceContract = "extension/service-contract",
        ExtensionBindingValue = "extension/binding-value",
        ExtensionInvalidEntry = "extension/invalid-entry",
        FileNotUtf8 = "file/not-utf8",
        FileInvalidJson = "file/invalid-json",
    }
}

/// The code of a rule of validate's catalog (`area/what`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RuleCode {
    /// A rule every runtime's format shares.
    Shared(SharedRule),
    /// A rule only one runtime's format has.
    Runtime(RuntimeRule),
}

impl RuleCode {
    /// Its string, as results carry it.
    pub const fn as_str(self) -> &'static str {
        match self {
            RuleCode::Shared(rule) => rule.as_str(),
            RuleCode::Runtime(rule) => rule.as_str(),
        }
    }
}

/// A finding's code: a build diagnostic's or an import note's, or a rule's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Code {
    Diagnostic(DiagnosticCode),
    Rule(RuleCode),
}

impl Code {
    /// Its string, as results carry it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Code::Diagnostic(code) => code.as_str(),
            Code::Rule(code) => code.as_str(),
        }
    }
}

impl From<SharedRule> for RuleCode {
    fn from(rule: SharedRule) -> RuleCode {
        RuleCode::Shared(rule)
    }
}

impl From<RuntimeRule> for RuleCode {
    fn from(rule: RuntimeRule) -> RuleCode {
        RuleCode::Runtime(rule)
    }
}

impl From<SharedRule> for Code {
    fn from(rule: SharedRule) -> Code {
        Code::Rule(RuleCode::Shared(rule))
    }
}

impl From<RuntimeRule> for Code {
    fn from(rule: RuntimeRule) -> Code {
        Code::Rule(RuleCode::Runtime(rule))
    }
}

impl From<DiagnosticCode> for Code {
    fn from(code: DiagnosticCode) -> Code {
        Code::Diagnostic(code)
    }
}

impl From<RuleCode> for Code {
    fn from(code: RuleCode) -> Code {
        Code::Rule(code)
    }
}

impl PartialEq<DiagnosticCode> for Code {
    fn eq(&self, other: &DiagnosticCode) -> bool {
        *self == Code::Diagnostic(*other)
    }
}

impl PartialEq<RuleCode> for Code {
    fn eq(&self, other: &RuleCode) -> bool {
        *self == Code::Rule(*other)
    }
}

impl PartialEq<SharedRule> for Code {
    fn eq(&self, other: &SharedRule) -> bool {
        *self == Code::Rule(RuleCode::Shared(*other))
    }
}

/// `Display` and `Serialize` as its string, and the TypeScript union of
/// the types it joins.
macro_rules! spelled_as_str {
    ($name:ident as $ts:literal, $doc:literal, $($member:ty),+) => {
        crate::registry::spelled_by_as_str!($name);

        #[cfg(feature = "typescript")]
        impl ts_rs::TS for $name {
            type WithoutGenerics = Self;
            type OptionInnerType = Self;

            fn docs() -> Option<String> {
                Some(ts_rs::format_docs(&[$doc]))
            }

            fn name(_: &ts_rs::Config) -> String {
                $ts.to_string()
            }

            fn inline(config: &ts_rs::Config) -> String {
                [$(<$member as ts_rs::TS>::name(config)),+].join(" | ")
            }

            fn decl(config: &ts_rs::Config) -> String {
                format!("type {} = {};", $ts, <$name as ts_rs::TS>::inline(config))
            }

            fn decl_concrete(config: &ts_rs::Config) -> String {
                <$name as ts_rs::TS>::decl(config)
            }
        }
    };
}

spelled_as_str!(RuleCode as "RuleCode", " The code of a rule of validate's catalog (`area/what`).", SharedRule, RuntimeRule);
spelled_as_str!(
    Code as "Code",
    " A finding's code: a build diagnostic's or an import note's, or a rule's.",
    DiagnosticCode,
    RuleCode
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_spelled_as_results_carry_them() {
        let mut seen = std::collections::BTreeSet::new();
        for code in DiagnosticCode::ALL.iter().map(|c| c.as_str()) {
            assert!(seen.insert(code), "{code} twice");
            assert!(
                code.split('_').all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase())),
                "{code}"
            );
        }
        let rules =
            SharedRule::ALL.iter().map(|r| r.as_str()).chain(RuntimeRule::ALL.iter().map(|r| r.as_str()));
        for code in rules {
            assert!(seen.insert(code), "{code} twice");
            assert!(code.contains('/'), "{code}: area/what");
        }
        let code = Code::from(RuleCode::Runtime(RuntimeRule::MissingInit));
        assert_eq!(serde_json::to_value(code).unwrap(), "registration/missing-init");
        assert_eq!(code.to_string(), "registration/missing-init");
    }
}
