"""MEASUREMENT (issue 28): the baselines on the held-out sets of measurement/ (written by measurers
who never read the code): the SRE baseline's root_cause_entity F1 on sre-set2's 12 incidents and
the FinOps baseline's root_cause_resource on finops-set2's 30 scenarios, per ground-truth level.
Generates each set into a temporary folder with its own stdlib script, runs `itbench ... run` on
it as a user would, and prints one JSON document. It fixes nothing.

    .venv/bin/python benchmarks/independent_sets.py > figures.json
"""

from __future__ import annotations

import json
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


def _run(domain: str, scenarios: Path, out: Path) -> dict:
    proc = subprocess.run(
        [ITBENCH, domain, "run", "--scenarios", str(scenarios), "--agent", "baseline",
         "--output", str(out), "--format", "json", "--no-progress"],
        capture_output=True, text=True, timeout=3600,
    )  # fmt: skip
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{domain} run failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return json.loads(proc.stdout)


def _mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 3) if values else float("nan")


def sre(tmp: Path) -> dict:
    document = _run("sre", _generate("sre-set2", tmp / "sre"), tmp / "sre-run")
    per = {
        r["incident_id"]: ((r.get("scores") or {}).get("root_cause_entity") or {}).get(
            "calculation_f1", 0.0
        )
        for r in document["raw_results"]
    }
    return {"incidents": len(per), "root_cause_entity_f1": _mean(list(per.values())),
            "per_incident": dict(sorted(per.items(), key=lambda kv: int(kv[0])))}  # fmt: skip


def finops(tmp: Path) -> dict:
    scenarios = _generate("finops-set2", tmp / "finops")
    document = _run("finops", scenarios, tmp / "finops-run")
    by_level: dict[str, list[float]] = defaultdict(list)
    overall = []
    for r in document["raw_results"]:
        truth = yaml.safe_load((scenarios / r["incident_id"] / "ground_truth.yaml").read_text())
        value = ((r.get("scores") or {}).get("root_cause_resource") or {}).get("calculation", 0.0)
        by_level[truth["resource"][0]["type"]].append(value)
        overall.append(value)
    return {"scenarios": len(overall), "root_cause_resource": _mean(overall),
            "by_level": {k: _mean(v) for k, v in sorted(by_level.items())}}  # fmt: skip


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="itbench-independent-") as scratch:
        tmp = Path(scratch)
        print(json.dumps({"sre_set2": sre(tmp), "finops_set2": finops(tmp)}, indent=2))


if __name__ == "__main__":
    main()
