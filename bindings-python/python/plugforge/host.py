"""The filesystem side of plugforge.

The engine never touches the disk: a host reads a source folder into ``SourceFile``s,
observes an output root (sha256 of every file, bytes of the files a build needs to
read), and applies the plan the engine computed. These helpers do that with the very
Rust code the ``plugforge`` binary uses: reads confined to the source folder, atomic
writes (temp file + rename in the same folder, temp files of an interrupted run swept
by the next), executable bits, removals that clean up emptied folders, manifests last,
nothing written through a symbolic link below the output root.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Iterable, Sequence, TypeVar, Union

from ._plugforge import (
    Build,
    Observed,
    Plan,
    SourceFile,
    _host_apply,
    _host_create_files,
    _host_generated_at,
    _host_locked,
    _host_observe,
    _host_read_tree,
    build,
)

StrPath = Union[str, "os.PathLike[str]"]
T = TypeVar("T")


class RefusedPlanError(Exception):
    """A plan with conflicts: nothing was written. ``.plan`` names each conflict."""

    def __init__(self, plan: Plan) -> None:
        conflicts = [a.path for a in plan.actions if a.op == "conflict"]
        super().__init__(
            f"refused: {len(conflicts)} conflict(s); nothing was written (force=True overwrites): "
            + ", ".join(conflicts)
        )
        self.plan = plan


def read_tree(directory: StrPath, exclude: Iterable[StrPath] = ()) -> list[SourceFile]:
    """Every file below ``directory`` as ``SourceFile``s (executable bit from the mode),
    skipping ``.git`` and ``node_modules``, ``target`` at the top, and the ``exclude`` folders.

    Nothing outside ``directory`` is read: a symbolic link to a file inside it reads as
    that file; one leading outside, nowhere or in a loop, and FIFOs, sockets and devices,
    raise ``OSError`` naming each by its path below ``directory``."""
    return _host_read_tree(os.fspath(directory), [os.fspath(p) for p in exclude])


def observe(root: StrPath, paths_to_read: Iterable[str] = ()) -> Observed:
    """sha256 of every file below ``root``, and the bytes of ``paths_to_read``
    (relative paths, as ``Build.paths_to_read()`` lists them). A missing root is empty;
    temp files of an interrupted write are left out."""
    return _host_observe(os.fspath(root), list(paths_to_read))


def with_lock(root: StrPath, run: Callable[[], T]) -> T:
    """Calls ``run()`` holding the lock of the output root ``root`` (waiting, with a
    message on stderr, while another run holds it), after finishing what an interrupted
    run left; returns what ``run`` returns. The lock is the one the ``plugforge`` binary
    takes: no other run (CLI, Node, Python) plans over or writes ``root`` between this
    run's ``observe`` and its ``apply_plan``."""
    return _host_locked(os.fspath(root), run)


def apply_plan(root: StrPath, plan: Plan) -> None:
    """Applies ``plan`` below ``root`` in its order (manifests last): atomic writes with
    their executable bits, removals that also drop folders they emptied (up to ``root``),
    after sweeping the temp files an interrupted run left in the folders the plan touches.
    A refused plan raises ``RefusedPlanError``, a path through a symbolic link below
    ``root`` ``OSError``; either way nothing is written. Each file is replaced or removed
    only if it still holds what the plan saw (``Action.found``): one edited meanwhile is
    left as it is and named in an ``OSError`` once the rest is written."""
    if plan.refused:
        raise RefusedPlanError(plan)
    _host_apply(os.fspath(root), list(plan.actions), plan.manifests)


def create_files(directory: StrPath, files: Sequence[SourceFile]) -> None:
    """Writes new files below ``directory`` (a starter source)."""
    _host_create_files(os.fspath(directory), list(files))


def generated_at() -> str:
    """RFC 3339 UTC time for new manifests: ``SOURCE_DATE_EPOCH`` when set, else now
    (the ``plugforge`` binary's clock)."""
    return _host_generated_at()


def build_to_dir(
    source_dir: StrPath,
    out_dir: StrPath,
    *,
    force: bool = False,
    dry_run: bool = False,
    generated_at: str | None = None,
    **options: Any,
) -> Plan:
    """Reads ``source_dir``, builds it (``options`` as for ``plugforge.build``), plans over
    what ``out_dir`` holds and applies the plan. Returns the plan. A plan with conflicts
    raises ``RefusedPlanError`` (nothing written) unless ``dry_run``, which writes nothing."""
    result: Build = build(read_tree(source_dir, exclude=[out_dir]), **options)

    def observe_plan_apply() -> Plan:
        observed = observe(out_dir, result.paths_to_read())
        plan = result.plan(observed, force=force, generated_at=generated_at)
        if not dry_run:
            apply_plan(out_dir, plan)
        return plan

    # Observed, planned and written under the root's lock, as the binary does.
    return with_lock(out_dir, observe_plan_apply)
