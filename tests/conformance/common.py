"""Shared pieces of the conformance-against-reality harnesses: where the
built `plugforge` and the real clients are, running them, and the
missing-client rule: a missing client fails unless PLUGFORGE_SKIP_CLIENTS
names it."""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
# Each client's driver lives in the folder of the runtime it judges
# (core/src/runtime/<folder>/drivers/); their file names are unique.
DRIVER_FOLDERS = sorted(glob.glob(os.path.join(REPO, "core", "src", "runtime", "*", "drivers")))
sys.path[:0] = DRIVER_FOLDERS


def driver_path(script):
    """The path of the driver named `script` (`claude_inventory.py`)."""
    found = [os.path.join(d, script) for d in DRIVER_FOLDERS if os.path.isfile(os.path.join(d, script))]
    if len(found) != 1:
        raise SystemExit(f"no single driver named {script} in core/src/runtime/*/drivers/: {found}")
    return found[0]

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

# env var -> the name scripts/install-clients knows the client by
CLIENT_VARS = {
    "claude": "PLUGFORGE_CLAUDE_BIN",
    "codex": "PLUGFORGE_CODEX_BIN",
    "gemini": "PLUGFORGE_GEMINI_BIN",
    "opencode": "PLUGFORGE_OPENCODE_BIN",
    "skills-ref": "PLUGFORGE_SKILLS_REF_BIN",
    "openclaw": "PLUGFORGE_OPENCLAW_BIN",
    "hermes": "PLUGFORGE_HERMES_BIN",
    "qwen": "PLUGFORGE_QWEN_BIN",
    "droid": "PLUGFORGE_DROID_BIN",
    "qoder": "PLUGFORGE_QODER_BIN",
}


def skipped(name):
    """Whether PLUGFORGE_SKIP_CLIENTS (comma-separated client names) names `name`."""
    return name in [s.strip() for s in os.environ.get("PLUGFORGE_SKIP_CLIENTS", "").split(",")]


def client(name):
    """The client's binary, or None when the client is skipped by name (then
    the caller skips that part).

    A missing client that is not skipped is a failure, raised here so no
    part silently passes without the client it is about."""
    var = CLIENT_VARS[name]
    binary = os.environ.get(var)
    if binary and os.path.exists(binary):
        return binary
    if skipped(name):
        return None
    raise SystemExit(f"{var} is not set to a binary: install the client (scripts/install-clients {name}) "
                     f"or skip it by name (PLUGFORGE_SKIP_CLIENTS={name})")


# How many units or cases are judged at once. The clients spend most of a
# run waiting, not computing (Qoder CLI 1.1.52 retries its endpoint election
# offline: about 10 s wall for 2 CPU-seconds per command), so three per core
# keep the cores busy where one per core would leave them idle.
JOBS = 3 * (os.cpu_count() or 1)


def plugforge_bin():
    """The built CLI (cargo build -p plugforge-cli)."""
    explicit = os.environ.get("PLUGFORGE_BIN")
    if explicit:
        return explicit
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(REPO, "target")
    binary = os.path.join(target, "debug", "plugforge")
    if not os.path.exists(binary):
        raise SystemExit(f"{binary} not found: run `cargo build -p plugforge-cli` first")
    return binary


# What each program cost, for the closing time table (print_times): the
# stage is bound by the clients' CPU on a small machine, so the table says
# which client to make cheaper rather than leaving it to a guess.
_TIMES = {}
_TIMES_LOCK = threading.Lock()


def _program(argv):
    """The name a command is accounted under: the script a Python runs, else the binary."""
    names = [os.path.basename(a) for a in argv[:2]]
    return names[1] if names[0].startswith("python") and len(names) > 1 else names[0]


def run(argv, cwd=None, env=None, timeout=120):
    """(exit code, stdout, stderr) of a command; a timeout is exit 124."""
    started = time.monotonic()
    try:
        with subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
            try:
                out, err = proc.communicate(timeout=timeout)
                code = proc.returncode
            except subprocess.TimeoutExpired:
                proc.kill()
                out, err = proc.communicate()
                code, err = 124, (err or b"") + b"\n[timed out]\n"
    finally:
        _account(_program(argv), time.monotonic() - started)
    return code, ANSI.sub("", out.decode("utf-8", "replace")), ANSI.sub("", err.decode("utf-8", "replace"))


def _account(program, wall):
    with _TIMES_LOCK:
        runs, total = _TIMES.get(program, (0, 0.0))
        _TIMES[program] = (runs + 1, total + wall)


def print_times(title):
    """The wall time each program took in this harness, slowest first."""
    rows = sorted(_TIMES.items(), key=lambda item: -item[1][1])
    print(f"\n{title}: wall time per program (summed over parallel runs)")
    print(table([(name, runs, f"{total:.0f}s", f"{total / runs:.1f}s") for name, (runs, total) in rows],
                ("program", "runs", "total", "each")))


def plugforge(*args, timeout=120):
    return run([plugforge_bin(), *args], env=dict(os.environ, NO_COLOR="1", SOURCE_DATE_EPOCH="1700000000"),
               timeout=timeout)


def plugforge_validate(path, target=None, strict=False):
    """`plugforge validate --json`: (exit, report or None, raw output)."""
    args = ["validate", path, "--json"]
    if target:
        args += ["--target", target]
    if strict:
        args.append("--strict")
    code, out, err = plugforge(*args)
    try:
        report = json.loads(out)["report"]
    except (ValueError, KeyError, TypeError):
        report = None
    return code, report, out + err


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def write_json(path, value):
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(value, indent=2, ensure_ascii=False) + "\n")


class Scratch:
    """A temp folder removed on exit."""

    def __init__(self, prefix):
        self.path = tempfile.mkdtemp(prefix=f"plugforge-reality-{prefix}-")

    def __enter__(self):
        return self.path

    def __exit__(self, *_):
        shutil.rmtree(self.path, ignore_errors=True)


def copy_tree(src, dst):
    shutil.copytree(src, dst, symlinks=True, dirs_exist_ok=True)


def table(rows, header):
    """A Markdown table."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    line = lambda r: "| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) + " |"
    return "\n".join([line(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|", *map(line, rows)])
