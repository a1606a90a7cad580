#!/usr/bin/env python3
"""Ask the real Claude Code CLI what it loads from a `claude-code:project` build, offline.

Usage: claude_project_inventory.py --claude BIN --out DIR --scope project|user

DIR is the build's output folder: a project folder (project scope) or a home folder (user
scope). It is copied into a throwaway HOME (as HOME/proj, or as HOME itself), then:

- `claude --plugin-dir <.claude> plugin details .claude@inline`: Claude Code's own component
  loader reads `.claude/skills`, `.claude/commands` and `.claude/agents` (a plugin uses the same
  layout), so its inventory is what a session would load from them;
- a scratch plugin holding the same skills/commands/agents plus `hooks/hooks.json` made from
  `.claude/settings.json` `hooks` goes through `claude plugin validate` (frontmatter, hook event
  names and handler shapes) and `plugin details` (hook events);
- `claude mcp list` and `claude mcp get NAME` from the project folder (or HOME) list the MCP
  servers with their scope and any config diagnostics; the servers stay pending approval (project)
  or fail to connect, which is fine: nothing is approved, no model is called.

Prints one JSON object; exit 0 when every step ran, 2 on usage errors or an unusable binary.
"""
import argparse
import json
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from claude_inventory import FOUND, Claude, parse_details  # noqa: E402  (same folder)

SERVER_LINE = re.compile(r"^([A-Za-z0-9_.-]+): .* - (.+)$")
SCOPE_LINE = re.compile(r"^\s*Scope: (.+)$", re.MULTILINE)
COMPONENT_DIRS = ("skills", "commands", "agents", "output-styles")


def scratch_plugin(claude_dir, into):
    """A plugin with the project's components and its settings hooks as hooks/hooks.json."""
    os.makedirs(os.path.join(into, ".claude-plugin"))
    manifest = {"name": "project-check", "version": "0.0.0", "description": "scratch", "author": {"name": "t"}}
    with open(os.path.join(into, ".claude-plugin", "plugin.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f)
    for name in COMPONENT_DIRS:
        if os.path.isdir(os.path.join(claude_dir, name)):
            shutil.copytree(os.path.join(claude_dir, name), os.path.join(into, name))
    hooks = {}
    settings = os.path.join(claude_dir, "settings.json")
    if os.path.exists(settings):
        with open(settings, encoding="utf-8") as f:
            hooks = json.load(f).get("hooks", {})
    os.makedirs(os.path.join(into, "hooks"))
    with open(os.path.join(into, "hooks", "hooks.json"), "w", encoding="utf-8") as f:
        json.dump({"hooks": hooks}, f)


def details(claude, plugin_dir, plugin_id):
    result = claude.run("--plugin-dir", plugin_dir, "plugin", "details", plugin_id)
    return dict(parse_details(result["output"]), exit=result["exit"], raw=result["output"])


def mcp_servers(claude, cwd):
    listed = claude.run_in(cwd, "mcp", "list")
    servers = {}
    for line in listed["output"].splitlines():
        m = SERVER_LINE.match(line.strip())
        if m:
            servers[m.group(1)] = m.group(2).strip()
    gets = {}
    for name in servers:
        got = claude.run_in(cwd, "mcp", "get", name)
        scope = SCOPE_LINE.search(got["output"])
        gets[name] = {"exit": got["exit"], "scope": scope.group(1).strip() if scope else None}
    return {
        "exit": listed["exit"],
        "output": listed["output"],
        "servers": servers,
        "diagnostics": "MCP config diagnostics" in listed["output"],
        "get": gets,
    }


class ProjectClaude(Claude):
    def run_in(self, cwd, *args):
        saved = self.home
        try:
            self.home = cwd  # Claude.run uses self.home as the working directory
            return self.run(*args)
        finally:
            self.home = saved

    def validate_plain(self, path):
        """`plugin validate` without --strict: errors fail it, warnings are counted."""
        result = self.run("plugin", "validate", path)
        counts = {"warning": 0, "error": 0}
        for n, kind in FOUND.findall(result["output"]):
            counts[kind] += int(n)
        return dict(result, warnings=counts["warning"], errors=counts["error"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--claude", required=True)
    ap.add_argument("--out", required=True, help="the build's output folder")
    ap.add_argument("--scope", required=True, choices=["project", "user"])
    args = ap.parse_args()
    home = tempfile.mkdtemp(prefix="claude-project-home-")
    try:
        claude = ProjectClaude(os.path.abspath(args.claude), home)
        probe = claude.run("--version")
        if probe["exit"] != 0:
            print(f"claude_project_inventory: --version failed:\n{probe['output']}", file=sys.stderr)
            return 2
        base = os.path.join(home, "proj") if args.scope == "project" else home
        shutil.copytree(args.out, base, symlinks=True, dirs_exist_ok=True)
        claude_dir = os.path.join(base, ".claude")
        scratch = os.path.join(tempfile.mkdtemp(prefix="claude-project-scratch-"), "project-check")
        scratch_plugin(claude_dir, scratch)
        report = {
            "details": details(claude, claude_dir, ".claude@inline"),
            "validate": claude.validate_plain(scratch),
            "scratch_details": details(claude, scratch, "project-check@inline"),
            "mcp": mcp_servers(claude, base),
        }
        shutil.rmtree(os.path.dirname(scratch), ignore_errors=True)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    json.dump(report, sys.stdout, indent=2, ensure_ascii=False)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
