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
import referencing

import plugforge
from conftest import ROOT, STRIATUM, case_dirs

SCHEMA = json.loads((ROOT / "schema" / "validate-report.schema.json").read_text())
# Its runtime ids are those of the source schema beside it ($ref "plugforge.schema.json#/$defs/runtime").
SOURCE_SCHEMA = referencing.Resource.from_contents(json.loads((ROOT / "schema" / "plugforge.schema.json").read_text()))
VALIDATOR = jsonschema.Draft202012Validator(
    SCHEMA, registry=referencing.Registry().with_resource("plugforge.schema.json", SOURCE_SCHEMA)
)
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


def test_a_runtime_id_is_one_the_source_schema_lists() -> None:
    subject = {"kind": "plugin", "runtime": "codex", "root": "", "marker": ".codex-plugin/plugin.json"}
    report = {"schema": "plugforge.validate.v1", "valid": True, "strict": False, "subjects": [subject],
              "errors": 0, "warnings": 0, "findings": []}
    check({"ok": True, "report": report})
    unknown = {**report, "subjects": [{**subject, "runtime": "nonesuch"}]}
    assert list(VALIDATOR.iter_errors({"ok": True, "report": unknown})), "an unknown runtime id conforms"
