#!/usr/bin/env python3
"""Ask the real OpenClaw CLI what it makes of a compatible bundle or a workspace.

Usage:
  openclaw_inventory.py --openclaw BIN bundle --dir DIR --id ID
  openclaw_inventory.py --openclaw BIN workspace --dir DIR

Runs offline with HOME and OPENCLAW_STATE_DIR in a throwaway folder (no Gateway is
started: installs are "saved for the next Gateway start") and prints one JSON object.

bundle: `openclaw plugins install DIR --force --accept-capabilities`, then
`openclaw plugins inspect ID --json` (format, bundleFormat, bundleCapabilities, MCP
servers, diagnostics, the accepted install surface) and `openclaw skills list --json`
(the skills that are not OpenClaw's own).

workspace: DIR is used as the agent workspace (OPENCLAW_WORKSPACE_DIR), then
`openclaw skills list --json` and `openclaw hooks list --json`.

OpenClaw is slow on a busy 2-core machine (a minute per command is normal), hence the
long timeouts. Exit 0 when every step ran, 2 on usage errors or an unusable binary.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

TIMEOUT = 600
TIMEOUT_EXIT = 124
QUIET_ENV = {"NO_COLOR": "1", "OPENCLAW_NO_UPDATE_CHECK": "1", "CI": "1"}


class OpenClaw:
    def __init__(self, binary, home, workspace=None):
        self.binary = binary
        self.home = home
        self.env = dict(os.environ, HOME=home, OPENCLAW_STATE_DIR=os.path.join(home, ".openclaw"), **QUIET_ENV)
        for var in ("OPENCLAW_PROFILE", "OPENCLAW_GATEWAY_URL", "OPENCLAW_WORKSPACE_DIR"):
            self.env.pop(var, None)
        if workspace:
            self.env["OPENCLAW_WORKSPACE_DIR"] = workspace

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
            code, out, err = proc.returncode, proc.stdout, proc.stderr
        except subprocess.TimeoutExpired as exc:
            code, out, err = TIMEOUT_EXIT, exc.stdout or b"", (exc.stderr or b"") + b"\n[timed out]\n"
        return {
            "exit": code,
            "stdout": out.decode("utf-8", "replace"),
            "stderr": err.decode("utf-8", "replace")[-4000:],
        }

    def json(self, *args):
        run = self.run(*args)
        try:
            run["json"] = json.loads(run["stdout"])
        except ValueError:
            run["json"] = None
        run["stdout"] = run["stdout"][-2000:]
        return run


def listed(listing):
    """Every skill `skills list --json` shows, by name."""
    return {s["name"]: s for s in (listing.get("json") or {}).get("skills") or []}


def plugin_skills(home, plugin_id, listing):
    """The listed skills that come from the installed plugin: `skills list` links each
    plugin skill into $OPENCLAW_STATE_DIR/plugin-skills/<name>, pointing into the plugin."""
    links = os.path.join(home, ".openclaw", "plugin-skills")
    installed = os.path.realpath(os.path.join(home, ".openclaw", "extensions", plugin_id))
    skills = listed(listing)
    found = []
    for name in sorted(os.listdir(links)) if os.path.isdir(links) else []:
        target = os.path.realpath(os.path.join(links, name))
        if target.startswith(installed + os.sep) and name in skills:
            found.append({"name": name, "path": os.path.relpath(target, installed),
                          "source": skills[name].get("source"), "eligible": skills[name].get("eligible")})
    return found


def bundle_mode(claw, folder, plugin_id):
    install = claw.run("plugins", "install", folder, "--force", "--accept-capabilities")
    inspect = claw.json("plugins", "inspect", plugin_id, "--json")
    data = inspect.get("json") or {}
    plugin = data.get("plugin") or {}
    skills = claw.json("skills", "list", "--json")
    return {
        "install": {"exit": install["exit"], "output": (install["stdout"] + install["stderr"])[-3000:]},
        "inspect": {
            "exit": inspect["exit"],
            "stderr": inspect["stderr"],
            "format": plugin.get("format"),
            "bundleFormat": plugin.get("bundleFormat"),
            "status": plugin.get("status"),
            "name": plugin.get("name"),
            "version": plugin.get("version"),
            "bundleCapabilities": sorted(data.get("bundleCapabilities") or []),
            "mcpServers": sorted(s.get("name") for s in data.get("mcpServers") or []),
            "diagnostics": data.get("diagnostics") or [],
            "acceptedSurface": (data.get("install") or {}).get("acceptedSurface") or {},
        },
        "skills": {"exit": skills["exit"], "stderr": skills["stderr"],
                   "plugin": plugin_skills(claw.home, plugin_id, skills)},
    }


def workspace_mode(claw):
    skills = claw.json("skills", "list", "--json")
    hooks = claw.json("hooks", "list", "--json")
    hook_list = (hooks.get("json") or {}).get("hooks") or []
    return {
        "skills": {
            "exit": skills["exit"],
            "stderr": skills["stderr"],
            "workspace": sorted(
                ({"name": n, "source": s.get("source"), "eligible": s.get("eligible")}
                 for n, s in listed(skills).items() if s.get("source") == "openclaw-workspace"),
                key=lambda s: s["name"],
            ),
        },
        "hooks": {
            "exit": hooks["exit"],
            "stderr": hooks["stderr"],
            "workspace": sorted(
                ({"name": h.get("name"), "source": h.get("source"), "events": h.get("events"),
                  "enabled": h.get("enabled"), "eligible": h.get("eligible")}
                 for h in hook_list if h.get("source") == "openclaw-workspace"),
                key=lambda h: h["name"] or "",
            ),
            "sources": sorted({h.get("source") for h in hook_list if h.get("source")}),
        },
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--openclaw", required=True, help="the openclaw command (a node 24 wrapper)")
    modes = ap.add_subparsers(dest="mode", required=True)
    bundle = modes.add_parser("bundle")
    bundle.add_argument("--dir", required=True)
    bundle.add_argument("--id", required=True)
    workspace = modes.add_parser("workspace")
    workspace.add_argument("--dir", required=True)
    args = ap.parse_args()
    if not os.path.isdir(args.dir):
        ap.error(f"--dir {args.dir}: not a directory")

    binary = os.path.abspath(args.openclaw)
    scratch = tempfile.mkdtemp(prefix="openclaw-inventory-")
    try:
        home = os.path.join(scratch, "home")
        os.makedirs(home)
        if args.mode == "bundle":
            report = bundle_mode(OpenClaw(binary, home), os.path.abspath(args.dir), args.id)
        else:
            folder = os.path.join(scratch, "workspace")
            shutil.copytree(args.dir, folder, symlinks=True)
            report = workspace_mode(OpenClaw(binary, home, workspace=folder))
    except OSError as exc:
        print(f"openclaw_inventory: cannot run {args.openclaw}: {exc}", file=sys.stderr)
        return 2
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    json.dump(report, sys.stdout, indent=2, ensure_ascii=False)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
