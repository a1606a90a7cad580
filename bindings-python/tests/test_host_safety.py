"""The host helpers never read outside the source folder, never write through a symbolic
link below the output root, and a run after an interrupted one (by hand, or killed inside
``python -m plugforge``) converges."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import plugforge

WHEN = "2026-01-01T00:00:00Z"


def make_source(root: Path) -> None:
    files = {
        "plugforge.json": b'{"name": "demo", "version": "1.0.0", "description": "d", "author": {"name": "a"}}',
        "skills/tidy/SKILL.md": b"---\nname: tidy\ndescription: Tidies things\n---\nTidy up.\n",
        "commands/hi.md": b"---\ndescription: Say hi\n---\nHi $ARGUMENTS\n",
        "bin/tool": b"#!/bin/sh\necho tool\n",
    }
    for rel, data in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    (root / "bin" / "tool").chmod(0o755)


def tree(root: Path) -> dict[str, tuple[bytes, bool]]:
    found = {}
    for path in root.rglob("*"):
        if path.is_file():
            found[path.relative_to(root).as_posix()] = (path.read_bytes(), bool(path.stat().st_mode & 0o111))
    return found


def test_links_inside_the_source_read_as_their_files(tmp_path: Path) -> None:
    src = tmp_path / "src"
    make_source(src)
    (src / "docs").mkdir()
    (src / "docs" / "shared.md").write_bytes(b"shared\n")
    (src / "skills" / "tidy" / "shared.md").symlink_to("../../docs/shared.md")
    os.link(src / "docs" / "shared.md", src / "skills" / "tidy" / "hard.md")
    files = {f.path: f.data for f in plugforge.read_tree(src)}
    assert files["skills/tidy/shared.md"] == files["skills/tidy/hard.md"] == b"shared\n"


@pytest.mark.parametrize("kind", ["file", "folder", "dangling", "loop", "fifo"])
def test_read_tree_refuses_what_leads_outside_or_is_no_file(tmp_path: Path, kind: str) -> None:
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "key.txt").write_bytes(b"do not read\n")
    src = tmp_path / "src"
    make_source(src)
    named = {
        "file": "skills/tidy/key.txt",
        "folder": "skills/tidy/all",
        "dangling": "commands/gone.md",
        "loop": "commands/loop.md",
        "fifo": "bin/pipe",
    }[kind]
    if kind == "file":
        (src / named).symlink_to(secret / "key.txt")
    elif kind == "folder":
        (src / named).symlink_to(secret)
    elif kind == "dangling":
        (src / named).symlink_to("nowhere.md")
    elif kind == "loop":
        (src / named).symlink_to("loop-b.md")
        (src / "commands" / "loop-b.md").symlink_to("loop.md")
    else:
        os.mkfifo(src / named)
    with pytest.raises(OSError, match=f"{named}: "):
        plugforge.read_tree(src)
    out = tmp_path / "out"
    with pytest.raises(OSError, match=f"{named}: "):
        plugforge.build_to_dir(src, out, generated_at=WHEN)
    assert not out.exists()


def test_file_names_that_are_not_utf8_are_refused_by_name_with_escapes(tmp_path: Path) -> None:
    src = tmp_path / "src"
    make_source(src)
    # "café" in Latin-1 and "cafè": two names, one each if read as text.
    folder = os.fsencode(src / "skills" / "tidy")
    for name, text in ((b"caf\xe9.md", b"first\n"), (b"caf\xe8.md", b"second\n")):
        with open(folder + b"/" + name, "wb") as file:
            file.write(text)
    with pytest.raises(OSError) as refused:
        plugforge.read_tree(src)
    for shown in ("skills/tidy/caf\\xe9.md: ", "skills/tidy/caf\\xe8.md: "):
        assert shown in str(refused.value), str(refused.value)
    out = tmp_path / "out"
    with pytest.raises(OSError, match="not valid UTF-8"):
        plugforge.build_to_dir(src, out, generated_at=WHEN)
    assert not out.exists()


def test_a_symlinked_bundle_folder_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    src = tmp_path / "src"
    make_source(src)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "claude-code").symlink_to(elsewhere)
    with pytest.raises(OSError, match="claude-code/ is a symbolic link"):
        plugforge.build_to_dir(src, out, generated_at=WHEN)
    assert list(elsewhere.iterdir()) == [] and sorted(p.name for p in out.iterdir()) == ["claude-code"]


def test_a_rerun_after_an_interrupted_build_converges_and_sweeps_temp_files(tmp_path: Path) -> None:
    src = tmp_path / "src"
    make_source(src)
    reference = tmp_path / "reference"
    plugforge.build_to_dir(src, reference, generated_at=WHEN)
    out = tmp_path / "out"
    plugforge.build_to_dir(src, out, generated_at=WHEN)
    # What a kill before the last renames leaves: no manifest yet, a file not yet
    # renamed into place, and half-written temp files (this and the earlier naming).
    (out / "claude-code" / ".plugforge-manifest.json").unlink()
    (out / "claude-code" / "bin" / "tool").unlink()
    (out / "claude-code" / "bin" / ".plugforge-tmp-4242-7").write_bytes(b"#!/bin/")
    (out / "claude-code" / ".plugforge-tmp-4242-9").write_bytes(b"{")
    (out / "claude-code" / ".plugin.json.plugforge-4242.tmp").write_bytes(b"{")
    assert not any("plugforge-tmp" in p for p in plugforge.observe(out).hashes)
    plugforge.build_to_dir(src, out, generated_at=WHEN)
    assert tree(out) == tree(reference)


@pytest.mark.parametrize("operation", [1, 2, 5, 9, 14])
def test_python_m_plugforge_killed_at_a_file_operation_converges_on_rerun(
    tmp_path: Path, cli_bin: Path, python_cli: list[str], operation: int
) -> None:
    """PLUGFORGE_FAIL_AFTER_WRITES=N kills the process at its N-th file operation (the Rust
    CLI's own crash hook, which ``python -m plugforge`` runs): a rerun converges to the bytes
    the Rust binary writes uninterrupted."""
    src = tmp_path / "src"
    make_source(src)
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1700000000", "NO_COLOR": "1"}

    def build(runner: list[str], out: Path, **more: str) -> subprocess.CompletedProcess[str]:
        args = ["build", str(src), "--target", "claude-code,codex", "--out", str(out)]
        return subprocess.run([*runner, *args], env={**env, **more}, capture_output=True, text=True, check=False)

    reference = tmp_path / "reference"
    assert build([str(cli_bin)], reference).returncode == 0
    out = tmp_path / "out"
    killed = build(python_cli, out, PLUGFORGE_FAIL_AFTER_WRITES=str(operation))
    assert killed.returncode == -signal.SIGABRT, (killed.returncode, killed.stderr)
    rerun = build(python_cli, out)
    assert rerun.returncode == 0, rerun.stderr
    got = tree(out)
    assert not [p for p in got if "plugforge-tmp" in p], "temp files left"
    assert got == tree(reference)


def test_apply_plan_leaves_a_file_edited_after_the_plan_saw_it_and_names_it(tmp_path: Path) -> None:
    src = tmp_path / "src"
    make_source(src)
    out = tmp_path / "out"
    plugforge.build_to_dir(src, out, generated_at=WHEN)
    (src / "commands" / "hi.md").write_bytes(b"---\ndescription: Say hi\n---\nHello $ARGUMENTS\n")
    (src / "skills" / "tidy" / "SKILL.md").write_bytes(b"---\nname: tidy\ndescription: Tidies\n---\nTidy.\n")
    result = plugforge.build(plugforge.read_tree(src))
    plan = result.plan(plugforge.observe(out, result.paths_to_read()), generated_at=WHEN)
    command = next(a for a in plan.actions if a.path.endswith("commands/hi.md"))
    assert command.op == "update" and command.found is not None
    # The user saves the command between the plan and the write.
    edited = out / command.path
    edited.write_bytes(b"my own words\n")
    with pytest.raises(OSError, match="changed while this run was writing") as raised:
        plugforge.apply_plan(out, plan)
    assert command.path in str(raised.value)
    assert edited.read_bytes() == b"my own words\n"
    skill = out / next(a.path for a in plan.actions if a.path.endswith("skills/tidy/SKILL.md"))
    assert skill.read_bytes() == b"---\nname: tidy\ndescription: Tidies\n---\nTidy.\n", "the rest is written"


def test_build_to_dir_waits_for_the_lock_another_process_holds(tmp_path: Path) -> None:
    src = tmp_path / "src"
    make_source(src)
    out = tmp_path / "out"
    out.mkdir()
    ready = tmp_path / "ready"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import pathlib, sys, time, plugforge\n"
            "def hold():\n"
            "    pathlib.Path(sys.argv[2]).write_text('locked')\n"
            "    time.sleep(2)\n"
            "plugforge.with_lock(sys.argv[1], hold)\n",
            str(out),
            str(ready),
        ]
    )
    try:
        while not ready.exists():
            assert holder.poll() is None, "the holder exited early"
            time.sleep(0.02)
        started = time.monotonic()
        plan = plugforge.build_to_dir(src, out, generated_at=WHEN)
        waited = time.monotonic() - started
    finally:
        holder.wait(timeout=30)
    assert holder.returncode == 0
    assert waited > 1.0, f"built in {waited:.2f}s while another process held the lock"
    assert plan.summary.create > 0 and (out / "claude-code" / ".plugforge-manifest.json").exists()
