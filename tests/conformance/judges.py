"""The real clients as judges of one bundle: each judge returns
{"exit": code, "messages": [...]} with the messages that carry the verdict
(temp paths replaced by <bundle>/<home>), so a verdict can be recorded and
compared run to run. Every judge runs in its own throwaway HOME, offline."""
import json
import os
import re

import common
from claude_inventory import Claude
from codex_inventory import Codex
from gemini_inventory import Gemini
from hermes_inventory import LOAD_PLUGINS, Hermes, plugin_name
from openclaw_inventory import OpenClaw

FOUND = re.compile(r"Found \d+ (error|warning)s?\b")


def normalize(text, paths):
    for path, label in paths:
        text = text.replace(os.path.realpath(path), label).replace(path, label)
    return text


# Since 2.1.3xx `claude plugin validate` follows its verdict with what the plugin
# provides and the plugin directory's catalog checks, which "do not change the
# result": neither is part of the verdict.
CLAUDE_REPORT_TAILS = ("Provides:", "Hosts not read for:", "Plugin directory checks")


def claude_verdict_lines(output):
    """The lines of `claude plugin validate` output up to its informational tail."""
    lines = []
    for line in output.splitlines():
        if line.strip().startswith(CLAUDE_REPORT_TAILS):
            break
        lines.append(line)
    return lines


def claude_validate(binary, bundle, strict):
    """`claude plugin validate [--strict]`: the ❯ lines, each tagged error/warning."""
    with common.Scratch("claude-home") as home:
        claude = Claude(binary, home)
        args = ["plugin", "validate", *(["--strict"] if strict else []), bundle]
        result = claude.run(*args)
    messages, kind = [], None
    for line in claude_verdict_lines(result["output"]):
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


def codex_install(binary, bundle, plugin):
    """`codex plugin marketplace add` + `codex plugin add PLUGIN@MP`, the plugin
    listed by a one-entry Codex marketplace around it."""
    with common.Scratch("codex-install") as scratch:
        root = os.path.join(scratch, "market")
        common.copy_tree(bundle, os.path.join(root, "plugin"))
        os.makedirs(os.path.join(root, ".agents", "plugins"))
        common.write_json(os.path.join(root, ".agents", "plugins", "marketplace.json"), {
            "name": "conformance",
            "plugins": [{"name": plugin, "source": {"source": "local", "path": "./plugin"}}]})
        home = os.path.join(scratch, "home")
        os.makedirs(home)
        codex = Codex(binary, home)
        paths = [(root, "<bundle>"), (home, "<home>")]
        added = codex.run("plugin", "marketplace", "add", root, cwd=home)
        if added["exit"] != 0:
            output = added["stdout"] + added["stderr"]
            return {"exit": added["exit"], "messages": ["marketplace add: " + normalize(last_lines(output), paths)]}
        installed = codex.run("plugin", "add", f"{plugin}@conformance", cwd=home)
        errors = [line.strip() for line in (installed["stdout"] + installed["stderr"]).splitlines()
                  if line.strip().startswith("Error")]
        # stdout carries the outcome; stderr a warning about helper binaries under /tmp.
        summary = errors or installed["stdout"].strip().splitlines()[:1]
        return {"exit": installed["exit"], "messages": ["add: " + normalize(m, paths) for m in summary]}


def openclaw_install(binary, bundle):
    """`openclaw plugins install DIR --force --accept-capabilities`, then what the
    installed plugin became: `plugins inspect ID --json` must say loaded with no
    diagnostics, and `skills list --json` must skip none of its skills."""
    with common.Scratch("openclaw") as home:
        claw = OpenClaw(binary, home)
        paths = [(bundle, "<bundle>"), (home, "<home>")]
        keep = re.compile(r"fail|error|invalid|Installed plugin|not found", re.I)
        clean = lambda text: [line for line in (normalize(raw.strip(), paths) for raw in text.splitlines())
                              if keep.search(line)]
        installed = claw.run("plugins", "install", bundle, "--force", "--accept-capabilities")
        messages = ["install: " + m for m in clean(installed["stdout"] + installed["stderr"])]
        if installed["exit"] != 0:
            return {"exit": installed["exit"], "messages": messages}
        found = re.search(r"Installed plugin: (\S+)", installed["stdout"])
        plugin_id = found.group(1) if found else os.path.basename(bundle)
        inspect = claw.json("plugins", "inspect", plugin_id, "--json")
        plugin = (inspect.get("json") or {}).get("plugin") or {}
        diagnostics = (inspect.get("json") or {}).get("diagnostics") or []
        messages.append(f"inspect: format {plugin.get('bundleFormat') or plugin.get('format')}, "
                        f"status {plugin.get('status')}")
        messages += ["diagnostic: " + normalize(str(d.get("message")), paths) for d in diagnostics]
        problems = inspect["exit"] != 0 or plugin.get("status") != "loaded" or plugin.get("error") or diagnostics
        skills = claw.json("skills", "list", "--json")
        skipped = [line for line in clean(skills["stderr"]) if f"/extensions/{plugin_id}/" in line]
        messages += ["skills list: " + line for line in skipped]
    return {"exit": 1 if problems or skipped else 0, "messages": messages}


def agent_skills_dirs(bundle):
    """The skill folders of a folder of Agent Skills, where `npx skills add`
    reads them: every folder of skills/, the other folders holding a SKILL.md,
    or the folder itself."""
    found = []
    skills = os.path.join(bundle, "skills")
    if os.path.isdir(skills):
        found += [os.path.join(skills, n) for n in sorted(os.listdir(skills))
                  if os.path.isdir(os.path.join(skills, n)) and not n.startswith(".")]
    found += [os.path.join(bundle, n) for n in sorted(os.listdir(bundle))
              if n != "skills" and not n.startswith(".") and os.path.isfile(os.path.join(bundle, n, "SKILL.md"))]
    if not found and os.path.isfile(os.path.join(bundle, "SKILL.md")):
        found.append(bundle)
    return found


def skills_ref_validate(binary, bundle):
    """`skills-ref validate DIR` on each skill folder: the verdict and the
    reasons of each folder it refuses."""
    messages, failed = [], False
    with common.Scratch("skills-ref") as home:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "NO_COLOR": "1"}
        for skill in agent_skills_dirs(bundle):
            code, out, err = common.run([binary, "validate", skill], cwd=home, env=env, timeout=60)
            failed = failed or code != 0
            rel = os.path.relpath(skill, bundle)
            lines = [line.strip() for line in (out + err).splitlines() if line.strip()]
            messages += [f"{rel}: {normalize(line, [(bundle, '<bundle>')])}" for line in lines]
    if not messages:
        messages = ["no skill folder"]
    return {"exit": 1 if failed or not agent_skills_dirs(bundle) else 0, "messages": messages}


def hermes_load(binary, bundle):
    """The plugin copied into $HERMES_HOME/plugins/, enabled, and loaded with
    Hermes's own PluginManager (which runs register(ctx)): it must load with no
    error, and register and serve every skill it ships under skills/."""
    with common.Scratch("hermes") as home:
        hermes = Hermes(binary, home)
        name = plugin_name(bundle)
        target = os.path.join(home, ".hermes", "plugins", name)
        common.copy_tree(bundle, target)
        enabled = hermes.cli("plugins", "enable", name)
        load = hermes.python_json(LOAD_PLUGINS)
        got = (load.get("data") or {}).get(name)
        shipped = sorted(os.path.relpath(os.path.join(d, "SKILL.md"), target)
                         for d, _, files in os.walk(os.path.join(target, "skills")) if "SKILL.md" in files)
        if got is None:
            tail = (load.get("stderr") or "").strip().splitlines()[-1:]
            return {"exit": 1, "messages": [f"not loaded (enable exit {enabled['exit']})", *tail]}
        registered = set()
        for path in got["skill_paths"].values():
            path = os.path.realpath(path)
            registered.add(os.path.relpath(path if path.endswith("SKILL.md") else os.path.join(path, "SKILL.md"),
                                           os.path.realpath(target)))
    messages = [f"registered: {', '.join(got['skills']) or 'none'}"]
    if got.get("error"):
        messages.append("error: " + normalize(str(got["error"]), [(target, "<plugin>"), (home, "<home>")]))
    unserved = sorted(s for s, ok in got["served"].items() if not ok)
    unregistered = [s for s in shipped if s not in registered]
    messages += [f"not served: {s}" for s in unserved] + [f"not registered: {s}" for s in unregistered]
    return {"exit": 1 if got.get("error") or unserved or unregistered else 0, "messages": messages}


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
    if judge == "codex install":
        return codex_install(binary, bundle, case["install"]["plugin"])
    if judge == "openclaw install":
        return openclaw_install(binary, bundle)
    if judge == "skills-ref validate":
        return skills_ref_validate(binary, bundle)
    if judge == "hermes load":
        return hermes_load(binary, bundle)
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
