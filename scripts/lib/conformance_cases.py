#!/usr/bin/env python3
"""The one listing of the shared conformance cases every host runs.

A suite's cases live in two kinds of places: the shared ones in
tests/<suite>/, and those about one runtime's format in that runtime's folder,
core/src/runtime/<folder>/conformance/<suite>/. Every host's runner (Rust, the
CLI, Python, wasm, Node), the conformance guard, the fuzz seeds and the
runtime scaffold ask this module where the cases are, so no host can miss a
place another one reads.

Suites and their case folders:
  vectors  <root>/<name>/            a golden vector (case.json, input/, expected/)
  rules    <root>/<area>/<what>/     a rule's fixtures, named by its code <area>/<what>
  imports  <root>/<name>/            an import case (case.json, input/, expected/)

Names are unique across places (they are what the hosts record and the guard
compares). Run as a script it prints the listing as JSON, each case's folder
relative to the repository root:
  conformance_cases.py            {"vectors": [{"name": ..., "dir": ..., "folder": ...}], ...}
  conformance_cases.py SUITE      that suite's list only
`folder` is the runtime folder a case lives in, or null for a shared one."""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SUITES = ("vectors", "rules", "imports")
# A suite below a runtime's folder, so none of it is a Rust module and the
# packaged crate leaves it out (core/Cargo.toml, `exclude`).
RUNTIME_PLACE = "conformance"


def _subdirs(path):
    return sorted(p.name for p in path.iterdir() if p.is_dir()) if path.is_dir() else []


def roots(suite, root=ROOT):
    """(runtime folder or None, the suite's folder) of every place, shared first."""
    if suite not in SUITES:
        raise ValueError(f"unknown suite {suite!r}; known: {', '.join(SUITES)}")
    places = [(None, root / "tests" / suite)]
    runtimes = root / "core" / "src" / "runtime"
    places += [(folder, runtimes / folder / RUNTIME_PLACE / suite) for folder in _subdirs(runtimes)]
    return [(folder, path) for folder, path in places if path.is_dir()]


def cases(suite, root=ROOT):
    """Every case of `suite`: dicts with `name`, `dir` (a Path) and `folder`, sorted by name.
    Two cases of one name are an error: the records would not tell them apart."""
    found = {}
    for folder, base in roots(suite, root):
        if suite == "rules":
            names = [f"{area}/{what}" for area in _subdirs(base) for what in _subdirs(base / area)]
        else:
            names = _subdirs(base)
        for name in names:
            case = {"name": name, "dir": base / name, "folder": folder}
            if name in found:
                raise SystemExit(
                    f"conformance cases: {suite} case {name!r} is in both "
                    f"{found[name]['dir'].relative_to(root)} and {case['dir'].relative_to(root)}"
                )
            found[name] = case
    return [found[name] for name in sorted(found)]


def listing(suites=SUITES, root=ROOT):
    """The JSON form: folders relative to `root`, with `/`."""
    return {
        suite: [{**case, "dir": case["dir"].relative_to(root).as_posix()} for case in cases(suite, root)]
        for suite in suites
    }


def main(argv):
    if len(argv) > 1 or (argv and argv[0] not in SUITES):
        sys.exit(f"usage: conformance_cases.py [SUITE]   (a suite: {', '.join(SUITES)})")
    out = listing(argv or SUITES)
    json.dump(out[argv[0]] if argv else out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main(sys.argv[1:])
