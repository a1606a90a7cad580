#!/usr/bin/env python3
"""Ask the real Qwen Code CLI what it loads from an extension folder.

Usage:
  qwen_inventory.py --qwen BIN --dir DIR [--plugin NAME] [--invoke COMMAND ARGS]

Runs offline in a throwaway HOME (telemetry, usage statistics and update checks off) and
prints one JSON object:

- install: `qwen extensions install COPY --consent` (COPY: DIR copied into the scratch
  folder, since installing from a Claude marketplace writes into it). With --plugin, DIR is a
  Claude marketplace root and the source is `COPY:NAME`, as Qwen installs one plugin of a
  marketplace. Every setting the extension asks for gets an empty answer.
- inventory: the ESM script below (EXTENSIONS_MJS), run by the client's own node: the CLI's
  ExtensionManager (what `qwen extensions list` shows, plus agents with their tools, hooks,
  MCP servers and settings) and the commands a session's FileCommandLoader loads. With
  --invoke, that command's prompt as Qwen builds it for ARGS.
- log_problems: the WARN and ERROR lines the loaders wrote to the debug log
  (QWEN_DEBUG_LOG_FILE=1); a skill or agent Qwen refuses is named there only.

BIN is the wrapper the client's install writes (its spec's `launch`), beside the node (24) it
runs and the package's node_modules. Exit 0 when every step ran (whatever they reported), 2 on usage
errors or an unusable binary.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

TIMEOUT = 180
TIMEOUT_EXIT = 124
SESSION = "plugforge-inventory"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
QUIET_SETTINGS = {
    "general": {"disableAutoUpdate": True},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
}
PROBLEM = re.compile(r"\[(WARN|ERROR)\]")

# Run by the client's node, which imports the client's own modules; written beside the
# throwaway HOME for the run.
EXTENSIONS_MJS = r"""
// Lists what Qwen Code loads from $HOME/.qwen/extensions, through the CLI's own
// ExtensionManager (the one `qwen extensions list` uses), as one JSON object.
//
// Usage: node qwen_extensions.mjs PACKAGE_DIR SESSION_ID [COMMAND ARGS]
//   PACKAGE_DIR: node_modules/@qwen-code/qwen-code. The bundle's chunk names are
//   content hashes, so each export is found by the chunk that defines it.
// With QWEN_DEBUG_LOG_FILE=1 the loaders' warnings go to ~/.qwen/debug/SESSION_ID.txt.
// With COMMAND and ARGS, `invoked` is the prompt that command submits for ARGS.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pkg, session, invoke, invokeArgs] = process.argv.slice(2);
const chunks = path.join(pkg, "chunks");
const files = fs.readdirSync(chunks).filter((f) => f.endsWith(".js"));
async function defining(needle) {
  const file = files.find((f) => fs.readFileSync(path.join(chunks, f), "utf8").includes(needle));
  if (!file) throw new Error(`no chunk of ${pkg} defines ${needle}`);
  return import(pathToFileURL(path.join(chunks, file)).href);
}

const { setDebugLogSession } = await defining("function setDebugLogSession(");
const { getExtensionManager } = await defining("async function getExtensionManager(");
const { HookEventName } = await defining("var HookEventName = ");
const { FileCommandLoader } = await defining("var FileCommandLoader = class");
setDebugLogSession({ getSessionId: () => session });
const manager = await getExtensionManager();
const events = Object.values(HookEventName).concat(["enabled", "disabled", "notifications"]);
// The commands a session loads (the loader that honours a manifest `commands`
// path and skips a file it cannot parse), with a config that has only what it asks.
const loaded = manager.getLoadedExtensions();
const sessionCommands = await new FileCommandLoader({
  getFolderTrustFeature: () => false,
  getFolderTrust: () => true,
  getProjectRoot: () => process.cwd(),
  getBareMode: () => false,
  getExtensions: () => loaded,
}).loadCommands(new AbortController().signal);
const extensions = loaded.map((e) => ({
  name: e.name,
  version: e.version,
  format: e.format,
  origin: e.installMetadata?.originSource ?? null,
  path: e.path,
  contextFiles: e.contextFiles,
  commands: e.commands ?? [],
  sessionCommands: sessionCommands
    .filter((c) => c.extensionName === (e.displayName ?? e.name))
    .map((c) => ({ name: c.name, description: c.description })),
  skills: (e.skills ?? []).map((s) => s.name),
  agents: (e.agents ?? []).map((a) => ({ name: a.name, tools: a.tools ?? null })),
  hooks: e.hooks ?? {},
  // Events the hook registry skips at session start ("Invalid hook event name").
  unknownHookEvents: Object.keys(e.hooks ?? {}).filter((k) => !events.includes(k)),
  mcpServers: e.mcpServers ?? {},
  settings: e.settings ?? [],
}));
let invoked = null;
const command = invoke && sessionCommands.find((c) => c.name === invoke);
if (command) {
  const context = { invocation: { raw: `/${invoke} ${invokeArgs}`, name: invoke, args: invokeArgs }, services: {}, session: {} };
  const result = await command.action(context, invokeArgs);
  invoked = { type: result.type, text: (result.content ?? []).map((part) => part.text ?? "").join("") };
}
console.log(JSON.stringify({ hookEvents: Object.values(HookEventName), extensions, invoked }));
"""


class Qwen:
    def __init__(self, binary, home, cwd):
        self.binary = binary
        prefix = os.path.dirname(os.path.realpath(binary))
        self.node = os.path.join(prefix, "node")
        self.package = os.path.join(prefix, "node_modules", "@qwen-code", "qwen-code")
        self.home, self.cwd = home, cwd
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("QWEN_", "OPENAI_", "DASHSCOPE_", "GEMINI_", "XDG_"))}
        env.update(HOME=home, NO_COLOR="1", QWEN_TELEMETRY_ENABLED="false",
                   QWEN_USAGE_STATISTICS_ENABLED="false", QWEN_CODE_SKIP_UPDATE_CHECK_ONCE="1")
        self.env = env

    def run(self, argv, env=None):
        try:
            proc = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  cwd=self.cwd, env=env or self.env, timeout=TIMEOUT)
            code, out, err = proc.returncode, proc.stdout, proc.stderr
        except subprocess.TimeoutExpired as exc:
            code, out, err = TIMEOUT_EXIT, exc.stdout or b"", (exc.stderr or b"") + b"\n[timed out]\n"
        text = lambda b: ANSI.sub("", b.decode("utf-8", "replace"))
        return {"exit": code, "stdout": text(out), "stderr": text(err)[-4000:]}

    def install(self, source):
        """`install --consent`; each setting it asks for gets an empty answer. The prompts read
        whatever is buffered, so the answers come one at a time while it runs (`yes ''`)."""
        with tempfile.TemporaryFile() as output:
            proc = subprocess.Popen([self.binary, "extensions", "install", source, "--consent"],
                                    stdin=subprocess.PIPE, stdout=output, stderr=subprocess.STDOUT,
                                    cwd=self.cwd, env=self.env)
            deadline = time.monotonic() + TIMEOUT
            while proc.poll() is None and time.monotonic() < deadline:
                try:
                    proc.stdin.write(b"\n")
                    proc.stdin.flush()
                except OSError:
                    pass
                time.sleep(0.2)
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            code = TIMEOUT_EXIT if proc.returncode < 0 else proc.returncode
            output.seek(0)
            text = ANSI.sub("", output.read().decode("utf-8", "replace"))
        return {"exit": code, "output": text.strip()[-4000:]}

    def inventory(self, invoke):
        env = dict(self.env, QWEN_DEBUG_LOG_FILE="1")
        script = os.path.join(os.path.dirname(self.home), "qwen_extensions.mjs")
        with open(script, "w", encoding="utf-8") as f:
            f.write(EXTENSIONS_MJS)
        argv = [self.node, script, self.package, SESSION, *invoke]
        run = self.run(argv, env=env)
        try:
            run["json"] = json.loads(run["stdout"])
        except ValueError:
            run["json"] = None
        run["stdout"] = run["stdout"][-2000:]
        return run

    def log_problems(self):
        path = os.path.join(self.home, ".qwen", "debug", f"{SESSION}.txt")
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                return [line.strip() for line in f if PROBLEM.search(line)]
        except OSError:
            return []


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--qwen", required=True, help="the qwen binary (its wrapper: scripts/install-clients qwen)")
    ap.add_argument("--dir", required=True, help="the extension folder (or, with --plugin, a marketplace root)")
    ap.add_argument("--plugin", help="install this plugin of the Claude marketplace at DIR")
    ap.add_argument("--invoke", nargs=2, metavar=("COMMAND", "ARGS"), default=[],
                    help="also build this command's prompt for these arguments")
    args = ap.parse_args()
    if not os.access(args.qwen, os.X_OK):
        print(f"qwen_inventory: {args.qwen} is not executable", file=sys.stderr)
        return 2
    if not os.path.isdir(args.dir):
        print(f"qwen_inventory: {args.dir} is not a folder", file=sys.stderr)
        return 2
    scratch = tempfile.mkdtemp(prefix="plugforge-qwen-")
    try:
        home, cwd = os.path.join(scratch, "home"), os.path.join(scratch, "work")
        os.makedirs(os.path.join(home, ".qwen"))
        os.makedirs(cwd)
        with open(os.path.join(home, ".qwen", "settings.json"), "w", encoding="utf-8") as f:
            json.dump(QUIET_SETTINGS, f)
        copy = os.path.join(scratch, "source", os.path.basename(os.path.abspath(args.dir)))
        shutil.copytree(args.dir, copy, symlinks=True)
        qwen = Qwen(args.qwen, home, cwd)
        if not os.path.isfile(qwen.node) or not os.path.isdir(qwen.package):
            print(f"qwen_inventory: no node or package beside {args.qwen}", file=sys.stderr)
            return 2
        source = f"{copy}:{args.plugin}" if args.plugin else copy
        report = {"install": qwen.install(source)}
        inventory = qwen.inventory(args.invoke)
        report["inventory"] = inventory.pop("json")
        report["inventory_run"] = inventory
        report["log_problems"] = qwen.log_problems()
        print(json.dumps(report))
        return 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
