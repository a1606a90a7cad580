//! `bindings-python/python/plugforge/_vocabulary.py` is generated: the
//! engine's vocabulary (runtime ids from the registry, artifact kinds,
//! components, finding codes) as `Literal` types, which the stubs of the
//! native module (`_plugforge.pyi`) and the package's users import. A new
//! runtime changes this one Python file. The test fails when the checked-in
//! file is stale; `UPDATE_EXPECT=1 cargo test -p plugforge-conformance --test
//! python_vocabulary` rewrites it.

use plugforge_conformance::repo_dir;
use plugforge_core::{ArtifactKind, Component, DiagnosticCode, Runtime, RuntimeRule, SharedRule};

/// `Name = Literal[...]`, one value a line, after its comment.
fn literal(name: &str, doc: &str, values: &[&str]) -> String {
    let values: String = values.iter().map(|v| format!("    {v:?},\n")).collect();
    format!("#: {doc}\n{name} = Literal[\n{values}]\n")
}

fn vocabulary_py() -> String {
    [
        "\"\"\"The engine's vocabulary as ``Literal`` types: generated from the Rust types by\n\
         tests/tests/python_vocabulary.rs (do not edit).\"\"\"\n\nfrom typing import Literal, Union\n\n__all__ = \
         [\"RuntimeId\", \"ArtifactKind\", \"Component\", \"DiagnosticCode\", \"SharedRuleCode\", \
         \"RuntimeRuleCode\", \"RuleCode\", \"Code\"]\n"
            .to_string(),
        literal(
            "RuntimeId",
            "A runtime the core writes for, by its id (the registry's order).",
            &Runtime::ALL.iter().map(|v| v.id()).collect::<Vec<_>>(),
        ),
        literal(
            "ArtifactKind",
            "An artifact kind: the shape of bundle a runtime's kind writes.",
            &ArtifactKind::ALL.iter().map(|v| v.as_str()).collect::<Vec<_>>(),
        ),
        literal(
            "Component",
            "A component of a plugin, as honesty rows name it.",
            &Component::ALL.iter().map(|v| v.as_str()).collect::<Vec<_>>(),
        ),
        literal(
            "DiagnosticCode",
            "What a build diagnostic or an import note is about.",
            &DiagnosticCode::ALL.iter().map(|v| v.as_str()).collect::<Vec<_>>(),
        ),
        literal(
            "SharedRuleCode",
            "The code of a rule every runtime's format shares.",
            &SharedRule::ALL.iter().map(|v| v.as_str()).collect::<Vec<_>>(),
        ),
        literal(
            "RuntimeRuleCode",
            "The code of a rule only one runtime's format has (the registry lists them).",
            &RuntimeRule::ALL.iter().map(|v| v.as_str()).collect::<Vec<_>>(),
        ),
        "#: The code of a rule of validate's catalog.\nRuleCode = Union[SharedRuleCode, RuntimeRuleCode]\n".into(),
        "#: A finding's code: a build diagnostic's or an import note's, or a rule's.\n\
         Code = Union[DiagnosticCode, RuleCode]\n"
            .into(),
    ]
    .join("\n")
}

#[test]
fn python_vocabulary_is_generated_from_the_rust_types() {
    let path = repo_dir().join("bindings-python/python/plugforge/_vocabulary.py");
    let generated = vocabulary_py();
    if std::env::var_os("UPDATE_EXPECT").is_some_and(|v| v == "1") {
        std::fs::write(&path, &generated).expect("write _vocabulary.py");
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "bindings-python/python/plugforge/_vocabulary.py is stale: regenerate it with \
         `UPDATE_EXPECT=1 cargo test -p plugforge-conformance --test python_vocabulary`"
    );
}
