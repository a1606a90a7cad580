"""schema/validate-report.schema.json is the contract of `plugforge validate --json`: it is a
valid draft 2020-12 schema, every blessed report (each rule fixture's {fail,pass}.json) and every
output of the Rust binary (valid, invalid, strict, --target, refused options) conforms to it,
and so does the Python binding's ``as_dict()``."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import plugforge
from conftest import ROOT, STRIATUM, case_dirs

SCHEMA = json.loads((ROOT / "schema" / "validate-report.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
RULES = case_dirs("rules")
BLESSED = {f"{code}/{side}": RULES[code] / f"{side}.json" for code in RULES for side in ("fail", "pass")}
FOLDERS = [p.parent / p.stem for p in BLESSED.values()]


def check(document: Any) -> None:
    errors = sorted(VALIDATOR.iter_errors(document), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)


def test_the_schema_is_draft_2020_12() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("name", list(BLESSED))
def test_every_blessed_report_conforms(name: str) -> None:
    report = json.loads(BLESSED[name].read_text())
    check({"ok": report["valid"], "report": report})


def cli(cli_bin: Path, *argv: str) -> tuple[int, Any]:
    proc = subprocess.run([str(cli_bin), "validate", *argv, "--json"], capture_output=True, text=True, check=False)
    return proc.returncode, json.loads(proc.stdout)


@pytest.mark.parametrize("extra", [[], ["--strict"], ["--target", "codex"]], ids=["plain", "strict", "target"])
def test_the_binary_output_conforms(cli_bin: Path, extra: list[str]) -> None:
    for folder in [*FOLDERS, STRIATUM, ROOT / "tests" / "vectors"]:
        code, output = cli(cli_bin, str(folder), *extra)
        check(output)
        assert code == (0 if output["ok"] else 1), folder


def test_a_refusal_conforms(cli_bin: Path, tmp_path: Path) -> None:
    for argv in ([str(STRIATUM), "--target", "nonesuch"], [str(tmp_path / "absent")]):
        code, output = cli(cli_bin, *argv)
        assert code == 2 and output["ok"] is False
        check(output)


def test_the_bindings_report_conforms() -> None:
    report = plugforge.validate(plugforge.read_tree(STRIATUM), strict=True)
    check({"ok": report.valid, "report": report.as_dict()})
