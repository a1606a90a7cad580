#!/usr/bin/env python3
"""Ask the real Qoder CLI what it loads from a plugin folder or a marketplace.

Usage:
  qoder_inventory.py --qoder BIN validate --dir DIR
  qoder_inventory.py --qoder BIN plugin --marketplace-root ROOT --plugin NAME

Runs offline in a throwaway HOME (every qodercli run writes $HOME/.qoder/ and
$HOME/.config/git/ignore, so never the user's) and prints one JSON object.

validate: `qodercli plugins validate DIR --json --strict`: its exit code and its
report (diagnostics, and `resources`: every skill, command, agent, hook and MCP
server it loaded).

plugin: the same validation of the plugin the marketplace lists, then
`qodercli plugins marketplace add ROOT`, `qodercli plugins install NAME@MP --json`
(MP is the name `plugins marketplace list --json` reports for ROOT, so the
judge does not assume which marketplace file Qoder read) and
`qodercli plugins list --json`, and which manifests the installed copy holds
(so the judge sees which of an output root's bundles Qoder installed).

Exit 0 when every step ran (whatever the steps reported), 2 on usage errors
or an unusable binary.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

TIMEOUT = 180
TIMEOUT_EXIT = 124
# Auto-update, usage statistics and code statistics off: nothing leaves the machine.
SETTINGS = {
    "general": {"enableAutoUpdate": False},
    "privacy": {"usageStatisticsEnabled": False},
    "aiCodeStatistics": {"enabled": False},
}


class Qoder:
    def __init__(self, binary, home):
        self.binary = binary
        self.home = home
        os.makedirs(os.path.join(home, ".qoder"), exist_ok=True)
        with open(os.path.join(home, ".qoder", "settings.json"), "w", encoding="utf-8") as f:
            json.dump(SETTINGS, f)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("QODER_", "XDG_"))}
        env.update(HOME=home, NO_COLOR="1", CI="1")
        self.env = env

    def run(self, *args, cwd=None):
        try:
            proc = subprocess.run(
                [self.binary, *args],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd or self.home,
                env=self.env,
                timeout=TIMEOUT,
            )
            code, out, err = proc.returncode, proc.stdout, proc.stderr
        except subprocess.TimeoutExpired as e:
            code, out, err = TIMEOUT_EXIT, e.stdout or b"", e.stderr or b""
        return {
            "argv": list(args),
            "exit": code,
            "stdout": out.decode("utf-8", "replace"),
            "stderr": err.decode("utf-8", "replace"),
        }

    def json_of(self, result):
        """The one JSON document a `--json` command printed, or None."""
        text = result["stdout"].strip()
        starts = [i for i in (text.find("{"), text.find("[")) if i >= 0]
        if not starts:
            return None
        start = min(starts)
        try:
            return json.loads(text[start:])
        except ValueError:
            return None

    def validate(self, folder):
        result = self.run("plugins", "validate", os.path.abspath(folder), "--json", "--strict")
        document = self.json_of(result)
        report = (document or {}).get("report")
        return {
            "exit": result["exit"],
            "report": report,
            "stderr": result["stderr"][-2000:],
            "stdout": "" if report else result["stdout"][-2000:],
        }


def marketplace_name(qoder, root):
    """The name Qoder gives the marketplace it added from ROOT."""
    listed = qoder.json_of(qoder.run("plugins", "marketplace", "list", "--json")) or {}
    entries = listed.get("marketplaces") if isinstance(listed, dict) else None
    if entries is None and isinstance(listed, list):
        entries = listed
    target = os.path.realpath(root)
    for entry in entries or []:
        text = json.dumps(entry)
        if target in text or os.path.abspath(root) in text:
            return entry.get("name")
    names = [e.get("name") for e in entries or [] if isinstance(e, dict)]
    return names[0] if len(names) == 1 else None


def plugin_folder(root, plugin):
    """The folder ROOT's Qoder marketplace lists for PLUGIN."""
    for rel in (".qoder-plugin/marketplace.json", ".claude-plugin/marketplace.json", "marketplace.json"):
        path = os.path.join(root, rel)
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
        for entry in document.get("plugins", []):
            if entry.get("name") == plugin and isinstance(entry.get("source"), str):
                return os.path.normpath(os.path.join(root, entry["source"]))
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--qoder", required=True, help="the qodercli binary")
    sub = parser.add_subparsers(dest="mode", required=True)
    one = sub.add_parser("validate")
    one.add_argument("--dir", required=True)
    market = sub.add_parser("plugin")
    market.add_argument("--marketplace-root", required=True)
    market.add_argument("--plugin", required=True)
    args = parser.parse_args()
    if not shutil.which(args.qoder) and not os.access(args.qoder, os.X_OK):
        print(f"qoder_inventory: {args.qoder} is not an executable", file=sys.stderr)
        return 2
    home = tempfile.mkdtemp(prefix="plugforge-qoder-home-")
    try:
        qoder = Qoder(args.qoder, home)
        if args.mode == "validate":
            out = {"validate": qoder.validate(args.dir)}
        else:
            root = os.path.abspath(args.marketplace_root)
            folder = plugin_folder(root, args.plugin)
            out = {
                "folder": folder,
                "validate": qoder.validate(folder) if folder else None,
                "marketplace_add": qoder.run("plugins", "marketplace", "add", root),
            }
            name = marketplace_name(qoder, root)
            out["marketplace"] = name
            out["install"] = (
                qoder.run("plugins", "install", f"{args.plugin}@{name}", "--json") if name else None
            )
            listed = qoder.json_of(qoder.run("plugins", "list", "--json"))
            out["list"] = listed
            # Which of the output root's bundles Qoder copied: the manifests in its installed copy.
            installed = [p for p in listed or [] if isinstance(p, dict) and p.get("name") == args.plugin]
            path = installed[0].get("installPath") if installed else None
            out["installed_manifests"] = sorted(
                rel for rel in (".qoder-plugin/plugin.json", ".claude-plugin/plugin.json")
                if path and os.path.isfile(os.path.join(path, rel))
            )
        out["home_git_ignore"] = os.path.isfile(os.path.join(home, ".config", "git", "ignore"))
        print(json.dumps(out, indent=2))
        return 0
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
