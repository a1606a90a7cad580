"""validate, import_plugin and rules through the Python binding: the report's attributes
and ``as_dict()`` (the JSON shape), keyword options, exceptions of the error codes, the
catalog. Every fixture and import case runs in test_conformance.py."""

from __future__ import annotations

import pytest

import plugforge
from conftest import ROOT

MANIFEST = b'{"name": "demo", "version": "1.0.0", "description": "d", "author": {"name": "a"}}'


def test_a_folder_with_no_plugin_is_invalid() -> None:
    report = plugforge.validate({"notes.txt": b"nothing\n"})
    assert (report.schema, report.valid, report.strict, report.errors) == ("plugforge.validate.v1", False, False, 1)
    assert report.subjects == []
    (finding,) = report.findings
    assert (finding.code, finding.severity, finding.file, finding.line) == ("detect/no-plugin", "error", None, None)
    assert "--target" in finding.fix
    assert report.as_dict()["findings"][0].keys() == {"code", "severity", "message", "fix"}
    assert "ValidationReport(valid=False, errors=1" in repr(report)


def test_subjects_target_and_strict() -> None:
    files = {".claude-plugin/plugin.json": MANIFEST, ".codex-plugin/plugin.json": MANIFEST}
    assert [s.runtime for s in plugforge.validate(files).subjects] == ["claude-code", "codex"]
    codex = plugforge.validate(files, target="codex", strict=True)
    (subject,) = codex.subjects
    assert (subject.kind, subject.runtime, subject.root, subject.marker) == (
        "plugin", "codex", "", ".codex-plugin/plugin.json")
    assert codex.strict and all(f.severity == "error" for f in codex.findings)


def test_a_source_is_one_subject_without_a_runtime() -> None:
    report = plugforge.validate({"plugforge.json": b'{"name": "demo", "version": "1.0.0"}'})
    assert report.as_dict()["subjects"] == [{"kind": "source", "runtime": None, "root": "", "marker": "plugforge.json"}]


def test_bad_arguments_raise_the_classes_of_their_codes() -> None:
    files = {".claude-plugin/plugin.json": MANIFEST}
    with pytest.raises(plugforge.UnsupportedRuntimeError) as caught:
        plugforge.validate(files, target="nonesuch")
    assert caught.value.code == "unsupported_runtime"
    with pytest.raises(plugforge.InvalidPathError):
        plugforge.validate({"../x": b""})
    with pytest.raises(plugforge.UnsupportedRuntimeError):
        plugforge.import_plugin(files, from_runtime="nonesuch")
    with pytest.raises(TypeError):
        plugforge.validate("a/folder")  # type: ignore[arg-type]


def test_rules_is_the_catalog_of_docs_rules_md() -> None:
    catalog = plugforge.rules()
    codes = [rule.code for rule in catalog]
    assert codes and len(set(codes)) == len(codes)
    doc = (ROOT / "docs" / "rules.md").read_text()
    for rule in catalog:
        assert rule.severity in ("error", "warning")
        assert rule.summary and rule.fix and isinstance(rule.runtimes, list)
        assert f"| `{rule.code}` | {rule.severity} |" in doc, rule.code
    no_plugin = next(r for r in catalog if r.code == "detect/no-plugin")
    assert (no_plugin.severity, no_plugin.runtimes) == ("error", [])


def test_runtimes_is_the_registry_the_builder_knows() -> None:
    listed = plugforge.runtimes()
    files = plugforge.starter_source("demo")
    with pytest.raises(plugforge.UnsupportedRuntimeError) as unknown:
        plugforge.build(files, targets=["nonesuch"])
    assert str(unknown.value).endswith("known: " + ", ".join(r.id for r in listed)), unknown.value
    for runtime in listed:
        with pytest.raises(plugforge.UnsupportedKindError) as bad:
            plugforge.build(files, targets=[(runtime.id, "nonesuch")])
        assert str(bad.value).endswith("it supports: " + ", ".join(runtime.kinds)), bad.value
    first = listed[0]
    assert (first.id, first.name, first.kinds, first.in_target_all) == ("claude-code", "Claude Code", ["plugin", "project"], True)
    assert (first.marker, first.marketplace) == (".claude-plugin/plugin.json", ".claude-plugin/marketplace.json")
    assert "RuntimeInfo(id='claude-code'" in repr(first)
