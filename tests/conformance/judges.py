"""The real clients as judges of one bundle: each judge returns
{"exit": code, "messages": [...]} with the messages that carry the verdict
(temp paths replaced by <bundle>/<home>), so a verdict can be recorded and
compared run to run. Every judge runs in its own throwaway HOME, offline."""
import json
import os
import re

import common
from claude_inventory import Claude
from gemini_inventory import Gemini

FOUND = re.compile(r"Found \d+ (error|warning)s?\b")


def normalize(text, paths):
    for path, label in paths:
        text = text.replace(os.path.realpath(path), label).replace(path, label)
    return text


def claude_validate(binary, bundle, strict):
    """`claude plugin validate [--strict]`: the ❯ lines, each tagged error/warning."""
    with common.Scratch("claude-home") as home:
        claude = Claude(binary, home)
        args = ["plugin", "validate", *(["--strict"] if strict else []), bundle]
        result = claude.run(*args)
    messages, kind = [], None
    for line in result["output"].splitlines():
        found = FOUND.search(line)
        if found:
            kind = found.group(1)
        elif line.strip().startswith("❯") and kind:
            messages.append(f"{kind}: {line.strip()[1:].strip()}")
        elif "Invalid JSON" in line or "not found" in line.lower():
            messages.append(line.strip())
    if result["exit"] != 0 and not messages:
        messages = [line.strip() for line in result["output"].splitlines() if line.strip()][-2:]
    return {"exit": result["exit"], "messages": [normalize(m, [(bundle, "<bundle>")]) for m in messages]}


def marketplace_name(root):
    try:
        name = common.read_json(os.path.join(root, ".claude-plugin", "marketplace.json"))["name"]
        return name if isinstance(name, str) else None
    except (OSError, ValueError, KeyError, TypeError):
        return None


def claude_install(binary, bundle, plugin):
    """`claude plugin marketplace add` + `install PLUGIN@MP`. A plugin folder
    without a marketplace is listed by a one-entry marketplace around it."""
    with common.Scratch("claude-install") as scratch:
        root = bundle
        if not os.path.exists(os.path.join(bundle, ".claude-plugin", "marketplace.json")):
            root = os.path.join(scratch, "market")
            common.copy_tree(bundle, os.path.join(root, "plugin"))
            os.makedirs(os.path.join(root, ".claude-plugin"))
            common.write_json(os.path.join(root, ".claude-plugin", "marketplace.json"), {
                "name": "conformance", "owner": {"name": "plugforge"},
                "plugins": [{"name": plugin, "source": "./plugin"}]})
        home = os.path.join(scratch, "home")
        os.makedirs(home)
        claude = Claude(binary, home)
        paths = [(root, "<bundle>"), (home, "<home>")]
        added = claude.run("plugin", "marketplace", "add", root)
        if added["exit"] != 0:
            return {"exit": added["exit"], "messages": ["marketplace add: " + normalize(last_lines(added["output"]), paths)]}
        name = marketplace_name(root)
        installed = claude.run("plugin", "install", f"{plugin}@{name}")
        return {"exit": installed["exit"], "messages": ["install: " + normalize(last_lines(installed["output"]), paths)]}


def last_lines(output, n=1):
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    return " / ".join(lines[-n:])


def gemini(binary, home, cwd):
    """The driver's Gemini, told not to relaunch itself (the relaunch only raises
    node's heap limit and doubles the start time)."""
    client = Gemini(binary, home, cwd)
    client.env["GEMINI_CLI_NO_RELAUNCH"] = "true"
    return client


def gemini_validate(binary, bundle):
    with common.Scratch("gemini") as scratch:
        home, cwd = os.path.join(scratch, "home"), os.path.join(scratch, "work")
        os.makedirs(home)
        os.makedirs(cwd)
        result = gemini(binary, home, cwd).run("extensions", "validate", bundle)
    lines = [line.strip() for line in result["output"].splitlines() if line.strip()]
    keep = [line for line in lines if not line.startswith(("Loaded cached", "YOLO"))]
    return {"exit": result["exit"], "messages": [normalize(m, [(bundle, "<bundle>")]) for m in keep]}


def gemini_install(binary, bundle):
    """`gemini extensions install --consent --skip-settings`, then `list`'s load errors."""
    with common.Scratch("gemini") as scratch:
        home, cwd = os.path.join(scratch, "home"), os.path.join(scratch, "work")
        os.makedirs(home)
        os.makedirs(cwd)
        installed = gemini(binary, home, cwd).run("extensions", "install", bundle, "--consent", "--skip-settings")
        paths = [(bundle, "<bundle>"), (home, "<home>")]
        messages = [normalize(line.strip(), paths) for line in installed["output"].splitlines()
                    if re.search(r"Error|error|Failed|Invalid|not a function|installed successfully", line)]
    return {"exit": installed["exit"], "messages": messages}


def run_judge(judge, binary, bundle, case):
    if judge == "claude validate":
        return claude_validate(binary, bundle, strict=False)
    if judge == "claude validate --strict":
        return claude_validate(binary, bundle, strict=True)
    if judge == "claude install":
        return claude_install(binary, bundle, case["install"]["plugin"])
    if judge == "gemini validate":
        return gemini_validate(binary, bundle)
    if judge == "gemini install":
        return gemini_install(binary, bundle)
    raise ValueError(f"unknown judge {judge!r}")


def client_of(judge):
    return judge.split()[0]


def strict_judge(judge):
    """Judges that count warnings (compared with `plugforge validate --strict`)."""
    return judge.endswith("--strict")


def accepts(verdict):
    return verdict["exit"] == 0


def dumps(verdict):
    return json.dumps(verdict, ensure_ascii=False)
