"""Every golden vector through the Python binding: same path set, bytes and executable
bits as `expected/` (also once written to disk by `apply_plan`), sha256 of every
manifest-listed file recomputed with hashlib; failing cases raise the exception class
of their code. The names run are recorded for scripts/check-conformance."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Iterator

import pytest

import plugforge
from conftest import ROOT, VECTORS

CASES = sorted(p.name for p in VECTORS.iterdir() if p.is_dir())

ERRORS = {
    "invalid_source": plugforge.InvalidSourceError,
    "invalid_path": plugforge.InvalidPathError,
    "template": plugforge.TemplateError,
    "unsupported_runtime": plugforge.UnsupportedRuntimeError,
    "unsupported_kind": plugforge.UnsupportedKindError,
    "url_not_allowed": plugforge.UrlNotAllowedError,
    "invalid_options": plugforge.InvalidOptionsError,
    "invalid_manifest": plugforge.InvalidManifestError,
}

Tree = dict[str, tuple[bytes, bool]]


@pytest.fixture(scope="module")
def ran() -> Iterator[list[str]]:
    """Names of the vectors that passed, written to <conformance dir>/python.json."""
    names: list[str] = []
    yield names
    record = Path(os.environ.get("PLUGFORGE_CONFORMANCE_DIR") or ROOT / "target" / "conformance")
    record.mkdir(parents=True, exist_ok=True)
    (record / "python.json").write_text(json.dumps(sorted(names), indent=2) + "\n")


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
def test_vector(name: str, ran: list[str], tmp_path: Path) -> None:
    case_dir = VECTORS / name
    expected_error = case_dir / "error.json"
    if expected_error.exists():
        check_error(case_dir, json.loads(expected_error.read_text()))
    else:
        check_tree(case_dir, tmp_path)
    ran.append(name)


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
