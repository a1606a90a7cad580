//! Rules of the `source` area: a plugforge source loads, builds for every
//! runtime it targets, and each built bundle passes that runtime's rules.

mod bundles;
mod outcome;
mod urls;

use std::collections::BTreeMap;

use super::Context;
use crate::codes::{RuleCode, SharedRule};
use crate::lint::Sink;
use crate::lint::{Rule, RuleSeverity};
use crate::model::{Source, read_config};
use crate::options::{BuildOptions, TargetRequest};
use crate::runtime::Runtime;
use crate::source::Config;
use outcome::Outcomes;

pub const INVALID: Rule = Rule {
    code: RuleCode::Shared(SharedRule::SourceInvalid),
    severity: RuleSeverity::Error,
    runtimes: &[],
    summary: "The source loads: valid JSON and frontmatter, known hook events, skills with SKILL.md, unique names.",
    fix: "Fix the file at the reported line; `plugforge build` refuses the source until then.",
};

pub const TEMPLATE: Rule = Rule {
    code: RuleCode::Shared(SharedRule::SourceTemplate),
    severity: RuleSeverity::Error,
    runtimes: &[],
    summary: "Every `.j2` template renders without host variables beyond the documented defaults.",
    fix: "Fix the template at the reported line, or give the variable a default (`| default(...)` or \"variables\" in plugforge.json).",
};

pub const URL_NOT_ALLOWED: Rule = Rule {
    code: RuleCode::Shared(SharedRule::SourceUrlNotAllowed),
    severity: RuleSeverity::Error,
    runtimes: &[],
    summary: "Generated content holds no URL outside the allowlist, so bundles stay self-contained.",
    fix: "Remove the URL, or allow its prefix with \"allowUrls\" in plugforge.json.",
};

pub const CREDENTIAL: Rule = Rule {
    code: RuleCode::Shared(SharedRule::SourceCredential),
    severity: RuleSeverity::Error,
    runtimes: &[],
    summary: "No source file holds a literal credential (a token of a known shape, or a key-like value under a credential-like name) where it runs or configures: `plugforge build` refuses it (error code `credential`); in prose and test files it warns (`literal_credential`) unless \"credentials\" is \"deny\".",
    fix: "Write `\"${NAME}\"` instead, declare NAME under requires.bindings in plugforge.json, and revoke the credential if it was real; list a test fixture's fake token under \"allowCredentials\".",
};

pub const UNSUPPORTED_TARGET: Rule = Rule {
    code: RuleCode::Shared(SharedRule::SourceUnsupportedTarget),
    severity: RuleSeverity::Error,
    runtimes: &[],
    summary: "Every runtime in \"targets\" is known and its artifact kind exists for it.",
    fix: "Use a runtime id and artifact kind listed in schema/plugforge.schema.json.",
};

pub const DIAGNOSTIC: Rule = Rule {
    code: RuleCode::Shared(SharedRule::SourceDiagnostic),
    severity: RuleSeverity::Warning,
    runtimes: &[],
    summary: "The build raises no warning (an ignored file, a missing description, a dropped component).",
    fix: "Follow the message; `plugforge build` prints the same warning.",
};

pub const RULES: &[&Rule] =
    &[&INVALID, &TEMPLATE, &URL_NOT_ALLOWED, &CREDENTIAL, &UNSUPPORTED_TARGET, &DIAGNOSTIC];

/// Loads the source, builds it for each runtime it targets and judges every
/// bundle with that runtime's native rules.
pub(crate) fn check(cx: &Context<'_>, sink: &mut Sink) {
    let mut outcomes = Outcomes::new(cx);
    let config = match read_config(Source::Written(cx.tree), &BTreeMap::new()) {
        Ok(config) => config,
        Err(error) => return outcomes.error(&error, None).report(sink, &[]),
    };
    let targets = targets(&config, cx.runtime);
    for target in &targets {
        let options = BuildOptions {
            targets: vec![TargetRequest::new(target.clone())],
            // Every URL passes the build so the bundle is still judged; the
            // allowlist is applied below, pointing at the source of each URL.
            allow_urls: vec![String::new()],
            ..BuildOptions::default()
        };
        match crate::build::build(cx.tree, &options) {
            Err(error) => {
                outcomes.error(&error, Some(target));
            }
            Ok(output) => {
                outcomes.diagnostics(&output.diagnostics, target);
                for bundle in &output.bundles {
                    outcomes.diagnostics(&bundle.diagnostics, target);
                    urls::check(cx, &config, bundle, &mut outcomes);
                    bundles::judge(bundle, &output, sink);
                }
            }
        }
    }
    outcomes.report(sink, &targets);
}

/// `--target` when given, else the enabled runtimes of `targets`, else
/// Claude Code: the same choice `plugforge build` makes.
fn targets(config: &Config, target: Option<Runtime>) -> Vec<String> {
    if let Some(runtime) = target {
        return vec![runtime.id().to_string()];
    }
    let enabled: Vec<String> =
        config.targets.iter().filter(|(_, t)| t.enabled != Some(false)).map(|(id, _)| id.clone()).collect();
    if enabled.is_empty() { vec![Runtime::DEFAULT.id().to_string()] } else { enabled }
}

#[cfg(test)]
mod tests {
    use crate::report::Diagnostic;
    use crate::source::SourceTree;
    use crate::validate::{ValidateOptions, validate};

    fn findings(files: &[(&str, &str)], target: Option<&str>) -> Vec<Diagnostic> {
        let mut tree = SourceTree::new();
        for (path, text) in files {
            tree.insert(path, text.as_bytes().to_vec(), false).unwrap();
        }
        let options = ValidateOptions { target: target.map(str::to_string), strict: false };
        validate(&tree, &options).unwrap().findings
    }

    const SKILL: (&str, &str) =
        ("skills/greet/SKILL.md", "---\nname: greet\ndescription: Greets the user.\n---\n\nHello.\n");

    #[test]
    fn a_problem_of_one_target_names_its_runtime() {
        let config = r#"{"name": "prompts", "version": "1.0.0", "description": "Prompts.", "author": {"name": "A"},
            "namespace": "pro_mpts", "targets": {"claude-code": {}, "gemini": {}}}"#;
        let found = findings(&[("plugforge.json", config), SKILL], None);
        let invalid: Vec<_> = found.iter().filter(|f| f.code == "source/invalid").collect();
        assert_eq!(invalid.len(), 1, "{found:#?}");
        assert_eq!(invalid[0].runtime.map(|r| r.id()), Some("gemini"));
        assert_eq!(invalid[0].file(), Some("plugforge.json"));
    }

    #[test]
    fn a_problem_of_the_source_is_reported_once_without_runtime() {
        let config = r#"{"name": "hello", "version": "1.0.0", "description": "Hi.", "author": {"name": "A"},
            "targets": {"claude-code": {}, "codex": {}, "gemini": {}}}"#;
        let broken = ("skills/bad/SKILL.md", "---\nname: \"unclosed\n---\nbody\n");
        let found = findings(&[("plugforge.json", config), SKILL, broken], None);
        let invalid: Vec<_> = found.iter().filter(|f| f.code == "source/invalid").collect();
        assert_eq!(invalid.len(), 1, "{found:#?}");
        assert_eq!(invalid[0].runtime, None);
        assert_eq!(invalid[0].file(), Some("skills/bad/SKILL.md"));
        assert!(invalid[0].line().is_some());
    }

    #[test]
    fn a_warning_of_every_target_that_built_has_no_runtime() {
        let config = r#"{"name": "prompts", "version": "1.0.0", "description": "Prompts.", "author": {"name": "A"},
            "namespace": "pro_mpts", "targets": {"claude-code": {}, "codex": {}, "gemini": {}}}"#;
        let bare = ("commands/hi.md", "Say hi.\n");
        let found = findings(&[("plugforge.json", config), SKILL, bare], None);
        let warnings: Vec<_> = found.iter().filter(|f| f.code == "source/diagnostic").collect();
        assert_eq!(warnings.len(), 1, "{found:#?}");
        assert_eq!((warnings[0].runtime, warnings[0].file()), (None, Some("commands/hi.md")));
    }

    /// The rule's fixture (tests/rules/source/unsupported-target) names an
    /// unknown artifact kind, whose message is the same for every registry;
    /// an unknown runtime id reports the same rule at its `targets` entry.
    #[test]
    fn an_unknown_runtime_id_in_targets_is_an_unsupported_target() {
        let config = r#"{"name": "hello", "version": "1.0.0", "description": "Hi.", "author": {"name": "A"},
            "targets": {
    "claude": {}
  }}"#;
        let found = findings(&[("plugforge.json", config), SKILL], None);
        let unsupported: Vec<_> = found.iter().filter(|f| f.code == "source/unsupported-target").collect();
        assert_eq!(unsupported.len(), 1, "{found:#?}");
        assert!(unsupported[0].message.starts_with("unknown runtime \"claude\"; known: "), "{found:#?}");
        assert_eq!((unsupported[0].file(), unsupported[0].line()), (Some("plugforge.json"), Some(3)));
    }

    #[test]
    fn target_restricts_the_build_to_one_runtime() {
        let config = r#"{"name": "prompts", "version": "1.0.0", "description": "Prompts.", "author": {"name": "A"},
            "namespace": "pro_mpts", "targets": {"gemini": {}}}"#;
        let invalid = |target: &str| {
            let found = findings(&[("plugforge.json", config), SKILL], Some(target));
            found.iter().filter(|f| f.code == "source/invalid").count()
        };
        assert_eq!(invalid("claude-code"), 0);
        assert_eq!(invalid("gemini"), 1);
    }

    #[test]
    fn bundles_are_judged_at_their_root_below_the_output() {
        let config = r#"{"name": "hello", "version": "1.0.0", "description": "Hi.", "author": {"name": "A"},
            "targets": {"claude-code": {}, "codex": {}, "opencode": {}}}"#;
        let mut tree = SourceTree::new();
        for (path, text) in [("plugforge.json", config), SKILL] {
            tree.insert(path, text.as_bytes().to_vec(), false).unwrap();
        }
        let options = crate::options::BuildOptions::default();
        let output = crate::build::build(&tree, &options).unwrap();
        let roots: Vec<Vec<String>> = output
            .bundles
            .iter()
            .map(|bundle| {
                let tree = super::bundles::bundle_tree(bundle, &output);
                let mut sink = crate::validate::Sink::default();
                crate::validate::detect::subjects(&tree, None, &mut sink)
                    .into_iter()
                    .map(|s| s.root)
                    .collect()
            })
            .collect();
        assert_eq!(roots, vec![vec!["claude-code".to_string()], vec!["codex".to_string()], Vec::new()]);
    }
}
