#!/usr/bin/env python3
"""Install an Agent Plugins package with the real Codex CLI and read back what it loaded.

Usage: codex_agent_plugins.py --codex BIN --plugin-dir DIR --name NAME

Codex 0.171 reads Agent Plugins root manifests (real-clients.md, Codex). In a
scratch folder (below the clients cache, never /tmp: codex refuses helper
binaries there) this copies DIR into a marketplace root whose
`.agents/plugins/marketplace.json` lists it as NAME, then, offline and in a
HOME of its own: `codex plugin marketplace add ROOT`, `codex plugin add
NAME@MARKETPLACE --json` (which reads the manifest's version) and, through
`codex app-server`, `plugin/read` (skills and MCP servers as codex loaded
them) and `skills/list` (load errors). Prints one JSON object. Exit 0 when
every step ran (whatever it reported), 2 on usage errors or an unusable binary.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

# A bound for a hung client, not a slow one: CI runs these beside the test
# suite on two cores, where a start can wait a minute for a core.
TIMEOUT = 180
TIMEOUT_EXIT = 124
MARKETPLACE = "plugforge-check"


def scratch_base():
    base = os.environ.get("PLUGFORGE_CLIENTS_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "plugforge")
    os.makedirs(base, exist_ok=True)
    return base


class Codex:
    def __init__(self, binary, home):
        self.binary = binary
        self.home = home
        self.env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "RUST_BACKTRACE": "0", "NO_COLOR": "1"}

    def run(self, *args):
        try:
            proc = subprocess.run(
                [self.binary, *args],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.home,
                env=self.env,
                timeout=TIMEOUT,
            )
            return {"exit": proc.returncode, "output": proc.stdout.decode(), "stderr": proc.stderr.decode()}
        except subprocess.TimeoutExpired:
            return {"exit": TIMEOUT_EXIT, "output": "", "stderr": f"timed out after {TIMEOUT} s"}

    def rpc(self, calls):
        """Answers to `calls` [(method, params)] from one app-server session."""
        proc = subprocess.Popen(
            [self.binary, "app-server"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=self.home,
            env=self.env,
        )
        try:
            answers = []
            self._send(proc, {"id": 0, "method": "initialize", "params": {"clientInfo": {"name": "plugforge", "version": "0"}}})
            self._answer(proc, 0)
            self._send(proc, {"method": "initialized"})
            for index, (method, params) in enumerate(calls, start=1):
                self._send(proc, {"id": index, "method": method, "params": params})
                answers.append(self._answer(proc, index))
            return answers
        finally:
            proc.stdin.close()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    @staticmethod
    def _send(proc, message):
        proc.stdin.write((json.dumps(dict(message, jsonrpc="2.0")) + "\n").encode())
        proc.stdin.flush()

    @staticmethod
    def _answer(proc, wanted):
        # Notifications (config warnings, status changes) come in between.
        while True:
            line = proc.stdout.readline()
            if not line:
                return {"error": "app-server closed its output"}
            message = json.loads(line)
            if message.get("id") == wanted:
                return message


def marketplace_root(scratch, plugin_dir, name):
    root = os.path.join(scratch, "market")
    shutil.copytree(plugin_dir, os.path.join(root, "plugins", name), symlinks=True)
    listing = {"name": MARKETPLACE, "plugins": [{"name": name, "source": {"source": "local", "path": f"./plugins/{name}"}}]}
    os.makedirs(os.path.join(root, ".agents", "plugins"))
    with open(os.path.join(root, ".agents", "plugins", "marketplace.json"), "w", encoding="utf-8") as f:
        json.dump(listing, f, indent=2)
    return root


def parse(step):
    try:
        return json.loads(step["output"])
    except ValueError:
        return None


def inspect(codex, root, name):
    report = {"marketplace_add": codex.run("plugin", "marketplace", "add", root)}
    add = codex.run("plugin", "add", f"{name}@{MARKETPLACE}", "--json")
    report["plugin_add"] = dict(add, parsed=parse(add))
    listing = os.path.join(root, ".agents", "plugins", "marketplace.json")
    read, skills = codex.rpc(
        [("plugin/read", {"pluginName": name, "marketplacePath": listing}), ("skills/list", {"cwds": [codex.home], "forceReload": True})]
    )
    plugin = (read.get("result") or {}).get("plugin") or {}
    report["plugin_read"] = {
        "error": read.get("error"),
        "version": (plugin.get("summary") or {}).get("localVersion"),
        "skills": sorted(s.get("name") for s in plugin.get("skills") or []),
        "mcp_servers": sorted(plugin.get("mcpServers") or []),
        "hooks": plugin.get("hooks") or [],
    }
    entries = ((skills.get("result") or {}).get("data")) or []
    report["skills_list_errors"] = [e for entry in entries for e in entry.get("errors") or []]
    return report


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--codex", required=True, help="path of the codex binary (not below /tmp)")
    ap.add_argument("--plugin-dir", required=True, help="the Agent Plugins package (root plugin.json)")
    ap.add_argument("--name", required=True, help="its name in the marketplace (= plugin.json name)")
    args = ap.parse_args()
    if not os.path.isfile(os.path.join(args.plugin_dir, "plugin.json")):
        ap.error(f"--plugin-dir {args.plugin_dir}: no plugin.json")

    scratch = tempfile.mkdtemp(prefix="codex-agent-plugins-", dir=scratch_base())
    try:
        home = os.path.join(scratch, "home")
        os.makedirs(home)
        codex = Codex(os.path.abspath(args.codex), home)
        try:
            probe = codex.run("--version")
        except OSError as exc:
            print(f"codex_agent_plugins: cannot run {args.codex}: {exc}", file=sys.stderr)
            return 2
        if probe["exit"] != 0:
            print(f"codex_agent_plugins: {args.codex} --version failed:\n{probe['stderr']}", file=sys.stderr)
            return 2
        root = marketplace_root(scratch, os.path.abspath(args.plugin_dir), args.name)
        report = dict(inspect(codex, root, args.name), version=probe["output"].strip())
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    json.dump(report, sys.stdout, indent=2, ensure_ascii=False)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
