"""The CISO ``baseline`` agent on the built-in suite and on the paraphrase set.

Runs ``itbench ciso run --agent baseline -j 2`` twice: on the built-in suite, and on copies of
the suite's scenarios whose requirement is reworded (tests/ciso/paraphrases.yaml, two rewrites
per control). Prints one JSON document: per-class ITBench and strict pass@1 (not understood
counts as a failure), the paper's best LLM figures beside them, wall time of each run, and the
strict outcome of every paraphrase trial.
Run: .venv/bin/python benchmarks/ciso_baseline.py [-j 2] [--skip-suite] [--skip-paraphrases]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PARAPHRASES = REPO / "tests" / "ciso" / "paraphrases.yaml"
#: ITBench paper pass@1 (%) per class, best LLMs (arXiv 2502.05352)
PAPER = {
    "gpt-4o": {
        "kyverno": 40.28,
        "kubectl-opa": 39.34,
        "rhel9-ansible-opa": 7.61,
        "kyverno-update": 17.74,
        "overall": 24.74,
    },
    "gpt-4o-mini": {
        "kyverno": 16.18,
        "kubectl-opa": 43.10,
        "rhel9-ansible-opa": 30.38,
        "kyverno-update": 9.43,
        "overall": 25.19,
    },
}


def _itbench() -> str:
    candidate = Path(sys.executable).parent / "itbench"
    return str(candidate) if candidate.exists() else "itbench"


def run(scenarios: str | None, output: Path, jobs: int) -> tuple[float, dict]:
    command = [_itbench(), "ciso", "run", "--agent", "baseline", "-j", str(jobs)]
    command += ["--output", str(output), "--format", "json", "--no-progress"]
    if scenarios:
        command += ["--scenarios", scenarios]
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.monotonic() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"itbench ciso run failed ({done.returncode}): {done.stderr[-2000:]}")
    return wall, json.loads((output / "results.json").read_text())


def trial_outcomes(run_dir: Path) -> dict[str, dict]:
    """scenario id -> class, ITBench and strict pass, and the agent's error (not understood)."""
    outcomes = {}
    for path in sorted(run_dir.glob("*/*/evaluation.json")):
        evaluation = json.loads(path.read_text())
        scores = evaluation.get("scores") or {}
        outcomes[evaluation["scenario_id"]] = {
            "class": evaluation.get("scenario_class"),
            "itbench_pass": int(scores.get("itbench_pass", 0)),
            "strict_pass": int(scores.get("strict_pass", 0)),
            "error": evaluation.get("error"),
        }
    return outcomes


def per_class(outcomes: dict[str, dict]) -> dict[str, dict]:
    rows: dict[str, list[dict]] = defaultdict(list)
    for outcome in outcomes.values():
        rows[outcome["class"]].append(outcome)
        rows["overall"].append(outcome)
    table = {}
    for cls, items in sorted(rows.items()):
        n = len(items)
        table[cls] = {
            "trials": n,
            "itbench_pass@1_%": round(100 * sum(i["itbench_pass"] for i in items) / n, 2),
            "strict_pass@1_%": round(100 * sum(i["strict_pass"] for i in items) / n, 2),
            "not_understood": sum(
                1 for i in items if (i["error"] or "").find("not understood") >= 0
            ),
        }
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--skip-suite", action="store_true")
    parser.add_argument("--skip-paraphrases", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    from ciso.agents.rewording import build_suite, load_paraphrases

    document: dict = {"paper_pass@1_%": PAPER, "jobs": args.jobs}
    with tempfile.TemporaryDirectory(prefix="ciso-baseline-") as tmp:
        work = Path(tmp)
        if not args.skip_suite:
            wall, _ = run(None, work / "suite", args.jobs)
            outcomes = trial_outcomes(work / "suite")
            document["suite"] = {
                "wall_time_s": round(wall, 1),
                "per_class": per_class(outcomes),
                "failures": {k: v for k, v in outcomes.items() if not v["strict_pass"]},
            }
        if not args.skip_paraphrases:
            paraphrases = load_paraphrases(PARAPHRASES)
            build_suite(paraphrases, work / "paraphrase-scenarios")
            wall, _ = run(str(work / "paraphrase-scenarios"), work / "paraphrases", args.jobs)
            outcomes = trial_outcomes(work / "paraphrases")
            by_paraphrase: dict[str, dict[str, str]] = defaultdict(dict)
            for scenario_id, outcome in outcomes.items():
                base, cls = scenario_id.rsplit(".", 1)
                by_paraphrase[base][cls] = "pass" if outcome["strict_pass"] else "fail"
            document["paraphrases"] = {
                "count": len(paraphrases),
                "wall_time_s": round(wall, 1),
                "per_class": per_class(outcomes),
                "strict_by_paraphrase": dict(sorted(by_paraphrase.items())),
                "failures": {k: v for k, v in outcomes.items() if not v["strict_pass"]},
            }
    json.dump(document, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
