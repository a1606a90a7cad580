#!/usr/bin/env python3
"""Ask the real OpenCode CLI what it makes of a project (or of a global config).

Usage: opencode_inventory.py --opencode BIN --cwd DIR [--home DIR]

Runs `opencode debug config`, `opencode debug skill` and `opencode agent list`
offline, from --cwd, in a HOME of its own (--home: an existing folder to use as
HOME, e.g. one a user-scope build wrote `.config/opencode/` into; it is not
removed). Prints one JSON object: each step's exit code and output, plus the
inventory OpenCode reports (skills with their location, agents with their mode,
commands, MCP servers). Exit 0 when every step ran (whatever it reported), 2 on
usage errors or an unusable binary.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# A bound for a hung client, not a slow one: CI runs these beside the test
# suite on two cores, where a start can wait a minute for a core.
TIMEOUT = 180
TIMEOUT_EXIT = 124  # as timeout(1) reports it

# real-clients.md: no network, no model fetch, no updates; Claude Code's
# folders are not read, so only what the build wrote is listed.
QUIET_ENV = {
    "OPENCODE_DISABLE_MODELS_FETCH": "1",
    "OPENCODE_DISABLE_AUTOUPDATE": "1",
    "OPENCODE_DISABLE_SHARE": "1",
    "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
    "OPENCODE_DISABLE_CLAUDE_CODE": "1",
    "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1",
    "NO_COLOR": "1",
}
# `opencode agent list` prints "name (mode)" and then the agent's permission rules.
AGENT_LINE = re.compile(r"^(\S+) \((primary|subagent|all)\)\s*$")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class OpenCode:
    def __init__(self, binary, home, cwd):
        self.binary = binary
        self.cwd = cwd
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": home,
            "XDG_CONFIG_HOME": os.path.join(home, ".config"),
            "XDG_DATA_HOME": os.path.join(home, ".local", "share"),
            "XDG_STATE_HOME": os.path.join(home, ".local", "state"),
            "XDG_CACHE_HOME": os.path.join(home, ".cache"),
            **QUIET_ENV,
        }

    def run(self, *args):
        # Into files, not pipes: OpenCode 1.18 exits before a pipe takes more
        # than 64 KiB, so a long listing (20 skills) would come back cut off.
        with tempfile.TemporaryFile() as out_file, tempfile.TemporaryFile() as err_file:
            try:
                code = subprocess.run(
                    [self.binary, *args],
                    stdin=subprocess.DEVNULL,
                    stdout=out_file,
                    stderr=err_file,
                    cwd=self.cwd,
                    env=self.env,
                    timeout=TIMEOUT,
                ).returncode
                timed_out = b""
            except subprocess.TimeoutExpired:
                code, timed_out = TIMEOUT_EXIT, b"\n[opencode_inventory: timed out after %d s]\n" % TIMEOUT
            out_file.seek(0)
            err_file.seek(0)
            out, err = out_file.read(), err_file.read() + timed_out
        decode = lambda b: ANSI.sub("", b.decode("utf-8", "replace"))
        return {"exit": code, "output": decode(out), "stderr": decode(err)}


def parse_json(step):
    try:
        return json.loads(step["output"])
    except ValueError:
        return None


def parse_agents(text):
    return [{"name": m.group(1), "mode": m.group(2)} for m in map(AGENT_LINE.match, text.splitlines()) if m]


def inventory(opencode):
    config = opencode.run("debug", "config")
    skills = opencode.run("debug", "skill")
    agents = opencode.run("agent", "list")
    resolved = parse_json(config) or {}
    listed = parse_json(skills) or []
    return {
        "debug_config": config,
        "debug_skill": {"exit": skills["exit"], "stderr": skills["stderr"]},
        "agent_list": {"exit": agents["exit"], "stderr": agents["stderr"]},
        "skills": [{"name": s.get("name"), "location": s.get("location")} for s in listed if isinstance(s, dict)],
        "agents": parse_agents(agents["output"]),
        "commands": sorted((resolved.get("command") or {}).keys()),
        "mcp": resolved.get("mcp") or {},
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opencode", required=True, help="path of the opencode binary")
    ap.add_argument("--cwd", required=True, help="folder to run opencode in (the project)")
    ap.add_argument("--home", help="existing folder to use as HOME (kept)")
    args = ap.parse_args()
    if not os.path.isdir(args.cwd):
        ap.error(f"--cwd {args.cwd}: not a directory")
    if args.home and not os.path.isdir(args.home):
        ap.error(f"--home {args.home}: not a directory")

    own_home = None if args.home else tempfile.mkdtemp(prefix="opencode-inventory-home-")
    try:
        binary = os.path.abspath(args.opencode)
        opencode = OpenCode(binary, args.home or own_home, os.path.abspath(args.cwd))
        try:
            probe = opencode.run("--version")
        except OSError as exc:
            print(f"opencode_inventory: cannot run {args.opencode}: {exc}", file=sys.stderr)
            return 2
        if probe["exit"] != 0:
            print(f"opencode_inventory: {args.opencode} --version failed:\n{probe['stderr']}", file=sys.stderr)
            return 2
        report = dict(inventory(opencode), version=probe["output"].strip())
    finally:
        if own_home:
            shutil.rmtree(own_home, ignore_errors=True)

    json.dump(report, sys.stdout, indent=2, ensure_ascii=False)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
