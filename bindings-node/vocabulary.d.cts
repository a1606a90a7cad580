// Generated from the Rust types by bindings-node/tests/typings.rs: do not edit.
// The vocabulary as string unions: the runtime ids, artifact kinds, components and finding codes.

/**
 * A runtime the core writes for, by its id.
 */
export type RuntimeId = "claude-code" | "codex" | "gemini" | "cursor" | "opencode" | "agent-plugins" | "openclaw" | "hermes" | "copilot" | "antigravity" | "qwen-code" | "factory-droid" | "qoder" | "grok-build" | "kimi-code" | "generic" | "universal";
/**
 * An artifact kind: the shape of bundle a runtime's kind writes
 * (`--target codex:project`).
 */
export type ArtifactKind = "plugin" | "project" | "extension" | "guide" | "skill-plugin" | "compatible-bundle" | "workspace";
/**
 * A component of a plugin, as honesty rows name it.
 */
export type Component = "skill" | "command" | "agent" | "hook" | "mcp" | "settings" | "bin" | "context" | "output-style" | "support" | "metadata" | "plugin-module" | "host" | "lsp" | "app";
/**
 * What a build diagnostic or an import note is about.
 */
export type DiagnosticCode = "agent_name_mismatch" | "description_derived" | "description_from_readme" | "description_too_long" | "dropped_field" | "duplicate_server" | "extra_context_file" | "foreign_manifest_unreadable" | "foreign_mcp_file" | "frontmatter_quoted" | "frontmatter_unopened" | "hooks_switched_off" | "icon_dropped" | "ignored_file" | "invalid_command" | "invalid_field" | "invalid_hook" | "invalid_manifest" | "kept_for_another_bundle" | "left_out_for_runtime" | "literal_credential" | "localized_field" | "metadata_disagrees" | "metadata_from_manifest" | "metadata_from_marketplace" | "missing_description" | "missing_file" | "missing_frontmatter" | "missing_metadata" | "name_changed" | "name_from_folder" | "no_marketplace" | "not_built" | "not_installed" | "read_as_native" | "root_skill" | "runtime_only_field" | "runtime_only_file" | "runtime_only_variable" | "schema_version" | "skill_name_mismatch" | "skipped_file" | "template_file" | "unknown_field" | "unsupported_field" | "unsupported_hook" | "unsupported_hook_event" | "unsupported_prompt_feature" | "unsupported_server" | "unused_field" | "unused_file" | "version_added";
/**
 * The code of a rule of the catalog every runtime's format shares
 * (`area/what`); the codes of the rules only one runtime's format has
 * are listed by the registry.
 */
export type SharedRuleCode = "detect/no-plugin" | "source/invalid" | "source/template" | "source/url-not-allowed" | "source/credential" | "source/unsupported-target" | "source/diagnostic" | "manifest/missing" | "manifest/not-an-object" | "manifest/invalid-yaml" | "manifest/required-field-missing" | "manifest/invalid-field" | "manifest/name-invalid" | "manifest/name-reserved" | "manifest/name-not-kebab" | "manifest/recommended-field-missing" | "manifest/unknown-key" | "manifest/key-not-allowed" | "manifest/url-invalid" | "manifest/path-not-relative" | "manifest/path-escapes" | "manifest/path-not-found" | "manifest/skills-path-not-folder" | "manifest/duplicate-hooks-file" | "manifest/experimental-top-level" | "manifest/root-claude-md" | "manifest/binaries-invalid" | "manifest/version-invalid" | "manifest/version-not-semver" | "manifest/value-ignored" | "manifest/schema-unsupported" | "manifest/inline-mcp-servers" | "marketplace/not-an-object" | "marketplace/required-field-missing" | "marketplace/invalid-field" | "marketplace/name-invalid" | "marketplace/name-reserved" | "marketplace/unknown-key" | "marketplace/key-not-allowed" | "marketplace/duplicate-plugin" | "marketplace/source-invalid" | "marketplace/source-not-found" | "marketplace/plugin-name-mismatch" | "marketplace/version-mismatch" | "marketplace/no-plugins" | "marketplace/description-missing" | "marketplace/name-collision" | "marketplace/mcp-server-collision" | "skill/missing-skill-md" | "skill/nested-too-deep" | "skill/invalid-frontmatter" | "skill/no-frontmatter" | "skill/missing-description" | "skill/missing-required-field" | "skill/invalid-name" | "skill/name-not-folder" | "skill/description-too-long" | "skill/unknown-field" | "skill/invalid-field" | "command/invalid-frontmatter" | "command/frontmatter-quoted" | "command/no-frontmatter" | "command/missing-description" | "command/invalid-field" | "command/invalid-toml" | "command/missing-prompt" | "command/ignored-file" | "agent/invalid-frontmatter" | "agent/frontmatter-quoted" | "agent/no-frontmatter" | "agent/missing-description" | "agent/missing-field" | "agent/unknown-field" | "agent/invalid-field" | "hook/unknown-event" | "hook/invalid-shape" | "hook/unexpanded-variable" | "hook/missing-script" | "hook/unknown-key" | "hook/unquoted-folder" | "mcp/wrong-dialect" | "mcp/invalid-server" | "mcp/unexpanded-variable" | "mcp/missing-command" | "secret/token" | "secret/literal-credential" | "url/executable" | "extension/undeclared-binding" | "extension/unused-binding" | "extension/unknown-conflict" | "extension/collision" | "extension/missing-plugin" | "extension/service-contract" | "extension/binding-value" | "extension/invalid-entry" | "file/not-utf8" | "file/invalid-json";
/**
 * The code of a rule only one runtime's format has (its line
 * of the registry lists them).
 */
export type RuntimeRuleCode = "manifest/extra-file-in-manifest-folder" | "registration/missing-init" | "registration/unregistered-skill" | "registration/raises" | "registration/not-checked";
/**
 * The code of a rule of validate's catalog (`area/what`).
 */
export type RuleCode = SharedRuleCode | RuntimeRuleCode;
/**
 * A finding's code: a build diagnostic's or an import note's, or a rule's.
 */
export type Code = DiagnosticCode | RuleCode;
