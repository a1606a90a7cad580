//! Rules of the `registration` area: a Hermes plugin is Python code. Hermes
//! imports its `__init__.py` and calls `register(ctx)`; a skill is served
//! only when that call registers it (`ctx.register_skill(name, path)`), and
//! an exception fails the whole plugin. plugforge does not run the code: it
//! reads the fixed registration shape it writes itself (a loop over
//! `skills/*/SKILL.md`, or the same file with one call per skill), and says
//! so when a file has any other shape.

use crate::lint::{Cx, Rule, RuleSeverity, Sink};
use crate::codes::RuleCode;
use crate::registry::RuntimeRule;

const HERMES: &[&str] = &["hermes"];

pub const MISSING_INIT: Rule = Rule {
    code: RuleCode::Runtime(RuntimeRule::MissingInit),
    severity: RuleSeverity::Error,
    runtimes: HERMES,
    summary: "A Hermes plugin folder holds the `__init__.py` Hermes imports to call `register(ctx)`.",
    fix: "Add `__init__.py` with a `register(ctx)` function (`plugforge build --target hermes:skill-plugin` writes one that registers every `skills/<name>/SKILL.md`).",
};

pub const UNREGISTERED_SKILL: Rule = Rule {
    code: RuleCode::Runtime(RuntimeRule::UnregisteredSkill),
    severity: RuleSeverity::Error,
    runtimes: HERMES,
    summary: "Every skill a Hermes plugin ships under `skills/` is registered by its `__init__.py`; Hermes serves no other.",
    fix: "Move the skill to `skills/<name>/SKILL.md` (the fixed loop registers those), or add a `ctx.register_skill(...)` call for it.",
};

pub const REGISTRATION_RAISES: Rule = Rule {
    code: RuleCode::Runtime(RuntimeRule::RegistrationRaises),
    severity: RuleSeverity::Error,
    runtimes: HERMES,
    summary: "`register(ctx)` does not raise: each registered skill name is `[a-zA-Z0-9_-]+` and its `SKILL.md` exists (Hermes otherwise fails the whole plugin).",
    fix: "Rename the skill folder to letters, digits, `_` and `-`, or point the registration at a `SKILL.md` that exists.",
};

pub const NOT_CHECKED: Rule = Rule {
    code: RuleCode::Runtime(RuntimeRule::RegistrationNotChecked),
    severity: RuleSeverity::Warning,
    runtimes: HERMES,
    summary: "An `__init__.py` has the fixed registration shape plugforge writes; any other code cannot be checked statically, so whether it registers every skill and loads without raising is not judged.",
    fix: "Nothing to fix if the code is yours and tested with Hermes; otherwise use the shape `plugforge build --target hermes:skill-plugin` writes.",
};

pub const RULES: &[&Rule] = &[&MISSING_INIT, &UNREGISTERED_SKILL, &REGISTRATION_RAISES, &NOT_CHECKED];

const MANIFEST: &str = super::facts::MANIFEST_PATH;
const INIT: &str = crate::runtime::hermes::facts::INIT_PATH;
const SKILLS: &str = "skills";

/// The lines of the fixed shape before the registrations (module docstring,
/// comments and blank lines aside).
const PREAMBLE: [&str; 3] = [
    "from pathlib import Path",
    "def register(ctx):",
    "    skills = Path(__file__).resolve().parent / \"skills\"",
];
/// The loop plugforge writes: registers each `skills/<name>/SKILL.md` as `<name>`.
const LOOP: [&str; 2] = [
    "    for skill_md in sorted(skills.glob(\"*/SKILL.md\")):",
    "        ctx.register_skill(skill_md.parent.name, skill_md)",
];

/// What a recognised `__init__.py` registers.
enum Registrations {
    /// Every `skills/<name>/SKILL.md`, as `<name>`, in name order.
    Loop,
    /// `ctx.register_skill("<name>", skills / "<a>" / ... / "SKILL.md")`
    /// calls: (line, name, SKILL.md path relative to the plugin).
    Calls(Vec<(usize, String, String)>),
}

/// The plugin's `__init__.py` against the skills it ships.
pub(crate) fn check(cx: &Cx<'_>, sink: &mut Sink) {
    if !cx.folder.exists(MANIFEST) {
        return;
    }
    let runtime = Some(crate::registry::Runtime::Hermes);
    if !cx.folder.exists(INIT) {
        let message =
            "no __init__.py: Hermes imports it to load the plugin and fails with \"No __init__.py\"";
        sink.report(&MISSING_INIT, runtime, Some(cx.folder.at(INIT)), message);
        return;
    }
    let Some(text) = cx.folder.text(INIT, sink) else { return };
    let shipped = shipped_skills(cx);
    match registrations(text) {
        None => sink.report(
            &NOT_CHECKED,
            runtime,
            Some(cx.folder.at(INIT)),
            "__init__.py is not the fixed registration shape plugforge writes: its code is not run, so \
             which skills it registers and whether it raises are not checked",
        ),
        Some(Registrations::Loop) => {
            for skill_md in &shipped {
                match skill_md.strip_prefix("skills/").and_then(|r| r.strip_suffix("/SKILL.md")) {
                    Some(name) if !name.contains('/') => {
                        if let Some(why) = name_problem(name) {
                            let message = format!(
                                "register(ctx) raises ValueError on skill folder {name:?} ({why}): Hermes \
                                 fails the whole plugin"
                            );
                            sink.report(&REGISTRATION_RAISES, runtime, Some(cx.folder.at(skill_md)), message);
                        }
                    }
                    _ => unregistered(cx, skill_md, "the loop registers only skills/<name>/SKILL.md", sink),
                }
            }
        }
        Some(Registrations::Calls(calls)) => {
            for (line, name, path) in &calls {
                let at = Some(cx.folder.at_line(INIT, *line, 1));
                if let Some(why) = name_problem(name) {
                    let message = format!(
                        "register(ctx) raises ValueError on skill name {name:?} ({why}): Hermes fails the whole plugin"
                    );
                    sink.report(&REGISTRATION_RAISES, runtime, at.clone(), message);
                }
                if !cx.folder.exists(path) {
                    let message = format!(
                        "register(ctx) raises FileNotFoundError: {} does not exist, and Hermes fails the whole plugin",
                        cx.folder.full(path)
                    );
                    sink.report(&REGISTRATION_RAISES, runtime, at, message);
                }
            }
            for skill_md in shipped.iter().filter(|s| !calls.iter().any(|(_, _, p)| p == *s)) {
                unregistered(cx, skill_md, "no ctx.register_skill call names it", sink);
            }
        }
    }
}

fn unregistered(cx: &Cx<'_>, skill_md: &str, why: &str, sink: &mut Sink) {
    let message =
        format!("{} is not registered ({why}): Hermes never serves this skill", cx.folder.full(skill_md));
    sink.report(&UNREGISTERED_SKILL, Some(crate::registry::Runtime::Hermes), Some(cx.folder.at(skill_md)), message);
}

/// Every `SKILL.md` below `skills/`, at any depth, relative to the plugin.
fn shipped_skills(cx: &Cx<'_>) -> Vec<String> {
    cx.folder
        .below(SKILLS)
        .map(|(rel, _)| rel)
        .filter(|rel| rel.ends_with("/SKILL.md") && !rel.split('/').any(|seg| seg.starts_with('.')))
        .collect()
}

/// Why Hermes's `register_skill` refuses `name` (`_NAMESPACE_RE`,
/// `^[a-zA-Z0-9_-]+$`), if it does.
fn name_problem(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        Some("it is empty")
    } else if name.contains(':') {
        Some("it holds ':'")
    } else if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        Some("Hermes skill names are letters, digits, '_' and '-'")
    } else {
        None
    }
}

/// The registrations of `text` when it has the fixed shape; `None` for any
/// other code.
fn registrations(text: &str) -> Option<Registrations> {
    let lines = code_lines(text)?;
    let (preamble, body) = lines.split_at_checked(PREAMBLE.len())?;
    if preamble.iter().map(|(_, l)| *l).ne(PREAMBLE) || body.is_empty() {
        return None;
    }
    if body.iter().map(|(_, l)| *l).eq(LOOP) {
        return Some(Registrations::Loop);
    }
    let calls = body.iter().map(|(line, text)| call(text).map(|(name, path)| (*line, name, path)));
    calls.collect::<Option<Vec<_>>>().map(Registrations::Calls)
}

/// `(1-based line, right-trimmed text)` of each line that is code: the
/// module docstring, comments and blank lines left out. `None` when the
/// docstring is never closed.
fn code_lines(text: &str) -> Option<Vec<(usize, &str)>> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim_end()));
    let mut docstring_allowed = true;
    while let Some((line, code)) = lines.next() {
        let trimmed = code.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if docstring_allowed {
            docstring_allowed = false;
            if let Some(quote) = ["\"\"\"", "'''"].into_iter().find(|q| trimmed.starts_with(q)) {
                let rest = &trimmed[3..];
                if !rest.contains(quote) && !lines.by_ref().any(|(_, l)| l.contains(quote)) {
                    return None;
                }
                continue;
            }
        }
        out.push((line, code));
    }
    Some(out)
}

/// `    ctx.register_skill("<name>", skills / "<a>" / ... / "SKILL.md")` as
/// (name, `skills/<a>/.../SKILL.md`).
fn call(line: &str) -> Option<(String, String)> {
    let args = line.strip_prefix("    ctx.register_skill(")?.strip_suffix(')')?;
    let (name, path) = args.split_once(',')?;
    let name = literal(name.trim())?;
    let mut parts = path.trim().split(" / ");
    if parts.next()? != "skills" {
        return None;
    }
    let segments: Vec<String> = parts.map(literal).collect::<Option<_>>()?;
    let ok = segments.len() >= 2
        && segments.last().is_some_and(|s| s == "SKILL.md")
        && segments.iter().all(|s| !s.is_empty() && s != "." && s != ".." && !s.contains('/'));
    ok.then(|| (name, format!("{SKILLS}/{}", segments.join("/"))))
}

/// A Python string literal without escapes or prefixes.
fn literal(text: &str) -> Option<String> {
    let quote = text.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let inner = text.strip_prefix(quote)?.strip_suffix(quote)?;
    (!inner.contains(quote) && !inner.contains('\\')).then(|| inner.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceTree;
    use crate::validate::{ValidateOptions, validate};

    const GENERATED: &str = include_str!("../../../../templates/hermes/__init__.py");
    const SKILL: &str = "---\nname: a\ndescription: A.\n---\nA\n";

    fn codes(files: &[(&str, &str)]) -> Vec<(String, Option<String>)> {
        let mut tree = SourceTree::new();
        tree.insert("plugin.yaml", b"name: p\n".to_vec(), false).unwrap();
        for (path, text) in files {
            tree.insert(path, text.as_bytes().to_vec(), false).unwrap();
        }
        let options = ValidateOptions { target: None, strict: false };
        validate(&tree, &options)
            .unwrap()
            .findings
            .into_iter()
            .filter(|f| f.code.as_str().starts_with("registration/"))
            .map(|f| (f.code.to_string(), f.file().map(str::to_string)))
            .collect()
    }

    #[test]
    fn the_generated_file_is_the_fixed_loop() {
        assert!(matches!(registrations(GENERATED), Some(Registrations::Loop)));
        assert!(codes(&[("__init__.py", GENERATED), ("skills/a/SKILL.md", SKILL)]).is_empty());
    }

    #[test]
    fn the_loop_misses_nested_skills_and_raises_on_bad_folder_names() {
        let found = codes(&[
            ("__init__.py", GENERATED),
            ("skills/group/a/SKILL.md", SKILL),
            ("skills/my.skill/SKILL.md", SKILL),
        ]);
        assert_eq!(
            found,
            [
                ("registration/unregistered-skill".into(), Some("skills/group/a/SKILL.md".into())),
                ("registration/raises".into(), Some("skills/my.skill/SKILL.md".into())),
            ]
        );
    }

    #[test]
    fn explicit_calls_are_checked_against_the_skill_folders() {
        let init = "from pathlib import Path\n\n\ndef register(ctx):\n    skills = Path(__file__).resolve().parent / \"skills\"\n    ctx.register_skill(\"a\", skills / \"a\" / \"SKILL.md\")\n    ctx.register_skill('gone', skills / 'gone' / 'SKILL.md')\n";
        let found =
            codes(&[("__init__.py", init), ("skills/a/SKILL.md", SKILL), ("skills/b/SKILL.md", SKILL)]);
        assert_eq!(
            found,
            [
                ("registration/raises".into(), Some("__init__.py".into())),
                ("registration/unregistered-skill".into(), Some("skills/b/SKILL.md".into())),
            ]
        );
    }

    #[test]
    fn other_code_is_not_checked_and_a_missing_file_fails() {
        let init =
            "def register(ctx):\n    ctx.register_tool(name='t', toolset='x', schema={}, handler=print)\n";
        assert_eq!(
            codes(&[("__init__.py", init)]),
            [("registration/not-checked".into(), Some("__init__.py".into()))]
        );
        assert_eq!(codes(&[]), [("registration/missing-init".into(), Some("__init__.py".into()))]);
        assert!(registrations("\"\"\"never closed\nfrom pathlib import Path\n").is_none());
    }
}
