#!/usr/bin/env python3
"""Ask the real Gemini CLI what it makes of an extension or a project's .gemini/.

Usage:
  gemini_inventory.py --gemini BIN [--no-relaunch] --extension DIR
  gemini_inventory.py --gemini BIN [--no-relaunch] --project DIR [--scope project|user]

Runs offline in a throwaway HOME and prints one JSON object.

Extension: `gemini extensions validate`, `gemini extensions install --consent
--skip-settings` (GEMINI_CLI_TRUST_WORKSPACE=true, or it asks whether to trust
the folder and hangs), `gemini extensions list` (context files, MCP servers,
skills, load errors), then gemini_load.mjs on the installed copy: skills and
agents through the bundle's own loaders, hook events against the bundle's
HookEventName enum, TOML commands through an exact emulation of
FileCommandLoader (commands are loaded by the interactive UI only).

Project: DIR is an output root written in place. With --scope project it is
copied to a workspace that is the current directory; with --scope user it is
copied to HOME. `gemini mcp list` reads the settings (and reports invalid
ones), and gemini_load.mjs loads .gemini/{skills,agents,commands} and checks
the hooks of .gemini/settings.json.

--no-relaunch: the CLI does not relaunch itself (GEMINI_CLI_NO_RELAUNCH; the relaunch only
raises node's heap limit, and doubles the start time).

Exit 0 when every step ran (whatever the steps reported), 2 on usage errors or
an unusable binary.
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
HERE = os.path.dirname(os.path.abspath(__file__))
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
LIST_SECTIONS = {"Context files:": "context_files", "MCP servers:": "mcp_servers", "Agent skills:": "skills"}
ERROR_LINE = re.compile(r"Error|Failed|Invalid|Skipping|not a function")
MCP_LINE = re.compile(r"^[✓✗…]?\s*([^:\s]+): ")


class Gemini:
    def __init__(self, binary, home, cwd):
        self.binary = binary
        self.cwd = cwd
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GEMINI_", "GOOGLE_"))}
        env.update(HOME=home, GEMINI_CLI_TRUST_WORKSPACE="true", NO_COLOR="1")
        self.env = env

    def run(self, *args):
        try:
            proc = subprocess.run(
                [self.binary, *args],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                cwd=self.cwd,
                env=self.env,
                timeout=TIMEOUT,
            )
            code, out = proc.returncode, proc.stdout
        except subprocess.TimeoutExpired as exc:
            code = TIMEOUT_EXIT
            out = (exc.stdout or b"") + b"\n[gemini_inventory: timed out after %d s]\n" % TIMEOUT
        return {"exit": code, "output": ANSI.sub("", out.decode("utf-8", "replace"))}

    def load(self, request):
        """Runs gemini_load.mjs with the bundle and TOML parser next to the binary."""
        bundle = os.path.dirname(os.path.realpath(self.binary))
        node_modules = os.path.dirname(os.path.dirname(os.path.dirname(bundle)))
        request = dict(request, bundle=bundle, toml=os.path.join(node_modules, "@iarna", "toml"))
        proc = subprocess.run(
            ["node", os.path.join(HERE, "gemini_load.mjs"), json.dumps(request)],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            cwd=self.cwd,
            env=self.env,
            timeout=TIMEOUT,
        )
        if proc.returncode != 0:
            return {"error": proc.stderr.decode("utf-8", "replace")}
        return json.loads(proc.stdout)


def parse_list(text):
    """Sections of `gemini extensions list` plus the load errors it printed."""
    found = {key: [] for key in LIST_SECTIONS.values()}
    section = None
    for line in text.splitlines():
        stripped = line.strip()
        if stripped in LIST_SECTIONS:
            section = LIST_SECTIONS[stripped]
            continue
        if section and line.startswith("  ") and stripped:
            item = stripped.split(": ", 1)[0] if section == "skills" else stripped
            found[section].append(os.path.basename(item) if section == "context_files" else item)
            continue
        section = None
    # Load errors are printed unindented ("[ExtensionManager] Error loading agent ..."); listed
    # items are indented, so a skill description saying "Failed" is not one.
    found["errors"] = [line for line in text.splitlines() if not line.startswith(" ") and ERROR_LINE.search(line)]
    return found


def parse_mcp_list(text):
    servers = []
    for line in text.splitlines():
        m = MCP_LINE.match(line.strip())
        if m and "(" in line:
            servers.append(m.group(1))
    errors = [line for line in text.splitlines() if line.startswith(("Invalid configuration", "Error in:"))]
    return {"servers": sorted(servers), "errors": errors}


def extension_report(gemini, home, directory):
    report = {
        "validate": gemini.run("extensions", "validate", directory),
        "install": gemini.run("extensions", "install", directory, "--consent", "--skip-settings"),
    }
    listed = gemini.run("extensions", "list")
    report["list"] = dict(parse_list(listed["output"]), exit=listed["exit"], raw=listed["output"])
    try:
        with open(os.path.join(directory, "gemini-extension.json"), encoding="utf-8") as f:
            name = json.load(f)["name"]
    except (OSError, ValueError, KeyError, TypeError):
        return report
    installed = os.path.join(home, ".gemini", "extensions", name)
    request = {
        "skills": os.path.join(installed, "skills"),
        "agents": os.path.join(installed, "agents"),
        "commands": os.path.join(installed, "commands"),
    }
    hooks = os.path.join(installed, "hooks", "hooks.json")
    if os.path.exists(hooks):
        request["hooks"] = {"file": hooks, "pointer": "hooks"}
    report["load"] = gemini.load(request)
    return report


def project_report(gemini, root, context_file):
    gemini_dir = os.path.join(root, ".gemini")
    mcp = gemini.run("mcp", "list")
    report = {"mcp_list": dict(parse_mcp_list(mcp["output"]), exit=mcp["exit"], raw=mcp["output"])}
    request = {
        "skills": os.path.join(gemini_dir, "skills"),
        "agents": os.path.join(gemini_dir, "agents"),
        "commands": os.path.join(gemini_dir, "commands"),
    }
    settings = os.path.join(gemini_dir, "settings.json")
    if os.path.exists(settings):
        request["hooks"] = {"file": settings, "pointer": "hooks"}
    report["load"] = gemini.load(request)
    try:
        with open(context_file, encoding="utf-8") as f:
            report["context"] = f.read()
    except OSError:
        report["context"] = None
    return report


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gemini", required=True, help="path of the gemini binary")
    what = ap.add_mutually_exclusive_group(required=True)
    what.add_argument("--extension", help="extension folder (holding gemini-extension.json)")
    what.add_argument("--project", help="output root written in place (holding .gemini/)")
    ap.add_argument("--scope", choices=["project", "user"], default="project")
    ap.add_argument("--no-relaunch", action="store_true", help="GEMINI_CLI_NO_RELAUNCH=true")
    args = ap.parse_args()
    directory = os.path.abspath(args.extension or args.project)
    if not os.path.isdir(directory):
        ap.error(f"{directory}: not a directory")

    scratch = tempfile.mkdtemp(prefix="gemini-inventory-")
    try:
        home = os.path.join(scratch, "home")
        cwd = os.path.join(scratch, "work")
        if args.project and args.scope == "user":
            shutil.copytree(directory, home, symlinks=True)
            os.makedirs(cwd)
            context_file = os.path.join(home, ".gemini", "GEMINI.md")
            root = home
        elif args.project:
            os.makedirs(home)
            shutil.copytree(directory, cwd, symlinks=True)
            context_file = os.path.join(cwd, "GEMINI.md")
            root = cwd
        else:
            os.makedirs(home)
            os.makedirs(cwd)
        binary = os.path.abspath(args.gemini) if os.sep in args.gemini else shutil.which(args.gemini) or args.gemini
        gemini = Gemini(binary, home, cwd)
        if args.no_relaunch:
            gemini.env["GEMINI_CLI_NO_RELAUNCH"] = "true"
        try:
            probe = gemini.run("--version")
        except OSError as exc:
            print(f"gemini_inventory: cannot run {args.gemini}: {exc}", file=sys.stderr)
            return 2
        if probe["exit"] != 0:
            print(f"gemini_inventory: {args.gemini} --version failed:\n{probe['output']}", file=sys.stderr)
            return 2
        if args.extension:
            report = extension_report(gemini, home, directory)
        else:
            report = project_report(gemini, root, context_file)
        report["version"] = probe["output"].strip()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    json.dump(report, sys.stdout, indent=2, ensure_ascii=False)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
