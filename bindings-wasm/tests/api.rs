//! The binding as JavaScript sees it, run by `wasm-pack test --node`: values
//! in and out are JS objects, bytes are `Uint8Array`s, errors carry `code`.

#![cfg(target_arch = "wasm32")]

use js_sys::{Array, JSON, Object, Reflect, Uint8Array};
use plugforge_wasm::{
    Build, build, doctor, import_plugin, rules, sha256_hex, starter_source, uninstall_plan, validate,
};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

const GENERATED_AT: &str = "2026-01-01T00:00:00Z";

fn json(text: &str) -> JsValue {
    JSON::parse(text).expect("valid JSON")
}

fn get(value: &JsValue, key: &str) -> JsValue {
    Reflect::get(value, &key.into()).expect("readable property")
}

fn text(value: &JsValue, key: &str) -> String {
    get(value, key).as_string().unwrap_or_else(|| panic!("{key} is a string"))
}

fn list(value: &JsValue) -> Vec<JsValue> {
    value.clone().dyn_into::<Array>().expect("an array").to_vec()
}

fn bytes(value: &JsValue, key: &str) -> Vec<u8> {
    get(value, key).dyn_into::<Uint8Array>().expect("a Uint8Array").to_vec()
}

fn file(path: &str, content: &str, executable: bool) -> JsValue {
    let file = Object::new();
    Reflect::set(&file, &"path".into(), &path.into()).unwrap();
    Reflect::set(&file, &"bytes".into(), &Uint8Array::from(content.as_bytes()).into()).unwrap();
    Reflect::set(&file, &"executable".into(), &executable.into()).unwrap();
    file.into()
}

fn hello_source() -> JsValue {
    let files = Array::new();
    files.push(&file("plugforge.json", r#"{"name": "hello", "version": "1.0.0"}"#, false));
    files.push(&file("commands/hi.md", "---\ndescription: Say hi\n---\nHi $ARGUMENTS\n", false));
    files.push(&file("bin/hello", "#!/bin/sh\necho hi\n", true));
    files.into()
}

fn hello() -> Build {
    build(hello_source(), Some(json(r#"{"targets": [{"runtime": "claude-code"}]}"#))).expect("builds")
}

fn plan_options() -> JsValue {
    json(&format!(r#"{{"generatedAt": "{GENERATED_AT}"}}"#))
}

/// An output root as `observed`: every file hashed, the paths to read with their bytes.
fn observe(files: &[JsValue], to_read: &[String]) -> JsValue {
    let (hashes, contents) = (Object::new(), Object::new());
    for file in files {
        let path = get(file, "path");
        Reflect::set(&hashes, &path, &get(file, "sha256")).unwrap();
        if to_read.contains(&path.as_string().unwrap()) {
            Reflect::set(&contents, &path, &get(file, "bytes")).unwrap();
        }
    }
    let observed = Object::new();
    Reflect::set(&observed, &"hashes".into(), &hashes).unwrap();
    Reflect::set(&observed, &"contents".into(), &contents).unwrap();
    observed.into()
}

fn error_code(error: &JsValue) -> String {
    assert!(error.is_instance_of::<js_sys::Error>(), "a JS Error: {error:?}");
    text(error, "code")
}

#[wasm_bindgen_test]
fn hashes_the_known_digest() {
    assert_eq!(sha256_hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

#[wasm_bindgen_test]
fn builds_bundles_with_bytes_and_hashes() {
    let bundles = list(&hello().bundles().unwrap());
    assert_eq!(bundles.len(), 1);
    let bundle = &bundles[0];
    assert_eq!(text(bundle, "runtime"), "claude-code");
    assert_eq!(text(bundle, "pluginName"), "hello");
    assert_eq!(text(bundle, "pluginVersion"), "1.0.0");
    let files = list(&get(bundle, "files"));
    let paths: Vec<String> = files.iter().map(|f| text(f, "path")).collect();
    assert!(paths.contains(&"commands/hi.md".to_string()), "{paths:?}");
    for file in &files {
        assert_eq!(sha256_hex(&bytes(file, "bytes")), text(file, "sha256"), "{}", text(file, "path"));
    }
    let bin = files.iter().find(|f| text(f, "path") == "bin/hello").expect("bin/hello");
    assert_eq!(get(bin, "executable"), JsValue::TRUE);
    assert_eq!(bytes(bin, "bytes"), b"#!/bin/sh\necho hi\n");
}

#[wasm_bindgen_test]
fn a_fresh_root_only_creates_and_a_rerun_changes_nothing() {
    let build = hello();
    let plan = build.plan(json("{}"), Some(plan_options())).unwrap();
    assert_eq!(get(&plan, "refused"), JsValue::FALSE);
    let actions = list(&get(&plan, "actions"));
    assert!(actions.iter().all(|a| text(a, "op") == "create"));
    let files = list(&build.output_files(GENERATED_AT.into()).unwrap());
    assert_eq!(files.len(), actions.len());
    assert!(files.iter().any(|f| text(f, "path") == "claude-code/.plugforge-manifest.json"));
    assert!(files.iter().any(|f| text(f, "path") == ".claude-plugin/marketplace.json"));

    let observed = observe(&files, &build.paths_to_read());
    let rerun = build.plan(observed, Some(plan_options())).unwrap();
    let summary = get(&rerun, "summary");
    assert_eq!(get(&summary, "unchanged").as_f64(), Some(files.len() as f64));
    assert!(list(&get(&rerun, "actions")).iter().all(|a| get(a, "bytes").is_undefined()));
}

#[wasm_bindgen_test]
fn uninstall_removes_and_doctor_finds_nothing_wrong() {
    let build = hello();
    let files = list(&build.output_files(GENERATED_AT.into()).unwrap());
    let to_read = plugforge_wasm::uninstall_paths(None).unwrap();
    let plan = uninstall_plan(None, observe(&files, &to_read)).unwrap();
    let actions = list(&get(&plan, "actions"));
    assert_eq!(actions.len(), files.len());
    assert!(actions.iter().all(|a| text(a, "op") == "remove"));

    let report = build.doctor(None, observe(&files, &to_read)).unwrap();
    assert_eq!(list(&get(&report, "findings")).len(), 0);
    let report = doctor(None, json("{}")).unwrap();
    assert_eq!(text(&list(&get(&report, "findings"))[0], "code"), "plugin_missing");
}

#[wasm_bindgen_test]
fn the_starter_source_builds() {
    let source = starter_source("my-plugin").unwrap();
    assert!(list(&source).iter().any(|f| text(f, "path") == "plugforge.json"));
    let bundles = list(&build(source, None).unwrap().bundles().unwrap());
    assert_eq!(text(&bundles[0], "pluginName"), "my-plugin");
    assert_eq!(error_code(&starter_source("Not Kebab").err().unwrap()), "invalid_options");
}

#[wasm_bindgen_test]
fn errors_carry_code_and_located_problems() {
    let error = build(hello_source(), Some(json(r#"{"targets": [{"runtime": "nonesuch"}]}"#))).err().unwrap();
    assert_eq!(error_code(&error), "unsupported_runtime");

    let files = Array::new();
    files.push(&file("plugforge.json", "{\"name\": \"x\",\n}", false));
    let error = build(files.into(), None).err().unwrap();
    assert_eq!(error_code(&error), "invalid_source");
    let problem = &list(&get(&error, "problems"))[0];
    let location = get(problem, "location");
    assert_eq!(text(&location, "file"), "plugforge.json");
    assert_eq!(get(&location, "line").as_f64(), Some(2.0));
    assert!(text(&error, "message").contains("invalid JSON"), "{}", text(&error, "message"));

    let files = Array::new();
    files.push(&file("../escape", "", false));
    assert_eq!(error_code(&build(files.into(), None).err().unwrap()), "invalid_path");
}

#[wasm_bindgen_test]
fn malformed_arguments_are_invalid_options() {
    let error = build(hello_source(), Some(json(r#"{"target": []}"#))).err().unwrap();
    assert_eq!(error_code(&error), "invalid_options");
    assert!(text(&error, "message").contains("target"));
    let error = build(json(r#"[{"path": "a", "bytes": "not bytes"}]"#), None).err().unwrap();
    assert_eq!(error_code(&error), "invalid_options");
    let error = hello().plan(json("{}"), Some(json(r#"{"generated_at": "x"}"#))).err().unwrap();
    assert_eq!(error_code(&error), "invalid_options");
}

#[wasm_bindgen_test]
fn validate_reports_in_the_json_shape() {
    let empty = validate(Array::new().into(), None).unwrap();
    assert_eq!(text(&empty, "schema"), "plugforge.validate.v1");
    assert_eq!(get(&empty, "valid"), JsValue::FALSE);
    let findings = list(&get(&empty, "findings"));
    assert_eq!(text(&findings[0], "code"), "detect/no-plugin");
    assert!(get(&findings[0], "file").is_undefined(), "absent fields are left out");

    let source = validate(hello_source(), Some(json(r#"{"strict": true}"#))).unwrap();
    assert_eq!(get(&source, "strict"), JsValue::TRUE);
    let subjects = list(&get(&source, "subjects"));
    assert_eq!(text(&subjects[0], "kind"), "source");
    assert!(get(&subjects[0], "runtime").is_null(), "a source's runtime is null, as in JSON");
}

#[wasm_bindgen_test]
fn validate_and_import_refuse_bad_options() {
    let unknown = validate(hello_source(), Some(json(r#"{"target": "nonesuch"}"#))).err().unwrap();
    assert_eq!(error_code(&unknown), "unsupported_runtime");
    let misspelt = validate(hello_source(), Some(json(r#"{"stric": true}"#))).err().unwrap();
    assert_eq!(error_code(&misspelt), "invalid_options");
    let from = import_plugin(hello_source(), Some(json(r#"{"from": "nonesuch"}"#))).err().unwrap();
    assert_eq!(error_code(&from), "unsupported_runtime");
}

#[wasm_bindgen_test]
fn rules_lists_the_catalog() {
    let catalog = list(&rules().unwrap());
    let no_plugin = catalog.iter().find(|r| text(r, "code") == "detect/no-plugin").expect("detect/no-plugin");
    assert_eq!(text(no_plugin, "severity"), "error");
    assert_eq!(list(&get(no_plugin, "runtimes")).len(), 0);
    assert!(!text(no_plugin, "fix").is_empty());
}
