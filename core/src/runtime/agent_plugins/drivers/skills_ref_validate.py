#!/usr/bin/env python3
"""Run the Agent Skills reference validator on every skill of one or more skills folders.

Usage: skills_ref_validate.py --skills-ref BIN [--missing-ok] SKILLS_DIR...

For each `SKILLS_DIR/<name>/SKILL.md`, runs `skills-ref validate SKILLS_DIR/<name>`
(offline, in a HOME of its own) and adds the layout check skills-ref cannot make:
a SKILL.md nested deeper than `<skills>/<name>/` is listed under "nested" (Agent
Plugins clients never look there). Prints one JSON object
`{"skills": {"<absolute skill dir>": {"exit", "output"}}, "nested": [...]}`. Exit 0 when
every validation ran (whatever it reported), 2 on usage errors (a SKILLS_DIR that is not a folder,
unless --missing-ok: then it holds no skill).
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


def validate(binary, skill_dir, home):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "NO_COLOR": "1"}
    try:
        proc = subprocess.run(
            [binary, "validate", skill_dir],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=home,
            timeout=TIMEOUT,
        )
        return {"exit": proc.returncode, "output": proc.stdout.decode("utf-8", "replace")}
    except subprocess.TimeoutExpired as exc:
        out = (exc.stdout or b"").decode("utf-8", "replace")
        return {"exit": TIMEOUT_EXIT, "output": out + f"\n[skills_ref_validate: timed out after {TIMEOUT} s]"}


def nested_skills(root):
    found = []
    for name in sorted(os.listdir(root)):
        top = os.path.join(root, name)
        if not os.path.isdir(top):
            continue
        for dirpath, _, files in os.walk(top):
            if dirpath != top and "SKILL.md" in files:
                found.append(os.path.join(dirpath, "SKILL.md"))
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--skills-ref", required=True, help="path of the skills-ref binary")
    ap.add_argument("--missing-ok", action="store_true", help="a folder that is not there holds no skill")
    ap.add_argument("dirs", nargs="+", help="skills folders (holding <name>/SKILL.md)")
    args = ap.parse_args()
    if args.missing_ok:
        args.dirs = [d for d in args.dirs if os.path.exists(d)]
    for d in args.dirs:
        if not os.path.isdir(d):
            ap.error(f"{d}: not a directory")

    report = {"skills": {}, "nested": []}
    home = tempfile.mkdtemp(prefix="skills-ref-home-")
    try:
        binary = os.path.abspath(args.skills_ref)
        for root in args.dirs:
            for name in sorted(os.listdir(root)):
                skill_dir = os.path.join(root, name)
                if os.path.isfile(os.path.join(skill_dir, "SKILL.md")):
                    skill_dir = os.path.abspath(skill_dir)
                    report["skills"][skill_dir] = validate(binary, skill_dir, home)
            report["nested"].extend(nested_skills(root))
    except OSError as exc:
        print(f"skills_ref_validate: {exc}", file=sys.stderr)
        return 2
    finally:
        shutil.rmtree(home, ignore_errors=True)

    json.dump(report, sys.stdout, indent=2, ensure_ascii=False)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
