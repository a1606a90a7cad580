"""`python -m plugforge` behaves exactly like the Rust `plugforge` binary: same stdout
(modulo the output folder), same exit codes, same files written, for a build, --json,
a conflict, a usage error and the other verbs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, claude_bin

SOURCE = "examples/striatum"


class Pair:
    """The same command line run by both hosts, each with its own output folder."""

    def __init__(self, rust: list[str], python: list[str], tmp: Path) -> None:
        self.hosts = {"rust": rust, "python": python}
        self.outs = {name: tmp / name for name in self.hosts}

    def run(self, *argv: str) -> dict[str, tuple[int, str, str]]:
        results = {}
        for name, command in self.hosts.items():
            out = str(self.outs[name])
            args = [a.replace("{out}", out) for a in argv]
            proc = subprocess.run([*command, *args], cwd=ROOT, capture_output=True, text=True, check=False)
            # The output folder is the one thing that differs between the two runs.
            results[name] = (proc.returncode, proc.stdout.replace(out, "{out}"), proc.stderr.replace(out, "{out}"))
        return results

    def same(self, *argv: str, expect: int, stderr: bool = True) -> tuple[int, str, str]:
        results = self.run(*argv)
        rust, python = results["rust"], results["python"]
        assert python[1] == rust[1], "stdout differs"
        assert python[0] == rust[0] == expect, (rust, python)
        if stderr:
            assert python[2] == rust[2], "stderr differs"
        return rust

    def trees(self) -> dict[str, dict[str, tuple[bytes, int]]]:
        return {
            name: {p.relative_to(out).as_posix(): (p.read_bytes(), p.stat().st_mode & 0o777)
                   for p in sorted(out.rglob("*")) if p.is_file()}
            for name, out in self.outs.items()
        }


@pytest.fixture
def pair(cli_bin: Path, python_cli: list[str], tmp_path: Path, epoch: str) -> Pair:
    return Pair([str(cli_bin)], python_cli, tmp_path)


BUILD = ["build", SOURCE, "--target", "claude-code", "--out", "{out}", "--var", "runner_version=0.7.3"]


def test_build_then_rerun(pair: Pair) -> None:
    _, stdout, _ = pair.same(*BUILD, expect=0)
    assert "create" in stdout and "(18 writes)" in stdout
    trees = pair.trees()
    assert trees["python"] == trees["rust"], "the two hosts wrote different files"
    _, stdout, _ = pair.same(*BUILD, expect=0)
    assert stdout.endswith("(0 writes)\n")


def test_build_json_and_dry_run(pair: Pair) -> None:
    _, stdout, _ = pair.same(*BUILD, "--json", "--dry-run", expect=0)
    assert '"dry_run": true' in stdout and '"out": "{out}"' in stdout
    assert not any(pair.outs[name].exists() for name in pair.outs)
    pair.same(*BUILD, "--json", "-v", expect=0)


def test_conflict_is_refused_then_forced(pair: Pair) -> None:
    pair.same(*BUILD, expect=0)
    for out in pair.outs.values():
        (out / "claude-code" / "commands" / "status.md").write_text("edited by hand\n")
    _, stdout, stderr = pair.same(*BUILD, expect=1)
    assert "CONFLICT" in stdout and "refused: 1 conflict(s)" in stderr
    pair.same(*BUILD, "--json", expect=1)
    pair.same(*BUILD, "--force", expect=0)
    trees = pair.trees()
    assert trees["python"] == trees["rust"]


def test_usage_errors(pair: Pair) -> None:
    _, _, stderr = pair.same("build", "--bogus", expect=2)
    assert stderr.startswith("error[usage]:")
    pair.same("frobnicate", expect=2)
    pair.same("build", SOURCE, "--target", "nonesuch", "--out", "{out}", expect=2)
    pair.same("build", SOURCE, "--target", "nonesuch", "--out", "{out}", "--json", expect=2)


def test_suggestions_help_completions_and_man(pair: Pair) -> None:
    _, _, stderr = pair.same("biuld", expect=2)
    assert "a similar subcommand exists: 'build'" in stderr
    pair.same("build", "--dryrun", expect=2)
    pair.same("build", "--json=false", expect=2)
    for verb in ("init", "build", "uninstall", "doctor", "validate", "import", "verify"):
        pair.same(verb, "--help", expect=0)
    for shell in ("bash", "zsh", "fish"):
        pair.same("completions", shell, expect=0)
    pair.same("man", expect=0)
    pair.same("man", "--dir", "{out}", expect=0)
    trees = pair.trees()
    assert trees["python"] == trees["rust"] and "plugforge-build.1" in trees["rust"]


def test_targets_joined_repeated_and_after_a_double_dash(pair: Pair) -> None:
    pair.same("build", "--target", "claude-code,codex", "-t", "gemini", "--out", "{out}",
              "--var", "runner_version=0.7.3", "--", SOURCE, expect=0)
    trees = pair.trees()
    assert trees["python"] == trees["rust"]
    assert {p.split("/")[0] for p in trees["rust"]} >= {"claude-code", "codex", "gemini"}


def test_invalid_source_and_unreadable_folder(pair: Pair, tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "plugforge.json").write_text('{"name": "x",}')
    pair.same("build", str(broken), "--out", "{out}", expect=1)
    pair.same("build", str(broken), "--out", "{out}", "--json", expect=1)
    pair.same("build", str(tmp_path / "absent"), "--out", "{out}", expect=2)
    pair.same("build", str(tmp_path / "absent"), "--out", "{out}", "--json", expect=2)


def test_doctor_uninstall_version_help(pair: Pair) -> None:
    pair.same("doctor", "--target", "claude-code", "--out", "{out}", expect=1)
    pair.same(*BUILD, expect=0)
    pair.same("doctor", SOURCE, "--target", "claude-code", "--out", "{out}", "--var", "runner_version=0.7.3",
              expect=0)
    pair.same("doctor", "--target", "claude-code", "--out", "{out}", "--json", expect=0)
    pair.same("uninstall", "--target", "claude-code", "--out", "{out}", "--dry-run", expect=0)
    pair.same("uninstall", "--target", "claude-code", "--out", "{out}", expect=0)
    assert pair.trees() == {"rust": {}, "python": {}}
    pair.same("--version", expect=0)
    pair.same("--help", expect=0)


def test_init(pair: Pair) -> None:
    pair.same("init", "{out}/my-plugin", expect=0)
    trees = pair.trees()
    assert trees["python"] == trees["rust"] and trees["rust"]
    pair.same("init", "{out}/my-plugin", expect=1)


NO_PLUGIN = "tests/rules/detect/no-plugin"


def test_validate(pair: Pair, tmp_path: Path) -> None:
    _, stdout, _ = pair.same("validate", f"{NO_PLUGIN}/fail", expect=1)
    assert "error[detect/no-plugin]" in stdout and "\n    fix: " in stdout
    pair.same("validate", f"{NO_PLUGIN}/fail", "--json", expect=1)
    pair.same("validate", f"{NO_PLUGIN}/pass", expect=0)
    pair.same("validate", f"{NO_PLUGIN}/pass", "--strict", "--json", expect=0)
    pair.same("validate", f"{NO_PLUGIN}/pass", "--target", "nonesuch", expect=2)
    pair.same("validate", str(tmp_path / "absent"), "--json", expect=2)
    rust = pair.run("validate", f"{NO_PLUGIN}/pass", "--target", "codex")
    assert rust["python"] == rust["rust"]


def test_import(pair: Pair) -> None:
    plugin = f"{NO_PLUGIN}/pass"
    for argv in (
        ["import", plugin, "--out", "{out}/src"],
        ["import", plugin, "--out", "{out}/src", "--json"],  # never writes over an earlier import
    ):
        results = pair.run(*argv)
        assert results["python"] == results["rust"], argv
        trees = pair.trees()
        assert trees["python"] == trees["rust"], argv
    pair.same("import", plugin, "--from", "nonesuch", "--out", "{out}/other", expect=2)
    pair.same("import", plugin, expect=2)


def _without_millis(report: object) -> object:
    """A verify report without its timings, the one thing two runs differ by."""
    if isinstance(report, dict):
        return {k: _without_millis(v) for k, v in report.items() if k != "millis"}
    if isinstance(report, list):
        return [_without_millis(v) for v in report]
    return report


def test_verify(cli_bin: Path, python_cli: list[str], tmp_path: Path, epoch: str) -> None:
    """`python -m plugforge verify` is the Rust verify: no client on PATH or in a variable,
    so both skip every client with the same hint, and --require-clients fails both."""
    out = tmp_path / "out"
    subprocess.run([str(cli_bin), "build", SOURCE, "--target", "claude-code,cursor", "--out", str(out),
                    "--var", "runner_version=0.7.3"], cwd=ROOT, check=True, capture_output=True)
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PLUGFORGE_")}
    env.update(HOME=str(home), PATH=str(Path(sys.executable).parent), NO_COLOR="1")
    for extra, expect in (([], 0), (["--require-clients"], 1)):
        results = {}
        for name, command in (("rust", [str(cli_bin)]), ("python", python_cli)):
            proc = subprocess.run([*command, "verify", str(out), "--json", *extra], cwd=ROOT, env=env,
                                  capture_output=True, text=True, check=False)
            results[name] = (proc.returncode, _without_millis(json.loads(proc.stdout)), proc.stderr)
        assert results["python"] == results["rust"], extra
        code, report, _ = results["rust"]
        assert code == expect
        claude = report["bundles"][0]["clients"][0]
        assert claude["status"] == "skipped" and "plugforge verify --install" in claude["reason"]
        assert report["bundles"][1]["status"] == "not-judged"


def test_verify_with_a_real_client(cli_bin: Path, python_cli: list[str], tmp_path: Path, epoch: str) -> None:
    """With the real Claude Code found, both hosts run it and give the same verdict: passed, and
    failed naming the skill once a skill folder is deleted after the build."""
    claude = claude_bin()
    out = tmp_path / "out"
    subprocess.run([str(cli_bin), "build", SOURCE, "--target", "claude-code", "--out", str(out),
                    "--var", "runner_version=0.7.3"], cwd=ROOT, check=True, capture_output=True)

    def verify() -> tuple[int, object]:
        results = {}
        for name, command in (("rust", [str(cli_bin)]), ("python", python_cli)):
            proc = subprocess.run([*command, "verify", str(out), "--json", "--client", f"claude={claude}"],
                                  cwd=ROOT, capture_output=True, text=True, check=False)
            results[name] = (proc.returncode, _without_millis(json.loads(proc.stdout)), proc.stderr)
        assert results["python"] == results["rust"]
        code, report, _ = results["rust"]
        return code, report

    code, report = verify()
    assert code == 0, report
    assert report["bundles"][0]["clients"][0]["status"] == "passed"
    shutil.rmtree(out / "claude-code" / "skills" / "striatum-recover")
    code, report = verify()
    assert code == 1
    assert "striatum-recover" in json.dumps(report["bundles"][0])
