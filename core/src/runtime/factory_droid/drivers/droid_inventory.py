#!/usr/bin/env python3
"""Ask the real Factory Droid CLI what it loads from a plugin listed by a marketplace.

Usage:
  droid_inventory.py --droid BIN --root ROOT --plugin NAME

Runs offline in a throwaway HOME (auto-update, dynamic config, keyring and telemetry off) and
prints one JSON object:

- marketplace_add: `droid plugin marketplace add COPY`, COPY being ROOT copied into the scratch
  folder as `plugforge-marketplace` (Droid names a local marketplace after its folder). ROOT must
  hold `.factory-plugin/marketplace.json` (or Claude Code's) listing NAME.
- install: `droid plugin install NAME@plugforge-marketplace`; plugin_list: `droid plugin list`.
- inventory: one `droid exec --input-format stream-jsonrpc` session, no login and no model call:
  `droid.initialize_session`, then `list_skills`, `list_commands`, `list_mcp_servers` and the
  droids of `get_context_breakdown` (which also lists the personal droids Droid seeds in a new
  HOME; `seeded_droids` names them). A method that answers with an error is in `errors`.

BIN is the `droid` binary (node_modules/@factory/cli-linux-x64/bin/droid). Exit 0 when every step
ran (whatever they reported), 2 on usage errors or an unusable binary.
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading

TIMEOUT = 120
TIMEOUT_EXIT = 124
MARKETPLACE = "plugforge-marketplace"
QUIET = {
    "FACTORY_DROID_AUTO_UPDATE_ENABLED": "false",
    "FACTORY_DISABLE_DYNAMIC_CONFIG": "1",
    "FACTORY_DISABLE_KEYRING": "1",
    "DO_NOT_TRACK": "1",
}
METHODS = {
    "skills": ("droid.list_skills", "skills"),
    "commands": ("droid.list_commands", "commands"),
    "mcpServers": ("droid.list_mcp_servers", "servers"),
    "droids": ("droid.get_context_breakdown", "droids"),
}


class Droid:
    def __init__(self, binary, home, cwd):
        self.binary, self.home, self.cwd = binary, home, cwd
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("FACTORY_", "DROID_", "XDG_", "ANTHROPIC_", "OPENAI_"))}
        env.update(HOME=home, NO_COLOR="1", **QUIET)
        self.env = env

    def run(self, *argv):
        try:
            proc = subprocess.run([self.binary, *argv], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, cwd=self.cwd, env=self.env, timeout=TIMEOUT)
            code, out, err = proc.returncode, proc.stdout, proc.stderr
        except subprocess.TimeoutExpired as exc:
            code, out, err = TIMEOUT_EXIT, exc.stdout or b"", (exc.stderr or b"") + b"\n[timed out]\n"
        text = lambda b: b.decode("utf-8", "replace")
        return {"exit": code, "stdout": text(out)[-4000:], "stderr": text(err)[-4000:]}

    def inventory(self):
        """One JSON-RPC session: each request written, its response read by id."""
        argv = [self.binary, "exec", "--input-format", "stream-jsonrpc", "--output-format", "stream-jsonrpc",
                "--cwd", self.cwd]
        # A session of its own: the whole group (MCP servers Droid starts too) ends with it.
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                cwd=self.cwd, env=self.env, start_new_session=True)
        end = lambda: os.killpg(proc.pid, signal.SIGKILL) if proc.poll() is None else None
        timed_out = threading.Event()

        def on_timeout():
            timed_out.set()
            end()

        timer = threading.Timer(TIMEOUT, on_timeout)
        timer.start()
        stderr = []
        reader = threading.Thread(target=lambda: stderr.append(proc.stderr.read()), daemon=True)
        reader.start()
        counter = iter(range(1, 100))

        def request(method, params):
            ident = str(next(counter))
            message = {"jsonrpc": "2.0", "type": "request", "factoryApiVersion": "1.0.0", "id": ident,
                       "method": method, "params": params}
            proc.stdin.write((json.dumps(message) + "\n").encode())
            proc.stdin.flush()
            for line in proc.stdout:
                try:
                    answer = json.loads(line)
                except ValueError:
                    continue
                if answer.get("type") == "response" and answer.get("id") == ident:
                    return answer
            return {"error": {"message": "the session ended before it answered"}}

        result = {"errors": {}}
        try:
            started = request("droid.initialize_session", {"cwd": self.cwd, "machineId": "plugforge-judge"})
            if "error" in started:
                result["errors"]["droid.initialize_session"] = started["error"].get("message", started["error"])
            else:
                answers = {}
                for key, (method, field) in METHODS.items():
                    if method not in answers:
                        answers[method] = request(method, {})
                    answer = answers[method]
                    if "error" in answer:
                        result["errors"][method] = answer["error"].get("message", answer["error"])
                        continue
                    result[key] = answer.get("result", {}).get(field, [])
        except (OSError, BrokenPipeError) as exc:
            result["errors"]["session"] = str(exc)
        finally:
            try:
                proc.stdin.close()
            except OSError:
                pass
            # Every answer is in: the session is ended rather than waited for. Droid (0.215.0)
            # idles about 6 s after its input closes, and as long again after SIGTERM, which
            # over a corpus of plugins adds up to minutes of nothing.
            end()
            proc.wait()
            timer.cancel()
            reader.join(timeout=5)
        code = TIMEOUT_EXIT if timed_out.is_set() else 0
        err = (stderr[0] if stderr else b"").decode("utf-8", "replace")
        return result, {"exit": code, "stderr": err[-4000:]}

    def seeded_droids(self):
        folder = os.path.join(self.home, ".factory", "droids")
        try:
            return sorted(f[:-3] for f in os.listdir(folder) if f.endswith(".md"))
        except OSError:
            return []


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--droid", required=True, help="the droid binary (scripts/install-clients droid)")
    ap.add_argument("--root", required=True, help="the marketplace root (the build's output root)")
    ap.add_argument("--plugin", required=True, help="the plugin to install from it")
    args = ap.parse_args()
    if not os.access(args.droid, os.X_OK):
        print(f"droid_inventory: {args.droid} is not executable", file=sys.stderr)
        return 2
    if not os.path.isdir(args.root):
        print(f"droid_inventory: {args.root} is not a folder", file=sys.stderr)
        return 2
    scratch = tempfile.mkdtemp(prefix="plugforge-droid-")
    try:
        home, cwd = os.path.join(scratch, "home"), os.path.join(scratch, "work")
        os.makedirs(home)
        os.makedirs(cwd)
        copy = os.path.join(scratch, MARKETPLACE)
        shutil.copytree(args.root, copy, symlinks=True)
        droid = Droid(args.droid, home, cwd)
        report = {"marketplace_add": droid.run("plugin", "marketplace", "add", copy)}
        report["install"] = droid.run("plugin", "install", f"{args.plugin}@{MARKETPLACE}")
        report["plugin_list"] = droid.run("plugin", "list")
        report["inventory"], report["inventory_run"] = droid.inventory()
        report["seeded_droids"] = droid.seeded_droids()
        print(json.dumps(report))
        return 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
