"""Shared fixtures: where the repository, the conformance cases and the Rust binary are."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BINDING = ROOT / "bindings-python"
STRIATUM = ROOT / "examples" / "striatum"

# Where the golden vectors, rule fixtures and import cases are: the one
# listing every host asks (tests/<suite>/ and each runtime's folder).
sys.path.insert(0, str(ROOT / "scripts" / "lib"))
import conformance_cases  # noqa: E402


def case_dirs(suite: str) -> dict[str, Path]:
    """Every case of `suite` (vectors, rules, imports): name -> folder, sorted by name."""
    return {case["name"]: case["dir"] for case in conformance_cases.cases(suite)}


@pytest.fixture(scope="session")
def cli_bin() -> Path:
    """The Rust `plugforge` binary (`cargo build -p plugforge-cli`), built if missing."""
    path = Path(os.environ.get("PLUGFORGE_CLI_BIN") or ROOT / "target" / "debug" / "plugforge")
    if not path.exists():
        subprocess.run(["cargo", "build", "-p", "plugforge-cli"], cwd=ROOT, check=True)
    return path


@pytest.fixture
def python_cli() -> list[str]:
    """`python -m plugforge` with this interpreter (the installed package)."""
    return [sys.executable, "-m", "plugforge"]


@pytest.fixture
def epoch(monkeypatch: pytest.MonkeyPatch) -> str:
    """A fixed SOURCE_DATE_EPOCH (2026-05-09T18:42:11Z) for reproducible manifests."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1778352131")
    return "2026-05-09T18:42:11Z"


def claude_bin() -> str:
    """The real Claude Code the suite pinned (PLUGFORGE_CLAUDE_BIN): a missing one fails the test
    unless PLUGFORGE_SKIP_CLIENTS names it, and then the test is skipped, saying so."""
    binary = os.environ.get("PLUGFORGE_CLAUDE_BIN", "")
    if binary and Path(binary).exists():
        return binary
    skip = [s.strip() for s in os.environ.get("PLUGFORGE_SKIP_CLIENTS", "").split(",")]
    if "claude" not in skip:
        pytest.fail("PLUGFORGE_CLAUDE_BIN is not set to a binary: install the client "
                    "(scripts/install-clients claude) or skip it by name (PLUGFORGE_SKIP_CLIENTS=claude)")
    pytest.skip("claude is listed in PLUGFORGE_SKIP_CLIENTS")
