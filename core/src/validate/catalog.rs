//! The rule catalog: every finding `validate` can report has a stable code,
//! a default severity, the runtimes it applies to and a fix hint.

pub use crate::lint::Rule;
use crate::runtime::Runtime;

/// Every rule, in catalog order (area by area).
pub fn rules() -> Vec<&'static Rule> {
    // The rules only one runtime's format has live in that runtime's folder.
    let runtime_rules: Vec<&'static Rule> =
        Runtime::ALL.iter().flat_map(|runtime| runtime.spec().rules.iter().copied()).collect();
    let areas: [&[&'static Rule]; 13] = [
        super::detect::RULES,
        super::source::RULES,
        super::manifest::RULES,
        &runtime_rules,
        super::marketplace::RULES,
        super::skills::RULES,
        super::components::RULES,
        super::hooks::RULES,
        super::mcp::RULES,
        super::secrets::RULES,
        super::urls::RULES,
        super::extension::RULES,
        crate::lint::folder::RULES,
    ];
    areas.iter().flat_map(|area| area.iter().copied()).collect()
}

/// The rule with `code`.
pub fn rule(code: &str) -> Option<&'static Rule> {
    rules().into_iter().find(|r| r.code.as_str() == code)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    #[test]
    fn codes_are_unique_kebab_and_documented() {
        let mut seen = BTreeSet::new();
        for rule in rules() {
            assert!(seen.insert(rule.code.as_str()), "{} listed twice", rule.code);
            let (area, what) =
                rule.code.as_str().split_once('/').unwrap_or_else(|| panic!("{}: area/what", rule.code));
            for part in [area, what] {
                assert!(crate::source::is_kebab(part), "{}: kebab-case", rule.code);
            }
            assert!(!rule.summary.is_empty() && !rule.fix.is_empty(), "{}: summary and fix", rule.code);
            for runtime in rule.runtimes {
                assert!(crate::runtime::Runtime::parse(runtime).is_ok(), "{}: runtime {runtime}", rule.code);
            }
        }
    }
}
