"""The Python API's shape: inputs, options, results, exceptions and the host helpers."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, get_args

import pytest

import plugforge
from conftest import STRIATUM

HELLO = {
    "plugforge.json": b'{"name": "hello", "version": "1.0.0"}',
    "commands/hi.md": b"---\ndescription: Say hi\n---\nHi $ARGUMENTS\n",
    "bin/hello": b"#!/bin/sh\necho hi\n",
}
WHEN = "2026-01-01T00:00:00Z"


def created(build: plugforge.Build) -> dict[str, plugforge.Action]:
    return {a.path: a for a in build.plan(plugforge.Observed(), generated_at=WHEN).actions}


def test_mapping_and_source_files_build_the_same() -> None:
    files = [plugforge.SourceFile(path, data, executable=path.startswith("bin/")) for path, data in HELLO.items()]
    from_files = created(plugforge.build(files))
    from_mapping = created(plugforge.build(HELLO))
    assert from_files.keys() == from_mapping.keys()
    assert from_files["claude-code/bin/hello"].executable and not from_mapping["claude-code/bin/hello"].executable
    assert from_files["claude-code/commands/hi.md"].data == from_mapping["claude-code/commands/hi.md"].data


def test_content_is_bytes_never_str() -> None:
    with pytest.raises(TypeError, match="bytes, not str"):
        plugforge.build({"plugforge.json": '{"name": "x"}'})  # type: ignore[dict-item]
    with pytest.raises(TypeError, match="bytes, not str"):
        plugforge.SourceFile("a.md", "text")  # type: ignore[arg-type]
    assert plugforge.SourceFile("a.md", bytearray(b"x")).data == b"x"
    with pytest.raises(TypeError, match="read_tree"):
        plugforge.build(str(STRIATUM))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="read_tree"):
        plugforge.build(STRIATUM)  # type: ignore[arg-type]
    result = plugforge.build(HELLO)
    for bundle in result.bundles:
        for file in bundle.files:
            assert isinstance(file.data, bytes) and file.sha256 == hashlib.sha256(file.data).hexdigest()


def test_build_result_shape() -> None:
    result = plugforge.build(HELLO, targets=["claude-code"], generator=("runner", "2.0.0"))
    assert result.generator == ("runner", "2.0.0") and result.scope == "project"
    assert result.manifest_name == ".plugforge-manifest.json"
    (bundle,) = result.bundles
    assert (bundle.runtime, bundle.kind, bundle.root) == ("claude-code", "plugin", "claude-code")
    assert (bundle.namespace, bundle.plugin_name, bundle.plugin_version) == ("hello", "hello", "1.0.0")
    assert bundle.manifest == "claude-code/.plugforge-manifest.json"
    assert {f.path for f in bundle.files} >= {".claude-plugin/plugin.json", "commands/hi.md", "bin/hello"}
    assert all(h.level in ("supported", "degraded", "unsupported") for h in bundle.honesty)
    (market,) = result.marketplaces
    assert market.path == ".claude-plugin/marketplace.json" and market.entry["name"] == "hello"
    assert bundle.merges[0].part["kind"] == "marketplace_entry"
    assert result.paths_to_read() == [".claude-plugin/marketplace.json", "claude-code/.plugforge-manifest.json"]
    assert "GeneratedFile(path=" in repr(bundle.files[0]) and "Bundle(runtime='claude-code'" in repr(bundle)


@pytest.mark.parametrize(
    "targets",
    ["claude-code", ["claude-code"], [("claude-code", None)], [("claude-code", "plugin")],
     [{"runtime": "claude-code", "kind": "plugin"}]],
)
def test_target_forms(targets: Any) -> None:
    assert [b.runtime for b in plugforge.build(HELLO, targets=targets).bundles] == ["claude-code"]


def test_options_snake_case_camel_case_and_none() -> None:
    snake = plugforge.build(HELLO, manifest_name=".m.json", allow_urls=["https://x.test/"], namespace=None)
    camel = plugforge.build(HELLO, manifestName=".m.json", allowUrls=["https://x.test/"])
    assert snake.manifest_name == camel.manifest_name == ".m.json"
    assert plugforge.build(HELLO, marketplace=False, roots={"claude-code": "cc"}).bundles[0].root == "cc"
    assert plugforge.build(HELLO, marketplace=False).marketplaces == []


def test_bad_options_raise_invalid_options() -> None:
    with pytest.raises(plugforge.InvalidOptionsError) as caught:
        plugforge.build(HELLO, bogus_option=1)
    assert caught.value.code == "invalid_options" and "bogus_option" in str(caught.value)
    with pytest.raises(plugforge.InvalidOptionsError):
        plugforge.build(HELLO, vars={"n": 1})
    with pytest.raises(plugforge.InvalidOptionsError):
        plugforge.build(HELLO, manifest_name="a/b.json")
    with pytest.raises(TypeError, match="plain data"):
        plugforge.build(HELLO, vars={"a": object()})


def test_exception_classes_codes_and_problems() -> None:
    with pytest.raises(plugforge.PlugforgeError) as caught:
        plugforge.build({"plugforge.json": b'{"name": "x",}'})
    error = caught.value
    assert type(error) is plugforge.InvalidSourceError and isinstance(error, Exception)
    assert error.code == "invalid_source" and "invalid JSON" in str(error)
    assert error.problems == [{"message": error.problems[0]["message"],
                               "location": {"file": "plugforge.json", "line": 1, "column": 14}}]
    with pytest.raises(plugforge.InvalidPathError) as caught_path:
        plugforge.build({"../escape.md": b"x"})
    assert caught_path.value.code == "invalid_path" and caught_path.value.problems[0]["location"] is None
    with pytest.raises(plugforge.UnsupportedRuntimeError):
        plugforge.build(HELLO, targets=["nonesuch"])
    with pytest.raises(plugforge.UnsupportedKindError):
        plugforge.build(HELLO, targets=[("claude-code", "bogus")])
    with_url = {**HELLO, "commands/u.md": b"---\ndescription: u\n---\nsee https://example.com/x\n"}
    carried = plugforge.build(with_url)
    assert carried.urls == [{"url": "https://example.com/x", "files": ["commands/u.md"]}]
    assert carried.failures == []
    with pytest.raises(plugforge.UrlNotAllowedError):
        plugforge.build(with_url, deny_urls=True)
    with pytest.raises(plugforge.TemplateError):
        plugforge.build({**HELLO, "commands/t.md.j2": b"---\ndescription: t\n---\n{{ nope }}\n"})
    for cls in (plugforge.InvalidManifestError, plugforge.InvalidOptionsError, plugforge.TemplateError):
        assert issubclass(cls, plugforge.PlugforgeError) and cls.__module__ == "plugforge"


def test_plan_against_observed_and_the_host_helpers(tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = plugforge.build_to_dir(STRIATUM, out, generated_at=WHEN, vars={"runner_version": "0.7.3"})
    assert first.summary.create == first.writes == 18 and not first.refused
    assert os.access(out / "claude-code" / ".claude-plugin" / "plugin.json", os.R_OK)
    again = plugforge.build_to_dir(STRIATUM, out, generated_at="2030-01-01T00:00:00Z", vars={"runner_version": "0.7.3"})
    assert again.writes == 0 and again.summary.unchanged == 18

    status = out / "claude-code" / "commands" / "status.md"
    status.write_text("mine\n")
    with pytest.raises(plugforge.RefusedPlanError) as refused:
        plugforge.build_to_dir(STRIATUM, out, generated_at=WHEN, vars={"runner_version": "0.7.3"})
    assert refused.value.plan.summary.conflict == 1 and "status.md" in str(refused.value)
    assert status.read_text() == "mine\n"
    with pytest.raises(plugforge.RefusedPlanError):
        plugforge.apply_plan(out, refused.value.plan)
    forced = plugforge.build_to_dir(STRIATUM, out, force=True, generated_at=WHEN, vars={"runner_version": "0.7.3"})
    assert [a.path for a in forced.actions if a.op == "update"] == ["claude-code/commands/status.md"]


def test_a_plan_counts_its_manifests_and_apply_plan_lands_them_last(tmp_path: Path) -> None:
    out = tmp_path / "out"
    options: dict[str, Any] = {"targets": ["all"], "vars": {"runner_version": "0.7.3"}}
    plan = plugforge.build_to_dir(STRIATUM, out, generated_at=WHEN, **options)
    manifests = [a for a in plan.actions if a.path.endswith(".plugforge-manifest.json")]
    assert len(manifests) > 5 and plan.manifests == len(manifests)
    assert [a.path for a in plan.actions[-plan.manifests:]] == [a.path for a in manifests]
    for action in plan.actions:
        if action.op == "create":
            assert hashlib.sha256((out / action.path).read_bytes()).hexdigest() == action.sha256, action.path
    # Actions without the count (not one plan's) still apply, one at a time, to the same bytes.
    again = tmp_path / "again"
    built = plugforge.build(plugforge.read_tree(STRIATUM), **options)
    fresh = built.plan(plugforge.observe(again, built.paths_to_read()), generated_at=WHEN)
    plugforge.host._host_apply(str(again), list(fresh.actions))
    assert sorted(p.relative_to(again).as_posix() for p in again.rglob("*") if p.is_file()) == sorted(
        p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    for path in (p for p in out.rglob("*") if p.is_file()):
        assert (again / path.relative_to(out)).read_bytes() == path.read_bytes()
    # Bundles become Python objects only when asked for, and stay the same objects.
    assert built.bundles[0] is built.bundles[0] and len(built.marketplaces) >= 1


def test_observed_round_trip(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.json").write_bytes(b"{}")
    observed = plugforge.observe(tmp_path, ["a/x.json"])
    assert observed.hashes == {"a/x.json": plugforge.sha256_hex(b"{}")}
    assert observed.contents == {"a/x.json": b"{}"}
    assert plugforge.observe(tmp_path / "absent").hashes == {}
    assert plugforge.Observed({"p": "0" * 64}, {"p": b"x"}).contents == {"p": b"x"}
    assert plugforge.sha256_hex(b"abc") == hashlib.sha256(b"abc").hexdigest()


def test_read_tree_skips_vcs_dependencies_and_excluded_folders(tmp_path: Path) -> None:
    for rel in ["plugforge.json", ".git/HEAD", "node_modules/m/i.js", "target/t", "dist/old.md", "bin/run"]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(b"x")
    (tmp_path / "bin" / "run").chmod(0o755)
    files = {f.path: f for f in plugforge.read_tree(tmp_path, exclude=[tmp_path / "dist"])}
    assert sorted(files) == ["bin/run", "plugforge.json"]
    assert files["bin/run"].executable and not files["plugforge.json"].executable


def test_apply_plan_removes_and_cleans_emptied_folders(tmp_path: Path) -> None:
    with_extra = {**HELLO, "skills/extra/SKILL.md": b"---\nname: extra\ndescription: An extra skill\n---\nBody\n"}
    source = tmp_path / "src"
    for rel, data in with_extra.items():
        (source / rel).parent.mkdir(parents=True, exist_ok=True)
        (source / rel).write_bytes(data)
    out = tmp_path / "out"
    plugforge.build_to_dir(source, out, generated_at=WHEN)
    assert (out / "claude-code" / "skills" / "extra" / "SKILL.md").exists()
    assert (out / "claude-code" / "bin" / "hello").stat().st_mode & 0o777 == 0o644
    (source / "skills" / "extra" / "SKILL.md").unlink()
    plan = plugforge.build_to_dir(source, out, generated_at=WHEN)
    assert [a.op for a in plan.actions if "extra" in a.path] == ["remove"]
    assert not (out / "claude-code" / "skills").exists()


def test_generated_at_honours_source_date_epoch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "951782400")
    assert plugforge.generated_at() == "2000-02-29T00:00:00Z"
    plan = plugforge.build(HELLO).plan(plugforge.Observed())  # the host's clock by default
    (manifest,) = [a for a in plan.actions if a.path.endswith(".plugforge-manifest.json")]
    assert manifest.data and json.loads(manifest.data)["generated_at"] == "2000-02-29T00:00:00Z"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "not a number")
    assert plugforge.generated_at().endswith("Z") and plugforge.generated_at() != "2000-02-29T00:00:00Z"


def test_uninstall_and_doctor(tmp_path: Path) -> None:
    plugforge.build_to_dir(STRIATUM, tmp_path, generated_at=WHEN)
    observed = plugforge.observe(tmp_path, plugforge.doctor_paths_to_read(runtimes=["claude-code"]))
    assert plugforge.doctor(observed).healthy
    report = plugforge.doctor(observed, generator=("plugforge", "99.0.0"), build_command="make plugins")
    (finding,) = report.findings
    assert (finding.code, finding.severity, finding.fix) == ("plugin_outdated", "warning", "make plugins")
    observed = plugforge.observe(tmp_path, plugforge.uninstall_paths_to_read(runtimes="claude-code"))
    plan = plugforge.uninstall_plan(observed, runtimes=["claude-code"])
    assert {a.op for a in plan.actions} == {"remove"}
    plugforge.apply_plan(tmp_path, plan)
    assert list(tmp_path.iterdir()) == []


def literal_values(annotation: Any) -> set[str]:
    """The strings a ``Literal``, or a ``Union`` of them, allows."""
    arguments = get_args(annotation)
    if all(isinstance(a, str) for a in arguments):
        return set(arguments)
    return set().union(*(literal_values(a) for a in arguments))


def test_the_vocabulary_literals_hold_what_the_engine_returns() -> None:
    runtimes = literal_values(plugforge.RuntimeId)
    assert len(runtimes) >= 12 and {"claude-code", "codex", "universal"} <= runtimes
    listed = plugforge.runtimes()
    assert {r.id for r in listed} == runtimes
    assert {k for r in listed for k in r.kinds} == literal_values(plugforge.ArtifactKind)
    files = plugforge.read_tree(STRIATUM)
    result = plugforge.build(files, targets="all", vars={"runner_version": "0.7.3"})
    built = {b.runtime for b in result.bundles} | {f["runtime"] for f in result.failures}
    assert len(built) >= 11 and built <= runtimes
    assert {b.kind for b in result.bundles} <= literal_values(plugforge.ArtifactKind)
    rows = [h for b in result.bundles for h in b.honesty]
    assert rows and {h.component for h in rows} <= literal_values(plugforge.Component)
    assert {h.runtime for h in rows} <= runtimes and {h.kind for h in rows} <= literal_values(plugforge.ArtifactKind)
    catalog = plugforge.rules()
    assert {r.code for r in catalog} == literal_values(plugforge.RuleCode)
    assert {r for rule in catalog for r in rule.runtimes} <= runtimes
    assert literal_values(plugforge.Code) == literal_values(plugforge.RuleCode) | literal_values(
        plugforge.DiagnosticCode
    )
    codes = {d.code for d in result.diagnostics} | {d.code for b in result.bundles for d in b.diagnostics}
    assert codes <= literal_values(plugforge.DiagnosticCode)
    with pytest.raises(plugforge.UnsupportedRuntimeError, match="known: claude-code, codex"):
        plugforge.build(HELLO, targets="claude")


def test_starter_source_builds() -> None:
    files = plugforge.starter_source("my-plugin")
    assert all(isinstance(f, plugforge.SourceFile) for f in files)
    assert [b.plugin_name for b in plugforge.build(files).bundles] == ["my-plugin"]
    with pytest.raises(plugforge.InvalidOptionsError):
        plugforge.starter_source("Not Kebab")


def run_cli_in(cwd: Path, *argv: str, code: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    """``plugforge.run_cli(argv)`` in a child interpreter, after ``code``: the Rust command
    line writes to that process's own stdout and stderr, as ``python -m plugforge`` does."""
    script = f"import sys, plugforge\n{code}\nsys.exit(plugforge.run_cli({list(argv)!r}))"
    return subprocess.run(
        [sys.executable, "-c", script], cwd=cwd, capture_output=True, text=True, check=False,
        env={**os.environ, "NO_COLOR": "1", **env},
    )


def test_run_cli_runs_the_rust_command_line_over_real_folders(tmp_path: Path) -> None:
    init = run_cli_in(tmp_path, "init", "src")
    assert init.returncode == 0, init.stderr
    assert "  create   src/plugforge.json\n" in init.stdout
    built = run_cli_in(tmp_path, "build", "src", "--target", "claude-code", "--out", "o", "--json",
                       SOURCE_DATE_EPOCH="1778352131")
    assert built.returncode == 0, built.stderr
    report = json.loads(built.stdout)
    written = [p for p in (tmp_path / "o").rglob("*") if p.is_file()]
    assert report["ok"] and report["plan"]["summary"]["create"] == len(written)
    manifest = json.loads((tmp_path / "o" / "claude-code" / ".plugforge-manifest.json").read_text())
    assert manifest["generated_at"] == "2026-05-09T18:42:11Z"

    usage = run_cli_in(tmp_path, "build", "--bogus")
    assert (usage.returncode, usage.stdout) == (2, "")
    assert usage.stderr.startswith("error[usage]: unexpected argument '--bogus' found")
    missing = run_cli_in(tmp_path, "build", "absent", "--out", "o2")
    assert missing.returncode == 2 and missing.stderr.startswith("error[io]: absent")


def test_run_cli_flushes_what_python_buffered_first(tmp_path: Path) -> None:
    # A pipe makes sys.stdout block-buffered: unflushed, "python;" would come after the CLI's line.
    ran = run_cli_in(tmp_path, "--version", code="sys.stdout.write('python;'); sys.stderr.write('err;')")
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout == f"python;plugforge {plugforge.version()}\n"
    assert ran.stderr == "err;"


def test_a_runtime_that_cannot_be_built_is_listed_and_the_others_are_built() -> None:
    files = {**HELLO, "plugforge.json": b'{"name": "hello", "version": "1.0.0", "namespace": "hel_lo"}'}
    result = plugforge.build(files, targets=["claude-code", "gemini"])
    assert [b.runtime for b in result.bundles] == ["claude-code"]
    [failure] = result.failures
    assert failure["runtime"] == "gemini" and failure["error"]["code"] == "invalid_source"
    assert "letters, digits and dashes" in failure["error"]["problems"][0]["message"]


def test_run_cli_raises_a_panic_instead_of_dying(tmp_path: Path) -> None:
    ran = run_cli_in(tmp_path, "--version", PLUGFORGE_PANIC="1", code="""
try:
    plugforge.run_cli(["--version"])
except plugforge.PlugforgeError as e:
    print(type(e).__name__, e.code, e)
    sys.exit(0)""")
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.startswith(
        "PlugforgeError internal internal error in plugforge (please report it): PLUGFORGE_PANIC is set"
    ), ran.stdout
