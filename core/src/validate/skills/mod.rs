//! Rules of the `skill` area: every skill folder a runtime discovers holds a
//! `SKILL.md` whose frontmatter the runtime (and, for every runtime but
//! Claude Code, the Agent Skills specification) accepts.

mod spec;

use super::Context;
use super::components::layout::{Layout, SkillDepth};
use super::detect::SubjectKind;
use crate::codes::{RuleCode, SharedRule};
use crate::lint::Sink;
use crate::lint::markdown::{self, MarkdownRules};
use crate::lint::{Rule, RuleSeverity};
use crate::runtime::Runtime;

const NOT_CLAUDE: &[&str] =
    &["codex", "gemini", "cursor", "opencode", "agent-plugins", "openclaw", "hermes", "generic"];

pub const MISSING_SKILL_MD: Rule = Rule {
    code: RuleCode::Shared(SharedRule::SkillMissingSkillMd),
    severity: RuleSeverity::Error,
    runtimes: &[],
    summary: "Every folder in a skills folder holds a `SKILL.md`.",
    fix: "Add `<folder>/SKILL.md` (frontmatter `name` and `description`, then the instructions), or move the folder out of the skills folder.",
};

pub const NESTED_TOO_DEEP: Rule = Rule {
    code: RuleCode::Shared(SharedRule::SkillNestedTooDeep),
    severity: RuleSeverity::Error,
    runtimes: &["claude-code", "gemini", "agent-plugins"],
    summary: "A skill sits directly in a skills folder (`skills/<name>/SKILL.md`), where the runtime looks; also judged for a folder of Agent Skills with no manifest.",
    fix: "Move the skill folder up to `skills/<name>/`.",
};

pub const INVALID_FRONTMATTER: Rule = Rule {
    code: RuleCode::Shared(SharedRule::SkillInvalidFrontmatter),
    severity: RuleSeverity::Error,
    runtimes: &[],
    summary: "A `SKILL.md` frontmatter is a YAML mapping between `---` lines.",
    fix: "Fix the YAML at the reported line (quote values holding `: `), and close the block with `---`.",
};

pub const NO_FRONTMATTER: Rule = Rule {
    code: RuleCode::Shared(SharedRule::SkillNoFrontmatter),
    severity: RuleSeverity::Warning,
    runtimes: &[],
    summary: "A `SKILL.md` starts with YAML frontmatter.",
    fix: "Add `---\\nname: <folder name>\\ndescription: <what it does and when to use it>\\n---` at the top.",
};

pub const MISSING_DESCRIPTION: Rule = Rule {
    code: RuleCode::Shared(SharedRule::SkillMissingDescription),
    severity: RuleSeverity::Warning,
    runtimes: &["claude-code"],
    summary: "A skill's frontmatter has a `description`, which tells Claude Code when to use it.",
    fix: "Add `description: <what it does and when to use it>` to the frontmatter.",
};

pub const MISSING_REQUIRED_FIELD: Rule = Rule {
    code: RuleCode::Shared(SharedRule::SkillMissingRequiredField),
    severity: RuleSeverity::Error,
    runtimes: NOT_CLAUDE,
    summary: "A skill's frontmatter has a non-empty `name` and `description` (Agent Skills; also judged for a folder of skills with no manifest).",
    fix: "Add the missing field: `name` equal to the folder name, `description` saying what the skill does and when to use it.",
};

pub const INVALID_NAME: Rule = Rule {
    code: RuleCode::Shared(SharedRule::SkillInvalidName),
    severity: RuleSeverity::Error,
    runtimes: NOT_CLAUDE,
    summary: "A skill name is 1-64 lowercase letters, digits and single hyphens, not starting or ending with a hyphen (also judged for a folder of skills with no manifest).",
    fix: "Rename the skill (and its folder) in lowercase kebab-case, e.g. `pdf-tools`.",
};

pub const NAME_NOT_FOLDER: Rule = Rule {
    code: RuleCode::Shared(SharedRule::SkillNameNotFolder),
    severity: RuleSeverity::Error,
    runtimes: NOT_CLAUDE,
    summary: "A skill's `name` equals the name of its folder (also judged for a folder of skills with no manifest).",
    fix: "Rename the folder or change `name` so both are the same.",
};

pub const DESCRIPTION_TOO_LONG: Rule = Rule {
    code: RuleCode::Shared(SharedRule::SkillDescriptionTooLong),
    severity: RuleSeverity::Error,
    runtimes: NOT_CLAUDE,
    summary: "A skill's `description` is at most 1024 characters (also judged for a folder of skills with no manifest).",
    fix: "Shorten the description; move details into the body of SKILL.md.",
};

/// Runtimes whose skill loaders hold SKILL.md to the Agent Skills key set
/// (builds for them move other keys under `metadata`). Codex, OpenClaw and
/// Hermes load skills with Claude's extra keys and ignore them; Cursor reads
/// them.
const STRICT_KEYS: &[&str] = &["gemini", "opencode", "agent-plugins"];

pub const UNKNOWN_FIELD: Rule = Rule {
    code: RuleCode::Shared(SharedRule::SkillUnknownField),
    severity: RuleSeverity::Warning,
    runtimes: STRICT_KEYS,
    summary: "A skill's frontmatter uses only the Agent Skills fields: name, description, license, compatibility, metadata, allowed-tools (also judged for a folder of skills with no manifest).",
    fix: "Remove the field, or move it under `metadata` (the Agent Skills validator rejects any other key).",
};

pub const INVALID_FIELD: Rule = Rule {
    code: RuleCode::Shared(SharedRule::SkillInvalidField),
    severity: RuleSeverity::Error,
    runtimes: &[],
    summary: "A skill's frontmatter fields have the types the runtime reads.",
    fix: "Give the field the type the message names (quote text values).",
};

pub const RULES: &[&Rule] = &[
    &MISSING_SKILL_MD,
    &NESTED_TOO_DEEP,
    &INVALID_FRONTMATTER,
    &NO_FRONTMATTER,
    &MISSING_DESCRIPTION,
    &MISSING_REQUIRED_FIELD,
    &INVALID_NAME,
    &NAME_NOT_FOLDER,
    &DESCRIPTION_TOO_LONG,
    &UNKNOWN_FIELD,
    &INVALID_FIELD,
];

const MARKDOWN: MarkdownRules = MarkdownRules {
    invalid_frontmatter: &INVALID_FRONTMATTER,
    // Claude Code lists such a skill, but every other Agent Skills reader
    // drops it, and a skill folder serves them all.
    quoted_frontmatter: None,
    no_frontmatter: Some(&NO_FRONTMATTER),
};

pub(crate) fn check(cx: &Context<'_>, sink: &mut Sink) {
    if cx.subject.kind == SubjectKind::Skills {
        return check_collection(cx, sink);
    }
    let layout = Layout::of(cx, sink);
    check_layout(cx, &layout, sink);
}

/// The skills of a bundle in `format` that `cx.runtime` loads (OpenClaw
/// loading a Claude Code plugin): found in the format's skill folders, as
/// deep as the loader looks, judged by the loader's skill rules.
pub(crate) fn check_loaded(cx: &Context<'_>, format: Runtime, sink: &mut Sink) {
    let as_format = Context { runtime: Some(format), ..*cx };
    // The manifest area has reported a manifest that does not parse.
    let mut layout = Layout::of(&as_format, &mut Sink::default());
    layout.skill_depth = Layout::of(cx, &mut Sink::default()).skill_depth;
    check_layout(cx, &layout, sink);
}

fn check_layout(cx: &Context<'_>, layout: &Layout, sink: &mut Sink) {
    for dir in &layout.skill_dirs {
        for skill in discover(cx, dir, layout.skill_depth, sink) {
            check_skill(cx, &skill, sink);
        }
    }
    if layout.root_skill && cx.folder.exists("SKILL.md") {
        let folder = cx.folder.root().rsplit('/').next().filter(|f| !f.is_empty()).map(str::to_string);
        check_skill(cx, &Skill { skill_md: "SKILL.md".into(), folder }, sink);
    }
}

/// A folder of Agent Skills without a manifest, read where `npx skills add`
/// reads: `skills/<name>/`, the folders directly below the root that hold a
/// `SKILL.md`, or the root itself as the one skill. Judged by the Agent
/// Skills specification, as deep as its clients look.
fn check_collection(cx: &Context<'_>, sink: &mut Sink) {
    let mut found = false;
    if cx.folder.has_dir("skills") {
        for skill in discover(cx, "skills", SkillDepth::OneLevel, sink) {
            check_skill(cx, &skill, sink);
            found = true;
        }
    }
    // Other folders of the root may be anything (docs, scripts): only those
    // holding a SKILL.md are skills.
    let mut roots: Vec<String> = cx
        .folder
        .below("")
        .filter_map(|(rel, _)| {
            let (name, rest) = rel.split_once('/')?;
            (rest == "SKILL.md" && name != "skills" && !name.starts_with('.')).then(|| name.to_string())
        })
        .collect();
    roots.dedup();
    for name in roots {
        found = true;
        check_skill(cx, &Skill { skill_md: format!("{name}/SKILL.md"), folder: Some(name) }, sink);
    }
    if !found && cx.folder.exists("SKILL.md") {
        check_skill(cx, &Skill { skill_md: "SKILL.md".into(), folder: None }, sink);
    }
}

/// A discovered skill: its `SKILL.md` and the name of its folder (`None`
/// when the folder's name is not known, as for the validated folder itself).
struct Skill {
    skill_md: String,
    folder: Option<String>,
}

/// The skills the runtime finds in `dir`; reports folders without a
/// `SKILL.md` and skills deeper than the runtime looks.
fn discover(cx: &Context<'_>, dir: &str, depth: SkillDepth, sink: &mut Sink) -> Vec<Skill> {
    let mut skills = Vec::new();
    let own = join(dir, "SKILL.md");
    if cx.folder.exists(&own) {
        skills.push(Skill { skill_md: own, folder: dir.rsplit('/').next().map(str::to_string) });
    }
    // Files below `dir`, grouped by the child folder they sit in (one pass, in path order).
    let mut child: Option<(String, Vec<String>)> = None;
    let mut groups = Vec::new();
    for (rel, _) in cx.folder.below(dir) {
        let inner = if dir.is_empty() { rel.as_str() } else { &rel[dir.len() + 1..] };
        let Some((name, _)) = inner.split_once('/') else { continue };
        match &mut child {
            Some((current, files)) if current == name => files.push(rel),
            _ => {
                groups.extend(child.take());
                child = Some((name.to_string(), vec![rel]));
            }
        }
    }
    groups.extend(child);
    let judge = judge(cx);
    for (name, files) in groups.into_iter().filter(|(name, _)| !name.starts_with('.')) {
        let folder = join(dir, &name);
        let skill_md = join(&folder, "SKILL.md");
        let direct = files.contains(&skill_md);
        if direct {
            skills.push(Skill { skill_md: skill_md.clone(), folder: Some(name.clone()) });
        }
        let deeper: Vec<&String> =
            files.iter().filter(|f| f.ends_with("/SKILL.md") && **f != skill_md).collect();
        for nested in &deeper {
            match depth {
                SkillDepth::Recursive => {
                    let parent = nested.rsplit('/').nth(1).map(str::to_string);
                    skills.push(Skill { skill_md: nested.to_string(), folder: parent });
                }
                SkillDepth::OneLevel => sink.report(
                    &NESTED_TOO_DEEP,
                    judge,
                    Some(cx.folder.at(nested)),
                    format!(
                        "{} is deeper than {dir}/<name>/SKILL.md: {} never finds this skill",
                        cx.folder.full(nested),
                        display(judge)
                    ),
                ),
            }
        }
        if !direct && deeper.is_empty() {
            let lower = join(&folder, "skill.md");
            let hint = if files.contains(&lower) { " (skill.md must be spelled SKILL.md)" } else { "" };
            sink.report(
                &MISSING_SKILL_MD,
                cx.runtime,
                Some(cx.folder.at(&folder)),
                format!("{} has no SKILL.md{hint}: it is not a skill", cx.folder.full(&folder)),
            );
        }
    }
    skills
}

fn check_skill(cx: &Context<'_>, skill: &Skill, sink: &mut Sink) {
    let Some(doc) = markdown::read(&cx.lint(), &skill.skill_md, &MARKDOWN, sink) else { return };
    let judge = judge(cx);
    match judge.map(Runtime::spec) {
        Some(loader) if !loader.skills.follows_agent_skills_spec => {
            if let Some(check_frontmatter) = loader.reads.check_component_frontmatter {
                check_frontmatter(&cx.lint(), &doc, &INVALID_FIELD, sink);
            }
            // The loader warns only when the key is absent (`description:` with no value passes).
            if doc.frontmatter.is_some() && !doc.has_key("description") {
                sink.report(
                    &MISSING_DESCRIPTION,
                    judge,
                    Some(cx.folder.at(&skill.skill_md)),
                    format!(
                        "the frontmatter has no `description`: {} cannot tell when to use this skill",
                        loader.name
                    ),
                );
            }
        }
        _ => spec::check(cx, judge, &doc, skill.folder.as_deref(), sink),
    }
}

/// The runtime whose skill loader judges `cx`'s skills; `None` for a folder
/// of Agent Skills, judged by the specification alone. A subject without a
/// runtime otherwise gets Claude Code's, the canonical layout's.
fn judge(cx: &Context<'_>) -> Option<Runtime> {
    match cx.subject.kind {
        SubjectKind::Skills => None,
        _ => Some(cx.runtime.unwrap_or(Runtime::CANONICAL)),
    }
}

fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() { name.to_string() } else { format!("{dir}/{name}") }
}

fn display(judge: Option<Runtime>) -> &'static str {
    judge.map_or("an Agent Skills client", |runtime| runtime.spec().subject)
}

#[cfg(test)]
mod tests {
    use super::super::components::test_support::{codes, findings};

    const SKILL: &str = "---\nname: deep\ndescription: D.\n---\nD\n";

    #[test]
    fn recursive_runtimes_find_nested_skills_and_check_their_own_folder() {
        let codex = (".codex-plugin/plugin.json", r#"{"name": "p", "version": "1.0.0"}"#);
        assert!(codes(&[codex, ("skills/group/deep/SKILL.md", SKILL)], None).is_empty());
        let found = findings(&[codex, ("skills/group/other/SKILL.md", SKILL)], None);
        assert_eq!(found[0].3, "name \"deep\" differs from its folder \"other\"");
    }

    #[test]
    fn claude_adds_manifest_skill_folders_and_reads_a_root_skill() {
        let manifest = (".claude-plugin/plugin.json", r#"{"name": "p", "skills": "./extra"}"#);
        let found = codes(&[manifest, ("extra/a/README.md", "x"), ("skills/b/SKILL.md", SKILL)], None);
        assert_eq!(found, ["skill/missing-skill-md"]);
        let root = codes(
            &[(".claude-plugin/plugin.json", r#"{"name": "p"}"#), ("SKILL.md", "# no frontmatter\n")],
            None,
        );
        assert_eq!(root, ["skill/no-frontmatter"]);
    }

    #[test]
    fn spec_findings_point_at_the_field_line() {
        let ap = ("plugin.json", r#"{"name": "p"}"#);
        let text = "---\nname: s\ndescription: S.\nmodel: opus\ncompatibility: 5\n---\nS\n";
        let found = findings(&[ap, ("skills/s/SKILL.md", text)], None);
        let lines: Vec<(&str, Option<usize>)> = found.iter().map(|f| (f.0.as_str(), f.2)).collect();
        assert_eq!(lines, [("skill/unknown-field", Some(4)), ("skill/invalid-field", Some(5))]);
    }

    #[test]
    fn an_unclosed_frontmatter_is_invalid() {
        let gemini = ("gemini-extension.json", r#"{"name": "p", "version": "1.0.0"}"#);
        assert_eq!(
            codes(&[gemini, ("skills/s/SKILL.md", "---\nname: s\n")], None),
            ["skill/invalid-frontmatter"]
        );
    }
}
