#!/usr/bin/env python3
"""Agreement with the real validators.

Each case under tests/conformance/agreement/<case>/ holds a bundle (`bundle/`),
`case.json` ({description, target, judges, codes, stricter?, install?}) and
`verdicts.json` (what each real judge said: exit code and key messages).

For every judge of every case, `plugforge validate --json --target T` is
compared with the real verdict (judges ending in --strict against plugforge's
strict verdict, the others against its lenient one):
- both accept or both reject: agreement;
- the real client rejects and plugforge accepts: FAILURE;
- plugforge rejects and the real client accepts: plugforge is stricter; the
  case must say why (`stricter`), and the case is listed in STRICTER.md.
Every code in the case's `codes` must be among plugforge's findings.

With the clients available (PLUGFORGE_CLAUDE_BIN, PLUGFORGE_CODEX_BIN, PLUGFORGE_GEMINI_BIN,
PLUGFORGE_OPENCLAW_BIN, PLUGFORGE_SKILLS_REF_BIN, PLUGFORGE_HERMES_BIN) the
real judges run again and must give the recorded verdicts; without them the
recorded verdicts are used for the clients PLUGFORGE_SKIP_CLIENTS names
(any other missing client is a failure). `--update` records the verdicts of the clients that ran and
rewrites STRICTER.md; without it a STRICTER.md that differs from what this run
finds is a failure (drift).

Usage: agreement.py [--update] [--jobs N] [CASE...]
"""
import argparse
import concurrent.futures
import os
import sys

import common
import judges

CORPUS = os.path.join(common.HERE, "agreement")
# The clients the judges of judges.run_judge run.
JUDGE_CLIENTS = ["claude", "codex", "gemini", "openclaw", "skills-ref", "hermes"]
STRICTER = os.path.join(CORPUS, "STRICTER.md")


class Outcome:
    def __init__(self, name, case):
        self.name = name
        self.case = case
        self.rows = []  # (judge, real verdict, plugforge verdict, result)
        self.failures = []
        self.notes = []
        self.codes = []
        self.recorded = None


def client_versions(clients):
    versions = {}
    for name, binary in clients.items():
        if binary:
            code, out, err = common.run([binary, "--version"], env=dict(os.environ, NO_COLOR="1"), timeout=120)
            lines = (out or err).strip().splitlines()
            # Hermes prints its version first, then its install details.
            versions[name] = (lines[0] if name == "hermes" else lines[-1]) if code == 0 and lines else None
    return versions


def judge_case(name, clients, update):
    folder = os.path.join(CORPUS, name)
    case = common.read_json(os.path.join(folder, "case.json"))
    outcome = Outcome(name, case)
    bundle = os.path.join(folder, "bundle")
    verdicts_file = os.path.join(folder, "verdicts.json")
    recorded = common.read_json(verdicts_file) if os.path.exists(verdicts_file) else {"verdicts": {}}

    code, report, raw = common.plugforge_validate(bundle, target=case.get("target"))
    if report is None or code not in (0, 1):
        outcome.failures.append(f"plugforge validate did not report (exit {code}):\n{raw}")
        return outcome
    lenient_ok = report["errors"] == 0
    strict_ok = report["errors"] + report["warnings"] == 0
    outcome.codes = sorted({f["code"] for f in report["findings"]})
    for expected in case.get("codes", []):
        if expected not in outcome.codes:
            outcome.failures.append(f"plugforge does not report {expected} (it reports {outcome.codes or 'nothing'})")

    fresh = {}
    for judge in case["judges"]:
        binary = clients.get(judges.client_of(judge))
        old = recorded["verdicts"].get(judge)
        if binary:
            verdict = judges.run_judge(judge, binary, bundle, case)
            fresh[judge] = verdict
            if old is not None and verdict != old and not update:
                outcome.failures.append(
                    f"{judge}: the real client's verdict changed\n  recorded: {judges.dumps(old)}\n"
                    f"  now:      {judges.dumps(verdict)}\n  (check, then record with --update)")
        elif old is not None:
            verdict = old
        else:
            outcome.failures.append(f"{judge}: no recorded verdict and no client to ask (record with --update)")
            continue
        real_ok = judges.accepts(verdict)
        ours_ok = strict_ok if judges.strict_judge(judge) else lenient_ok
        if real_ok == ours_ok:
            result = "agree"
        elif ours_ok:
            result = "LOOSER"
            outcome.failures.append(
                f"{judge} rejects ({'; '.join(verdict['messages']) or 'exit %d' % verdict['exit']}) "
                f"but plugforge validate{' --strict' if judges.strict_judge(judge) else ''} accepts")
        else:
            result = "stricter"
            if not case.get("stricter"):
                outcome.failures.append(
                    f"{judge} accepts but plugforge rejects ({', '.join(outcome.codes)}); if that is right, "
                    f"say why in case.json `stricter`")
        outcome.rows.append((judge, "accept" if real_ok else "reject", "accept" if ours_ok else "reject", result))

    if case.get("stricter") and not any(r[3] == "stricter" for r in outcome.rows) and not outcome.failures:
        outcome.notes.append("case.json gives a `stricter` reason but plugforge agrees with every judge")
    if update and fresh:
        versions = {c: v for c, v in clients.get("versions", {}).items() if any(judges.client_of(j) == c for j in fresh)}
        merged = dict(recorded["verdicts"], **fresh)
        outcome.recorded = {"clients": dict(recorded.get("clients", {}), **versions),
                            "verdicts": {j: merged[j] for j in case["judges"] if j in merged}}
        common.write_json(verdicts_file, outcome.recorded)
    return outcome


def stricter_markdown(outcomes):
    rows = []
    for o in outcomes:
        strict_judges = [r[0] for r in o.rows if r[3] == "stricter"]
        if strict_judges:
            rows.append((f"`{o.name}`", ", ".join(f"`{j}`" for j in strict_judges),
                         ", ".join(f"`{c}`" for c in o.codes), o.case.get("stricter", "(no reason given)")))
    return (
        "# Where plugforge is stricter than the real validators\n\n"
        "Generated by `tests/conformance/agreement.py --update` (`scripts/test-reality --update`); "
        "the test fails when this file is out of date.\n"
        "Each row is a case of `tests/conformance/agreement/` that the named real judges accept and "
        "`plugforge validate` rejects, with the findings and why rejecting is right.\n\n"
        + common.table(rows, ("case", "accepted by", "plugforge reports", "why plugforge rejects")) + "\n"
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--update", action="store_true", help="record real verdicts and rewrite STRICTER.md")
    ap.add_argument("--jobs", type=int, default=common.JOBS)
    ap.add_argument("cases", nargs="*")
    args = ap.parse_args()

    clients = {name: common.client(name) for name in JUDGE_CLIENTS}
    for name, binary in clients.items():
        if not binary:
            print(f"agreement: {name} skipped (PLUGFORGE_SKIP_CLIENTS), using the recorded verdicts",
                  file=sys.stderr)
    clients["versions"] = client_versions({k: v for k, v in clients.items() if k != "versions"}) if args.update else {}
    names = args.cases or sorted(d for d in os.listdir(CORPUS) if os.path.isdir(os.path.join(CORPUS, d)))
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        outcomes = list(pool.map(lambda n: judge_case(n, clients, args.update), names))

    failed = 0
    print(common.table(
        [(o.name, ", ".join(f"{r[0]}: {r[1]}" for r in o.rows) or "-",
          ", ".join(sorted({r[2] for r in o.rows})) or "-",
          ", ".join(sorted({r[3] for r in o.rows})) if not o.failures else "FAIL")
         for o in outcomes],
        ("case", "real verdicts", "plugforge", "result")))
    for o in outcomes:
        for note in o.notes:
            print(f"note: {o.name}: {note}")
        for failure in o.failures:
            failed += 1
            print(f"FAIL {o.name}: {failure}")

    if not args.cases:
        text = stricter_markdown(outcomes)
        if args.update:
            with open(STRICTER, "w", encoding="utf-8") as f:
                f.write(text)
        else:
            try:
                with open(STRICTER, encoding="utf-8") as f:
                    committed = f.read()
            except OSError:
                committed = None
            if committed != text:
                failed += 1
                print(f"FAIL {os.path.relpath(STRICTER, common.REPO)} is out of date "
                      f"(run scripts/test-reality --update and review the diff)")
    agree = sum(1 for o in outcomes for r in o.rows if r[3] == "agree")
    stricter = sum(1 for o in outcomes for r in o.rows if r[3] == "stricter")
    total = sum(len(o.rows) for o in outcomes)
    print(f"\nagreement: {len(outcomes)} cases, {total} verdicts: {agree} agree, {stricter} stricter "
          f"(listed in STRICTER.md), {failed} failure(s)")
    common.print_times("agreement")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
