"""The README's examples run as written, and the real Claude Code CLI accepts what they
(and the runner example) produce: `plugin validate --strict` with 0 warnings, marketplace
add, install and the component inventory. The client part needs PLUGFORGE_CLAUDE_BIN
(scripts/install-clients claude); a missing client fails unless skipped by name
(PLUGFORGE_SKIP_CLIENTS=claude)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import BINDING, ROOT, STRIATUM, claude_bin

BLOCKS = re.findall(r"```python\n(.*?)```", (BINDING / "README.md").read_text(), re.S)


def run_python(code: str) -> str:
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout


def inventory(plugin_dir: Path, marketplace_root: Path, plugin: str) -> Any:
    result = subprocess.run(
        ["python3", str(ROOT / "core" / "src" / "runtime" / "claude_code" / "drivers" / "claude_inventory.py"), "--claude", claude_bin(),
         "--plugin-dir", str(plugin_dir), "--marketplace-root", str(marketplace_root), "--plugin", plugin],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def assert_accepted(report: Any, source: Path) -> None:
    """Validated with 0 warnings, installed, and listing exactly the source's components."""
    for step in ("validate_plugin", "validate_marketplace"):
        result = report[step]
        assert (result["exit"], result["warnings"], result["errors"]) == (0, 0, 0), result["output"]
    for step in ("marketplace_add", "install", "details"):
        assert report[step]["exit"] == 0, report[step]
    details = report["details"]
    stems = sorted(p.name.split(".")[0] for p in [*(source / "skills").iterdir(), *(source / "commands").iterdir()])
    assert details["skills"] == stems and len(stems) == 10, details["raw"]
    assert details["agents"] == ["striatum-recover"], details["raw"]
    assert details["hooks"] == ["PreToolUse", "Stop"] and details["mcp_servers"] == [], details["raw"]


def test_the_ten_line_example(tmp_path: Path) -> None:
    code = BLOCKS[1].replace("dist/hello", str(tmp_path / "hello"))
    assert code != BLOCKS[1] and len(BLOCKS[1].strip().splitlines()) <= 12
    out = run_python(code)
    assert "create claude-code/commands/hi.md" in out
    assert (tmp_path / "hello" / "claude-code" / ".plugforge-manifest.json").exists()


def test_the_three_line_example_is_accepted_by_claude_code(tmp_path: Path) -> None:
    example = BLOCKS[0]
    assert len(example.strip().splitlines()) == 3 and "dist/striatum" in example
    out_dir = tmp_path / "striatum"
    assert run_python(example.replace("dist/striatum", str(out_dir))).strip().endswith("18 writes")
    assert run_python(example.replace("dist/striatum", str(out_dir))).strip().endswith(" 0 writes")
    assert_accepted(inventory(out_dir / "claude-code", out_dir, "striatum"), STRIATUM)


def test_the_runner_bundle_is_accepted_by_claude_code(tmp_path: Path) -> None:
    """RFC 0025: `/plugin marketplace add ./.striatum/plugins/` then `/plugin install striatum@local-striatum`."""
    runner = BINDING / "examples" / "runner_plugin_install.py"
    subprocess.run([sys.executable, str(runner), "plugin", "install", "--target", str(tmp_path)], check=True,
                   capture_output=True)
    plugins = tmp_path / ".striatum" / "plugins"
    assert_accepted(inventory(plugins / "claude_code", plugins, "striatum"), runner.parent / "runner_templates")
