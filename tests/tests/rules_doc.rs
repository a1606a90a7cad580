//! `docs/rules.md` is generated from the rule catalog (`plugforge_core::rules()`):
//! this test fails when it drifts, and `UPDATE_EXPECT=1` rewrites it.

use plugforge_core::{Rule, RuleSeverity, rules};

const HEADER: &str = "\
# Validation rules

Every finding `plugforge validate` reports carries one of these codes (stable: scripts may match
on them). Severity is the rule's own; `--strict` reports warnings as errors. Runtimes: the runtimes
the rule judges (`all`: every runtime). The `--json` output is described by
`schema/validate-report.schema.json` ([validating](reference/validate.md)).

Generated from the rule catalog by `UPDATE_EXPECT=1 cargo test -p plugforge-conformance --test rules_doc`;
do not edit by hand.

";

/// Table cells hold no `|` and no line break, and a `<name>` outside code is
/// text, not an HTML tag (which would hide it on GitHub and in the book).
fn cell(text: &str) -> String {
    let text = text.replace('|', "\\|").replace('\n', " ");
    let parts: Vec<String> = text
        .split('`')
        .enumerate()
        .map(|(i, part)| if i % 2 == 0 { part.replace('<', "\\<") } else { part.to_string() })
        .collect();
    parts.join("`")
}

fn row(rule: &Rule) -> String {
    let severity = match rule.severity {
        RuleSeverity::Error => "error",
        RuleSeverity::Warning => "warning",
    };
    let runtimes = if rule.runtimes.is_empty() {
        "all".to_string()
    } else {
        rule.runtimes.iter().map(|r| format!("`{r}`")).collect::<Vec<_>>().join(", ")
    };
    format!("| `{}` | {severity} | {runtimes} | {} | {} |\n", rule.code, cell(rule.summary), cell(rule.fix))
}

fn catalog() -> String {
    let mut text = HEADER.to_string();
    text.push_str(&format!("{} rules.\n\n", rules().len()));
    text.push_str("| code | severity | runtimes | summary | fix |\n|---|---|---|---|---|\n");
    for rule in rules() {
        text.push_str(&row(rule));
    }
    text
}

#[test]
fn docs_rules_md_matches_the_catalog() {
    let path = plugforge_conformance::repo_dir().join("docs/rules.md");
    let generated = catalog();
    if std::env::var_os("UPDATE_EXPECT").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().expect("docs/")).expect("create docs/");
        std::fs::write(&path, &generated).expect("write docs/rules.md");
        return;
    }
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        current == generated,
        "docs/rules.md is stale: UPDATE_EXPECT=1 cargo test -p plugforge-conformance --test rules_doc"
    );
}
