#!/usr/bin/env python3
"""Ask the real GitHub Copilot CLI what it loads from a plugin marketplace or a plugin folder.

Usage:
  copilot_inventory.py --copilot BIN [--turn] plugin --marketplace-root ROOT --plugin NAME
  copilot_inventory.py --copilot BIN [--turn] plugin-dir --dir DIR

Runs offline in a throwaway HOME and prints one JSON object.

plugin: `copilot plugin marketplace add ROOT`, `copilot plugin install NAME@MP` (MP is the
name Copilot itself reports for ROOT in `plugin marketplace list --json`, so the judge does
not assume which marketplace file it read), `copilot plugin list --json`.

plugin-dir: DIR is mounted with the global `--plugin-dir` option ("mounted"), then listed
(through a symlink) in a one-entry scratch marketplace and installed as in plugin mode
("installed"): a mounted folder reaches only part of the inventory.

Both modes then ask for the inventory: `copilot skill list --json` (skills, and plugin
commands, which Copilot loads as skills), `copilot mcp list --json`, `copilot lsp list
--json`, and the headless server (`copilot --headless --stdio`, JSON-RPC with
Content-Length framing; sessionless discovery calls only, so no sign-in and no model call):
`plugins.list`, `skills.discover`, `agents.discover`, `hooks.discover`, `mcp.discover`.
Agents and hooks have no CLI listing, and the server returns plugin agents and hooks only
when a project path is given, hence a scratch project folder in every call.

--turn: also runs one prompt (`copilot -p`) with COPILOT_OFFLINE=true against a stand-in
model on 127.0.0.1 (an OpenAI-compatible endpoint in this script that asks for one `bash`
call, `echo plugforge-turn`, then answers "done"): no sign-in and no model traffic leaves
the machine. It reports which hook events fired (the session's `hook.start`/`hook.end`
events, one per event type) and the skills and MCP servers the live session loaded. The
plugin's own hook commands and MCP servers really run, and its remote MCP servers are
contacted (Copilot's offline mode does not stop them; offline they report `failed`).

Exit 0 when every step ran (whatever the steps reported), 2 on usage errors or an unusable
binary.
"""
import argparse
import http.server
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time

TIMEOUT = 180
TIMEOUT_EXIT = 124
INSTALLED = re.compile(r"Installed (\d+) (skills?|agents?|commands?|hooks?|MCP servers?|LSP servers?)")
# The client unpacks itself (about 235 MB) into its cache on first run; a fresh HOME
# would repeat that every time, so the unpacked package (keyed by client version) is
# shared. It holds the client's own code only: no settings, no plugins, no sessions.
DEFAULT_CACHE = os.path.expanduser("~/.cache/plugforge/copilot-pkg")


class Copilot:
    def __init__(self, binary, home, cache, plugin_dirs=()):
        self.binary = binary
        self.home = home
        self.global_args = [arg for d in plugin_dirs for arg in ("--plugin-dir", d)]
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("COPILOT_", "GITHUB_", "GH_", "XDG_"))}
        env.update(HOME=home, COPILOT_CACHE_HOME=cache, NO_COLOR="1")
        self.env = env

    def run(self, *args, cwd):
        try:
            proc = subprocess.run(
                [self.binary, *self.global_args, *args],
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

    def run_json(self, *args, cwd):
        answer = self.run(*args, cwd=cwd)
        try:
            answer["json"] = json.loads(answer["stdout"])
        except ValueError:
            answer["json"] = None
        return answer

    def rpc(self, calls, cwd):
        """Runs the headless server once: `connect`, then each (method, params)."""
        proc = subprocess.Popen(
            [self.binary, *self.global_args, "--headless", "--no-auto-update", "--stdio"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=cwd,
            env=self.env,
        )
        reader = Reader(proc)
        answers = {}
        try:
            calls = [("connect", {"clientInfo": {"extensionName": "plugforge-tests", "extensionVersion": "0"}}), *calls]
            for index, (method, params) in enumerate(calls, 1):
                send(proc, {"jsonrpc": "2.0", "id": index, "method": method, "params": params})
                answers[method] = reader.receive(index)
        finally:
            proc.stdin.close()
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        return answers


def send(proc, message):
    body = json.dumps(message).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()


class Reader:
    """Content-Length framed JSON-RPC messages from the server's stdout."""

    def __init__(self, proc):
        self.proc = proc
        self.buffer = b""

    def next_message(self):
        head, sep, rest = self.buffer.partition(b"\r\n\r\n")
        if not sep:
            return None
        length = None
        for line in head.split(b"\r\n"):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        if length is None or len(rest) < length:
            return None
        self.buffer = rest[length:]
        return json.loads(rest[:length])

    def receive(self, wanted):
        """The response to request `wanted`, skipping notifications and server requests."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            message = self.next_message()
            if message is not None:
                if message.get("id") == wanted and "method" not in message:
                    return message
                continue
            ready, _, _ = select.select([self.proc.stdout], [], [], 0.5)
            if ready:
                chunk = os.read(self.proc.stdout.fileno(), 65536)
                if not chunk:
                    return {"error": "the server closed its output"}
                self.buffer += chunk
        return {"error": f"no answer within {TIMEOUT} s"}


def result(answer):
    return answer.get("result") or {}


def from_plugin(entry):
    return entry.get("source") == "plugin"


def inventory(copilot, work):
    """Everything the client says it loaded from plugins, by component."""
    skill_list = copilot.run_json("skill", "list", "--json", cwd=work)
    mcp_list = copilot.run_json("mcp", "list", "--json", cwd=work)
    lsp_list = copilot.run_json("lsp", "list", "--json", cwd=work)
    project = {"projectPaths": [work]}
    answers = copilot.rpc([
        ("plugins.list", None),
        ("skills.discover", project),
        ("agents.discover", project),
        ("hooks.discover", project),
        ("mcp.discover", {"workingDirectory": work, "includeEffectiveSource": True}),
    ], cwd=work)

    listed_skills = [s for s in skill_list["json"] or [] if from_plugin(s)]
    discovered_skills = [s for s in result(answers["skills.discover"]).get("skills") or [] if from_plugin(s)]
    # Sessionless discovery leaves out --plugin-dir plugins; the CLI listing has them.
    if not discovered_skills:
        discovered_skills = [dict(s, path=os.path.join(s["path"], "SKILL.md")
                                  if os.path.isfile(os.path.join(s["path"], "SKILL.md")) else s["path"])
                             for s in listed_skills]
    agents = [a for a in result(answers["agents.discover"]).get("agents") or [] if from_plugin(a)]
    hooks_answer = result(answers["hooks.discover"])
    hooks = [h for h in hooks_answer.get("hooks") or [] if h.get("origin") == "plugin"]
    mcp_servers = (mcp_list["json"] or {}).get("mcpServers") or {}
    plugin_mcp = {name: s for name, s in mcp_servers.items() if from_plugin(s)}
    lsp_servers = [s for s in lsp_list["json"] or [] if s.get("sourcePlugin")]
    return {
        "plugins": result(answers["plugins.list"]).get("plugins"),
        # A plugin's commands/*.md come back as skills whose path is the .md file (the
        # server) or the commands folder (the CLI); SKILL.md folders are the rest.
        "skills": sorted(s["name"] for s in discovered_skills if s["path"].endswith("/SKILL.md")),
        "commands": sorted(s["name"] for s in discovered_skills if not s["path"].endswith("/SKILL.md")),
        "skill_entries": [{"name": s["name"], "commandName": s.get("commandName"), "path": s["path"],
                           "enabled": s.get("enabled")} for s in discovered_skills],
        "skill_list": {"exit": skill_list["exit"], "names": sorted(s["name"] for s in listed_skills),
                       "stderr": skill_list["stderr"]},
        "skill_errors": result(answers["skills.discover"]).get("errors"),
        "agents": sorted(a["name"] for a in agents),
        "agent_entries": [{"name": a["name"], "path": a.get("path"), "tools": a.get("tools")} for a in agents],
        "hooks": sorted({h["hookType"] for h in hooks}),
        "hook_entries": [{"event": h["hookType"], "source": h.get("source"), "enabled": h.get("enabled")}
                         for h in hooks],
        "hook_warnings": hooks_answer.get("warnings"),
        "hook_errors": hooks_answer.get("errors"),
        "mcp_servers": sorted(plugin_mcp),
        "mcp_entries": plugin_mcp,
        "mcp_list": {"exit": mcp_list["exit"], "stderr": mcp_list["stderr"]},
        "lsp_servers": sorted(s.get("id") for s in lsp_servers),
        "lsp_entries": lsp_servers,
        "lsp_list": {"exit": lsp_list["exit"], "stderr": lsp_list["stderr"]},
        "rpc_errors": {m: a["error"] for m, a in answers.items() if a.get("error")},
        "log_problems": log_problems(copilot.home),
    }


# What the client rejects while loading a plugin (an agent without a description, an
# invalid .mcp.json) reaches neither listing: only its log says so.
LOG_PROBLEM = re.compile(r"\[(WARNING|ERROR)\] \[rust:(rt_customization_loader|host_protocol|copilot_runtime::mcp)[^\]]*\] (.*)")


def log_problems(home):
    logs = os.path.join(home, ".copilot", "logs")
    found = []
    for name in sorted(os.listdir(logs)) if os.path.isdir(logs) else []:
        with open(os.path.join(logs, name), encoding="utf-8", errors="replace") as f:
            for line in f:
                match = LOG_PROBLEM.search(line)
                if match and match.group(3) not in found:
                    found.append(match.group(3))
    return found


class StandInModel(http.server.BaseHTTPRequestHandler):
    """OpenAI chat completions: one `bash` tool call, then a plain answer."""

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.reply({"object": "list", "data": [{"id": "plugforge-stand-in", "object": "model"}]})

    def do_POST(self):
        request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        tools = {t.get("function", {}).get("name") for t in request.get("tools") or []}
        answered = any(m.get("role") == "tool" for m in request.get("messages") or [])
        if "bash" in tools and not answered:
            arguments = {"command": "echo plugforge-turn", "description": "plugforge turn probe",
                         "mode": "sync", "initial_wait": 10}
            message = {"role": "assistant", "content": None, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "bash", "arguments": json.dumps(arguments)}}]}
            finish = "tool_calls"
        else:
            message, finish = {"role": "assistant", "content": "done"}, "stop"
        usage = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
        head = {"id": "plugforge", "created": 0, "model": "plugforge-stand-in"}
        if not request.get("stream"):
            self.reply({**head, "object": "chat.completion", "usage": usage,
                        "choices": [{"index": 0, "message": message, "finish_reason": finish}]})
            return
        delta = dict(message)
        if "tool_calls" in delta:
            delta["tool_calls"] = [dict(delta["tool_calls"][0], index=0)]
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        for choice, extra in (({"index": 0, "delta": delta, "finish_reason": None}, {}),
                              ({"index": 0, "delta": {}, "finish_reason": finish}, {"usage": usage})):
            chunk = {**head, "object": "chat.completion.chunk", "choices": [choice], **extra}
            self.wfile.write(b"data: " + json.dumps(chunk).encode() + b"\n\n")
        self.wfile.write(b"data: [DONE]\n\n")

    def reply(self, body):
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def turn(copilot, work):
    """One offline prompt against the stand-in model; what the live session loaded and fired."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), StandInModel)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = copilot.env
    copilot.env = dict(env, COPILOT_OFFLINE="true", COPILOT_MODEL="plugforge-stand-in",
                       COPILOT_PROVIDER_BASE_URL=f"http://127.0.0.1:{server.server_address[1]}/v1",
                       COPILOT_PROVIDER_API_KEY="unused")
    try:
        run = copilot.run("-p", "Run the plugforge turn probe.", "--allow-all-tools", "--no-auto-update",
                          "--output-format", "json", cwd=work)
    finally:
        copilot.env = env
        server.shutdown()
        server.server_close()
    events = [e for e in map(json_line, run["stdout"].splitlines()) if e]
    session = next((e.get("sessionId") for e in events if e.get("type") == "result"), None)
    skills = [s for e in events if e.get("type") == "session.skills_loaded" for s in e["data"].get("skills") or []]
    servers = [s for e in events if e.get("type") == "session.mcp_servers_loaded" for s in e["data"].get("servers") or []]
    tools = [e["data"].get("toolName") for e in events if e.get("type") == "tool.execution_start"]
    # Hook lifecycle events are recorded in the session's own event log, not on stdout.
    started, ended = [], {}
    log = os.path.join(copilot.home, ".copilot", "session-state", session or "-", "events.jsonl")
    if os.path.isfile(log):
        with open(log, encoding="utf-8") as f:
            for e in filter(None, map(json_line, f)):
                data = e.get("data") or {}
                if e.get("type") == "hook.start":
                    started.append((data.get("hookInvocationId"), data.get("hookType")))
                elif e.get("type") == "hook.end":
                    ended[data.get("hookInvocationId")] = data.get("success")
    return {
        "exit": run["exit"],
        "stderr": run["stderr"],
        "session": session,
        "tools_run": tools,
        "hooks_fired": [{"event": kind, "success": ended.get(hid)} for hid, kind in started],
        "skills_loaded": sorted(s.get("name") for s in skills if s.get("source") == "plugin"),
        "mcp_servers_loaded": servers,
    }


def json_line(line):
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def marketplace_name(listing, root):
    for entry in listing or []:
        if entry.get("source") == f"Local: {root}":
            return entry.get("name")
    return None


def plugin_mode(copilot, home, work, root, plugin, with_turn=False):
    found = {"marketplace_add": copilot.run("plugin", "marketplace", "add", root, cwd=home)}
    listing = copilot.run_json("plugin", "marketplace", "list", "--json", cwd=home)
    marketplace = marketplace_name(listing["json"], root)
    found["marketplace"] = marketplace
    if marketplace is None:
        found["install"] = None
    else:
        install = copilot.run("plugin", "install", f"{plugin}@{marketplace}", cwd=home)
        # "Installed 1 skill." / "Installed 5 skills.": keyed by the singular.
        install["installed"] = {kind.rstrip("s"): int(count) for count, kind in INSTALLED.findall(install["stdout"])}
        found["install"] = install
    found["list"] = copilot.run_json("plugin", "list", "--json", cwd=home)
    found["inventory"] = inventory(copilot, work)
    if with_turn:
        found["turn"] = turn(copilot, work)
    return found


def plugin_dir_mode(binary, home, cache, work, folder, with_turn=False):
    """The folder mounted with --plugin-dir, then installed from a scratch marketplace.

    A mounted folder reaches `plugin list`, `skill list` and hook discovery but not agent,
    MCP or LSP discovery, so the folder is also installed from a one-entry directory
    marketplace. Its entry points at a symlink: Copilot refuses a `source` that resolves
    outside the marketplace folder ("Plugin path escapes marketplace directory") but
    follows a symlink inside it.
    """
    mounted = Copilot(binary, home, cache, [folder])
    listing = mounted.run_json("plugin", "list", "--json", cwd=work)
    found = {"mounted": {"list": listing, "inventory": inventory(mounted, work)}}
    external = [p for p in listing["json"] or [] if p.get("source") == "external"]
    if not external:
        found["installed"] = None
        return found
    name = external[0]["name"]
    root = os.path.join(os.path.dirname(home), "marketplace")
    os.makedirs(os.path.join(root, ".github", "plugin"))
    os.symlink(folder, os.path.join(root, "plugin"))
    with open(os.path.join(root, ".github", "plugin", "marketplace.json"), "w", encoding="utf-8") as f:
        json.dump({"name": "plugforge-scratch", "owner": {"name": "plugforge tests"},
                   "plugins": [{"name": name, "source": "./plugin"}]}, f)
    installed_home = os.path.join(os.path.dirname(home), "home-installed")
    os.makedirs(installed_home)
    found["installed"] = plugin_mode(Copilot(binary, installed_home, cache), installed_home, work, root, name,
                                     with_turn)
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--copilot", required=True, help="path of the copilot binary")
    ap.add_argument("--cache", default=DEFAULT_CACHE, help="where the client unpacks itself")
    ap.add_argument("--turn", action="store_true", help="also run one offline prompt against a stand-in model")
    modes = ap.add_subparsers(dest="mode", required=True)
    plugin = modes.add_parser("plugin")
    plugin.add_argument("--marketplace-root", required=True)
    plugin.add_argument("--plugin", required=True)
    plugin_dir = modes.add_parser("plugin-dir")
    plugin_dir.add_argument("--dir", required=True, help="a plugin folder")
    args = ap.parse_args()

    binary = os.path.abspath(args.copilot)
    scratch = tempfile.mkdtemp(prefix="copilot-inventory-")
    try:
        home = os.path.join(scratch, "home")
        work = os.path.join(scratch, "project")
        os.makedirs(home)
        os.makedirs(work)
        os.makedirs(args.cache, exist_ok=True)
        probe = Copilot(binary, home, args.cache).run("--version", cwd=home)
        if probe["exit"] != 0 or "Copilot CLI" not in probe["stdout"]:
            print(f"copilot_inventory: {args.copilot} --version failed:\n{probe['stderr']}", file=sys.stderr)
            return 2
        if args.mode == "plugin":
            copilot = Copilot(binary, home, args.cache)
            report = plugin_mode(copilot, home, work, os.path.abspath(args.marketplace_root), args.plugin, args.turn)
        else:
            report = plugin_dir_mode(binary, home, args.cache, work, os.path.abspath(args.dir), args.turn)
        report["version"] = probe["stdout"].split("\n")[0]
    except OSError as exc:
        print(f"copilot_inventory: {exc}", file=sys.stderr)
        return 2
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    json.dump(report, sys.stdout, indent=2, ensure_ascii=False)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
