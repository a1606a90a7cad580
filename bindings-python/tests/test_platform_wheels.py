"""The abi3 wheels for the Linux platforms this machine is not (musl x86_64, glibc and
musl aarch64; scripts/test-python builds them with `maturin --zig`), each installed by pip
for the platform tag its own interpreter has, then run by that interpreter
(scripts/python-runtimes; qemu-user for aarch64):

- the extension module is the platform's (ELF machine, C library);
- `python -m plugforge build examples/striatum --target all` writes the Rust binary's bytes;
- the library API builds in memory and through the host filesystem.

PLUGFORGE_PLATFORM_WHEELS is `platform=wheel,...`; PLUGFORGE_PYTHON_RUNTIMES_DIR holds the
interpreters. A platform without its wheel or interpreter fails, unless
PLUGFORGE_SKIP_PLATFORMS=platform,... skips it by name."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import STRIATUM

# platform -> (ELF e_machine, the C library its extension module may link, the musl loader's name)
PLATFORMS = {
    "linux-x64-musl": (0x3E, "musl", "ld-musl-x86_64.so.1"),
    "linux-arm64-gnu": (0xB7, "glibc", None),
    "linux-arm64-musl": (0xB7, "musl", "ld-musl-aarch64.so.1"),
}
ARCH = {"linux-x64-musl": "x86_64", "linux-arm64-gnu": "aarch64", "linux-arm64-musl": "aarch64"}
EPOCH = "1778352131"

API = """
import pathlib, sys, plugforge
built = plugforge.build(plugforge.starter_source("smoke"), targets=["all"])
names = sorted(b.runtime for b in built.bundles)
src = pathlib.Path("src")
for f in plugforge.starter_source("smoke"):
    (src / f.path).parent.mkdir(parents=True, exist_ok=True)
    (src / f.path).write_bytes(f.data)
plan = plugforge.build_to_dir(src, "out", targets=["claude-code"])
again = plugforge.build_to_dir(src, "out", targets=["claude-code"])
assert plan.writes > 0 and again.writes == 0, (plan, again)
print(len(names), plan.writes, pathlib.Path(plugforge._plugforge.__file__).name)
"""


def wheels() -> dict[str, str]:
    listed = os.environ.get("PLUGFORGE_PLATFORM_WHEELS", "")
    return dict(item.split("=", 1) for item in listed.split(",") if item)


def skipped() -> set[str]:
    return {name for name in os.environ.get("PLUGFORGE_SKIP_PLATFORMS", "").split(",") if name}


@pytest.fixture(params=sorted(PLATFORMS))
def platform(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    if name in skipped():
        pytest.skip(f"{name} skipped by PLUGFORGE_SKIP_PLATFORMS")
    return name


def runtimes_dir() -> Path:
    listed = os.environ.get("PLUGFORGE_PYTHON_RUNTIMES_DIR")
    assert listed, "PLUGFORGE_PYTHON_RUNTIMES_DIR not set (scripts/test-python sets it)"
    return Path(listed)


def interpreter(platform: str) -> Path:
    python = runtimes_dir() / platform / "python"
    assert python.exists(), f"{python}: no interpreter for {platform} (scripts/python-runtimes)"
    return python


def platform_tags(platform: str, python: Path) -> list[str]:
    """The platform tags the platform's own interpreter accepts, newest first, found the way
    pip finds them: glibc's version from the interpreter, musl's from its loader's banner,
    and every older version of the same C library after it."""
    machine, libc, loader = PLATFORMS[platform]
    arch = ARCH[platform]
    if libc == "glibc":
        probe = [str(python), "-c", "import os; print(os.confstr('CS_GNU_LIBC_VERSION'))"]
        version = subprocess.run(probe, capture_output=True, text=True, check=True).stdout.split()[1]
        minor = int(version.split(".")[1])
        return [f"manylinux_2_{m}_{arch}" for m in range(minor, 16, -1)]
    assert loader
    deb_arch = "amd64" if machine == 0x3E else "arm64"
    command = [str(runtimes_dir() / f"musl-{deb_arch}" / loader)]
    if deb_arch == "arm64":
        command.insert(0, "/usr/bin/qemu-aarch64-static")
    banner = subprocess.run(command, capture_output=True, text=True, check=False).stderr
    found = re.search(r"Version 1\.(\d+)", banner)
    assert found, banner
    return [f"musllinux_1_{m}_{arch}" for m in range(int(found[1]), -1, -1)]


@pytest.fixture
def installed(platform: str, tmp_path: Path) -> tuple[Path, Path]:
    """The platform's interpreter and a folder pip installed the platform's wheel into."""
    wheel = wheels().get(platform)
    assert wheel and Path(wheel).exists(), f"no wheel for {platform} in PLUGFORGE_PLATFORM_WHEELS"
    python = interpreter(platform)
    tags = platform_tags(platform, python)
    site = tmp_path / "site"
    install = [
        sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-index",
        "--no-deps", "--only-binary=:all:", "--implementation", "cp", "--python-version", "3.11",
        "--abi", "abi3", "--target", str(site), wheel,
    ]  # fmt: skip
    for tag in tags:
        install += ["--platform", tag]
    result = subprocess.run(install, capture_output=True, text=True, check=False)
    assert result.returncode == 0, f"pip refused {Path(wheel).name} for {tags[0]}:\n{result.stderr}"
    return python, site


def run_env(site: Path, tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(site), SOURCE_DATE_EPOCH=EPOCH)
    env["PLUGFORGE_CACHE_DIR"] = str(tmp_path / "cache")
    env.pop("PYTHONHOME", None)
    return env


def tree(root: Path) -> dict[str, tuple[bytes, bool]]:
    return {
        str(path.relative_to(root)): (path.read_bytes(), os.access(path, os.X_OK))
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def test_the_extension_module_is_the_platforms(platform: str, installed: tuple[Path, Path]) -> None:
    _, site = installed
    (module,) = (site / "plugforge").glob("_plugforge*.so")
    header = module.read_bytes()[:20]
    assert header[:4] == b"\x7fELF" and int.from_bytes(header[18:20], "little") == PLATFORMS[platform][0]
    dynamic = subprocess.run(["readelf", "-d", str(module)], capture_output=True, text=True, check=True).stdout
    needed = set(re.findall(r"\(NEEDED\)\s+Shared library: \[(.+?)\]", dynamic))
    if PLATFORMS[platform][1] == "musl":
        # musl's loader is the C library under every one of these names.
        assert needed and needed <= {"libc.so", f"libc.musl-{ARCH[platform]}.so.1"}, needed
    else:
        assert "libc.so.6" in needed and not any("musl" in name for name in needed), needed


def test_python_m_plugforge_build_matches_the_rust_binary(
    platform: str, installed: tuple[Path, Path], cli_bin: Path, tmp_path: Path
) -> None:
    python, site = installed
    env = run_env(site, tmp_path)
    command = ["build", str(STRIATUM), "--target", "all", "--out"]
    foreign = subprocess.run([str(python), "-m", "plugforge", *command, str(tmp_path / "foreign")], env=env,
                             capture_output=True, text=True, check=False)
    assert foreign.returncode == 0, foreign.stderr
    native = subprocess.run([str(cli_bin), *command, str(tmp_path / "native")], env=env, capture_output=True,
                            text=True, check=False)
    assert native.returncode == 0, native.stderr
    written = tree(tmp_path / "foreign")
    assert len(written) > 100
    assert written == tree(tmp_path / "native")
    assert foreign.stdout.replace("foreign", "native") == native.stdout


def test_the_library_api_builds(platform: str, installed: tuple[Path, Path], tmp_path: Path) -> None:
    python, site = installed
    work = tmp_path / "work"
    work.mkdir()
    result = subprocess.run([str(python), "-c", API], cwd=work, env=run_env(site, tmp_path), capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stderr
    runtimes, writes, module = result.stdout.split()
    assert int(runtimes) >= 9 and int(writes) > 0 and module == "_plugforge.abi3.so", result.stdout
