//! The hosted CI workflow (`.github/workflows/ci.yml`) runs the fast tier on
//! Linux, macOS and Windows and the full suite on Linux, on every push and
//! pull request, and each script it runs exists; the file is valid against
//! the published schema for workflows (SchemaStore's, committed under
//! tests/schemas, as `action.yml` is checked against the one for actions).

mod schemas;

use std::path::{Path, PathBuf};

use yaml_rust2::{Yaml, YamlLoader};

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn workflow() -> Yaml {
    let text = std::fs::read_to_string(repository().join(".github/workflows/ci.yml")).expect("ci.yml");
    let mut docs = YamlLoader::load_from_str(&text).expect("ci.yml is YAML");
    assert_eq!(docs.len(), 1, "one document");
    docs.remove(0)
}

fn runs(job: &Yaml) -> Vec<String> {
    job["steps"].as_vec().expect("steps").iter().filter_map(|s| s["run"].as_str()).map(String::from).collect()
}

#[test]
fn the_fast_tier_runs_on_three_systems_and_the_full_suite_on_linux_on_push_and_pull_request() {
    let workflow = workflow();
    let on = workflow["on"].as_hash().expect("on: a map");
    let events: Vec<&str> = on.keys().filter_map(Yaml::as_str).collect();
    assert_eq!(events, ["push", "pull_request"]);

    let fast = &workflow["jobs"]["fast"];
    let systems: Vec<&str> = fast["strategy"]["matrix"]["os"]
        .as_vec()
        .expect("a matrix")
        .iter()
        .filter_map(Yaml::as_str)
        .collect();
    assert_eq!(systems, ["ubuntu-latest", "macos-latest", "windows-latest"]);
    assert_eq!(fast["runs-on"].as_str(), Some("${{ matrix.os }}"));
    assert!(runs(fast).contains(&"scripts/test-fast".to_string()), "{:?}", runs(fast));

    let full = &workflow["jobs"]["full"];
    assert_eq!(full["runs-on"].as_str(), Some("ubuntu-latest"));
    assert_eq!(runs(full), [".ci/run"]);

    for job in [fast, full] {
        for step in job["steps"].as_vec().unwrap() {
            if let Some(run) = step["run"].as_str() {
                // Windows runners default to PowerShell: every script runs in bash.
                assert_eq!(step["shell"].as_str(), Some("bash"), "{run}");
                let program = run.split_whitespace().next().unwrap();
                if program.contains('/') {
                    assert!(repository().join(program).is_file(), "{program} is missing");
                }
            }
        }
    }
}

#[test]
fn ci_yml_is_valid_against_the_published_workflow_schema() {
    let workflow = schemas::yaml_file(".github/workflows/ci.yml");
    assert_eq!(schemas::schema_errors("github-workflow.json", &workflow), Vec::<String>::new());

    // The schema is really applied: each of these breaks the workflow as
    // GitHub would refuse it, and each fails.
    type Breaks = fn(&mut serde_json::Value);
    let broken: [(&str, Breaks); 4] = [
        ("a job without runs-on", |w| {
            w["jobs"]["full"].as_object_mut().unwrap().remove("runs-on");
        }),
        ("a step both runs and uses", |w| {
            w["jobs"]["full"]["steps"][0]["run"] = ".ci/run".into();
        }),
        ("an event GitHub does not have", |w| {
            w["on"]["commit"] = serde_json::Value::Null;
        }),
        ("a key a job does not have", |w| {
            w["jobs"]["fast"]["timeout"] = 10.into();
        }),
    ];
    for (what, breaks) in broken {
        let mut invalid = workflow.clone();
        breaks(&mut invalid);
        let errors = schemas::schema_errors("github-workflow.json", &invalid);
        assert!(!errors.is_empty(), "{what}: the schema accepted it");
    }
}
