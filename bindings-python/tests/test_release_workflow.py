"""The Python release workflow (.github/workflows/release-python.yml) is not run here, so it
is read: valid YAML of the shape GitHub runs, a wheel for every platform the package ships
(each Linux platform scripts/test-python cross-builds and runs among them, with the same
target and compatibility), a smoke test on real runners, and publishing only after all of
them, through PyPI's trusted publishing."""

from __future__ import annotations

import re
from typing import Any

import yaml

from conftest import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "release-python.yml"
SHIPPED = {
    "linux-x64-gnu", "linux-arm64-gnu", "linux-x64-musl", "linux-arm64-musl",
    "darwin-x64", "darwin-arm64", "win32-x64", "win32-arm64",
}  # fmt: skip


def workflow() -> dict[str, Any]:
    loaded = yaml.safe_load(WORKFLOW.read_text())
    assert isinstance(loaded, dict)
    return loaded


def platforms_cross_built_here() -> dict[str, tuple[str, str]]:
    """platform -> (target, compatibility), from scripts/test-python's PLATFORMS list."""
    script = (ROOT / "scripts" / "test-python").read_text()
    block = re.search(r"<<'PLATFORMS'\n(.*?)\nPLATFORMS\n", script, re.S)
    assert block, "scripts/test-python lists its cross-built platforms"
    rows = [line.split() for line in block[1].splitlines()]
    return {platform: (target, compatibility) for platform, target, compatibility in rows}


def test_it_runs_on_a_version_tag_and_every_job_is_runnable() -> None:
    flow = workflow()
    # PyYAML reads the bare key `on` as True (YAML 1.1); GitHub reads it as "on".
    triggers = flow.get("on", flow.get(True))
    assert triggers["push"]["tags"] == ["v*"]
    assert flow["permissions"] == {"contents": "read"}
    for name, job in flow["jobs"].items():
        assert job["runs-on"], name
        for step in job["steps"]:
            assert ("uses" in step) != ("run" in step), f"{name}: a step needs exactly one of uses and run"


def test_a_wheel_for_every_shipped_platform_and_the_ones_tested_here_alike() -> None:
    rows = workflow()["jobs"]["wheels"]["strategy"]["matrix"]["include"]
    by_platform = {row["platform"]: row for row in rows}
    assert set(by_platform) == SHIPPED and len(rows) == len(SHIPPED)
    for platform, row in by_platform.items():
        is_linux = platform.startswith("linux-")
        assert ("manylinux" in row) == is_linux, platform
        arch = "x86_64" if "-x64" in platform else "aarch64"
        assert row["target"].startswith(arch + "-"), row
        if is_linux:
            libc = "musl" if platform.endswith("-musl") else "gnu"
            assert row["target"].endswith("-linux-" + libc), row
            assert row["manylinux"] == ("musllinux_1_2" if libc == "musl" else "manylinux2014"), row
    for platform, (target, compatibility) in platforms_cross_built_here().items():
        assert by_platform[platform]["target"] == target, platform
        assert by_platform[platform]["manylinux"] == compatibility, platform
    step = next(s for s in workflow()["jobs"]["wheels"]["steps"] if s.get("uses", "").startswith("PyO3/maturin-action"))
    assert "--release" in step["with"]["args"] and "--locked" in step["with"]["args"]


def test_wheels_are_smoke_tested_on_their_own_runners_before_anything_is_published() -> None:
    jobs = workflow()["jobs"]
    artifacts = {row["artifact"] for row in jobs["smoke"]["strategy"]["matrix"]["include"]}
    built = {f"wheel-{platform}" for platform in SHIPPED} | {"sdist"}
    assert artifacts <= built and "sdist" in artifacts and "wheel-linux-x64-gnu" in artifacts
    assert any(a.startswith("wheel-darwin") for a in artifacts) and any(a.startswith("wheel-win32") for a in artifacts)
    run = "\n".join(step.get("run", "") for step in jobs["smoke"]["steps"])
    assert "-m plugforge build" in run and "examples/striatum" in run and "--target all" in run
    publish = jobs["publish"]
    assert publish["needs"] == ["wheels", "sdist", "smoke"]
    assert publish["permissions"]["id-token"] == "write"
    uses = [step.get("uses", "") for step in publish["steps"]]
    assert "pypa/gh-action-pypi-publish@release/v1" in uses
