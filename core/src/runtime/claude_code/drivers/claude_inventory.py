#!/usr/bin/env python3
"""Ask the real Claude Code CLI what it makes of a plugin (and its marketplace).

Usage: claude_inventory.py --claude BIN --plugin-dir DIR [--marketplace-root ROOT --plugin NAME]

Runs in a throwaway HOME and prints one JSON object: validate results, marketplace
add / install results and the parsed `claude plugin details` inventory. Exit 0 when
every step ran (whatever the steps reported), 2 on usage errors or an unusable binary.
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

QUIET_ENV = {
    "DISABLE_TELEMETRY": "1",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "DISABLE_AUTOUPDATER": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "NO_COLOR": "1",
}

# Labels of the "Component inventory" lines of `claude plugin details` (2.1.197), e.g.
#   Skills (2)  alpha, go
#   Hooks (1)  Stop  (harness-only — no model context cost)
#   LSP servers (0)
INVENTORY_KEYS = {
    "Skills": "skills",
    "Agents": "agents",
    "Hooks": "hooks",
    "MCP servers": "mcp_servers",
    "LSP servers": "lsp_servers",
}
INVENTORY_LINE = re.compile(r"^\s*(%s) \((\d+)\)(.*)$" % "|".join(map(re.escape, INVENTORY_KEYS)))
ANNOTATION = re.compile(r"\s{2,}\(.*\)\s*$")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
FOUND = re.compile(r"Found (\d+) (warning|error)s?\b")


class Claude:
    def __init__(self, binary, home):
        self.binary = binary
        self.home = home
        self.env = dict(os.environ, HOME=home, **QUIET_ENV)
        # Would otherwise point the CLI at the caller's real config instead of HOME.
        self.env.pop("CLAUDE_CONFIG_DIR", None)

    def run(self, *args):
        try:
            proc = subprocess.run(
                [self.binary, *args],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                cwd=self.home,  # keep the caller's project settings out of it
                env=self.env,
                timeout=TIMEOUT,
            )
            code, out = proc.returncode, proc.stdout
        except subprocess.TimeoutExpired as exc:
            code = TIMEOUT_EXIT
            out = (exc.stdout or b"") + b"\n[claude_inventory: timed out after %d s]\n" % TIMEOUT
        return {"exit": code, "output": ANSI.sub("", out.decode("utf-8", "replace"))}

    def validate(self, path):
        result = self.run("plugin", "validate", "--strict", path)
        counts = {"warning": 0, "error": 0}
        for n, kind in FOUND.findall(result["output"]):
            counts[kind] += int(n)
        result["warnings"] = counts["warning"]
        result["errors"] = counts["error"]
        return result


def parse_details(text):
    """Component lists from `claude plugin details` text; `counts` are the (n) shown."""
    lists = {key: [] for key in INVENTORY_KEYS.values()}
    counts = {}
    in_inventory = False
    for line in text.splitlines():
        if line.strip() == "Component inventory":
            in_inventory = True
            continue
        if in_inventory and not line.strip():
            break
        m = INVENTORY_LINE.match(line) if in_inventory else None
        if not m:
            continue
        key = INVENTORY_KEYS[m.group(1)]
        counts[key] = int(m.group(2))
        names = ANNOTATION.sub("", m.group(3)).strip()
        lists[key] = sorted(n.strip() for n in names.split(",") if n.strip())
    return dict(lists, counts=counts)


def marketplace_name(root):
    try:
        with open(os.path.join(root, ".claude-plugin", "marketplace.json"), encoding="utf-8") as f:
            name = json.load(f)["name"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return name if isinstance(name, str) else None


def inspect_marketplace(claude, root, plugin):
    found = {
        "validate_marketplace": claude.validate(root),
        "marketplace_add": claude.run("plugin", "marketplace", "add", root),
    }
    mp = marketplace_name(root)
    if mp is None:
        # A broken marketplace.json is a finding already visible in the validate output.
        print(f"claude_inventory: no marketplace name in {root}, install skipped", file=sys.stderr)
        return found
    found["install"] = claude.run("plugin", "install", f"{plugin}@{mp}")
    details = claude.run("plugin", "details", f"{plugin}@{mp}")
    found["details"] = dict(parse_details(details["output"]), exit=details["exit"], raw=details["output"])
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--claude", required=True, help="path of the claude binary")
    ap.add_argument("--plugin-dir", required=True, help="plugin directory to validate")
    ap.add_argument("--marketplace-root", help="dir holding .claude-plugin/marketplace.json")
    ap.add_argument("--plugin", help="plugin name to install from the marketplace")
    args = ap.parse_args()
    if bool(args.marketplace_root) != bool(args.plugin):
        ap.error("--marketplace-root and --plugin go together")
    if not os.path.isdir(args.plugin_dir):
        ap.error(f"--plugin-dir {args.plugin_dir}: not a directory")

    report = {
        "validate_plugin": None,
        "validate_marketplace": None,
        "marketplace_add": None,
        "install": None,
        "details": None,
    }
    home = tempfile.mkdtemp(prefix="claude-inventory-home-")
    try:
        binary = os.path.abspath(args.claude) if os.sep in args.claude else shutil.which(args.claude) or args.claude
        claude = Claude(binary, home)
        try:
            probe = claude.run("--version")
        except OSError as exc:
            print(f"claude_inventory: cannot run {args.claude}: {exc}", file=sys.stderr)
            return 2
        if probe["exit"] != 0:
            print(f"claude_inventory: {args.claude} --version failed:\n{probe['output']}", file=sys.stderr)
            return 2

        report["validate_plugin"] = claude.validate(os.path.abspath(args.plugin_dir))
        if args.marketplace_root:
            report.update(inspect_marketplace(claude, os.path.abspath(args.marketplace_root), args.plugin))
    finally:
        shutil.rmtree(home, ignore_errors=True)

    json.dump(report, sys.stdout, indent=2, ensure_ascii=False)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
