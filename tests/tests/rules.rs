//! Every rule of the catalog has a failing and a passing fixture: the `fail`
//! folder's report carries the rule's code, the `pass` folder's does not,
//! and both reports equal the blessed JSON byte for byte.
//! `UPDATE_EXPECT=1 cargo test -p plugforge-conformance --test rules` re-blesses.

use std::collections::BTreeSet;

use plugforge_conformance::rules::{SIDES, rule_cases};

fn updating() -> bool {
    std::env::var_os("UPDATE_EXPECT").is_some_and(|v| v == "1")
}

#[test]
fn every_rule_has_a_failing_and_a_passing_fixture() {
    let cases = rule_cases();
    let have: BTreeSet<&str> = cases.iter().map(|c| c.code.as_str()).collect();
    let missing: Vec<&str> =
        plugforge_core::rules().iter().map(|r| r.code.as_str()).filter(|code| !have.contains(code)).collect();
    assert!(
        missing.is_empty(),
        "rules without fixtures (tests/rules, or the runtime folder's conformance/rules): {missing:?}"
    );
    let unknown: Vec<&&str> = have.iter().filter(|code| plugforge_core::rule(code).is_none()).collect();
    assert!(unknown.is_empty(), "fixtures of rules not in the catalog: {unknown:?}");
}

#[test]
fn every_fixture_matches_its_report() {
    let mut ran = Vec::new();
    for case in rule_cases() {
        for side in SIDES {
            let report = case.run(side);
            let carries = report.findings.iter().any(|f| f.code == case.code.as_str());
            match side {
                "fail" => assert!(carries, "{}/fail does not report {}: {report:#?}", case.code, case.code),
                _ => assert!(!carries, "{}/pass reports {}: {report:#?}", case.code, case.code),
            }
            let produced = serde_json::to_value(&report).expect("report is JSON");
            let path = case.dir.join(format!("{side}.json"));
            if updating() {
                let blessed = plugforge_conformance::rules::contract(produced.clone());
                let text = serde_json::to_string_pretty(&blessed).expect("JSON") + "\n";
                std::fs::write(&path, text).expect("write blessed report");
            } else {
                let expected =
                    case.expected(side).unwrap_or_else(|| panic!("{}: missing {side}.json", case.code));
                assert_eq!(produced, expected, "{}/{side}: report differs from {side}.json", case.code);
            }
            ran.push(format!("{}/{side}", case.code));
        }
    }
    plugforge_conformance::record_suite("rust", "rules", &ran);
}
