#!/usr/bin/env python3
"""Ask the real Hermes Agent (hermes-agent from PyPI, in a venv) what it makes of a bundle.

Usage:
  hermes_inventory.py --hermes BIN --plugin-dir DIR
      a skill plugin: copied to $HERMES_HOME/plugins/<name>/, listed, enabled, then loaded
      with Hermes's own PluginManager (which imports __init__.py and calls register(ctx))
  hermes_inventory.py --hermes BIN --home DIR
      a workspace built with --out DIR (user scope): DIR/.hermes becomes $HERMES_HOME

BIN is the venv's bin/hermes; its sibling `python` imports Hermes. Everything runs in a
throwaway HOME, offline, stdin closed. Prints one JSON object; exit 0 when every step ran
(whatever it reported), 2 on usage errors or an unusable binary.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

TIMEOUT = 120
TIMEOUT_EXIT = 124
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

# Runs inside the Hermes venv: load plugins as the agent does, then report.
LOAD_PLUGINS = r"""
import json, sys
from hermes_cli.plugins import PluginManager
from tools.skills_tool import skill_view
import hermes_cli.plugins as plugins_module
pm = PluginManager()
pm.discover_and_load()
plugins_module._plugin_manager = pm  # skill_view asks the process-wide manager
out = {}
for key, loaded in pm._plugins.items():
    if loaded.manifest.source != "user":
        continue
    name = loaded.manifest.name
    skills = pm.list_plugin_skills(name)
    served = {}
    for skill in skills:
        answer = json.loads(skill_view(f"{name}:{skill}"))
        served[skill] = bool(answer.get("success"))
    out[name] = {
        "enabled": loaded.enabled,
        "error": loaded.error,
        "hooks": sorted(loaded.hooks_registered),
        "tools": sorted(loaded.tools_registered),
        "commands": sorted(loaded.commands_registered),
        "skills": skills,
        "served": served,
        # The file each skill was registered with (a SKILL.md or its folder).
        "skill_paths": {
            entry["bare_name"]: str(entry["path"])
            for entry in pm._plugin_skills.values() if entry["plugin"] == name
        },
    }
json.dump(out, sys.stdout)
"""

# Runs inside the Hermes venv: the skills and MCP servers Hermes sees.
READ_WORKSPACE = r"""
import json, os, sys
from tools.skills_tool import _find_all_skills
from hermes_cli.config import load_config
skills = [
    {"name": s.get("name"), "category": s.get("category"), "description": s.get("description")}
    for s in _find_all_skills()
]
servers = load_config().get("mcp_servers") or {}
# After Hermes expanded ${HOME}: does each stdio server's command exist?
runnable = {n: os.access(s["command"], os.X_OK) for n, s in servers.items() if "/" in s.get("command", "")}
json.dump({"skills": skills, "mcp_servers": servers, "runnable": runnable}, sys.stdout)
"""


class Hermes:
    def __init__(self, binary, home):
        self.binary = binary
        self.python = os.path.join(os.path.dirname(binary), "python")
        self.home = home
        self.env = dict(os.environ, HOME=home, HERMES_HOME=os.path.join(home, ".hermes"), NO_COLOR="1")
        for var in ("HERMES_ENABLE_PROJECT_PLUGINS", "HERMES_PROFILE", "XDG_CONFIG_HOME"):
            self.env.pop(var, None)

    def _run(self, argv):
        try:
            proc = subprocess.run(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.home,
                env=self.env,
                timeout=TIMEOUT,
            )
            code, out, err = proc.returncode, proc.stdout, proc.stderr
        except subprocess.TimeoutExpired as exc:
            code, out, err = TIMEOUT_EXIT, exc.stdout or b"", (exc.stderr or b"") + b"[timed out]"
        decode = lambda b: ANSI.sub("", b.decode("utf-8", "replace"))
        return {"exit": code, "output": decode(out), "stderr": decode(err)}

    def cli(self, *args):
        return self._run([self.binary, *args])

    def python_json(self, code):
        result = self._run([self.python, "-c", code])
        try:
            result["data"] = json.loads(result["output"])
        except ValueError:
            result["data"] = None
        return result


def plugin_name(plugin_dir):
    """The `name:` line of plugin.yaml (the writer emits it as a plain or JSON-quoted scalar)."""
    with open(os.path.join(plugin_dir, "plugin.yaml"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("name:"):
                value = line[len("name:"):].strip()
                return json.loads(value) if value.startswith('"') else value
    return os.path.basename(os.path.normpath(plugin_dir))


def inspect_plugin(hermes, plugin_dir):
    name = plugin_name(plugin_dir)
    target = os.path.join(hermes.home, ".hermes", "plugins", name)
    shutil.copytree(plugin_dir, target, symlinks=True)
    listed = hermes.cli("plugins", "list", "--json", "--no-bundled")
    try:
        listed["plugins"] = json.loads(listed["output"])
    except ValueError:
        listed["plugins"] = None
    return {
        "name": name,
        "list": listed,
        "enable": hermes.cli("plugins", "enable", name),
        "load": hermes.python_json(LOAD_PLUGINS),
    }


def inspect_workspace(hermes, out_dir):
    source = os.path.join(out_dir, ".hermes")
    target = os.path.join(hermes.home, ".hermes")
    if os.path.isdir(source):
        shutil.copytree(source, target, symlinks=True, dirs_exist_ok=True)
    mcp_list = hermes.cli("mcp", "list")
    return {
        "skills_list": hermes.cli("skills", "list"),
        "mcp_list": mcp_list,
        "read": hermes.python_json(READ_WORKSPACE),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hermes", required=True, help="path of the venv's bin/hermes")
    ap.add_argument("--plugin-dir", help="a skill plugin folder")
    ap.add_argument("--home", help="an output folder holding .hermes/ (workspace kind)")
    args = ap.parse_args()
    if bool(args.plugin_dir) == bool(args.home):
        ap.error("give exactly one of --plugin-dir and --home")
    home = tempfile.mkdtemp(prefix="hermes-inventory-home-")
    try:
        hermes = Hermes(os.path.abspath(args.hermes), home)
        probe = hermes.cli("--version")
        if probe["exit"] != 0:
            print(f"hermes_inventory: {args.hermes} --version failed:\n{probe['output']}", file=sys.stderr)
            return 2
        if args.plugin_dir:
            report = {"version": probe["output"].splitlines()[0], "plugin": inspect_plugin(hermes, args.plugin_dir)}
        else:
            report = {"version": probe["output"].splitlines()[0], "workspace": inspect_workspace(hermes, args.home)}
    finally:
        shutil.rmtree(home, ignore_errors=True)
    json.dump(report, sys.stdout, indent=2, ensure_ascii=False)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
