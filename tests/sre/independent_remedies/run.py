"""Run every independent remedy case through the real `itbench sre run --task mitigate` CLI.

Prints one JSON document: per case the measurer's label, the suite's verdicts
(mitigation_pass, strict_mitigation_pass), blast radius and agreement, plus totals.
A case agrees when the label "pass" meets mitigation_pass true (and "fail" meets false);
the strict verdict is reported beside it as a second agreement figure.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

# the suite's scenario ids are opaque (they would name the fault to the agent)
from sre.twin.suite import SECRET_FILE, mitigation_suite, suite_id

#: the suite's secret for this measurement, fixed so every run judges the same incidents (a
#: ``sre run`` draws its own, which no agent sees)
MEASURE_SECRET = 3500

HERE = Path(__file__).resolve().parent
ITBENCH = HERE.parents[2] / ".venv" / "bin" / "itbench"
LABEL = re.compile(r"# expect: (pass|fail)")


def run_case(script: Path, out_root: Path, suite: Path) -> dict:
    secret = int((suite / SECRET_FILE).read_text())
    fault, case = script.stem.split("__")
    label = LABEL.match(script.read_text()).group(1)
    # the set's own helpers: _common.sh beside its cases/ folder
    command = (script.parent.parent / "_common.sh").read_text() + "\n" + script.read_text()
    out = out_root / script.stem
    proc = subprocess.run(
        [
            str(ITBENCH),
            "sre",
            "run",
            "--task",
            "mitigate",
            # the suite's own incident for the fault, generated once and shared by its cases
            "--scenarios",
            str(suite / f"Scenario-{suite_id(fault, secret)}"),
            "--agent-cmd",
            command,
            "--output",
            str(out),
            "--format",
            "json",
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    row = {"fault": fault, "case": case, "label": label, "exit": proc.returncode}
    evaluation = out / suite_id(fault, secret) / "1" / "evaluation.json"
    if not evaluation.is_file():
        row["error"] = f"no evaluation.json: {proc.stderr[-400:]}"
        return row
    ev = json.loads(evaluation.read_text())
    if ev.get("error"):
        # An errored trial has no verdict: it counts neither for nor against agreement.
        row["error"] = ev["error"]
        return row
    scores, details = ev["scores"], ev.get("details", {})
    expect = label == "pass"
    row.update(
        mitigation_pass=bool(scores.get("mitigation_pass")),
        strict_mitigation_pass=bool(scores.get("strict_mitigation_pass")),
        agree=bool(scores.get("mitigation_pass")) == expect,
        agree_strict=bool(scores.get("strict_mitigation_pass")) == expect,
        writes=scores.get("agent_writes"),
        blast=details.get("blast"),
        still_firing=details.get("still_firing"),
        new_alerts=details.get("new_alerts"),
        root_problem=details.get("root_problem"),
        run_dir=str(out),
    )
    return row


def rate(rows: list[dict], key: str) -> dict:
    scored = [r for r in rows if key in r]
    n = sum(r[key] for r in scored)
    return {"agree": n, "of": len(scored), "rate": round(n / len(scored), 3) if scored else None}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None, help="run root (default: a temp dir)")
    parser.add_argument("--only", default="", help="substring filter on case file names")
    parser.add_argument(
        "--set",
        type=Path,
        default=HERE,
        help="a remedy set: a folder holding cases/ and _common.sh (default: this one)",
    )
    args = parser.parse_args()
    out_root = args.out or Path(tempfile.mkdtemp(prefix="independent-remedies-"))
    scripts = sorted(p for p in (args.set / "cases").glob("*.sh") if args.only in p.name)
    suite = out_root / "suite"
    # only the fault types the chosen cases repair (``--only`` may pick a few of 51)
    (suite / "mitigation-suite").mkdir(parents=True, exist_ok=True)
    (suite / "mitigation-suite" / SECRET_FILE).write_text(f"{MEASURE_SECRET}\n")
    picked = {suite_id(s.stem.split("__")[0], MEASURE_SECRET) for s in scripts}
    mitigation_suite(suite, tuple(sorted(picked)))
    with ThreadPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(lambda s: run_case(s, out_root, suite / "mitigation-suite"), scripts))
    totals = {}
    for key in ("agree", "agree_strict"):
        totals[key] = {
            "overall": rate(rows, key),
            "correct_remedies": rate([r for r in rows if r["label"] == "pass"], key),
            "wrong_remedies": rate([r for r in rows if r["label"] == "fail"], key),
            "per_fault": {
                f: rate([r for r in rows if r["fault"] == f], key)
                for f in sorted({r["fault"] for r in rows})
            },
        }
    totals["errored_cases"] = [f"{r['fault']}__{r['case']}" for r in rows if "agree" not in r]
    json.dump({"out": str(out_root), "cases": rows, "totals": totals}, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
