//! A case in a runtime's folder (`core/src/runtime/<folder>/conformance/`)
//! is about that runtime alone, and a rule only one runtime's format has
//! keeps its fixtures there: so removing or renaming a runtime's folder
//! takes its cases along, and no runtime's folder holds another's. A shared
//! vector every runtime must build (`everyRuntime`) names the runtimes it
//! builds, and each runtime it leaves out builds its source in a vector of
//! its own folder: so a new runtime is held to it without a shared vector
//! changing.

use std::collections::{BTreeMap, BTreeSet};

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
fn every_runtime_of_target_all_builds_each_every_runtime_source() {
    let all = cases();
    let source_of = |case: &plugforge_conformance::Case| {
        case.source_dir().canonicalize().unwrap_or_else(|e| panic!("{}: its source: {e}", case.name))
    };
    let shared: Vec<_> = all.iter().filter(|c| c.file.every_runtime).collect();
    assert!(!shared.is_empty(), "no vector is marked everyRuntime");
    for every in shared {
        assert!(
            every.folder.is_none(),
            "{}: an everyRuntime vector is a shared one (tests/vectors)",
            every.name
        );
        let source = source_of(every);
        let built: BTreeSet<String> = all
            .iter()
            .filter(|c| source_of(c) == source)
            .flat_map(|c| c.options().targets.into_iter().map(|t| t.runtime))
            .collect();
        let missing: Vec<&str> = Runtime::ALL
            .iter()
            .filter(|r| r.spec().in_target_all && !built.contains(r.id()))
            .map(|r| r.id())
            .collect();
        assert!(
            missing.is_empty(),
            "{}: {missing:?} build no vector of its source; each needs one in its own folder, \
             core/src/runtime/<folder>/conformance/vectors/<id>-{} (scripts/new-runtime writes it)",
            every.name,
            every.name
        );
    }
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
