"""Every golden vector through the Python binding: same path set, bytes and executable
bits as `expected/` (also once written to disk by `apply_plan`), sha256 of every
manifest-listed file recomputed with hashlib, the honesty rows and diagnostics as
report.json; failing cases raise the exception class
of their code. Every rule fixture (<area>/<what>/{fail,pass}) validated gives exactly its
blessed report; every import case exactly its expected/ source and notes.json. The cases are
those scripts/lib/conformance_cases.py lists (tests/<suite>/ and each runtime's folder); the
names run are recorded for scripts/check-conformance."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Iterator

import pytest

import plugforge
from conftest import ROOT, case_dirs

VECTORS = case_dirs("vectors")
RULES = case_dirs("rules")
IMPORTS = case_dirs("imports")
CASES = list(VECTORS)
RULE_SIDES = [f"{code}/{side}" for code in RULES for side in ("fail", "pass")]
IMPORT_CASES = list(IMPORTS)

ERRORS = {
    "invalid_source": plugforge.InvalidSourceError,
    "invalid_path": plugforge.InvalidPathError,
    "template": plugforge.TemplateError,
    "unsupported_runtime": plugforge.UnsupportedRuntimeError,
    "unsupported_kind": plugforge.UnsupportedKindError,
    "url_not_allowed": plugforge.UrlNotAllowedError,
    "invalid_options": plugforge.InvalidOptionsError,
    "invalid_manifest": plugforge.InvalidManifestError,
    "limit": plugforge.LimitError,
    "credential": plugforge.CredentialError,
}

Tree = dict[str, tuple[bytes, bool]]


def _marker_files() -> str:
    """Every marketplace file, then every plugin marker, each once, in registry order: what a
    blessed report's `{markers}` stands for (so adding a runtime changes no fixture; tests/src/rules.rs)."""
    listed = plugforge.runtimes()
    files = [r.marketplace for r in listed] + [r.marker for r in listed]
    return ", ".join(dict.fromkeys(f for f in files if f))


MARKER_FILES = _marker_files()


def expand_placeholders(value: object) -> object:
    """`value` with each `{markers}` in its strings expanded."""
    if isinstance(value, str):
        return value.replace("{markers}", MARKER_FILES)
    if isinstance(value, list):
        return [expand_placeholders(v) for v in value]
    if isinstance(value, dict):
        return {k: expand_placeholders(v) for k, v in value.items()}
    return value


RAN: dict[str, list[str]] = {"": [], ".rules": [], ".imports": []}


@pytest.fixture(scope="module", autouse=True)
def record() -> Iterator[None]:
    """Writes the names of the cases that passed to <conformance dir>/python{,.rules,.imports}.json
    (an empty suite is recorded too: the guard tells "ran none of none" from "did not run")."""
    yield
    record = Path(os.environ.get("PLUGFORGE_CONFORMANCE_DIR") or ROOT / "target" / "conformance")
    record.mkdir(parents=True, exist_ok=True)
    for suffix, names in RAN.items():
        (record / f"python{suffix}.json").write_text(json.dumps(sorted(names), indent=2) + "\n")


def files_below(root: Path) -> Tree:
    """Every file below `root`: relative path -> (bytes, executable)."""
    tree: Tree = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        tree[path.relative_to(root).as_posix()] = (path.read_bytes(), os.access(path, os.X_OK))
    return tree


def run_case(case_dir: Path) -> tuple[plugforge.Build, plugforge.Plan]:
    case = json.loads((case_dir / "case.json").read_text())
    source = case_dir / (case.get("source") or "input")
    # The core's camelCase options pass through as keyword arguments.
    result = plugforge.build(plugforge.read_tree(source), **case["options"])
    return result, result.plan(plugforge.Observed(), generated_at=case["generatedAt"])


def test_every_vector_is_run() -> None:
    assert len(CASES) >= 10, f"vectors went missing: {CASES}"


@pytest.mark.parametrize("name", CASES)
def test_vector(name: str, tmp_path: Path) -> None:
    case_dir = VECTORS[name]
    expected_error = case_dir / "error.json"
    if expected_error.exists():
        check_error(case_dir, json.loads(expected_error.read_text()))
    else:
        check_tree(case_dir, tmp_path)
    RAN[""].append(name)


def check_tree(case_dir: Path, out: Path) -> None:
    result, plan = run_case(case_dir)
    produced: Tree = {}
    for action in plan.actions:
        assert action.op == "create", f"{action.path}: a fresh root only creates"
        assert action.data is not None
        assert action.sha256 == hashlib.sha256(action.data).hexdigest()
        produced[action.path] = (action.data, action.executable)
    expected = files_below(case_dir / "expected")
    assert sorted(produced) == sorted(expected), "path set differs"
    for path, (data, executable) in produced.items():
        assert data == expected[path][0], f"{path} differs"
        assert executable == expected[path][1], f"{path} executable bit"
    check_hashes(result, produced)
    check_report(result, case_dir)
    plugforge.apply_plan(out, plan)
    assert files_below(out) == expected, "apply_plan wrote a different tree"


def check_hashes(result: plugforge.Build, tree: Tree) -> None:
    """Every manifest entry's sha256 equals hashlib's hash of the produced bytes."""
    checked = 0
    for bundle in result.bundles:
        manifest = json.loads(tree[bundle.manifest][0])
        for entry in manifest["files"]:
            rel = f"{bundle.root}/{entry['path']}" if bundle.root else entry["path"]
            data, executable = tree[rel]
            assert entry["sha256"] == hashlib.sha256(data).hexdigest(), f"{rel} sha256"
            assert entry.get("executable", False) == executable, f"{rel} mode"
            checked += 1
    assert checked > 0, "no manifest entries checked"


def location_json(location: plugforge.Location | None) -> dict[str, object] | None:
    if location is None:
        return None
    fields = {"file": location.file, "line": location.line, "column": location.column}
    return {k: v for k, v in fields.items() if v is not None}


def diagnostic_json(d: plugforge.Diagnostic) -> dict[str, object]:
    fields = {"severity": d.severity, "code": d.code, "message": d.message, "location": location_json(d.location)}
    return {k: v for k, v in fields.items() if v is not None}


def check_report(result: plugforge.Build, case_dir: Path) -> None:
    """The honesty rows and diagnostics, rebuilt from their attributes, are report.json."""
    report = {
        "bundles": [
            {
                "runtime": b.runtime,
                "kind": b.kind,
                "honesty": [
                    {"component": h.component, "name": h.name, "runtime": h.runtime, "kind": h.kind,
                     "level": h.level, "detail": h.detail}
                    for h in b.honesty
                ],
                "diagnostics": [diagnostic_json(d) for d in b.diagnostics],
            }
            for b in result.bundles
        ],
        "diagnostics": [diagnostic_json(d) for d in result.diagnostics],
        "failures": result.failures,
    }
    want = json.loads((case_dir / "report.json").read_text())
    assert report == want, "honesty rows or diagnostics differ"


def check_error(case_dir: Path, expected: dict[str, object]) -> None:
    with pytest.raises(plugforge.PlugforgeError) as caught:
        run_case(case_dir)
    error = caught.value
    assert type(error) is ERRORS[str(expected["code"])], repr(error)
    assert error.code == expected["code"]
    assert str(expected["message_contains"]) in str(error)
    location = error.problems[0]["location"]
    assert (location and location["file"]) == expected["file"], error.problems
    assert (location and location["line"]) == expected["line"], error.problems


def report_json(report: plugforge.ValidationReport) -> dict[str, object]:
    """The report rebuilt from its attributes in the JSON shape (absent fields left out)."""
    def finding(f: plugforge.ValidationFinding) -> dict[str, object]:
        fields = {"code": f.code, "severity": f.severity, "runtime": f.runtime, "file": f.file,
                  "line": f.line, "column": f.column, "message": f.message, "fix": f.fix}
        return {k: v for k, v in fields.items() if v is not None}

    return {
        "schema": report.schema,
        "valid": report.valid,
        "strict": report.strict,
        "subjects": [{"kind": s.kind, "runtime": s.runtime, "root": s.root, "marker": s.marker}
                     for s in report.subjects],
        "errors": report.errors,
        "warnings": report.warnings,
        "findings": [finding(f) for f in report.findings],
    }


@pytest.mark.parametrize("name", RULE_SIDES)
def test_rule_fixture(name: str) -> None:
    code, side = name.rsplit("/", 1)
    case_dir = RULES[code]
    options = json.loads((case_dir / "case.json").read_text()).get("options", {})
    report = plugforge.validate(plugforge.read_tree(case_dir / side), **options)
    expected = expand_placeholders(json.loads((case_dir / f"{side}.json").read_text()))
    assert report_json(report) == expected
    assert report.as_dict() == expected
    assert any(f.code == code for f in report.findings) == (side == "fail")
    RAN[".rules"].append(name)


@pytest.mark.parametrize("name", IMPORT_CASES)
def test_import_case(name: str) -> None:
    case_dir = IMPORTS[name]
    options = json.loads((case_dir / "case.json").read_text()).get("options", {})
    imported = plugforge.import_plugin(plugforge.read_tree(case_dir / "input"),
                                       from_runtime=options.get("from"), name=options.get("name"))
    produced = {f.path: (f.data, f.executable) for f in imported.files}
    assert produced == files_below(case_dir / "expected")
    notes = [{"code": n.code, "location": {k: v for k, v in (("file", n.location.file),
                                                            ("line", n.location.line),
                                                            ("column", n.location.column)) if v is not None},
              "message": n.message} for n in imported.notes]
    assert notes == json.loads((case_dir / "notes.json").read_text())
    RAN[".imports"].append(name)
