"""The source distribution scripts/test-python built (`maturin sdist`), installed with pip
into a FRESH venv: pip compiles the engine from the sdist's files alone (the templates
travel inside the core crate), and the installed `python -m plugforge` builds the
Striatum example byte for byte as the Rust CLI does. PLUGFORGE_SDIST names the sdist."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tarfile
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MATURIN = "maturin==1.16.0"


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    sdist = os.environ.get("PLUGFORGE_SDIST")
    if not sdist:
        pytest.skip("PLUGFORGE_SDIST not set (scripts/test-python builds the sdist and sets it)")
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
    assert any(n.endswith("/core/templates/claude-code/README.md.j2") for n in names), "no templates in the sdist"
    env_dir = tmp_path_factory.mktemp("sdist-venv")
    venv.create(env_dir, with_pip=False, clear=True)
    python = env_dir / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--disable-pip-version-check"]
    # The build backend goes into the fresh venv (pip's cache serves it); the sdist is
    # built there without build isolation, into the workspace's target folder, where
    # the release wheel's build left every dependency compiled with the same settings.
    subprocess.run([*pip, MATURIN], check=True)
    # maturin's backend runs the `maturin` executable: the fresh venv's comes first on PATH.
    path = os.pathsep.join([str(env_dir / "bin"), os.environ.get("PATH", "")])
    env = dict(os.environ, CARGO_TARGET_DIR=os.environ.get("CARGO_TARGET_DIR") or str(ROOT / "target"), PATH=path)
    subprocess.run([*pip, "--no-build-isolation", "--no-deps", sdist], check=True, env=env)
    return python


def tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_the_installed_sdist_builds_striatum_as_the_rust_cli_does(fresh: Path, tmp_path: Path) -> None:
    args = ["build", str(ROOT / "examples/striatum"), "--target", "all", "--var", "runner_version=0.7.3", "--out"]
    env = dict(os.environ, SOURCE_DATE_EPOCH="1767225600")
    python = subprocess.run([str(fresh), "-m", "plugforge", *args, str(tmp_path / "py")], capture_output=True,
                            text=True, check=False, env=env, cwd=tmp_path)
    assert python.returncode == 0, python.stderr
    rust = subprocess.run([os.environ["PLUGFORGE_CLI_BIN"], *args, str(tmp_path / "rs")], capture_output=True,
                          text=True, check=False, env=env)
    assert rust.returncode == 0, rust.stderr
    built = tree(tmp_path / "py")
    assert "claude-code/.claude-plugin/plugin.json" in built and len(built) > 100, sorted(built)[:10]
    assert built == tree(tmp_path / "rs")
