//! A case in a runtime's folder (`core/src/runtime/<folder>/conformance/`)
//! is about that runtime alone, and a rule only one runtime's format has
//! keeps its fixtures there: so removing or renaming a runtime's folder
//! takes its cases along, and no runtime's folder holds another's.

use std::collections::BTreeMap;

use plugforge_conformance::imports::import_cases;
use plugforge_conformance::rules::rule_cases;
use plugforge_conformance::{cases, registry_folders, runtime_of_folder};
use plugforge_core::Runtime;

#[test]
fn a_runtime_folders_vectors_build_that_runtime_alone() {
    let mut owned = 0;
    for case in cases() {
        let Some(folder) = &case.folder else { continue };
        let runtime = runtime_of_folder(folder);
        let targets: Vec<String> = case.options().targets.iter().map(|t| t.runtime.clone()).collect();
        assert!(
            !targets.is_empty() && targets.iter().all(|t| t == runtime.id()),
            "{}: in core/src/runtime/{folder}/ but it builds {targets:?}, not {} alone (a case of several \
             runtimes stays in tests/vectors)",
            case.name,
            runtime.id()
        );
        owned += 1;
    }
    assert!(owned > 0, "no runtime folder holds a golden vector");
}

#[test]
fn a_runtimes_own_rules_keep_their_fixtures_in_its_folder() {
    let owner: BTreeMap<&str, Runtime> = Runtime::ALL
        .iter()
        .flat_map(|runtime| runtime.spec().rules.iter().map(move |rule| (rule.code, *runtime)))
        .collect();
    let folders = registry_folders();
    for case in rule_cases() {
        let want = owner
            .get(case.code.as_str())
            .map(|r| &folders[Runtime::ALL.iter().position(|x| x == r).unwrap()]);
        assert_eq!(
            case.folder.as_ref(),
            want,
            "{}: its fixtures belong in {}",
            case.code,
            match want {
                Some(folder) =>
                    format!("core/src/runtime/{folder}/conformance/rules/ (only that runtime has it)"),
                None => "tests/rules/ (the rule is not one runtime's own)".to_string(),
            }
        );
    }
}

#[test]
fn a_runtime_folders_import_cases_read_that_runtimes_format() {
    for case in import_cases() {
        let Some(folder) = &case.folder else { continue };
        let runtime = runtime_of_folder(folder);
        assert_eq!(case.run().runtime, runtime, "{}: in core/src/runtime/{folder}/", case.name);
    }
}
