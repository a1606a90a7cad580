"""The abi3 wheel scripts/test-python built, installed into a FRESH venv (no repository
files, no build tools): a smoke build through the installed package and
`python -m plugforge --version`. PLUGFORGE_WHEEL names the wheel."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

SMOKE = """
import pathlib, sys, plugforge
src = pathlib.Path("src")
for f in plugforge.starter_source("smoke"):
    (src / f.path).parent.mkdir(parents=True, exist_ok=True)
    (src / f.path).write_bytes(f.data)
plan = plugforge.build_to_dir(src, "out", targets=["claude-code"])
again = plugforge.build_to_dir(src, "out", targets=["claude-code"])
assert plan.writes > 0 and again.writes == 0, (plan, again)
assert pathlib.Path("out/claude-code/.claude-plugin/plugin.json").exists()
print("smoke", plan.writes, "writes from", pathlib.Path(plugforge.__file__).parent)
"""


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    wheel = os.environ.get("PLUGFORGE_WHEEL")
    if not wheel:
        pytest.skip("PLUGFORGE_WHEEL not set (scripts/test-python builds the wheel and sets it)")
    assert "-abi3-" in Path(wheel).name and "-cp39-" in Path(wheel).name, wheel
    env_dir = tmp_path_factory.mktemp("fresh-venv")
    venv.create(env_dir, with_pip=False, clear=True)
    python = env_dir / "bin" / "python"
    # This interpreter's pip installs into the fresh venv (`--python`): no ensurepip run, no index.
    install = ["-m", "pip", "--python", str(python), "install", "--quiet", "--no-index", "--no-deps", wheel]
    subprocess.run([sys.executable, *install], check=True)
    return python


def test_smoke_build_through_the_installed_wheel(fresh: Path, tmp_path: Path) -> None:
    result = subprocess.run([str(fresh), "-c", SMOKE], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert "site-packages" in result.stdout and str(Path(sys.prefix)) not in result.stdout


def test_python_m_plugforge_version(fresh: Path, tmp_path: Path) -> None:
    result = subprocess.run([str(fresh), "-m", "plugforge", "--version"], cwd=tmp_path, capture_output=True, text=True,
                            check=False)
    version = Path(os.environ["PLUGFORGE_WHEEL"]).name.split("-")[1]
    assert (result.returncode, result.stdout) == (0, f"plugforge {version}\n"), result.stderr
    script = subprocess.run([str(fresh.parent / "plugforge"), "--version"], capture_output=True, text=True, check=False)
    assert script.stdout == result.stdout
