#!/usr/bin/env python3
"""A Striatum-like runner's `plugin install`, `plugin uninstall` and `doctor` (RFC 0025), on plugforge.

The runner's own templates ship next to it (runner_templates/, a canonical plugforge source) and
its version is stamped into every file: generator=("striatum", VERSION) and the runner_version
variable. Layout: <target>/.striatum/plugins/claude_code/ (manifest .manifest.json) plus the local
marketplace <target>/.striatum/plugins/.claude-plugin/marketplace.json; --scope user uses ~ instead
of <target>. Exit codes: 0 done (doctor: healthy), 1 refused or a finding, 2 bad usage.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Optional, Sequence

import plugforge

VERSION = "0.7.3"
TEMPLATES = Path(__file__).resolve().parent / "runner_templates"
MANIFEST = ".manifest.json"
#: Profile id -> plugforge runtime; `all` is every profile. A runtime plugforge does not
#: write yet is refused by the engine (unsupported_runtime) before anything is written.
PROFILES = {"claude_code": "claude-code", "codex": "codex", "gemini": "gemini"}
USAGE_CODES = ("unsupported_runtime", "unsupported_kind", "invalid_options")


class UsageError(Exception):
    """Bad command line: exit code 2."""


def parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="striatum", description=__doc__.splitlines()[0])
    verbs = parser.add_subparsers(dest="verb", required=True)
    plugin = verbs.add_parser("plugin").add_subparsers(dest="action", required=True)
    install = plugin.add_parser("install", help="write (or refresh) a plugin bundle")
    uninstall = plugin.add_parser("uninstall", help="remove a generated bundle")
    doctor = verbs.add_parser("doctor", help="check generated bundles; changes nothing")
    for sub in (install, uninstall, doctor):
        sub.add_argument("--target", default=".", help="target repo root (default: .)")
        sub.add_argument("--profile", default="claude_code")
        sub.add_argument("--scope", choices=("project", "user"), default="project")
        sub.add_argument("--namespace", default=None, help="plugin namespace (default: striatum)")
        sub.add_argument("--json", action="store_true")
    for sub in (install, uninstall):
        sub.add_argument("--force", action="store_true", help="overwrite or remove edited files")
        sub.add_argument("--dry-run", action="store_true", help="print the plan, write nothing")
    install.add_argument("--with-marketplace", action=argparse.BooleanOptionalAction, default=True)
    return parser.parse_args(argv)


def profiles(profile: str) -> dict[str, str]:
    """The selected profiles, each with its plugforge runtime."""
    if profile == "all":
        return dict(PROFILES)
    if profile not in PROFILES:
        raise UsageError(f"unknown profile {profile!r}; expected one of: {', '.join(PROFILES)}, all")
    return {profile: PROFILES[profile]}


def plugins_dir(args: argparse.Namespace) -> Path:
    base = Path.home() if args.scope == "user" else Path(args.target)
    return base / ".striatum" / "plugins"


def where(args: argparse.Namespace) -> dict[str, Any]:
    """Options every plugforge call shares: the runner's own layout and manifest name."""
    return dict(scope=args.scope, namespace=args.namespace, manifest_name=MANIFEST,
                roots={runtime: name for name, runtime in profiles(args.profile).items()})


def runtimes(args: argparse.Namespace) -> list[str]:
    return list(profiles(args.profile).values())


def build(args: argparse.Namespace, version: str, marketplace: bool = True) -> plugforge.Build:
    # The runner promises self-contained bundles: any URL is refused, whatever the templates say.
    return plugforge.build(plugforge.read_tree(TEMPLATES), targets=runtimes(args),
                           vars={"runner_version": version}, generator=("striatum", version),
                           marketplace=marketplace, deny_urls=True, **where(args))


def install(args: argparse.Namespace, version: str) -> int:
    out = plugins_dir(args)
    result = build(args, version, args.with_marketplace)
    observed = plugforge.observe(out, result.paths_to_read())
    return carry_out(args, out, result.plan(observed, force=args.force))


def uninstall(args: argparse.Namespace, version: str) -> int:
    out = plugins_dir(args)
    options = dict(where(args), runtimes=runtimes(args), force=args.force)
    observed = plugforge.observe(out, plugforge.uninstall_paths_to_read(**options))
    return carry_out(args, out, plugforge.uninstall_plan(observed, **options))


def doctor(args: argparse.Namespace, version: str) -> int:
    out = plugins_dir(args)
    fix = f"striatum plugin install --profile {args.profile} --target {args.target}"
    fix += " --scope user" if args.scope == "user" else ""
    fix += f" --namespace {args.namespace}" if args.namespace else ""
    options = dict(where(args), runtimes=runtimes(args), generator=("striatum", version),
                   build_command=fix, out_dir=str(out))
    observed = plugforge.observe(out, plugforge.doctor_paths_to_read(**options))
    report = plugforge.doctor(observed, build(args, version), **options)
    failing = [f for f in report.findings if f.severity != "info"]
    if args.json:
        findings = [{k: getattr(f, k) for k in ("code", "severity", "path", "message", "fix")}
                    for f in report.findings]
        emit({"ok": not failing, "profile": args.profile, "findings": findings})
    elif report.healthy:
        print(f"healthy: {args.profile} bundle at {out} matches striatum {version}")
    for finding in [] if args.json else report.findings:
        print(f"{finding.code}: {finding.message}\n    fix: {finding.fix}")
    return 1 if failing else 0


def carry_out(args: argparse.Namespace, out: Path, plan: plugforge.Plan) -> int:
    """Applies the plan unless refused or a dry run, then reports it; 1 when refused."""
    applied = not plan.refused and not args.dry_run
    if applied:
        plugforge.apply_plan(out, plan)
    if args.json:
        summary = {k: getattr(plan.summary, k) for k in ("create", "update", "unchanged", "conflict", "remove", "keep")}
        emit({"ok": not plan.refused, "profile": args.profile, "out": str(out), "dry_run": args.dry_run,
              "applied": applied, "refused": plan.refused, "writes": plan.writes, "summary": summary,
              "actions": [{"path": a.path, "op": a.op, "reason": a.reason} for a in plan.actions]})
        return 1 if plan.refused else 0
    for a in plan.actions:
        if a.op != "unchanged":
            print(f"  {a.op:<8} {out / a.path}" + (f"  ({a.reason})" if a.reason else ""))
    s = plan.summary
    print(f"plan: {s.create} create, {s.update} update, {s.conflict} conflict, {s.remove} remove, "
          f"{s.keep} keep ({plan.writes} writes)")
    if plan.refused:
        print("refused: edited files are in the way; nothing was written (--force overwrites)")
    elif args.dry_run:
        print("dry run: nothing was written")
    return 1 if plan.refused else 0


def emit(value: Any) -> None:
    print(json.dumps(value, indent=2))


def main(argv: Optional[Sequence[str]] = None, version: str = VERSION) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    verb = {"install": install, "uninstall": uninstall}.get(getattr(args, "action", ""), doctor)
    try:
        return verb(args, version)
    except UsageError as err:
        return fail(args, "usage", str(err), 2)
    except plugforge.PlugforgeError as err:
        return fail(args, err.code, str(err), 2 if err.code in USAGE_CODES else 1)


def fail(args: argparse.Namespace, code: str, message: str, exit_code: int) -> int:
    if args.json:
        emit({"ok": False, "error": {"code": code, "message": message}})
    else:
        print(f"error[{code}]: {message}", file=sys.stderr)
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
