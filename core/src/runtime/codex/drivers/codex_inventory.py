#!/usr/bin/env python3
"""Ask the real Codex CLI what it loads from a plugin marketplace or a project.

Usage:
  codex_inventory.py --codex BIN plugin --marketplace-root ROOT --plugin NAME
  codex_inventory.py --codex BIN project --root DIR [--scope project|user]

Runs offline in a throwaway HOME and prints one JSON object.

plugin: `codex plugin marketplace add ROOT`, `codex plugin add NAME@MP --json`, then the
app-server (JSON-RPC over stdio; `initialize`, never `thread/start`, so no model call):
`plugin/read` (skills, hooks, MCP servers and interface as Codex read them), `skills/list`
and `hooks/list` (what the installed copy contributes, with errors and warnings).

project: DIR is a built output root. Project scope: it is copied to a trusted project
folder; user scope: it becomes the HOME. Then `skills/list`, `hooks/list`, `config/read`
(MCP servers) and `codex debug prompt-input` (agent roles and AGENTS.md as the model sees
them), compared with an empty project for the built-in roles.

Exit 0 when every step ran (whatever the steps reported), 2 on usage errors or an unusable
binary.
"""
import argparse
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time

TIMEOUT = 120
TIMEOUT_EXIT = 124

# The app-server resolves github.com at start (curated plugin sync); offline that fails
# quickly and harmlessly. Everything else stays local.
QUIET_ENV = {"RUST_BACKTRACE": "0", "NO_COLOR": "1", "CODEX_DISABLE_UPDATE_CHECK": "1"}
ROLE_LINE = re.compile(r"^([A-Za-z0-9_.-]+): \{$")


class Codex:
    def __init__(self, binary, home):
        self.binary = binary
        self.env = dict(os.environ, HOME=home, **QUIET_ENV)
        for var in ("CODEX_HOME", "OPENAI_API_KEY", "XDG_CONFIG_HOME"):
            self.env.pop(var, None)

    def run(self, *args, cwd):
        try:
            proc = subprocess.run(
                [self.binary, *args],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                env=self.env,
                timeout=TIMEOUT,
            )
            code, out, err = proc.returncode, proc.stdout, proc.stderr
        except subprocess.TimeoutExpired as exc:
            code, out, err = TIMEOUT_EXIT, exc.stdout or b"", (exc.stderr or b"") + b"\n[timed out]\n"
        return {
            "exit": code,
            "stdout": out.decode("utf-8", "replace"),
            "stderr": err.decode("utf-8", "replace")[-4000:],
        }

    def rpc(self, calls, cwd):
        """Runs `codex app-server` once: initialize, then each (method, params)."""
        proc = subprocess.Popen(
            [self.binary, "app-server"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=cwd,
            env=self.env,
        )
        answers = {}
        try:
            send(proc, {"jsonrpc": "2.0", "id": 0, "method": "initialize",
                        "params": {"clientInfo": {"name": "plugforge-tests", "version": "0"}}})
            answers["initialize"] = receive(proc, 0)
            send(proc, {"jsonrpc": "2.0", "method": "initialized"})
            for index, (method, params) in enumerate(calls, 1):
                send(proc, {"jsonrpc": "2.0", "id": index, "method": method, "params": params})
                answers[method] = receive(proc, index)
        finally:
            proc.stdin.close()
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        return answers


def send(proc, message):
    proc.stdin.write((json.dumps(message) + "\n").encode())
    proc.stdin.flush()


def receive(proc, wanted):
    """The response to request `wanted`, skipping notifications."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        ready, _, _ = select.select([proc.stdout], [], [], 0.5)
        if not ready:
            continue
        line = proc.stdout.readline()
        if not line:
            return {"error": "app-server closed its output"}
        message = json.loads(line)
        if message.get("id") == wanted:
            return message
    return {"error": f"no answer within {TIMEOUT} s"}


def result(answer):
    return answer.get("result") or {}


def plugin_mode(codex, home, root, plugin):
    found = {"marketplace_add": codex.run("plugin", "marketplace", "add", root, cwd=home)}
    with open(os.path.join(root, ".agents", "plugins", "marketplace.json"), encoding="utf-8") as f:
        marketplace = json.load(f)["name"]
    added = codex.run("plugin", "add", f"{plugin}@{marketplace}", "--json", cwd=home)
    try:
        added["json"] = json.loads(added["stdout"])
    except ValueError:
        added["json"] = None
    found["add"] = added
    work = tempfile.mkdtemp(prefix="codex-work-", dir=home)
    answers = codex.rpc([
        ("plugin/read", {"pluginName": plugin,
                         "marketplacePath": os.path.join(root, ".agents", "plugins", "marketplace.json")}),
        ("skills/list", {"cwds": [work], "forceReload": True}),
        ("hooks/list", {"cwds": [work]}),
    ], cwd=work)
    read = result(answers["plugin/read"]).get("plugin") or {}
    plugin_id = f"{plugin}@{marketplace}"
    skills = skills_of(answers["skills/list"], lambda s: s.get("pluginId") == plugin_id)
    hooks = hooks_of(answers["hooks/list"], lambda h: h.get("pluginId") == plugin_id)
    found["read"] = {
        "error": answers["plugin/read"].get("error"),
        "name": (read.get("summary") or {}).get("name"),
        "version": (read.get("summary") or {}).get("localVersion"),
        "interface": (read.get("summary") or {}).get("interface"),
        "skills": sorted(s["name"] for s in read.get("skills") or []),
        "hooks": sorted(h["eventName"] for h in read.get("hooks") or []),
        "mcp_servers": sorted(read.get("mcpServers") or []),
    }
    found["installed"] = {"skills": skills, "hooks": hooks}
    return found


def skills_of(answer, keep):
    entries = result(answer).get("data") or []
    skills = [s for e in entries for s in e.get("skills") or [] if keep(s)]
    return {
        "names": sorted(s["name"] for s in skills),
        "paths": sorted(s["path"] for s in skills),
        "errors": [err for e in entries for err in e.get("errors") or []],
    }


def hooks_of(answer, keep):
    entries = result(answer).get("data") or []
    hooks = [h for e in entries for h in e.get("hooks") or [] if keep(h)]
    return {
        "events": sorted({h["eventName"] for h in hooks}),
        "handlers": [{"event": h["eventName"], "command": h.get("command"), "matcher": h.get("matcher"),
                      "source": h.get("source")} for h in hooks],
        "warnings": [w for e in entries for w in e.get("warnings") or []],
        "errors": [err for e in entries for err in e.get("errors") or []],
    }


def trust(home, folder):
    os.makedirs(os.path.join(home, ".codex"), exist_ok=True)
    with open(os.path.join(home, ".codex", "config.toml"), "a", encoding="utf-8") as f:
        f.write(f'\n[projects.{json.dumps(folder)}]\ntrust_level = "trusted"\n')


def prompt_input(codex, cwd):
    """Agent roles and AGENTS.md text from the model-visible prompt Codex would send."""
    run = codex.run("debug", "prompt-input", "hi", cwd=cwd)
    try:
        items = json.loads(run["stdout"])
    except ValueError:
        return {"exit": run["exit"], "error": run["stderr"], "roles": [], "instructions": []}
    texts = []

    def walk(value):
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str):
            texts.append(value)

    walk(items)
    roles = []
    for text in texts:
        if "Available roles:" in text:
            tail = text.split("Available roles:", 1)[1]
            roles += [m.group(1) for m in map(ROLE_LINE.match, tail.splitlines()) if m]
    # "# AGENTS.md instructions for <dir>" (project) or "# AGENTS.md instructions" (~/.codex).
    instructions = [t for t in texts if t.startswith("# AGENTS.md instructions")]
    return {"exit": run["exit"], "roles": sorted(set(roles)), "instructions": instructions}


def project_mode(codex_bin, scratch, root, scope):
    # The built-in roles, from a project holding one probe role (Codex prints the role
    # list only when a custom role exists).
    base_home = tempfile.mkdtemp(prefix="home-", dir=scratch)
    probe = tempfile.mkdtemp(prefix="probe-", dir=scratch)
    os.makedirs(os.path.join(probe, ".git"))
    os.makedirs(os.path.join(probe, ".codex", "agents"))
    with open(os.path.join(probe, ".codex", "agents", "probe.toml"), "w", encoding="utf-8") as f:
        f.write('name = "plugforge-probe"\ndescription = "probe"\ndeveloper_instructions = "probe"\n')
    trust(base_home, probe)
    builtin = set(prompt_input(Codex(codex_bin, base_home), probe)["roles"]) - {"plugforge-probe"}

    if scope == "user":
        home = os.path.join(scratch, "home-user")
        shutil.copytree(root, home, symlinks=True)
        project = tempfile.mkdtemp(prefix="project-", dir=scratch)
    else:
        home = tempfile.mkdtemp(prefix="home-", dir=scratch)
        project = os.path.join(scratch, "project")
        shutil.copytree(root, project, symlinks=True)
    # Codex finds a project's root by its .git marker.
    os.makedirs(os.path.join(project, ".git"), exist_ok=True)
    trust(home, project)
    codex = Codex(codex_bin, home)
    answers = codex.rpc([
        ("skills/list", {"cwds": [project], "forceReload": True}),
        ("hooks/list", {"cwds": [project]}),
        ("config/read", {"cwd": project}),
    ], cwd=project)
    system = os.path.join(home, ".codex", "skills", ".system")
    skills = skills_of(answers["skills/list"], lambda s: not s["path"].startswith(system))
    hooks = hooks_of(answers["hooks/list"], lambda h: h.get("source") != "plugin")
    config = result(answers["config/read"]).get("config") or {}
    prompt = prompt_input(codex, project)
    return {
        "home": home,
        "project": project,
        "skills": skills,
        "hooks": hooks,
        "mcp_servers": config.get("mcp_servers") or {},
        "config_error": answers["config/read"].get("error"),
        "roles": sorted(set(prompt["roles"]) - builtin),
        "builtin_roles": sorted(builtin),
        "instructions": prompt["instructions"],
        "prompt_exit": prompt["exit"],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--codex", required=True, help="path of the codex binary")
    modes = ap.add_subparsers(dest="mode", required=True)
    plugin = modes.add_parser("plugin")
    plugin.add_argument("--marketplace-root", required=True)
    plugin.add_argument("--plugin", required=True)
    project = modes.add_parser("project")
    project.add_argument("--root", required=True, help="the built output root")
    project.add_argument("--scope", choices=["project", "user"], default="project")
    args = ap.parse_args()

    binary = os.path.abspath(args.codex)
    # Not below /tmp: codex refuses to set up its helper binaries there.
    base = os.path.expanduser("~/.cache/plugforge/scratch")
    os.makedirs(base, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="codex-inventory-", dir=base)
    try:
        home = os.path.join(scratch, "home")
        os.makedirs(home)
        probe = Codex(binary, home).run("--version", cwd=home)
        if probe["exit"] != 0:
            print(f"codex_inventory: {args.codex} --version failed:\n{probe['stderr']}", file=sys.stderr)
            return 2
        if args.mode == "plugin":
            report = plugin_mode(Codex(binary, home), home, os.path.abspath(args.marketplace_root), args.plugin)
        else:
            report = project_mode(binary, scratch, os.path.abspath(args.root), args.scope)
    except OSError as exc:
        print(f"codex_inventory: {exc}", file=sys.stderr)
        return 2
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    json.dump(report, sys.stdout, indent=2, ensure_ascii=False)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
