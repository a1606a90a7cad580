"""The filesystem side of plugforge, in plain Python (pathlib, os, hashlib).

The engine never touches the disk: a host reads a source folder into ``SourceFile``s,
observes an output root (sha256 of every file, bytes of the files a build needs to
read), and applies the plan the engine computed. These helpers do that the way the
``plugforge`` binary does: atomic writes (temp file + ``os.replace`` in the same
folder), executable bits, removals that clean up emptied folders, manifests last.
"""

from __future__ import annotations

import datetime
import hashlib
import os
import re
import sys
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence, TextIO, Tuple, TypeVar, Union

from ._plugforge import Build, Observed, Plan, SourceFile, build

StrPath = Union[str, "os.PathLike[str]"]

T = TypeVar("T")

#: Folders never read as plugin source.
SKIPPED_DIRS = frozenset({".git", "node_modules", "target"})


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
    skipping ``.git``, ``node_modules``, ``target`` and the ``exclude`` folders."""
    excluded = {os.path.realpath(p) for p in exclude if os.path.exists(p)}

    def skip(path: str, name: str) -> bool:
        return name in SKIPPED_DIRS or (bool(excluded) and os.path.realpath(path) in excluded)

    return [
        SourceFile(rel, _read(path), _is_executable(path))
        for rel, path in _walk(os.fspath(directory), skip)
    ]


def observe(root: StrPath, paths_to_read: Iterable[str] = ()) -> Observed:
    """sha256 of every file below ``root``, and the bytes of ``paths_to_read``
    (relative paths, as ``Build.paths_to_read()`` lists them). A missing root is empty."""
    root = os.fspath(root)
    if not os.path.exists(root):
        return Observed()
    wanted = set(paths_to_read)
    hashes: dict[str, str] = {}
    contents: dict[str, bytes] = {}
    for rel, path in _walk(root, lambda _path, _name: False):
        data = _read(path)
        hashes[rel] = hashlib.sha256(data).hexdigest()
        if rel in wanted:
            contents[rel] = data
    return Observed(hashes, contents)


def apply_plan(root: StrPath, plan: Plan) -> None:
    """Applies ``plan`` below ``root`` in its order (manifests last): atomic writes with
    their executable bits, removals that also drop folders they emptied (up to ``root``).
    A refused plan raises ``RefusedPlanError`` and nothing is written."""
    if plan.refused:
        raise RefusedPlanError(plan)
    base = Path(root)
    for action in plan.actions:
        target = base / action.path
        if action.op in ("create", "update") and action.data is not None:
            _write_atomic(target, action.data, action.executable)
        elif action.op == "remove":
            _remove(base, target)


def generated_at() -> str:
    """RFC 3339 UTC time for new manifests: ``SOURCE_DATE_EPOCH`` when set, else now."""
    raw = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    seconds = int(raw) if re.fullmatch(r"[+-]?[0-9]+", raw) else int(datetime.datetime.now().timestamp())
    epoch = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
    t = epoch + datetime.timedelta(seconds=seconds)
    return f"{t.year:04}-{t.month:02}-{t.day:02}T{t.hour:02}:{t.minute:02}:{t.second:02}Z"


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
    observed = observe(out_dir, result.paths_to_read())
    plan = result.plan(observed, force=force, generated_at=generated_at)
    if not dry_run:
        apply_plan(out_dir, plan)
    return plan


class PathlibHost:
    """The host ``run_cli`` drives for ``python -m plugforge``: local files, the
    process's stdout/stderr, ``SOURCE_DATE_EPOCH``. I/O failures are reported the way
    the Rust binary words them."""

    def __init__(self, stdout: TextIO | None = None, stderr: TextIO | None = None) -> None:
        self._stdout = stdout
        self._stderr = stderr

    def read_tree(self, directory: str, exclude: Sequence[str]) -> list[SourceFile]:
        return _io(lambda: read_tree(directory, exclude))

    def observe(self, root: str, paths_to_read: Sequence[str]) -> Observed:
        return _io(lambda: observe(root, paths_to_read))

    def apply(self, root: str, plan: Plan) -> None:
        _io(lambda: apply_plan(root, plan))

    def create_files(self, directory: str, files: Sequence[SourceFile]) -> None:
        def create() -> None:
            for file in files:
                _write_atomic(Path(directory) / file.path, file.data, file.executable)

        _io(create)

    def exists(self, path: str) -> bool:
        return os.path.exists(path)

    def generated_at(self) -> str:
        return generated_at()

    def home_dir(self) -> str | None:
        return os.environ.get("HOME") or None

    def folder_name(self, directory: str) -> str | None:
        name = Path(directory).absolute().name
        return name if name not in ("", "..") else None

    def stdout(self, text: str) -> None:
        _emit(self._stdout or sys.stdout, text)

    def stderr(self, text: str) -> None:
        _emit(self._stderr or sys.stderr, text)

    def color(self) -> bool:
        stream = self._stdout or sys.stdout
        return stream.isatty() and "NO_COLOR" not in os.environ


def _walk(root: str, skip_dir: Callable[[str, str], bool]) -> Iterator[Tuple[str, str]]:
    """(relative path with ``/``, path) of every file below ``root``; symlinks to files
    count, symlinked folders are not followed."""
    pending = [(root, "")]
    while pending:
        directory, prefix = pending.pop()
        with os.scandir(directory) as entries:
            for entry in entries:
                rel = _text(prefix + entry.name)
                if entry.is_dir(follow_symlinks=False):
                    if not skip_dir(entry.path, entry.name):
                        pending.append((entry.path, rel + "/"))
                elif entry.is_file():
                    yield rel, entry.path


def _text(name: str) -> str:
    """A file name as valid UTF-8 text (undecodable bytes become U+FFFD, as in Rust)."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _is_executable(path: str) -> bool:
    return os.name == "posix" and bool(os.stat(path).st_mode & 0o111)


def _write_atomic(target: Path, data: bytes, executable: bool) -> None:
    """Writes ``data`` whole or not at all: a temp file in the same folder, renamed over."""
    target.parent.mkdir(parents=True, exist_ok=True)
    temp = target.parent / f".{target.name}.plugforge-{os.getpid()}.tmp"
    try:
        with open(temp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temp, 0o755 if executable else 0o644)
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def _remove(root: Path, target: Path) -> None:
    target.unlink(missing_ok=True)
    # Folders emptied by the removal go too, up to the output root.
    current = target.parent
    while current != root and root in current.parents:
        try:
            current.rmdir()
        except OSError:
            break
        current = current.parent


def _io(operation: Callable[[], T]) -> T:
    """Runs a filesystem operation; an ``OSError`` is re-raised worded as the Rust
    binary words it (``path: message (os error N)``)."""
    try:
        return operation()
    except OSError as err:
        if err.filename is None or err.errno is None:
            raise
        raise OSError(f"{err.filename}: {err.strerror} (os error {err.errno})") from err


def _emit(stream: TextIO, text: str) -> None:
    """Writes UTF-8 bytes whatever the stream's encoding, as the Rust binary does."""
    buffer = getattr(stream, "buffer", None)
    stream.flush()
    if buffer is None:
        stream.write(text)
        stream.flush()
    else:
        buffer.write(text.encode("utf-8"))
        buffer.flush()
