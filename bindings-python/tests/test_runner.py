"""The Striatum-like runner (examples/runner_plugin_install.py) replays RFC 0025's
acceptance list: profile selection, idempotent regeneration, edit detection, --force,
--dry-run, manifest shape, marketplace append/update, uninstall, doctor and the
no-external-URL invariant."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from conftest import BINDING

RUNNER_PATH = BINDING / "examples" / "runner_plugin_install.py"
SKILLS = ["striatum-claim-loop", "striatum-recover", "striatum-scaffold", "striatum-supervise", "striatum-workflow"]
COMMANDS = ["claim-next", "dashboard", "doctor", "status", "why"]
RFC_TREE = sorted(
    [".manifest.json", ".claude-plugin/plugin.json", "hooks/hooks.json", ".mcp.json", "README.md"]
    + [f"skills/{s}/SKILL.md" for s in SKILLS]
    + [f"commands/{c}.md" for c in COMMANDS]
    # Beyond the RFC's list: the recovery sub-agent and the recover skill's reference page.
    + ["agents/striatum-recover.md", "skills/striatum-recover/references/stalled-runs.md"]
)


def load_runner() -> ModuleType:
    spec = importlib.util.spec_from_file_location("runner_plugin_install", RUNNER_PATH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


runner = load_runner()


class Target:
    """A target repo and the runner driven in-process against it."""

    def __init__(self, root: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.root = root
        self.capsys = capsys
        self.plugins = root / ".striatum" / "plugins"
        self.bundle = self.plugins / "claude_code"
        self.marketplace = self.plugins / ".claude-plugin" / "marketplace.json"

    def run(self, *argv: str, version: str = runner.VERSION) -> tuple[int, str, str]:
        self.capsys.readouterr()
        code = runner.main([*argv, "--target", str(self.root)], version=version)
        out, err = self.capsys.readouterr()
        return code, out, err

    def json(self, *argv: str, version: str = runner.VERSION) -> tuple[int, Any]:
        code, out, _ = self.run(*argv, "--json", version=version)
        return code, json.loads(out)

    def files(self) -> dict[str, bytes]:
        return {p.relative_to(self.plugins).as_posix(): p.read_bytes() for p in self.plugins.rglob("*") if p.is_file()}

    def manifest(self) -> Any:
        return json.loads((self.bundle / ".manifest.json").read_text())


@pytest.fixture
def target(tmp_path: Path, capsys: pytest.CaptureFixture[str], epoch: str) -> Target:
    return Target(tmp_path / "repo", capsys)


def test_install_writes_the_rfc_tree_and_marketplace(target: Target) -> None:
    code, report = target.json("plugin", "install", "--profile", "claude_code")
    assert code == 0 and report["ok"] and report["applied"]
    bundle = sorted(p.relative_to(target.bundle).as_posix() for p in target.bundle.rglob("*") if p.is_file())
    assert bundle == RFC_TREE
    plugin = json.loads((target.bundle / ".claude-plugin" / "plugin.json").read_text())
    assert plugin["name"] == "striatum" and plugin["version"] == "0.7.3" and plugin["license"] == "MIT"
    assert plugin["author"] == {"name": "Striatum"}
    market = json.loads(target.marketplace.read_text())
    assert market["name"] == "local-striatum"
    assert [(e["name"], e["source"]) for e in market["plugins"]] == [("striatum", "./claude_code")]


def test_rerun_is_byte_identical_with_zero_writes(target: Target, monkeypatch: pytest.MonkeyPatch) -> None:
    assert target.run("plugin", "install")[0] == 0
    before = target.files()
    stamps = {p: p.stat().st_mtime_ns for p in target.plugins.rglob("*") if p.is_file()}
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1900000000")  # a later clock: generated_at must not move
    code, report = target.json("plugin", "install")
    assert code == 0 and report["writes"] == 0
    assert report["summary"]["unchanged"] == len(before) and {a["op"] for a in report["actions"]} == {"unchanged"}
    assert target.files() == before
    assert {p: p.stat().st_mtime_ns for p in stamps} == stamps


def test_profile_selection(target: Target) -> None:
    code, report = target.json("plugin", "install", "--profile", "nope")
    assert code == 2 and report["error"]["code"] == "usage" and "unknown profile 'nope'" in report["error"]["message"]
    assert not target.plugins.exists(), "a refused profile writes nothing"
    assert target.run("plugin", "install", "--profile", "claude_code")[0] == 0
    assert sorted(p.name for p in target.plugins.iterdir()) == [".claude-plugin", "claude_code"]


@pytest.mark.parametrize("profile", ["codex", "gemini"])
def test_other_profiles_get_their_own_folder_or_a_clean_refusal(target: Target, profile: str) -> None:
    """Written once plugforge writes that runtime; until then refused before any write."""
    code, report = target.json("plugin", "install", "--profile", profile)
    if code == 0:
        assert (target.plugins / profile / ".manifest.json").exists()
        assert not (target.plugins / "claude_code").exists()
    else:
        assert (code, report["error"]["code"]) == (2, "unsupported_runtime"), report
        assert not target.plugins.exists()


def test_edited_command_is_kept_dry_run_names_it_force_overwrites(target: Target) -> None:
    target.run("plugin", "install")
    command = target.bundle / "commands" / "claim-next.md"
    generated = command.read_bytes()
    command.write_bytes(generated + b"\nMy own note.\n")

    code, report = target.json("plugin", "install")
    assert code == 1 and report["refused"] and not report["applied"]
    conflicts = [a for a in report["actions"] if a["op"] == "conflict"]
    assert [a["path"] for a in conflicts] == ["claude_code/commands/claim-next.md"]
    assert "edited" in conflicts[0]["reason"]
    assert command.read_bytes() == generated + b"\nMy own note.\n"

    code, out, _ = target.run("plugin", "install", "--dry-run")
    assert code == 1 and "conflict" in out and "commands/claim-next.md" in out and "nothing was written" in out
    assert command.read_bytes() == generated + b"\nMy own note.\n"

    code, report = target.json("plugin", "install", "--force")
    assert code == 0 and report["applied"] and command.read_bytes() == generated


def test_dry_run_writes_nothing(target: Target) -> None:
    code, out, _ = target.run("plugin", "install", "--dry-run")
    assert code == 0 and "create" in out and "dry run: nothing was written" in out
    assert not target.plugins.exists()


def test_manifest_shape(target: Target, epoch: str) -> None:
    target.run("plugin", "install")
    manifest = target.manifest()
    assert manifest["schema_version"] == "plugforge.manifest.v1"
    assert manifest["generator"] == {"name": "striatum", "version": "0.7.3"}
    assert manifest["generated_at"] == epoch and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", epoch)
    assert (manifest["runtime"], manifest["kind"], manifest["scope"]) == ("claude-code", "plugin", "project")
    assert manifest["namespace"] == "striatum" and manifest["plugin"] == {"name": "striatum", "version": "0.7.3"}
    listed = {f["path"]: f for f in manifest["files"]}
    assert sorted(listed) == [p for p in RFC_TREE if p != ".manifest.json"]
    for path, entry in listed.items():
        assert entry["sha256"] == hashlib.sha256((target.bundle / path).read_bytes()).hexdigest(), path
        assert entry["template"], path
    assert listed["commands/claim-next.md"]["template"] == "commands/claim-next.md.j2"


def test_version_is_stamped_into_every_file(target: Target) -> None:
    target.run("plugin", "install")
    for path in target.bundle.rglob("*.md"):
        assert "striatum 0.7.3" in path.read_text(), path
    assert "Striatum 0.7.3" in (target.bundle / "hooks" / "hooks.json").read_text()
    assert json.loads((target.bundle / ".claude-plugin" / "plugin.json").read_text())["version"] == "0.7.3"


def test_marketplace_append_keeps_others_and_version_bump_updates_in_place(target: Target) -> None:
    target.marketplace.parent.mkdir(parents=True)
    mine = {"name": "team", "owner": {"name": "me"}, "extra": 1, "plugins": [{"name": "other", "source": "./other"}]}
    target.marketplace.write_text(json.dumps(mine, indent=2) + "\n")
    assert target.run("plugin", "install")[0] == 0
    market = json.loads(target.marketplace.read_text())
    assert (market["name"], market["extra"], market["owner"]) == ("team", 1, {"name": "me"})
    assert [(e["name"], e.get("version")) for e in market["plugins"]] == [("other", None), ("striatum", "0.7.3")]

    code, report = target.json("plugin", "install", version="0.8.0")
    assert code == 0, report
    market = json.loads(target.marketplace.read_text())
    assert [(e["name"], e.get("version")) for e in market["plugins"]] == [("other", None), ("striatum", "0.8.0")]
    assert target.manifest()["generator"]["version"] == "0.8.0"
    assert "striatum 0.8.0" in (target.bundle / "commands" / "status.md").read_text()


def test_namespace_option(target: Target) -> None:
    assert target.run("plugin", "install", "--namespace", "stm")[0] == 0
    assert json.loads((target.bundle / ".claude-plugin" / "plugin.json").read_text())["name"] == "stm"
    assert "/stm:claim-next" in (target.bundle / "skills" / "striatum-workflow" / "SKILL.md").read_text()
    assert target.manifest()["namespace"] == "stm"


def test_uninstall_keeps_edits_unless_forced(target: Target) -> None:
    target.run("plugin", "install")
    edited = target.bundle / "commands" / "claim-next.md"
    edited.write_text("mine\n")
    code, report = target.json("plugin", "uninstall", "--profile", "claude_code")
    assert code == 0 and report["summary"]["keep"] == 1
    assert sorted(target.files()) == ["claude_code/.manifest.json", "claude_code/commands/claim-next.md"]
    assert edited.read_text() == "mine\n"
    assert [f["path"] for f in target.manifest()["files"]] == ["commands/claim-next.md"]

    code, report = target.json("plugin", "uninstall", "--profile", "claude_code", "--force")
    assert code == 0 and target.files() == {}
    assert not target.bundle.exists(), "emptied folders go too"


def test_uninstall_takes_only_its_entry_out_of_a_shared_marketplace(target: Target) -> None:
    target.marketplace.parent.mkdir(parents=True)
    target.marketplace.write_text(json.dumps({"name": "team", "plugins": [{"name": "other", "source": "./o"}]}))
    target.run("plugin", "install")
    assert target.run("plugin", "uninstall")[0] == 0
    assert json.loads(target.marketplace.read_text())["plugins"] == [{"name": "other", "source": "./o"}]
    assert sorted(target.files()) == [".claude-plugin/marketplace.json"]


def test_doctor_reports_missing_and_outdated_bundles(target: Target) -> None:
    target.run("plugin", "install")
    code, out, _ = target.run("doctor")
    assert code == 0 and out.startswith("healthy")

    for path in sorted(target.bundle.rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    target.bundle.rmdir()
    code, report = target.json("doctor", "--profile", "claude_code")
    assert code == 1 and not report["ok"]
    assert [f["code"] for f in report["findings"]] == ["plugin_missing"]
    assert report["findings"][0]["fix"].startswith("striatum plugin install --profile claude_code")

    target.run("plugin", "install")
    code, report = target.json("doctor", version="0.8.0")
    assert code == 1
    outdated = [f for f in report["findings"] if f["code"] == "plugin_outdated"]
    assert outdated and any("0.7.3" in f["message"] and "0.8.0" in f["message"] for f in outdated), outdated
    assert target.json("plugin", "install", version="0.8.0")[0] == 0
    assert target.json("doctor", version="0.8.0") == (0, {"ok": True, "profile": "claude_code", "findings": []})


def test_generated_output_holds_no_urls_and_no_outside_paths(target: Target) -> None:
    target.run("plugin", "install")
    for path, data in target.files().items():
        text = data.decode()
        assert not re.search(r"[a-z][a-z0-9+.-]*://", text, re.I), f"{path} holds a URL"
        assert str(target.root) not in text, f"{path} names the output root's absolute path"
        # A bundle README tells the reader to add the marketplace in the folder
        # above the bundle (`marketplace add ../`, run from the bundle): that is
        # an instruction to the user, not a path the bundle reads.
        lines = [line for line in text.splitlines() if "../" in line]
        outside = [line for line in lines if not re.fullmatch(r"\w+ plugin marketplace add (\.\./)+", line)]
        assert not outside, f"{path} points outside the bundle: {outside}"


def test_a_url_in_the_runner_templates_is_refused_and_nothing_is_written(
    target: Target, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    templates = tmp_path / "templates"
    shutil.copytree(runner.TEMPLATES, templates)
    status = templates / "commands" / "status.md.j2"
    status.write_text(status.read_text() + "\nDocs: https://docs.example.com/striatum\n")
    monkeypatch.setattr(runner, "TEMPLATES", templates)
    code, report = target.json("plugin", "install")
    assert code == 1 and report["ok"] is False, report
    assert report["error"]["code"] == "url_not_allowed", report
    assert "commands/status.md.j2" in report["error"]["message"], report
    assert not target.plugins.exists()


def test_user_scope_writes_under_home(target: Target, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    code, report = target.json("plugin", "install", "--scope", "user")
    assert code == 0 and report["out"] == str(tmp_path / "home" / ".striatum" / "plugins")
    manifest = json.loads((tmp_path / "home" / ".striatum" / "plugins" / "claude_code" / ".manifest.json").read_text())
    assert manifest["scope"] == "user"
    assert not target.plugins.exists()


def test_runs_as_a_program(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(RUNNER_PATH), "plugin", "install", "--target", str(tmp_path), "--json"],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["summary"]["create"] == len(RFC_TREE) + 1
