"""MEASUREMENT (issue 28): the baselines on the held-out sets of measurement/ (written by measurers
who never read the code): the SRE baseline's root_cause_entity F1 per incident (sre-set2 to
sre-set25), the FinOps baseline's root_cause_resource per ground-truth level (finops-set2 to
finops-set22; a control with no anomaly scored by the exact match) and the CISO baseline's
ITBench and strict pass per class (ciso-set2 to ciso-set21).
Generates each set into a temporary folder with its own stdlib script, runs `itbench ... run` on
it as a user would, and prints one JSON document. It fixes nothing.

    .venv/bin/python benchmarks/independent_sets.py [--sets sre-set3,finops-set3] > figures.json
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
ITBENCH = str(Path(sys.executable).with_name("itbench"))


def _generate(name: str, out: Path) -> Path:
    subprocess.run([sys.executable, str(REPO / "measurement" / name / "gen.py"), str(out)],
                   check=True, capture_output=True)  # fmt: skip
    return out / "scenarios" if (out / "scenarios").is_dir() else out


class Refused(Exception):
    """The run refused the set's input (exit 3): a set's own fault, reported, not fatal to the
    other sets measured with it."""


def _run(domain: str, scenarios: Path, out: Path) -> dict:
    proc = subprocess.run(
        [ITBENCH, domain, "run", "--scenarios", str(scenarios), "--agent", "baseline",
         "--output", str(out), "--format", "json", "--no-progress"],
        capture_output=True, text=True, timeout=3600,
    )  # fmt: skip
    if proc.returncode == 3:
        raise Refused(proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "exit 3")
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{domain} run failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return json.loads(proc.stdout)


def _mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 3) if values else float("nan")


def sre(tmp: Path, name: str) -> dict:
    document = _run("sre", _generate(name, tmp / name), tmp / f"{name}-run")
    per = {
        r["incident_id"]: ((r.get("scores") or {}).get("root_cause_entity") or {}).get(
            "calculation_f1", 0.0
        )
        for r in document["raw_results"]
    }
    return {"incidents": len(per), "root_cause_entity_f1": _mean(list(per.values())),
            "per_incident": dict(sorted(per.items(), key=lambda kv: _natural(kv[0])))}  # fmt: skip


def _natural(incident_id: str) -> tuple:
    """Incident ids in number order whatever they are named (``3``, ``Scenario-12``)."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", incident_id))


def finops(tmp: Path, name: str) -> dict:
    scenarios = _generate(name, tmp / name)
    document = _run("finops", scenarios, tmp / f"{name}-run")
    by_level: dict[str, list[float]] = defaultdict(list)
    overall = []
    per: dict[str, float] = {}
    anomalies = []
    for r in document["raw_results"]:
        truth = yaml.safe_load((scenarios / r["incident_id"] / "ground_truth.yaml").read_text())
        scores = r.get("scores") or {}
        if truth.get("resource"):
            value = (scores.get("root_cause_resource") or {}).get("calculation", 0.0)
            level = truth["resource"][0]["type"]
            anomalies.append(value)
        else:
            # a control with no anomaly: root_cause_resource has nothing to find on an empty
            # label, so the exact match (nothing named) is the score; it is a plain number
            value = float(scores.get("root_cause_resource_exact") or 0.0)
            level = "no anomaly"
        by_level[level].append(value)
        overall.append(value)
        per[r["incident_id"]] = value
    return {"scenarios": len(overall), "root_cause_resource": _mean(overall),
            "root_cause_resource_anomalies": _mean(anomalies),
            "by_level": {k: _mean(v) for k, v in sorted(by_level.items())},
            "per_scenario": per}  # fmt: skip


def ciso(tmp: Path, name: str) -> dict:
    document = _run("ciso", _generate(name, tmp / name), tmp / f"{name}-run")
    by_class: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    classes = (document.get("config") or {}).get("scenario_classes") or {}
    errors = 0
    per_trial: dict[str, dict[str, float | str]] = {}
    for r in document["raw_results"]:
        if r.get("error"):
            errors += 1
        scores = r.get("scores") or {}
        per_trial[r["incident_id"]] = {
            "itbench_pass": float(scores.get("itbench_pass") or 0.0),
            "strict_pass": float(scores.get("strict_pass") or 0.0),
            **({"error": str(r["error"])[:200]} if r.get("error") else {}),
        }
        for metric in ("itbench_pass", "strict_pass"):
            value = float(scores.get(metric) or 0.0)  # a trial that failed scores 0
            by_class[classes.get(r["incident_id"], "?")][metric].append(value)
            by_class["overall"][metric].append(value)
    return {
        "trials": len(document["raw_results"]),
        "errors": errors,
        "by_class": {
            c: {m: _mean(v) for m, v in metrics.items()} for c, metrics in sorted(by_class.items())
        },
        "per_trial": dict(sorted(per_trial.items())),
    }


MEASURES = {"sre": sre, "finops": finops, "ciso": ciso}
SETS = (
    "sre-set2",
    "sre-set3",
    "sre-set4",
    "sre-set5",
    "sre-set6",
    "sre-set7",
    "sre-set8",
    "sre-set9",
    "sre-set10",
    "sre-set11",
    "sre-set12",
    "sre-set13",
    "sre-set14",
    "sre-set15",
    "sre-set16",
    "sre-set17",
    "sre-set18",
    "sre-set19",
    "sre-set20",
    "sre-set21",
    "sre-set22",
    "sre-set23",
    "sre-set24",
    "sre-set25",
    "finops-set2",
    "finops-set3",
    "finops-set4",
    "finops-set5",
    "finops-set6",
    "finops-set7",
    "finops-set8",
    "finops-set9",
    "finops-set10",
    "finops-set11",
    "finops-set12",
    "finops-set13",
    "finops-set14",
    "finops-set15",
    "finops-set16",
    "finops-set17",
    "finops-set18",
    "finops-set19",
    "finops-set20",
    "finops-set21",
    "finops-set22",
    "ciso-set2",
    "ciso-set3",
    "ciso-set4",
    "ciso-set5",
    "ciso-set6",
    "ciso-set7",
    "ciso-set8",
    "ciso-set9",
    "ciso-set10",
    "ciso-set11",
    "ciso-set12",
    "ciso-set13",
    "ciso-set14",
    "ciso-set15",
    "ciso-set16",
    "ciso-set17",
    "ciso-set18",
    "ciso-set19",
    "ciso-set20",
    "ciso-set21",
)


def _measure(tmp: Path, name: str) -> dict:
    try:
        return MEASURES[name.split("-")[0]](tmp, name)
    except Refused as refusal:
        return {"refused": str(refusal)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated set names")
    names = [n for n in parser.parse_args().sets.split(",") if n]
    unknown = [n for n in names if n not in SETS]
    if unknown:
        parser.error(f"unknown set(s) {', '.join(unknown)}; known: {', '.join(SETS)}")
    with tempfile.TemporaryDirectory(prefix="itbench-independent-") as scratch:
        tmp = Path(scratch)
        figures = {n: _measure(tmp, n) for n in names}
        print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
