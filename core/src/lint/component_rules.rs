//! The rule catalog of the `command` and `agent` areas (the component
//! files every runtime reads, judged partly by each runtime's own rules).

/// The `command` area.
pub(crate) mod command {
    use crate::codes::{RuleCode, SharedRule};
    use crate::lint::{Rule, RuleSeverity};

    const MARKDOWN_RUNTIMES: &[&str] = &["claude-code", "codex", "cursor", "opencode", "generic"];

    pub const INVALID_FRONTMATTER: Rule = Rule {
        code: RuleCode::Shared(SharedRule::CommandInvalidFrontmatter),
        severity: RuleSeverity::Error,
        runtimes: MARKDOWN_RUNTIMES,
        summary: "A command's frontmatter is a YAML mapping between `---` lines.",
        fix: "Fix the YAML at the reported line (quote values holding `: ` or starting with `[`), and close the block with `---`.",
    };

    pub const QUOTED_FRONTMATTER: Rule = Rule {
        code: RuleCode::Shared(SharedRule::CommandFrontmatterQuoted),
        severity: RuleSeverity::Warning,
        runtimes: &["claude-code"],
        summary: "A command's frontmatter is not valid YAML as written; Claude Code quotes plain values holding `: ` or YAML syntax and reads again, and reads a multi-line `[...]` list closed at its key's column, other readers refuse the file.",
        fix: "Quote the reported value (`key: \"...\"`) or write it as a block scalar (`key: >-`); indent a multi-line list's lines, its closing `]` too, past its key.",
    };

    pub const NO_FRONTMATTER: Rule = Rule {
        code: RuleCode::Shared(SharedRule::CommandNoFrontmatter),
        severity: RuleSeverity::Warning,
        runtimes: &["claude-code", "codex", "cursor"],
        summary: "A command starts with YAML frontmatter that describes it.",
        fix: "Add `---\\ndescription: <what the command does>\\n---` at the top of the file.",
    };

    pub const MISSING_DESCRIPTION: Rule = Rule {
        code: RuleCode::Shared(SharedRule::CommandMissingDescription),
        severity: RuleSeverity::Warning,
        runtimes: &["claude-code", "codex", "cursor"],
        summary: "A command's frontmatter has a `description` (Codex migrates only described commands).",
        fix: "Add `description: <what the command does>` to the frontmatter.",
    };

    pub const INVALID_FIELD: Rule = Rule {
        code: RuleCode::Shared(SharedRule::CommandInvalidField),
        severity: RuleSeverity::Error,
        runtimes: &["claude-code", "gemini"],
        summary: "A command's fields have the types the runtime reads.",
        fix: "Give the field the type the message names (quote text values).",
    };

    pub const INVALID_TOML: Rule = Rule {
        code: RuleCode::Shared(SharedRule::CommandInvalidToml),
        severity: RuleSeverity::Error,
        runtimes: &["gemini"],
        summary: "A Gemini command file parses as TOML.",
        fix: "Fix the TOML at the reported line; multi-line prompts go between `\"\"\"` or `'''`.",
    };

    pub const MISSING_PROMPT: Rule = Rule {
        code: RuleCode::Shared(SharedRule::CommandMissingPrompt),
        severity: RuleSeverity::Error,
        runtimes: &["gemini"],
        summary: "A Gemini command file sets `prompt`, the text sent to the model.",
        fix: "Add `prompt = \"\"\"...\"\"\"` with the command's text (`{{args}}` receives the arguments).",
    };

    pub const IGNORED_FILE: Rule = Rule {
        code: RuleCode::Shared(SharedRule::CommandIgnoredFile),
        severity: RuleSeverity::Warning,
        runtimes: &["gemini"],
        summary: "Gemini CLI reads only `.toml` files below `commands/`.",
        fix: "Rewrite the command as `commands/<name>.toml` with `description` and `prompt`.",
    };
}

/// The `agent` area.
pub(crate) mod agent {
    use crate::codes::{RuleCode, SharedRule};
    use crate::lint::{Rule, RuleSeverity};

    pub const INVALID_FRONTMATTER: Rule = Rule {
        code: RuleCode::Shared(SharedRule::AgentInvalidFrontmatter),
        severity: RuleSeverity::Error,
        runtimes: &["claude-code", "gemini", "cursor", "opencode", "generic"],
        summary: "An agent's frontmatter is a YAML mapping between `---` lines.",
        fix: "Fix the YAML at the reported line (quote values holding `: `), and close the block with `---`.",
    };

    pub const QUOTED_FRONTMATTER: Rule = Rule {
        code: RuleCode::Shared(SharedRule::AgentFrontmatterQuoted),
        severity: RuleSeverity::Warning,
        runtimes: &["claude-code"],
        summary: "An agent's frontmatter is not valid YAML as written; Claude Code quotes plain values holding `: ` or YAML syntax and reads again, and reads a multi-line `[...]` list closed at its key's column, other readers refuse the file.",
        fix: "Quote the reported value (`key: \"...\"`) or write it as a block scalar (`key: >-`); indent a multi-line list's lines, its closing `]` too, past its key.",
    };

    pub const NO_FRONTMATTER: Rule = Rule {
        code: RuleCode::Shared(SharedRule::AgentNoFrontmatter),
        severity: RuleSeverity::Warning,
        runtimes: &["claude-code", "cursor", "opencode"],
        summary: "An agent starts with YAML frontmatter that names and describes it.",
        fix: "Add `---\\nname: <name>\\ndescription: <when to use the agent>\\n---` at the top of the file.",
    };

    pub const MISSING_DESCRIPTION: Rule = Rule {
        code: RuleCode::Shared(SharedRule::AgentMissingDescription),
        severity: RuleSeverity::Warning,
        runtimes: &["claude-code"],
        summary: "An agent's frontmatter has a `description`, which tells when to delegate to it.",
        fix: "Add `description: <when to use the agent>` to the frontmatter.",
    };

    pub const MISSING_FIELD: Rule = Rule {
        code: RuleCode::Shared(SharedRule::AgentMissingField),
        severity: RuleSeverity::Error,
        runtimes: &["gemini", "cursor"],
        summary: "An agent's frontmatter has the fields the runtime requires (`name` and `description`).",
        fix: "Add the missing field to the frontmatter.",
    };

    pub const UNKNOWN_FIELD: Rule = Rule {
        code: RuleCode::Shared(SharedRule::AgentUnknownField),
        severity: RuleSeverity::Error,
        runtimes: &["gemini"],
        summary: "A Gemini agent uses only the keys of Gemini's strict agent schema.",
        fix: "Remove the key (Gemini fails to load an agent with any key outside its schema).",
    };

    pub const INVALID_FIELD: Rule = Rule {
        code: RuleCode::Shared(SharedRule::AgentInvalidField),
        severity: RuleSeverity::Error,
        runtimes: &["claude-code", "gemini", "opencode"],
        summary: "An agent's fields have the types and values the runtime reads.",
        fix: "Give the field the type or value the message names.",
    };
}
